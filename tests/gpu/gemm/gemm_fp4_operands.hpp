// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Host FP4 operands for the sm_120a block-scaled GEMM and its checks: a float matrix quantized to
// packed E2M1 with NVFP4 or MXFP4 scales in the layout the GEMM reads (rows x K/2 bytes, rows x
// K/block factors, both row-major), its dequantized values, and the reference GEMM over them in
// double, and the count of a GEMM's outputs that miss it. The CPU tests (tests/cpu/quant) and the GPU
// checks (gemm_fp4_check_sm100.cu, gemm_fp4_check_sm120.cu) share it.
#include <cute_cpp/quant/fp4.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace cute_cpp::test {

/// Which FP4 format: NVFP4 (16 elements a UE4M3 factor, a tensor scale) or MXFP4 (32 a UE8M0).
enum class Fp4Format { nvfp4, mxfp4 };

[[nodiscard]] constexpr int fp4_block(Fp4Format f) { return f == Fp4Format::nvfp4 ? quant::nvfp4_block : quant::mxfp4_block; }

/// A quantized (rows, K) matrix: packed[r * K/2 + j], sf[r * K/block + b], and the decode scale
/// every value is multiplied by (NVFP4: 1 / encode scale; MXFP4: 1).
struct Fp4Matrix {
  Fp4Format format = Fp4Format::nvfp4;
  std::int64_t rows = 0, k = 0;
  std::vector<std::uint8_t> packed, sf;
  float global_decode = 1.0f;

  [[nodiscard]] float scale_factor(std::int64_t r, std::int64_t kk) const {
    std::uint8_t const code = sf[std::size_t(r * (k / fp4_block(format)) + kk / fp4_block(format))];
    return format == Fp4Format::nvfp4 ? quant::ue4m3_to_float(code) : quant::ue8m0_to_float(code);
  }
  /// The real value of element (r, kk), without the global decode scale.
  [[nodiscard]] double value(std::int64_t r, std::int64_t kk) const {
    return double(quant::e2m1_to_float(quant::e2m1_at(packed.data() + r * (k / 2), kk))) * scale_factor(r, kk);
  }
};

/// Quantizes x (rows, K) row-major; K a multiple of the format's block. NVFP4's tensor scale comes
/// from x's largest magnitude, as the device quantizer computes it.
inline Fp4Matrix quantize_fp4(std::vector<float> const& x, std::int64_t rows, std::int64_t k, Fp4Format format) {
  Fp4Matrix q;
  q.format = format, q.rows = rows, q.k = k;
  int const block = fp4_block(format);
  q.packed.assign(std::size_t(rows * k / 2), 0);
  q.sf.assign(std::size_t(rows * k / block), 0);
  float amax = 0.0f;
  for (float v : x) amax = std::fmax(amax, std::fabs(v));
  float const encode = quant::nvfp4_encode_scale(amax);
  if (format == Fp4Format::nvfp4) q.global_decode = 1.0f / encode;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t b = 0; b < k / block; ++b) {
      float const* src = x.data() + r * k + b * block;
      std::uint8_t* dst = q.packed.data() + r * (k / 2) + b * (block / 2);
      std::uint8_t& sf = q.sf[std::size_t(r * (k / block) + b)];
      if (format == Fp4Format::nvfp4) {
        float v[quant::nvfp4_block];
        std::uint8_t p[quant::nvfp4_block / 2];
        for (int i = 0; i < block; ++i) v[i] = src[i];
        sf = quant::quantize_nvfp4_block(v, encode, p);
        for (int i = 0; i < block / 2; ++i) dst[i] = p[i];
      } else {
        float v[quant::mxfp4_block];
        std::uint8_t p[quant::mxfp4_block / 2];
        for (int i = 0; i < block; ++i) v[i] = src[i];
        sf = quant::quantize_mxfp4_block(v, p);
        for (int i = 0; i < block / 2; ++i) dst[i] = p[i];
      }
    }
  return q;
}

/// D[m][n] = ga x gb x sum_k a(m, k) b(n, k) over the quantized values, in double: the GEMM's
/// D = (A x SFA)(B x SFB)^T x global scale, before its rounding to bf16.
inline std::vector<double> reference_gemm_fp4(Fp4Matrix const& a, Fp4Matrix const& b) {
  std::vector<double> d(std::size_t(a.rows * b.rows), 0.0);
  double const scale = double(a.global_decode) * double(b.global_decode);
  for (std::int64_t m = 0; m < a.rows; ++m)
    for (std::int64_t n = 0; n < b.rows; ++n) {
      double acc = 0.0;
      for (std::int64_t kk = 0; kk < a.k; ++kk) acc += a.value(m, kk) * b.value(n, kk);
      d[std::size_t(m * b.rows + n)] = acc * scale;
    }
  return d;
}

/// rows x K test values: uniform in [-2, 2), one in a hundred scaled by 40 (a few outliers a row,
/// which the block scales must absorb).
inline std::vector<float> fp4_test_values(std::int64_t rows, std::int64_t k, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> value(-2.0f, 2.0f), rare(0.0f, 1.0f);
  std::vector<float> f(std::size_t(rows * k));
  for (float& v : f) v = value(rng) * (rare(rng) < 0.01f ? 40.0f : 1.0f);
  return f;
}

/// How many of the a.rows x b.rows outputs miss reference_gemm_fp4(a, b): `got(i, j)` is output
/// (i, j) as a double; it must be within 2^-8 |ref| (its bf16 rounding) + 2^-20 sum |a b| x the
/// global scales (the f32 accumulation's rounding).
template <class Got>
std::size_t count_fp4_errors(Fp4Matrix const& a, Fp4Matrix const& b, Got&& got) {
  std::vector<double> const want = reference_gemm_fp4(a, b);
  double const g = double(a.global_decode) * b.global_decode;
  std::size_t bad = 0;
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < b.rows; ++j) {
      double mag = 0.0;
      for (std::int64_t kk = 0; kk < a.k; ++kk) mag += std::fabs(a.value(i, kk) * b.value(j, kk));
      double const ref = want[std::size_t(i * b.rows + j)], d = got(i, j);
      bad += !(std::fabs(d - ref) <= std::ldexp(std::fabs(ref), -8) + std::ldexp(mag * g, -20) + 1e-30);
    }
  return bad;
}

}  // namespace cute_cpp::test
