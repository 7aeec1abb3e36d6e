// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Static in, static out: all-static arguments give types (checked with static_assert); mixed
// arguments give run-time values that agree with the static results.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>
#include <type_traits>
#include <cute_cpp/layout.hpp>
#include <cute_cpp/layout/expression.hpp>  // evaluate_layout_expression
#include "support/error_of.hpp"
#include "support/layout_vectors.hpp"

namespace cc = cute_cpp;
using cc::C;
using cc::Layout;
using cc::Shape;
using cc::Stride;

namespace {
template <class T>
std::string s(T const& x) {
  return cc::to_string(x);
}
using cute_cpp::test::error_of;
std::string plain(std::string x) {
  std::erase(x, '_');
  return x;
}
}  // namespace

TEST(LayoutStatic, CompositionGivesAType) {
  // example-begin static-composition
  using A = Layout<Shape<C<4>, C<8>>, Stride<C<8>, C<1>>>;
  using B = Layout<Shape<C<2>, C<4>>, Stride<C<1>, C<4>>>;
  using R = decltype(cc::composition(A{}, B{}));
  static_assert(cc::is_static_v<R>);
  static_assert(std::is_same_v<R, Layout<Shape<C<2>, C<4>>, Stride<C<8>, C<1>>>>);
  static_assert(std::is_empty_v<R>);
  EXPECT_EQ(s(R{}), "(_2,_4):(_8,_1)");
  // example-end static-composition
}

TEST(LayoutStatic, QueriesAreStatic) {
  using L = Layout<Shape<C<4>, Shape<C<2>, C<3>>>, Stride<C<1>, Stride<C<8>, C<4>>>>;
  static_assert(std::is_same_v<decltype(cc::size(L{})), C<24>>);
  static_assert(std::is_same_v<decltype(cc::cosize(L{})), C<20>>);
  static_assert(std::is_same_v<decltype(cc::rank(L{})), C<2>>);
  static_assert(std::is_same_v<decltype(cc::depth(L{})), C<2>>);
  static_assert(std::is_same_v<decltype(L{}(C<5>{})), C<9>>);
  static_assert(std::is_same_v<decltype(L{}(C<1>{}, C<5>{})), C<17>>);
  static_assert(std::is_same_v<decltype(L{}(cc::make_coord(C<1>{}, cc::make_coord(C<1>{}, C<2>{})))), C<17>>);
  std::array<int, decltype(cc::size(L{}))::value> storage{};  // usable as a template argument
  EXPECT_EQ(storage.size(), 24u);
  EXPECT_EQ(s(L{}), "(_4,(_2,_3)):(_1,(_8,_4))");
  EXPECT_EQ(s(cc::shape<1>(L{})), "(_2,_3)");
  EXPECT_EQ(s(cc::stride<1, 0>(L{})), "_8");
  EXPECT_EQ(s(cc::layout<1>(L{})), "(_2,_3):(_8,_4)");
}

TEST(LayoutStatic, MakeLayoutAndAliases) {
  using S = Shape<C<4>, C<8>>;
  static_assert(std::is_same_v<decltype(cc::make_layout(S{}, cc::LayoutRight{})), cc::RowMajor<4, 8>>);
  static_assert(std::is_same_v<decltype(cc::make_layout(S{})), cc::ColMajor<4, 8>>);
  EXPECT_EQ(s(cc::make_layout(Shape<C<4>, Shape<C<2>, C<3>>>{}, cc::LayoutRight{})), "(_4,(_2,_3)):(_6,(_3,_1))");
  EXPECT_EQ(s(cc::make_layout(cc::make_shape(4, C<8>{}))), "(4,_8):(_1,4)");
  EXPECT_EQ(s(cc::make_layout(cc::RowMajor<2, 2>{}, cc::ColMajor<3, 1>{})), "((_2,_2),(_3,_1)):((_2,_1),(_1,_3))");
}

