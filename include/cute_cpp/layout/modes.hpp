// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/modes.hpp: a layout's modes reshaped (CuTeDSL: cute.coalesce, cute.filter_zeros
// / C++ filter, cute.flatten, cute.select, take, cute.group_modes, cute.append, cute.prepend,
// cute.product_each) and the compact strides of a shape (compact_col_major, compact_row_major).
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>         // detail::apply
#include <cute_cpp/layout/layout_type.hpp>   // is_layout_v
#include <cute_cpp/layout/ops.hpp>           // CoalesceOp, FilterOp, FlattenOp, SelectOp, GroupOp, ...

namespace cute_cpp {

// ---- coalesce, filter, flatten, modes ----

/// coalesce(L): the same function with the fewest modes. (2,(1,6)):(1,(6,2)) -> 12:1
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto coalesce(L const& l) {
  return detail::apply<detail::CoalesceOp>(l);
}
/// coalesce(L, profile): by mode where the profile is a tuple.
///   coalesce(((2,4),(3,2)):((1,2),(8,24)), (1,1)) -> (8,6):(1,8)
template <class L, class P>
[[nodiscard]] CUTE_CPP_HD constexpr auto coalesce(L const& l, P const& profile) {
  return detail::apply<detail::CoalesceProfileOp>(l, profile);
}
/// filter(L): coalesce without stride-0 and size-1 modes. (4,2):(0,1) -> 2:1
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto filter(L const& l) {
  return detail::apply<detail::FilterOp>(l);
}
template <class L, class P>
[[nodiscard]] CUTE_CPP_HD constexpr auto filter(L const& l, P const& profile) {
  return detail::apply<detail::FilterProfileOp>(l, profile);
}
/// flatten(L) or flatten(tuple): the leaves as top-level modes; an integer stays as it is.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto flatten(L const& l) {
  if constexpr (is_layout_v<L>) return detail::apply<detail::FlattenOp>(l);
  else return detail::apply<detail::FlattenTupleOp>(l);
}
/// select<I...>(L): the listed modes. select<2,0>((a,b,c):(x,y,z)) -> (c,a):(z,x)
template <int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto select(L const& l) {
  return detail::apply<detail::SelectOp<Is...>>(l);
}
/// take<B, E>(L): modes [B, E).
template <int B, int E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto take(L const& l) {
  return detail::apply<detail::TakeOp<B, E>>(l);
}
/// group<B, E>(L): modes [B, E) gathered into one mode. group<1,3>((a,b,c)) -> (a,(b,c))
template <int B, int E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto group(L const& l) {
  return detail::apply<detail::GroupOp<B, E>>(l);
}
/// append(L, M) / prepend(L, M): M as a new last / first mode.
/// On int tuples: append((4,8), 2) -> (4,8,2).
template <class L, class M>
[[nodiscard]] CUTE_CPP_HD constexpr auto append(L const& l, M const& m) {
  if constexpr (is_layout_v<L>) return detail::apply<detail::AppendOp>(l, m);
  else return detail::apply<detail::TupleAppendOp>(l, m);
}
template <class L, class M>
[[nodiscard]] CUTE_CPP_HD constexpr auto prepend(L const& l, M const& m) {
  if constexpr (is_layout_v<L>) return detail::apply<detail::PrependOp>(l, m);
  else return detail::apply<detail::TuplePrependOp>(l, m);
}
/// product_each((2,(3,4))) -> (2,12).
template <class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto product_each(T const& t) {
  return detail::apply<detail::ProductEachOp>(t);
}
/// compact_col_major((2,(3,4))) -> (1,(2,6)): the strides of make_layout(shape).
template <class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto compact_col_major(T const& t) {
  return detail::apply<detail::PrefixProductOp>(t);
}
/// compact_row_major((2,(3,4))) -> (12,(4,1)): the strides of make_layout(shape, LayoutRight{}).
template <class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto compact_row_major(T const& t) {
  return detail::apply<detail::SuffixProductOp>(t);
}

}  // namespace cute_cpp
