// SPDX-License-Identifier: Apache-2.0
// The wgmma accumulator's coordinates come from the atom's C layout (AtomLayoutC): checked against
// the PTX ISA's figure of the m64nNk16 D fragment (warp w holds rows 16w..16w+15; lane l holds
// rows l/4 and l/4 + 8 of them, columns 2(l%4) and 2(l%4) + 1 of every 8-column block), and every
// (row, col) of a slab is held by exactly one (thread, value).
#include <cute_cpp/mma/sm90_wgmma.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

template <int N>
void expect_ptx_fragment() {
  std::vector<int> hits(2 * 64 * N, 0);
  for (int t = 0; t < 128; ++t) {
    cute_cpp::sm90::WgmmaThrMma<2, N> const slice{t};
    int const warp = t / 32, lane = t % 32;
    for (int a = 0; a < 2; ++a)
      for (int j = 0; j < N / 2; ++j) {
        int const row = a * 64 + warp * 16 + lane / 4 + ((j / 2) % 2) * 8;
        int const col = (j / 4) * 8 + (lane % 4) * 2 + j % 2;
        ASSERT_EQ(slice.row(a, j), row) << "N " << N << " thread " << t << " value " << j;
        ASSERT_EQ(slice.col(j), col) << "N " << N << " thread " << t << " value " << j;
        ++hits[slice.row(a, j) * N + slice.col(j)];
      }
  }
  for (int h : hits) EXPECT_EQ(h, 1);
}

}  // namespace

TEST(WgmmaCLayout, MatchesThePtxFragmentAndCoversTheSlabOnce) {
  expect_ptx_fragment<8>();
  expect_ptx_fragment<128>();
  expect_ptx_fragment<256>();
  expect_ptx_fragment<320>();  // two n160 atoms, fragments one after another
}

namespace {

// WgmmaTiledMmaRS::make_a_fragment hands an m64 accumulator's values 8kk..8kk+7 to A's k-slice kk
// as its elements 0..7: they must hold the same (row, column)s as the PTX ISA's figure of the
// m64k16 A fragment in registers (element i of lane l in warp w: row 16w + l/4 + 8((i/2)%2),
// column 16kk + 2(l%4) + i%2 + 8(i/4)).
TEST(WgmmaAFragment, AccumulatorValuesAreAElementsInOrder) {
  constexpr int K = 64;
  for (int t = 0; t < 128; ++t) {
    cute_cpp::sm90::WgmmaThrMma<1, K> const slice{t};
    int const warp = t / 32, lane = t % 32;
    for (int kk = 0; kk < K / 16; ++kk)
      for (int i = 0; i < 8; ++i) {
        int const j = 8 * kk + i;
        EXPECT_EQ(slice.row(0, j), 16 * warp + lane / 4 + 8 * ((i / 2) % 2)) << "thread " << t << " value " << j;
        EXPECT_EQ(slice.col(j), 16 * kk + 2 * (lane % 4) + i % 2 + 8 * (i / 4)) << "thread " << t << " value " << j;
      }
  }
}

}  // namespace
