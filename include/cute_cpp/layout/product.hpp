// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/product.hpp: the products and tile_to_shape (CuTeDSL: cute.logical_product,
// zipped_product, tiled_product, flat_product, blocked_product, raked_product, cute.tile_to_shape).
#include <cute_cpp/config.hpp>         // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>   // detail::apply
#include <cute_cpp/layout/ops.hpp>     // Bin, TilerOp, LayoutPairOp, TileToShape*Op

namespace cute_cpp {

// ---- products ----

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

}  // namespace cute_cpp
