// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The order in which a persistent attention kernel walks its tiles (a Q block of one q head of one
// sequence). Every tile of a head reads that head's whole K/V, so what the CTAs running at once
// read from DRAM is set by how many kv heads they span. Walking q heads fastest (fmha_sm90's first
// order) made the 132 CTAs of an H200 span all 128 (head, sequence) pairs at B4 H32 S4096 D128:
// 256 MB of K/V, several times the L2; ncu (2026-12-03) measured an L2 hit rate of 4% and DRAM at
// 87% of peak, where cuDNN's kernel hit 88% in L2. This order walks sections of a few kv heads
// (with all their q heads) whose K/V fit half the L2, Q block by Q block within a section, the
// section's q heads fastest; masked problems take a section's longest Q blocks first, so each
// section ends on short tiles. Unmasked problems, whose tiles are all alike, take one kv head a
// section: the running CTAs then span the fewest heads (H200, 2026-12-04: B16 S1024 D128 +3%,
// varlen +5%, S4096 +2% against half-L2 sections). A static persistent scheduler deals tile i to
// CTA i mod ctas: with one head's Q blocks a masked section (22 at D64 S4096, and 132 CTAs a
// multiple of 22) each CTA got the same rank of length over and over (D64 causal fell from 0.92x
// to 0.57x of cuDNN). So the order can deal every other round of `ctas` in reverse: a CTA's
// tiles then alternate between the long and the short end of a round, and one-head sections
// give each CTA the mean work within a tile (fmha_sm90 from 2048 keys; below, half-L2 sections
// dealt in order measured faster).
#include <cute_cpp/config.hpp>
#include <cute_cpp/sched/fast_divmod.hpp>

#include <algorithm>
#include <cstdint>

namespace cute_cpp {

/// A tile's coordinates in an attention problem.
struct AttentionTileCoord {
  std::int32_t m_block = 0, head = 0, batch = 0;
};

/// The tile order of a persistent attention kernel: linear tile index -> (Q block, q head,
/// sequence), a bijection on [0, m_blocks x heads_q x batch).
struct AttentionTileOrder {
  std::uint32_t m_blocks = 1;
  std::uint32_t heads_total = 1;    ///< q heads x sequences
  std::uint32_t section_heads = 1;  ///< q heads per section (whole kv groups)
  bool longest_first = false;       ///< Q blocks from the last (the longest under a causal mask)
  FastDivmod section_tiles_div;     ///< by section_heads x m_blocks
  FastDivmod section_heads_div;     ///< by section_heads
  FastDivmod heads_div;             ///< by heads_q
  FastDivmod ctas_div;              ///< by the CTAs the tiles are dealt to

  /// The order for a problem whose kv heads each hold `kv_bytes` of K and V: one kv head a
  /// section, or (longest_first: a masked problem) sections sized to `budget` bytes (half the L2:
  /// the section in flight and the next one's first tiles); `ctas`: the CTAs a static scheduler
  /// deals the linear indices to, round-robin (1: the order as it is).
  /// @pre m_blocks x heads_q x batch < 2^31, heads_kv divides heads_q, ctas >= 1
  static AttentionTileOrder make(std::int64_t m_blocks, std::int64_t heads_q, std::int64_t heads_kv,
                                 std::int64_t batch, bool longest_first, std::int64_t kv_bytes, std::int64_t budget,
                                 std::int64_t ctas) {
    std::int64_t const kv_total = heads_kv * batch;
    std::int64_t const section_kv =
        longest_first ? std::clamp<std::int64_t>(budget / std::max<std::int64_t>(kv_bytes, 1), 1, kv_total) : 1;
    AttentionTileOrder o;
    o.m_blocks = std::uint32_t(m_blocks);
    o.heads_total = std::uint32_t(heads_q * batch);
    o.section_heads = std::uint32_t(section_kv * (heads_q / heads_kv));
    o.longest_first = longest_first;
    o.section_tiles_div = FastDivmod(o.section_heads * o.m_blocks);
    o.section_heads_div = FastDivmod(o.section_heads);
    o.heads_div = FastDivmod(std::uint32_t(heads_q));
    o.ctas_div = FastDivmod(std::uint32_t(std::max<std::int64_t>(ctas, 1)));
    return o;
  }

  /// The place in the order of the tile dealt as `dealt`: every other round of `ctas` reversed.
  [[nodiscard]] CUTE_CPP_HD constexpr std::uint32_t undealt(std::uint32_t dealt) const {
    std::uint32_t round = 0, slot = 0;
    ctas_div.divmod(dealt, round, slot);
    if (round % 2 == 0) return dealt;
    std::uint32_t const start = dealt - slot, left = m_blocks * heads_total - start;
    std::uint32_t const here = left < ctas_div.divisor ? left : ctas_div.divisor;
    return start + here - 1 - slot;
  }

  /// The tile dealt as `dealt` (< m_blocks x heads_total).
  [[nodiscard]] CUTE_CPP_HD constexpr AttentionTileCoord operator()(std::uint32_t dealt) const {
    std::uint32_t const linear = undealt(dealt);
    std::uint32_t section = 0, rest = 0;
    section_tiles_div.divmod(linear, section, rest);
    std::uint32_t const first = section * section_heads;
    std::uint32_t const heads_here = heads_total - first < section_heads ? heads_total - first : section_heads;
    std::uint32_t mb = 0, in_section = 0;
    if (heads_here == section_heads) {
      section_heads_div.divmod(rest, mb, in_section);
    } else {  // the last section, short of heads
      mb = rest / heads_here;
      in_section = rest - mb * heads_here;
    }
    std::uint32_t batch = 0, head = 0;
    heads_div.divmod(first + in_section, batch, head);
    return {std::int32_t(longest_first ? m_blocks - 1 - mb : mb), std::int32_t(head), std::int32_t(batch)};
  }
};

}  // namespace cute_cpp
