// SPDX-License-Identifier: Apache-2.0
// models/common/rope.cpp: RoPE's frequencies, plain and YaRN, in transformers 5's float32 steps.
#include "models/common/rope.hpp"

#include <algorithm>  // std::clamp, std::max, std::min
#include <cmath>      // std::pow, std::log, std::floor, std::ceil
#include <numbers>    // std::numbers::pi

namespace cute_cpp::models {

namespace {
/// YaRN's attention scale for a context stretched s times (transformers' get_mscale).
double mscale(double s, double m = 1.0) { return s <= 1 ? 1.0 : 0.1 * m * std::log(s) + 1.0; }
}  // namespace

// ---- rope_frequencies ----

RopeFrequencies rope_frequencies(const Qwen3Config& config) {
  int const dim = int(config.head_dim);
  int const half = dim / 2;
  // NOTE: torch raises the float32 theta to float32 exponents (2i as float / d as float) in float32;
  // std::pow of two floats is powf.
  std::vector<float> pos_freq(std::size_t(half), 0.0f);
  for (int i = 0; i < half; ++i)
    pos_freq[std::size_t(i)] = std::pow(float(config.rope_theta), float(2 * i) / float(dim));

  RopeFrequencies r;
  r.inv_freq.resize(std::size_t(half));
  if (!config.yarn) {
    for (int i = 0; i < half; ++i) r.inv_freq[std::size_t(i)] = 1.0f / pos_freq[std::size_t(i)];
    return r;
  }
  YarnScaling const& y = *config.yarn;
  double attention = mscale(y.factor);
  if (y.attention_factor)
    attention = *y.attention_factor;
  else if (y.mscale != 0 && y.mscale_all_dim != 0)
    attention = mscale(y.factor, y.mscale) / mscale(y.factor, y.mscale_all_dim);
  r.cos_sin_scale = float(attention);  // torch multiplies the float32 cos and sin by it as a float32

  // The correction range, in double as Python computes it: the pair index that makes `turns` full
  // turns over the original context.
  double const original = double(y.original_max_position_embeddings);
  auto const pair_of = [&](double turns) {
    return dim * std::log(original / (turns * 2 * std::numbers::pi)) / (2 * std::log(config.rope_theta));
  };
  double low = pair_of(y.beta_fast), high = pair_of(y.beta_slow);
  if (y.truncate) low = std::floor(low), high = std::ceil(high);
  low = std::max(low, 0.0);
  high = std::min(high, double(dim - 1));
  if (low == high) high += 0.001;

  // NOTE: each step rounded to float32 as torch's elementwise ops round it: the ramp from
  // (i - low) / (high - low) with low and (high - low) as float32 scalars, then the two inverse
  // frequencies blended with e = 1 - ramp.
  float const factor = float(y.factor), low_f = float(low), span = float(high - low);
  for (int i = 0; i < half; ++i) {
    float const ramp = std::clamp((float(i) - low_f) / span, 0.0f, 1.0f);
    float const e = 1.0f - ramp;
    float const extrapolation = 1.0f / pos_freq[std::size_t(i)];
    float const interpolation = 1.0f / (factor * pos_freq[std::size_t(i)]);
    float const a = interpolation * (1.0f - e);
    float const b = extrapolation * e;
    r.inv_freq[std::size_t(i)] = a + b;
  }
  return r;
}

}  // namespace cute_cpp::models
