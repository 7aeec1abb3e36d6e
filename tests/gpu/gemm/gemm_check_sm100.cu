// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_check_sm100: checks the sm_100a dense GEMM (kernels/gemm/gemm_sm100.hpp) on fresh random data:
// every plan (1-CTA 128 x 128 and 128 x 256, pairs of 256 x 256 and 256 x 352; bf16, fp16 and FP8
// e4m3 / e5m2 operands with per-tensor scales; K-major and MN-major operands; bf16, fp16, fp32 C)
// and the three dispatchers, on sizes that are not multiples of the tile (ragged M, N and K) and
// on exact tiles; C is NaN-poisoned first and every element is compared with a double reference
// within C's rounding plus the fp32 accumulation's; and the calls the entry points refuse. Built
// for 100a only: no sm_100a GPU has run it yet.
//   gemm_check_sm100 [--seed N] [--small]
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/support/cli.hpp"
#include "tests/support/error_of.hpp"
#include <cute_cpp/kernels/gemm/gemm_sm100.hpp>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_sm100 {
namespace {
namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
using cute_cpp::OperandMajorMode;

template <class T>
constexpr bool is_fp8 = std::is_same_v<T, p::e4m3> || std::is_same_v<T, p::e5m2>;

/// Half a unit in the last place of C, relative (the rounding of the output).
template <class TC>
constexpr double output_rtol() {
  if constexpr (std::is_same_v<TC, float>) return std::ldexp(1.0, -20);
  else if constexpr (std::is_same_v<TC, __half>) return std::ldexp(1.0, -10);
  else return std::ldexp(1.0, -7);
}

/// A problem in Plan's layouts on the device and the host; C poisoned with NaN.
template <class Plan>
struct Problem {
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
  static constexpr bool a_k = Plan::major_a == OperandMajorMode::K, b_k = Plan::major_b == OperandMajorMode::K;
  std::int64_t m, n, k, lda, ldb, ldc;
  std::vector<TA> a;
  std::vector<TB> b;
  host::DeviceBuffer<TA> da;
  host::DeviceBuffer<TB> db;
  host::DeviceBuffer<TC> dc;
  host::DeviceBuffer<float> scales{2};
  static constexpr float scale_a = 0.75f, scale_b = 1.25f;

  /// A leading dimension past `extent`, padded to a 16-byte multiple and 16 bytes more, so the
  /// padding is exercised.
  template <class T>
  static std::int64_t padded(std::int64_t extent) {
    std::int64_t const per16 = 16 / std::int64_t(sizeof(T));
    return (extent + per16 - 1) / per16 * per16 + per16;
  }
  Problem(std::int64_t m_, std::int64_t n_, std::int64_t k_, std::mt19937_64& rng) : m(m_), n(n_), k(k_) {
    lda = padded<TA>(a_k ? k : m);
    ldb = padded<TB>(b_k ? k : n);
    ldc = padded<TC>(n);
    a = kn::random_values<TA>(std::size_t(lda * (a_k ? m : k)), rng, -1.0, 1.0);
    b = kn::random_values<TB>(std::size_t(ldb * (b_k ? n : k)), rng, -1.0, 1.0);
    da = host::DeviceBuffer<TA>(a.size());
    db = host::DeviceBuffer<TB>(b.size());
    dc = host::DeviceBuffer<TC>(std::size_t(ldc * m));
    da.upload(std::span<TA const>(a));
    db.upload(std::span<TB const>(b));
    dc.fill_bytes(0xFF);
    std::vector<float> const s{scale_a, scale_b};
    scales.upload(std::span<float const>(s));
  }
  double a_at(std::int64_t i, std::int64_t kk) const { return double(float(a_k ? a[i * lda + kk] : a[kk * lda + i])); }
  double b_at(std::int64_t kk, std::int64_t j) const { return double(float(b_k ? b[j * ldb + kk] : b[kk * ldb + j])); }
  kn::GemmArguments<Plan> arguments() const {
    kn::GemmArguments<Plan> args;
    args.a = da.data(), args.lda = lda;
    args.b = db.data(), args.ldb = ldb;
    args.c = dc.data(), args.ldc = ldc;
    args.m = m, args.n = n, args.k = k;
    if constexpr (!std::is_same_v<typename Plan::EpilogueOp, epilogue::Identity>) {
      args.epilogue_op.scale_a = scales.data();
      args.epilogue_op.scale_b = scales.data() + 1;
    }
    return args;
  }
  /// Compares every element of C with the reference; prints one line.
  bool check(char const* what) const {
    double const scale = std::is_same_v<typename Plan::EpilogueOp, epilogue::Identity> ? 1.0 : double(scale_a) * scale_b;
    auto const out = dc.download();
    std::size_t bad = 0, first = 0;
    double got_first = 0, want_first = 0;
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double ref = 0, mag = 0;
        for (std::int64_t kk = 0; kk < k; ++kk) {
          double const x = a_at(i, kk) * b_at(kk, j);
          ref += x;
          mag += std::fabs(x);
        }
        ref *= scale, mag *= scale;
        double const got = double(float(out[std::size_t(i * ldc + j)]));
        // C's rounding, and fp32 accumulation over K (2^-14 of the sum of magnitudes bounds it
        // for the K here).
        bool const good = std::fabs(got - ref) <= output_rtol<TC>() * std::fabs(ref) + std::ldexp(mag, -14);
        if (!good && bad++ == 0) first = std::size_t(i * n + j), got_first = got, want_first = ref;
      }
    std::printf("%-44s m=%-5lld n=%-5lld k=%-5lld %s", what, (long long)m, (long long)n, (long long)k,
                bad == 0 ? "ok\n" : "");
    if (bad != 0)
      std::printf("%zu of %lld wrong; first (%zu, %zu): got %.6g, want %.6g\n", bad, (long long)(m * n),
                  first / std::size_t(n), first % std::size_t(n), got_first, want_first);
    return bad == 0;
  }
};

