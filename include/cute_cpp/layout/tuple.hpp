// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/tuple.hpp: hierarchical tuples whose leaves mix static (C<N>) and dynamic
// integers: Tuple, with the aliases Shape, Stride, Coord, Tile and the slice marker `_`.
// CuTeDSL: the int tuples of cute.make_shape / make_stride / make_coord / make_tile, cute.get.
#include <cstddef>      // std::size_t
#include <tuple>        // std::tuple_size, std::tuple_element (structured bindings)
#include <type_traits>  // std::is_empty_v
#include <utility>      // std::index_sequence
#include <cute_cpp/layout/int.hpp>  // C, Integer, is_static_v

namespace cute_cpp {

// ---- Underscore ----

/// `_`: "the whole mode" in a slice coordinate, "leave this mode alone" in a tiler.
struct Underscore {};
#if defined(__CUDA_ARCH__)
// NOTE: in device code `_` must be a device variable: passing it by reference (t(_, 3)) odr-uses it.
static __device__ constexpr Underscore _{};
#else
inline constexpr Underscore _{};
#endif
template <> inline constexpr bool is_static_v<Underscore> = true;

// ---- ScaledBasis ----

/// ScaledBasis<V, J>: V times the unit vector e_J, a stride whose offsets are coordinates (the
/// strides of identity layouts). E<J> is e_J. Printed `_1@0`. CuTeDSL: cute.E / ScaledBasis.
template <class V, int J>
struct ScaledBasis {
  [[no_unique_address]] V value{};
  static constexpr int axis = J;
};
template <int J> using E = ScaledBasis<C<1>, J>;
template <class T> inline constexpr bool is_basis_v = false;
template <class V, int J> inline constexpr bool is_basis_v<ScaledBasis<V, J>> = true;
template <class V, int J> inline constexpr bool is_static_v<ScaledBasis<V, J>> = is_static_v<V>;

// ---- Tuple ----

namespace detail {
// NOTE: a static element (an empty type: C<N>, `_`, an all-static Tuple) is not stored: its leaf
// is an empty base and get<I> returns a fresh T{}, as CuTe's EBO leaves do (issue 23). Stored,
// it collided with an equal element of a nested tuple (the two C<1> of (_1,(_1,_2))), which moved
// the inner tuple to offset 1, and g++ 13 and 14 resolve the cast from it to its empty leaf in a
// constant expression onto the parent's leaf. The Owner tag keeps a nested tuple's empty leaves
// from colliding with its parent's, so static elements take no space in mixed tuples either:
// (_1,(_1,n)) is one int.
template <std::size_t I, class T, class Owner, bool Static = std::is_empty_v<T>>
struct TupleLeaf {
  T value;
};
template <std::size_t I, class T, class Owner>
struct TupleLeaf<I, T, Owner, true> {
  TupleLeaf() = default;
  CUTE_CPP_HD constexpr explicit TupleLeaf(T const&) noexcept {}
};
template <class Owner, class Seq, class... Ts> struct TupleBase;
template <class Owner, std::size_t... Is, class... Ts>
struct TupleBase<Owner, std::index_sequence<Is...>, Ts...> : TupleLeaf<Is, Ts, Owner>... {
  TupleBase() = default;
  CUTE_CPP_HD constexpr explicit TupleBase(Ts const&... xs)
    requires(sizeof...(Ts) > 0)
      : TupleLeaf<Is, Ts, Owner>{xs}... {}
};
template <std::size_t I, class T, class Owner>
CUTE_CPP_HD constexpr T const& leaf_get(TupleLeaf<I, T, Owner, false> const& l) noexcept { return l.value; }
template <std::size_t I, class T, class Owner>
CUTE_CPP_HD constexpr T& leaf_get(TupleLeaf<I, T, Owner, false>& l) noexcept { return l.value; }
template <std::size_t I, class T, class Owner>
CUTE_CPP_HD constexpr T leaf_get(TupleLeaf<I, T, Owner, true> const&) noexcept { return T{}; }
}  // namespace detail

/// A hierarchical tuple: `Tuple<C<4>, Tuple<int, C<3>>>` prints as `(_4,(2,_3))` for the
/// value {C<4>{}, {2, C<3>{}}}. Only run-time elements take space (an all-static tuple is
/// empty); get<I> of a static element returns a fresh value rather than a reference.
template <class... Ts>
struct Tuple : detail::TupleBase<Tuple<Ts...>, std::index_sequence_for<Ts...>, Ts...> {
  static constexpr int rank = int(sizeof...(Ts));
  Tuple() = default;
  template <class... Us>
    requires(sizeof...(Us) == sizeof...(Ts) && sizeof...(Ts) > 0)
  CUTE_CPP_HD constexpr Tuple(Us const&... xs)
      : detail::TupleBase<Tuple<Ts...>, std::index_sequence_for<Ts...>, Ts...>(Ts(xs)...) {}
};

template <class... Ts> using Shape = Tuple<Ts...>;
template <class... Ts> using Stride = Tuple<Ts...>;
template <class... Ts> using Coord = Tuple<Ts...>;
template <class... Ts> using Tile = Tuple<Ts...>;
template <class... Ts> using Step = Tuple<Ts...>;

template <class T> inline constexpr bool is_tuple_v = false;
template <class... Ts> inline constexpr bool is_tuple_v<Tuple<Ts...>> = true;
template <class... Ts> inline constexpr bool is_static_v<Tuple<Ts...>> = (is_static_v<Ts> && ...);

/// get<I>(t): the I-th element; get<I, J>(t) = get<J>(get<I>(t)). For a non-tuple, get<0> is itself.
template <std::size_t I, std::size_t... Js, class T>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) get(T const& t) noexcept {
  if constexpr (sizeof...(Js) > 0) {
    return get<Js...>(get<I>(t));
  } else if constexpr (is_tuple_v<T>) {
    return detail::leaf_get<I>(t);
  } else {
    static_assert(I == 0, "cute-cpp [layout.get.index]: get<I> of a non-tuple needs I == 0");
    return (t);
  }
}

