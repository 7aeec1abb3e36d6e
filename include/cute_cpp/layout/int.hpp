// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/int.hpp: static integers C<N> (printed _N) and dynamic integers (int, int64_t).
// Arithmetic on two C<> stays static; anything dynamic gives an int64_t. CuTeDSL: cutlass.Constexpr
// integers vs cutlass.Int32 / Int64.
#include <concepts>     // std::integral
#include <cstdint>      // int64_t
#include <type_traits>  // std::bool_constant
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

namespace cute_cpp {

// ---- C<N> ----

/// A static integer: the value lives in the type. `C<4>{}` prints as `_4`.
template <auto V>
struct C {
  using value_type = decltype(V);
  static constexpr value_type value = V;
  CUTE_CPP_HD constexpr operator value_type() const noexcept { return V; }
};

template <class T> inline constexpr bool is_constant_int_v = false;
template <auto V> inline constexpr bool is_constant_int_v<C<V>> = true;

/// is_static_v<T>: every integer inside T is known at compile time. Specialised by tuples,
/// layouts and swizzles.
template <class T> inline constexpr bool is_static_v = false;
template <auto V> inline constexpr bool is_static_v<C<V>> = true;
template <class T> inline constexpr bool is_static_v<T const> = is_static_v<T>;

/// What a shape, stride or coordinate leaf may hold.
template <class T>
concept Integer = std::integral<T> || is_constant_int_v<T>;

/// The value of a static or dynamic integer, as the integer itself.
template <Integer T>
CUTE_CPP_HD constexpr auto dyn(T x) noexcept {
  if constexpr (is_constant_int_v<T>) return T::value; else return x;
}

using _0 = C<0>;
using _1 = C<1>;
using _2 = C<2>;
using _4 = C<4>;
using _8 = C<8>;
using _16 = C<16>;
using _32 = C<32>;
using _64 = C<64>;
using _128 = C<128>;

// ---- arithmetic that stays static ----

template <auto A, auto B> CUTE_CPP_HD constexpr C<A + B> operator+(C<A>, C<B>) noexcept { return {}; }
template <auto A, auto B> CUTE_CPP_HD constexpr C<A - B> operator-(C<A>, C<B>) noexcept { return {}; }
template <auto A, auto B> CUTE_CPP_HD constexpr C<A * B> operator*(C<A>, C<B>) noexcept { return {}; }
template <auto A, auto B> requires (B != 0)
CUTE_CPP_HD constexpr C<A / B> operator/(C<A>, C<B>) noexcept { return {}; }
template <auto A, auto B> requires (B != 0)
CUTE_CPP_HD constexpr C<A % B> operator%(C<A>, C<B>) noexcept { return {}; }
template <auto A, auto B> CUTE_CPP_HD constexpr C<(A == B)> operator==(C<A>, C<B>) noexcept { return {}; }
template <auto A> CUTE_CPP_HD constexpr C<-A> operator-(C<A>) noexcept { return {}; }

/// ceil_div(a, b): the smallest q with q * b >= a (for positive b). Static when both are.
///   ceil_div(C<10>{}, C<4>{})  ->  C<3>{}
///   ceil_div(10, C<4>{})       ->  3
template <Integer A, Integer B>
[[nodiscard]] CUTE_CPP_HD constexpr auto ceil_div(A a, B b) noexcept {
  if constexpr (is_constant_int_v<A> && is_constant_int_v<B>) {
    return C<(A::value + B::value - 1) / B::value>{};
  } else {
    return (std::int64_t(dyn(a)) + std::int64_t(dyn(b)) - 1) / std::int64_t(dyn(b));
  }
}

}  // namespace cute_cpp
