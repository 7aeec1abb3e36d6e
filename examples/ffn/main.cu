// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// ffn: checks the feed-forward block y = (silu(x Wg^T) * (x Wu^T)) Wd^T, two Hopper GEMMs (the
// gate-up projection with the SwiGLU epilogue, then the down projection), against a CPU
// reference in double on fresh random data with NaN-poisoned outputs (ragged M, N tails), then
// times it against cuBLAS doing the same three products (bf16 in, f32 accumulate) plus the
// fused SwiGLU kernel of kernels/rows/swiglu.cuh, and prints TFLOP/s and the ratio.
//   ffn [--no-bench] [--json FILE] [--seed N] [--small]   (--small: two small cases and the
//   rejection, no benchmark, for compute-sanitizer)
#include <cute_cpp/kernels/gemm/ffn.cuh>
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "bench/support/cublas.hpp"
#include "tests/support/cli.hpp"
#include <cute_cpp/kernels/rows/swiglu.cuh>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::bf16;

namespace {

/// The problem's buffers on the device and their host values.
struct Problem {
  std::size_t m, d, f;
  std::vector<bf16> x, wg, wu, wd;
  host::DeviceBuffer<bf16> dx, dwg, dwu, dwd, dwgu, dh, dy;
  host::DeviceBuffer<unsigned char> workspace;  // the GEMMs' stream-K / split-K, zeroed once
  Problem(std::size_t m_, std::size_t d_, std::size_t f_, std::mt19937_64& rng)
      : m(m_), d(d_), f(f_),
        x(kn::random_values<bf16>(m * d, rng)),
        wg(kn::random_values<bf16>(f * d, rng, -1.0 / std::sqrt(double(d)), 1.0 / std::sqrt(double(d)))),
        wu(kn::random_values<bf16>(f * d, rng, -1.0 / std::sqrt(double(d)), 1.0 / std::sqrt(double(d)))),
        wd(kn::random_values<bf16>(d * f, rng, -1.0 / std::sqrt(double(f)), 1.0 / std::sqrt(double(f)))),
        dx(m * d), dwg(f * d), dwu(f * d), dwd(d * f), dwgu(2 * f * d), dh(m * f), dy(m * d),
        workspace(std::max<std::size_t>(kn::ffn_workspace_bytes(m, d, f), 1)) {
    dx.upload(std::span<bf16 const>(x));
    dwg.upload(std::span<bf16 const>(wg));
    dwu.upload(std::span<bf16 const>(wu));
    dwd.upload(std::span<bf16 const>(wd));
    workspace.fill_bytes(0);
    kn::pack_gate_up(dwg.data(), dwu.data(), dwgu.data(), f, d);  // once, as a model loading its weights
  }
  void run_ours(cudaStream_t stream = nullptr) {
    kn::ffn(dx.data(), {dwgu.data(), dwd.data()}, dh.data(), dy.data(), m, d, f, workspace.data(), workspace.bytes(),
            stream);
  }

  /// Row r of y in double, with h rounded to bf16 as the kernels store it.
  std::vector<double> reference_row(std::size_t r) const {
    std::vector<double> h(f), y(d);
    auto val = [](bf16 v) { return double(static_cast<float>(v)); };
    for (std::size_t j = 0; j < f; ++j) {
      double g = 0, u = 0;
      for (std::size_t k = 0; k < d; ++k) {
        g += val(x[r * d + k]) * val(wg[j * d + k]);
        u += val(x[r * d + k]) * val(wu[j * d + k]);
      }
      h[j] = val(static_cast<bf16>(static_cast<float>(g / (1 + std::exp(-g)) * u)));
    }
    for (std::size_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::size_t j = 0; j < f; ++j) acc += h[j] * val(wd[c * f + j]);
      y[c] = acc;
    }
    return y;
  }
};

