// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/layout.hpp: Layout<Shape, Stride>, RowMajor / ColMajor, and the CuTe algebra
// on typed values (CuTeDSL: cute.make_layout, size, cosize, rank, depth, coalesce, filter,
// flatten, composition, complement, right/left_inverse, *_divide, *_product, local_tile,
// local_partition, max_common_vector/layout, ...). Static in, static out: when every argument is
// static the engine runs in constant evaluation and the result is a type (C<>, Tuple<>, Layout<>);
// otherwise it runs at run time and returns DynLayout / DynTuple / int64_t values.
#include <climits>      // INT_MIN, INT_MAX
#include <cstdint>      // int64_t
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence
#include <cute_cpp/config.hpp>            // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>       // rule templates
#include <cute_cpp/layout/engine.hpp>     // eng::, LV
#include <cute_cpp/layout/ops.hpp>        // detail::*Op: engine calls with their argument kinds
#include <cute_cpp/layout/tuple.hpp>      // Tuple, get, Underscore

#include <cstdio>     // printf (device diagnostics)
#if !defined(__CUDA_ARCH__)
#include <stdexcept>  // std::invalid_argument
#include <string>     // std::string
#endif

namespace cute_cpp {

// ---- Layout ----

/// A layout: a shape and a congruent stride, a function from coordinates to offsets.
///   Layout<Shape<C<4>, C<8>>, Stride<C<8>, C<1>>>   prints  (_4,_8):(_8,_1)
/// Shape/Stride may mix C<> and int, or be DynTuple (a run-time layout, DynLayout). The stride
/// defaults to the compact column-major one: Layout<Shape<C<4>, C<8>>> is (_4,_8):(_1,_4).
template <class ShapeT, class StrideT = detail::compact_left_t<ShapeT>>
struct Layout {
  using shape_type = ShapeT;
  using stride_type = StrideT;
  [[no_unique_address]] ShapeT shape_{};
  [[no_unique_address]] StrideT stride_{};

  Layout() = default;
  CUTE_CPP_HD constexpr Layout(ShapeT const& s, StrideT const& d) : shape_(s), stride_(d) {}

  CUTE_CPP_HD constexpr ShapeT const& shape() const noexcept { return shape_; }
  CUTE_CPP_HD constexpr StrideT const& stride() const noexcept { return stride_; }

  /// L(crd): the offset of a coordinate (an integer, congruent, or weakly congruent tuple).
  /// Static layout and static coordinate: a C<> (out of range is a compile error).
  template <class Crd>
  CUTE_CPP_HD constexpr auto operator()(Crd const& crd) const;
  template <class C0, class C1, class... Cs>
  CUTE_CPP_HD constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(Tuple<C0, C1, Cs...>(c0, c1, cs...));
  }
};

using DynLayout = Layout<DynTuple, DynTuple>;

/// rank_v<L>: the number of top-level modes of a typed layout or tuple (1 for an integer).
template <class T> inline constexpr int rank_v = tuple_rank_v<T>;
template <class S, class D> inline constexpr int rank_v<Layout<S, D>> = tuple_rank_v<S>;

template <class T> inline constexpr bool is_layout_v = false;
template <class S, class D> inline constexpr bool is_layout_v<Layout<S, D>> = true;
template <class S, class D> inline constexpr bool is_static_v<Layout<S, D>> = is_static_v<S> && is_static_v<D>;

/// Row-major and column-major M x N layouts: RowMajor<4, 8> = (_4,_8):(_8,_1).
template <int M, int N> using RowMajor = Layout<Shape<C<M>, C<N>>, Stride<C<N>, C<1>>>;
template <int M, int N> using ColMajor = Layout<Shape<C<M>, C<N>>, Stride<C<1>, C<M>>>;

/// Tags for make_layout(shape, tag).
struct LayoutLeft {};
struct LayoutRight {};

