// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// tests/support's random_values and parallel_for: a run's seed replays its inputs, the values fill
// [lo, hi) with no zeros and every part of it, and parallel_for runs every job exactly once.
#include "tests/support/check.hpp"
#include "tests/support/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using cute_cpp::kernels::random_values;

TEST(RandomValues, TheSeedReplaysThemAndAnotherSeedDoesNot) {
  std::mt19937_64 a(7), b(7), c(8);
  // Past one 64K chunk, so that several workers fill them.
  std::size_t const n = (std::size_t(1) << 17) + 3;
  auto const x = random_values<double>(n, a), y = random_values<double>(n, b), z = random_values<double>(n, c);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  // One draw from the generator a call: the next call differs from the first.
  EXPECT_NE(random_values<double>(16, a), std::vector<double>(x.begin(), x.begin() + 16));
}

TEST(RandomValues, FillTheRangeWithoutZeros) {
  std::mt19937_64 rng(11);
  auto const v = random_values<double>(200000, rng, -3.0, 1.0);
  std::vector<int> buckets(8, 0);
  for (double x : v) {
    ASSERT_GE(x, -3.0);
    ASSERT_LT(x, 1.0);
    ASSERT_NE(x, 0.0);
    ++buckets[std::size_t((x + 3.0) / 0.5)];
  }
  // Uniform: each eighth of the range holds 25000 values, give or take a few hundred.
  for (int count : buckets) EXPECT_NEAR(count, 25000, 1000);
}

TEST(ParallelFor, RunsEveryJobOnce) {
  for (std::size_t jobs : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(1000)}) {
    std::vector<std::atomic<int>> runs(jobs);
    cute_cpp::test::parallel_for(jobs, [&](std::size_t j) { runs[j].fetch_add(1); });
    for (std::size_t j = 0; j < jobs; ++j) EXPECT_EQ(runs[j].load(), 1) << "job " << j << " of " << jobs;
  }
}

}  // namespace
