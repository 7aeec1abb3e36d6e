// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/composition.hpp: composition, complement, the inverses and the common vectors
// (CuTeDSL: cute.composition, cute.complement, cute.right_inverse, cute.left_inverse,
// cute.max_common_layout, cute.max_common_vector), and detail::tiler_apply, which the divides
// share.
#include <cute_cpp/config.hpp>             // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>       // detail::apply
#include <cute_cpp/layout/ops.hpp>         // Bin, TilerOp, ComplementOp, *InverseOp, LayoutPairOp, ...
#include <cute_cpp/layout/symbolic.hpp>    // use_symbolic, symbolic

namespace cute_cpp {

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
