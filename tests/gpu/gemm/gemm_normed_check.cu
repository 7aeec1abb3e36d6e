// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_normed_check: checks the normed skinny GEMM (kernels/gemm/simt_gemv_norm.cuh) on fresh random
// data with NaN-poisoned outputs: C = rmsnorm(x + residual) W^T (and its SwiGLU-gated form) for 1 to 8
// rows against an fp64 product of the rows normed on the host as the kernel norms them (x + residual
// rounded to bf16, the gain applied, the product's A rounded to bf16), with and without a residual,
// the weights loaded early or not, K with no tile's multiple; the residual's output bit for bit; and
// the calls it refuses.
//   gemm_normed_check [--seed N] [--small]
#include "bench/support/bench.hpp"  // print_kernels
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/error_of.hpp"
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace cute_cpp::test::gemm_normed {
namespace {
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;

double val(bf16 v) { return double(__bfloat162float(v)); }
bf16 round_bf16(double v) { return __float2bfloat16_rn(float(v)); }

/// The host's normed rows: x' = bf16(x + r), then bf16(x' w / sqrt(mean(x'^2) + eps)); x' in `sums`.
std::vector<bf16> host_normed(std::vector<bf16> const& x, std::vector<bf16> const* r, std::vector<bf16> const& w,
                              std::int64_t m, std::int64_t k, float eps, std::vector<bf16>& sums) {
  std::vector<bf16> out(x.size());
  sums.resize(x.size());
  for (std::int64_t i = 0; i < m; ++i) {
    double squares = 0;
    for (std::int64_t c = 0; c < k; ++c) {
      std::size_t const at = std::size_t(i * k + c);
      sums[at] = round_bf16(float(val(x[at])) + (r ? float(val((*r)[at])) : 0.0f));
      squares += val(sums[at]) * val(sums[at]);
    }
    double const rstd = 1.0 / std::sqrt(squares / double(k) + double(eps));
    for (std::int64_t c = 0; c < k; ++c) {
      std::size_t const at = std::size_t(i * k + c);
      out[at] = round_bf16(val(sums[at]) * val(w[std::size_t(c)]) * rstd);
    }
  }
  return out;
}

/// One normed product (Plan: Bf16TN plain or Bf16TNSwiGLU gated) against the host's.
template <class Plan>
bool check_normed(std::int64_t m, std::int64_t n, std::int64_t k, bool residual, bool early, std::mt19937_64& rng) {
  constexpr bool gated = Plan::gated;
  std::int64_t const cols = gated ? n / 2 : n;
  // C's rows are 16-byte aligned (the kernel's rule): an N tail of 777 gets a row stride of 784.
  std::int64_t const ldc = (cols + 7) / 8 * 8;
  auto const x = kn::random_values<bf16>(std::size_t(m * k), rng, -2.0, 2.0);
  auto const r = kn::random_values<bf16>(std::size_t(m * k), rng, -2.0, 2.0);
  auto const w = kn::random_values<bf16>(std::size_t(k), rng, 0.5, 1.5);
  auto const b = kn::random_values<bf16>(std::size_t(n * k), rng, -1.0, 1.0);
  host::DeviceBuffer<bf16> dx(x.size()), dr(r.size()), dw(w.size()), db(b.size()), dc(std::size_t(m * ldc)),
      dsum(x.size());
  dx.upload(x), dr.upload(r), dw.upload(w), db.upload(b);
  dc.fill_bytes(0xFF), dsum.fill_bytes(0xFF);
  kn::GemmArguments<Plan> args;
  args.b = db.data(), args.ldb = k, args.c = dc.data(), args.ldc = ldc, args.m = m, args.n = n, args.k = k;
  if (early) args.independent = kn::IndependentOperand::B;
  kn::RmsNormedRows<bf16> const norm{dx.data(), residual ? dr.data() : nullptr, dw.data(), dsum.data(), 1e-6f};
  kn::run_gemm_normed<Plan>(args, norm, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<bf16> sums;
  auto const a = host_normed(x, residual ? &r : nullptr, w, m, k, 1e-6f, sums);
  std::vector<double> want(std::size_t(m * cols)), slope(std::size_t(m * cols), 1.0);
  auto const dot = [&](std::int64_t i, std::int64_t j) {
    double s = 0;
    for (std::int64_t c = 0; c < k; ++c) s += val(a[std::size_t(i * k + c)]) * val(b[std::size_t(j * k + c)]);
    return s;
  };
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      if constexpr (gated) {
        double const g = dot(i, cute_cpp::epilogue::gated_gate_row(j)), u = dot(i, cute_cpp::epilogue::gated_up_row(j));
        double const sigmoid = 1 / (1 + std::exp(-g));
        want[std::size_t(i * cols + j)] = g * sigmoid * u;
        // d out = silu'(g) u dg + silu(g) du: a dot's error reaches the output scaled by these.
        slope[std::size_t(i * cols + j)] = std::fabs(sigmoid * (1 + g * (1 - sigmoid)) * u) + std::fabs(g * sigmoid);
      } else {
        want[std::size_t(i * cols + j)] = dot(i, j);
      }
    }
  // A normed value may land a bf16 step away from the host's (the sum of squares in another order):
  // a dot's tolerance, through SwiGLU's slopes for the gated output (a product of two dots of ~30
  // near an output of ~5 moves it by 30x a dot's error; the dot's bound alone failed such elements),
  // never below the dot's own (where silu(g) ~ 0 the slopes vanish, yet the output rounds to a 0).
  auto const padded = dc.download();
  std::vector<bf16> got(std::size_t(m * cols));
  bool padding_kept = true;  // the columns past N in each row stay poisoned
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < ldc; ++j) {
      bf16 const v = padded[std::size_t(i * ldc + j)];
      if (j < cols) got[std::size_t(i * cols + j)] = v;
      else padding_kept &= std::isnan(val(v));
    }
  double const dot_atol = 2e-2 * std::sqrt(double(k)) / 8;
  auto const result = kn::check_close_each(std::span<bf16 const>(got), std::span<double const>(want), 1.0 / 64,
                                           [&](std::size_t e) { return dot_atol * std::max(1.0, slope[e]); });
  auto const sum_out = dsum.download();
  bool const sums_equal = std::memcmp(sum_out.data(), sums.data(), sums.size() * sizeof(bf16)) == 0;
  std::printf("check normed %-7s m=%lld n=%-6lld k=%-5lld %-11s %-14s C %s%s, x + residual %s\n",
              gated ? "swiglu" : "plain", (long long)m, (long long)n, (long long)k,
              residual ? "residual" : "no residual", early ? "weights early" : "weights after",
              result.summary().c_str(), padding_kept ? "" : " (WROTE PAST N)", sums_equal ? "bit for bit" : "DIFFERS");
  return result.ok() && padding_kept && sums_equal;
}

bool check_rejections() {
  host::DeviceBuffer<bf16> buffer(1 << 16);
  kn::GemmArguments<kn::plans::Bf16TN> good;
  good.b = buffer.data(), good.ldb = 64, good.c = buffer.data() + 32768, good.ldc = 64, good.m = 2, good.n = 64,
  good.k = 64;
  kn::RmsNormedRows<bf16> const norm{buffer.data() + 8192, nullptr, buffer.data() + 16384, nullptr, 1e-6f};
  auto with = [&](auto change) { auto g = good; change(g); return g; };
  auto const refuses = [](char const* what, auto call) { return cute_cpp::test::refuses(what, "gemm.normed", call); };
  bool ok = true;
  ok &= refuses("9 rows", [&] { kn::run_gemm_normed<kn::plans::Bf16TN>(with([](auto& g) { g.m = 9; }), norm, nullptr); });
  ok &= refuses("K = 60", [&] { kn::run_gemm_normed<kn::plans::Bf16TN>(with([](auto& g) { g.k = 60; }), norm, nullptr); });
  ok &= refuses("split-K", [&] {
    kn::run_gemm_normed<kn::plans::Bf16TN>(with([](auto& g) { g.decomposition = kn::Decomposition::SplitK, g.k_splits = 2; }),
                                           norm, nullptr);
  });
  ok &= refuses("no gain", [&] {
    auto n = norm;
    n.weight = nullptr;
    kn::run_gemm_normed<kn::plans::Bf16TN>(good, n, nullptr);
  });
  ok &= refuses("a misaligned x", [&] {
    auto n = norm;
    n.x = norm.x + 4;  // 8 bytes past 16
    kn::run_gemm_normed<kn::plans::Bf16TN>(good, n, nullptr);
  });
  // In place: CTA 0 would write the residual's next value while the others still read it.
  ok &= cute_cpp::test::refuses("the residual updated in place", "gemm.aliasing", [&] {
    auto n = norm;
    n.residual = buffer.data() + 24576;
    n.residual_out = buffer.data() + 24576;
    kn::run_gemm_normed<kn::plans::Bf16TN>(good, n, nullptr);
  });
  ok &= cute_cpp::test::refuses("C over x", "gemm.aliasing", [&] {
    kn::run_gemm_normed<kn::plans::Bf16TN>(with([&](auto& g) { g.c = buffer.data() + 8192; }), norm, nullptr);
  });
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejections();
  ok &= check_normed<kn::plans::Bf16TN>(1, 200, 136, true, true, rng);
  ok &= check_normed<kn::plans::Bf16TNSwiGLU>(3, 528, 264, false, false, rng);
  if (small) return ok;
  // A decode step's projections at Qwen3-8B's hidden width: QKV, gate-up, the LM head's shape class.
  ok &= check_normed<kn::plans::Bf16TN>(1, 6144, 4096, true, true, rng);
  ok &= check_normed<kn::plans::Bf16TNSwiGLU>(1, 24576, 4096, true, true, rng);
  ok &= check_normed<kn::plans::Bf16TN>(8, 1000, 4096, true, false, rng);
  ok &= check_normed<kn::plans::Bf16TN>(5, 777, 1000, false, true, rng);
  ok &= check_normed<kn::plans::Bf16TNSwiGLU>(8, 2048, 6144, true, true, rng);
  return ok;
}

}  // namespace

