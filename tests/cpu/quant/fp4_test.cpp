// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// FP4 quantization (quant/fp4.hpp) against independent references: E2M1's value table
// {0, 0.5, 1, 1.5, 2, 3, 4, 6} searched by brute force for the nearest value (ties to the even
// code), UE8M0 as 2^(b-127), UE4M3 decoded by hand from its fields, the OCP MX shared exponent and
// NVFP4's two-level scale on hand-computed blocks, a dequantize(quantize(x)) error bound per
// element, and the reference GEMM (tests/gpu/gemm/gemm_fp4_operands.hpp) on a hand-computed case.
#include <gtest/gtest.h>

#include <cute_cpp/quant/fp4.hpp>
#include "gpu/gemm/gemm_fp4_operands.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {
namespace q = cute_cpp::quant;
using cute_cpp::test::Fp4Format;

constexpr float kTable[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

// The reference rounding: the nearest table magnitude, at a tie the one with the even code.
int nearest_code(float a) {
  int best = 0;
  for (int c = 1; c < 8; ++c) {
    float const d = std::fabs(kTable[c] - a), db = std::fabs(kTable[best] - a);
    if (d < db || (d == db && c % 2 == 0)) best = c;
  }
  return best;
}

TEST(Fp4E2M1, DecodesTheValueTable) {
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(q::e2m1_to_float(std::uint8_t(c)), kTable[c]) << c;
    EXPECT_EQ(q::e2m1_to_float(std::uint8_t(c | 8)), -kTable[c]) << c;
  }
}

TEST(Fp4E2M1, EncodesTableValuesAndHandTies) {
  for (int c = 0; c < 8; ++c) EXPECT_EQ(q::float_to_e2m1(kTable[c]), c);
  for (int c = 1; c < 8; ++c) EXPECT_EQ(q::float_to_e2m1(-kTable[c]), c | 8);
  // Midpoints: the even code (mantissa bit 0) wins.
  EXPECT_EQ(q::float_to_e2m1(0.25f), 0);  // 0 | 0.5
  EXPECT_EQ(q::float_to_e2m1(0.75f), 2);  // 0.5 | 1.0
  EXPECT_EQ(q::float_to_e2m1(1.25f), 2);  // 1.0 | 1.5
  EXPECT_EQ(q::float_to_e2m1(1.75f), 4);  // 1.5 | 2.0
  EXPECT_EQ(q::float_to_e2m1(2.5f), 4);   // 2 | 3
  EXPECT_EQ(q::float_to_e2m1(3.5f), 6);   // 3 | 4
  EXPECT_EQ(q::float_to_e2m1(5.0f), 6);   // 4 | 6
  EXPECT_EQ(q::float_to_e2m1(-5.0f), 14);
  EXPECT_EQ(q::float_to_e2m1(0.26f), 1);
  EXPECT_EQ(q::float_to_e2m1(5.01f), 7);
  // Saturation, and -0 written as +0.
  EXPECT_EQ(q::float_to_e2m1(1e9f), 7);
  EXPECT_EQ(q::float_to_e2m1(-7.0f), 15);
  EXPECT_EQ(q::float_to_e2m1(-0.1f), 0);
  EXPECT_EQ(q::float_to_e2m1(std::nanf("")), 7);
}

TEST(Fp4E2M1, NearestOnAFineGrid) {
  for (int i = -4000; i <= 4000; ++i) {
    float const x = float(i) / 500.0f;  // [-8, 8], every midpoint included
    int const ref = nearest_code(std::fabs(x));
    int const want = ref == 0 ? 0 : (x < 0 ? ref | 8 : ref);
    ASSERT_EQ(q::float_to_e2m1(x), want) << "x = " << x;
  }
}

TEST(Fp4UE8M0, PowersOfTwo) {
  EXPECT_EQ(q::ue8m0_to_float(127), 1.0f);
  EXPECT_EQ(q::ue8m0_to_float(128), 2.0f);
  EXPECT_EQ(q::ue8m0_to_float(125), 0.25f);
  EXPECT_EQ(q::ue8m0_to_float(0), std::ldexp(1.0f, -127));
  EXPECT_EQ(q::ue8m0_to_float(254), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(q::ue8m0_to_float(255)));
  EXPECT_EQ(q::ue8m0_from_exponent(0), 127);
  EXPECT_EQ(q::ue8m0_from_exponent(-3), 124);
  EXPECT_EQ(q::ue8m0_from_exponent(-500), 0);
  EXPECT_EQ(q::ue8m0_from_exponent(500), 254);
}

// UE4M3 by its fields: e = bits 6..3, m = bits 2..0; (1 + m/8) 2^(e-7), or (m/8) 2^-6 when e = 0.
double ue4m3_by_hand(int code) {
  int const e = code >> 3, m = code & 7;
  return e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
}

