// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// RegisterTile (TensorSSA) on the host: arithmetic, map / zip_map / fold / gather, reductions
// within a thread, conversions to f16 / bf16 / fp8 and back, vector loads and stores.
#include <gtest/gtest.h>

#include <cute_cpp/layout.hpp>
#include <cute_cpp/tensor/register_tile.hpp>

#include <cmath>

namespace cc = cute_cpp;
using cc::C;

TEST(RegisterTile, Arithmetic) {
  cc::RegisterTile<float, 4> a{{1, 2, 3, 4}}, b{{8, 6, 4, 2}};
  auto c = (a + b) * 2.f - a / b;
  EXPECT_FLOAT_EQ(c[0], 18 - 0.125f);
  EXPECT_FLOAT_EQ(c[3], 12 - 2.f);
  auto d = -a;
  EXPECT_EQ(d[2], -3.f);
  auto e = 10.f - a;
  EXPECT_EQ(e[0], 9.f);
  a += b;
  EXPECT_EQ(a[1], 8.f);
}

TEST(RegisterTile, MapZipFoldGather) {
  cc::RegisterTile<int, 4> a{{1, 2, 3, 4}};
  auto sq = a.map([](int x) { return x * x; });
  EXPECT_EQ(sq[3], 16);
  auto halves = a.map([](int x) { return x / 2.0; });  // the result type is f's
  static_assert(std::is_same_v<decltype(halves)::value_type, double>);
  auto z = a.zip_map(sq, [](int x, int y) { return y - x; });
  EXPECT_EQ(z[2], 6);
  EXPECT_EQ(a.fold(100, [](int acc, int x) { return acc - x; }), 90);
  // A 2x2 tile stored column-major, gathered through a row-major layout: the transpose.
  auto t = a.gather(cc::RowMajor<2, 2>{});
  EXPECT_EQ(t[0], 1);
  EXPECT_EQ(t[1], 3);
  EXPECT_EQ(t[2], 2);
  EXPECT_EQ(t[3], 4);
  auto evens = a.gather(cc::Layout<C<2>, C<2>>{});
  static_assert(decltype(evens)::size == 2);
  EXPECT_EQ(evens[1], 3);
}

TEST(RegisterTile, ReductionsWithinAThread) {
  cc::RegisterTile<float, 7> a{{3, -1, 9, 2, 0.5f, 8, -4}};
  EXPECT_FLOAT_EQ(a.reduce_sum(), 17.5f);
  EXPECT_EQ(a.reduce_max(), 9.f);
  EXPECT_EQ(a.reduce([](float x, float y) { return x < y ? x : y; }), -4.f);
}

TEST(RegisterTile, ConversionsRoundToNearestEven) {
  cc::RegisterTile<float, 4> a{{1.0f, 1.00390625f, 3.14159265f, -448.f}};
  auto h = a.to<cc::bf16>();  // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie, rounded to even 1
  EXPECT_EQ(static_cast<float>(h[1]), 1.0f);
  EXPECT_EQ(static_cast<float>(h[2]), 3.140625f);
  auto f = a.to<cc::f16>();
  EXPECT_EQ(static_cast<float>(f[1]), 1.00390625f);  // f16 has 11 bits: exact
  auto q = a.to<cc::e4m3>();
  EXPECT_EQ(static_cast<float>(q[2]), 3.25f);  // e4m3: 3 mantissa bits
  EXPECT_EQ(static_cast<float>(q[3]), -448.f);
  auto back = q.to<float>();
  EXPECT_EQ(back[0], 1.0f);
  auto e5 = a.to<cc::e5m2>();
  EXPECT_EQ(static_cast<float>(e5[2]), 3.0f);  // e5m2: 2 mantissa bits
  auto hb = h.to<cc::e4m3>();  // 16-bit to 8-bit goes through f32
  EXPECT_EQ(static_cast<float>(hb[0]), 1.0f);
}

TEST(RegisterTile, VectorLoadAndStore) {
  alignas(16) float src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(16) float dst[8] = {};
  auto t = cc::RegisterTile<float, 8>::load_vector(src);  // two 16-byte accesses
  EXPECT_EQ(t.reduce_sum(), 36.f);
  (t * 2.f).store_vector(dst);
  EXPECT_EQ(dst[7], 16.f);
  auto pairs = cc::RegisterTile<float, 8>::load_vector<2>(src);  // four 8-byte accesses
  EXPECT_EQ(pairs[5], 6.f);
}
