// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/config.hpp: the config.json of Qwen3-TTS's 12 Hz speech tokenizer (model_type
// qwen3_tts_tokenizer_12hz) as far as its decoder ("code2wav": codes [B, Q, T] at 12.5 Hz to a
// 24 kHz waveform) needs it: the decoder_config object's widths, the transformer's fields and the
// upsampling schedule, each checked against what the GPU decoder implements. Field meanings follow
// qwen-tts 0.1.1 (Qwen3TTSTokenizerV2DecoderConfig and Qwen3TTSTokenizerV2Decoder).
#include <cstdint>     // std::int64_t
#include <filesystem>  // std::filesystem::path
#include <string>      // std::string
#include <vector>      // std::vector

#include "models/common/json.hpp"  // Json

namespace cute_cpp::models::qwen3_tts {

// ---- CodecConfig ----

/// The decoder's fields. Every width is read from the file; none has a built-in value.
struct CodecConfig {
  std::string model_type;  ///< "qwen3_tts_tokenizer_12hz"
  std::int64_t output_sample_rate = 24000;

  // Split residual vector quantizer: codebook 0 through rvq_first, codebooks 1..Q-1 through rvq_rest.
  std::int64_t codebook_size = 0;    ///< entries of each codebook
  std::int64_t codebook_dim = 0;     ///< the quantizer's output width; each codebook holds codebook_dim / 2
  std::int64_t num_quantizers = 0;   ///< Q, the codebooks a frame carries
  std::int64_t num_semantic_quantizers = 1;  ///< codebooks in rvq_first (the reference fixes 1)

  std::int64_t latent_dim = 0;  ///< pre_conv's output, the transformer's in/out and the ConvNeXt width

  // The pre-transformer (sliding-window causal attention, RoPE, SwiGLU, layer scales).
  std::int64_t hidden_size = 0;
  std::int64_t num_hidden_layers = 0;
  std::int64_t num_attention_heads = 0;
  std::int64_t num_key_value_heads = 0;
  std::int64_t head_dim = 0;           ///< "head_dim", or hidden_size / num_attention_heads when absent
  std::int64_t intermediate_size = 0;  ///< the SwiGLU MLP's width
  std::int64_t sliding_window = 0;     ///< a query sees itself and the sliding_window - 1 frames before
  std::int64_t max_position_embeddings = 8000;  ///< read; RoPE is computed, not tabled
  double rope_theta = 10000;
  double rms_norm_eps = 1e-5;

  // Upsampling: ConvNeXt upsamplers (upsampling_ratios), then the decoder blocks (upsample_rates).
  std::vector<std::int64_t> upsampling_ratios;
  std::vector<std::int64_t> upsample_rates;
  std::int64_t decoder_dim = 0;  ///< the first decoder conv's width; each block halves it

  /// codebook_dim / 2: each codebook's entry width.
  [[nodiscard]] std::int64_t codebook_entry_dim() const noexcept { return codebook_dim / 2; }
  /// heads x head_dim: the attention's q and o width.
  [[nodiscard]] std::int64_t attention_width() const noexcept { return num_attention_heads * head_dim; }
  /// K and V width.
  [[nodiscard]] std::int64_t kv_width() const noexcept { return num_key_value_heads * head_dim; }
  /// Decoder block i's input width, decoder_dim / 2^i (i = number of blocks: the output conv's input).
  [[nodiscard]] std::int64_t block_width(std::size_t i) const noexcept { return decoder_dim >> i; }
  /// Samples per frame: the product of upsampling_ratios and upsample_rates (1920 published).
  [[nodiscard]] std::int64_t total_upsample() const noexcept;
  /// Samples per frame after the ConvNeXt upsamplers only (4 published).
  [[nodiscard]] std::int64_t latent_upsample() const noexcept;
};

/// Reads the fields from a parsed tokenizer config.json (the decoder's under "decoder_config");
/// `Json::source()` names the file in errors.
///   parse_codec_config(read_json_file("Qwen3-TTS-Tokenizer-12Hz/config.json")).total_upsample() -> 1920
/// @pre model_type is "qwen3_tts_tokenizer_12hz" [config.model-type]; decoder_config is an object
///      [json.missing], [json.type]; codebook_size, codebook_dim, num_quantizers, latent_dim,
///      hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads,
///      intermediate_size, sliding_window, decoder_dim, upsampling_ratios and upsample_rates are
///      present [json.missing]; head_dim, rope_theta, rms_norm_eps, max_position_embeddings,
///      hidden_act, attention_bias, num_semantic_quantizers take the reference's defaults when
///      absent; sizes are positive; num_quantizers >= 2; num_attention_heads is a multiple of
///      num_key_value_heads; the lists are non-empty; decoder_dim divides by 2^len(upsample_rates);
///      decode_upsample_rate, when given, is the product of the two lists [config.value]; the
///      decoder implements it [config.unsupported]: hidden_act "silu", no attention_bias, no
///      rope_scaling, num_semantic_quantizers 1, head_dim 64, 128 or 256 (the attention kernels),
///      upsampling_ratios all 2 and upsample_rates each 8, 5, 4 or 3 (the compiled transposed-conv
///      plans), and codebook_dim / 2, codebook_dim, latent_dim, hidden_size, attention and MLP
///      widths and every decoder block's width multiples of 8 (16-byte rows).
[[nodiscard]] CodecConfig parse_codec_config(const Json& config);
/// read_json_file(path) then parse_codec_config; `path` is config.json or the folder holding it.
[[nodiscard]] CodecConfig read_codec_config(const std::filesystem::path& path);

}  // namespace cute_cpp::models::qwen3_tts
