// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 GEMM's operands (kernels/gemm's FP8 plans), shared by its check
// (tests/gpu/gemm/gemm_fp8_check.cu) and its benchmark (bench/gemm/bench_gemm_fp8.cu): how the
// operands are scaled (Scaling) and a problem of FP8 A and B with their scales, on the device and,
// for a reference, on the host.
#include "tests/support/fill.hpp"
#include "tests/support/parallel.hpp"  // parallel_for
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_fp8 {

namespace kn = cute_cpp::kernels;
namespace epi = cute_cpp::epilogue;
namespace host = cute_cpp::host;
namespace plans = kn::plans;

template <class T>
constexpr char const* fp8_name() {
  return std::is_same_v<T, plans::e4m3> ? "e4m3" : "e5m2";
}
template <class T>
constexpr cudaDataType_t fp8_type() {
  return std::is_same_v<T, plans::e4m3> ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
}

/// How the operands are scaled: one float each; one per row of A and one per column of B; or by
/// blocks (1 x 128 on A, 128 x 128 on B), A's scales row-major (M, K/128) or K-block-major (K/128, M).
enum class Scaling { Tensor, RowColumn, Block, BlockKMajor };
inline char const* scaling_name(Scaling s) {
  switch (s) {
    case Scaling::Tensor: return "per tensor";
    case Scaling::RowColumn: return "per row and column";
    case Scaling::Block: return "1x128 / 128x128 blocks";
    case Scaling::BlockKMajor: return "blocks, A's K-block-major";
  }
  return "";
}
inline bool by_blocks(Scaling s) { return s == Scaling::Block || s == Scaling::BlockKMajor; }
inline std::int64_t k_blocks(std::int64_t k) { return (k + 127) / 128; }

/// An m x n x k problem: A (m, k) and B (n, k) row-major (a weight), rows padded to a multiple of
/// 16 beyond K so the leading dimension is exercised; C (m, n) row-major; the scales (an FP8 C's
/// block scales row-major with Scaling::Block, block-major with Scaling::BlockKMajor).
template <class Plan>
struct Problem {
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
  std::int64_t m, n, k, lda, ldb, ldc;
  Scaling scaling;
  std::vector<TA> a;  // host copies, kept for a checked problem only
  std::vector<TB> b;
  std::vector<float> scale_a, scale_b;
  host::DeviceBuffer<TA> da;
  host::DeviceBuffer<TB> db;
  host::DeviceBuffer<TC> dc;
  host::DeviceBuffer<float> dscale_a, dscale_b, dscale_c;
  host::DeviceBuffer<unsigned char> workspace;

  Problem(std::int64_t m_, std::int64_t n_, std::int64_t k_, Scaling s, std::mt19937_64& rng, bool checked = true)
      : m(m_), n(n_), k(k_), lda(k_ + 16), ldb(k_ + 16), ldc(n_ + 16 - n_ % 16), scaling(s),
        da(std::size_t(lda * m)), db(std::size_t(ldb * n)), dc(std::size_t(ldc * m)),
        dscale_a(std::size_t(s == Scaling::Tensor ? 1 : by_blocks(s) ? m * k_blocks(k) : m)),
        dscale_b(std::size_t(s == Scaling::Tensor ? 1 : by_blocks(s) ? (n + 127) / 128 * k_blocks(k) : n)),
        dscale_c(std::size_t(Plan::quantized_output ? m * k_blocks(n) : 0)) {
    // Values within e5m2's and e4m3's range, scales around 1: a wrong scale or row shows.
    if (checked) {
      a = kn::random_values<TA>(da.size(), rng, -6.0, 6.0);
      b = kn::random_values<TB>(db.size(), rng, -6.0, 6.0);
      da.upload(std::span<TA const>(a));
      db.upload(std::span<TB const>(b));
    } else {
      kn::fill_random_tiled(da.data(), da.size(), rng, -6.0, 6.0);
      kn::fill_random_tiled(db.data(), db.size(), rng, -6.0, 6.0);
    }
    scale_a = kn::random_values<float>(dscale_a.size(), rng, 0.25, 2.0);
    scale_b = kn::random_values<float>(dscale_b.size(), rng, 0.25, 2.0);
    dscale_a.upload(std::span<float const>(scale_a));
    dscale_b.upload(std::span<float const>(scale_b));
    kn::GemmArguments<Plan> shape;
    shape.m = m, shape.n = n, shape.k = k;
    workspace = host::DeviceBuffer<unsigned char>(std::max<std::size_t>(kn::gemm_workspace_bytes<Plan>(shape), 16));
    workspace.fill_bytes(0);
  }

  kn::GemmArguments<Plan> arguments() const {
    kn::GemmArguments<Plan> args;
    args.a = da.data(), args.lda = lda;
    args.b = db.data(), args.ldb = ldb;
    args.c = dc.data(), args.ldc = ldc;
    args.m = m, args.n = n, args.k = k;
    if constexpr (Plan::block_scaled) {
      bool const k_major = scaling == Scaling::BlockKMajor;
      args.block_scales = {dscale_a.data(), k_major ? 1 : k_blocks(k), k_major ? m : 1,
                           dscale_b.data(), k_blocks(k), 1};
    } else {
      args.epilogue_op.scale_a = dscale_a.data();
      args.epilogue_op.scale_b = dscale_b.data();
      args.epilogue_op.a_per_row = args.epilogue_op.b_per_column = scaling == Scaling::RowColumn;
    }
    if constexpr (Plan::quantized_output) args.output_scales = c_scales();
    args.workspace = workspace.data(), args.workspace_bytes = workspace.bytes();
    return args;
  }
  /// An FP8 C's block scales: row-major (m, n/128), or block-major (n/128, m) with BlockKMajor.
  epi::OutputBlockScales c_scales() const {
    bool const block_major = scaling == Scaling::BlockKMajor;
    return {dscale_c.data(), block_major ? 1 : k_blocks(n), block_major ? m : 1};
  }
  void run(cudaStream_t stream = nullptr) const { kn::run_gemm<Plan>(arguments(), stream); }

  /// The product of the scales of A's row i and B's row (C's column) j in K block kb.
  double scale_of(std::int64_t i, std::int64_t j, std::int64_t kb) const {
    switch (scaling) {
      case Scaling::Tensor: return double(scale_a[0]) * double(scale_b[0]);
      case Scaling::RowColumn: return double(scale_a[std::size_t(i)]) * double(scale_b[std::size_t(j)]);
      case Scaling::Block:
      case Scaling::BlockKMajor: break;
    }
    std::size_t const a_at = std::size_t(scaling == Scaling::Block ? i * k_blocks(k) + kb : kb * m + i);
    return double(scale_a[a_at]) * double(scale_b[std::size_t(j / 128 * k_blocks(k) + kb)]);
  }
  /// C in double from the dequantized operands, and the most of the sums of |products| (the
  /// scale of the accumulation's rounding). The operands are widened once and each K block's sum
  /// scaled once (a conversion and a scale lookup a product took minutes at issue 44's shapes on one
  /// core); the rows are shared among the host's cores.
  void reference(std::vector<double>& want, double& magnitude) const {
    auto const widen = [](auto const& x, std::int64_t rows, std::int64_t ld, std::int64_t cols) {
      std::vector<double> out(std::size_t(rows * cols));
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
          out[std::size_t(r * cols + c)] = double(float(x[std::size_t(r * ld + c)]));
      return out;
    };
    std::vector<double> const wa = widen(a, m, lda, k), wb = widen(b, n, ldb, k);
    want.assign(std::size_t(m * n), 0.0);
    std::vector<double> row_magnitude(std::size_t(m), 0.0);
    test::parallel_for(std::size_t(std::max<std::int64_t>(m, 0)), [&](std::size_t row) {  // a row a job
      auto const i = std::int64_t(row);
      for (std::int64_t j = 0; j < n; ++j) {
        double const* const ai = wa.data() + i * k;
        double const* const bj = wb.data() + j * k;
        double sum = 0, abs_sum = 0;
        for (std::int64_t k0 = 0; k0 < k; k0 += 128) {
          double block = 0, abs_block = 0;
          for (std::int64_t kk = k0; kk < std::min(k, k0 + 128); ++kk) {
            double const p = ai[kk] * bj[kk];
            block += p;
            abs_block += std::fabs(p);
          }
          double const scale = scale_of(i, j, k0 / 128);
          sum += block * scale;
          abs_sum += abs_block * std::fabs(scale);
        }
        want[std::size_t(i * n + j)] = sum;
        row_magnitude[std::size_t(i)] = std::max(row_magnitude[std::size_t(i)], abs_sum);
      }
    });
    magnitude = m > 0 ? *std::max_element(row_magnitude.begin(), row_magnitude.end()) : 0.0;
  }
  std::vector<TC> result() const {
    auto const all = dc.download();
    std::vector<TC> packed(std::size_t(m * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) packed[std::size_t(i * n + j)] = all[std::size_t(i * ldc + j)];
    return packed;
  }
};

}  // namespace cute_cpp::test::gemm_fp8
