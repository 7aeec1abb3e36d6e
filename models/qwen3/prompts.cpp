// SPDX-License-Identifier: Apache-2.0
#include "models/qwen3/prompts.hpp"

#include <algorithm>  // std::min, std::max
#include <string>     // std::to_string

#include "models/common/error.hpp"  // LoadError

namespace cute_cpp::models {

std::string positions_text(const Qwen3Config& config) {
  std::string text = "max_position_embeddings " + std::to_string(config.max_position_embeddings);
  if (config.max_positions() != config.max_position_embeddings)
    text += ", YaRN " + std::to_string(config.max_positions()) + " positions";
  return text;
}

void check_prompts(const Qwen3Config& config, int max_seq, std::span<const std::vector<std::int32_t>> prompts,
                   int max_new_tokens) {
  std::int64_t const positions = config.max_positions();
  std::int64_t const limit = max_seq > 0 ? std::min<std::int64_t>(max_seq, positions) : positions;
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    auto const& p = prompts[i];
    if (p.empty()) throw LoadError(kQwen3InputRule, "prompt " + std::to_string(i) + " is empty");
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (p[j] < 0 || p[j] >= config.vocab_size)
        throw LoadError(kQwen3InputRule, "prompt " + std::to_string(i) + ": id " + std::to_string(p[j]) + " at position " +
                                        std::to_string(j) + " is outside [0, " + std::to_string(config.vocab_size) +
                                        ")");
    }
    // A sequence must hold its prompt and every token it may generate.
    std::int64_t const need = std::int64_t(p.size()) + std::max(max_new_tokens, 0);
    if (need > limit)
      throw LoadError(kQwen3InputRule, "prompt " + std::to_string(i) + ": " + std::to_string(p.size()) + " tokens and " +
                                      std::to_string(std::max(max_new_tokens, 0)) +
                                      " new ones exceed the sequence limit " + std::to_string(limit) +
                                      " (max_seq " + std::to_string(max_seq) + ", " + positions_text(config) + ")");
  }
}

}  // namespace cute_cpp::models
