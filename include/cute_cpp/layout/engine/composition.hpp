// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/composition.hpp: composition on LV (by mode; C++ CuTe's walk over the
// modes of coalesce(A)), complement, right_inverse, left_inverse, max_common_layout and
// max_common_vector.
#include <cute_cpp/config.hpp>                // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>           // LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>      // DynTuple, dt::
#include <cute_cpp/layout/engine/lv.hpp>      // LV, the eng:: helpers, size, cosize
#include <cute_cpp/layout/engine/modes.hpp>   // coalesce

namespace cute_cpp::eng {

// ---- composition ----

/// shape_div(a, b) with its divisibility precondition: a % b == 0 or b % a == 0.
CUTE_CPP_HD constexpr IV shape_div(IV a, IV b, R rule, LayoutError& e) noexcept {
  if (a.v == 0 || b.v == 0 || (a.v % b.v != 0 && b.v % a.v != 0)) {
    e.set(rule, a.v, b.v);
    return {1, a.s && b.s};
  }
  return dt::ceil_div(a, b);
}

/// A composed with a rank-1 layout bs:bd.
CUTE_CPP_HD constexpr LV composition_leaf(LV const& a, IV bs, IV bd, bool whole_b, LayoutError& e) noexcept {
  if (bd.v == 0) return lv_leaf(bs, bd);
  LV fa = coalesce(a);
  if (is_leaf(fa)) return lv_leaf(bs, dt::mul(bd, fa.stride.value()));
  // C++ CuTe's walk over the modes of coalesce(A): B's stride first skips whole modes (or
  // enters one), then B's shape takes what each mode has left.
  LV r = lv_tuple();
  IV rest_shape = bs;
  IV rest_stride = bd;
  int leaves = dt::leaf_count(fa.shape);
  int seen = 0;
  IV last_stride{};
  for (int i = 0; i < fa.shape.n; ++i) {
    if (fa.shape.node[i].kind >= 0) continue;
    IV s = node_iv(fa.shape, i);
    IV d = node_iv(fa.stride, i);
    if (++seen == leaves) {
      last_stride = d;
      break;
    }
    IV ad{dt::abs(rest_stride.v), rest_stride.s};
    IV next_shape = dt::ceil_div(s, ad);
    // NOTE: C++ CuTe accepts any stride below the mode's shape ("weak divisibility"); that is
    // exact only when B is a single mode that then ends inside this mode (by-mode distribution
    // over B's modes needs divisibility), so cute-cpp requires that, or divisibility.
    bool divides = s.v != 0 && ad.v != 0 && (ad.v % s.v == 0 || s.v % ad.v == 0);
    bool ends_inside = whole_b && ad.v < s.v && next_shape.v >= rest_shape.v;
    if (!divides && !ends_inside && rest_shape.v != 1) e.set(R::composition_stride, s.v, ad.v);
    IV next_stride = dt::ceil_div(ad, s);
    if (rest_stride.v < 0) next_stride.v = -next_stride.v;
    if (next_shape.v == 1 || rest_shape.v == 1) {
      rest_stride = next_stride;
      continue;
    }
    IV new_shape = dt::min(next_shape, rest_shape);
    if (new_shape.v == 0 || rest_shape.v % new_shape.v != 0) e.set(R::composition_shape, rest_shape.v, new_shape.v);
    push(r, lv_leaf(new_shape, dt::mul(rest_stride, d)));
    rest_shape = dt::div(rest_shape, new_shape);
    rest_stride = next_stride;
  }
  if (rank(r) == 0) return lv_leaf(rest_shape, dt::mul(rest_stride, last_stride));
  if (rest_shape.v != 1) push(r, lv_leaf(rest_shape, dt::mul(rest_stride, last_stride)));
  if (rank(r) == 1) return mode(r, 0);
  return r;
}
/// B's modes distributed over A (right-distributivity); `whole` is false once B has been split
/// into several modes, which then need divisibility (see composition_leaf).
CUTE_CPP_HD constexpr LV composition_modes(LV const& a, LV const& b, bool whole, LayoutError& e) noexcept {
  if (is_leaf(b)) return composition_leaf(a, b.shape.value(), b.stride.value(), whole, e);
  LV r = lv_tuple();
  for (int k = 0; k < rank(b); ++k) push(r, composition_modes(a, mode(b, k), whole && rank(b) == 1, e));
  return checked(r, e);
}
/// composition(A, B): the layout i -> A(B(i)). B may be a layout (by mode where its shape is a
/// tuple) or a tiler (by mode of A; `_` leaves a mode alone; A's modes past the tiler are dropped).
CUTE_CPP_HD constexpr LV composition(LV const& a, LV const& b, LayoutError& e) noexcept {
  if (b.shape.is_underscore()) return a;
  if (b.shape.is_tiler()) {
    int rb = rank(b);
    if (rb > rank(a)) {
      e.set(R::composition_rank, rb, rank(a));
      return a;
    }
    LV r = lv_tuple();
    for (int k = 0; k < rb; ++k) push(r, composition(mode(a, k), mode(b, k), e));
    return checked(r, e);
  }
  return composition_modes(a, b, true, e);
}

// ---- complement, inverses ----

/// complement(A, cotarget): the layout of the offsets in [0, cotarget) that A does not reach,
/// ordered so that (A, complement) is a bijection onto a multiple of the cotarget.
CUTE_CPP_HD constexpr LV complement(LV const& a, IV cotarget, LayoutError& e) noexcept {
  if (reject_basis(a, e)) return a;
  IV ss[DynTuple::capacity] = {};
  IV ds[DynTuple::capacity] = {};
  int m = 0;
  for (int i = 0; i < a.shape.n; ++i) {
    if (a.shape.node[i].kind >= 0) continue;
    IV s = node_iv(a.shape, i);
    IV d = node_iv(a.stride, i);
    if (d.v == 0 || s.v == 1) continue;
    int p = m++;
    while (p > 0 && (ds[p - 1].v > d.v || (ds[p - 1].v == d.v && ss[p - 1].v > s.v))) {
      ss[p] = ss[p - 1];
      ds[p] = ds[p - 1];
      --p;
    }
    ss[p] = s;
    ds[p] = d;
  }
  LV r = lv_tuple();
  IV cur{1, true};
  for (int k = 0; k < m; ++k) {
    if (ds[k].v < cur.v) e.set(R::complement_injective, ds[k].v, cur.v);
    push(r, lv_leaf(dt::div(ds[k], cur), cur));
    cur = dt::mul(ss[k], ds[k]);
  }
  push(r, lv_leaf(dt::ceil_div(cotarget, cur), cur));
  return coalesce(r);
}
/// complement(A) with the cotarget 1: the modes that complete A's image, with no extra mode.
CUTE_CPP_HD constexpr LV complement(LV const& a, LayoutError& e) noexcept { return complement(a, {1, true}, e); }

/// The modes of coalesce(l) as arrays (shape, stride, exclusive prefix product of the shape),
/// sorted by stride (stable).
struct SortedModes {
  IV shape[DynTuple::capacity] = {};
  IV stride[DynTuple::capacity] = {};
  IV prefix[DynTuple::capacity] = {};
  int order[DynTuple::capacity] = {};
  int n = 0;
};
CUTE_CPP_HD constexpr SortedModes sorted_modes(LV const& l) noexcept {
  LV c = coalesce(l);
  SortedModes m;
  IV run{1, true};
  for (int i = 0; i < c.shape.n; ++i) {
    if (c.shape.node[i].kind >= 0) continue;
    m.shape[m.n] = node_iv(c.shape, i);
    m.stride[m.n] = node_iv(c.stride, i);
    m.prefix[m.n] = run;
    run = dt::mul(run, m.shape[m.n]);
    int p = m.n++;
    while (p > 0 && m.stride[m.order[p - 1]].v > m.stride[m.n - 1].v) {
      m.order[p] = m.order[p - 1];
      --p;
    }
    m.order[p] = m.n - 1;
  }
  return m;
}

/// right_inverse(L): R with L(R(i)) == i for i < size(R), R as large as possible (C++ CuTe: the
/// modes of coalesce(L) whose strides continue the contiguous run, in stride order).
CUTE_CPP_HD constexpr LV right_inverse(LV const& l) noexcept {
  SortedModes m = sorted_modes(l);
  LV r = lv_tuple();
  push(r, lv_leaf({1, true}, {0, true}));
  IV cur{1, true};
  for (int k = 0; k < m.n; ++k) {
    int i = m.order[k];
    if (m.stride[i].v != cur.v) continue;
    push(r, lv_leaf(m.shape[i], m.prefix[i]));
    cur = dt::mul(m.shape[i], m.stride[i]);
  }
  return coalesce(r);
}
/// left_inverse(L): R with R(L(i)) == i for i < size(L) when L is injective (C++ CuTe's
/// quasi-inverse: L(R(L(i))) == L(i) for every L).
CUTE_CPP_HD constexpr LV left_inverse(LV const& l, LayoutError& e) noexcept {
  SortedModes m = sorted_modes(l);
  DynTuple rs;
  DynTuple rd;
  dt::push(rd, dt::leaf(0, true));
  IV covered{1, true};
  int last = -1;
  for (int k = 0; k < m.n; ++k) {
    int i = m.order[k];
    last = i;
    if (m.stride[i].v == 0) continue;
    if (covered.v == 0 || m.stride[i].v % covered.v != 0) {
      e.set(R::left_inverse_divisibility, m.stride[i].v, covered.v);
      return l;
    }
    IV sh = dt::div(m.stride[i], covered);
    dt::push(rs, dt::leaf(sh));
    dt::push(rd, dt::leaf(m.prefix[i]));
    covered = dt::mul(covered, sh);
  }
  dt::push(rs, last >= 0 ? dt::leaf(m.shape[last]) : dt::leaf(1, true));
  return checked(coalesce(LV{rs, rd}), e);
}

// ---- max_common_vector / max_common_layout ----

/// The largest layout C such that A o C and B o C are both contiguous (stride-1) vectors.
CUTE_CPP_HD constexpr LV max_common_layout(LV const& a, LV const& b, LayoutError& e) noexcept {
  if (reject_basis(a, e) || reject_basis(b, e)) return lv_leaf({1, true}, {0, true});
  LV inv_b = right_inverse(b);
  LV common = coalesce(composition(a, inv_b, e));
  LV m0 = mode(common, 0);
  if (is_leaf(m0) && m0.stride.value().v == 1) return composition(inv_b, m0, e);
  return lv_leaf({1, true}, {0, true});
}
/// The number of elements that A and B both hold contiguously from offset 0.
CUTE_CPP_HD constexpr IV max_common_vector(LV const& a, LV const& b, LayoutError& e) noexcept {
  LV common = coalesce(composition(a, right_inverse(b), e));
  LV m0 = mode(common, 0);
  if (is_leaf(m0) && m0.stride.value().v == 1) return m0.shape.value();
  return {1, true};
}

}  // namespace cute_cpp::eng
