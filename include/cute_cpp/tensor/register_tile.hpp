// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// RegisterTile<T, N>: N values held by one thread, with value semantics (CuTeDSL's TensorSSA,
// what Tensor.load() returns): + - * / and unary -, map, zip_map, fold, gather, conversions
// (to<U>: f32 <-> f16 / bf16 / fp8, packed on the device), reductions within the thread
// (reduce_sum, reduce_max), and aligned vector load/store (16 bytes at a time).
// Reductions across a warp or a block are in tensor/reduce.hpp.
#include <cute_cpp/config.hpp>       // CUTE_CPP_HD
#include <cute_cpp/diag/tensor.hpp>  // tensor_gather_in_range, tensor_vector_width
#include <cute_cpp/layout/layout.hpp>  // size, static layouts for gather

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp {

using bf16 = __nv_bfloat16;
using f16 = __half;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

namespace detail {
/// The elementwise operators of tiles (and their reductions).
struct Plus { template <class T> CUTE_CPP_HD constexpr T operator()(T a, T b) const { return a + b; } };
struct Minus { template <class T> CUTE_CPP_HD constexpr T operator()(T a, T b) const { return a - b; } };
struct Times { template <class T> CUTE_CPP_HD constexpr T operator()(T a, T b) const { return a * b; } };
struct Divides { template <class T> CUTE_CPP_HD constexpr T operator()(T a, T b) const { return a / b; } };
/// The larger of two values (NaN in b wins, as fmaxf does not).
struct Max { template <class T> CUTE_CPP_HD constexpr T operator()(T a, T b) const { return a > b ? a : b; } };
template <class To, class From>
CUTE_CPP_HD constexpr To convert_value(From const& x) {
  if constexpr (std::is_same_v<To, From>) return x;
  else if constexpr (std::is_arithmetic_v<To> || std::is_arithmetic_v<From>) return static_cast<To>(x);
  else return static_cast<To>(static_cast<float>(x));  // 16-bit <-> 8-bit floats go through f32
}
/// V values of T moved as one aligned access.
template <class T, int V>
struct alignas(sizeof(T) * V) VectorPack {
  T v[V];
};
}  // namespace detail

// ---- RegisterTile ----

/// N values of T in registers, indexed at compile time after unrolling.
///   RegisterTile<float, 4> a{1, 2, 3, 4};  (a * 2.f).reduce_sum() -> 20
template <class T, int N>
struct RegisterTile {
  static_assert(N > 0, "cute-cpp [tensor.register-tile.size]: a RegisterTile holds at least one value");
  using value_type = T;
  static constexpr int size = N;
  T v[N];

  [[nodiscard]] CUTE_CPP_HD constexpr T& operator[](int i) { return v[i]; }
  [[nodiscard]] CUTE_CPP_HD constexpr T const& operator[](int i) const { return v[i]; }

  /// Every value equal to x.
  [[nodiscard]] CUTE_CPP_HD static constexpr RegisterTile filled(T const& x) {
    RegisterTile r{};
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = x;
    return r;
  }

  /// map(f): f applied to each value; the result type is f's.
  template <class F>
  [[nodiscard]] CUTE_CPP_HD constexpr auto map(F&& f) const {
    using R = std::remove_cvref_t<decltype(f(v[0]))>;
    RegisterTile<R, N> r{};
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = f(v[i]);
    return r;
  }
  /// zip_map(f, other): f(a[i], b[i]) for each i.
  template <class U, class F>
  [[nodiscard]] CUTE_CPP_HD constexpr auto zip_map(RegisterTile<U, N> const& other, F&& f) const {
    using R = std::remove_cvref_t<decltype(f(v[0], other.v[0]))>;
    RegisterTile<R, N> r{};
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = f(v[i], other.v[i]);
    return r;
  }
  /// fold(init, f): f(...f(f(init, a[0]), a[1])..., a[N-1]).
  template <class A, class F>
  [[nodiscard]] CUTE_CPP_HD constexpr A fold(A init, F&& f) const {
#pragma unroll
    for (int i = 0; i < N; ++i) init = f(init, v[i]);
    return init;
  }
  /// gather(layout): r[i] = a[layout(i)] for a static layout; gather(RowMajor<2,2>{}) on 4
  /// values transposes a 2x2 tile stored column-major.
  template <class L>
  [[nodiscard]] CUTE_CPP_HD constexpr auto gather(L const& layout) const {
    static_assert(diag::tensor_static_size<is_static_v<L>>::ok);
    constexpr int m = int(decltype(cute_cpp::size(layout))::value);
    static_assert(diag::tensor_gather_in_range<N, (long long)(decltype(cute_cpp::cosize(layout))::value) - 1>::ok);
    RegisterTile<T, m> r{};
#pragma unroll
    for (int i = 0; i < m; ++i) r.v[i] = v[layout(i)];
    return r;
  }
  /// to<U>(): each value converted (rounded to nearest even); pairs are packed on the device.
  template <class U>
  [[nodiscard]] CUTE_CPP_HD constexpr RegisterTile<U, N> to() const {
    RegisterTile<U, N> r{};
    constexpr bool packed = N % 2 == 0 && std::is_same_v<T, float> && (std::is_same_v<U, bf16> || std::is_same_v<U, f16>);
#if defined(__CUDA_ARCH__)
    if constexpr (packed) {
#pragma unroll
      for (int i = 0; i < N; i += 2) {
        if constexpr (std::is_same_v<U, bf16>) {
          __nv_bfloat162 const p = __floats2bfloat162_rn(v[i], v[i + 1]);
          r.v[i] = p.x;
          r.v[i + 1] = p.y;
        } else {
          __half2 const p = __floats2half2_rn(v[i], v[i + 1]);
          r.v[i] = p.x;
          r.v[i + 1] = p.y;
        }
      }
    } else
#endif
    {
#pragma unroll
      for (int i = 0; i < N; ++i) r.v[i] = detail::convert_value<U>(v[i]);
    }
    (void)packed;
    return r;
  }

  /// reduce_sum(): the sum of the values (a balanced tree, so the rounding does not depend on N's
  /// evaluation order across compilers).
  [[nodiscard]] CUTE_CPP_HD constexpr T reduce_sum() const { return tree<0, N>(detail::Plus{}); }
  /// reduce_max(): the largest value (NaN-propagating order is unspecified).
  [[nodiscard]] CUTE_CPP_HD constexpr T reduce_max() const { return tree<0, N>(detail::Max{}); }
  /// reduce(op): a balanced tree of op over the values.
  template <class F>
  [[nodiscard]] CUTE_CPP_HD constexpr T reduce(F&& op) const { return tree<0, N>(op); }

  /// load_vector<V>(p): V consecutive values of p per access (V * sizeof(T) bytes, aligned), N / V
  /// accesses. 16 bytes per access is LDG.128 / LDS.128.
  template <int V = int(16 / sizeof(T) < N ? 16 / sizeof(T) : N)>
  [[nodiscard]] CUTE_CPP_HD static RegisterTile load_vector(T const* p) {
    static_assert(diag::tensor_vector_width<V, int(sizeof(T)), N>::ok);
    RegisterTile r;
    using Pack = detail::VectorPack<T, V>;
#pragma unroll
    for (int i = 0; i < N / V; ++i) *reinterpret_cast<Pack*>(&r.v[i * V]) = reinterpret_cast<Pack const*>(p)[i];
    return r;
  }
  /// store_vector<V>(p): the converse of load_vector.
  template <int V = int(16 / sizeof(T) < N ? 16 / sizeof(T) : N)>
  CUTE_CPP_HD void store_vector(T* p) const {
    static_assert(diag::tensor_vector_width<V, int(sizeof(T)), N>::ok);
    using Pack = detail::VectorPack<T, V>;
#pragma unroll
    for (int i = 0; i < N / V; ++i) reinterpret_cast<Pack*>(p)[i] = *reinterpret_cast<Pack const*>(&v[i * V]);
  }

 private:
  template <int B, int E, class F>
  CUTE_CPP_HD constexpr T tree(F&& op) const {
    if constexpr (E - B == 1) return v[B];
    else return op(tree<B, B + (E - B) / 2>(op), tree<B + (E - B) / 2, E>(op));
  }
};

// ---- arithmetic (computed in T; convert mixed tiles first with to<U>()) ----

namespace detail {

/// tile op tile, tile op scalar, scalar op tile: the scalar is converted to T once.
template <class Op, class A, class B>
CUTE_CPP_HD constexpr auto tile_binary(A const& a, B const& b) {
  if constexpr (requires { A::size; } && requires { B::size; }) {
    return a.zip_map(b, Op{});
  } else if constexpr (requires { A::size; }) {
    using T = typename A::value_type;
    T const t = static_cast<T>(b);
    return a.map([t](T x) -> T { return Op{}(x, t); });
  } else {
    using T = typename B::value_type;
    T const t = static_cast<T>(a);
    return b.map([t](T x) -> T { return Op{}(t, x); });
  }
}
template <class T> inline constexpr bool is_register_tile_v = false;
template <class T, int N> inline constexpr bool is_register_tile_v<RegisterTile<T, N>> = true;
template <class A, class B>
concept TileOperands = (is_register_tile_v<A> && is_register_tile_v<B>) ||
                       (is_register_tile_v<A> && std::is_arithmetic_v<B>) ||
                       (std::is_arithmetic_v<A> && is_register_tile_v<B>);
}  // namespace detail

template <class A, class B> requires detail::TileOperands<A, B>
[[nodiscard]] CUTE_CPP_HD constexpr auto operator+(A const& a, B const& b) { return detail::tile_binary<detail::Plus>(a, b); }
template <class A, class B> requires detail::TileOperands<A, B>
[[nodiscard]] CUTE_CPP_HD constexpr auto operator-(A const& a, B const& b) { return detail::tile_binary<detail::Minus>(a, b); }
template <class A, class B> requires detail::TileOperands<A, B>
[[nodiscard]] CUTE_CPP_HD constexpr auto operator*(A const& a, B const& b) { return detail::tile_binary<detail::Times>(a, b); }
template <class A, class B> requires detail::TileOperands<A, B>
[[nodiscard]] CUTE_CPP_HD constexpr auto operator/(A const& a, B const& b) { return detail::tile_binary<detail::Divides>(a, b); }
template <class T, int N, class B>
CUTE_CPP_HD constexpr RegisterTile<T, N>& operator+=(RegisterTile<T, N>& a, B const& b) { return a = a + b; }
template <class T, int N, class B>
CUTE_CPP_HD constexpr RegisterTile<T, N>& operator-=(RegisterTile<T, N>& a, B const& b) { return a = a - b; }
template <class T, int N, class B>
CUTE_CPP_HD constexpr RegisterTile<T, N>& operator*=(RegisterTile<T, N>& a, B const& b) { return a = a * b; }
template <class T, int N, class B>
CUTE_CPP_HD constexpr RegisterTile<T, N>& operator/=(RegisterTile<T, N>& a, B const& b) { return a = a / b; }

template <class T, int N>
[[nodiscard]] CUTE_CPP_HD constexpr RegisterTile<T, N> operator-(RegisterTile<T, N> const& a) {
  return a.map([](T x) -> T { return -x; });
}

}  // namespace cute_cpp
