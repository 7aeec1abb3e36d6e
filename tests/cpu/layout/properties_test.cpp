// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The algebra's laws over seeded random layouts (dynamic layouts through the public API).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <cute_cpp/layout.hpp>
#include "cpu/layout/random_layouts.hpp"

namespace cc = cute_cpp;
using cc::test::image;

namespace {
constexpr unsigned kSeed = 20261130;
constexpr int kTrials = 1500;

std::string str(cc::DynLayout const& l) { return cc::to_string(l); }
long long sz(cc::DynLayout const& l) { return cc::size(l); }
}  // namespace

// @post composition(A, B)(i) == A(B(i)) for every i < size(B).
TEST(LayoutLaws, CompositionIsFunctionComposition) {
  cc::test::LayoutGenerator gen{kSeed};
  int checked = 0;
  for (int trial = 0; trial < kTrials * 4 && checked < kTrials; ++trial) {
    cc::DynLayout a = gen.coin(50) ? gen.injective() : gen.any();
    cc::DynLayout b = gen.coin(50) ? gen.injective(64) : gen.compact(64);
    if (cc::cosize(b) > sz(a)) continue;
    cc::DynLayout r;
    try {
      r = cc::composition(a, b);
    } catch (std::invalid_argument const&) {
      continue;  // shapes that do not divide: the error path is tested elsewhere
    }
    ++checked;
    SCOPED_TRACE(str(a) + " o " + str(b) + " = " + str(r));
    ASSERT_EQ(sz(r), sz(b));
    ASSERT_TRUE(cc::compatible(b, r));
    for (long long i = 0; i < sz(b); ++i) ASSERT_EQ(r(i), a(b(i))) << "at i = " << i;
  }
  EXPECT_GE(checked, kTrials / 2);
}

// A tiler of the same rank composes mode by mode.
TEST(LayoutLaws, CompositionWithTilerIsByMode) {
  cc::test::LayoutGenerator gen{kSeed + 1};
  for (int trial = 0; trial < 300; ++trial) {
    cc::DynLayout a = cc::parse_layout("(" + std::to_string(gen.pick({2, 4, 8})) + "," +
                                       std::to_string(gen.pick({2, 4, 6})) + "):(1," +
                                       std::to_string(gen.pick({8, 16})) + ")");
    cc::LV t = cc::parse_tiler("(" + std::to_string(gen.pick({1, 2})) + ":" + std::to_string(gen.pick({1, 2})) + "," +
                               std::to_string(gen.pick({1, 2})) + ")");
    cc::DynLayout r;
    try {
      r = cc::composition(a, cc::make_dyn_layout(t));
    } catch (std::invalid_argument const&) {
      continue;
    }
    SCOPED_TRACE(str(a) + " o " + cc::to_string(t) + " = " + str(r));
    for (int m = 0; m < 2; ++m) {
      cc::LV am = cc::eng::mode(cc::layout_value(a), m);
      cc::LV tm = cc::eng::mode(t, m);
      cc::diag::LayoutError e;
      EXPECT_EQ(cc::to_string(cc::eng::mode(cc::layout_value(r), m)), cc::to_string(cc::eng::composition(am, tm, e)));
    }
  }
}

// @post (A, complement(A, M)) is a bijection onto [0, N) with N >= M; the images meet only at 0.
TEST(LayoutLaws, ComplementIsDisjointAndCovers) {
  cc::test::LayoutGenerator gen{kSeed + 2};
  for (int trial = 0; trial < kTrials; ++trial) {
    cc::DynLayout a = gen.injective();
    long long m = cc::cosize(a) * gen.pick({1, 2, 3, 4});
    cc::DynLayout c = cc::complement(a, m);
    SCOPED_TRACE(str(a) + " complement to " + std::to_string(m) + " = " + str(c));
    std::vector<long long> ia = image(a), ic = image(c);
    std::set<long long> sa(ia.begin(), ia.end()), sc(ic.begin(), ic.end());
    for (long long x : sc) ASSERT_TRUE(x == 0 || !sa.count(x)) << "shared offset " << x;
    cc::DynLayout ac = cc::make_layout(a, c);
    std::vector<long long> all = image(ac);
    std::sort(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], (long long)i);
    ASSERT_GE((long long)all.size(), m);
  }
}

// @post L(right_inverse(L)(i)) == i for i < size(right_inverse(L)); R(L(i)) == i for the left inverse.
TEST(LayoutLaws, InversesInvert) {
  cc::test::LayoutGenerator gen{kSeed + 3};
  for (int trial = 0; trial < kTrials; ++trial) {
    cc::DynLayout l = gen.coin(50) ? gen.injective() : gen.any();
    cc::DynLayout r = cc::right_inverse(l);
    SCOPED_TRACE(str(l) + " right_inverse " + str(r));
    for (long long i = 0; i < sz(r); ++i) ASSERT_EQ(l(r(i)), i);
    cc::DynLayout inj = gen.injective();
    cc::DynLayout li = cc::left_inverse(inj);
    SCOPED_TRACE(str(inj) + " left_inverse " + str(li));
    for (long long i = 0; i < sz(inj); ++i) ASSERT_EQ(li(inj(i)), i);
  }
}

