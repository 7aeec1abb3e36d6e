// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/generate.hpp: the generation loop over a Qwen3Model: prefill the prompts together,
// then decode the unfinished sequences together, one token each per step, drawing each token on
// the device (sampling.hpp) and stopping a sequence at a stop id or at max_new_tokens.
#include <cstdint>     // std::int32_t
#include <functional>  // std::function
#include <span>        // std::span
#include <vector>      // std::vector

#include "models/qwen3/model.hpp"     // Qwen3Model
#include "models/qwen3/sampling.hpp"  // SamplingParams

namespace cute_cpp::models {

/// What generate() does besides the prompts.
struct GenerateOptions {
  int max_new_tokens = 128;
  SamplingParams sampling{};
  std::vector<std::int32_t> stop_ids;  ///< a sequence ends after emitting one of these (it is kept)
  /// Called with (prompt index, id) as each token is drawn, for streaming; may be empty.
  std::function<void(int, std::int32_t)> on_token;
};

/// The generated ids of each prompt (the prompt not included).
/// @pre the prompts fit the model's cache with their max_new_tokens [qwen3.input].
[[nodiscard]] std::vector<std::vector<std::int32_t>> generate(Qwen3Model& model,
                                                              std::span<const std::vector<std::int32_t>> prompts,
                                                              const GenerateOptions& options);

}  // namespace cute_cpp::models
