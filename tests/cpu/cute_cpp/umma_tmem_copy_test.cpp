// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Where each thread's tcgen05.ld registers land in a tcgen05.mma accumulator. The per-shape
// fragments are written out from the PTX ISA's figures ("Matrix fragments for tcgen05.ld/st",
// as CUTLASS's SM100_TMEM_LOAD thread/value layouts encode them):
//   32x32b   thread t: lane t, register j at column j
//   16x64b   thread t: lane t/4 + 8 (t % 2), register j at column 2 j + (t/2) % 2
//   16x128b  thread t: lane t/4 + 8 (j % 2), column t % 4 + 4 (j / 2)
//   16x256b  thread t: lane t/4 + 8 ((j/2) % 2), column 2 (t % 4) + j % 2 + 8 (j / 4)
//   16x32bx2 (half-split = num) thread t: lane t % 16, column j + num (t / 16)
// and the data-path layouts (D: row = lane; F: row 16 q + l for lane 32 q + l, l < 16; B: 64 rows,
// column halves in lanes 0-63 and 64-127). Every accumulator element is read exactly once.
#include <cute_cpp/tmem/tmem_copy.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {
namespace sm = cute_cpp::sm100;
using Shape = ctm::Tcgen05LdStShape;

template <Shape S, int Num>
using Atom = sm::TmemCopyAtom<S, Num>;

// The reference fragments, written from the list above.
int ref_lane(Shape s, int t, int j) {
  switch (s) {
    case Shape::s32x32b: return t;
    case Shape::s16x64b: return t / 4 + 8 * (t % 2);
    case Shape::s16x128b: return t / 4 + 8 * (j % 2);
    case Shape::s16x256b: return t / 4 + 8 * ((j / 2) % 2);
    default: return t % 16;
  }
}
int ref_column(Shape s, int num, int t, int j) {
  switch (s) {
    case Shape::s32x32b: return j;
    case Shape::s16x64b: return 2 * j + (t / 2) % 2;
    case Shape::s16x128b: return t % 4 + 4 * (j / 2);
    case Shape::s16x256b: return 2 * (t % 4) + j % 2 + 8 * (j / 4);
    default: return j + num * (t / 16);
  }
}

template <Shape S, int Num>
void expect_atom() {
  using A = Atom<S, Num>;
  std::vector<int> hits(A::lanes * A::columns, 0);
  for (int t = 0; t < 32; ++t)
    for (int j = 0; j < A::registers; ++j) {
      ASSERT_EQ(A::lane(t, j), ref_lane(S, t, j)) << "thread " << t << " register " << j;
      ASSERT_EQ(A::column(t, j), ref_column(S, Num, t, j)) << "thread " << t << " register " << j;
      ++hits[A::lane(t, j) * A::columns + A::column(t, j)];
    }
  for (int h : hits) EXPECT_EQ(h, 1);  // the warp's registers tile the lanes x columns exactly
}

TEST(TmemCopyAtom, FragmentsOfEveryShape) {
  expect_atom<Shape::s32x32b, 1>();
  expect_atom<Shape::s32x32b, 16>();
  expect_atom<Shape::s16x64b, 1>();
  expect_atom<Shape::s16x64b, 8>();
  expect_atom<Shape::s16x128b, 1>();
  expect_atom<Shape::s16x128b, 4>();
  expect_atom<Shape::s16x256b, 1>();
  expect_atom<Shape::s16x256b, 2>();
  expect_atom<Shape::s16x32bx2, 1>();
  expect_atom<Shape::s16x32bx2, 8>();
  EXPECT_EQ((Atom<Shape::s16x256b, 2>::registers), 8);
  EXPECT_EQ((Atom<Shape::s16x256b, 2>::columns), 16);
}

