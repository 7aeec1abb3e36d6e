// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/typed_divide.hpp (detail): the typed path of the divides, local_tile and
// local_partition. A typed layout divided by a tuple of integer tiles is built from its own
// shape and strides, without the engine, so run-time layouts divided by static tiles stay typed
// and cheap on the device. divide.hpp takes this path where it applies.
#include <cstddef>      // std::size_t
#include <cstdint>      // int64_t
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>         // to_layout, LV, elem_t, is_typed_v, has_underscore_v
#include <cute_cpp/layout/dyn_tuple.hpp>     // DynTuple, dt::get
#include <cute_cpp/layout/layout_type.hpp>   // Layout, is_layout_v
#include <cute_cpp/layout/tuple.hpp>         // make_tuple, ceil_div, typed_mul, eval_typed, product_typed

namespace cute_cpp::detail {

// ---- typed divides: a typed layout divided by a tuple of integer tiles, without the engine ----
// NOTE: kernels divide run-time global layouts (M,N,K) by static tiles on the device; this path
// keeps those results typed and cheap (the engine's trees would cost kilobytes of stack there).

/// The typed fast path applies to a layout whose shape and stride are typed tuples, divided by a
/// tuple of integers / `_` that tiles integer (leaf) modes, when not everything is static.
template <class S, class D, class T>
CUTE_CPP_HD constexpr bool typed_divide_ok() {
  if constexpr (!is_tuple_v<S> || !is_tuple_v<D> || !is_tuple_v<T>) {
    return false;
  } else if constexpr (tuple_rank_v<T> > tuple_rank_v<S> || tuple_rank_v<S> != tuple_rank_v<D>) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return ((std::is_same_v<elem_t<I, T>, Underscore> ||
               (Integer<elem_t<I, T>> && Integer<elem_t<I, S>> && (Integer<elem_t<I, D>> || is_basis_v<elem_t<I, D>>))) &&
              ...);
    }(std::make_index_sequence<tuple_rank_v<T>>{});
  }
}

template <class S, class N>
CUTE_CPP_HD constexpr auto tile_shape(S const&, N const& n) {
  if constexpr (std::is_same_v<N, Underscore>) return C<1>{};
  else return n;
}
template <class D, class N>
CUTE_CPP_HD constexpr auto tile_stride(D const& d, N const&) {
  if constexpr (std::is_same_v<N, Underscore>) return C<0>{};
  else return d;
}
template <class S, class N>
CUTE_CPP_HD constexpr auto rest_shape(S const& s, N const& n) {
  if constexpr (std::is_same_v<N, Underscore>) return s;
  else return ceil_div(s, n);
}
template <class D, class N>
CUTE_CPP_HD constexpr auto rest_stride(D const& d, N const& n) {
  if constexpr (std::is_same_v<N, Underscore>) return d;
  else return typed_mul(n, d);
}

/// Z = zipped_divide(L, T) as (Z0 shape, Z0 stride, Z1 shape, Z1 stride).
template <class S, class D, class T>
CUTE_CPP_HD constexpr auto typed_zipped_parts(S const& s, D const& d, T const& t) {
  constexpr std::size_t RT = tuple_rank_v<T>;
  constexpr std::size_t RL = tuple_rank_v<S>;
  auto z0s = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_tuple(tile_shape(get<I>(s), get<I>(t))...);
  }(std::make_index_sequence<RT>{});
  auto z0d = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_tuple(tile_stride(get<I>(d), get<I>(t))...);
  }(std::make_index_sequence<RT>{});
  auto z1s = [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return make_tuple(rest_shape(get<I>(s), get<I>(t))..., get<RT + J>(s)...);
  }(std::make_index_sequence<RT>{}, std::make_index_sequence<RL - RT>{});
  auto z1d = [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return make_tuple(rest_stride(get<I>(d), get<I>(t))..., get<RT + J>(d)...);
  }(std::make_index_sequence<RT>{}, std::make_index_sequence<RL - RT>{});
  return make_tuple(z0s, z0d, z1s, z1d);
}