// coalesce keeps the function and the size; filter keeps the set of offsets.
TEST(LayoutLaws, CoalesceAndFilterKeepTheFunction) {
  cc::test::LayoutGenerator gen{kSeed + 4};
  for (int trial = 0; trial < kTrials; ++trial) {
    cc::DynLayout l = gen.any();
    cc::DynLayout c = cc::coalesce(l);
    SCOPED_TRACE(str(l) + " coalesce " + str(c));
    ASSERT_EQ(image(c), image(l));
    ASSERT_LE(int(cc::depth(c)), 1);
    cc::DynLayout f = cc::filter(l);
    std::vector<long long> il = image(l), iff = image(f);
    ASSERT_EQ(std::set<long long>(il.begin(), il.end()), std::set<long long>(iff.begin(), iff.end()));
    cc::DynLayout fl = cc::flatten(l);
    ASSERT_EQ(image(fl), image(l));
  }
}

// zipped_divide(A, T)((i, j)) == A(T*(i + size(T) j)), T* = (T, complement(T, size(A))); same offsets as A.
TEST(LayoutLaws, DividesFollowTheirDefinition) {
  cc::test::LayoutGenerator gen{kSeed + 5};
  int checked = 0;
  for (int trial = 0; trial < kTrials * 2 && checked < kTrials / 2; ++trial) {
    cc::DynLayout a = gen.injective();
    cc::DynLayout t = gen.compact(16);
    if (sz(a) % sz(t) != 0) continue;
    cc::DynLayout z, ld, tiled, flat;
    try {
      z = cc::zipped_divide(a, t);
      ld = cc::logical_divide(a, t);
      tiled = cc::tiled_divide(a, t);
      flat = cc::flat_divide(a, t);
    } catch (std::invalid_argument const&) {
      continue;
    }
    ++checked;
    SCOPED_TRACE(str(a) + " / " + str(t) + " = " + str(z));
    cc::DynLayout full = cc::make_layout(t, cc::complement(t, sz(a)));
    ASSERT_EQ(sz(z), sz(full));
    for (long long i = 0; i < sz(z); ++i) ASSERT_EQ(z(i), a(full(i)));
    ASSERT_EQ(image(ld), image(z));
    ASSERT_EQ(image(tiled), image(z));
    ASSERT_EQ(image(flat), image(z));
  }
  EXPECT_GE(checked, 100);
}

// logical_product(A, B)((i, j)) == A(i) + complement(A, size(A)*cosize(B))(B(j)).
TEST(LayoutLaws, ProductsFollowTheirDefinition) {
  cc::test::LayoutGenerator gen{kSeed + 6};
  int checked = 0;
  for (int trial = 0; trial < kTrials * 2 && checked < kTrials / 2; ++trial) {
    cc::DynLayout a = gen.injective(32);
    cc::DynLayout b = gen.compact(16);
    cc::DynLayout p, blocked, raked, zipped;
    try {
      p = cc::logical_product(a, b);
      blocked = cc::blocked_product(a, b);
      raked = cc::raked_product(a, b);
      zipped = cc::zipped_product(a, b);
    } catch (std::invalid_argument const&) {
      continue;
    }
    ++checked;
    SCOPED_TRACE(str(a) + " x " + str(b) + " = " + str(p));
    cc::DynLayout c = cc::complement(a, sz(a) * cc::cosize(b));
    for (long long j = 0; j < sz(b); ++j)
      for (long long i = 0; i < sz(a); ++i) ASSERT_EQ(p(i + sz(a) * j), a(i) + c(b(j)));
    std::vector<long long> ip = image(p), ib = image(blocked), ir = image(raked), iz = image(zipped);
    std::sort(ip.begin(), ip.end());
    std::sort(ib.begin(), ib.end());
    std::sort(ir.begin(), ir.end());
    std::sort(iz.begin(), iz.end());
    ASSERT_EQ(ib, ip);
    ASSERT_EQ(ir, ip);
    ASSERT_EQ(iz, ip);
  }
  EXPECT_GE(checked, 100);
}

// Swizzle<B,M,S> is a bijection on [0, 2^(B+M+|S|)) and its own inverse.
TEST(LayoutLaws, SwizzleIsABijection) {
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = b; s <= b + 3; ++s) {
        cc::SwizzleV sw{b, m, s};
        long long n = 1LL << (b + m + s);
        std::vector<char> seen(std::size_t(n), 0);
        for (long long i = 0; i < n; ++i) {
          long long y = sw(i);
          ASSERT_TRUE(y >= 0 && y < n);
          ASSERT_FALSE(seen[std::size_t(y)]) << cc::to_string(sw) << " at " << i;
          seen[std::size_t(y)] = 1;
          ASSERT_EQ(sw(y), i);
        }
      }
}