// Every (row, col) of this CTA's accumulator is read by exactly one (warp, thread, copy, register).
template <class Acc, class A>
void expect_cover() {
  std::vector<int> hits(Acc::rows * Acc::n, 0);
  for (int w = 0; w < 4; ++w)
    for (int t = 0; t < 32; ++t) {
      auto const s = sm::get_slice<Acc, A>(w + 4, t);  // warps 4..7: quarters from warp % 4
      for (int i = 0; i < s.copies; ++i)
        for (int j = 0; j < A::registers; ++j) {
          int const r = s.row(i, j), c = s.col(i, j);
          ASSERT_TRUE(r >= 0 && r < Acc::rows && c >= 0 && c < Acc::n) << r << "," << c;
          ++hits[r * Acc::n + c];
        }
    }
  for (int h : hits) ASSERT_EQ(h, 1);
}

TEST(UmmaAccumulator, CoverEveryElementOnce) {
  expect_cover<sm::UmmaAccumulator<128, 64, 1>, Atom<Shape::s32x32b, 16>>();
  expect_cover<sm::UmmaAccumulator<128, 64, 1>, Atom<Shape::s16x256b, 1>>();
  expect_cover<sm::UmmaAccumulator<256, 128, 2>, Atom<Shape::s16x128b, 2>>();
  expect_cover<sm::UmmaAccumulator<64, 32, 1>, Atom<Shape::s16x32bx2, 8>>();
  expect_cover<sm::UmmaAccumulator<64, 32, 1>, Atom<Shape::s16x64b, 4>>();
  expect_cover<sm::UmmaAccumulator<128, 128, 2>, Atom<Shape::s32x32b, 32>>();
  expect_cover<sm::UmmaAccumulator<128, 128, 2>, Atom<Shape::s16x256b, 1>>();
}

TEST(UmmaAccumulator, LayoutDHandValues) {
  using Acc = sm::UmmaAccumulator<128, 64, 1>;
  // 32x32b.x16: warp 5 is quarter 1 (lanes 32..63); copy 2 starts at column 32.
  auto const s = sm::get_slice<Acc, Atom<Shape::s32x32b, 16>>(5, 7);
  EXPECT_EQ(s.copies, 4);
  EXPECT_EQ(s.row(2, 3), 39);
  EXPECT_EQ(s.col(2, 3), 35);
  EXPECT_EQ(s.tmem_addr(0x40, 2), 0x0020'0060u);  // lane 32 in bits 16+, column 0x40 + 32
  // 16x256b.x1: copy 9 = lane half 1 (lanes +16), column chunk 1 (columns 8..15).
  auto const q = sm::get_slice<Acc, Atom<Shape::s16x256b, 1>>(2, 13);
  EXPECT_EQ(q.copies, 16);
  EXPECT_EQ(q.row(9, 2), 64 + 16 + 13 / 4 + 8);  // register 2: the lower 8-lane half
  EXPECT_EQ(q.col(9, 2), 8 + 2 * (13 % 4));
  EXPECT_EQ(q.tmem_addr(0, 9), (std::uint32_t(80) << 16) | 8u);
}

TEST(UmmaAccumulator, LayoutFAndB) {
  using F = sm::UmmaAccumulator<64, 32, 1>;  // rows 16q + l at lanes 32q + l
  auto const f = sm::get_slice<F, Atom<Shape::s16x32bx2, 8>>(3, 20);
  EXPECT_EQ(f.copies, 2);
  EXPECT_EQ(f.row(1, 5), 16 * 3 + 4);
  EXPECT_EQ(f.col(1, 5), 16 + 5 + 8);  // thread 20 reads the second half (+num columns)
  using B = sm::UmmaAccumulator<128, 128, 2>;  // 64 rows; columns 64.. in lanes 64..127
  EXPECT_EQ(B::columns, 64);
  auto const b = sm::get_slice<B, Atom<Shape::s32x32b, 32>>(6, 9);
  EXPECT_EQ(b.row(1, 4), 9);
  EXPECT_EQ(b.col(1, 4), 64 + 32 + 4);
}

TEST(TmemWarpAddr, QuarterOfTheWarp) {
  EXPECT_EQ((sm::tmem_warp_addr<Atom<Shape::s16x256b, 4>, 16>(0x40, 5)), 0x0030'0040u);
  EXPECT_EQ((sm::tmem_warp_addr<Atom<Shape::s32x32b, 4>>(0x40, 3)), 0x0060'0040u);
}

}  // namespace