namespace detail {

// ---- typed values -> engine values ----

template <class T>
CUTE_CPP_HD constexpr DynTuple to_tuple(T const& x) noexcept {
  if constexpr (std::is_same_v<T, DynTuple>) {
    return x;
  } else if constexpr (std::is_same_v<T, Underscore>) {
    return dt::underscore();
  } else if constexpr (is_tuple_v<T>) {
    DynTuple r;
    [&]<std::size_t... I>(std::index_sequence<I...>) { (dt::push(r, to_tuple(get<I>(x))), ...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
    return r;
  } else if constexpr (is_constant_int_v<T>) {
    return dt::leaf((long long)T::value, true);
  } else if constexpr (is_basis_v<T>) {
    return dt::leaf(IV{(long long)dyn(x.value), is_static_v<T>, T::axis});
  } else {
    static_assert(Integer<T>, "cute-cpp [layout.type]: expected an integer, C<N>, Tuple or DynTuple");
    return dt::leaf((long long)x, false);
  }
}
template <class T>
CUTE_CPP_HD constexpr IV to_iv(T const& x) noexcept {
  if constexpr (is_constant_int_v<T>) return {(long long)T::value, true};
  else return {(long long)x, false};
}
/// A layout argument: a Layout, or a shape (its compact column-major layout).
template <class T>
CUTE_CPP_HD constexpr LV to_layout(T const& x) noexcept {
  if constexpr (std::is_same_v<T, LV>) return x;
  else if constexpr (is_layout_v<T>) return LV{to_tuple(x.shape_), to_tuple(x.stride_)};
  else return eng::make_layout_left(to_tuple(x));
}
/// A tiler argument: a Layout; an integer n (n:1); `_`; or a tuple of tilers (by mode).
template <class T>
CUTE_CPP_HD constexpr LV to_tiler(T const& x) noexcept {
  if constexpr (std::is_same_v<T, LV> || is_layout_v<T>) {
    return to_layout(x);
  } else if constexpr (std::is_same_v<T, Underscore>) {
    return {dt::underscore(), dt::underscore()};
  } else if constexpr (is_tuple_v<T>) {
    LV r = eng::lv_tuple();
    [&]<std::size_t... I>(std::index_sequence<I...>) { (eng::push(r, to_tiler(get<I>(x))), ...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
    r.shape.node[0].flags = flag_tiler;
    r.stride.node[0].flags = flag_tiler;
    return r;
  } else {
    return {to_tuple(x), dt::leaf(1, true)};
  }
}

CUTE_CPP_HD constexpr bool overflowed(LV const& x) noexcept { return eng::overflowed(x); }
CUTE_CPP_HD constexpr bool overflowed(DynTuple const& x) noexcept { return x.overflow; }
CUTE_CPP_HD constexpr bool overflowed(IV const&) noexcept { return false; }

/// Converts an argument to its engine value; a tree too large for DynTuple is a capacity error.
template <Arg K, class T>
CUTE_CPP_HD constexpr auto convert(T const& x, diag::LayoutError& e) noexcept {
  auto v = [&] {
    if constexpr (K == Arg::layout) return to_layout(x);
    else if constexpr (K == Arg::tiler) return to_tiler(x);
    else if constexpr (K == Arg::tuple) return to_tuple(x);
    else return to_iv(x);
  }();
  if (overflowed(v)) e.set(diag::LayoutRule::capacity, DynTuple::capacity, DynTuple::capacity + 1);
  return v;
}

// ---- engine values -> types ----

// NOTE: results are lifted through a holder type (H::r, a static constexpr member) rather than
// a class-type template argument: nvcc 13's host pass mis-renders class NTTPs of this size.
template <class H, int Which>
CUTE_CPP_HD constexpr DynTuple pick() noexcept {
  if constexpr (Which == 1) return H::r.value.shape;
  else if constexpr (Which == 2) return H::r.value.stride;
  else return H::r.value;
}
template <long long V>
CUTE_CPP_HD constexpr auto lift_int() noexcept {
  if constexpr (V >= INT_MIN && V <= INT_MAX) return C<int(V)>{};
  else return C<V>{};
}
template <class H, int Which, int I>
CUTE_CPP_HD constexpr auto lift_node() noexcept {
  constexpr DynNode nd = pick<H, Which>().node[I];
  if constexpr (nd.kind < 0) {
    if constexpr ((nd.flags & flag_underscore) != 0) return Underscore{};
    else if constexpr (nd.tag >= 0) return ScaledBasis<decltype(lift_int<nd.v>()), nd.tag>{};
    else return lift_int<nd.v>();
  } else {
    return []<std::size_t... K>(std::index_sequence<K...>) {
      return Tuple<decltype(lift_node<H, Which, dt::child_pos(pick<H, Which>(), I, int(K))>())...>{};
    }(std::make_index_sequence<std::size_t(nd.kind)>{});
  }
}
template <class H>
CUTE_CPP_HD constexpr auto lift() noexcept {
  using T = std::remove_cv_t<decltype(H::r.value)>;
  if constexpr (std::is_same_v<T, LV>) {
    return Layout<decltype(lift_node<H, 1, 0>()), decltype(lift_node<H, 2, 0>())>{};
  } else if constexpr (std::is_same_v<T, DynTuple>) {
    return lift_node<H, 0, 0>();
  } else if constexpr (std::is_same_v<T, IV>) {
    return lift_int<H::r.value.v>();
  } else {
    return H::r.value;
  }
}
/// Engine values as run-time results: LV -> DynLayout, IV -> int64_t.
template <class T>
CUTE_CPP_HD constexpr auto as_dynamic(T const& v) noexcept {
  if constexpr (std::is_same_v<T, LV>) return DynLayout{v.shape, v.stride};
  else if constexpr (std::is_same_v<T, IV>) return std::int64_t(v.v);
  else return v;
}

// ---- errors ----

#if !defined(__CUDA_ARCH__)
[[noreturn]] inline void throw_layout_error(diag::LayoutError const& e) {
  throw std::invalid_argument(std::string(diag::layout_rule_text(e.rule)) + ": got " + std::to_string(e.a) + ", " +
                              std::to_string(e.b));
}
#endif
/// Dynamic inputs: std::invalid_argument on the host; on the device, debug builds print the
/// rule, the values and the block/thread, then trap (release builds skip the check).
CUTE_CPP_HD constexpr void raise_dynamic(diag::LayoutError const& e) {
  if (!e) return;
#if defined(__CUDA_ARCH__)
#  if !defined(NDEBUG)
  printf("%s: got %lld, %lld (block %d, thread %d)\n", diag::layout_rule_text(e.rule), e.a, e.b, int(blockIdx.x),
         int(threadIdx.x));
  __trap();
#  endif
#else
  throw_layout_error(e);
#endif
}

template <class V>
struct OpResult {
  V value;
  diag::LayoutError err;
};

/// Runs Op on the arguments: in constant evaluation (result lifted to a type, errors are rule
/// templates' static_asserts) when every argument is static, else at run time.
template <class Op, class... Args>
CUTE_CPP_HD constexpr auto run_static() {
  diag::LayoutError e;
  auto v = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return Op{}(convert<Op::kinds[I]>(Args{}, e)..., e);
  }(std::index_sequence_for<Args...>{});
  if (overflowed(v)) e.set(diag::LayoutRule::capacity, DynTuple::capacity, DynTuple::capacity + 1);
  return OpResult<decltype(v)>{v, e};
}
template <class Op, class... Args>
struct StaticRun {
  static constexpr auto r = run_static<Op, Args...>();
};
template <class Op, class... Args>
CUTE_CPP_HD constexpr auto apply(Args const&... args) {
  if constexpr ((is_static_v<Args> && ...)) {
    using H = StaticRun<Op, Args...>;
    if constexpr (H::r.err.rule != diag::LayoutRule::none) {
      static_assert(diag::check_static<H::r.err.rule, H::r.err.a, H::r.err.b>());
      return H::r.err;
    } else {
      return lift<H>();
    }
  } else {
    diag::LayoutError e;
    auto v = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Op{}(convert<Op::kinds[I]>(args, e)..., e);
    }(std::index_sequence_for<Args...>{});
    if (overflowed(v)) e.set(diag::LayoutRule::capacity, DynTuple::capacity, DynTuple::capacity + 1);
    raise_dynamic(e);
    return as_dynamic(v);
  }
}

template <class T> inline constexpr bool has_underscore_v = std::is_same_v<T, Underscore>;
template <class... Ts> inline constexpr bool has_underscore_v<Tuple<Ts...>> = (has_underscore_v<Ts> || ...);
template <class T> inline constexpr bool is_typed_v = !std::is_same_v<T, DynTuple>;

// ---- typed divides: a typed layout divided by a tuple of integer tiles, without the engine ----
// NOTE: kernels divide run-time global layouts (M,N,K) by static tiles on the device; this path
// keeps those results typed and cheap (the engine's trees would cost kilobytes of stack there).


template <std::size_t I, class T>
using elem_t = std::remove_cvref_t<decltype(get<I>(std::declval<T const&>()))>;

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
template <int J, class T>
CUTE_CPP_HD constexpr auto materialize_basis(T const& t) {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(materialize_basis<J>(get<I>(t))...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
  } else {
    return ScaledBasis<T, J>{t};
  }
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
// ---- symbolic strides: static shape, run-time strides, static second argument ----
// NOTE: a tile of a global tensor ((BM,BK):(ld,1)) composed or divided by static layouts has a
// structure that depends only on static values; the engine runs once at compile time with each
// run-time stride as a symbol (DynNode::tag), and the result is a typed layout whose strides are
// rebuilt from the input's at run time: no engine on the device.

template <class T>
CUTE_CPP_HD constexpr DynTuple sym_tuple(int& idx) noexcept {
  if constexpr (is_tuple_v<T>) {
    DynTuple r;
    [&]<std::size_t... I>(std::index_sequence<I...>) { (dt::push(r, sym_tuple<elem_t<I, T>>(idx)), ...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
    return r;
  } else if constexpr (is_constant_int_v<T>) {
    ++idx;
    return dt::leaf((long long)T::value, true);
  } else {
    DynTuple t = dt::leaf(IV{1, true, idx});
    ++idx;
    return t;
  }
}
template <class D>
CUTE_CPP_HD constexpr void flat_values(D const& d, std::int64_t* out, int& idx) noexcept {
  if constexpr (is_tuple_v<D>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (flat_values(get<I>(d), out, idx), ...); }(
        std::make_index_sequence<tuple_rank_v<D>>{});
  } else {
    out[idx++] = std::int64_t(dyn(d));
  }
}
template <class D>
CUTE_CPP_HD constexpr int flat_count() noexcept {
  if constexpr (is_tuple_v<D>) {
    return []<std::size_t... I>(std::index_sequence<I...>) { return (0 + ... + flat_count<elem_t<I, D>>()); }(
        std::make_index_sequence<tuple_rank_v<D>>{});
  } else {
    return 1;
  }
}
template <Bin Op, class A, class B>
struct SymbolicRun {
  static constexpr auto r = [] {
    diag::LayoutError e;
    int idx = 0;
    LV a{to_tuple(typename A::shape_type{}), sym_tuple<typename A::stride_type>(idx)};
    LV v = run_bin(Op, a, to_tiler(B{}), e);
    if (eng::overflowed(v)) e.set(diag::LayoutRule::capacity, DynTuple::capacity, DynTuple::capacity + 1);
    return OpResult<LV>{v, e};
  }();
};
/// The run-time strides of a symbolic result: its type (lift_node of the result's strides)
/// has a ScaledBasis<C<K>, J> for "K times the input's flat stride leaf J".
template <class T>
CUTE_CPP_HD constexpr auto materialize(std::int64_t const* vals) noexcept {
  if constexpr (is_tuple_v<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return make_tuple(materialize<elem_t<I, T>>(vals)...); }(
        std::make_index_sequence<tuple_rank_v<T>>{});
  } else if constexpr (is_constant_int_v<T>) {
    return T{};
  } else {
    return [&]<class K, int J>(ScaledBasis<K, J>) { return std::int64_t(K::value) * vals[J]; }(T{});
  }
}
template <Bin Op, class A, class B>
CUTE_CPP_HD constexpr bool use_symbolic() {
  if constexpr (!is_layout_v<A> || !is_static_v<B>) return false;
  else if constexpr (!is_typed_v<typename A::shape_type> || !is_typed_v<typename A::stride_type>) return false;
  else if constexpr (has_basis_v<typename A::stride_type>) return false;
  else return is_static_v<typename A::shape_type> && !is_static_v<typename A::stride_type>;
}
template <Bin Op, class A, class B>
CUTE_CPP_HD constexpr auto symbolic(A const& a) {
  using H = SymbolicRun<Op, A, B>;
  if constexpr (H::r.err.rule != diag::LayoutRule::none) {
    static_assert(diag::check_static<H::r.err.rule, H::r.err.a, H::r.err.b>());
    return H::r.err;
  } else {
    std::int64_t vals[flat_count<typename A::stride_type>()] = {};
    int idx = 0;
    flat_values(a.stride(), vals, idx);
    auto shape = lift_node<H, 1, 0>();
    auto stride = materialize<decltype(lift_node<H, 2, 0>())>(vals);
    return Layout<decltype(shape), decltype(stride)>(shape, stride);
  }
}

}  // namespace detail

// ---- construction ----

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

// ---- size, cosize, rank, depth, shape, stride ----

/// size(L) or size(shape): the number of coordinates. size(RowMajor<4,8>{}) -> C<32>
/// A static shape gives a C<> even when the stride is dynamic; a typed dynamic one is a fold.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(L const& l) {
  if constexpr (is_layout_v<L>) {
    return size(l.shape());
  } else if constexpr (detail::is_typed_v<L> && !is_static_v<L>) {
    return detail::product_typed(l);
  } else {
    return detail::apply<detail::ProductOp>(l);
  }
}
/// size<I...>(L): the size of mode I (of mode J of mode I, ...). size<1>((4,(2,3)):(1,(8,4))) -> 6
template <int I, int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(L const& l) {
  if constexpr (is_layout_v<L>) return size(shape<I, Is...>(l));
  else if constexpr (detail::is_typed_v<L>) return size(get<I, Is...>(l));
  else {
    DynTuple t = dt::get(l, I);
    ((t = dt::get(t, Is)), ...);
    return size(t);
  }
}
template <class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto product(T const& t) {
  return size(t);
}
/// cosize(L) = L(size(L) - 1) + 1.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto cosize(L const& l) {
  if constexpr (!is_static_v<L> && detail::is_typed_v<typename L::shape_type> &&
                detail::is_typed_v<typename L::stride_type>) {
    return detail::crd2idx_typed(std::int64_t(size(l)) - 1, l.shape(), l.stride()) + 1;
  } else {
    return detail::apply<detail::CosizeOp>(l);
  }
}
/// rank(L): the number of top-level modes (1 for an integer shape).
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto rank(L const& l) {
  if constexpr (is_layout_v<L>) {
    if constexpr (detail::is_typed_v<typename L::shape_type>) return C<tuple_rank_v<typename L::shape_type>>{};
    else return l.shape().rank();
  } else if constexpr (detail::is_typed_v<L>) {
    return C<tuple_rank_v<L>>{};
  } else {
    return l.rank();
  }
}
/// depth(L): 0 for an integer shape, 1 + the deepest mode for a tuple.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto depth(L const& l) {
  if constexpr (is_layout_v<L>) {
    if constexpr (detail::is_typed_v<typename L::shape_type>) return C<dt::depth(detail::to_tuple(typename L::shape_type{}))>{};
    else return dt::depth(l.shape());
  } else if constexpr (detail::is_typed_v<L>) {
    return C<dt::depth(detail::to_tuple(L{}))>{};
  } else {
    return dt::depth(l);
  }
}
/// layout<I>(L): mode I as a layout (static I; a mode index out of range is an error).
template <int I, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto layout(L const& l) {
  if constexpr (is_layout_v<L> && detail::is_typed_v<typename L::shape_type> && detail::is_typed_v<typename L::stride_type>) {
    static_assert(diag::mode_index<I, tuple_rank_v<typename L::shape_type>>::ok);
    return Layout<std::remove_cvref_t<decltype(get<I>(l.shape()))>, std::remove_cvref_t<decltype(get<I>(l.stride()))>>(
        get<I>(l.shape()), get<I>(l.stride()));
  } else {
    return detail::apply<detail::ModeOp<I>>(l);
  }
}
/// shape(L), shape<I...>(L): the shape or one of its modes. shape<1>((4,(2,3)):(..)) -> (2,3)
template <int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) shape(L const& l) {
  if constexpr (sizeof...(Is) == 0) return l.shape();
  else if constexpr (detail::is_typed_v<typename L::shape_type>) return get<Is...>(l.shape());
  else {
    DynTuple t = l.shape();
    ((t = dt::get(t, Is)), ...);
    return t;
  }
}
template <int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) stride(L const& l) {
  if constexpr (sizeof...(Is) == 0) return l.stride();
  else if constexpr (detail::is_typed_v<typename L::stride_type>) return get<Is...>(l.stride());
  else {
    DynTuple t = l.stride();
    ((t = dt::get(t, Is)), ...);
    return t;
  }
}