TEST(LayoutStatic, EveryOpStaysStatic) {
  using A = cc::RowMajor<8, 8>;
  using T = cc::Tile<C<2>, C<4>>;
  static_assert(cc::is_static_v<decltype(cc::logical_divide(A{}, T{}))>);
  EXPECT_EQ(s(cc::logical_divide(A{}, T{})), "((_2,_4),(_4,_2)):((_8,_16),(_1,_4))");
  EXPECT_EQ(s(cc::zipped_divide(A{}, T{})), "((_2,_4),(_4,_2)):((_8,_1),(_16,_4))");
  EXPECT_EQ(s(cc::tiled_divide(A{}, T{})), "((_2,_4),_4,_2):((_8,_1),_16,_4)");
  EXPECT_EQ(s(cc::flat_divide(A{}, T{})), "(_2,_4,_4,_2):(_8,_1,_16,_4)");
  EXPECT_EQ(s(cc::coalesce(cc::ColMajor<4, 8>{})), "_32:_1");
  EXPECT_EQ(s(cc::coalesce(Layout<Shape<C<2>, C<1>, C<6>>, Stride<C<1>, C<6>, C<2>>>{})), "_12:_1");
  EXPECT_EQ(s(cc::filter(Layout<Shape<C<4>, C<2>>, Stride<C<0>, C<1>>>{})), "_2:_1");
  EXPECT_EQ(s(cc::complement(Layout<C<4>, C<2>>{}, C<16>{})), "(_2,_2):(_1,_8)");
  EXPECT_EQ(s(cc::right_inverse(Layout<Shape<C<4>, C<2>>, Stride<C<2>, C<1>>>{})), "(_2,_4):(_4,_1)");
  EXPECT_EQ(s(cc::left_inverse(Layout<Shape<C<4>, C<2>>, Stride<C<2>, C<1>>>{})), "(_2,_4):(_4,_1)");
  EXPECT_EQ(s(cc::blocked_product(Layout<Shape<C<2>, C<5>>, Stride<C<1>, C<2>>>{},
                                  Layout<Shape<C<3>, C<4>>, Stride<C<1>, C<3>>>{})),
            "((_2,_3),(_5,_4)):((_1,_10),(_2,_30))");
  EXPECT_EQ(s(cc::raked_product(cc::ColMajor<2, 2>{}, cc::ColMajor<3, 3>{})), "((_3,_2),(_3,_2)):((_4,_1),(_12,_2))");
  EXPECT_EQ(s(cc::logical_product(Layout<C<2>, C<1>>{}, Layout<C<3>, C<1>>{})), "(_2,_3):(_1,_2)");
  EXPECT_EQ(s(cc::max_common_vector(cc::RowMajor<8, 8>{}, cc::RowMajor<8, 8>{})), "_64");
  EXPECT_EQ(s(cc::max_common_vector(cc::RowMajor<8, 8>{}, cc::ColMajor<8, 8>{})), "_1");
  EXPECT_EQ(s(cc::max_common_layout(cc::RowMajor<4, 8>{}, cc::RowMajor<4, 8>{})), "(_8,_4):(_4,_1)");
  EXPECT_EQ(s(cc::flatten(Layout<Shape<C<4>, Shape<C<2>, C<3>>>, Stride<C<1>, Stride<C<8>, C<4>>>>{})),
            "(_4,_2,_3):(_1,_8,_4)");
  EXPECT_EQ(s(cc::select<1, 0>(cc::RowMajor<4, 8>{})), "(_8,_4):(_1,_8)");
  EXPECT_EQ(s(cc::group<0, 2>(Layout<Shape<C<2>, C<3>, C<4>>, Stride<C<1>, C<2>, C<6>>>{})), "((_2,_3),_4):((_1,_2),_6)");
  EXPECT_EQ(s(cc::take<1, 3>(Layout<Shape<C<2>, C<3>, C<4>>, Stride<C<1>, C<2>, C<6>>>{})), "(_3,_4):(_2,_6)");
  EXPECT_EQ(s(cc::append(cc::ColMajor<2, 2>{}, Layout<C<3>, C<4>>{})), "(_2,_2,_3):(_1,_2,_4)");
  EXPECT_EQ(s(cc::prepend(cc::ColMajor<2, 2>{}, Layout<C<3>, C<4>>{})), "(_3,_2,_2):(_4,_1,_2)");
  EXPECT_EQ(s(cc::idx2crd(C<5>{}, Shape<C<2>, Shape<C<2>, C<2>>>{})), "(_1,(_0,_1))");
  EXPECT_EQ(s(cc::crd2idx(cc::make_coord(C<1>{}, C<2>{}), Shape<C<4>, C<8>>{}, Stride<C<1>, C<4>>{})), "_9");
  EXPECT_EQ(s(cc::local_tile(cc::ColMajor<8, 8>{}, cc::Tile<C<4>, C<4>>{}, cc::make_coord(C<1>{}, C<0>{}))),
            "(_4,_4):(_1,_8)");
  EXPECT_EQ(s(cc::local_tile_offset(cc::ColMajor<8, 8>{}, cc::Tile<C<4>, C<4>>{}, cc::make_coord(C<1>{}, C<0>{}))), "_4");
  EXPECT_EQ(s(cc::local_partition(cc::ColMajor<8, 8>{}, cc::RowMajor<2, 4>{}, C<1>{})), "(_4,_2):(_2,_32)");
  EXPECT_EQ(s(cc::local_partition_offset(cc::ColMajor<8, 8>{}, cc::RowMajor<2, 4>{}, C<1>{})), "_8");
  EXPECT_EQ(s(cc::slice(cc::make_coord(cc::_, C<2>{}), cc::ColMajor<4, 8>{})), "(_4):(_1)");
  EXPECT_EQ(s(cc::RowMajor<4, 8>{}(cc::_, C<3>{})), "(_4):(_8)");
}

