// SPDX-License-Identifier: Apache-2.0
#include "models/qwen3/generate.hpp"

namespace cute_cpp::models {

std::vector<std::vector<std::int32_t>> generate(Qwen3Model& model, std::span<const std::vector<std::int32_t>> prompts,
                                                const GenerateOptions& options) {
  return generate_tokens(model, prompts, options);
}

}  // namespace cute_cpp::models
