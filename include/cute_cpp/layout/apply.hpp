// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/apply.hpp (detail): how the typed API runs the value engine. Typed arguments
// become engine values by kind (to_tuple, to_layout, to_tiler); detail::apply runs an ops.hpp
// functor in constant evaluation when every argument is static (the result lifted back to a
// type, an error a rule template's static_assert), at run time otherwise (DynLayout, DynTuple
// or int64_t results; errors thrown on the host, trapped on the device).
#include <climits>      // INT_MIN, INT_MAX
#include <cstdint>      // int64_t
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>          // LayoutError, check_static, layout_rule_text
#include <cute_cpp/layout/engine.hpp>        // eng::, LV
#include <cute_cpp/layout/layout_type.hpp>   // Layout, DynLayout, is_layout_v
#include <cute_cpp/layout/ops.hpp>           // detail::Arg, the *Op functors' argument kinds
#include <cute_cpp/layout/tuple.hpp>         // Tuple, get, Underscore, ScaledBasis

#include <cstdio>     // printf (device diagnostics)
#if !defined(__CUDA_ARCH__)
#include <stdexcept>  // std::invalid_argument
#include <string>     // std::string
#endif

namespace cute_cpp {

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

template <std::size_t I, class T>
using elem_t = std::remove_cvref_t<decltype(get<I>(std::declval<T const&>()))>;

}  // namespace detail
}  // namespace cute_cpp