// print(parse(s)) == s, static marks included.
TEST(LayoutNotation, RoundTrips) {
  cc::test::LayoutGenerator gen{kSeed + 7};
  for (int trial = 0; trial < kTrials; ++trial) {
    cc::DynLayout l = gen.any();
    l.shape_ = gen.marked(l.shape_);
    l.stride_ = gen.marked(l.stride_);
    std::string s = cc::to_string(l);
    SCOPED_TRACE(s);
    ASSERT_EQ(cc::to_string(cc::parse_layout(s)), s);
    ASSERT_EQ(cc::to_string(cc::parse_int_tuple(cc::to_string(l.shape_))), cc::to_string(l.shape_));
  }
  for (std::string s : {"(4,(2,3)):(1,(8,4))", "(_4,_8):(_8,_1)", "(4):(1)", "((2,2),(_1)):((1,2),(_0))", "_1:_0",
                        "(-2,3):(-1,4)", "():()", "(100,64):(_1@0,_1@1)"})
    EXPECT_EQ(cc::to_string(cc::parse_layout(s)), s);
  for (std::string s : {"Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,0,-2> o _16 o (_8,_8):(_8,_1)"})
    EXPECT_EQ(cc::to_string(cc::parse_composed(s)), s);
  EXPECT_EQ(cc::to_string(cc::parse_tiler("(3:4, 8, _)")), "(3:4,8:_1,_)");
}

// max_common_vector / max_common_layout.
TEST(LayoutLaws, MaxCommonVector) {
  cc::test::LayoutGenerator gen{kSeed + 8};
  for (int trial = 0; trial < 500; ++trial) {
    cc::DynLayout a = gen.injective(64);
    cc::DynLayout b = gen.compact(64);
    if (sz(a) != sz(b)) continue;
    long long v;
    cc::DynLayout common;
    try {
      v = cc::max_common_vector(a, b);
      common = cc::max_common_layout(a, b);
    } catch (std::invalid_argument const&) {
      continue;
    }
    SCOPED_TRACE(str(a) + " , " + str(b) + " -> " + std::to_string(v) + " " + str(common));
    ASSERT_GE(v, 1);
    ASSERT_EQ(sz(a) % v, 0);
    if (v > 1) {
      ASSERT_EQ(sz(common), v);
      for (long long i = 0; i < v; ++i) {
        ASSERT_EQ(a(common(i)), i);
        ASSERT_EQ(b(common(i)), i);
      }
    }
  }
}

// tile_to_shape(block, shape): covers shape exactly, and its first block is the block itself.
TEST(LayoutLaws, TileToShapeRepeatsTheBlock) {
  cc::test::LayoutGenerator gen{kSeed + 9};
  for (int trial = 0; trial < 500; ++trial) {
    int bm = gen.pick({1, 2, 4, 8}), bn = gen.pick({1, 2, 4, 8});
    cc::DynLayout block = gen.coin(50) ? cc::parse_layout("(" + std::to_string(bm) + "," + std::to_string(bn) + "):(1," + std::to_string(bm) + ")")
                                       : cc::parse_layout("(" + std::to_string(bm) + "," + std::to_string(bn) + "):(" + std::to_string(bn) + ",1)");
    int m = bm * gen.pick({1, 2, 3}), n = bn * gen.pick({1, 2, 4});
    cc::DynLayout t = cc::tile_to_shape(block, cc::make_shape(m, n));
    SCOPED_TRACE(str(block) + " to (" + std::to_string(m) + "," + std::to_string(n) + ") = " + str(t));
    ASSERT_EQ(sz(t), (long long)m * n);
    ASSERT_TRUE(cc::compatible(cc::make_shape(m, n), t));
    for (int i = 0; i < bm; ++i)
      for (int j = 0; j < bn; ++j) ASSERT_EQ(t(cc::make_coord(i, j)), block(cc::make_coord(i, j)));
    std::vector<long long> img = image(t);
    std::sort(img.begin(), img.end());
    for (std::size_t k = 0; k < img.size(); ++k) ASSERT_EQ(img[k], (long long)k);
  }
}

// downcast<N>(upcast<N>(L)) == L for layouts whose contiguous extents and strides divide by N;
// make_ordered_layout is a compact bijection.
TEST(LayoutLaws, RecastAndOrderedLayouts) {
  cc::test::LayoutGenerator gen{kSeed + 10};
  for (int trial = 0; trial < 500; ++trial) {
    cc::DynLayout l = gen.compact(64);
    cc::DynLayout wide = cc::downcast<2>(l);
    SCOPED_TRACE(str(l) + " downcast " + str(wide));
    ASSERT_EQ(cc::to_string(cc::coalesce(cc::upcast<2>(wide))), cc::to_string(cc::coalesce(l)));
    cc::DynTuple order = cc::test::LayoutGenerator{kSeed + unsigned(trial)}.shape(1 << 20);
    cc::DynTuple shape = l.shape_;
    if (cc::dt::leaf_count(order) != cc::dt::leaf_count(shape)) continue;
    cc::DynLayout o = cc::make_ordered_layout(shape, order);
    std::vector<long long> img = image(o);
    std::sort(img.begin(), img.end());
    for (std::size_t k = 0; k < img.size(); ++k) ASSERT_EQ(img[k], (long long)k);
  }
}