/// get<I>(L): mode I as a layout, as layout<I>(L).
template <std::size_t I, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto get(Layout<S, D> const& l) {
  return layout<int(I)>(l);
}

// ---- coordinates ----

/// crd2idx(crd, shape, stride): the offset of a coordinate. crd2idx((1,2), (4,8), (1,4)) -> 9
template <class Crd, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto crd2idx(Crd const& c, S const& s, D const& d) {
  if constexpr (!(is_static_v<Crd> && is_static_v<S> && is_static_v<D>) && detail::is_typed_v<Crd> &&
                detail::is_typed_v<S> && detail::is_typed_v<D>) {
    return detail::crd2idx_typed(c, s, d);
  } else {
    return detail::apply<detail::Crd2IdxOp>(c, s, d);
  }
}
/// crd2idx(crd, shape): with compact column-major strides.
template <class Crd, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto crd2idx(Crd const& c, S const& s) {
  return detail::apply<detail::Crd2IdxCompactOp>(c, s);
}
/// idx2crd(idx, shape): the natural coordinate. idx2crd(5, (2,(2,2))) -> (1,(0,1))
template <class I, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto idx2crd(I const& i, S const& s) {
  return detail::apply<detail::Idx2CrdOp>(i, s);
}
/// idx2crd(idx, shape, stride): each leaf (idx / stride) % shape.
template <class I, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto idx2crd(I const& i, S const& s, D const& d) {
  return detail::apply<detail::Idx2CrdStridedOp>(i, s, d);
}

