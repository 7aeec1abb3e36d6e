// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/layout/print.hpp>
#include <cute_cpp/smem/smem_stages.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace cc = cute_cpp;
using bf16 = std::uint16_t;  // any 2-byte element: SmemTile looks only at sizeof

TEST(SmemTile, KMajor128BSwizzle) {
  using L = cc::SmemKMajor<bf16, 128, 64>;
  using T = cc::SmemTile<bf16, L>;
  static_assert(T::box_inner == 64 && T::box_outer == 128 && T::boxes == 1 && T::swizzle_bytes == 128);
  static_assert(cc::size_in_bytes<bf16, L>() == 128 * 64 * 2);
  EXPECT_EQ(cc::to_string(L{}), "Sw<3,3,3> o _0 o (_128,_64):(_64,_1)");
  // Row 1's first 16-byte unit moves to unit 1 of the row: offset 64 -> 64 ^ 8 = 72.
  EXPECT_EQ(int64_t(L{}(1, 0)), 72);
}

TEST(SmemTile, MNMajorIsBlocksOfOneSwizzleWidth) {
  using L = cc::SmemMNMajor<bf16, 256, 64>;
  using T = cc::SmemTile<bf16, L>;
  static_assert(T::box_inner == 64 && T::box_outer == 64 && T::boxes == 4 && T::inner == 256);
  static_assert(cc::size_in_bytes<bf16, L>() == 256 * 64 * 2);
  using F = cc::SmemTile<float, cc::SmemMNMajor<float, 64, 64>>;
  static_assert(F::box_inner == 32 && F::boxes == 2);
  using S32 = cc::SmemTile<bf16, cc::SmemKMajor<bf16, 64, 16, 32>>;
  static_assert(S32::swizzle_bytes == 32 && S32::box_inner == 16);
}

TEST(SmemTile, UnswizzledRowMajorTilesAreAccepted) {
  using T = cc::SmemTile<float, cc::RowMajor<16, 40>>;
  static_assert(T::swizzle_bytes == 0 && T::box_inner == 40 && T::box_outer == 16);
}

TEST(SmemStages, TilesFollowTheLayoutsSize) {
  // Two stages of a 128 x 192 K-major bf16 operand: three 128 x 64 chunks of 16 KiB each.
  using Q = cc::SmemStages<bf16, cc::SmemKMajor<bf16, 128, 64>, 2, 3>;
  static_assert(Q::tile_elems == 128 * 64 && Q::stage_elems == 3 * 128 * 64);
  static_assert(sizeof(Q) == 2 * 3 * 128 * 64 * 2 && alignof(Q) == 1024);
  Q q{};
  EXPECT_EQ(q.tile(0, 0), &q.storage[0][0]);
  EXPECT_EQ(q.tile(1, 2) - q.tile(0, 0), std::ptrdiff_t(5) * 128 * 64);
  EXPECT_EQ(q.tile(std::uint32_t{1}), q.storage[1]);  // a PipelineState's unsigned index
  // An M/N-major tile: one tile of D_v x block_n.
  using V = cc::SmemStages<bf16, cc::SmemMNMajor<bf16, 128, 112>, 4>;
  static_assert(V::tile_elems == 128 * 112 && sizeof(V) == 4 * 128 * 112 * 2);
}