TEST(Fp4UE4M3, DecodesEveryCode) {
  for (int c = 0; c < 0x7F; ++c) EXPECT_EQ(double(q::ue4m3_to_float(std::uint8_t(c))), ue4m3_by_hand(c)) << c;
  EXPECT_EQ(q::ue4m3_to_float(0x38), 1.0f);
  EXPECT_EQ(q::ue4m3_to_float(0x7E), 448.0f);
  EXPECT_EQ(q::ue4m3_to_float(0x01), std::ldexp(1.0f, -9));
  EXPECT_TRUE(std::isnan(q::ue4m3_to_float(0x7F)));
}

TEST(Fp4UE4M3, EncodesRoundTripMidpointsAndSaturation) {
  for (int c = 0; c < 0x7F; ++c) EXPECT_EQ(q::float_to_ue4m3(float(ue4m3_by_hand(c))), c) << c;
  for (int c = 0; c < 0x7E; ++c) {  // midpoints (exact in float): the even code wins
    float const mid = float((ue4m3_by_hand(c) + ue4m3_by_hand(c + 1)) / 2);
    EXPECT_EQ(q::float_to_ue4m3(mid), c % 2 == 0 ? c : c + 1) << "between " << c << " and " << c + 1;
  }
  EXPECT_EQ(q::float_to_ue4m3(112.0f), 0x6E);  // 1.75 x 2^6
  EXPECT_EQ(q::float_to_ue4m3(449.0f), 0x7E);
  EXPECT_EQ(q::float_to_ue4m3(1e30f), 0x7E);
  EXPECT_EQ(q::float_to_ue4m3(0.0f), 0);
  EXPECT_EQ(q::float_to_ue4m3(-1.0f), 0);
  EXPECT_EQ(q::float_to_ue4m3(std::ldexp(1.0f, -11)), 0);  // below half the smallest subnormal
}

TEST(Fp4Scales, MxSharedExponent) {
  EXPECT_EQ(q::mxfp4_scale(6.0f), 127);    // floor(log2 6) - 2 = 0
  EXPECT_EQ(q::mxfp4_scale(7.9f), 127);
  EXPECT_EQ(q::mxfp4_scale(8.0f), 128);
  EXPECT_EQ(q::mxfp4_scale(1.0f), 125);    // 0 - 2
  EXPECT_EQ(q::mxfp4_scale(0.0f), 0);      // all-zero block: 2^-127
  EXPECT_EQ(q::mxfp4_scale(1e38f), 127 + 126 - 2);
}

TEST(Fp4Scales, NvTwoLevelScale) {
  EXPECT_EQ(q::nvfp4_encode_scale(2688.0f), 1.0f);  // 448 x 6
  EXPECT_EQ(q::nvfp4_encode_scale(0.0f), 1.0f);
  float const enc = q::nvfp4_encode_scale(12.0f);    // 224
  EXPECT_EQ(enc, 224.0f);
  EXPECT_EQ(q::nvfp4_scale(3.0f, enc), 0x6E);        // 3 / 6 x 224 = 112
  EXPECT_EQ(q::nvfp4_scale(12.0f, enc), 0x7E);       // the tensor's amax block: 448
}

TEST(Fp4Blocks, MxBlockByHand) {
  float x[32] = {};
  x[0] = 6.0f, x[1] = -3.0f, x[2] = 0.75f, x[3] = 5.5f, x[31] = 0.3f;  // amax 6: X = 0
  std::uint8_t p[16];
  EXPECT_EQ(q::quantize_mxfp4_block(x, p), 127);
  EXPECT_EQ(p[0], 0x7 | (0xD << 4));   // 6, -3
  EXPECT_EQ(p[1], 0x2 | (0x7 << 4));   // 0.75 -> 1 (tie), 5.5 -> 6
  EXPECT_EQ(p[15], 0x1 << 4);          // x[30] = 0, x[31] = 0.3 -> 0.5
  float y[32] = {};
  y[5] = 24.0f, y[6] = 20.0f;          // amax 24: X = 4 - 2 = 2, elements / 4
  EXPECT_EQ(q::quantize_mxfp4_block(y, p), 129);
  EXPECT_EQ(p[2], 0x7 << 4);           // y[5] = 6
  EXPECT_EQ(p[3], 0x6);                // y[6] = 20 / 4 = 5, a tie between 4 and 6: 4 (even code 6)
}

