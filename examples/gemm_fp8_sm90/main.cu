// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_fp8_sm90: checks the Hopper GEMM's FP8 plans (examples/gemm_sm90: e4m3 x e4m3 and
// e5m2 x e4m3, bf16 out, scaled per tensor or per row and column in the epilogue, and e4m3 scaled
// by 1 x 128 and 128 x 128 blocks in the main loop; FP8 outputs quantized by 1 x 128 blocks in
// the epilogue) against a CPU reference in double of the dequantized operands, on fresh random
// data with NaN-poisoned outputs and sizes that are not multiples of the tile, then times them
// against cuBLASLt's FP8 GEMM with per-tensor scales, with and without its fast accumulation (the
// FP8 outputs against the same GEMM with a bf16 output followed by quantize_1x128).
//   gemm_fp8_sm90 [--no-bench] [--json FILE] [--seed N] [--small] [--profile]   (--small: small
//   cases and the rejections, no benchmark, for compute-sanitizer; --profile: launches for ncu)
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"
#include "bench/support/cublaslt_gemm.hpp"
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/gemm/quantize.cuh>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace epi = cute_cpp::epilogue;
namespace host = cute_cpp::host;
namespace plans = kn::plans;

namespace {

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
char const* scaling_name(Scaling s) {
  switch (s) {
    case Scaling::Tensor: return "per tensor";
    case Scaling::RowColumn: return "per row and column";
    case Scaling::Block: return "1x128 / 128x128 blocks";
    case Scaling::BlockKMajor: return "blocks, A's K-block-major";
  }
  return "";
}
bool by_blocks(Scaling s) { return s == Scaling::Block || s == Scaling::BlockKMajor; }
std::int64_t k_blocks(std::int64_t k) { return (k + 127) / 128; }

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
  /// scale of the accumulation's rounding).
  void reference(std::vector<double>& want, double& magnitude) const {
    want.assign(std::size_t(m * n), 0.0);
    magnitude = 0;
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0, abs_sum = 0;
        for (std::int64_t kk = 0; kk < k; ++kk) {
          double const p = double(float(a[std::size_t(i * lda + kk)])) * double(float(b[std::size_t(j * ldb + kk)])) *
                           scale_of(i, j, kk / 128);
          sum += p;
          abs_sum += std::fabs(p);
        }
        want[std::size_t(i * n + j)] = sum;
        magnitude = std::max(magnitude, abs_sum);
      }
  }
  std::vector<TC> result() const {
    auto const all = dc.download();
    std::vector<TC> packed(std::size_t(m * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) packed[std::size_t(i * n + j)] = all[std::size_t(i * ldc + j)];
    return packed;
  }
};

/// An FP8 C quantized by 1 x 128 blocks (q: m x cols, packed; the scale of block (i, b) at
/// i * row_stride + b * block_stride) against the reference `want` in double. The GPU's outputs
/// before quantization differ from want by at most `slack` (the accumulation's rounding), so
/// each block's scale is its largest |want| / 448 within slack / 448, and each element times its
/// scale lies within e4m3's rounding of want (2^-4 relative; 2^-10 of the scale below e4m3's
/// normal range) plus slack.
bool check_fp8_blocks(char const* what, std::span<plans::e4m3 const> q, std::span<float const> scales,
                      epi::OutputBlockScales const& at, std::int64_t m, std::int64_t cols, std::span<double const> want,
                      double slack) {
  constexpr double max_finite = epi::fp8_max_finite<plans::e4m3>;
  std::size_t bad_scales = 0, bad_values = 0;
  double worst = 0;  // the largest error, in units of its bound
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t b = 0; b < k_blocks(cols); ++b) {
      std::int64_t const c0 = b * 128, c1 = std::min(cols, c0 + 128);
      double amax = 0;
      for (std::int64_t j = c0; j < c1; ++j) amax = std::max(amax, std::fabs(want[std::size_t(i * cols + j)]));
      double const scale = scales[std::size_t(i * at.row_stride + b * at.block_stride)];
      bad_scales += !(std::fabs(scale * max_finite - amax) <= slack + 1e-6 * amax);
      for (std::int64_t j = c0; j < c1; ++j) {
        double const w = want[std::size_t(i * cols + j)];
        double const bound = (std::fabs(w) + slack) / 16 + scale / 1024 + slack;
        double const error = std::fabs(double(float(q[std::size_t(i * cols + j)])) * scale - w);
        worst = std::max(worst, error / bound);
        bad_values += !(error <= bound);
      }
    }
  bool const ok = bad_scales == 0 && bad_values == 0;
  std::printf("check %-44s m=%-5lld n=%-5lld %s (%zu scales and %zu values off; worst error %.2f of its bound)\n",
              what, (long long)m, (long long)cols, ok ? "ok" : "FAILED", bad_scales, bad_values, worst);
  return ok;
}

