// SPDX-License-Identifier: Apache-2.0
#pragma once
// A Qwen3-TTS-12Hz-1.7B-CustomVoice-shaped config.json for the tests: the talker and code
// predictor at the published widths (talker hidden 2048, 28 layers, 16 / 8 heads of 128,
// intermediate 6144, codec vocabulary 3072, M-RoPE sections [24, 20, 20] interleaved, theta 1e6;
// text vocabulary 151936 of width 2048; 16 code groups; code predictor hidden 1024, 5 layers,
// intermediate 3072, vocabulary 2048). The codec control ids are the 2148-2157 range the 12 Hz
// checkpoints use; the speaker and language ids here are the test's own (the reference reads them
// from the config, so their values do not matter to the code under test).
#include <string>

namespace cute_cpp::test {

inline std::string qwen3_tts_config_json(const std::string& talker_extra = "", const std::string& top_extra = "") {
  return R"({
  "architectures": ["Qwen3TTSForConditionalGeneration"],
  "model_type": "qwen3_tts", "tokenizer_type": "qwen3_tts_tokenizer_12hz",
  "tts_model_size": "1b7", "tts_model_type": "custom_voice",
  "im_start_token_id": 151644, "im_end_token_id": 151645,
  "tts_pad_token_id": 151671, "tts_bos_token_id": 151672, "tts_eos_token_id": 151673,
  "torch_dtype": "bfloat16", )" + top_extra + R"(
  "talker_config": {
    "attention_bias": false, "hidden_act": "silu", "hidden_size": 2048, "intermediate_size": 6144,
    "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
    "max_position_embeddings": 32768, "rms_norm_eps": 1e-06, "rope_theta": 1000000,
    "rope_scaling": {"interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default", "type": "default"},
    "vocab_size": 3072, "text_vocab_size": 151936, "text_hidden_size": 2048, "num_code_groups": 16,
    "codec_pad_id": 2148, "codec_bos_id": 2149, "codec_eos_token_id": 2150, "codec_think_id": 2154,
    "codec_nothink_id": 2155, "codec_think_bos_id": 2156, "codec_think_eos_id": 2157,
    "spk_id": {"serena": 3066, "eric": 3070, "ryan": 3061},
    "spk_is_dialect": {"serena": false, "eric": "sichuan_dialect", "ryan": false},
    "codec_language_id": {"chinese": 2055, "english": 2050, "sichuan_dialect": 2062}, )" + talker_extra + R"(
    "code_predictor_config": {
      "attention_bias": false, "hidden_act": "silu", "hidden_size": 1024, "intermediate_size": 3072,
      "num_hidden_layers": 5, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,
      "max_position_embeddings": 65536, "rms_norm_eps": 1e-06, "rope_theta": 1000000, "rope_scaling": null,
      "vocab_size": 2048, "num_code_groups": 16
    }
  }
})";
}

}  // namespace cute_cpp::test