template <class ShapeT, class StrideT>
template <class Crd>
CUTE_CPP_HD constexpr auto Layout<ShapeT, StrideT>::operator()(Crd const& crd) const {
  if constexpr (detail::has_underscore_v<Crd>) {
    return detail::apply<detail::SliceOp>(crd, *this);
  } else if constexpr (detail::has_basis_v<StrideT>) {
    return detail::eval_typed(crd, shape_, stride_);
  } else if constexpr (is_static_v<Crd> && is_static_v<Layout>) {
    return detail::apply<detail::EvalOp>(*this, crd);
  } else if constexpr (detail::is_typed_v<Crd> && detail::is_typed_v<ShapeT> && detail::is_typed_v<StrideT>) {
    return detail::crd2idx_typed(crd, shape_, stride_);
  } else {
    return detail::apply<detail::EvalOp>(*this, crd);
  }
}

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
/// Layouts are equal when their shapes and strides hold the same values (static marks aside).
template <class S0, class D0, class S1, class D1>
[[nodiscard]] CUTE_CPP_HD constexpr bool operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  LV x = detail::to_layout(a), y = detail::to_layout(b);
  if (!dt::congruent(x.shape, y.shape)) return false;
  for (int i = 0; i < x.shape.n; ++i)
    if (x.shape.node[i].v != y.shape.node[i].v || x.stride.node[i].v != y.stride.node[i].v ||
        x.stride.node[i].tag != y.stride.node[i].tag)
      return false;
  return true;
}

