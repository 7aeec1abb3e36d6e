// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/mrope.cpp: multimodal RoPE's pair-to-id rule, text positions and cos/sin.
#include "models/qwen3_tts/mrope.hpp"

#include <cmath>  // std::cos, std::sin

namespace cute_cpp::models::qwen3_tts {

int mrope_component(int pair, const MropeConfig& m) noexcept {
  if (m.interleaved) {
    // The reference starts from the temporal table and overwrites pairs c, c + 3, ... below 3 s_c
    // with id c's, for c = 1 (height) and 2 (width).
    for (int c = 1; c < 3; ++c)
      if (pair % 3 == c && pair < 3 * m.sections[std::size_t(c)]) return c;
    return 0;
  }
  if (pair < m.sections[0]) return 0;
  return pair < m.sections[0] + m.sections[1] ? 1 : 2;
}

std::vector<std::int8_t> mrope_components(const MropeConfig& m) {
  int const half = m.sections[0] + m.sections[1] + m.sections[2];
  std::vector<std::int8_t> out(std::size_t(half), 0);
  for (int i = 0; i < half; ++i) out[std::size_t(i)] = std::int8_t(mrope_component(i, m));
  return out;
}

MropePositions text_positions(std::int64_t first, std::int64_t count) {
  MropePositions p;
  p.tokens = count;
  p.planes.resize(std::size_t(4 * count));
  for (int plane = 0; plane < 4; ++plane)
    for (std::int64_t t = 0; t < count; ++t) p.planes[std::size_t(plane * count + t)] = std::int32_t(first + t);
  return p;
}

CosSin mrope_cos_sin(const std::vector<float>& inv_freq, std::array<std::int32_t, 3> ids, const MropeConfig& m) {
  CosSin r;
  r.cos.resize(inv_freq.size());
  r.sin.resize(inv_freq.size());
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    // NOTE: the reference multiplies the float32 position by the float32 inverse frequency (a
    // matmul of one term: one rounding), then takes cos and sin in float32.
    float const angle = float(ids[std::size_t(mrope_component(int(i), m))]) * inv_freq[i];
    r.cos[i] = std::cos(angle);
    r.sin[i] = std::sin(angle);
  }
  return r;
}

}  // namespace cute_cpp::models::qwen3_tts
