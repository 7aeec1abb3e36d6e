// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/dyn_tuple.hpp: DynTuple, a hierarchical int tuple held as a value (a
// fixed-capacity tree in preorder). It is the engine of the algebra: every operation is written
// once on DynTuple values, runs at run time for dynamic inputs, and runs in constant evaluation
// for static inputs, whose result is then lifted back to C<> / Tuple<> types. Each leaf keeps a
// "static" mark (printed `_N`), and a node may be `_` or, in a tiler, a by-mode tuple.
#include <cstdint>  // int64_t
#include <limits>   // numeric_limits
#include <type_traits>  // is_constant_evaluated
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

namespace cute_cpp {

/// One node of a DynTuple: a leaf (kind < 0) with a value, or a tuple of `kind` children.
struct DynNode {
  long long v = 0;
  signed char kind = -1;
  unsigned char flags = 0;  // flag_static | flag_underscore | flag_tiler
  signed char tag = -1;     // stride leaf: v times the run-time stride `tag` of the input (-1: none)
};

inline constexpr unsigned char flag_static = 1;      // leaf: known at compile time (`_N`)
inline constexpr unsigned char flag_underscore = 2;  // leaf: `_`
inline constexpr unsigned char flag_tiler = 4;       // tuple: a by-mode tiler, not a layout mode

/// A leaf value with its static mark.
struct IV {
  long long v = 0;
  bool s = false;
  int tag = -1;  // v is a multiple of the input's run-time stride `tag` (symbolic strides)
};

/// A hierarchical int tuple as a value. Structural (usable as a template argument), constexpr,
/// host and device. Default-constructed: the empty tuple `()`.
struct DynTuple {
  static constexpr int capacity = 32;
  DynNode node[capacity] = {};
  int n = 1;
  bool overflow = false;

  CUTE_CPP_HD constexpr DynTuple() noexcept { node[0].kind = 0; }

