// SPDX-License-Identifier: Apache-2.0
// The TMA-store epilogue's chunking (include/cute_cpp/epilogue/sm90_tma_store.hpp): a row-major C
// goes out in chunks of the widest swizzle that divides the tile's N, a column-major C in whole
// 64-row columns.
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {
using cute_cpp::LayoutEnum;
template <class TC, int N, LayoutEnum L = LayoutEnum::RowMajor>
using Epi = cute_cpp::sm90::EpilogueTmaStore<TC, N, cute_cpp::NamedBarriers<1, 2, 128>, L>;
using H = std::uint16_t;  // any 16-bit output
}  // namespace

TEST(EpilogueTmaStore, RowMajorChunksTakeTheWidestSwizzleThatDividesN) {
  EXPECT_EQ((Epi<H, 256>::chunk_cols), 64);  // 128 bytes
  EXPECT_EQ((Epi<H, 256>::chunks), 4);
  EXPECT_EQ((Epi<H, 96>::chunk_cols), 32);  // 64 bytes
  EXPECT_EQ((Epi<H, 96>::chunks), 3);
  EXPECT_EQ((Epi<H, 112>::chunk_cols), 16);  // 32 bytes
  EXPECT_EQ((Epi<H, 112>::chunks), 7);
  EXPECT_EQ((Epi<float, 256>::chunk_cols), 32);
  EXPECT_EQ((Epi<float, 112>::chunk_cols), 16);
  EXPECT_EQ((Epi<float, 8>::chunk_cols), 8);
  // The TMA box is the chunk: 64 rows of one swizzle row.
  using Tile = Epi<H, 112>::Map::tile;
  EXPECT_EQ(Tile::box_inner, 16);
  EXPECT_EQ(Tile::box_outer, 64);
  EXPECT_EQ(Tile::swizzle_bytes, 32);
}

TEST(EpilogueTmaStore, ColumnMajorChunksAreWholeColumns) {
  EXPECT_EQ((Epi<H, 16, LayoutEnum::ColMajor>::chunk_cols), 16);
  EXPECT_EQ((Epi<H, 16, LayoutEnum::ColMajor>::chunks), 1);
  EXPECT_EQ((Epi<H, 48, LayoutEnum::ColMajor>::chunk_cols), 16);
  EXPECT_EQ((Epi<H, 128, LayoutEnum::ColMajor>::chunk_cols), 64);
  EXPECT_EQ((Epi<H, 128, LayoutEnum::ColMajor>::chunks), 2);
  // The box runs down the columns: 64 rows (128 bytes) contiguous, chunk_cols columns.
  using Tile = Epi<H, 128, LayoutEnum::ColMajor>::Map::tile;
  EXPECT_EQ(Tile::box_inner, 64);
  EXPECT_EQ(Tile::box_outer, 64);
  EXPECT_EQ(Tile::swizzle_bytes, 128);
  // fp32: a 64-row column is two 128-byte boxes of 32 rows.
  using F32 = Epi<float, 64, LayoutEnum::ColMajor>;
  EXPECT_EQ(F32::chunk_cols, 64);
  EXPECT_EQ(F32::Map::tile::box_inner, 32);
  EXPECT_EQ(F32::Map::tile::boxes, 2);
  EXPECT_EQ((Epi<float, 8, LayoutEnum::ColMajor>::chunk_cols), 8);
}

namespace {
// The byte TMA reads for element (inner, outer) of a box of `box_inner` elements per row (one
// swizzle width S of bytes), boxes side by side along inner: the row-major position with its
// 16-byte unit XORed by address bits 7.. (TMA's S-byte swizzle).
template <class TC>
long long tma_swizzled_byte(long long inner, long long outer, int box_inner, int rows) {
  long long const s = box_inner * static_cast<long long>(sizeof(TC));
  long long const lin = (inner / box_inner) * s * rows + outer * s + (inner % box_inner) * static_cast<long long>(sizeof(TC));
  return lin ^ (((lin >> 7) & (s / 16 - 1)) << 4);
}
// The epilogue addresses shared memory through its chunk's layout type: every element must land
// where the TMA store reads it.
template <class E>
void expect_chunk_matches_tma() {
  using Tile = typename E::Map::tile;
  using TC = typename E::Map::element_type;
  for (int outer = 0; outer < Tile::outer; ++outer)
    for (int inner = 0; inner < Tile::inner; ++inner)
      ASSERT_EQ(static_cast<long long>(typename E::Chunk{}(inner, outer)) * static_cast<long long>(sizeof(TC)),
                tma_swizzled_byte<TC>(inner, outer, Tile::box_inner, Tile::box_outer))
          << "inner " << inner << " outer " << outer;
}
}  // namespace

TEST(EpilogueTmaStore, ChunkLayoutIsWhereTmaReads) {
  expect_chunk_matches_tma<Epi<H, 256>>();
  expect_chunk_matches_tma<Epi<H, 96>>();
  expect_chunk_matches_tma<Epi<H, 112>>();
  expect_chunk_matches_tma<Epi<float, 256>>();
  expect_chunk_matches_tma<Epi<float, 112>>();
  expect_chunk_matches_tma<Epi<float, 8>>();
  expect_chunk_matches_tma<Epi<H, 16, LayoutEnum::ColMajor>>();
  expect_chunk_matches_tma<Epi<H, 128, LayoutEnum::ColMajor>>();
  expect_chunk_matches_tma<Epi<float, 64, LayoutEnum::ColMajor>>();
  expect_chunk_matches_tma<Epi<float, 8, LayoutEnum::ColMajor>>();
}

TEST(GatedEpilogue, InterleavesGateAndUpRowsInBlocksOfEight) {
  using cute_cpp::epilogue::gated_gate_row;
  using cute_cpp::epilogue::gated_up_row;
  // Every row of a 2F-row fused weight holds exactly one gate or up row, in blocks of 8.
  constexpr int f = 40;
  std::vector<int> seen(2 * f, 0);
  for (int r = 0; r < f; ++r) {
    ++seen[std::size_t(gated_gate_row(r))];
    ++seen[std::size_t(gated_up_row(r))];
    EXPECT_EQ(gated_gate_row(r) / 8 % 2, 0) << r;  // gate blocks at even block positions
    EXPECT_EQ(gated_up_row(r) - gated_gate_row(r), 8) << r;
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_EQ(gated_gate_row(9), 17);
  EXPECT_EQ(gated_up_row(9), 25);
  EXPECT_FLOAT_EQ(cute_cpp::epilogue::SwiGLU{}(0.0f, 3.0f), 0.0f);
  EXPECT_NEAR(cute_cpp::epilogue::SwiGLU{}(2.0f, 3.0f), 2.0 / (1.0 + std::exp(-2.0)) * 3.0, 1e-5);
}
