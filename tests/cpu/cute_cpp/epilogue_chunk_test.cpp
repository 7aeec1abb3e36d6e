// SPDX-License-Identifier: Apache-2.0
// The TMA-store epilogue's chunking (include/cute_cpp/epilogue/sm90_tma_store.hpp): a row-major C
// goes out in chunks of the widest swizzle that divides the tile's N, a column-major C in whole
// 64-row columns.
#include <cute_cpp/epilogue/sm90_tma_store.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace {
using cute_cpp::LayoutEnum;
template <class TC, int N, LayoutEnum L = LayoutEnum::RowMajor>
using Epi = cute_cpp::sm90::EpilogueTmaStore<TC, N, 1, L>;
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
