// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/generate.hpp: the generation loop (generate_loop.hpp) over a Qwen3Model: prefill the
// prompts together, then decode the unfinished sequences together, one token each per step.
#include <cstdint>     // std::int32_t
#include <functional>  // std::function
#include <span>        // std::span
#include <vector>      // std::vector

#include "models/qwen3/model.hpp"     // Qwen3Model
#include "models/qwen3/generate_loop.hpp"  // GenerateOptions, generate_tokens

namespace cute_cpp::models {

/// The generated ids of each prompt (the prompt not included).
/// @pre the prompts fit the model's cache with their max_new_tokens [qwen3.input].
[[nodiscard]] std::vector<std::vector<std::int32_t>> generate(Qwen3Model& model,
                                                              std::span<const std::vector<std::int32_t>> prompts,
                                                              const GenerateOptions& options);

}  // namespace cute_cpp::models
