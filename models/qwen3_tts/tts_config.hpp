// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/tts_config.hpp: a Qwen3-TTS config.json (model_type "qwen3_tts"): the talker (a Qwen3
// decoder with multimodal RoPE over codec tokens), its code predictor (a small Qwen3 decoder with
// plain RoPE), the text side (embedding and projection), and the special token ids the prompt is
// built of: codec control ids, speakers and languages as codec ids, and the text tokens tts_bos,
// tts_eos, tts_pad. Fields as the qwen-tts package (0.1.1) reads them (Qwen3TTSConfig,
// Qwen3TTSTalkerConfig, Qwen3TTSTalkerCodePredictorConfig). Host only.
#include <array>        // std::array
#include <cstdint>      // std::int64_t
#include <filesystem>   // std::filesystem::path
#include <map>          // std::map
#include <optional>     // std::optional
#include <string>       // std::string

#include "models/common/checkpoint.hpp"  // Qwen3Config
#include "models/common/json.hpp"        // Json

namespace cute_cpp::models::qwen3_tts {

/// The talker's multimodal RoPE: the head's frequency pairs split among three position ids
/// (temporal, height, width). `sections` counts the pairs of each; they add up to head_dim / 2.
/// Interleaved (every published config): pair i < 3 * min(sections) style striping as the
/// reference lays it out (mrope.hpp: mrope_component); else consecutive blocks.
struct MropeConfig {
  std::array<int, 3> sections{};
  bool interleaved = false;
};

/// The talker's fields beyond a Qwen3 decoder's.
struct TalkerConfig {
  Qwen3Config decoder;  ///< the talker's layers (model_type "qwen3"; vocab_size is the codec vocabulary)
  MropeConfig mrope;
  std::int64_t text_vocab_size = 0;
  std::int64_t text_hidden_size = 0;
  std::int64_t num_code_groups = 0;  ///< codebooks per frame (16 on the 12 Hz models)
  // Codec control ids (codec vocabulary).
  std::int64_t codec_eos_token_id = 0, codec_think_id = 0, codec_nothink_id = 0;
  std::int64_t codec_think_bos_id = 0, codec_think_eos_id = 0, codec_pad_id = 0, codec_bos_id = 0;
  std::map<std::string, std::int64_t> spk_id;             ///< speaker (lower case) -> codec id
  std::map<std::string, std::string> spk_is_dialect;      ///< speaker -> dialect name; absent or false: none
  std::map<std::string, std::int64_t> codec_language_id;  ///< language or dialect (lower case) -> codec id
};

/// A Qwen3-TTS checkpoint's config.json.
struct Qwen3TtsConfig {
  TalkerConfig talker;
  Qwen3Config code_predictor;  ///< the code predictor's layers (vocab_size: codebook entries)
  std::string tts_model_type;  ///< "custom_voice", "voice_design" or "base" (empty when absent)
  std::string tts_model_size;  ///< "1b7", "0b6" (empty when absent)
  std::string tokenizer_type;  ///< "qwen3_tts_tokenizer_12hz" (empty when absent)
  // Text-vocabulary ids.
  std::int64_t im_start_token_id = 151644, im_end_token_id = 151645;
  std::int64_t tts_pad_token_id = 151671, tts_bos_token_id = 151672, tts_eos_token_id = 151673;

  /// Whether the code predictor's input is projected from the talker's width
  /// (talker.code_predictor.small_to_mtp_projection, a Linear with bias; else the identity).
  [[nodiscard]] bool projects_to_predictor() const noexcept {
    return code_predictor.hidden_size != talker.decoder.hidden_size;
  }
};

/// How codes are drawn, as the reference's generate does: the talker's first code per frame with the
/// repetition penalty over the frame's earlier first codes, the codec ids from vocab - 1024 up (but
/// eos) suppressed and eos held back for the first 2 frames, then temperature, top-k and top-p; the
/// code predictor's codes with their own temperature, top-k and top-p. Greedy (do_sample false)
/// takes the argmax after the same processors. The defaults are the reference's hard defaults
/// (Qwen3TTSModel._merge_generate_kwargs), which generation_config.json overrides.
struct TtsSampling {
  bool do_sample = true;
  int top_k = 50;
  float top_p = 1.0f;
  float temperature = 0.9f;
  float repetition_penalty = 1.05f;
  bool subtalker_do_sample = true;
  int subtalker_top_k = 50;
  float subtalker_top_p = 1.0f;
  float subtalker_temperature = 0.9f;
  int max_new_tokens = 2048;  ///< first codes drawn at most (the last one's frame is not completed)
  std::uint64_t seed = 0;     ///< the device sampler's stream (models/qwen3/sampling.hpp)
  /// Benchmarks only (cute-cpp-tts bench): eos is never drawn, so that random weights give exactly
  /// max_new_tokens - 1 frames. Not a reference option.
  bool suppress_eos = false;
};

/// The reference's defaults overridden by `folder`/generation_config.json where it exists and has
/// the field (do_sample, top_k, top_p, temperature, repetition_penalty, subtalker_dosample,
/// subtalker_top_k, subtalker_top_p, subtalker_temperature, max_new_tokens); other fields are ignored.
/// @pre the fields present have their JSON types [json.type].
[[nodiscard]] TtsSampling read_generation_defaults(const std::filesystem::path& folder);

/// Reads a parsed config.json; errors name the file and the field, with the sub-config's path
/// ("talker_config.code_predictor_config.hidden_size").
/// @pre model_type "qwen3_tts" [config.model-type]; talker_config and its code_predictor_config are
///      objects [json.type] with hidden_size, intermediate_size, num_hidden_layers,
///      num_attention_heads, num_key_value_heads, vocab_size, rms_norm_eps, rope_theta positive
///      [json.missing] / [config.value]; head_dim (optional: hidden_size / num_attention_heads) and
///      num_attention_heads a multiple of num_key_value_heads [config.value]; no attention bias, no
///      sliding window, hidden_act "silu" [config.unsupported]; the talker's rope_scaling has
///      "mrope_section" of three non-negative counts adding up to head_dim / 2 and an optional
///      boolean "interleaved" [config.value] (other RoPE types [config.unsupported]); the code
///      predictor's RoPE is plain [config.unsupported]; num_code_groups >= 2, and the code
///      predictor's num_code_groups (when given) equal to it [config.value]; text_vocab_size and
///      text_hidden_size positive; every codec id in [0, talker vocab_size) and every text id in
///      [0, text_vocab_size) [config.value]; spk_id and codec_language_id objects of integers,
///      spk_is_dialect an object of false or a language name found in codec_language_id [config.value];
///      torch_dtype (or dtype) at the top level or in talker_config is bfloat16, float16 or float32.
[[nodiscard]] Qwen3TtsConfig parse_qwen3_tts_config(const Json& config);
/// read_json_file then parse_qwen3_tts_config; `path` is config.json or the folder holding it.
[[nodiscard]] Qwen3TtsConfig read_qwen3_tts_config(const std::filesystem::path& path);

}  // namespace cute_cpp::models::qwen3_tts