TEST(LayoutStatic, SwizzleAndComposedLayout) {
  using Sw = cc::Swizzle<3, 4, 3>;
  static_assert(std::is_same_v<decltype(Sw{}(C<0x80>{})), C<0x90LL>>);
  EXPECT_EQ(Sw{}(0x80), 0x90);
  using Smem = cc::ComposedLayout<cc::Swizzle<3, 3, 3>, 0, cc::RowMajor<8, 64>>;
  static_assert(cc::is_static_v<Smem>);
  EXPECT_EQ(s(Smem{}), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) EXPECT_EQ(Smem{}(r, c), (cc::SwizzleV{3, 3, 3}(r * 64 + c)));
  static_assert(decltype(Smem{}(C<1>{}, C<0>{}))::value == (64 ^ 8));
  EXPECT_EQ(s(cc::make_composed_layout(cc::Swizzle<2, 4, 3>{}, C<0>{}, cc::RowMajor<4, 32>{})),
            "Sw<2,4,3> o _0 o (_4,_32):(_32,_1)");
}

// Mixed static/dynamic arguments: run-time values that agree with the static result.
TEST(LayoutStatic, DynamicInputsGiveTheSameValues) {
  // example-begin dynamic-divide
  using A = cc::RowMajor<8, 8>;
  using T = cc::Tile<C<2>, C<4>>;
  auto dyn_a = cc::make_layout(cc::make_shape(8, 8), cc::make_stride(8, 1));
  auto r = cc::logical_divide(dyn_a, T{});  // ((_2,4),(_4,2)):((8,16),(1,4)), typed
  static_assert(!cc::is_static_v<decltype(r)>);
  EXPECT_EQ(s(r), "((_2,4),(_4,2)):((8,16),(1,4))");
  EXPECT_EQ(plain(s(r)), plain(s(cc::logical_divide(A{}, T{}))));
  EXPECT_EQ(dyn_a(3, 5), 29);
  // example-end dynamic-divide
  EXPECT_EQ(cc::size(dyn_a), 64);
  EXPECT_EQ(cc::cosize(dyn_a), 64);
  auto typed = cc::make_layout(cc::make_shape(4, C<2>{}), cc::make_stride(C<2>{}, 1));
  EXPECT_EQ(typed(1, 1), 3);
  EXPECT_EQ(cc::size(typed), 8);
  EXPECT_EQ(cc::rank(typed), 2);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(typed(i), cc::parse_layout("(4,2):(2,1)")(i));
}

