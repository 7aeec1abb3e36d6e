// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/prompts.hpp: the checks every prompt passes before anything is loaded or launched
// (host only; the program, generate() and Qwen3Model::prefill all call them).
#include <cstdint>  // std::int32_t
#include <span>     // std::span
#include <string>   // std::string
#include <vector>   // std::vector

#include "models/common/checkpoint.hpp"  // Qwen3Config

namespace cute_cpp::models {

/// The rule every refused prompt, id or sequence length names.
inline constexpr char const* kQwen3InputRule =
    "cute-cpp [qwen3.input]: prompts are non-empty, ids lie in [0, vocab_size), and every sequence fits max_seq and "
    "the config's positions (max_position_embeddings, or YaRN's factor x original_max_position_embeddings if longer)";

/// The config's position limit as the messages give it:
///   "max_position_embeddings 40960", or with Qwen's YaRN setting
///   "max_position_embeddings 40960, YaRN 131072 positions" (Qwen3Config::max_positions).
[[nodiscard]] std::string positions_text(const Qwen3Config& config);

/// Checks prompts against a config: each is non-empty, its ids lie in [0, vocab_size), and it fits
/// `max_seq` (0: no limit beyond the config) and the config's positions (Qwen3Config::max_positions)
/// together with `max_new_tokens`; otherwise throws LoadError naming [qwen3.input], the prompt and
/// the value.
void check_prompts(const Qwen3Config& config, int max_seq, std::span<const std::vector<std::int32_t>> prompts,
                   int max_new_tokens);

}  // namespace cute_cpp::models