/// The normed kernels of the library's bf16 plans (plain and gated), each short-row count: their
/// dynamic shared memory holds the step's normed rows, M x K x 2 bytes a launch.
std::vector<kn::KernelSmem> normed_kernels() {
  std::vector<kn::KernelSmem> kernels;
  auto const add = [&]<class Op, int... Short>(std::type_identity<Op>, std::integer_sequence<int, Short...>) {
    (kernels.push_back(kn::kernel_smem_per_call<&kn::simt_gemv_normed_kernel<bf16, bf16, Short, Op>>(
         "M x K x 2 (the normed rows)")),
     ...);
  };
  add(std::type_identity<epilogue::Identity>{}, std::integer_sequence<int, 1, 2, 4, 8>{});
  add(std::type_identity<epilogue::SwiGLU>{}, std::integer_sequence<int, 1, 2, 4, 8>{});
  return kernels;
}

}  // namespace cute_cpp::test::gemm_normed

int main(int argc, char** argv) {
  if (cute_cpp::kernels::print_kernels(argc, argv, cute_cpp::test::gemm_normed::normed_kernels())) return 0;
  return cute_cpp::kernels::run_check(
      "gemm_normed_check", argc, argv,
      [](std::mt19937_64& rng, cute_cpp::kernels::ProgramOptions const& options) {
        return cute_cpp::test::gemm_normed::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