TEST(LayoutStatic, TupleUtilities) {
  using S = Shape<C<2>, Shape<C<3>, C<4>>>;
  EXPECT_EQ(s(cc::product_each(S{})), "(_2,_12)");
  EXPECT_EQ(s(cc::compact_col_major(S{})), "(_1,(_2,_6))");
  EXPECT_EQ(s(cc::compact_row_major(S{})), "(_12,(_4,_1))");
  EXPECT_EQ(s(cc::append(S{}, C<5>{})), "(_2,(_3,_4),_5)");
  EXPECT_EQ(s(cc::prepend(S{}, C<5>{})), "(_5,_2,(_3,_4))");
  EXPECT_EQ(s(cc::flatten(S{})), "(_2,_3,_4)");
  static_assert(std::is_same_v<decltype(cc::size(S{})), C<24>>);
  static_assert(std::is_same_v<decltype(cc::rank(S{})), C<2>>);
  static_assert(std::is_same_v<decltype(cc::depth(S{})), C<2>>);
  static_assert(cc::get<1, 0>(S{}) == 3);
  EXPECT_EQ(s(cc::append(cc::make_shape(4, 8), 2)), "(4,8,2)");
  EXPECT_EQ(cc::size(cc::make_shape(4, C<8>{})), 32);
  EXPECT_TRUE((cc::RowMajor<4, 8>{} == cc::parse_layout("(4,8):(8,1)")));
  EXPECT_FALSE((cc::RowMajor<4, 8>{} == cc::ColMajor<4, 8>{}));
}

// The typed fast path (typed layout / integer tiles, no engine) agrees with the engine.
TEST(LayoutStatic, TypedDividesMatchTheEngine) {
  std::mt19937 rng(20261130);
  auto pick = [&](std::vector<int> v) { return v[std::uniform_int_distribution<int>(0, int(v.size()) - 1)(rng)]; };
  auto same = [](std::string a, std::string b) {
    return cc::test::size1_strides_zeroed(a) == cc::test::size1_strides_zeroed(b);
  };
  for (int trial = 0; trial < 300; ++trial) {
    int m = pick({4, 8, 12, 16, 32}), n = pick({2, 4, 8, 6}), dm = pick({1, 2}), dn = m * dm * pick({1, 2});
    auto a = cc::make_layout(cc::make_shape(m, n), cc::make_stride(dm, dn));
    auto t = cc::make_tile(C<4>{}, pick({1, 2, 3}));
    cc::DynLayout ad = cc::parse_layout(cc::to_string(a));
    cc::DynLayout td = cc::make_dyn_layout(cc::parse_tiler(plain(cc::to_string(t))));
    SCOPED_TRACE(s(a) + " / " + s(t));
    ASSERT_TRUE(same(s(cc::logical_divide(a, t)), s(cc::logical_divide(ad, td))));
    ASSERT_TRUE(same(s(cc::zipped_divide(a, t)), s(cc::zipped_divide(ad, td))));
    ASSERT_TRUE(same(s(cc::tiled_divide(a, t)), s(cc::tiled_divide(ad, td))));
    ASSERT_TRUE(same(s(cc::flat_divide(a, t)), s(cc::flat_divide(ad, td))));
    auto crd = cc::make_coord(pick({0, 1}) % ((m + 3) / 4), 0);
    ASSERT_TRUE(same(s(cc::local_tile(a, t, crd)), s(cc::local_tile(ad, td, crd))));
    ASSERT_EQ(cc::local_tile_offset(a, t, crd), cc::local_tile_offset(ad, td, crd));
    using Thr = cc::RowMajor<2, 2>;
    int idx = pick({0, 1, 2, 3});
    ASSERT_TRUE(same(s(cc::local_partition(a, Thr{}, idx)), s(cc::local_partition(ad, cc::parse_layout("(2,2):(2,1)"), idx))));
    ASSERT_EQ(cc::local_partition_offset(a, Thr{}, idx), cc::local_partition_offset(ad, cc::parse_layout("(2,2):(2,1)"), idx));
  }
  // Static tile on a run-time extent keeps the static parts in the type.
  auto g = cc::make_layout(cc::make_shape(100, 64), cc::make_stride(C<1>{}, 100));
  auto tile = cc::local_tile(g, cc::Tile<C<32>, C<16>>{}, cc::make_coord(3, 1));
  static_assert(std::is_same_v<decltype(tile), Layout<Shape<C<32>, C<16>>, Stride<C<1>, int>>>);
  EXPECT_EQ(s(tile), "(_32,_16):(_1,100)");
  EXPECT_EQ(cc::local_tile_offset(g, cc::Tile<C<32>, C<16>>{}, cc::make_coord(3, 1)), 3 * 32 + 16 * 100);
}

