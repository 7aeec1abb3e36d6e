// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/symbolic.hpp (detail): composition and the divides of a layout with a static
// shape and run-time strides by a static tiler. The engine runs once, in constant evaluation,
// with each run-time stride as a symbol; the result is a typed layout whose strides are rebuilt
// from the input's at run time. composition.hpp's tiler_apply takes this path where it applies.
#include <cstdint>      // int64_t
#include <utility>      // std::index_sequence
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>          // LayoutError, check_static
#include <cute_cpp/layout/apply.hpp>         // to_tuple, to_tiler, lift_node, OpResult, elem_t
#include <cute_cpp/layout/layout_type.hpp>   // Layout, is_layout_v
#include <cute_cpp/layout/ops.hpp>           // Bin, run_bin
#include <cute_cpp/layout/tuple.hpp>         // make_tuple, ScaledBasis, has_basis_v

namespace cute_cpp::detail {

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

}  // namespace cute_cpp::detail