/// Every element of C against the reference: bf16's rounding (2^-8 relative) and the FP8
/// accumulation's (wgmma's accumulator rounds each product sum: 2^-10 of the sum of |products|);
/// an FP8 C (and its block scales) through check_fp8_blocks with that accumulation bound.
template <class Plan>
bool check(std::int64_t m, std::int64_t n, std::int64_t k, Scaling scaling, std::mt19937_64& rng) {
  Problem<Plan> p(m, n, k, scaling, rng);
  p.dc.fill_bytes(0xFF);  // NaN, C and an FP8 C's scales
  if constexpr (Plan::quantized_output) p.dscale_c.fill_bytes(0xFF);
  p.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<double> want;
  double magnitude = 0;
  p.reference(want, magnitude);
  auto const got = p.result();
  if constexpr (Plan::quantized_output) {
    auto const scales = p.dscale_c.download();
    std::string const what = std::string("block-scaled e4m3 -> e4m3 1x128, ") +
                             (scaling == Scaling::Block ? "row" : "block") + "-major scales";
    return check_fp8_blocks(what.c_str(), std::span<plans::e4m3 const>(got), std::span<float const>(scales),
                            p.c_scales(), m, n, std::span<double const>(want), magnitude / 1024);
  } else {
    auto const result = kn::check_close(std::span<plans::bf16 const>(got), std::span<double const>(want), 1.0 / 128,
                                        magnitude / 1024);
    std::printf("check %s x %s -> bf16 %-18s m=%-5lld n=%-5lld k=%-5lld %s\n", fp8_name<typename Plan::TA>(),
                fp8_name<typename Plan::TB>(), scaling_name(scaling), (long long)m, (long long)n, (long long)k,
                result.summary().c_str());
    return result.ok();
  }
}

/// The fused gate-up projection with an FP8 C (Bf16TNSwiGLUToFp8): C = silu(gate) * up of the
/// columns B interleaves, quantized by 1 x 128 blocks of C's n / 2 columns, against the same in
/// double from the bf16 operands (fp32 accumulation of bf16 products: 2^-16 of the largest
/// output is slack enough).
bool check_swiglu_fp8_output(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng) {
  std::int64_t const f = n / 2, ldc = f + 16 - f % 16;
  auto const a = kn::random_values<plans::bf16>(std::size_t(m * k), rng, -1.0, 1.0);
  auto const b = kn::random_values<plans::bf16>(std::size_t(n * k), rng, -1.0, 1.0);
  host::DeviceBuffer<plans::bf16> da(a.size()), db(b.size());
  da.upload(std::span<plans::bf16 const>(a));
  db.upload(std::span<plans::bf16 const>(b));
  host::DeviceBuffer<plans::e4m3> dc(std::size_t(m * ldc));
  host::DeviceBuffer<float> dscales(std::size_t(m * k_blocks(f)));
  dc.fill_bytes(0xFF);
  dscales.fill_bytes(0xFF);
  kn::GemmArguments<plans::Bf16TNSwiGLUToFp8> args;
  args.a = da.data(), args.lda = k, args.b = db.data(), args.ldb = k, args.c = dc.data(), args.ldc = ldc;
  args.m = m, args.n = n, args.k = k;
  args.output_scales = {dscales.data(), k_blocks(f), 1};
  kn::run_gemm<plans::Bf16TNSwiGLUToFp8>(args, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const column = [&](std::int64_t i, std::int64_t row_of_b) {
    double sum = 0;
    for (std::int64_t kk = 0; kk < k; ++kk)
      sum += double(float(a[std::size_t(i * k + kk)])) * double(float(b[std::size_t(row_of_b * k + kk)]));
    return sum;
  };
  std::vector<double> want(std::size_t(m * f));
  double largest = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < f; ++j) {
      double const gate = column(i, epi::gated_gate_row(j)), up = column(i, epi::gated_up_row(j));
      double const out = gate / (1.0 + std::exp(-gate)) * up;
      want[std::size_t(i * f + j)] = out;
      largest = std::max(largest, std::fabs(out));
    }
  auto const all = dc.download();
  std::vector<plans::e4m3> q(std::size_t(m * f));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < f; ++j) q[std::size_t(i * f + j)] = all[std::size_t(i * ldc + j)];
  auto const scales = dscales.download();
  return check_fp8_blocks("bf16 SwiGLU -> e4m3 1x128", std::span<plans::e4m3 const>(q), std::span<float const>(scales),
                          args.output_scales, m, f, std::span<double const>(want), largest / 65536);
}