TEST(LayoutStatic, ModeQueries) {
  using L = Layout<Shape<C<4>, Shape<C<2>, C<3>>>, Stride<C<1>, Stride<C<8>, C<4>>>>;
  static_assert(std::is_same_v<decltype(cc::size<1>(L{})), C<6>>);
  static_assert(std::is_same_v<decltype(cc::size<1, 1>(L{})), C<3>>);
  EXPECT_EQ(s(cc::get<1>(L{})), "(_2,_3):(_8,_4)");
  // A static shape with a run-time stride: size stays static, cosize is computed on the typed layout.
  auto l = cc::make_layout(Shape<C<4>, C<8>>{}, cc::make_stride(C<1>{}, 5));
  static_assert(std::is_same_v<decltype(cc::size(l)), C<32>>);
  EXPECT_EQ(cc::cosize(l), 3 + 7 * 5 + 1);
  EXPECT_EQ(cc::size<1>(cc::make_layout(cc::make_shape(4, 6))), 6);
  EXPECT_EQ(cc::size<1>(cc::parse_layout("(4,(2,3)):(1,(8,4))")), 6);
}

TEST(LayoutStatic, TileToShapeAndComposedAlgebra) {
  using C16 = Shape<C<128>, C<64>, C<3>>;
  EXPECT_EQ(s(cc::tile_to_shape(cc::RowMajor<8, 64>{}, C16{})),
            "((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_8192),(_0,_8192))");
  EXPECT_EQ(s(cc::coalesce(cc::tile_to_shape(cc::RowMajor<8, 64>{}, C16{}), Shape<C<1>, C<1>, C<1>>{})),
            "(_128,_64,_3):(_64,_1,_8192)");
  EXPECT_EQ(s(cc::tile_to_shape(cc::RowMajor<8, 64>{}, Shape<C<16>, C<128>>{}, cc::Step<C<2>, C<1>>{})),
            "((_8,_2),(_64,_2)):((_64,_1024),(_1,_512))");
  EXPECT_EQ(s(cc::tile_to_shape(cc::ColMajor<64, 8>{}, Shape<C<128>, C<64>>{})), "((_64,_2),(_8,_8)):((_1,_512),(_64,_1024))");
  using Atom = cc::ComposedLayout<cc::Swizzle<3, 4, 3>, 0, cc::RowMajor<8, 64>>;
  auto smem = cc::tile_to_shape(Atom{}, C16{});
  EXPECT_EQ(s(smem), "Sw<3,4,3> o _0 o ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_8192),(_0,_8192))");
  static_assert(cc::is_static_v<decltype(smem)>);
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 64; j += 7) EXPECT_EQ(smem(i, j, 2), (cc::SwizzleV{3, 4, 3}(i * 64 + j + 2 * 8192)));
  auto tiled = cc::zipped_divide(Atom{}, cc::Tile<C<8>, C<8>>{});
  EXPECT_EQ(s(tiled), "Sw<3,4,3> o _0 o ((_8,_8),(_1,_8)):((_64,_1),(_0,_8))");
  EXPECT_EQ(s(cc::composition(Atom{}, cc::RowMajor<4, 8>{})), "Sw<3,4,3> o _0 o (_4,_8):(_1,_64)");
  EXPECT_EQ(cc::evaluate_layout_expression("tile_to_shape((8,64):(64,1), (128,64,3))"),
            "((8,16),(64,1),(_1,3)):((64,512),(1,8192),(_0,8192))");
}

