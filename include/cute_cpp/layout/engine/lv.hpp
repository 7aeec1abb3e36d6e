// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/lv.hpp: LV, a layout as a value (shape and stride DynTuples); the eng::
// helpers every engine operation uses (mode, push, pair, wrap, checked, reject_basis); building
// layouts (make_layout, left, right, ordered); and evaluation: size, cosize, crd2idx, idx2crd,
// the coordinate checks and compatible.
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

/// compatible(A, B): B's shape refines A's (same rank where A is a tuple, same size where A is
/// an integer): a coordinate of A is a coordinate of B.
CUTE_CPP_HD constexpr bool compatible(DynTuple const& a, int ai, DynTuple const& b, int bi) noexcept {
  if (a.node[ai].kind < 0) return dt::product(a, ai).v == dt::product(b, bi).v;
  if (b.node[bi].kind != a.node[ai].kind) return false;
  for (int k = 0; k < a.node[ai].kind; ++k)
    if (!compatible(a, dt::child_pos(a, ai, k), b, dt::child_pos(b, bi, k))) return false;
  return true;
}

}  // namespace eng
}  // namespace cute_cpp