/// The elements of t, or t itself as one element when it has rank 1 (C++ CuTe's slice with `_`).
template <class T>
CUTE_CPP_HD constexpr auto modes_unless_rank1(T const& t) {
  if constexpr (tuple_rank_v<T> == 1) return make_tuple(t);
  else return t;
}
template <class... A, class... B>
CUTE_CPP_HD constexpr auto tuple_cat2(Tuple<A...> const& a, Tuple<B...> const& b) {
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return Tuple<A..., B...>(get<I>(a)..., get<J>(b)...);
  }(std::index_sequence_for<A...>{}, std::index_sequence_for<B...>{});
}

/// Flat thread coordinate of idx in a static thread layout Thr: per top-level mode, the
/// column-major index of Thr^-1(idx) within that mode (CuTe's get_flat_coord).
template <class Thr, class I>
CUTE_CPP_HD constexpr auto flat_thread_coord(I const& idx) {
  constexpr LV tv = to_layout(Thr{});
  constexpr int modes = tv.shape.rank();
  struct Leaf {
    long long shape = 1, stride = 1, prefix = 1;
    int mode = 0;
  };
  constexpr auto leaves = [] {
    LV tv = to_layout(Thr{});
    struct {
      Leaf l[DynTuple::capacity] = {};
      int n = 0;
    } out;
    for (int k = 0; k < tv.shape.rank(); ++k) {
      DynTuple sk = dt::get(tv.shape, k), dk = dt::get(tv.stride, k);
      long long p = 1;
      for (int i = 0; i < sk.n; ++i)
        if (sk.node[i].kind < 0) {
          out.l[out.n++] = Leaf{sk.node[i].v, dk.node[i].v, p, k};
          p *= sk.node[i].v;
        }
    }
    return out;
  }();
  std::int64_t crd[modes] = {};
  for (int j = 0; j < leaves.n; ++j) {
    Leaf const& lf = leaves.l[j];
    std::int64_t q = lf.stride == 0 ? 0 : std::int64_t(dyn(idx)) / lf.stride;
    crd[lf.mode] += (q % lf.shape) * lf.prefix;
  }
  return [&]<std::size_t... K>(std::index_sequence<K...>) { return make_tuple(crd[K]...); }(
      std::make_index_sequence<std::size_t(modes)>{});
}