TEST(LayoutStatic, OrderedRecastAndPredicates) {
  EXPECT_EQ(s(cc::make_ordered_layout(Shape<C<2>, C<3>, C<4>>{}, cc::Tuple<C<1>, C<0>, C<2>>{})), "(_2,_3,_4):(_3,_1,_6)");
  EXPECT_EQ(s(cc::upcast<2>(cc::ColMajor<8, 4>{})), "(_4,_4):(_1,_4)");
  EXPECT_EQ(s(cc::downcast<2>(Layout<Shape<C<4>, C<4>>, Stride<C<1>, C<4>>>{})), "(_8,_4):(_1,_8)");
  EXPECT_EQ(s(cc::recast_layout<std::uint16_t, std::uint32_t>(cc::RowMajor<8, 64>{})), "(_8,_32):(_32,_1)");
  EXPECT_EQ(s(cc::upcast<4>(Layout<Shape<C<8>, C<4>>, Stride<C<0>, C<1>>>{})), "(_8,_1):(_0,_1)");
  static_assert(cc::compatible(Shape<C<4>, C<6>>{}, Shape<C<4>, Shape<C<2>, C<3>>>{}));
  static_assert(!cc::compatible(Shape<C<4>, C<6>>{}, Shape<C<24>>{}));
  static_assert(cc::compatible(C<24>{}, Shape<C<4>, C<6>>{}));
  static_assert(cc::congruent(cc::RowMajor<4, 8>{}, Shape<int, int>{}));
}

TEST(LayoutNotation, GridPicture) {
  EXPECT_EQ(cc::to_grid_string(cc::RowMajor<2, 3>{}),
            "(_2,_3):(_3,_1)\n"
            "        0   1   2 \n"
            "      +---+---+---+\n"
            "   0  | 0 | 1 | 2 |\n"
            "      +---+---+---+\n"
            "   1  | 3 | 4 | 5 |\n"
            "      +---+---+---+\n");
}

TEST(LayoutStatic, TupleArithmeticAndTilerPrinting) {
  auto tiles = cc::ceil_div(cc::make_shape(100, C<64>{}, 7), cc::make_shape(C<32>{}, C<16>{}));
  EXPECT_EQ(s(tiles), "(4,_4,7)");
  static_assert(std::is_same_v<decltype(cc::ceil_div(Shape<C<128>, C<64>>{}, Shape<C<32>, C<16>>{})), cc::Tuple<C<4>, C<4>>>);
  EXPECT_EQ(s(cc::elem_scale(Shape<C<2>, C<3>>{}, Shape<C<4>, C<5>>{})), "(_8,_15)");
  static_assert(std::is_same_v<decltype(cc::inner_product(Shape<C<2>, C<3>>{}, Shape<C<4>, C<5>>{})), C<23>>);
  EXPECT_EQ(cc::inner_product(cc::make_shape(2, 3), cc::make_shape(4, 5)), 23);
  EXPECT_EQ(s(cc::make_tile(Layout<C<3>, C<4>>{}, C<8>{}, cc::_)), "(_3:_4,_8:_1,_)");
}

TEST(LayoutStatic, StructuredBindingsAndRankV) {
  auto [m, n] = cc::make_shape(100, C<64>{});
  EXPECT_EQ(m, 100);
  static_assert(std::is_same_v<decltype(n), C<64>>);
  static_assert(cc::rank_v<cc::RowMajor<4, 8>> == 2);
  static_assert(cc::rank_v<Shape<C<1>, C<2>, C<3>>> == 3);
}

