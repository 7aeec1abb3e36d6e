// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#include <cute_cpp/attention/tile_order.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using cute_cpp::AttentionTileCoord;
using cute_cpp::AttentionTileOrder;

struct Problem {
  std::int64_t m_blocks, heads_q, heads_kv, batch, kv_bytes, budget;
  bool longest_first;
};

std::string name(Problem const& p) {
  return "m_blocks " + std::to_string(p.m_blocks) + " heads " + std::to_string(p.heads_q) + "/" +
         std::to_string(p.heads_kv) + " batch " + std::to_string(p.batch) + " kv " + std::to_string(p.kv_bytes) +
         " budget " + std::to_string(p.budget);
}

// Every tile once; a section's tiles are its q heads' (whole kv groups, the section's q heads
// fastest), Q block by Q block; longest first when asked, and then at most budget / kv_bytes kv
// heads (and at least one) to a section; one kv head a section otherwise.
TEST(AttentionTileOrder, VisitsEveryTileOnceSectionBySection) {
  std::vector<Problem> const problems = {
      {32, 32, 32, 4, 2 << 20, 25 << 20, false},   // B4 H32 S4096 D128: one kv head a section
      {32, 32, 32, 4, 2 << 20, 25 << 20, true},    // causal: 12 kv heads a section
      {128, 32, 32, 1, 8 << 20, 25 << 20, true},   // B1 S16384 causal: 3 heads a section, the last 2
      {32, 32, 8, 4, 2 << 20, 25 << 20, false},    // GQA 32/8: one kv head = 4 q heads
      {32, 32, 8, 4, 2 << 20, 25 << 20, true},     // GQA 32/8 causal: 12 kv heads = 48 q heads
      {8, 32, 32, 16, 1 << 19, 25 << 20, true},    // B16 S1024 causal: 50 heads, the last section short
      {3, 6, 3, 5, 100, 1 << 30, true},            // everything one section
      {5, 4, 1, 3, 1 << 30, 1 << 20, true},        // K/V past the budget: one kv head a section
      {1, 1, 1, 1, 1, 1, true}};
  for (Problem const& p : problems) {
    AttentionTileOrder const order =
        AttentionTileOrder::make(p.m_blocks, p.heads_q, p.heads_kv, p.batch, p.longest_first, p.kv_bytes, p.budget, 1);
    std::int64_t const group = p.heads_q / p.heads_kv;
    std::int64_t const section_kv =
        p.longest_first ? std::max<std::int64_t>(1, std::min(p.budget / p.kv_bytes, p.heads_kv * p.batch)) : 1;
    ASSERT_EQ(order.section_heads, std::uint32_t(section_kv * group)) << name(p);
    std::int64_t const units = p.m_blocks * p.heads_q * p.batch;
    std::set<std::tuple<int, int, int>> seen;
    for (std::int64_t i = 0; i < units; ++i) {
      AttentionTileCoord const t = order(std::uint32_t(i));
      ASSERT_TRUE(t.m_block >= 0 && t.m_block < p.m_blocks && t.head >= 0 && t.head < p.heads_q && t.batch >= 0 &&
                  t.batch < p.batch)
          << name(p) << " tile " << i;
      seen.insert({t.m_block, t.head, t.batch});
      // The section and the place in it, from the tile.
      std::int64_t const hb = std::int64_t(t.batch) * p.heads_q + t.head;
      std::int64_t const section = hb / order.section_heads;
      std::int64_t const first = section * order.section_heads;
      std::int64_t const heads_here = std::min<std::int64_t>(order.section_heads, p.heads_q * p.batch - first);
      std::int64_t const rank = p.longest_first ? p.m_blocks - 1 - t.m_block : t.m_block;
      EXPECT_EQ(i, first * p.m_blocks + rank * heads_here + (hb - first)) << name(p) << " tile " << i;
    }
    EXPECT_EQ(std::int64_t(seen.size()), units) << name(p);
  }
}

// The CTAs running at once (132, one an SM) read the K/V of few heads at B4 H32 S4096 D128 (K/V 2
// MB a head, 32 Q blocks): unmasked, of 5 at most (132 tiles over heads of 32); causal, of two
// sections' (12 heads each) at most. q heads fastest, the order before, spanned all 128.
TEST(AttentionTileOrder, KeepsTheRunningTilesOnFewHeads) {
  for (bool const causal : {false, true}) {
    AttentionTileOrder const order = AttentionTileOrder::make(32, 32, 32, 4, causal, 2 << 20, 25 << 20, 132);
    for (std::uint32_t start = 0; start + 132 <= 32 * 32 * 4; start += 132) {
      std::set<std::pair<int, int>> heads;
      for (std::uint32_t i = start; i < start + 132; ++i) {
        AttentionTileCoord const t = order(i);
        heads.insert({t.head, t.batch});
      }
      EXPECT_LE(heads.size(), causal ? 24u : 5u) << "tiles " << start << (causal ? " causal" : "");
    }
  }
}

// Dealt to `ctas` CTAs round-robin, the even rounds keep the order and the odd ones reverse it
// (the last round too, when it is short): every tile once, each round the same tiles.
TEST(AttentionTileOrder, DealsEveryOtherRoundInReverse) {
  for (std::int64_t const ctas : {1, 2, 7, 132, 1000}) {
    AttentionTileOrder const dealt = AttentionTileOrder::make(8, 6, 3, 5, true, 100, 300, ctas);
    AttentionTileOrder const plain = AttentionTileOrder::make(8, 6, 3, 5, true, 100, 300, 1);
    std::uint32_t const tiles = 8 * 6 * 5;
    for (std::uint32_t i = 0; i < tiles; ++i) {
      std::uint32_t const round = i / std::uint32_t(ctas), slot = i % std::uint32_t(ctas), start = i - slot;
      std::uint32_t const here = std::min<std::uint32_t>(std::uint32_t(ctas), tiles - start);
      std::uint32_t const expected = round % 2 == 0 ? i : start + here - 1 - slot;
      ASSERT_EQ(dealt.undealt(i), expected) << "ctas " << ctas << " tile " << i;
      AttentionTileCoord const a = dealt(i), b = plain(expected);
      EXPECT_TRUE(a.m_block == b.m_block && a.head == b.head && a.batch == b.batch) << "ctas " << ctas << " tile " << i;
    }
  }
}

// B4 H32 S4096 D64 causal (192-row tiles: 22 Q blocks, Q block m sees m + 1 of them) in
// sections of one head, dealt to 132 CTAs: the most work a CTA gets, against the mean. Dealt
// plainly, CTA j gets the same Q block of every head (132 = 6 x 22).
TEST(AttentionTileOrder, BalancesTheCausalWorkOverTheCtas) {
  auto const worst_over_mean = [](AttentionTileOrder const& order, std::uint32_t ctas) {
    std::vector<std::int64_t> work(ctas, 0);
    std::int64_t total = 0;
    for (std::uint32_t i = 0; i < 22 * 32 * 4; ++i) {
      std::int64_t const blocks = order(i).m_block + 1;
      work[i % ctas] += blocks;
      total += blocks;
    }
    return double(*std::max_element(work.begin(), work.end())) * ctas / double(total);
  };
  double const dealt = worst_over_mean(AttentionTileOrder::make(22, 32, 32, 4, true, 1 << 20, 0, 132), 132);
  double const plain = worst_over_mean(AttentionTileOrder::make(22, 32, 32, 4, true, 1 << 20, 0, 1), 132);
  EXPECT_LT(dealt, 1.04);  // 22 tiles to some CTAs, 21 to others: 1.031 at best
  EXPECT_GT(plain, 1.8);
}

}  // namespace
