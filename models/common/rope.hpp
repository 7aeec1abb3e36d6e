// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/rope.hpp: RoPE's inverse frequencies and cos/sin scale for a Qwen3Config, plain RoPE
// or YaRN, in float32 step by step as transformers 5 computes them (modeling_rope_utils.py:
// _compute_default_rope_parameters, _compute_yarn_parameters), so that a decoder's rotations agree
// with its reference. Host only.
#include <vector>  // std::vector

#include "models/common/checkpoint.hpp"  // Qwen3Config, YarnScaling

namespace cute_cpp::models {

// ---- rope_frequencies ----

/// What a RoPE kernel needs: the angle of pair i at position p is p * inv_freq[i] (float32), and
/// cos and sin of it are multiplied by cos_sin_scale (float32) before rounding to the activations'
/// type. Positions themselves are never scaled.
struct RopeFrequencies {
  std::vector<float> inv_freq;  ///< [head_dim / 2]
  float cos_sin_scale = 1.0f;   ///< YaRN's attention factor; 1 for plain RoPE
};

/// The frequencies of config's RoPE. With d = head_dim, theta = rope_theta and q_i = theta^(2i / d)
/// (powf of float32 values):
///   plain RoPE:  inv_freq[i] = 1 / q_i, cos_sin_scale 1;
///   YaRN:        inv_freq[i] = 1 / (factor q_i) * (1 - e_i) + 1 / q_i * e_i, where e_i = 1 - ramp_i
///                falls from 1 to 0 across the correction range [low, high]: the pair that turns
///                beta_fast times in original_max_position_embeddings to the one that turns
///                beta_slow times (floored and ceiled unless truncate is false); cos_sin_scale is
///                attention_factor, or mscale(factor, mscale) / mscale(factor, mscale_all_dim) when
///                both mscales are set, else mscale(factor), with mscale(s, m) = 0.1 m ln(s) + 1 (1
///                for s <= 1).
///   Qwen3-8B with Qwen's setting (factor 4, original 32768): low 23, high 40; inv_freq[0] = 1,
///   inv_freq[63] = 3.10234441e-07 (1e6^(-126/128) / 4), cos_sin_scale 1.1386294 (0.1 ln 4 + 1).
/// @pre config as parse_qwen3_config gives it (head_dim, rope_theta, YaRN's factor and original
///      length positive).
/// @post inv_freq.size() == head_dim / 2.
[[nodiscard]] RopeFrequencies rope_frequencies(const Qwen3Config& config);

}  // namespace cute_cpp::models
