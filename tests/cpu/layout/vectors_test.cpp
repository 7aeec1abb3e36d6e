// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Every case of shared/layout-vectors through parse -> algebra -> print (layout/expression.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <cute_cpp/layout/expression.hpp>
#include "support/layout_vectors.hpp"

namespace cc = cute_cpp;

TEST(LayoutVectors, EveryCaseMatchesTheReference) {
  auto const cases = cc::test::load_layout_vectors();
  ASSERT_FALSE(cases.empty()) << "no vectors at " << cc::test::layout_vectors_path();
  int exact = 0, size1 = 0, failed = 0;
  std::map<std::string, int> size1_by_op, failed_by_op;
  for (auto const& v : cases) {
    SCOPED_TRACE(v.line);
    std::string got;
    try {
      got = cc::evaluate_layout_op(v.op, v.args, /*marks=*/false);
    } catch (std::exception const& ex) {
      got = std::string("error: ") + ex.what();
    }
    if (cc::test::normalize(got) == cc::test::normalize(v.expect)) {
      ++exact;
    } else if (!cc::test::size1_strides_zeroed(got).empty() &&
               cc::test::size1_strides_zeroed(got) == cc::test::size1_strides_zeroed(v.expect)) {
      ++size1;
      ++size1_by_op[v.op];
    } else {
      ++failed;
      ++failed_by_op[v.op];
      ADD_FAILURE() << v.id << ": got " << got << ", expected " << v.expect;
    }
  }
  std::printf("layout vectors: %zu cases, %d exact, %d equal up to size-1 strides, %d failed\n", cases.size(),
              exact, size1, failed);
  for (auto const& [op, n] : size1_by_op) std::printf("  size-1 stride convention: %s %d\n", op.c_str(), n);
  for (auto const& [op, n] : failed_by_op) std::printf("  failed: %s %d\n", op.c_str(), n);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(std::size_t(exact + size1), cases.size());
}
