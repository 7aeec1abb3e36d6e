// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Tuple storage and element access, in constant expressions and at run time.
//
// Issue 23: g++ 13.3 (and 14.2) rejected Layout{}(make_coord(C<1>{}, make_coord(C<1>{}, C<2>{})))
// in layout.hpp's run_static with "accessing value of TupleLeaf<1, Tuple<C<1>,C<2>>>::value
// through a const TupleLeaf<1, C<2>> glvalue in a constant expression". Static elements used to
// be stored, so the inner tuple's C<1> and its parent's could not share an address and the inner
// (_1,_2) sat at offset 1; those compilers resolve the cast from it to its empty TupleLeaf<1, C<2>>
// onto the parent's leaf. g++ 12 and clang 16 accepted that code, so with them it is the storage
// checks below (one byte for a static tuple, static elements by value) that fail; the walks in
// constant expressions are what g++ 13 rejected.
#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <cute_cpp/layout.hpp>

namespace cc = cute_cpp;
using cc::C;
using cc::Tuple;

namespace {
/// The sum of every leaf, each reached through a chain of get<> on references: run_static's
/// to_tuple walk, where g++ 13 failed.
template <class T>
constexpr long long leaf_sum(T const& t) {
  if constexpr (cc::is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return (0LL + ... + leaf_sum(cc::get<I>(t))); }(
        std::make_index_sequence<std::size_t(cc::tuple_rank_v<T>)>{});
  } else {
    return static_cast<long long>(t);
  }
}

using Nested = Tuple<C<1>, Tuple<C<1>, C<2>>>;                       // the coordinate
using Siblings = Tuple<Tuple<C<5>, C<6>>, Tuple<C<5>, C<2>>>;        // siblings sharing a leaf
using Twins = Tuple<Tuple<C<1>, C<2>>, Tuple<C<1>, C<2>>>;           // equal siblings
using Deep = Tuple<C<1>, Tuple<C<1>, Tuple<C<1>, C<2>>>>;
using SmemStride = Tuple<Tuple<C<64>, C<512>>, Tuple<C<1>, C<8192>>, Tuple<C<0>, C<8192>>>;

// ---- static tuples: one byte, elements by value, every leaf reachable in a constant expression ----
static_assert(std::is_empty_v<Nested> && sizeof(Nested) == 1);
static_assert(sizeof(Siblings) == 1 && sizeof(Twins) == 1 && sizeof(Deep) == 1 && sizeof(SmemStride) == 1);
static_assert(std::is_same_v<decltype(cc::get<1>(std::declval<Nested const&>())), Tuple<C<1>, C<2>>>);
static_assert(std::is_same_v<decltype(cc::get<1, 1>(std::declval<Nested&>())), C<2>>);
static_assert(std::is_same_v<decltype(cc::get<1>(std::declval<Nested>())), Tuple<C<1>, C<2>>>);

static_assert(leaf_sum(Nested{}) == 4);
static_assert(leaf_sum(cc::make_coord(C<1>{}, cc::make_coord(C<1>{}, C<2>{}))) == 4);
static_assert(leaf_sum(Siblings{}) == 18);
static_assert(leaf_sum(Twins{}) == 6);
static_assert(leaf_sum(Deep{}) == 5);
static_assert(leaf_sum(SmemStride{}) == 64 + 512 + 1 + 8192 + 0 + 8192);
static_assert(cc::get<1, 1>(Nested{}) == 2 && cc::get<1, 0>(Siblings{}) == 5);

// The issue's own expression: a nested static coordinate into a static layout, a C<> result.
using L = cc::Layout<cc::Shape<C<4>, cc::Shape<C<2>, C<3>>>, cc::Stride<C<1>, cc::Stride<C<8>, C<4>>>>;
static_assert(std::is_same_v<decltype(L{}(cc::make_coord(C<1>{}, cc::make_coord(C<1>{}, C<2>{})))), C<17>>);

// ---- mixed tuples: run-time elements are stored (by reference), static ones are not ----
static_assert(sizeof(Tuple<int, Tuple<int, C<2>>>) == 2 * sizeof(int));
static_assert(sizeof(Tuple<C<1>, Tuple<C<1>, int>>) == sizeof(int));
static_assert(std::is_same_v<decltype(cc::get<0>(std::declval<Tuple<int, C<2>>&>())), int&>);
static_assert(std::is_same_v<decltype(cc::get<0>(std::declval<Tuple<int, C<2>> const&>())), int const&>);
static_assert(std::is_same_v<decltype(cc::get<0>(std::declval<Tuple<int, C<2>>>())), int&&>);
static_assert(std::is_same_v<decltype(cc::get<1>(std::declval<Tuple<int, C<2>>&>())), C<2>>);

static_assert(leaf_sum(cc::make_tuple(3, cc::make_tuple(4, C<2>{}))) == 9);
static_assert(leaf_sum(cc::make_tuple(C<1>{}, cc::make_tuple(C<1>{}, 5))) == 7);
static_assert(leaf_sum(cc::make_tuple(cc::make_tuple(C<5>{}, 6), cc::make_tuple(C<5>{}, 2))) == 18);

constexpr long long assign_and_sum() {
  auto t = cc::make_tuple(1, C<2>{}, cc::make_tuple(3, C<4>{}));
  cc::get<0>(t) = 5;
  cc::get<0>(cc::get<2>(t)) = 7;
  return leaf_sum(t);
}
static_assert(assign_and_sum() == 5 + 2 + 7 + 4);
}  // namespace

TEST(LayoutTuple, NestedStaticTuplesPrint) {
  EXPECT_EQ(cc::to_string(Nested{}), "(_1,(_1,_2))");
  EXPECT_EQ(cc::to_string(Siblings{}), "((_5,_6),(_5,_2))");
  EXPECT_EQ(cc::to_string(Deep{}), "(_1,(_1,(_1,_2)))");
}

TEST(LayoutTuple, RunTimeElementsAreReferences) {
  auto t = cc::make_tuple(1, C<2>{}, cc::make_tuple(3, C<4>{}));
  cc::get<0>(t) = 5;
  EXPECT_EQ(leaf_sum(t), 5 + 2 + 3 + 4);
  cc::get<0>(cc::get<2>(t)) = 7;
  EXPECT_EQ(leaf_sum(t), 5 + 2 + 7 + 4);
  EXPECT_EQ(cc::to_string(t), "(5,_2,(7,_4))");
  auto [a, b, c] = t;
  static_assert(std::is_same_v<decltype(b), C<2>>);
  EXPECT_EQ(a, 5);
  EXPECT_EQ(cc::get<0>(c), 7);
  int moved = cc::get<0>(std::move(t));
  EXPECT_EQ(moved, 5);
}
