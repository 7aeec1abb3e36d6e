// SPDX-License-Identifier: Apache-2.0
#pragma once
// tests/cpu/models/tts_codec_config.hpp: the published Qwen3-TTS-Tokenizer-12Hz config.json, the
// fields the decoder reads and the encoder's block shortened to its model type (the decoder never
// reads it), one key per line so tests can replace a line (with_line).
#include <string>

namespace cute_cpp::test {

inline std::string tts_codec_config() {
  return R"({
  "architectures": ["Qwen3TTSTokenizerV2Model"],
  "model_type": "qwen3_tts_tokenizer_12hz",
  "encoder_valid_num_quantizers": 16,
  "input_sample_rate": 24000,
  "output_sample_rate": 24000,
  "decode_upsample_rate": 1920,
  "encode_downsample_rate": 1920,
  "encoder_config": {"model_type": "mimi"},
  "decoder_config": {
    "attention_bias": false,
    "latent_dim": 1024,
    "codebook_dim": 512,
    "codebook_size": 2048,
    "decoder_dim": 1536,
    "hidden_act": "silu",
    "hidden_size": 512,
    "intermediate_size": 1024,
    "layer_scale_initial_scale": 0.01,
    "max_position_embeddings": 8000,
    "head_dim": 64,
    "num_attention_heads": 16,
    "num_hidden_layers": 8,
    "num_key_value_heads": 16,
    "num_quantizers": 16,
    "num_semantic_quantizers": 1,
    "rms_norm_eps": 1e-05,
    "rope_theta": 10000,
    "semantic_codebook_size": 4096,
    "sliding_window": 72,
    "upsample_rates": [8, 5, 4, 3],
    "upsampling_ratios": [2, 2],
    "vector_quantization_hidden_dimension": 512
  }
})";
}

}  // namespace cute_cpp::test
