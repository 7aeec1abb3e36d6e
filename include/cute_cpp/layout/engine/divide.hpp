// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/divide.hpp: the divides on LV (logical, zipped, tiled, flat), the by-mode
// gathering they share with the products (hier_unzip), slicing, local_tile and local_partition.
#include <cute_cpp/config.hpp>                      // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>                 // LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>            // DynTuple, dt::
#include <cute_cpp/layout/engine/composition.hpp>   // composition, complement
#include <cute_cpp/layout/engine/lv.hpp>            // LV, the eng:: helpers, crd2idx, idx2crd_strided

namespace cute_cpp::eng {

// ---- divides ----

CUTE_CPP_HD constexpr LV logical_divide(LV const& a, LV const& t, LayoutError& e) noexcept {
  if (t.shape.is_underscore()) return a;
  if (t.shape.is_tiler()) {
    int rt = rank(t);
    if (rt > rank(a)) {
      e.set(R::divide_rank, rt, rank(a));
      return a;
    }
    LV r = lv_tuple();
    for (int k = 0; k < rt; ++k) push(r, logical_divide(mode(a, k), mode(t, k), e));
    for (int k = rt; k < rank(a); ++k) push(r, mode(a, k));
    return checked(r, e);
  }
  LayoutError ce;
  LV r = composition(a, pair(t, complement(t, size(a), ce)), ce);
  if (ce.rule == R::composition_stride || ce.rule == R::composition_shape) e.set(R::divide_fit, ce.a, ce.b);
  else if (ce) e.set(ce.rule, ce.a, ce.b);
  return checked(r, e);
}

/// Gathers the two modes of a by-mode divide or product: ((A,a),(B,b),C) -> ((A,B),(a,b,C)).
template <class Split>
CUTE_CPP_HD constexpr LV hier_unzip(Split split, LV const& a, LV const& t, R rank_rule, LayoutError& e) noexcept {
  if (t.shape.is_underscore()) return pair(lv_leaf({1, true}, {0, true}), a);
  if (t.shape.is_tiler()) {
    int rt = rank(t);
    if (rt > rank(a)) {
      e.set(rank_rule, rt, rank(a));
      return a;
    }
    LV first = lv_tuple();
    LV second = lv_tuple();
    for (int k = 0; k < rt; ++k) {
      LV s = hier_unzip(split, mode(a, k), mode(t, k), rank_rule, e);
      push(first, mode(s, 0));
      push(second, mode(s, 1));
    }
    for (int k = rt; k < rank(a); ++k) push(second, mode(a, k));
    return checked(pair(first, second), e);
  }
  return split(a, t, e);
}
struct DivideFn {
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& t, LayoutError& e) const noexcept {
    return logical_divide(a, t, e);
  }
};
/// The modes of r, or r itself as one mode when it has rank 1 (C++ CuTe's slice with `_`).
CUTE_CPP_HD constexpr void push_modes_unless_rank1(LV& out, LV const& r) noexcept {
  if (rank(r) == 1) {
    push(out, r);
    return;
  }
  for (int k = 0; k < rank(r); ++k) push(out, mode(r, k));
}
CUTE_CPP_HD constexpr LV zipped_divide(LV const& a, LV const& t, LayoutError& e) noexcept {
  return hier_unzip(DivideFn{}, a, t, R::divide_rank, e);
}
CUTE_CPP_HD constexpr LV tiled_divide(LV const& a, LV const& t, LayoutError& e) noexcept {
  LV z = zipped_divide(a, t, e);
  LV r = lv_tuple();
  push(r, mode(z, 0));
  push_modes_unless_rank1(r, mode(z, 1));
  return checked(r, e);
}
CUTE_CPP_HD constexpr LV flat_divide(LV const& a, LV const& t, LayoutError& e) noexcept {
  LV z = zipped_divide(a, t, e);
  LV r = lv_tuple();
  push_modes_unless_rank1(r, mode(z, 0));
  push_modes_unless_rank1(r, mode(z, 1));
  return checked(r, e);
}

// ---- slicing, local_tile, local_partition ----

CUTE_CPP_HD constexpr void slice_into(DynTuple const& crd, int ci, LV const& l, int li, LV& out) noexcept {
  if (crd.node[ci].kind < 0) {
    if (crd.node[ci].flags & flag_underscore) push(out, LV{dt::subtree(l.shape, li), dt::subtree(l.stride, li)});
    return;
  }
  for (int k = 0; k < crd.node[ci].kind && k < (l.shape.node[li].kind < 0 ? 1 : l.shape.node[li].kind); ++k)
    slice_into(crd, dt::child_pos(crd, ci, k), l, dt::child_pos(l.shape, li, k), out);
}
/// The layout of the modes a coordinate leaves open (`_`), and the offset of its fixed part.
struct SliceResult {
  LV layout;
  IV offset;
};
CUTE_CPP_HD constexpr SliceResult slice_and_offset(DynTuple const& crd, LV const& l, LayoutError& e) noexcept {
  LV out = lv_tuple();
  slice_into(crd, 0, l, 0, out);
  IV off = crd2idx(crd, l.shape, l.stride, e);
  return {checked(out, e), off};
}
CUTE_CPP_HD constexpr DynTuple underscores(int n) noexcept {
  if (n == 1) return dt::underscore();
  DynTuple r;
  for (int k = 0; k < n; ++k) dt::push(r, dt::underscore());
  return r;
}
/// local_tile(L, tiler, coord): the tile at coord of zipped_divide(L, tiler), and its offset.
CUTE_CPP_HD constexpr SliceResult local_tile(LV const& l, LV const& t, DynTuple const& coord, LayoutError& e) noexcept {
  LV z = zipped_divide(l, t, e);
  int r0 = rank(mode(z, 0));
  int r1 = rank(mode(z, 1));
  DynTuple c = coord;
  if (!c.is_leaf() && c.rank() < r1)
    while (c.rank() < r1 && !c.overflow) dt::push(c, dt::underscore());
  return slice_and_offset(dt::pair(underscores(r0), c), z, e);
}
/// local_partition(L, threads, idx): the elements of L owned by thread idx when the tile
/// shape(threads) is laid over L and thread idx takes coordinate threads^-1(idx) in each tile.
CUTE_CPP_HD constexpr SliceResult local_partition(LV const& l, LV const& thr, IV idx, LayoutError& e) noexcept {
  DynTuple tiler;
  DynTuple tiler_stride;
  DynTuple flat_crd;
  DynTuple hier = idx2crd_strided(idx, thr.shape, thr.stride);
  if (thr.shape.is_leaf()) {
    tiler = thr.shape;
    tiler_stride = dt::leaf(1, true);
    flat_crd = hier;
  } else {
    for (int k = 0; k < thr.shape.rank(); ++k) {
      DynTuple sk = dt::get(thr.shape, k);
      dt::push(tiler, dt::leaf(dt::product(sk)));
      dt::push(tiler_stride, dt::leaf(1, true));
      dt::push(flat_crd, dt::leaf(crd2idx(dt::get(hier, k), sk, dt::prefix_product(sk), e)));
    }
    tiler.node[0].flags = flag_tiler;
    tiler_stride.node[0].flags = flag_tiler;
  }
  LV z = zipped_divide(l, LV{tiler, tiler_stride}, e);
  int r1 = rank(mode(z, 1));
  return slice_and_offset(dt::pair(flat_crd, underscores(r1)), z, e);
}

}  // namespace cute_cpp::eng
