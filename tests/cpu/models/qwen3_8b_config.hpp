// SPDX-License-Identifier: Apache-2.0
#pragma once
// tests/cpu/models/qwen3_8b_config.hpp: the Qwen3-8B config.json as Hugging Face publishes it
// (shared/models/qwen3-8b.json), and the same text with one field's line replaced or added, for
// the config reader's and the RoPE frequencies' tests.
#include <string>

namespace cute_cpp::test {

inline std::string qwen3_8b_config() {
  return R"({
  "architectures": ["Qwen3ForCausalLM"],
  "model_type": "qwen3",
  "hidden_size": 4096,
  "intermediate_size": 12288,
  "num_hidden_layers": 36,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "head_dim": 128,
  "vocab_size": 151936,
  "max_position_embeddings": 40960,
  "rope_theta": 1000000,
  "rms_norm_eps": 1e-06,
  "hidden_act": "silu",
  "attention_bias": false,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16",
  "bos_token_id": 151643,
  "eos_token_id": 151645
})";
}

/// `config` with `key`'s line replaced by `line` (or removed when empty); replacing a line the
/// reader ignores, as "hidden_act", adds `line`.
/// @pre `key` is one of the config's keys, not its last.
inline std::string with_line(std::string config, const std::string& key, const std::string& line) {
  auto const at = config.find("\"" + key + "\"");
  auto const end = config.find('\n', at);
  config.replace(at, end - at + 1, line.empty() ? std::string() : line + ",\n");
  return config;
}

inline std::string qwen3_8b_config_with(const std::string& key, const std::string& line) {
  return with_line(qwen3_8b_config(), key, line);
}

/// Qwen's 131072-token setting, as its model cards say to add it to config.json.
inline constexpr char kQwenYarn[] =
    R"({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768})";

}  // namespace cute_cpp::test
