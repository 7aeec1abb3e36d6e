// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/recast.hpp: a layout seen over wider or narrower elements (CuTeDSL:
// cute.recast_layout; C++ CuTe's upcast and downcast).
#include <cute_cpp/config.hpp>         // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>   // detail::apply
#include <cute_cpp/layout/ops.hpp>     // UpcastOp, DowncastOp

namespace cute_cpp {

/// upcast<N>(L): the layout over elements N times wider (strides / N, contiguous extents / N).
///   upcast<2>((_8,_4):(_1,_8)) -> (_4,_4):(_1,_4)
template <long long N, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto upcast(L const& l) {
  return detail::apply<detail::UpcastOp<N>>(l);
}
/// downcast<N>(L): the layout over elements N times narrower. downcast<2>((_4,_4):(_1,_4)) -> (_8,_4):(_1,_8)
template <long long N, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto downcast(L const& l) {
  return detail::apply<detail::DowncastOp<N>>(l);
}
/// recast_layout<From, To>(L): the same bytes seen as To elements. recast_layout<half, float>: upcast<2>.
template <class From, class To, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto recast_layout(L const& l) {
  if constexpr (sizeof(To) == sizeof(From)) return l;
  else if constexpr (sizeof(To) > sizeof(From)) return upcast<sizeof(To) / sizeof(From)>(l);
  else return downcast<sizeof(From) / sizeof(To)>(l);
}

}  // namespace cute_cpp