// ---- composition, complement, inverses ----

namespace detail {
/// A tiler operation: worked out at compile time when both arguments are static (symbolic),
/// by the engine otherwise.
template <Bin Op, class A, class T>
CUTE_CPP_HD constexpr auto tiler_apply(A const& a, T const& t) {
  if constexpr (use_symbolic<Op, A, T>()) return symbolic<Op, A, T>(a);
  else return apply<TilerOp<Op>>(a, t);
}
}  // namespace detail

/// composition(A, B): i -> A(B(i)), with B's shape. (6,2):(8,2) o (4,3):(3,1) -> ((2,2),3):((24,2),8)
/// B may be a tiler (a tuple of layouts / integers / `_`) applied by mode.
/// @pre [layout.composition.stride-divisibility], [layout.composition.shape-divisibility],
///      [layout.composition.tiler-rank]
/// @post composition(A, B)(i) == A(B(i)) for every i < size(B)
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto composition(A const& a, B const& b) {
  return detail::tiler_apply<detail::Bin::composition>(a, b);
}
/// complement(A, cotarget): the layout of what A misses in [0, cotarget). complement(4:2, 16) -> (2,2):(1,8)
/// @pre A injective [layout.complement.injective]
/// @post A and complement(A, M) have disjoint images (except 0); together they cover [0, M) when A is compact
template <class A, class M>
[[nodiscard]] CUTE_CPP_HD constexpr auto complement(A const& a, M const& cotarget) {
  return detail::apply<detail::ComplementToOp>(a, cotarget);
}
template <class A>
[[nodiscard]] CUTE_CPP_HD constexpr auto complement(A const& a) {
  return detail::apply<detail::ComplementOp>(a);
}
/// right_inverse(L): R with L(R(i)) == i for i < size(R). (4,2):(2,1) -> (2,4):(4,1)
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto right_inverse(L const& l) {
  return detail::apply<detail::RightInverseOp>(l);
}
/// left_inverse(L): R with R(L(i)) == i for i < size(L) (L injective).
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto left_inverse(L const& l) {
  return detail::apply<detail::LeftInverseOp>(l);
}

