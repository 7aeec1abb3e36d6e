// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_fp8_check: checks the Hopper GEMM's FP8 plans (kernels/gemm: e4m3 x e4m3 and e5m2 x e4m3,
// bf16 out, scaled per tensor or per row and column in the epilogue, and e4m3 scaled by 1 x 128 and
// 128 x 128 blocks in the main loop, with the baseline's and issue 44's main loops; fast and
// two-level accumulation; FP8 outputs
// quantized by 1 x 128 blocks in the epilogue) and
// the quantizers (quantize.cuh) against a CPU reference in double of the dequantized operands, on
// fresh random data with NaN-poisoned outputs and sizes that are not multiples of the tile; and the
// calls the plans refuse.
//   gemm_fp8_check [--seed N] [--small]   (--small: small cases and the rejections, for
//   compute-sanitizer)
// Its timings: bench/gemm/bench_gemm_fp8.cu.
#include "tests/gpu/gemm/gemm_fp8_operands.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include <cute_cpp/kernels/gemm/quantize.cuh>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_fp8 {
namespace {

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

/// Issue 44's block-scaled main loops (plans::Fp8BlockwiseMainLoops), each on both layouts of A's
/// scales: one K block (the overlapped loop's prologue alone), an odd and an even count of K blocks
/// (its two tails), M below a tile, N past a tile's columns (144 and 160: tiles whose columns
/// cross a B scale block at 16, 32, ... 112), and, without --small, many tile columns, a long
/// K that the heuristic cuts (split-K: tiles starting at a K block other than 0), several tiles a
/// CTA and a stream-K cut.
template <class... Plans>
bool check_mainloops(kn::GemmPlanList<Plans...>, std::mt19937_64& rng, bool small) {
  bool ok = true;
  auto const one = [&]<class Plan>(std::type_identity<Plan>) {
    for (Scaling s : {Scaling::Block, Scaling::BlockKMajor}) {
      ok &= check<Plan>(1, 256, 128, s, rng);
      ok &= check<Plan>(77, 300, 272, s, rng);
      ok &= check<Plan>(130, 200, 400, s, rng);
      if (small) continue;
      ok &= check<Plan>(300, 1000, 1040, s, rng);
      ok &= check<Plan>(129, 520, 4096, s, rng);
      ok &= check<Plan>(260, 2000, 656, s, rng);
      if (s != Scaling::Block) continue;
      // Several tiles a CTA (the loader's and the consumers' state carried across tiles, each tile's
      // scale-block boundary anew), and a stream-K cut (tiles starting past K block 0).
      ok &= check<Plan>(2200, 2000, 272, s, rng);
      ok &= check<Plan>(1100, 2000, 1040, s, rng);
    }
  };
  (one(std::type_identity<Plans>{}), ...);
  return ok;
}

/// The worst relative error of Plan's C (bf16) on a sum that does not cancel: e4m3 operands in
/// [0.5, 1], one scale of 1 per tensor, so each output is about 0.56 k.
template <class Plan>
double positive_sum_error(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng) {
  Problem<Plan> p(m, n, k, Scaling::Tensor, rng);
  std::uniform_real_distribution<float> half_to_one(0.5f, 1.0f);
  for (auto& v : p.a) v = typename Plan::TA(half_to_one(rng));
  for (auto& v : p.b) v = typename Plan::TB(half_to_one(rng));
  p.scale_a = {1.0f};
  p.scale_b = {1.0f};
  p.da.upload(std::span<typename Plan::TA const>(p.a));
  p.db.upload(std::span<typename Plan::TB const>(p.b));
  p.dscale_a.upload(std::span<float const>(p.scale_a));
  p.dscale_b.upload(std::span<float const>(p.scale_b));
  p.dc.fill_bytes(0xFF);
  // Whole tiles: a split would add the partial sums of K / splits in fp32, hiding most of what the
  // accumulation mode costs.
  auto args = p.arguments();
  args.decomposition = kn::Decomposition::DataParallel;
  kn::run_gemm<Plan>(args, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<double> want;
  double magnitude = 0;
  p.reference(want, magnitude);
  auto const got = p.result();
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double const error = std::fabs(double(float(got[i])) - want[i]) / want[i];
    worst = std::isnan(error) ? INFINITY : std::max(worst, error);  // a NaN (unwritten C) fails
  }
  return worst;
}

/// Two-level against fast accumulation on one long sum that does not cancel (K = 16384, the same
/// operands): wgmma's FP8 accumulator keeps fewer bits than fp32, so adding each k-step's products
/// to a large running sum loses its low bits; two-level accumulation restarts that sum every 128 of
/// K. The two-level plan must stay within bf16's rounding (2^-8 relative) plus 2^-10; fast
/// accumulation's error is printed beside it (what the mode costs), not judged.
bool check_accumulation_modes(std::mt19937_64& rng) {
  std::int64_t const m = 64, n = 256, k = 16384;
  std::mt19937_64 same = rng;
  double const fast = positive_sum_error<plans::Fp8E4M3>(m, n, k, same);
  double const two_level = positive_sum_error<plans::Fp8E4M3TwoLevel>(m, n, k, rng);
  bool const ok = two_level <= 1.0 / 256 + 1.0 / 1024;
  std::printf("check two-level accumulation on a positive sum m=%lld n=%lld k=%lld %s (worst relative error "
              "two-level %.2e, fast %.2e)\n",
              (long long)m, (long long)n, (long long)k, ok ? "ok" : "FAILED", two_level, fast);
  return ok;
}

/// Scaled per tensor or per row and column in the epilogue, on fast and two-level accumulation
/// plans and the 256 x 128 tile: one K block (the overlapped loop's prologue alone), an odd and an
/// even count of K blocks (its two tails; K past a block), M below a tile, and, without --small,
/// many tile columns and a long K that the heuristic cuts.
bool check_per_tensor(std::mt19937_64& rng, bool small) {
  bool ok = true;
  for (Scaling s : {Scaling::Tensor, Scaling::RowColumn}) {
    ok &= check<plans::Fp8E4M3>(1, 256, 128, s, rng);
    ok &= check<plans::Fp8E4M3>(77, 300, 272, s, rng);
    ok &= check<plans::Fp8E5M2E4M3>(130, 200, 144, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevel>(1, 256, 128, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevel>(77, 300, 272, s, rng);
    ok &= check<plans::Fp8E5M2E4M3TwoLevel>(130, 200, 400, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevelN192>(77, 300, 272, s, rng);
    ok &= check<plans::Fp8E4M3Tile256x128>(77, 300, 272, s, rng);  // 256-row tiles: two atoms a warpgroup
    ok &= check<plans::Fp8E4M3Tile256x128>(300, 200, 144, s, rng);
    if (small) continue;
    ok &= check<plans::Fp8E4M3>(300, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3>(129, 520, 4096, s, rng);  // long K; split-K on one partial wave
    ok &= check<plans::Fp8E5M2E4M3>(257, 700, 2048, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevel>(300, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevel>(129, 520, 4096, s, rng);
    ok &= check<plans::Fp8E5M2E4M3TwoLevel>(257, 700, 2048, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevelN192>(260, 2000, 656, s, rng);
    // Several tiles a CTA (the pipeline state carried across tiles), and a stream-K cut.
    ok &= check<plans::Fp8E4M3TwoLevel>(1100, 2000, 272, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevel>(1100, 2000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3TwoLevelN192>(2200, 2000, 656, s, rng);
    ok &= check<plans::Fp8E4M3Tile256x128>(700, 1000, 1040, s, rng);
    ok &= check<plans::Fp8E4M3Tile256x128>(129, 520, 4096, s, rng);
  }
  if (!small) ok &= check_accumulation_modes(rng);
  return ok;
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
  ok &= check_rejection<plans::Fp8E4M3TwoLevel>("block scales on a two-level plan", "[gemm.block-scales]", rng,
                                                [](auto& a) { a.block_scales.a = a.epilogue_op.scale_a; });
  ok &= check_rejection<plans::Fp8E4M3Blockwise>("a block-scaled plan without scales", "[gemm.block-scales]", rng,
                                                 [](auto& a) { a.block_scales = {}; });
  ok &= check_rejection<plans::Fp8E4M3BlockwiseOverlapStaged>("a staged-scales plan without scales",
                                                              "[gemm.block-scales]", rng,
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
  ok &= check_mainloops(plans::Fp8BlockwiseMainLoops{}, rng, small);
  ok &= check_per_tensor(rng, small);
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_fp8

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  using Linked = kn::plans::JoinedPlanLists<kn::plans::Fp8Instantiated, kn::plans::Fp8BlockwiseMainLoops,
                                            kn::plans::Fp8VariantsInstantiated>::type;
  if (kn::print_plan_kernels(argc, argv, Linked{})) return 0;
  return kn::run_check(
      "gemm_fp8_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return cute_cpp::test::gemm_fp8::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