/// get<I>(t) on a mutable tuple: a reference to a stored element (structured bindings,
/// assignment); a static element is returned by value.
template <std::size_t I, class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) get(Tuple<Ts...>& t) noexcept {
  return detail::leaf_get<I>(t);
}

template <std::size_t I, class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) get(Tuple<Ts...>&& t) noexcept {
  using T = std::remove_cvref_t<decltype(detail::leaf_get<I>(t))>;
  if constexpr (std::is_empty_v<T>) return T{};
  else return static_cast<T&&>(detail::leaf_get<I>(t));
}

template <class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr Tuple<Ts...> make_tuple(Ts const&... xs) { return Tuple<Ts...>(xs...); }
template <class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr Tuple<Ts...> make_shape(Ts const&... xs) { return Tuple<Ts...>(xs...); }
template <class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr Tuple<Ts...> make_stride(Ts const&... xs) { return Tuple<Ts...>(xs...); }
template <class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr Tuple<Ts...> make_coord(Ts const&... xs) { return Tuple<Ts...>(xs...); }
template <class... Ts>
[[nodiscard]] CUTE_CPP_HD constexpr Tuple<Ts...> make_tile(Ts const&... xs) { return Tuple<Ts...>(xs...); }

/// tuple_rank_v<T>: 1 for an integer, the number of elements for a tuple.
template <class T> inline constexpr int tuple_rank_v = 1;
template <class... Ts> inline constexpr int tuple_rank_v<Tuple<Ts...>> = int(sizeof...(Ts));

// ---- element-wise tuple arithmetic (static where both sides are) ----

/// ceil_div(a, b) element-wise on congruent tuples; `a` may have more modes than `b` (they stay).
///   ceil_div(make_shape(100, C<64>{}), make_shape(C<32>{}, C<16>{})) -> (4, _4)
template <class A, class B>
  requires(is_tuple_v<A> && is_tuple_v<B>)