// ---- divides and products ----

/// logical_divide(A, T) = composition(A, (T, complement(T, size(A)))), by mode for tilers.
///   logical_divide((8,8):(1,8), (4,2)) -> ((4,2),(2,4)):((1,4),(8,16))
/// @pre [layout.divide.tiler-rank], [layout.divide.tiler-fits]
template <class A, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto logical_divide(A const& a, T const& t) {
  if constexpr (detail::use_typed_divide<A, T>()) return detail::typed_logical_divide(a, t);
  else return detail::tiler_apply<detail::Bin::logical_divide>(a, t);
}
/// zipped_divide(A, T): ((tile modes), (rest modes)). ((8,8):(1,8), (4,2)) -> ((4,2),(2,4)):((1,8),(4,16))
template <class A, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto zipped_divide(A const& a, T const& t) {
  if constexpr (detail::use_typed_divide<A, T>()) return detail::typed_divide<0>(a, t);
  else return detail::tiler_apply<detail::Bin::zipped_divide>(a, t);
}
/// tiled_divide(A, T): ((tile modes), rest0, rest1, ...). ((8,8):(1,8), (4,2)) -> ((4,2),2,4):((1,8),4,16)
template <class A, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto tiled_divide(A const& a, T const& t) {
  if constexpr (detail::use_typed_divide<A, T>()) return detail::typed_divide<1>(a, t);
  else return detail::tiler_apply<detail::Bin::tiled_divide>(a, t);
}
/// flat_divide(A, T): (tile0, tile1, ..., rest0, rest1, ...). ((8,8):(1,8), (4,2)) -> (4,2,2,4):(1,8,4,16)
template <class A, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto flat_divide(A const& a, T const& t) {
  if constexpr (detail::use_typed_divide<A, T>()) return detail::typed_divide<2>(a, t);
  else return detail::tiler_apply<detail::Bin::flat_divide>(a, t);
}
/// logical_product(A, B) = (A, composition(complement(A, size(A)*cosize(B)), B)), by mode for tilers.
///   logical_product((2,2):(1,2), (3,4)) -> ((2,3),(2,(2,2))):((1,2),(2,(1,4)))
/// @pre [layout.product.tiler-rank]
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto logical_product(A const& a, B const& b) {
  return detail::apply<detail::TilerOp<detail::Bin::logical_product>>(a, b);
}
/// zipped_product / tiled_product / flat_product: the product's modes gathered as the divides'.
///   tiled_product((2,2):(1,2), (3,4)) -> ((2,2),3,(2,2)):((1,2),2,(1,4))
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto zipped_product(A const& a, B const& b) {
  return detail::apply<detail::TilerOp<detail::Bin::zipped_product>>(a, b);
}
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto tiled_product(A const& a, B const& b) {
  return detail::apply<detail::TilerOp<detail::Bin::tiled_product>>(a, b);
}
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto flat_product(A const& a, B const& b) {
  return detail::apply<detail::TilerOp<detail::Bin::flat_product>>(a, b);
}
/// blocked_product(A, B): ((A0,B0),(A1,B1),...), A's tile contiguous. (2,5):(1,2) x (3,4):(1,3)
///   -> ((2,3),(5,4)):((1,10),(2,30))
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto blocked_product(A const& a, B const& b) {
  return detail::apply<detail::LayoutPairOp<detail::Bin::blocked_product>>(a, b);
}
/// raked_product(A, B): ((B0,A0),(B1,A1),...), A's elements interleaved over B.
///   ((2,2):(1,2), (3,3):(1,3)) -> ((3,2),(3,2)):((4,1),(12,2))
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto raked_product(A const& a, B const& b) {
  return detail::apply<detail::LayoutPairOp<detail::Bin::raked_product>>(a, b);
}

