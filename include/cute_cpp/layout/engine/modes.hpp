// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine/modes.hpp: the engine's mode operations on LV: flatten, coalesce and
// filter (with or without a profile), select, group, take, append, prepend.
#include <cute_cpp/config.hpp>                // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>           // LayoutError
#include <cute_cpp/layout/dyn_tuple.hpp>      // DynTuple, dt::
#include <cute_cpp/layout/engine/lv.hpp>      // LV, the eng:: helpers

namespace cute_cpp::eng {

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

}  // namespace cute_cpp::eng