// CuTe's tutorial partitions (docs 03_tensor.md): inner (local_tile) and outer (local_partition).
TEST(LayoutStatic, PartitionsAsInCuTe) {
  using A = Layout<Shape<C<4>, C<6>>, Stride<C<1>, C<4>>>;
  // local_partition(A, make_layout(Shape<_2,_3>{}), 3): thread 3 -> (1,1), offset 5, (2,2):(2,12)
  EXPECT_EQ(s(cc::local_partition(A{}, cc::ColMajor<2, 3>{}, C<3>{})), "(_2,_2):(_2,_12)");
  EXPECT_EQ(s(cc::local_partition_offset(A{}, cc::ColMajor<2, 3>{}, C<3>{})), "_5");
  auto dyn_thr = cc::local_partition(A{}, cc::ColMajor<2, 3>{}, 3);
  EXPECT_EQ(s(dyn_thr), "(_2,_2):(_2,_12)");
  EXPECT_EQ(cc::local_partition_offset(A{}, cc::ColMajor<2, 3>{}, 3), 5);
  // (8,24) tiled by (_4,_8): tiles ((_4,_8),(2,3)); local_tile at (1,2) keeps the (4,8) tile.
  auto a = cc::make_layout(cc::make_shape(8, 24));
  EXPECT_EQ(s(cc::zipped_divide(a, Shape<C<4>, C<8>>{})), "((_4,_8),(2,3)):((_1,8),(_4,64))");
  EXPECT_EQ(s(cc::local_tile(a, Shape<C<4>, C<8>>{}, cc::make_coord(1, 2))), "(_4,_8):(_1,8)");
  EXPECT_EQ(cc::local_tile_offset(a, Shape<C<4>, C<8>>{}, cc::make_coord(1, 2)), 4 + 2 * 64);
}

TEST(LayoutStatic, TypedCompactLayouts) {
  static_assert(std::is_same_v<Layout<Shape<C<4>, C<8>>>, cc::ColMajor<4, 8>>);
  auto l = cc::make_layout(cc::make_shape(6, C<8>{}));
  static_assert(std::is_same_v<decltype(l), Layout<Shape<int, C<8>>, Stride<C<1>, std::int64_t>>>);
  EXPECT_EQ(s(l), "(6,_8):(_1,6)");
  auto r = cc::make_layout(cc::make_shape(6, cc::make_shape(C<2>{}, C<4>{})), cc::LayoutRight{});
  static_assert(std::is_same_v<decltype(cc::stride<1>(r)), Stride<C<4>, C<1>>>);  // static: by value
  EXPECT_EQ(s(r), "(6,(_2,_4)):(_8,(_4,_1))");
  EXPECT_EQ(s(cc::make_layout(Shape<C<4>, Shape<C<2>, C<3>>>{}, cc::LayoutRight{})), "(_4,(_2,_3)):(_6,(_3,_1))");
}