/// tile_to_shape(block, shape[, order]): the block repeated to cover the target shape, the
/// repeats in mode order (column-major by default, or by `order` as make_ordered_layout): the
/// smem layout built from a swizzle atom. As C++ CuTe v4.7, the result is not coalesced.
///   tile_to_shape((_8,_64):(_64,_1), (_128,_64,_3))
///     -> ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_0),(_0,_8192))
/// @pre rank(block) <= rank(shape) [layout.tile-to-shape.rank]; each block mode divides the
///      target mode [layout.tile-to-shape.divides]
template <class B, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto tile_to_shape(B const& block, S const& shape) {
  return detail::apply<detail::TileToShapeOp>(block, shape);
}
template <class B, class S, class O>
[[nodiscard]] CUTE_CPP_HD constexpr auto tile_to_shape(B const& block, S const& shape, O const& order) {
  return detail::apply<detail::TileToShapeOrderedOp>(block, shape, order);
}

/// make_ordered_layout(shape, order): compact strides in the order given per leaf.
///   make_ordered_layout((_2,_3,_4), (_1,_0,_2)) -> (_2,_3,_4):(_3,_1,_6)
template <class S, class O>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_ordered_layout(S const& shape, O const& order) {
  return detail::apply<detail::OrderedLayoutOp>(shape, order);
}
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
/// compatible(A, B): every coordinate of A is a coordinate of B (layouts or shapes).
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr bool compatible(A const& a, B const& b) {
  DynTuple x, y;
  if constexpr (is_layout_v<A>) x = detail::to_layout(a).shape; else x = detail::to_tuple(a);
  if constexpr (is_layout_v<B>) y = detail::to_layout(b).shape; else y = detail::to_tuple(b);
  return eng::compatible(x, 0, y, 0);
}
/// congruent(A, B): the same tree (layouts or tuples).
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr bool congruent(A const& a, B const& b) {
  DynTuple x, y;
  if constexpr (is_layout_v<A>) x = detail::to_layout(a).shape; else x = detail::to_tuple(a);
  if constexpr (is_layout_v<B>) y = detail::to_layout(b).shape; else y = detail::to_tuple(b);
  return dt::congruent(x, y);
}

