// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/divide.hpp: the divides and the tiles they give (CuTeDSL: cute.logical_divide,
// zipped_divide, tiled_divide, flat_divide, cute.slice_, and cute.local_tile / cute.local_partition
// on layouts). A typed layout divided by integer tiles takes the typed path (typed_divide.hpp), a
// static tiler over run-time strides the symbolic one (symbolic.hpp), the rest the engine.
#include <cute_cpp/config.hpp>                // CUTE_CPP_HD
#include <cute_cpp/layout/apply.hpp>          // detail::apply
#include <cute_cpp/layout/composition.hpp>    // detail::tiler_apply
#include <cute_cpp/layout/ops.hpp>            // Bin, SliceOp, SliceOffsetOp, LocalTile*Op, LocalPartition*Op
#include <cute_cpp/layout/tuple.hpp>          // get
#include <cute_cpp/layout/typed_divide.hpp>   // the typed path

namespace cute_cpp {

// ---- divides ----

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

}  // namespace cute_cpp