/// A call the plan refuses: the error names the rule and nothing is written.
template <class Plan>
bool check_rejection(char const* what, char const* rule, std::mt19937_64& rng, auto&& edit) {
  Problem<Plan> p(64, 64, 64, Scaling::Tensor, rng);
  p.dc.fill_bytes(0x7F);
  auto args = p.arguments();
  edit(args);
  std::string error = "no error";
  try {
    kn::run_gemm<Plan>(args, nullptr);
  } catch (std::invalid_argument const& e) {
    error = e.what();
  }
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const c = p.dc.download();
  auto const* const bytes = reinterpret_cast<unsigned char const*>(c.data());
  bool const untouched = std::all_of(bytes, bytes + p.dc.bytes(), [](unsigned char v) { return v == 0x7F; });
  bool const ok = error.find(rule) != std::string::npos && untouched;
  std::printf("check rejects %-30s %s%s\n", what, ok ? "ok" : "FAILED: ", ok ? "" : error.c_str());
  return ok;
}

/// quantize_1x128 (blocks = false) or quantize_128x128 against the host's arithmetic: every scale
/// and every e4m3 byte equal. Rows of magnitudes 2^-8 .. 2^7 and an all-zero group (scale 1); the
/// 1x128 scales row-major, the 128x128 ones K-block-major (both stride forms).
bool check_quantize(bool blocks, std::int64_t rows, std::int64_t k, std::mt19937_64& rng) {
  std::int64_t const ldx = k + 8, ldq = k + 16, kb = (k + 127) / 128, rb = blocks ? (rows + 127) / 128 : rows;
  std::vector<plans::bf16> x(std::size_t(rows * ldx));
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (std::int64_t r = 0; r < rows; ++r) {
    float const magnitude = std::ldexp(1.0f, int(rng() % 16) - 8);
    for (std::int64_t c = 0; c < ldx; ++c) x[std::size_t(r * ldx + c)] = plans::bf16(unit(rng) * magnitude);
  }
  for (std::int64_t r = 0; r < std::min<std::int64_t>(rows, 128); ++r)  // block (0, 0) of both forms is zero
    for (std::int64_t c = 0; c < std::min<std::int64_t>(k, 128); ++c) x[std::size_t(r * ldx + c)] = plans::bf16(0.0f);
  host::DeviceBuffer<plans::bf16> dx(x.size());
  dx.upload(std::span<plans::bf16 const>(x));
  host::DeviceBuffer<plans::e4m3> dq(std::size_t(rows * ldq));
  host::DeviceBuffer<float> dscales(std::size_t(rb * kb));
  dq.fill_bytes(0x7F);  // NaN
  dscales.fill_bytes(0xFF);
  kn::Fp8Quantized const out{dq.data(), ldq, dscales.data(), blocks ? 1 : kb, blocks ? rb : 1};
  if (blocks) kn::quantize_128x128(dx.data(), ldx, rows, k, out);
  else kn::quantize_1x128(dx.data(), ldx, rows, k, out);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const q = dq.download();
  auto const scales = dscales.download();
  std::size_t bad_scales = 0, bad_values = 0;
  for (std::int64_t g = 0; g < rb; ++g)
    for (std::int64_t b = 0; b < kb; ++b) {
      std::int64_t const r0 = blocks ? g * 128 : g, r1 = blocks ? std::min(rows, r0 + 128) : g + 1;
      std::int64_t const c0 = b * 128, c1 = std::min(k, c0 + 128);
      float amax = 0.0f;
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c) amax = std::max(amax, std::fabs(float(x[std::size_t(r * ldx + c)])));
      float const scale = amax > 0.0f ? amax / kn::e4m3_max : 1.0f, inverse = amax > 0.0f ? kn::e4m3_max / amax : 1.0f;
      float const got = scales[std::size_t(blocks ? g + b * rb : g * kb + b)];
      bad_scales += got != scale;
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t c = c0; c < c1; ++c) {
          plans::e4m3 const want(float(x[std::size_t(r * ldx + c)]) * inverse);
          bad_values += want.__x != q[std::size_t(r * ldq + c)].__x;
        }
    }
  bool const ok = bad_scales == 0 && bad_values == 0;
  std::printf("check %-16s rows=%-5lld k=%-5lld %s (%zu scales and %zu values differ)\n",
              blocks ? "quantize_128x128" : "quantize_1x128", (long long)rows, (long long)k, ok ? "ok" : "FAILED",
              bad_scales, bad_values);
  return ok;
}