[[nodiscard]] CUTE_CPP_HD constexpr auto ceil_div(A const& a, B const& b) {
  static_assert(tuple_rank_v<B> <= tuple_rank_v<A>,
                "cute-cpp [layout.tuple.rank]: ceil_div(a, b) needs rank(b) <= rank(a)");
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return make_tuple(ceil_div(get<I>(a), get<I>(b))..., get<tuple_rank_v<B> + J>(a)...);
  }(std::make_index_sequence<tuple_rank_v<B>>{}, std::make_index_sequence<tuple_rank_v<A> - tuple_rank_v<B>>{});
}
/// elem_scale(a, b): element-wise product of congruent tuples (an integer scales by the whole).
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto elem_scale(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_rank_v<A> == tuple_rank_v<B>,
                  "cute-cpp [layout.tuple.rank]: elem_scale(a, b) needs congruent tuples");
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(elem_scale(get<I>(a), get<I>(b))...); }(
        std::make_index_sequence<tuple_rank_v<A>>{});
  } else if constexpr (is_tuple_v<B>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return (a * ... * get<I>(b)); }(
        std::make_index_sequence<tuple_rank_v<B>>{});
  } else if constexpr (is_constant_int_v<A> && is_constant_int_v<B>) {
    return C<A::value * B::value>{};
  } else {
    return std::int64_t(dyn(a)) * std::int64_t(dyn(b));
  }
}
/// inner_product(a, b): sum of element-wise products of congruent tuples.
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) {
    static_assert(is_tuple_v<B> && tuple_rank_v<A> == tuple_rank_v<B>,
                  "cute-cpp [layout.tuple.rank]: inner_product(a, b) needs congruent tuples");
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return (C<0>{} + ... + inner_product(get<I>(a), get<I>(b))); }(
        std::make_index_sequence<tuple_rank_v<A>>{});
  } else if constexpr (is_constant_int_v<A> && is_constant_int_v<B>) {
    return C<A::value * B::value>{};
  } else {
    return std::int64_t(dyn(a)) * std::int64_t(dyn(b));
  }
}

namespace detail {
template <class A, class B>
CUTE_CPP_HD constexpr auto typed_mul(A const& a, B const& b) noexcept {
  if constexpr (is_basis_v<B>) {
    auto v = typed_mul(a, b.value);
    return ScaledBasis<decltype(v), B::axis>{v};
  } else if constexpr (is_basis_v<A>) {
    return typed_mul(b, a);
  } else if constexpr (is_constant_int_v<A> && is_constant_int_v<B>) {
    return C<A::value * B::value>{};
  } else {
    return std::int64_t(dyn(a)) * std::int64_t(dyn(b));
  }
}
/// has_basis_v<T>: a ScaledBasis somewhere in T (its offsets are coordinates).
template <class T> inline constexpr bool has_basis_v = is_basis_v<T>;
template <class... Ts> inline constexpr bool has_basis_v<Tuple<Ts...>> = (has_basis_v<Ts> || ...);
/// The number of coordinate axes the basis strides of T reach (max axis + 1).
template <class T> inline constexpr int basis_rank_v = 0;
template <class V, int J> inline constexpr int basis_rank_v<ScaledBasis<V, J>> = J + 1;
template <class... Ts>
inline constexpr int basis_rank_v<Tuple<Ts...>> = [] {
  int r = 0;
  ((r = basis_rank_v<Ts> > r ? basis_rank_v<Ts> : r), ...);
  return r;
}();
template <class... A, class X>
CUTE_CPP_HD constexpr auto append_elem(Tuple<A...> const& t, X const& x) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return Tuple<A..., X>(get<I>(t)..., x); }(
      std::index_sequence_for<A...>{});
}
template <class... A, class X>
CUTE_CPP_HD constexpr auto prepend_elem(Tuple<A...> const& t, X const& x) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) { return Tuple<X, A...>(x, get<I>(t)...); }(
      std::index_sequence_for<A...>{});
}
/// Compact strides of a typed shape, as (strides, running product): column-major (Right =
/// false, LayoutLeft) or row-major (Right = true, LayoutRight). Static wherever the leaves
/// before (after) a mode are static, as CuTe's compact_major.
template <bool Right, class S, class I>
CUTE_CPP_HD constexpr auto compact_typed(S const& s, I const& init);
template <bool Right, std::size_t K, class S, class I, class Acc>
CUTE_CPP_HD constexpr auto compact_typed_elems(S const& s, I const& init, Acc const& acc) {
  constexpr std::size_t R = std::size_t(tuple_rank_v<S>);
  if constexpr (K == R) {
    return make_tuple(acc, init);
  } else {
    constexpr std::size_t E = Right ? R - 1 - K : K;
    auto p = compact_typed<Right>(get<E>(s), init);
    if constexpr (Right) return compact_typed_elems<Right, K + 1>(s, get<1>(p), prepend_elem(acc, get<0>(p)));
    else return compact_typed_elems<Right, K + 1>(s, get<1>(p), append_elem(acc, get<0>(p)));
  }
}
template <bool Right, class S, class I>
CUTE_CPP_HD constexpr auto compact_typed(S const& s, I const& init) {
  if constexpr (is_tuple_v<S>) return compact_typed_elems<Right, 0>(s, init, Tuple<>{});
  else return make_tuple(init, typed_mul(init, s));
}
template <class S>
using compact_left_t = std::remove_cvref_t<decltype(get<0>(compact_typed<false>(S{}, C<1>{})))>;
}  // namespace detail