/// Plan's sizes: ragged in M, N and K, exact tiles, and one row by one K block.
template <class Plan>
bool check_plan(char const* name, std::mt19937_64& rng, bool small) {
  std::int64_t const k_step = 16 / std::int64_t(sizeof(typename Plan::TA));
  struct Size {
    std::int64_t m, n, k;
  };
  std::vector<Size> sizes = {{Plan::block_m + 37, Plan::block_n + 53, 3 * Plan::block_k + k_step},
                             {1, 8, k_step},
                             {Plan::block_m, Plan::block_n, Plan::block_k}};
  if (!small) sizes.push_back({3 * Plan::block_m + 5, 2 * Plan::block_n - 24, 9 * Plan::block_k - 3 * k_step});
  bool ok = true;
  for (Size const s : sizes) {
    Problem<Plan> problem(s.m, s.n, s.k, rng);
    kn::run_gemm_sm100<Plan>(problem.arguments());
    ok &= problem.check(name);
  }
  return ok;
}

/// A dispatcher (run_gemm_sm100(args)) over Family's type set, on shapes each rule picks a tile for.
template <class Family>
bool check_dispatch(char const* name, std::mt19937_64& rng, bool small) {
  using Plan = typename Family::Wide;
  std::int64_t const k = 5 * Plan::block_k + 16 / std::int64_t(sizeof(typename Plan::TA));
  bool ok = true;
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{77, 1000}, {1111, 2333}}) {
    if (small && m > 1000) continue;
    Problem<Plan> problem(m, n, k, rng);
    kn::run_gemm_sm100(problem.arguments());
    ok &= problem.check(name);
  }
  return ok;
}

bool check_rejections(std::mt19937_64& rng) {
  using cute_cpp::test::refuses;
  Problem<p::Bf16Tile128x256> problem(64, 64, 64, rng);
  auto with = [&](auto change) {
    auto args = problem.arguments();
    change(args);
    return args;
  };
  bool ok = true;
  ok &= refuses("split-K", "gemm.sm100.decomposition", [&] {
    kn::run_gemm_sm100(with([](auto& a) { a.decomposition = kn::Decomposition::SplitK; }));
  });
  ok &= refuses("K = 60", "gemm.k-multiple-of-8", [&] { kn::run_gemm_sm100(with([](auto& a) { a.k = 60; })); });
  ok &= refuses("null C", "gemm.pointers", [&] {
    kn::run_gemm_sm100<p::Bf16Pair256x352>(with([](auto& a) { a.c = nullptr; }));
  });
  ok &= refuses("host A", "gemm.pointers", [&] {
    kn::run_gemm_sm100<p::Bf16Tile128x128>(with([&](auto& a) { a.a = problem.a.data(); }));
  });
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejections(rng);
  ok &= check_plan<p::Bf16Tile128x128>("bf16 128x128", rng, small);
  ok &= check_plan<p::Bf16Tile128x256>("bf16 128x256", rng, small);
  ok &= check_plan<p::Bf16Pair256x256>("bf16 pair 256x256", rng, small);
  ok &= check_plan<p::Bf16Pair256x352>("bf16 pair 256x352 (two atoms, one acc stage)", rng, small);
  ok &= check_plan<p::Bf16ToF32Tile128x256>("bf16 -> f32 128x256", rng, small);
  ok &= check_plan<p::Bf16MNPair256x256>("bf16 MN-major A and B, pair 256x256", rng, small);
  ok &= check_plan<p::F16Tile128x128>("f16 128x128", rng, small);
  ok &= check_plan<p::F16Tile128x256>("f16 128x256", rng, small);
  ok &= check_plan<p::F16Pair256x256>("f16 pair 256x256", rng, small);
  ok &= check_plan<p::F16ToF32NNTile128x256>("f16 -> f32, MN-major B, 128x256", rng, small);
  ok &= check_plan<p::Fp8E4M3Tile128x128>("e4m3 scaled 128x128", rng, small);
  ok &= check_plan<p::Fp8E4M3Tile128x256>("e4m3 scaled 128x256", rng, small);
  ok &= check_plan<p::Fp8E4M3Pair256x256>("e4m3 scaled pair 256x256", rng, small);
  ok &= check_plan<p::Fp8E5M2E4M3Tile128x256>("e5m2 x e4m3 scaled 128x256", rng, small);
  ok &= check_dispatch<p::Bf16Family>("dispatch bf16", rng, small);
  ok &= check_dispatch<p::F16Family>("dispatch f16", rng, small);
  ok &= check_dispatch<p::Fp8E4M3Family>("dispatch e4m3 scaled", rng, small);
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_sm100

int main(int argc, char** argv) {
  if (cute_cpp::kernels::print_plan_kernels(argc, argv, cute_cpp::kernels::plans::sm100::Instantiated{})) return 0;
  return cute_cpp::kernels::run_check(
      "gemm_check_sm100", argc, argv,
      [](std::mt19937_64& rng, cute_cpp::kernels::ProgramOptions const& options) {
        return cute_cpp::test::gemm_sm100::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
