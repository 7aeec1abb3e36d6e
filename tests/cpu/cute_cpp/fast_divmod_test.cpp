// SPDX-License-Identifier: Apache-2.0
// FastDivmod agrees with / and % for every divisor up to 4096 and the largest ones, on values from
// 0 to 2^31 - 1 (the edges and a seeded spread between).
#include <cute_cpp/sched/fast_divmod.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

void expect_exact(std::uint32_t d, std::vector<std::uint32_t> const& values) {
  cute_cpp::FastDivmod const f(d);
  for (std::uint32_t n : values) {
    std::uint32_t q = 0, r = 0;
    f.divmod(n, q, r);
    ASSERT_EQ(q, n / d) << n << " / " << d;
    ASSERT_EQ(r, n % d) << n << " % " << d;
  }
}

TEST(FastDivmod, AgreesWithDivisionBelow2To31) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::uint32_t> any(0, 0x7FFFFFFFu);
  std::vector<std::uint32_t> values = {0, 1, 2, 3, 0x7FFFFFFEu, 0x7FFFFFFFu};
  for (int i = 0; i < 2000; ++i) values.push_back(any(rng));
  for (std::uint32_t d = 1; d <= 4096; ++d) {
    std::vector<std::uint32_t> v = values;
    for (std::uint32_t k : {1u, 2u, 1000u, 1u << 20}) {  // around multiples of d
      std::uint64_t const m = std::uint64_t(k) * d;
      for (std::int64_t e = -1; e <= 1; ++e)
        if (m + e < 0x80000000u) v.push_back(std::uint32_t(m + e));
    }
    expect_exact(d, v);
  }
  for (std::uint32_t d : {65535u, 65536u, 65537u, 0x40000000u, 0x7FFFFFFEu, 0x7FFFFFFFu}) expect_exact(d, values);
}

static_assert(cute_cpp::FastDivmod(7).divide(100) == 14 && cute_cpp::FastDivmod(1).divide(99) == 99);

}  // namespace