TEST(Fp4Blocks, NvBlockByHand) {
  float x[16] = {};
  x[0] = 3.0f, x[1] = -1.5f, x[2] = 0.2f;  // tensor amax 12: encode 224; block amax 3: sf 112
  std::uint8_t p[8];
  EXPECT_EQ(q::quantize_nvfp4_block(x, 224.0f, p), 0x6E);
  // Block scale 112 / 224 = 0.5: 3 -> 6, -1.5 -> -3, 0.2 -> 0.4 -> 0.5.
  EXPECT_EQ(p[0], 0x7 | (0xD << 4));
  EXPECT_EQ(p[1], 0x1);
  float z[16] = {};
  EXPECT_EQ(q::quantize_nvfp4_block(z, 224.0f, p), 0);
  for (std::uint8_t b : p) EXPECT_EQ(b, 0);
}

TEST(Fp4Blocks, PackingOrder) {
  std::uint8_t const row[2] = {0x21, 0x43};
  EXPECT_EQ(q::e2m1_at(row, 0), 1);
  EXPECT_EQ(q::e2m1_at(row, 1), 2);
  EXPECT_EQ(q::e2m1_at(row, 2), 3);
  EXPECT_EQ(q::e2m1_at(row, 3), 4);
}

// The largest error rounding v (>= 0, in units of the block scale) to E2M1 may make: half the gap
// to the next table value below 6, or the distance to 6 above it (saturation).
double e2m1_error_bound(double v) {
  if (v > 6.0) return v - 6.0;
  double const half_gap = v <= 2.0 ? 0.25 : (v <= 4.0 ? 0.5 : 1.0);
  return half_gap;
}

class Fp4RoundTrip : public ::testing::TestWithParam<Fp4Format> {};

TEST_P(Fp4RoundTrip, DequantizeQuantizeWithinTheBound) {
  Fp4Format const format = GetParam();
  std::int64_t const rows = 16, k = 256;
  std::mt19937 gen(20261204);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> x(std::size_t(rows * k));
  for (std::int64_t i = 0; i < rows * k; ++i) x[std::size_t(i)] = dist(gen) * (1.0f + float(i % 97));  // varied ranges
  auto const m = cute_cpp::test::quantize_fp4(x, rows, k, format);
  double worst = 0.0;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < k; ++c) {
      double const s = double(m.scale_factor(r, c)) * m.global_decode;  // the block's real scale
      double const v = x[std::size_t(r * k + c)], deq = m.value(r, c) * m.global_decode;
      double const bound = s * e2m1_error_bound(std::fabs(v) / s) * (1 + 1e-6) + 1e-30;
      ASSERT_LE(std::fabs(v - deq), bound) << "row " << r << ", k " << c << ": " << v << " -> " << deq;
      worst = std::fmax(worst, std::fabs(v - deq) / s);
    }
  EXPECT_LE(worst, 2.0);  // in block-scale units: at most the saturation of an amax just below 8
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp4RoundTrip, ::testing::Values(Fp4Format::nvfp4, Fp4Format::mxfp4));

TEST(Fp4ReferenceGemm, HandComputedMx) {
  // A: one row, K = 32: x[0] = 6, x[1] = 2; B: two rows: (1, 1, 0...) and (0, 0.5, 0...).
  std::vector<float> a(32, 0.0f), b(64, 0.0f);
  a[0] = 6.0f, a[1] = 2.0f;
  b[0] = 1.0f, b[1] = 1.0f, b[32 + 1] = 0.5f;
  auto const qa = cute_cpp::test::quantize_fp4(a, 1, 32, Fp4Format::mxfp4);
  auto const qb = cute_cpp::test::quantize_fp4(b, 2, 32, Fp4Format::mxfp4);
  auto const d = cute_cpp::test::reference_gemm_fp4(qa, qb);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0], 8.0);  // 6 x 1 + 2 x 1: every value exact in MXFP4
  EXPECT_EQ(d[1], 1.0);  // 2 x 0.5
}

TEST(Fp4ReferenceGemm, NvGlobalScaleApplies) {
  // A's tensor amax 12 (encode 224, decode 1/224), B's 2688 (decode 1): D = values x 1/224 x 1.
  std::vector<float> a(16, 0.0f), b(16, 0.0f);
  a[0] = 12.0f, b[0] = 2688.0f;
  auto const qa = cute_cpp::test::quantize_fp4(a, 1, 16, Fp4Format::nvfp4);
  auto const qb = cute_cpp::test::quantize_fp4(b, 1, 16, Fp4Format::nvfp4);
  EXPECT_EQ(qa.global_decode, 1.0f / 224.0f);
  EXPECT_EQ(qb.global_decode, 1.0f);
  auto const d = cute_cpp::test::reference_gemm_fp4(qa, qb);
  // (6 x 448)^2 x float(1/224): 1/224 is not exact in float, so within float's relative precision.
  EXPECT_NEAR(d[0], 12.0 * 2688.0, 12.0 * 2688.0 * 1e-7);
}

}  // namespace
