// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/mrope.hpp: the talker's multimodal RoPE on the host: which of a token's three
// position ids (temporal, height, width) turns each frequency pair of a head, the position ids of a
// text-only sequence, and the cos/sin a kernel applies, in the float32 steps of the reference
// (qwen-tts 0.1.1, Qwen3TTSTalkerRotaryEmbedding and apply_multimodal_rotary_pos_emb).
#include <array>    // std::array
#include <cstdint>  // std::int8_t, std::int32_t, std::int64_t
#include <vector>   // std::vector

#include "models/qwen3_tts/tts_config.hpp"  // MropeConfig

namespace cute_cpp::models::qwen3_tts {

/// The position id (0 temporal, 1 height, 2 width) that turns frequency pair `pair` (of head_dim / 2;
/// pair i rotates elements i and i + head_dim / 2). With sections (s0, s1, s2):
///   interleaved: pair i takes id c for c = i mod 3 in {1, 2} when i < 3 s_c, else id 0, so
///                [24, 20, 20] gives 0 1 2 0 1 2 ... up to pair 59, then 0 0 0 0;
///   blocks:      pairs [0, s0) take id 0, [s0, s0 + s1) id 1, the rest id 2.
/// @pre 0 <= pair < s0 + s1 + s2.
[[nodiscard]] int mrope_component(int pair, const MropeConfig& mrope) noexcept;
/// mrope_component of every pair, index = pair: what the RoPE kernel reads.
[[nodiscard]] std::vector<std::int8_t> mrope_components(const MropeConfig& mrope);

/// Position ids for the RoPE kernel, four planes of `tokens` entries: plane 0 the tokens' places in
/// the sequence (their KV-cache slots), planes 1 to 3 their temporal, height and width ids.
struct MropePositions {
  std::int64_t tokens = 0;
  std::vector<std::int32_t> planes;  ///< [4, tokens]
  [[nodiscard]] std::int32_t at(int plane, std::int64_t token) const { return planes[std::size_t(plane * tokens + token)]; }
};

/// A text-only sequence's ids for tokens first .. first + count - 1: the three ids equal the place
/// in the sequence, as the reference's get_rope_index gives them for an unpadded prompt (and its
/// decode steps, whose rope delta is 0 then).
[[nodiscard]] MropePositions text_positions(std::int64_t first, std::int64_t count);

/// The cos and sin the kernel multiplies element i (and i + head_dim / 2) of a head by, for a token
/// whose three ids are `ids`: angle = float(ids[mrope_component(i)]) * inv_freq[i] in float32, then
/// cosf and sinf in float32 (the kernel rounds them to bf16 after). inv_freq from rope_frequencies.
struct CosSin {
  std::vector<float> cos, sin;  ///< [head_dim / 2]
};
[[nodiscard]] CosSin mrope_cos_sin(const std::vector<float>& inv_freq, std::array<std::int32_t, 3> ids,
                                   const MropeConfig& mrope);

}  // namespace cute_cpp::models::qwen3_tts