namespace detail {
/// Product of the leaves of a typed int tuple, without going through the engine (device-fast).
template <class T>
CUTE_CPP_HD constexpr std::int64_t product_typed(T const& t) noexcept {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::int64_t(1) * ... * product_typed(get<I>(t)));
    }(std::make_index_sequence<tuple_rank_v<T>>{});
  } else {
    return std::int64_t(dyn(t));
  }
}

/// Calls f(ci, d) for each leaf of the shape the coordinate reaches: ci is the leaf's integer
/// coordinate, d its stride. An integer coordinate into a tuple shape is split column-major, the
/// last mode taking the remainder (the CuTe definition); `_` reaches no leaf.
template <class Crd, class Sh, class St, class F>
CUTE_CPP_HD constexpr void for_each_coord_leaf(Crd const& c, Sh const& s, St const& d, F const& f) noexcept {
  if constexpr (std::is_same_v<Crd, Underscore>) {
  } else if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<Sh> && tuple_rank_v<Crd> == tuple_rank_v<Sh>,
                  "cute-cpp [layout.coord.congruent]: a tuple coordinate needs a shape of the same rank");
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (for_each_coord_leaf(get<I>(c), get<I>(s), get<I>(d), f), ...);
    }(std::make_index_sequence<tuple_rank_v<Crd>>{});
  } else if constexpr (is_tuple_v<Sh>) {
    std::int64_t ci = std::int64_t(dyn(c));
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((I + 1 < sizeof...(I) ? (for_each_coord_leaf(ci % product_typed(get<I>(s)), get<I>(s), get<I>(d), f),
                                ci /= product_typed(get<I>(s)))
                             : (for_each_coord_leaf(ci, get<I>(s), get<I>(d), f), ci)),
       ...);
    }(std::make_index_sequence<tuple_rank_v<Sh>>{});
  } else {
    f(std::int64_t(dyn(c)), d);
  }
}

/// crd2idx over typed tuples: the sum over the reached leaves of coordinate times stride.
template <class Crd, class Sh, class St>
CUTE_CPP_HD constexpr std::int64_t crd2idx_typed(Crd const& c, Sh const& s, St const& d) noexcept {
  std::int64_t r = 0;
  for_each_coord_leaf(c, s, d, [&](std::int64_t ci, auto const& di) { r += ci * std::int64_t(dyn(di)); });
  return r;
}

/// Evaluation of a layout with ScaledBasis strides: the coordinate (one int64_t per axis).
template <class Crd, class Sh, class St>
CUTE_CPP_HD constexpr void crd2crd_acc(Crd const& c, Sh const& s, St const& d, std::int64_t* acc) noexcept {
  for_each_coord_leaf(c, s, d, [&](std::int64_t ci, auto const& di) {
    using D = std::decay_t<decltype(di)>;
    if constexpr (is_basis_v<D>) {
      acc[D::axis] += ci * std::int64_t(dyn(di.value));
    } else {
      static_assert(is_constant_int_v<D> && D::value == 0,
                    "cute-cpp [layout.basis.mixed]: a layout's strides are all ScaledBasis (or 0), or none");
    }
  });
}
/// L(crd): an offset, or a coordinate tuple when the strides are ScaledBasis.
template <class Crd, class Sh, class St>
CUTE_CPP_HD constexpr auto eval_typed(Crd const& c, Sh const& s, St const& d) noexcept {
  if constexpr (has_basis_v<St>) {
    constexpr int R = basis_rank_v<St>;
    std::int64_t acc[R] = {};
    crd2crd_acc(c, s, d, acc);
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(acc[I]...); }(
        std::make_index_sequence<std::size_t(R)>{});
  } else {
    return crd2idx_typed(c, s, d);
  }
}
}  // namespace detail

}  // namespace cute_cpp

/// Structured bindings: auto [m, n] = shape;
template <class... Ts>
struct std::tuple_size<cute_cpp::Tuple<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <std::size_t I, class... Ts>
struct std::tuple_element<I, cute_cpp::Tuple<Ts...>> {
  using type = std::remove_cvref_t<decltype(cute_cpp::get<I>(std::declval<cute_cpp::Tuple<Ts...> const&>()))>;
};
