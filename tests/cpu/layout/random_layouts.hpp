// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Seeded generators of valid layouts for the property tests (dynamic, host only).
#include <algorithm>
#include <random>
#include <vector>
#include <cute_cpp/layout.hpp>

namespace cute_cpp::test {

class LayoutGenerator {
 public:
  explicit LayoutGenerator(unsigned seed) : rng_(seed) {}

  int pick(std::vector<int> const& xs) { return xs[std::uniform_int_distribution<int>(0, int(xs.size()) - 1)(rng_)]; }
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(int percent) { return uniform(0, 99) < percent; }

  /// A random shape: rank 1..3, depth <= 2, leaves from {1,2,3,4,6,8}, size <= max_size.
  DynTuple shape(long long max_size = 256) {
    for (;;) {
      DynTuple s = shape_node(0);
      if (dt::product(s).v <= max_size) return s;
    }
  }
  /// An injective layout: strides are running products in a random order of the leaves,
  /// with random gaps (factor 1 or 2), so complement and inverses are exact.
  DynLayout injective(long long max_size = 256) {
    DynTuple s = shape(max_size);
    DynTuple d = s;
    std::vector<int> leaves;
    for (int i = 0; i < s.n; ++i)
      if (s.node[i].kind < 0) leaves.push_back(i);
    std::shuffle(leaves.begin(), leaves.end(), rng_);
    long long run = 1;
    for (int i : leaves) {
      run *= coin(25) ? 2 : 1;
      d.node[i].v = run;
      d.node[i].flags = 0;
      run *= s.node[i].v;
    }
    return DynLayout{s, d};
  }
  /// Any layout: strides from {0,1,2,3,4,8,16}.
  DynLayout any(long long max_size = 256) {
    DynTuple s = shape(max_size);
    DynTuple d = s;
    for (int i = 0; i < s.n; ++i)
      if (s.node[i].kind < 0) d.node[i].v = pick({0, 1, 2, 3, 4, 8, 16});
    return DynLayout{s, d};
  }
  /// A compact column-major layout of a random shape, optionally with random static marks.
  DynLayout compact(long long max_size = 256) { return make_dyn_layout(eng::make_layout_left(shape(max_size))); }
  /// Random static marks on the leaves (for notation round trips).
  DynTuple marked(DynTuple t) {
    for (int i = 0; i < t.n; ++i)
      if (t.node[i].kind < 0 && coin(50)) t.node[i].flags |= flag_static;
    return t;
  }

 private:
  DynTuple shape_node(int depth) {
    if (depth >= 2 || coin(depth == 0 ? 25 : 65)) return dt::leaf(pick({1, 2, 2, 3, 4, 4, 6, 8}), false);
    DynTuple t;
    int r = uniform(1, 3);
    for (int k = 0; k < r; ++k) dt::push(t, shape_node(depth + 1));
    return t;
  }
  std::mt19937 rng_;
};

/// Every value of a layout over its domain.
inline std::vector<long long> image(DynLayout const& l) {
  LV v = layout_value(l);
  std::vector<long long> out;
  long long n = eng::size(v).v;
  diag::LayoutError e;
  for (long long i = 0; i < n; ++i) out.push_back(eng::eval(v, dt::leaf(i, false), e).v);
  return out;
}

}  // namespace cute_cpp::test