  CUTE_CPP_HD constexpr bool is_leaf() const noexcept { return node[0].kind < 0; }
  CUTE_CPP_HD constexpr bool is_underscore() const noexcept {
    return is_leaf() && (node[0].flags & flag_underscore);
  }
  CUTE_CPP_HD constexpr bool is_tiler() const noexcept { return !is_leaf() && (node[0].flags & flag_tiler); }
  /// rank: 1 for a leaf, the number of children for a tuple.
  CUTE_CPP_HD constexpr int rank() const noexcept { return is_leaf() ? 1 : node[0].kind; }
  CUTE_CPP_HD constexpr IV value() const noexcept {
    return {node[0].v, (node[0].flags & flag_static) != 0, node[0].tag};
  }
  CUTE_CPP_HD constexpr bool operator==(DynTuple const& o) const noexcept {
    if (n != o.n) return false;
    for (int i = 0; i < n; ++i)
      if (node[i].v != o.node[i].v || node[i].kind != o.node[i].kind || node[i].flags != o.node[i].flags ||
          node[i].tag != o.node[i].tag)
        return false;
    return true;
  }
};

namespace dt {

/// The integer leaf node of x's value and staticness (no stride symbol).
CUTE_CPP_HD constexpr DynNode int_node(IV x) noexcept { return DynNode{x.v, -1, x.s ? flag_static : (unsigned char)0}; }
CUTE_CPP_HD constexpr DynTuple leaf(IV x) noexcept {
  DynTuple t;
  t.node[0] = DynNode{x.v, -1, x.s ? flag_static : (unsigned char)0, (signed char)x.tag};
  return t;
}
CUTE_CPP_HD constexpr DynTuple leaf(long long v, bool s) noexcept { return leaf(IV{v, s}); }
CUTE_CPP_HD constexpr DynTuple underscore() noexcept {
  DynTuple t;
  t.node[0] = DynNode{0, -1, flag_underscore};
  return t;
}
/// The empty tuple `()`; push() children onto it.
CUTE_CPP_HD constexpr DynTuple tuple() noexcept { return DynTuple{}; }

/// One past the last node of the subtree rooted at i.
CUTE_CPP_HD constexpr int subtree_end(DynTuple const& t, int i) noexcept {
  int need = 1;
  while (need > 0 && i < t.n) {
    need -= 1;
    if (t.node[i].kind > 0) need += t.node[i].kind;
    ++i;
  }
  return i;
}
/// Position of child k of the tuple node at i.
CUTE_CPP_HD constexpr int child_pos(DynTuple const& t, int i, int k) noexcept {
  int p = i + 1;
  for (int j = 0; j < k; ++j) p = subtree_end(t, p);
  return p;
}
CUTE_CPP_HD constexpr DynTuple subtree(DynTuple const& t, int i) noexcept {
  DynTuple r;
  int e = subtree_end(t, i);
  r.n = e - i;
  for (int j = i; j < e; ++j) r.node[j - i] = t.node[j];
  r.overflow = t.overflow;
  return r;
}
/// get(t, k): child k of a tuple; for a leaf, get(t, 0) is t.
CUTE_CPP_HD constexpr DynTuple get(DynTuple const& t, int k) noexcept {
  if (t.is_leaf()) return t;
  return subtree(t, child_pos(t, 0, k));
}
/// Appends c as the last child of the tuple t (a leaf t is first wrapped into `(t)`).
CUTE_CPP_HD constexpr void push(DynTuple& t, DynTuple const& c) noexcept {
  if (t.n + c.n > DynTuple::capacity) {
    t.overflow = true;
    return;
  }
  for (int j = 0; j < c.n; ++j) t.node[t.n + j] = c.node[j];
  t.n += c.n;
  t.node[0].kind += 1;
  t.overflow = t.overflow || c.overflow;
}
CUTE_CPP_HD constexpr DynTuple wrap(DynTuple const& a) noexcept {
  DynTuple r;
  push(r, a);
  return r;
}
CUTE_CPP_HD constexpr DynTuple pair(DynTuple const& a, DynTuple const& b) noexcept {
  DynTuple r;
  push(r, a);
  push(r, b);
  return r;
}
/// Prepends c as the first child.
CUTE_CPP_HD constexpr DynTuple prepend(DynTuple const& t, DynTuple const& c) noexcept {
  DynTuple r;
  push(r, c);
  for (int k = 0; k < t.rank(); ++k) push(r, get(t, k));
  return r;
}
/// Leaves in order (the preorder order is the flattening order).
CUTE_CPP_HD constexpr int leaf_count(DynTuple const& t) noexcept {
  int c = 0;
  for (int i = 0; i < t.n; ++i) c += t.node[i].kind < 0;
  return c;
}
CUTE_CPP_HD constexpr IV leaf_at(DynTuple const& t, int k) noexcept {
  for (int i = 0; i < t.n; ++i)
    if (t.node[i].kind < 0 && k-- == 0) return {t.node[i].v, (t.node[i].flags & flag_static) != 0};
  return {};
}
CUTE_CPP_HD constexpr DynTuple flatten(DynTuple const& t) noexcept {
  if (t.is_leaf()) return t;
  DynTuple r;
  for (int i = 0; i < t.n; ++i)
    if (t.node[i].kind < 0) push(r, subtree(t, i));
  r.overflow = r.overflow || t.overflow;
  return r;
}
CUTE_CPP_HD constexpr int depth(DynTuple const& t, int i = 0) noexcept {
  if (t.node[i].kind < 0) return 0;
  int d = 0;
  for (int k = 0; k < t.node[i].kind; ++k) {
    int c = depth(t, child_pos(t, i, k));
    d = c > d ? c : d;
  }
  return d + 1;
}
CUTE_CPP_HD constexpr bool all_static(DynTuple const& t) noexcept {
  for (int i = 0; i < t.n; ++i)
    if (t.node[i].kind < 0 && !(t.node[i].flags & (flag_static | flag_underscore))) return false;
  return true;
}
/// Same tree shape (leaf for leaf, rank for rank).
CUTE_CPP_HD constexpr bool congruent(DynTuple const& a, DynTuple const& b) noexcept {
  if (a.n != b.n) return false;
  for (int i = 0; i < a.n; ++i)
    if ((a.node[i].kind < 0 ? -1 : a.node[i].kind) != (b.node[i].kind < 0 ? -1 : b.node[i].kind)) return false;
  return true;
}
/// A copy of t with every leaf set to x.
CUTE_CPP_HD constexpr DynTuple fill(DynTuple const& t, IV x) noexcept {
  DynTuple r = t;
  for (int i = 0; i < r.n; ++i)
    if (r.node[i].kind < 0) r.node[i] = int_node(x);
    else r.node[i].flags = 0;
  return r;
}

// ---- leaf arithmetic, keeping the static mark ----

/// Set when a product or sum of leaves overflowed 64 bits at run time on the host (the layout
/// tool's evaluator reads and clears it, and reports the expression as too large). Host only.
inline bool& arithmetic_overflowed() noexcept {
  thread_local bool overflowed = false;
  return overflowed;
}

/// a * b and a + b of leaf values. In constant evaluation (and on the device) the plain operation,
/// so that an overflow there stays a compile error; at run time on the host the wrapped result,
/// with arithmetic_overflowed() set, instead of undefined behaviour.
CUTE_CPP_HD constexpr long long leaf_mul(long long a, long long b) noexcept {
#if defined(__CUDA_ARCH__)
  return a * b;
#else
  if (std::is_constant_evaluated()) return a * b;
  auto const r = static_cast<long long>(static_cast<unsigned long long>(a) * static_cast<unsigned long long>(b));
  if (a == -1 ? b == std::numeric_limits<long long>::min() : a != 0 && r / a != b) arithmetic_overflowed() = true;
  return r;
#endif
}
CUTE_CPP_HD constexpr long long leaf_add(long long a, long long b) noexcept {
#if defined(__CUDA_ARCH__)
  return a + b;
#else
  if (std::is_constant_evaluated()) return a + b;
  auto const r = static_cast<long long>(static_cast<unsigned long long>(a) + static_cast<unsigned long long>(b));
  if ((a > 0 && b > 0 && r < 0) || (a < 0 && b < 0 && r >= 0)) arithmetic_overflowed() = true;
  return r;
#endif
}

CUTE_CPP_HD constexpr IV mul(IV a, IV b) noexcept {
  return {leaf_mul(a.v, b.v), a.s && b.s, a.tag >= 0 && b.tag >= 0 ? -2 : (a.tag >= 0 ? a.tag : b.tag)};
}
CUTE_CPP_HD constexpr IV add(IV a, IV b) noexcept { return {leaf_add(a.v, b.v), a.s && b.s}; }
CUTE_CPP_HD constexpr IV div(IV a, IV b) noexcept { return {b.v == 0 ? 0 : a.v / b.v, a.s && b.s}; }
CUTE_CPP_HD constexpr IV ceil_div(IV a, IV b) noexcept {
  return {b.v == 0 ? 0 : leaf_add(a.v, b.v - 1) / b.v, a.s && b.s};
}
CUTE_CPP_HD constexpr IV min(IV a, IV b) noexcept { return {a.v < b.v ? a.v : b.v, a.s && b.s}; }
CUTE_CPP_HD constexpr long long abs(long long a) noexcept { return a < 0 ? -a : a; }

/// Product of the leaves (static when every leaf is).
CUTE_CPP_HD constexpr IV product(DynTuple const& t, int i = 0) noexcept {
  IV r{1, true};
  int e = subtree_end(t, i);
  for (int j = i; j < e; ++j)
    if (t.node[j].kind < 0) r = mul(r, {t.node[j].v, (t.node[j].flags & flag_static) != 0});
  return r;
}
/// Product of each top-level mode: (2,(3,4)) -> (2,12).
CUTE_CPP_HD constexpr DynTuple product_each(DynTuple const& t) noexcept {
  if (t.is_leaf()) return t;
  DynTuple r;
  for (int k = 0; k < t.rank(); ++k) push(r, leaf(product(t, child_pos(t, 0, k))));
  return r;
}
/// Exclusive prefix product over the leaves, congruent to t: (2,(3,4)) -> (1,(2,6)).
CUTE_CPP_HD constexpr DynTuple prefix_product(DynTuple const& t, IV init = {1, true}) noexcept {
  DynTuple r = t;
  for (int i = 0; i < r.n; ++i) {
    if (r.node[i].kind < 0) {
      IV x{r.node[i].v, (r.node[i].flags & flag_static) != 0};
      r.node[i] = int_node(init);
      init = mul(init, x);
    }
  }
  return r;
}
/// Exclusive suffix product over the leaves (compact row-major strides): (2,(3,4)) -> (12,(4,1)).
CUTE_CPP_HD constexpr DynTuple suffix_product(DynTuple const& t, IV init = {1, true}) noexcept {
  DynTuple r = t;
  for (int i = r.n - 1; i >= 0; --i) {
    if (r.node[i].kind < 0) {
      IV x{r.node[i].v, (r.node[i].flags & flag_static) != 0};
      r.node[i] = int_node(init);
      init = mul(init, x);
    }
  }
  return r;
}

}  // namespace dt
}  // namespace cute_cpp