/// product_each(shape(Thr)) of a static thread layout, as a Tuple of C<>.
template <class Thr>
CUTE_CPP_HD constexpr auto to_tiler_shape() {
  using S = typename Thr::shape_type;
  return []<std::size_t... K>(std::index_sequence<K...>) {
    return Tuple<C<int(product_typed(elem_t<K, S>{}))>...>{};
  }(std::make_index_sequence<tuple_rank_v<S>>{});
}
template <class S, class N>
CUTE_CPP_HD constexpr auto div_mode_shape(S const& s, N const& n) {
  if constexpr (std::is_same_v<N, Underscore>) return s;
  else return make_tuple(n, ceil_div(s, n));
}
template <class D, class N>
CUTE_CPP_HD constexpr auto div_mode_stride(D const& d, N const& n) {
  if constexpr (std::is_same_v<N, Underscore>) return d;
  else return make_tuple(d, typed_mul(n, d));
}
template <class A, class T>
CUTE_CPP_HD constexpr bool use_typed_divide() {
  if constexpr (!is_layout_v<A>) return false;
  else if constexpr (is_static_v<A> && is_static_v<T>) return false;
  else return typed_divide_ok<typename A::shape_type, typename A::stride_type, T>();
}
template <class A, class T>
CUTE_CPP_HD constexpr auto typed_logical_divide(A const& a, T const& t) {
  constexpr std::size_t RT = tuple_rank_v<T>;
  constexpr std::size_t RL = tuple_rank_v<typename A::shape_type>;
  auto const& s = a.shape();
  auto const& d = a.stride();
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    auto sh = make_tuple(div_mode_shape(get<I>(s), get<I>(t))..., get<RT + J>(s)...);
    auto st = make_tuple(div_mode_stride(get<I>(d), get<I>(t))..., get<RT + J>(d)...);
    return Layout<decltype(sh), decltype(st)>(sh, st);
  }(std::make_index_sequence<RT>{}, std::make_index_sequence<RL - RT>{});
}
template <class Sh, class St>
CUTE_CPP_HD constexpr auto layout_of(Sh const& sh, St const& st) {
  return Layout<Sh, St>(sh, st);
}
/// kind: 0 zipped, 1 tiled, 2 flat.
template <int Kind, class A, class T>
CUTE_CPP_HD constexpr auto typed_divide(A const& a, T const& t) {
  auto z = typed_zipped_parts(a.shape(), a.stride(), t);
  if constexpr (Kind == 0) {
    return layout_of(make_tuple(get<0>(z), get<2>(z)), make_tuple(get<1>(z), get<3>(z)));
  } else if constexpr (Kind == 1) {
    return layout_of(tuple_cat2(make_tuple(get<0>(z)), modes_unless_rank1(get<2>(z))),
                     tuple_cat2(make_tuple(get<1>(z)), modes_unless_rank1(get<3>(z))));
  } else {
    return layout_of(tuple_cat2(modes_unless_rank1(get<0>(z)), modes_unless_rank1(get<2>(z))),
                     tuple_cat2(modes_unless_rank1(get<1>(z)), modes_unless_rank1(get<3>(z))));
  }
}
template <class A, class T, class Crd>
CUTE_CPP_HD constexpr bool use_typed_local_tile() {
  if constexpr (!use_typed_divide<A, T>() || !is_typed_v<Crd> || has_underscore_v<Crd>) return false;
  else if constexpr (is_tuple_v<Crd>) return tuple_rank_v<Crd> == tuple_rank_v<typename A::shape_type>;
  else return Integer<Crd> && tuple_rank_v<typename A::shape_type> == 1;
}
/// local_tile on the typed path: (the tile's layout, its offset).
template <class A, class T, class Crd>
CUTE_CPP_HD constexpr auto typed_local_tile(A const& a, T const& t, Crd const& c) {
  auto z = typed_zipped_parts(a.shape(), a.stride(), t);
  auto off = eval_typed(c, get<2>(z), get<3>(z));
  if constexpr (tuple_rank_v<T> == 1) return make_tuple(layout_of(make_tuple(get<0>(z)), make_tuple(get<1>(z))), off);
  else return make_tuple(layout_of(get<0>(z), get<1>(z)), off);
}
template <class A, class Thr, class I>
CUTE_CPP_HD constexpr bool use_typed_local_partition() {
  if constexpr (!is_layout_v<Thr> || !is_layout_v<A>) return false;
  else if constexpr (!is_static_v<Thr> || !is_tuple_v<typename Thr::shape_type>) return false;
  else if constexpr (is_static_v<A> && is_static_v<I>) return false;
  else return use_typed_divide<A, decltype(to_tiler_shape<Thr>())>() && Integer<I>;
}
template <class A, class Thr, class I>
CUTE_CPP_HD constexpr auto typed_local_partition(A const& a, I const& idx) {
  auto z = typed_zipped_parts(a.shape(), a.stride(), to_tiler_shape<Thr>());
  auto crd = flat_thread_coord<Thr>(idx);
  auto off = eval_typed(crd, get<0>(z), get<1>(z));
  if constexpr (tuple_rank_v<std::remove_cvref_t<decltype(get<2>(z))>> == 1)
    return make_tuple(layout_of(make_tuple(get<2>(z)), make_tuple(get<3>(z))), off);
  else
    return make_tuple(layout_of(get<2>(z), get<3>(z)), off);
}

}  // namespace cute_cpp::detail