/// The model's path: bf16 A and W quantized (1x128 and 128x128), the block-scaled GEMM, against
/// the bf16 product in double. FP8's rounding (2^-4 of each element) bounds the error at about
/// 2^-4 sqrt(2 sum (a w)^2); four times that is allowed.
bool check_quantized_gemm(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng) {
  std::int64_t const kb = (k + 127) / 128;
  auto const a = kn::random_values<plans::bf16>(std::size_t(m * k), rng, -3.0, 3.0);
  auto const w = kn::random_values<plans::bf16>(std::size_t(n * k), rng, -0.05, 0.05);
  host::DeviceBuffer<plans::bf16> da(a.size()), dw(w.size()), dc(std::size_t(m * n));
  da.upload(std::span<plans::bf16 const>(a));
  dw.upload(std::span<plans::bf16 const>(w));
  host::DeviceBuffer<plans::e4m3> qa(std::size_t(m * k)), qw(std::size_t(n * k));
  host::DeviceBuffer<float> sa(std::size_t(m * kb)), sw(std::size_t((n + 127) / 128 * kb));
  kn::quantize_1x128(da.data(), k, m, k, {qa.data(), k, sa.data(), kb, 1});
  kn::quantize_128x128(dw.data(), k, n, k, {qw.data(), k, sw.data(), kb, 1});
  kn::GemmArguments<plans::Fp8E4M3Blockwise> args;
  args.a = qa.data(), args.lda = k, args.b = qw.data(), args.ldb = k, args.c = dc.data(), args.ldc = n;
  args.m = m, args.n = n, args.k = k;
  args.block_scales = {sa.data(), kb, 1, sw.data(), kb, 1};
  dc.fill_bytes(0xFF);
  kn::run_gemm<plans::Fp8E4M3Blockwise>(args, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const c = dc.download();
  std::size_t bad = 0;
  double worst = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0, squares = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        double const p = double(float(a[std::size_t(i * k + kk)])) * double(float(w[std::size_t(j * k + kk)]));
        sum += p;
        squares += p * p;
      }
      double const error = std::fabs(double(float(c[std::size_t(i * n + j)])) - sum);
      worst = std::max(worst, error / std::sqrt(2 * squares));
      bad += !(error <= 4.0 / 16.0 * std::sqrt(2 * squares) + std::fabs(sum) / 128);
    }
  std::printf("check quantize + block-scaled GEMM against bf16 m=%-5lld n=%-5lld k=%-5lld %s (%zu bad; worst error "
              "%.3f of sqrt(2 sum (a w)^2))\n",
              (long long)m, (long long)n, (long long)k, bad == 0 ? "ok" : "FAILED", bad, worst);
  return bad == 0;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = true;
  ok &= check_quantize(false, 5, 272, rng);
  ok &= check_quantize(true, 130, 272, rng);
  ok &= check_quantized_gemm(77, 296, 272, rng);  // C's rows 16-byte aligned (TMA)
  if (!small) {
    ok &= check_quantize(false, 1000, 4096, rng);
    ok &= check_quantize(true, 1000, 1040, rng);
    ok &= check_quantized_gemm(300, 1000, 2048, rng);
  }
  ok &= check_rejection<plans::Fp8E4M3>("K = 40 (not a multiple of 16)", "[gemm.k-multiple-of-16]", rng,
                                        [](auto& a) { a.k = 40; });
  ok &= check_rejection<plans::Fp8E4M3>("a misaligned A", "[tma.global.address]", rng,
                                        [](auto& a) { a.a = a.a + 8; });
  ok &= check_rejection<plans::Fp8E4M3>("block scales on a per-tensor plan", "[gemm.block-scales]", rng,
                                        [](auto& a) { a.block_scales.a = a.epilogue_op.scale_a; });
  ok &= check_rejection<plans::Fp8E4M3Blockwise>("a block-scaled plan without scales", "[gemm.block-scales]", rng,
                                                 [](auto& a) { a.block_scales = {}; });
  ok &= check_rejection<plans::Fp8E4M3BlockwiseToFp8>("an FP8 C without output scales", "[gemm.output-scales]", rng,
                                                      [](auto& a) { a.output_scales = {}; });
  ok &= check_rejection<plans::Fp8E4M3BlockwiseToFp8>("output scales of stride 0", "[gemm.output-scales]", rng,
                                                      [](auto& a) { a.output_scales.row_stride = 0; });
  ok &= check_rejection<plans::Fp8E4M3>("output scales on a bf16 C", "[gemm.output-scales]", rng,
                                        [](auto& a) { a.output_scales.data = const_cast<float*>(a.epilogue_op.scale_a); });
  for (Scaling s : {Scaling::Block, Scaling::BlockKMajor}) {
    ok &= check<plans::Fp8E4M3BlockwiseToFp8>(77, 300, 272, s, rng);  // a partial last scale block of C
    if (!small) ok &= check<plans::Fp8E4M3BlockwiseToFp8>(300, 1000, 1040, s, rng);
  }
  ok &= check_swiglu_fp8_output(1, 16, 8, rng);
  ok &= check_swiglu_fp8_output(333, 528, 264, rng);
  if (!small) ok &= check_swiglu_fp8_output(700, 4096, 1024, rng);
  for (Scaling s : {Scaling::Block, Scaling::BlockKMajor}) {
    ok &= check<plans::Fp8E4M3Blockwise>(1, 256, 128, s, rng);
    ok &= check<plans::Fp8E4M3Blockwise>(77, 300, 272, s, rng);  // K past a scale block
    ok &= check<plans::Fp8E4M3Blockwise>(130, 200, 400, s, rng);
    // 192 columns: tiles whose columns meet two scale blocks of B, split at 128 or at 64, and a
    // last tile whose second block lies past N.
    ok &= check<plans::Fp8E4M3BlockwiseN192>(77, 300, 272, s, rng);
    ok &= check<plans::Fp8E4M3BlockwiseN192>(130, 200, 400, s, rng);
    if (small) continue;
    ok &= check<plans::Fp8E4M3BlockwiseN192>(300, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3Blockwise>(300, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3Blockwise>(129, 520, 4096, s, rng);
  }
  for (Scaling s : {Scaling::Tensor, Scaling::RowColumn}) {
    ok &= check<plans::Fp8E4M3>(1, 256, 128, s, rng);
    ok &= check<plans::Fp8E4M3>(77, 300, 272, s, rng);
    ok &= check<plans::Fp8E5M2E4M3>(130, 200, 144, s, rng);
    if (small) continue;
    ok &= check<plans::Fp8E4M3>(300, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3>(129, 520, 4096, s, rng);  // long K; split-K on one partial wave
    ok &= check<plans::Fp8E5M2E4M3>(257, 700, 2048, s, rng);
  }
  return ok;
}

/// Ours and cuBLASLt's FP8 GEMM with per-tensor scales on the same operands, timed alternately.
template <class Plan>
void bench(std::int64_t m, std::int64_t n, std::int64_t k, Scaling scaling, bool fast_accumulation,
           std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  Problem<Plan> p(m, n, k, scaling, rng, false);
  host::DeviceBuffer<plans::bf16> c(p.dc.size());
  // cublasLt's A is our B (the weight, K-major: transposed), its B our A; its A scale is ours for B.
  kn::LtGemm reference(handle, {fp8_type<typename Plan::TB>(), std::uint64_t(k), std::uint64_t(n), p.ldb, true},
                       {fp8_type<typename Plan::TA>(), std::uint64_t(k), std::uint64_t(m), p.lda, false},
                       {CUDA_R_16BF, std::uint64_t(n), std::uint64_t(m), p.ldc},
                       {p.dscale_b.data(), p.dscale_a.data(), fast_accumulation});
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved(
      [&] { p.run(); }, [&] { reference.run(p.db.data(), p.da.data(), c.data()); }, nullptr, 5, 30);
  double const flops = 2.0 * double(m) * double(n) * double(k);
  std::string const name = std::string("gemm_fp8_sm90 ") + fp8_name<typename Plan::TA>() + "x" +
                           fp8_name<typename Plan::TB>() + " " + scaling_name(scaling) +
                           (Plan::block_scaled ? ", tile 128x" + std::to_string(Plan::block_n) : "");
  records.push_back({name, std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k), "fp8",
                     flops / (ours_ms * 1e9),
                     std::string("cuBLASLt FP8 per tensor") + (fast_accumulation ? ", fast accumulation" : ""),
                     flops / (ref_ms * 1e9), "TFLOP/s", ours_ms * 1e3});
}

/// The quantizers against a device copy of as many bytes (bf16 read, e4m3 and the scales written).
void bench_quantize(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  for (bool blocks : {false, true}) {
    std::int64_t const rows = 8192, k = 7168, kb = k / 128, rb = blocks ? rows / 128 : rows;
    host::DeviceBuffer<plans::bf16> x(std::size_t(rows * k));
    kn::fill_random_tiled(x.data(), x.size(), rng, -4.0, 4.0);
    host::DeviceBuffer<plans::e4m3> q(std::size_t(rows * k));
    host::DeviceBuffer<float> scales(std::size_t(rb * kb));
    kn::Fp8Quantized const out{q.data(), k, scales.data(), kb, 1};
    std::size_t const bytes = x.bytes() + q.bytes() + scales.bytes();
    records.push_back(kn::bench_against_copy(blocks ? "quantize_128x128" : "quantize_1x128",
                                             kn::shape_name(std::size_t(rows), std::size_t(k)), "bf16", bytes, [&] {
                                               if (blocks) kn::quantize_128x128(x.data(), k, rows, k, out);
                                               else kn::quantize_1x128(x.data(), k, rows, k, out);
                                             }));
  }
}

/// An FP8 C quantized in the epilogue against the same GEMM writing bf16 followed by
/// quantize_1x128 (what a model runs without the fusion), timed alternately: `Fused` and
/// `Unfused` are the two plans, `operands(args)` sets a problem's A and B (and their scales).
template <class Fused, class Unfused>
void bench_fp8_output(char const* name, std::int64_t m, std::int64_t n, std::int64_t k, auto const& operands,
                      std::vector<kn::Record>& records) {
  std::int64_t const cols = Fused::gated ? n / 2 : n, blocks = k_blocks(cols);
  host::DeviceBuffer<plans::e4m3> q(std::size_t(m * cols)), q2(std::size_t(m * cols));
  host::DeviceBuffer<plans::bf16> c(std::size_t(m * cols));
  host::DeviceBuffer<float> scales(std::size_t(m * blocks)), scales2(std::size_t(m * blocks));
  kn::GemmArguments<Fused> fused;
  operands(fused);
  fused.c = q.data(), fused.ldc = cols, fused.m = m, fused.n = n, fused.k = k;
  fused.output_scales = {scales.data(), blocks, 1};
  kn::GemmArguments<Unfused> unfused;
  operands(unfused);
  unfused.c = c.data(), unfused.ldc = cols, unfused.m = m, unfused.n = n, unfused.k = k;
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved(
      [&] { kn::run_gemm<Fused>(fused, nullptr); },
      [&] {
        kn::run_gemm<Unfused>(unfused, nullptr);
        kn::quantize_1x128(c.data(), cols, m, cols, {q2.data(), cols, scales2.data(), blocks, 1});
      },
      nullptr, 5, 30);
  double const flops = 2.0 * double(m) * double(n) * double(k);
  records.push_back({std::string("gemm_fp8_sm90 ") + name,
                     std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k), "fp8",
                     flops / (ours_ms * 1e9), "the same GEMM to bf16, then quantize_1x128", flops / (ref_ms * 1e9),
                     "TFLOP/s", ours_ms * 1e3});
}

