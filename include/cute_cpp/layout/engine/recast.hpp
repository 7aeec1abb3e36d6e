// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/recast.hpp: upcast and downcast on LV (the layout over elements n times
// wider or narrower), through map_leaves.
#include <cute_cpp/config.hpp>             // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>        // LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>   // DynTuple, dt::
#include <cute_cpp/layout/engine/lv.hpp>   // LV, node_iv

namespace cute_cpp::eng {

/// A leaf's shape and stride.
struct LeafIV {
  IV shape, stride;
};
/// L with each integer leaf (shape, stride) replaced by f(shape, stride).
template <class F>
CUTE_CPP_HD constexpr LV map_leaves(LV const& l, F const& f) noexcept {
  LV r = l;
  for (int i = 0; i < l.shape.n; ++i) {
    if (l.shape.node[i].kind >= 0) continue;
    LeafIV const leaf = f(node_iv(l.shape, i), node_iv(l.stride, i));
    r.shape.node[i] = dt::int_node(leaf.shape);
    r.stride.node[i] = dt::int_node(leaf.stride);
  }
  return r;
}
/// upcast(L, n): L over elements n times wider. (8,4):(1,8), 2 -> (4,4):(1,4)
CUTE_CPP_HD constexpr LV upcast(LV const& l, IV n, LayoutError& e) noexcept {
  return map_leaves(l, [&](IV s, IV d) -> LeafIV {
    if (d.v == 0) return {s, d};
    IV ad{dt::abs(d.v), d.s};
    if (ad.v % n.v != 0 && n.v % ad.v != 0) e.set(R::recast_divisibility, ad.v, n.v);
    IV nd = dt::ceil_div(ad, n);
    if (d.v < 0) nd.v = -nd.v;
    return {dt::ceil_div(s, dt::ceil_div(n, ad)), nd};
  });
}
/// downcast(L, n): L over elements n times narrower. (4,4):(1,4), 2 -> (8,4):(1,8)
CUTE_CPP_HD constexpr LV downcast(LV const& l, IV n) noexcept {
  return map_leaves(l, [&](IV s, IV d) -> LeafIV {
    bool const unit = d.v == 1 || d.v == -1;
    return {unit ? dt::mul(s, n) : s, unit ? d : dt::mul(d, n)};
  });
}

}  // namespace cute_cpp::eng
