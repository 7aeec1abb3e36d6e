// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// TiledCopy on host memory: the coverage proof's verdicts, the thread partitions of a tile, and
// copies through them (every element copied exactly once, tails predicated).
#include <gtest/gtest.h>

#include <cute_cpp/copy/tiled_copy.hpp>
#include <cute_cpp/layout.hpp>

#include <numeric>
#include <vector>

namespace cc = cute_cpp;
using cc::C;

namespace {
using Thr16x8 = cc::Layout<cc::Shape<C<16>, C<8>>, cc::Stride<C<8>, C<1>>>;  // thread t at (t / 8, t % 8)
using Val1x8 = cc::Layout<cc::Shape<C<1>, C<8>>, cc::Stride<C<0>, C<1>>>;
using Copy16B = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, short>, Thr16x8, Val1x8>;
}  // namespace

TEST(TiledCopyCoverage, AcceptsBijectionsAndNamesTheFirstDoubleHit) {
  static_assert(Copy16B::threads == 128 && Copy16B::tile_m == 16 && Copy16B::tile_n == 64);
  static_assert(Copy16B::coverage.hits == 1);
  // Threads (4,8):(1,2): thread 2 is both (2,0) and (0,1); its value 0 is hit twice.
  constexpr auto twice = cc::detail::tv_coverage<cc::Layout<cc::Shape<C<4>, C<8>>, cc::Stride<C<1>, C<2>>>, Val1x8>();
  EXPECT_EQ(twice.hits, 2);
  EXPECT_EQ(twice.thread, 2);
  EXPECT_EQ(twice.value, 0);
  // Threads (4,8):(16,1) reach thread 32 at (2,0), outside the 32 threads.
  constexpr auto gap = cc::detail::tv_coverage<cc::Layout<cc::Shape<C<4>, C<8>>, cc::Stride<C<16>, C<1>>>, Val1x8>();
  EXPECT_EQ(gap.hits, -1);
  EXPECT_EQ(gap.thread, 32);
  // Values (2,4):(2,1) collide at value 2 = (1,0) = (0,2).
  constexpr auto vals = cc::detail::tv_coverage<Thr16x8, cc::Layout<cc::Shape<C<2>, C<4>>, cc::Stride<C<2>, C<1>>>>();
  EXPECT_EQ(vals.hits, 2);
}

TEST(TiledCopyPartition, EveryThreadOwnsItsBlockOfEveryTile) {
  int const m = 32, n = 128;  // 2 x 2 copy tiles
  std::vector<short> src(m * n);
  std::iota(src.begin(), src.end(), short(0));
  auto gS = cc::make_tensor(src.data(), cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{})));  // (M,N)
  auto thr = Copy16B::get_slice(13);  // thread 13 at (1, 5): rows 1, 17; columns 40..47, 104..111
  EXPECT_EQ(thr.m0(), 1);
  EXPECT_EQ(thr.n0(), 40);
  auto tSgS = thr.partition_S(gS);  // ((1,8),2,2)
  EXPECT_EQ(std::int64_t(cc::size<1>(tSgS)), 2);
  EXPECT_EQ(tSgS(cc::make_coord(cc::make_coord(0, 3), 1, 1)), (16 + 1) * n + 64 + 40 + 3);
}

TEST(TiledCopyPartition, CopiesEveryElementOnceAndPredicatesTails) {
  int const m = 32, n = 128, valid_m = 27;
  std::vector<short> src(m * n), dst(m * n, -1);
  std::iota(src.begin(), src.end(), short(1));
  auto gS = cc::make_tensor(src.data(), cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{})));
  auto sD = cc::make_tensor(dst.data(), cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{})));
  for (int t = 0; t < Copy16B::threads; ++t) {
    auto thr = Copy16B::get_slice(t);
    auto tS = thr.partition_S(gS);
    auto tD = thr.partition_D(sD);
    cc::copy_if(Copy16B{}, [&](int vm, int vn, int rm, int rn) { return cc::get<0>(thr.coord(vm, vn, rm, rn)) < valid_m; },
                tS, tD);
  }
  for (int i = 0; i < m * n; ++i) ASSERT_EQ(dst[i], i / n < valid_m ? src[i] : 0) << "at " << i;
}

TEST(TiledCopyPartition, ThroughRegisterFragments) {
  int const m = 16, n = 64;
  std::vector<short> src(m * n), dst(m * n, -1);
  std::iota(src.begin(), src.end(), short(3));
  auto gS = cc::make_tensor(src.data(), cc::RowMajor<16, 64>{});
  auto gD = cc::make_tensor(dst.data(), cc::RowMajor<16, 64>{});
  for (int t = 0; t < Copy16B::threads; ++t) {
    auto thr = Copy16B::get_slice(t);
    auto tS = thr.partition_S(gS);  // ((_1,_8),_1,_1)
    auto frag = cc::make_fragment_like(tS);
    static_assert(decltype(frag)::cosize_v == 8);
    cc::copy_s2r(Copy16B{}, tS, frag.view());
    EXPECT_EQ(frag.storage[5], src[thr.m0() * n + thr.n0() + 5]);
    cc::copy_r2s(Copy16B{}, frag.view(), thr.partition_D(gD));
  }
  EXPECT_EQ(src, dst);
}

// The thread coordinate of ThrCopy (a division for integer modes, a scan for nested ones) is the
// inverse of the thread layout for every thread.
template <class Thr>
void expect_inverse() {
  using Tc = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<2>, short>, Thr,
                           cc::Layout<cc::Shape<C<2>, C<1>>, cc::Stride<C<1>, C<0>>>>;
  for (int t = 0; t < Tc::threads; ++t) {
    auto const thr = Tc::get_slice(t);
    ASSERT_EQ(std::int64_t(Thr{}(thr.m0() / Tc::vm, thr.n0() / Tc::vn)), t) << "thread " << t;
  }
}
TEST(TiledCopyPartition, ThreadCoordinateInvertsTheThreadLayout) {
  expect_inverse<cc::Layout<cc::Shape<C<64>, C<4>>, cc::Stride<C<4>, C<1>>>>();
  expect_inverse<cc::Layout<cc::Shape<C<4>, C<8>>, cc::Stride<C<1>, C<4>>>>();
  expect_inverse<cc::Layout<cc::Shape<cc::Shape<C<2>, C<2>>, C<8>>, cc::Stride<cc::Stride<C<8>, C<16>>, C<1>>>>();
}