void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  bench_quantize(rng, records);
  for (auto const& s : {std::array<std::int64_t, 3>{8192, 8192, 8192}, {4096, 7168, 2048}}) {
    Problem<plans::Fp8E4M3Blockwise> p(s[0], s[1], s[2], Scaling::Block, rng, false);
    bench_fp8_output<plans::Fp8E4M3BlockwiseToFp8, plans::Fp8E4M3Blockwise>(
        "block-scaled e4m3 -> e4m3 1x128", s[0], s[1], s[2],
        [&](auto& args) {
          args.a = p.da.data(), args.lda = p.lda, args.b = p.db.data(), args.ldb = p.ldb;
          args.block_scales = p.arguments().block_scales;
        },
        records);
  }
  {
    // Llama-3-8B's gate-up projection of 4096 tokens: 2 x 14336 rows of B, K 4096.
    std::int64_t const m = 4096, n = 28672, k = 4096;
    host::DeviceBuffer<plans::bf16> a(std::size_t(m * k)), b(std::size_t(n * k));
    kn::fill_random_tiled(a.data(), a.size(), rng, -1.0, 1.0);
    kn::fill_random_tiled(b.data(), b.size(), rng, -1.0, 1.0);
    bench_fp8_output<plans::Bf16TNSwiGLUToFp8, plans::Bf16TNSwiGLU>(
        "bf16 SwiGLU -> e4m3 1x128", m, n, k,
        [&](auto& args) { args.a = a.data(), args.lda = k, args.b = b.data(), args.ldb = k; }, records);
  }
  for (auto const& s : {std::array<std::int64_t, 3>{8192, 8192, 8192}, {4096, 14336, 4096}, {4096, 4096, 4096}}) {
    for (bool fast : {true, false}) bench<plans::Fp8E4M3>(s[0], s[1], s[2], Scaling::Tensor, fast, rng, handle, records);
    bench<plans::Fp8E4M3>(s[0], s[1], s[2], Scaling::RowColumn, true, rng, handle, records);
    // Blockwise against cuBLASLt's per-tensor GEMM that also promotes its accumulator.
    bench<plans::Fp8E4M3Blockwise>(s[0], s[1], s[2], Scaling::Block, false, rng, handle, records);
    bench<plans::Fp8E4M3BlockwiseN192>(s[0], s[1], s[2], Scaling::Block, false, rng, handle, records);
  }
}

