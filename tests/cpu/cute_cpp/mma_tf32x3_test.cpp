// SPDX-License-Identifier: Apache-2.0
// warp::MmaTF32x3Op's operand split (include/cute_cpp/mma/mma_sync.hpp), on the host: the head and tail
// are valid tf32 bit patterns (the low 13 bits clear), they give back x to 2^-20 of it, and the three
// products the atom sums give a x b to about f32's accuracy where one tf32 product is 2^-10 off.
#include <cute_cpp/mma/mma_sync.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace {

using Op = cute_cpp::warp::MmaTF32x3Op;

float as_float(std::uint32_t bits) { return std::bit_cast<float>(bits); }

/// What the tensor core takes of a tf32 operand: the bits it reads (the low 13 are ignored).
double tf32_value(std::uint32_t bits) { return double(as_float(bits & 0xffffe000u)); }

TEST(MmaTF32x3Split, HeadAndTailAreTf32AndGiveBackTheValue) {
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  for (int i = 0; i < 100000; ++i) {
    float const x = float((rng() & 1 ? -1 : 1) * std::ldexp(mantissa(rng), exponent(rng)));
    std::uint32_t head = 0, tail = 0;
    Op::split(std::bit_cast<std::uint32_t>(x), head, tail);
    ASSERT_EQ(head & 0x1fffu, 0u) << x;
    ASSERT_EQ(tail & 0x1fffu, 0u) << x;
    double const back = double(as_float(head)) + double(as_float(tail));
    ASSERT_LE(std::abs(back - double(x)), std::ldexp(std::abs(double(x)), -20)) << x;
  }
}

TEST(MmaTF32x3Split, ThreeProductsReachF32sAccuracyWhereOneIsTf32s) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  double worst_three = 0, worst_one = 0;
  for (int i = 0; i < 100000; ++i) {
    float const a = value(rng), b = value(rng);
    std::uint32_t ah = 0, at = 0, bh = 0, bt = 0;
    Op::split(std::bit_cast<std::uint32_t>(a), ah, at);
    Op::split(std::bit_cast<std::uint32_t>(b), bh, bt);
    double const exact = double(a) * double(b);
    double const three =
        tf32_value(at) * tf32_value(bh) + tf32_value(ah) * tf32_value(bt) + tf32_value(ah) * tf32_value(bh);
    double const one = tf32_value(std::bit_cast<std::uint32_t>(a)) * tf32_value(std::bit_cast<std::uint32_t>(b));
    if (exact == 0) continue;
    worst_three = std::max(worst_three, std::abs(three - exact) / std::abs(exact));
    worst_one = std::max(worst_one, std::abs(one - exact) / std::abs(exact));
  }
  EXPECT_LE(worst_three, std::ldexp(1.0, -19));  // the dropped tail x tail and the tails' truncation
  EXPECT_GE(worst_one, std::ldexp(1.0, -11));    // one truncated tf32 product is far coarser
}

}  // namespace