// Static shape, run-time strides, static second argument: typed results from a symbolic
// compile-time run, equal to the run-time engine's.
TEST(LayoutStatic, SymbolicStridesMatchTheEngine) {
  using TV = Layout<Shape<Shape<C<4>, C<8>>, Shape<C<2>, C<2>>>, Stride<Stride<C<256>, C<1>>, Stride<C<128>, C<8>>>>;
  using Tiler = cc::Tile<Layout<Shape<C<16>, C<2>>, Stride<C<1>, C<64>>>, C<32>>;
  for (int ld : {64, 100, 1000, 4096}) {
    auto g = cc::make_layout(Shape<C<128>, C<64>>{}, cc::make_stride(ld, C<1>{}));  // (BM,BK):(ld,1)
    cc::DynLayout gd = cc::parse_layout(s(g));
    auto c = cc::composition(g, TV{});
    static_assert(std::is_same_v<decltype(cc::shape(c)), Shape<Shape<C<4>, C<8>>, Shape<C<2>, C<2>>> const&>);
    EXPECT_EQ(plain(s(c)), plain(s(cc::composition(gd, cc::make_dyn_layout(cc::layout_value(TV{}))))));
    for (int i = 0; i < 128; ++i) EXPECT_EQ(c(i), g(TV{}(i)));
    cc::DynLayout td = cc::make_dyn_layout(cc::parse_tiler("((16,2):(1,64),32)"));
    EXPECT_EQ(plain(s(cc::zipped_divide(g, Tiler{}))), plain(s(cc::zipped_divide(gd, td))));
    EXPECT_EQ(plain(s(cc::logical_divide(g, Tiler{}))), plain(s(cc::logical_divide(gd, td))));
    EXPECT_EQ(plain(s(cc::tiled_divide(g, Tiler{}))), plain(s(cc::tiled_divide(gd, td))));
    EXPECT_EQ(plain(s(cc::flat_divide(g, Tiler{}))), plain(s(cc::flat_divide(gd, td))));
    static_assert(!std::is_same_v<decltype(cc::zipped_divide(g, Tiler{})), cc::DynLayout>);
  }
  // Two run-time strides never merge (C++ CuTe cannot prove that they may either).
  auto h = cc::make_layout(Shape<C<4>, C<8>>{}, cc::make_stride(7, 28));
  EXPECT_EQ(s(cc::composition(h, Layout<C<32>, C<1>>{})), "(_4,_8):(7,28)");
}

// Identity layouts (ScaledBasis strides): offsets are coordinates; partitioning keeps them.
TEST(LayoutStatic, IdentityLayouts) {
  auto id = cc::make_identity_layout(cc::make_shape(100, 64));
  EXPECT_EQ(s(id), "(100,64):(_1@0,_1@1)");
  auto c = id(5, 7);
  EXPECT_EQ(cc::get<0>(c), 5);
  EXPECT_EQ(cc::get<1>(c), 7);
  auto tile = cc::local_tile(id, cc::Tile<C<32>, C<16>>{}, cc::make_coord(3, 1));  // (32,16)
  auto off = cc::local_tile_offset(id, cc::Tile<C<32>, C<16>>{}, cc::make_coord(3, 1));
  EXPECT_EQ(s(tile), "(_32,_16):(_1@0,_1@1)");
  EXPECT_EQ(cc::get<0>(off), 96);
  EXPECT_EQ(cc::get<1>(off), 16);
  // A thread/value layout over a static 4x8 identity tile gives each (thread, value) its (m, n).
  using TV = Layout<Shape<Shape<C<2>, C<4>>, Shape<C<2>, C<2>>>, Stride<Stride<C<8>, C<1>>, Stride<C<4>, C<16>>>>;
  auto tv = cc::composition(cc::make_identity_layout(Shape<C<4>, C<8>>{}), TV{});
  static_assert(cc::is_static_v<decltype(tv)>);
  EXPECT_EQ(s(tv), "((_2,_4),(_2,_2)):((_2@1,_1@0),(_1@1,_4@1))");
  for (int t = 0; t < 8; ++t)
    for (int v = 0; v < 4; ++v) {
      auto mn = tv(t, v);
      long long idx = TV{}(t, v);
      EXPECT_EQ(cc::get<0>(mn), idx % 4);
      EXPECT_EQ(cc::get<1>(mn), idx / 4);
    }
  auto part = cc::local_partition(id, cc::RowMajor<4, 8>{}, 9);
  EXPECT_EQ(s(part), "(25,8):(_4@0,_8@1)");
  auto poff = cc::local_partition_offset(id, cc::RowMajor<4, 8>{}, 9);
  EXPECT_EQ(cc::get<0>(poff), 1);
  EXPECT_EQ(cc::get<1>(poff), 1);
  EXPECT_NE(error_of([] { (void)cc::complement(cc::make_dyn_layout(cc::layout_value(cc::make_identity_layout(cc::make_shape(4, 8))))); })
                .find("[layout.basis.unsupported]"),
            std::string::npos);
}
