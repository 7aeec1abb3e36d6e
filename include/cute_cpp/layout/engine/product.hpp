// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/product.hpp: the products on LV (logical, zipped, tiled, flat, blocked,
// raked) and tile_to_shape.
#include <cute_cpp/config.hpp>                      // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>                 // LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>            // DynTuple, dt::
#include <cute_cpp/layout/engine/composition.hpp>   // composition, complement
#include <cute_cpp/layout/engine/divide.hpp>        // hier_unzip, push_modes_unless_rank1
#include <cute_cpp/layout/engine/lv.hpp>            // LV, the eng:: helpers, make_ordered_layout

namespace cute_cpp::eng {

// ---- products ----

CUTE_CPP_HD constexpr LV logical_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  if (b.shape.is_underscore()) return a;
  if (b.shape.is_tiler()) {
    int rb = rank(b);
    if (rb > rank(a)) {
      e.set(R::product_rank, rb, rank(a));
      return a;
    }
    LV r = lv_tuple();
    for (int k = 0; k < rb; ++k) push(r, logical_product(mode(a, k), mode(b, k), e));
    for (int k = rb; k < rank(a); ++k) push(r, mode(a, k));
    return checked(r, e);
  }
  IV cot = dt::mul(size(a), cosize(b, e));
  return checked(pair(a, composition(complement(a, cot, e), b, e)), e);
}

struct ProductFn {
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& t, LayoutError& e) const noexcept {
    return logical_product(a, t, e);
  }
};
CUTE_CPP_HD constexpr LV zipped_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  return hier_unzip(ProductFn{}, a, b, R::product_rank, e);
}
CUTE_CPP_HD constexpr LV tiled_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  LV z = zipped_product(a, b, e);
  LV r = lv_tuple();
  push(r, mode(z, 0));
  push_modes_unless_rank1(r, mode(z, 1));
  return checked(r, e);
}
CUTE_CPP_HD constexpr LV flat_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  LV z = zipped_product(a, b, e);
  LV r = lv_tuple();
  push_modes_unless_rank1(r, mode(z, 0));
  push_modes_unless_rank1(r, mode(z, 1));
  return checked(r, e);
}
/// Pads l with 1:0 modes up to rank n.
CUTE_CPP_HD constexpr LV append_to_rank(LV const& l, int n) noexcept {
  if (rank(l) >= n) return l;
  LV r = is_leaf(l) ? wrap(l) : l;
  // A full tuple stops growing (push sets its overflow flag): the caller reports the capacity.
  while (rank(r) < n && !overflowed(r)) push(r, lv_leaf({1, true}, {0, true}));
  return r;
}
/// C++ CuTe's zip(x, y): ((x0,y0),(x1,y1),...) when x is a tuple, else ((x,y)).
/// NOTE: when the ranks differ (a rank-1 product whose composition came out with several
/// modes), x and y are kept whole as the two halves of one mode; C++ CuTe's zip would drop or
/// repeat modes there.
CUTE_CPP_HD constexpr LV zip2(LV const& x, LV const& y) noexcept {
  if (is_leaf(x)) return wrap(pair(x, y));
  if (rank(x) != rank(y)) return wrap(pair(rank(x) == 1 ? mode(x, 0) : x, rank(y) == 1 ? mode(y, 0) : y));
  LV r = lv_tuple();
  for (int k = 0; k < rank(x); ++k) push(r, pair(mode(x, k), mode(y, k)));
  return r;
}
CUTE_CPP_HD constexpr LV blocked_or_raked(LV const& a, LV const& b, bool raked, LayoutError& e) noexcept {
  int n = rank(a) > rank(b) ? rank(a) : rank(b);
  LV const an = append_to_rank(a, n), bn = append_to_rank(b, n);
  if (overflowed(an) || overflowed(bn)) return checked(overflowed(an) ? an : bn, e);
  LV p = logical_product(an, bn, e);
  return checked(raked ? zip2(mode(p, 1), mode(p, 0)) : zip2(mode(p, 0), mode(p, 1)), e);
}
/// blocked_product(A, B): A's tile repeated over B, A's elements contiguous: ((A0,B0),(A1,B1),...).
CUTE_CPP_HD constexpr LV blocked_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  return blocked_or_raked(a, b, false, e);
}
/// raked_product(A, B): A's elements interleaved across the copies of B: ((B0,A0),(B1,A1),...).
CUTE_CPP_HD constexpr LV raked_product(LV const& a, LV const& b, LayoutError& e) noexcept {
  return blocked_or_raked(a, b, true, e);
}

/// tile_to_shape(block, shape[, order]): the block repeated until it covers shape, the repeats
/// laid out in the order given (column-major by default): blocked_product(block padded to the
/// rank of shape, make_ordered_layout(shape / block shape, order)), without coalescing (C++ v4.7).
///   tile_to_shape((8,64):(64,1), (128,64,3)) -> ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))
CUTE_CPP_HD constexpr LV tile_to_shape(LV const& block, DynTuple const& target, DynTuple const* order,
                                      LayoutError& e) noexcept {
  int r = target.rank();
  if (rank(block) > r) {
    e.set(R::tile_rank, rank(block), r);
    return block;
  }
  LV padded = append_to_rank(block, r);
  if (r == 1 && is_leaf(padded) && !target.is_leaf()) padded = wrap(padded);
  DynTuple product_shape = dt::product_each(target);
  for (int k = 0; k < r; ++k) {
    int pos = product_shape.is_leaf() ? 0 : dt::child_pos(product_shape, 0, k);
    IV t = node_iv(product_shape, pos);
    IV b = dt::product(dt::get(padded.shape, k));
    if (b.v == 0 || t.v % b.v != 0) {
      e.set(R::tile_divides, t.v, b.v);
      return block;
    }
    product_shape.node[pos].v = t.v / b.v;
    product_shape.node[pos].flags = (t.s && b.s) ? flag_static : (unsigned char)0;
  }
  LV tiler = order ? make_ordered_layout(product_shape, *order, e) : make_layout_left(product_shape);
  return checked(blocked_product(padded, tiler, e), e);
}

}  // namespace cute_cpp::eng
