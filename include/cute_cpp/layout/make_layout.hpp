// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/make_layout.hpp: building layouts (CuTeDSL: cute.make_layout,
// cute.make_identity_layout, cute.make_ordered_layout): from a shape (compact column- or
// row-major), from a shape and a stride, from layouts as modes; identity layouts with
// ScaledBasis strides; run-time layouts from engine values (make_dyn_layout, layout_value).
#include <cstddef>      // std::size_t
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>         // detail::apply, to_layout, is_typed_v, elem_t
#include <cute_cpp/layout/layout_type.hpp>   // Layout, DynLayout, LayoutLeft, LayoutRight
#include <cute_cpp/layout/ops.hpp>           // MakeLayout*Op, PairOp, OrderedLayoutOp
#include <cute_cpp/layout/tuple.hpp>         // get, make_tuple, E, ScaledBasis, compact_typed

namespace cute_cpp {

// ---- construction ----

namespace detail {
template <int J, class T>
CUTE_CPP_HD constexpr auto materialize_basis(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(materialize_basis<J>(get<I>(t))...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
  } else {
    return ScaledBasis<T, J>{t};
  }
}
}  // namespace detail

/// make_layout(shape): compact column-major. make_layout(Shape<C<4>,C<8>>{}) -> (_4,_8):(_1,_4)
/// A typed shape gives a typed layout (static strides where the shape allows, as CuTe):
///   make_layout(make_shape(m, C<8>{})) -> (m,_8):(_1,m)
template <class S>
  requires(!is_layout_v<S>)
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(S const& shape) {
  if constexpr (detail::is_typed_v<S>) {
    auto d = get<0>(detail::compact_typed<false>(shape, C<1>{}));
    return Layout<S, decltype(d)>(shape, d);
  } else {
    return detail::apply<detail::MakeLayoutLeftOp>(shape);
  }
}
/// make_layout(shape, LayoutRight{}): compact row-major. (4,8) -> (4,8):(8,1)
template <class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(S const& shape, LayoutRight) {
  if constexpr (detail::is_typed_v<S>) {
    auto d = get<0>(detail::compact_typed<true>(shape, C<1>{}));
    return Layout<S, decltype(d)>(shape, d);
  } else {
    return detail::apply<detail::MakeLayoutRightOp>(shape);
  }
}
template <class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(S const& shape, LayoutLeft) {
  return make_layout(shape);
}
/// make_layout(shape, stride): the typed layout itself (no engine round trip).
template <class S, class D>
  requires(!is_layout_v<S> && !std::is_same_v<D, LayoutRight> && !std::is_same_v<D, LayoutLeft>)
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(S const& shape, D const& stride) {
  if constexpr (detail::is_typed_v<S> && detail::is_typed_v<D>) {
    if constexpr (is_static_v<S> && is_static_v<D>) (void)detail::apply<detail::MakeLayoutOp>(shape, stride);
    return Layout<S, D>(shape, stride);
  } else {
    return detail::apply<detail::MakeLayoutOp>(shape, stride);
  }
}
/// make_layout(L0, L1): the layouts as the modes of one layout. (4:1, 8:4) -> (4,8):(1,4)
template <class A, class B>
  requires(is_layout_v<A> && is_layout_v<B>)
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(A const& a, B const& b) {
  return detail::apply<detail::PairOp>(a, b);
}
template <class A>
  requires(is_layout_v<A>)
[[nodiscard]] CUTE_CPP_HD constexpr auto make_layout(A const& a) {
  return a;
}
/// make_identity_layout(shape): the layout whose offset is the coordinate itself, with strides
/// E<0>, E<1>, ... per top-level mode (a nested mode gets its 1-D coordinate). Its offsets are
/// coordinate tuples: make_identity_layout(make_shape(4, 8))(5) -> (1,1). Divides, local_tile,
/// local_partition and composition with static layouts keep the ScaledBasis strides, which is how
/// predicates for partial tiles are made. CuTeDSL: cute.make_identity_layout.
template <class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_identity_layout(S const& shape) {
  if constexpr (!is_tuple_v<S>) {
    return Layout<S, E<0>>(shape, E<0>{});
  } else {
    auto d = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return make_tuple([&] {
        using M = detail::elem_t<I, S>;
        if constexpr (is_tuple_v<M>) {
          auto pre = get<0>(detail::compact_typed<false>(get<I>(shape), C<1>{}));
          return detail::materialize_basis<int(I)>(pre);
        } else {
          return E<int(I)>{};
        }
      }()...);
    }(std::make_index_sequence<tuple_rank_v<S>>{});
    return Layout<S, decltype(d)>(shape, d);
  }
}

/// A run-time layout from values (e.g. from parse_layout_value).
CUTE_CPP_HD constexpr DynLayout make_dyn_layout(LV const& l) noexcept { return DynLayout{l.shape, l.stride}; }
/// The engine value of any layout (typed or dynamic).
template <class L>
CUTE_CPP_HD constexpr LV layout_value(L const& l) noexcept {
  return detail::to_layout(l);
}

/// make_ordered_layout(shape, order): compact strides in the order given per leaf.
///   make_ordered_layout((_2,_3,_4), (_1,_0,_2)) -> (_2,_3,_4):(_3,_1,_6)
template <class S, class O>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_ordered_layout(S const& shape, O const& order) {
  return detail::apply<detail::OrderedLayoutOp>(shape, order);
}

}  // namespace cute_cpp
