// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine.hpp: the layout algebra on values (LV = shape and stride DynTuples).
// Written once, constexpr, host and device; the typed API in layout.hpp calls it at run time for
// dynamic inputs and in constant evaluation for static ones. Errors are recorded in a
// diag::LayoutError (first error wins) instead of being thrown, so constant evaluation can turn
// them into a rule template's static_assert.
#include <cute_cpp/config.hpp>            // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>       // LayoutRule, LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>  // DynTuple, dt::

namespace cute_cpp {

/// A layout as a value: shape and stride, congruent trees (node i of one is node i of the other).
struct LV {
  DynTuple shape = dt::leaf(1, true);
  DynTuple stride = dt::leaf(0, true);
};

namespace eng {
using diag::LayoutError;
using R = diag::LayoutRule;

CUTE_CPP_HD constexpr IV node_iv(DynTuple const& t, int i) noexcept {
  return {t.node[i].v, (t.node[i].flags & flag_static) != 0, t.node[i].tag};
}
CUTE_CPP_HD constexpr LV lv_leaf(IV s, IV d) noexcept { return {dt::leaf(s), dt::leaf(d)}; }
CUTE_CPP_HD constexpr LV lv_tuple() noexcept { return {dt::tuple(), dt::tuple()}; }
CUTE_CPP_HD constexpr int rank(LV const& l) noexcept { return l.shape.rank(); }
CUTE_CPP_HD constexpr bool is_leaf(LV const& l) noexcept { return l.shape.is_leaf(); }
CUTE_CPP_HD constexpr LV mode(LV const& l, int k) noexcept { return {dt::get(l.shape, k), dt::get(l.stride, k)}; }
CUTE_CPP_HD constexpr void push(LV& l, LV const& m) noexcept {
  dt::push(l.shape, m.shape);
  dt::push(l.stride, m.stride);
}
CUTE_CPP_HD constexpr LV pair(LV const& a, LV const& b) noexcept {
  LV r = lv_tuple();
  push(r, a);
  push(r, b);
  return r;
}
CUTE_CPP_HD constexpr LV wrap(LV const& a) noexcept {
  LV r = lv_tuple();
  push(r, a);
  return r;
}
CUTE_CPP_HD constexpr bool overflowed(LV const& l) noexcept { return l.shape.overflow || l.stride.overflow; }
/// Records a capacity overflow of the result as an error.
CUTE_CPP_HD constexpr LV checked(LV const& l, LayoutError& e) noexcept {
  if (overflowed(l)) e.set(R::capacity, DynTuple::capacity, DynTuple::capacity + 1);
  return l;
}

/// Operations that need integer strides reject ScaledBasis (tagged) strides.
CUTE_CPP_HD constexpr bool reject_basis(LV const& l, LayoutError& e) noexcept {
  for (int i = 0; i < l.stride.n; ++i)
    if (l.stride.node[i].kind < 0 && l.stride.node[i].tag >= 0) {
      e.set(R::basis_unsupported, l.stride.node[i].tag, 0);
      return true;
    }
  return false;
}

// ---- construction ----

/// make_layout(shape): compact column-major (LayoutLeft) strides. (4,(2,3)) -> (4,(2,3)):(1,(4,8))
CUTE_CPP_HD constexpr LV make_layout_left(DynTuple const& shape) noexcept { return {shape, dt::prefix_product(shape)}; }
/// compact row-major (LayoutRight) strides. (4,(2,3)) -> (4,(2,3)):(6,(3,1))
CUTE_CPP_HD constexpr LV make_layout_right(DynTuple const& shape) noexcept { return {shape, dt::suffix_product(shape)}; }
CUTE_CPP_HD constexpr LV make_layout(DynTuple const& shape, DynTuple const& stride, LayoutError& e) noexcept {
  if (!dt::congruent(shape, stride)) e.set(R::congruent, shape.n, stride.n);
  return {shape, stride};
}

// ---- size, cosize, evaluation ----

CUTE_CPP_HD constexpr IV size(LV const& l) noexcept { return dt::product(l.shape); }

CUTE_CPP_HD constexpr IV crd2idx_int(IV c, DynTuple const& sh, int si, DynTuple const& st, int di,
                                     LayoutError& e) noexcept {
  if (sh.node[si].kind < 0) {
    if (st.node[di].kind >= 0) {
      e.set(R::congruent, sh.node[si].kind, st.node[di].kind);
      return {};
    }
    if (st.node[di].tag >= 0) e.set(R::basis_unsupported, st.node[di].tag, 0);
    return dt::mul(c, node_iv(st, di));
  }
  int r = sh.node[si].kind;
  if (st.node[di].kind != r) {
    e.set(R::congruent, r, st.node[di].kind);
    return {};
  }
  IV res{0, true};
  for (int k = 0; k < r; ++k) {
    int sp = dt::child_pos(sh, si, k);
    int dp = dt::child_pos(st, di, k);
    if (k + 1 < r) {
      IV p = dt::product(sh, sp);
      IV m{p.v == 0 ? 0 : c.v % p.v, c.s && p.s};
      res = dt::add(res, crd2idx_int(m, sh, sp, st, dp, e));
      c = dt::div(c, p);
    } else {
      res = dt::add(res, crd2idx_int(c, sh, sp, st, dp, e));
    }
  }
  return res;
}
CUTE_CPP_HD constexpr IV crd2idx_at(DynTuple const& crd, int ci, DynTuple const& sh, int si,
                                    DynTuple const& st, int di, LayoutError& e) noexcept {
  if (crd.node[ci].kind < 0) {
    IV c = (crd.node[ci].flags & flag_underscore) ? IV{0, true} : node_iv(crd, ci);
    return crd2idx_int(c, sh, si, st, di, e);
  }
  int r = crd.node[ci].kind;
  if (sh.node[si].kind != r || st.node[di].kind != r) {
    e.set(R::coord_congruent, r, sh.node[si].kind < 0 ? 1 : sh.node[si].kind);
    return {};
  }
  IV res{0, true};
  for (int k = 0; k < r; ++k)
    res = dt::add(res, crd2idx_at(crd, dt::child_pos(crd, ci, k), sh, dt::child_pos(sh, si, k), st,
                                  dt::child_pos(st, di, k), e));
  return res;
}
/// crd2idx(crd, shape, stride): the CuTe index map; crd may be an integer, congruent, or weakly
/// congruent (an integer standing for a whole sub-tuple).
CUTE_CPP_HD constexpr IV crd2idx(DynTuple const& crd, DynTuple const& shape, DynTuple const& stride,
                                 LayoutError& e) noexcept {
  return crd2idx_at(crd, 0, shape, 0, stride, 0, e);
}
/// Checks 0 <= c < extent for each coordinate leaf against the (sub)shape it indexes.
CUTE_CPP_HD constexpr void check_coord_at(DynTuple const& crd, int ci, DynTuple const& sh, int si,
                                          LayoutError& e) noexcept {
  if (crd.node[ci].kind < 0) {
    if (crd.node[ci].flags & flag_underscore) return;
    IV p = dt::product(sh, si);
    long long c = crd.node[ci].v;
    if (c < 0 || c >= p.v) e.set(R::coord_range, c, p.v);
    return;
  }
  int r = crd.node[ci].kind;
  if (sh.node[si].kind != r) {
    e.set(R::coord_congruent, r, sh.node[si].kind < 0 ? 1 : sh.node[si].kind);
    return;
  }
  for (int k = 0; k < r; ++k) check_coord_at(crd, dt::child_pos(crd, ci, k), sh, dt::child_pos(sh, si, k), e);
}
CUTE_CPP_HD constexpr void check_coord(DynTuple const& crd, DynTuple const& shape, LayoutError& e) noexcept {
  check_coord_at(crd, 0, shape, 0, e);
}
/// L(crd).
CUTE_CPP_HD constexpr IV eval(LV const& l, DynTuple const& crd, LayoutError& e) noexcept {
  return crd2idx(crd, l.shape, l.stride, e);
}
/// cosize(L) = L(size(L) - 1) + 1.
CUTE_CPP_HD constexpr IV cosize(LV const& l, LayoutError& e) noexcept {
  IV s = size(l);
  IV last = eval(l, dt::leaf(s.v - 1, s.s), e);
  return dt::add(last, {1, true});
}
/// idx2crd(idx, shape): the natural (column-major) coordinate, congruent to shape.
CUTE_CPP_HD constexpr DynTuple idx2crd(IV idx, DynTuple const& shape) noexcept {
  DynTuple r = shape;
  IV p{1, true};
  for (int i = 0; i < r.n; ++i) {
    if (r.node[i].kind < 0) {
      IV s = node_iv(shape, i);
      IV q = dt::div(idx, p);
      IV c{s.v == 0 ? 0 : q.v % s.v, q.s && s.s};
      r.node[i] = dt::int_node(c);
      p = dt::mul(p, s);
    } else {
      r.node[i].flags = 0;
    }
  }
  return r;
}
/// idx2crd(idx, shape, stride): each leaf (idx / stride) % shape (inverse of a compact layout).
CUTE_CPP_HD constexpr DynTuple idx2crd_strided(IV idx, DynTuple const& shape, DynTuple const& stride) noexcept {
  DynTuple r = shape;
  for (int i = 0; i < r.n; ++i) {
    if (r.node[i].kind < 0) {
      IV s = node_iv(shape, i);
      IV q = dt::div(idx, node_iv(stride, i));
      IV c{s.v == 0 ? 0 : q.v % s.v, q.s && s.s};
      r.node[i] = dt::int_node(c);
    }
  }
  return r;
}

// ---- flatten, coalesce, filter ----

CUTE_CPP_HD constexpr LV flatten(LV const& l) noexcept { return {dt::flatten(l.shape), dt::flatten(l.stride)}; }

/// coalesce(L): merges adjacent modes with shape[i]*stride[i] == stride[i+1], drops size-1 modes.
CUTE_CPP_HD constexpr LV coalesce(LV const& l) noexcept {
  IV rs[DynTuple::capacity] = {};
  IV rd[DynTuple::capacity] = {};
  int m = 1;
  rs[0] = {1, true};
  rd[0] = {0, true};
  for (int i = 0; i < l.shape.n; ++i) {
    if (l.shape.node[i].kind >= 0) continue;
    IV s = node_iv(l.shape, i);
    IV d = node_iv(l.stride, i);
    if (s.v == 1) continue;
    if (rs[m - 1].v == 1) {
      rs[m - 1] = s;
      rd[m - 1] = d;
    } else if (dt::leaf_mul(rs[m - 1].v, rd[m - 1].v) == d.v && rd[m - 1].tag == d.tag) {
      rs[m - 1] = dt::mul(rs[m - 1], s);
    } else {
      rs[m] = s;
      rd[m] = d;
      ++m;
    }
  }
  if (m == 1) return lv_leaf(rs[0], rd[0]);
  LV r = lv_tuple();
  for (int k = 0; k < m; ++k) push(r, lv_leaf(rs[k], rd[k]));
  return r;
}
/// coalesce(L, profile): by mode where the profile is a tuple; the modes past it unchanged.
CUTE_CPP_HD constexpr LV coalesce(LV const& l, DynTuple const& profile, LayoutError& e) noexcept {
  if (profile.is_leaf()) return coalesce(l);
  int rp = profile.rank();
  if (rp > rank(l)) {
    e.set(R::profile_rank, rp, rank(l));
    return l;
  }
  LV r = lv_tuple();
  for (int k = 0; k < rp; ++k) push(r, coalesce(mode(l, k), dt::get(profile, k), e));
  for (int k = rp; k < rank(l); ++k) push(r, mode(l, k));
  return r;
}
/// filter(L): coalesce after dropping stride-0 and size-1 modes.
CUTE_CPP_HD constexpr LV filter(LV const& l) noexcept {
  LV r = lv_tuple();
  for (int i = 0; i < l.shape.n; ++i) {
    if (l.shape.node[i].kind >= 0) continue;
    IV s = node_iv(l.shape, i);
    IV d = node_iv(l.stride, i);
    if (s.v == 1 || d.v == 0) continue;
    push(r, lv_leaf(s, d));
  }
  if (rank(r) == 0) return lv_leaf({1, true}, {0, true});
  return coalesce(r);
}
CUTE_CPP_HD constexpr LV filter(LV const& l, DynTuple const& profile, LayoutError& e) noexcept {
  if (profile.is_leaf()) return filter(l);
  int rp = profile.rank();
  if (rp > rank(l)) {
    e.set(R::profile_rank, rp, rank(l));
    return l;
  }
  LV r = lv_tuple();
  for (int k = 0; k < rp; ++k) push(r, filter(mode(l, k), dt::get(profile, k), e));
  for (int k = rp; k < rank(l); ++k) push(r, mode(l, k));
  return r;
}

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

// ---- divides and products ----

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
struct ProductFn {
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& t, LayoutError& e) const noexcept {
    return logical_product(a, t, e);
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

/// make_ordered_layout(shape, order): compact strides assigned to the leaves in increasing
/// order (ties by position). ((2,3),4), ((1,0),2) -> ((2,3),4):((3,1),6)
CUTE_CPP_HD constexpr LV make_ordered_layout(DynTuple const& shape, DynTuple const& order, LayoutError& e) noexcept {
  if (dt::leaf_count(order) != dt::leaf_count(shape)) {
    e.set(R::congruent, dt::leaf_count(shape), dt::leaf_count(order));
    return make_layout_left(shape);
  }
  DynTuple stride = shape;
  int n = dt::leaf_count(shape);
  bool done[DynTuple::capacity] = {};
  IV run{1, true};
  for (int step = 0; step < n; ++step) {
    int best = -1;
    long long best_key = 0;
    for (int k = 0; k < n; ++k) {
      if (done[k]) continue;
      long long key = dt::leaf_at(order, k).v;
      if (best < 0 || key < best_key) {
        best = k;
        best_key = key;
      }
    }
    done[best] = true;
    int seen = 0;
    for (int i = 0; i < stride.n; ++i) {
      if (stride.node[i].kind >= 0) continue;
      if (seen++ == best) {
        IV s = node_iv(shape, i);
        stride.node[i] = dt::int_node(run);
        run = dt::mul(run, s);
        break;
      }
    }
  }
  return {shape, stride};
}
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
/// compatible(A, B): B's shape refines A's (same rank where A is a tuple, same size where A is
/// an integer): a coordinate of A is a coordinate of B.
CUTE_CPP_HD constexpr bool compatible(DynTuple const& a, int ai, DynTuple const& b, int bi) noexcept {
  if (a.node[ai].kind < 0) return dt::product(a, ai).v == dt::product(b, bi).v;
  if (b.node[bi].kind != a.node[ai].kind) return false;
  for (int k = 0; k < a.node[ai].kind; ++k)
    if (!compatible(a, dt::child_pos(a, ai, k), b, dt::child_pos(b, bi, k))) return false;
  return true;
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

// ---- modes ----

/// select(L, {i...}): the listed modes, in order.
CUTE_CPP_HD constexpr LV select(LV const& l, int const* idx, int count, LayoutError& e) noexcept {
  LV r = lv_tuple();
  for (int k = 0; k < count; ++k) {
    if (idx[k] < 0 || idx[k] >= rank(l)) {
      e.set(R::mode_index, idx[k], rank(l));
      return l;
    }
    push(r, mode(l, idx[k]));
  }
  return checked(r, e);
}
/// group(L, b, e): modes [b, e) gathered into one mode.
CUTE_CPP_HD constexpr LV group(LV const& l, int b, int en, LayoutError& e) noexcept {
  if (b < 0 || en > rank(l) || b > en) {
    e.set(R::mode_index, b < 0 ? b : en, rank(l));
    return l;
  }
  LV r = lv_tuple();
  for (int k = 0; k < b; ++k) push(r, mode(l, k));
  LV g = lv_tuple();
  for (int k = b; k < en; ++k) push(g, mode(l, k));
  push(r, g);
  for (int k = en; k < rank(l); ++k) push(r, mode(l, k));
  return checked(r, e);
}
/// take(L, b, e): modes [b, e).
CUTE_CPP_HD constexpr LV take(LV const& l, int b, int en, LayoutError& e) noexcept {
  if (b < 0 || en > rank(l) || b > en) {
    e.set(R::mode_index, b < 0 ? b : en, rank(l));
    return l;
  }
  LV r = lv_tuple();
  for (int k = b; k < en; ++k) push(r, mode(l, k));
  return checked(r, e);
}
/// append(L, M): M as a new last mode (a rank-1 L is first wrapped into a tuple).
CUTE_CPP_HD constexpr LV append(LV const& l, LV const& m, LayoutError& e) noexcept {
  LV r = is_leaf(l) ? wrap(l) : l;
  push(r, m);
  return checked(r, e);
}
CUTE_CPP_HD constexpr LV prepend(LV const& l, LV const& m, LayoutError& e) noexcept {
  LV r = wrap(m);
  if (is_leaf(l)) push(r, l);
  else
    for (int k = 0; k < rank(l); ++k) push(r, mode(l, k));
  return checked(r, e);
}

}  // namespace eng
}  // namespace cute_cpp