/// --profile: for ncu, two launches of ours and of cuBLASLt (fast accumulation) at 4096^3 and
/// 8192^3, per-tensor scales, and nothing else.
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle) {
  for (std::int64_t size : {4096, 8192}) {
    Problem<plans::Fp8E4M3> p(size, size, size, Scaling::Tensor, rng, false);
    host::DeviceBuffer<plans::bf16> c(p.dc.size());
    kn::LtGemm reference(handle, {CUDA_R_8F_E4M3, std::uint64_t(size), std::uint64_t(size), p.ldb, true},
                         {CUDA_R_8F_E4M3, std::uint64_t(size), std::uint64_t(size), p.lda, false},
                         {CUDA_R_16BF, std::uint64_t(size), std::uint64_t(size), p.ldc},
                         {p.dscale_b.data(), p.dscale_a.data(), true});
    for (int i = 0; i < 2; ++i) {
      p.run();
      reference.run(p.db.data(), p.da.data(), c.data());
    }
  }
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_plan_kernels(argc, argv, plans::Fp8Instantiated{})) return 0;
  cublasLtHandle_t handle{};
  int const status = kn::run_example(
      "gemm_fp8_sm90", argc, argv,
      [](std::mt19937_64& rng, kn::ExampleOptions const& options) {
        return options.has("--profile") || run_checks(rng, options.has("--small"));
      },
      [&](std::mt19937_64& rng, kn::ExampleOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--small")) return;
        kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
        if (options.has("--profile")) return profile_launches(rng, handle);
        benchmarks(rng, handle, records);
      },
      {"--small", "--profile"});
  if (handle != nullptr) cublasLtDestroy(handle);
  return status;
}