/// Checks the listed rows of y against the reference (every element of those rows).
bool check_rows(Problem& p, std::vector<std::size_t> const& rows, char const* what) {
  p.dy.fill_bytes(0xFF);
  p.dh.fill_bytes(0xFF);
  p.run_ours();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = p.dy.download();
  std::vector<bf16> got_rows;
  std::vector<double> want;
  for (std::size_t r : rows) {
    auto const w = p.reference_row(r);
    want.insert(want.end(), w.begin(), w.end());
    got_rows.insert(got_rows.end(), got.begin() + std::ptrdiff_t(r * p.d), got.begin() + std::ptrdiff_t((r + 1) * p.d));
  }
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  // NOTE: y is rounded to bf16 (2^-9 relative), and h's bf16 rounding may differ from the
  // reference's where f32 and double accumulation straddle a rounding boundary.
  auto const res = kn::check_close(std::span<bf16 const>(got_rows), std::span<double const>(want), 1.0 / 128, scale * 0.01);
  std::printf("check ffn %-28s M=%-6zu D=%-5zu F=%-6zu rows checked=%-5zu %s\n", what, p.m, p.d, p.f, rows.size(),
              res.summary().c_str());
  return res.ok();
}

/// F not a multiple of 8: the fused weight's blocks of 8 rows do not fit.
bool check_rejection(std::mt19937_64& rng) {
  try {
    Problem p(4, 64, 12, rng);
    std::printf("check ffn rejects F=12 FAILED: no error\n");
    return false;
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find("[ffn.shape]") != std::string::npos;
    std::printf("check ffn rejects F=12 [ffn.shape] %s\n", named ? "ok" : "FAILED: another error");
    return named;
  }
}

/// Every row of y for fresh M x D x F data.
bool check_all_rows(std::size_t m, std::size_t d, std::size_t f, std::mt19937_64& rng) {
  Problem p(m, d, f, rng);
  std::vector<std::size_t> all(m);
  for (std::size_t r = 0; r < m; ++r) all[r] = r;
  return check_rows(p, all, "ragged M and N tiles");
}

bool run_checks(std::mt19937_64& rng) {
  bool ok = check_rejection(rng);
  ok &= check_all_rows(1, 64, 96, rng);
  ok &= check_all_rows(77, 256, 352, rng);
  ok &= check_all_rows(300, 160, 608, rng);
  return ok;
}

/// --small, for compute-sanitizer (memcheck, racecheck, synccheck, initcheck): one row, and 130
/// rows (a second 128-row tile of 2) with D = 72 and F = 200 (each GEMM's K and N past a multiple
/// of 64); and the rejection.
bool check_small(std::mt19937_64& rng) {
  bool ok = check_rejection(rng);
  ok &= check_all_rows(1, 64, 96, rng);
  ok &= check_all_rows(130, 72, 200, rng);
  return ok;
}

void bench(std::size_t m, std::size_t d, std::size_t f, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  Problem p(m, d, f, rng);
  // A few rows of the timed shape are checked too (first, last, and two at random).
  std::vector<std::size_t> rows{0, m - 1, std::size_t(rng() % m), std::size_t(rng() % m)};
  if (!check_rows(p, rows, "benchmark shape (sampled)")) throw std::runtime_error("ffn: benchmark-shape check failed");
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  host::DeviceBuffer<bf16> gu(m * 2 * f), h(m * f), y(m * d);
  auto const reference = [&] {
    kn::cublas_linear(handle, p.dx.data(), p.dwg.data(), gu.data(), int(m), int(f), int(d), int(2 * f));
    kn::cublas_linear(handle, p.dx.data(), p.dwu.data(), gu.data() + f, int(m), int(f), int(d), int(2 * f));
    kn::swiglu<bf16>(gu.data(), h.data(), m, f);
    kn::cublas_linear(handle, h.data(), p.dwd.data(), y.data(), int(m), int(d), int(f), int(d));
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { p.run_ours(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  double const flops = 2.0 * double(m) * double(d) * double(f) * 3.0;
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"ffn", std::to_string(m) + "x" + std::to_string(d) + "x" + std::to_string(f), "bf16", tflops(ours_ms),
                     "cuBLAS x3 + swiglu", tflops(ref_ms), "TFLOP/s", ours_ms * 1e3});
}

}  // namespace

int main(int argc, char** argv) {
  // --kernels: the dynamic shared memory of the GEMM kernels linked in, for scripts/build-report.
  if (kn::print_plan_kernels(argc, argv, kn::plans::Instantiated{})) return 0;
  return kn::run_example(
      "ffn", argc, argv,
      [](std::mt19937_64& rng, kn::ExampleOptions const& options) {
        return options.has("--small") ? check_small(rng) : run_checks(rng);
      },
      [](std::mt19937_64& rng, kn::ExampleOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--small")) return;  // checks only, as with --no-bench
        bench(8192, 4096, 11008, records, rng);
        bench(2048, 4096, 11008, records, rng);
      },
      {"--small"});
}