// ---- slicing and partitioning ----

/// slice(crd, L): the layout of the modes crd leaves open with `_`. slice((_,2), (4,8):(1,4)) -> (4):(1)
template <class Crd, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto slice(Crd const& c, L const& l) {
  return detail::apply<detail::SliceOp>(c, l);
}
/// The offset of crd's fixed part (`_` counts as 0).
template <class Crd, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto slice_offset(Crd const& c, L const& l) {
  return detail::apply<detail::SliceOffsetOp>(c, l);
}
/// local_tile(L, tiler, coord): the tile of L at coord, as (layout, offset):
///   local_tile((8,8):(1,8), (4,4), (1,0)) -> layout (4,4):(1,8), offset 4
template <class L, class T, class Crd>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_tile(L const& l, T const& tiler, Crd const& coord) {
  if constexpr (detail::use_typed_local_tile<L, T, Crd>()) return get<0>(detail::typed_local_tile(l, tiler, coord));
  else return detail::apply<detail::LocalTileOp>(l, tiler, coord);
}
template <class L, class T, class Crd>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_tile_offset(L const& l, T const& tiler, Crd const& coord) {
  if constexpr (detail::use_typed_local_tile<L, T, Crd>()) return get<1>(detail::typed_local_tile(l, tiler, coord));
  else return detail::apply<detail::LocalTileOffsetOp>(l, tiler, coord);
}
/// local_partition(L, threads, idx): the elements of L that thread idx owns when the thread
/// layout is repeated over L: ((8,8):(1,8), (2,4):(4,1), 1) -> layout (4,2):(2,32), offset 8
template <class L, class T, class I>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_partition(L const& l, T const& threads, I const& idx) {
  if constexpr (detail::use_typed_local_partition<L, T, I>()) return get<0>(detail::typed_local_partition<L, T>(l, idx));
  else return detail::apply<detail::LocalPartitionOp>(l, threads, idx);
}
template <class L, class T, class I>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_partition_offset(L const& l, T const& threads, I const& idx) {
  if constexpr (detail::use_typed_local_partition<L, T, I>()) return get<1>(detail::typed_local_partition<L, T>(l, idx));
  else return detail::apply<detail::LocalPartitionOffsetOp>(l, threads, idx);
}

// ---- common vectors ----

/// max_common_layout(A, B): the largest C with A o C and B o C both stride-1 from 0.
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto max_common_layout(A const& a, B const& b) {
  return detail::apply<detail::LayoutPairOp<detail::Bin::max_common_layout>>(a, b);
}
/// max_common_vector(A, B): size of max_common_layout(A, B). (RowMajor<8,8>, RowMajor<8,8>) -> C<64>
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto max_common_vector(A const& a, B const& b) {
  return detail::apply<detail::MaxCommonVectorOp>(a, b);
}

}  // namespace cute_cpp
