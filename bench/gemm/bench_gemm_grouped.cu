// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm's grouped part: the grouped Hopper GEMM (kernels/gemm/grouped_gemm.hpp) on MoE layers
// with router-like uneven expert loads: bf16 in 128-row and 64-row tiles (Qwen3-30B-A3B's experts,
// and even loads) against a loop of cuBLAS calls, one per expert; block-scaled FP8 (DeepSeek-V3-like
// experts) against cuBLASLt's FP8 GEMM over the same rows as one dense GEMM. Sampled rows of each
// bf16 shape are checked before it is timed. Records are named "grouped_gemm_sm90 ..." as the former
// grouped_gemm_sm90 example named them. Its checks: tests/gpu/gemm/grouped_gemm_check.cu.
#include "bench/gemm/bench_gemm.hpp"
#include "bench/support/cublas.hpp"
#include "bench/support/cublaslt_gemm.hpp"
#include "tests/gpu/gemm/grouped_gemm_operands.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace cute_cpp::test::gemm_grouped {
namespace {

/// Expert loads of `tokens` tokens routed top-k over `experts`, drawn at random (uneven, as routers are).
std::vector<std::int64_t> expert_loads(std::int64_t tokens, int top_k, int experts, std::mt19937_64& rng) {
  std::vector<double> weight(static_cast<std::size_t>(experts));
  std::gamma_distribution<double> gamma(4.0, 1.0);
  for (double& w : weight) w = gamma(rng);
  std::discrete_distribution<int> pick(weight.begin(), weight.end());
  std::vector<std::int64_t> loads(static_cast<std::size_t>(experts), 0);
  for (std::int64_t i = 0; i < tokens * top_k; ++i) ++loads[std::size_t(pick(rng))];
  return loads;
}

template <class Plan>
void bench(std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n, std::int64_t k,
           std::vector<kn::Record>& records, std::mt19937_64& rng) {
  Problem<Plan> p(loads, n, k, rng, 0, 0, std::size_t{1} << 20);
  std::vector<std::int64_t> sampled;  // rows checked at the timed shape: the first and last of a few groups
  for (std::int64_t g = 0; g < p.groups; g += std::max<std::int64_t>(1, p.groups / 4))
    if (p.count[std::size_t(g)] > 0) sampled.insert(sampled.end(), {p.first[std::size_t(g)], p.first[std::size_t(g)] + p.count[std::size_t(g)] - 1});
  if (!check(p, (name + " (sampled rows)").c_str(), sampled)) throw std::runtime_error("grouped: benchmark-shape check failed");
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  host::DeviceBuffer<bf16> c(std::size_t(p.rows * n));
  auto const reference = [&] {
    for (std::int64_t g = 0; g < p.groups; ++g)
      if (p.count[std::size_t(g)] > 0)
        kn::cublas_linear(handle, p.da.data() + p.first[std::size_t(g)] * k, p.db.data() + g * n * k,
                      c.data() + p.first[std::size_t(g)] * n, int(p.count[std::size_t(g)]), int(n), int(k));
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { p.run(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  double const flops = 2.0 * double(p.rows) * double(n) * double(k);
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"grouped_gemm_sm90 " + std::to_string(Plan::block_m) + "-row tiles", name, "bf16", tflops(ours_ms), "cuBLAS, one call per expert", tflops(ref_ms),
                     "TFLOP/s", ours_ms * 1e3});
}

/// Grouped block-scaled e4m3 against cuBLASLt's FP8 GEMM (per-tensor scales, promoted
/// accumulation) over the same rows as one dense GEMM with a single weight: the same FLOPs without
/// the groups, an upper bound for a grouped GEMM.
/// Plan: the baseline main loop or issue 44's overlapped promotion (its record says so).
template <class Plan>
void bench_fp8(std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n, std::int64_t k,
               std::vector<kn::Record>& records, std::mt19937_64& rng) {
  using e4m3 = kn::plans::e4m3;
  auto const groups = std::int64_t(loads.size());
  std::int64_t const kb = (k + 127) / 128, nb = (n + 127) / 128;
  std::vector<std::int32_t> ends;
  std::int64_t rows = 0;
  for (std::int64_t l : loads) ends.push_back(std::int32_t(rows += l));
  host::DeviceBuffer<e4m3> a(std::size_t(rows * k)), b(std::size_t(groups * n * k));
  host::DeviceBuffer<float> sa(std::size_t(rows * kb)), sb(std::size_t(groups * nb * kb)), unit(1);
  kn::fill_random_tiled(a.data(), a.size(), rng, -6.0, 6.0);
  kn::fill_random_tiled(b.data(), b.size(), rng, -6.0, 6.0);
  kn::fill_random_tiled(sa.data(), sa.size(), rng, 0.5, 1.5);
  kn::fill_random_tiled(sb.data(), sb.size(), rng, 0.5, 1.5);
  std::vector<float> const one{1.0f};
  unit.upload(std::span<float const>(one));
  auto dends = to_device(ends);
  host::DeviceBuffer<bf16> c(std::size_t(rows * n)), c_ref(std::size_t(rows * n));
  auto args =
      fp8_grouped_arguments<Plan>(a.data(), b.data(), sa.data(), sb.data(), dends.data(), groups, c.data(), rows, n, k);
  host::DeviceBuffer<unsigned char> workspace(kn::grouped_gemm_workspace_bytes(args));
  args.gemm.workspace = workspace.data(), args.gemm.workspace_bytes = workspace.bytes();
  cublasLtHandle_t handle = nullptr;
  kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
  {
    kn::LtGemm reference(handle, {CUDA_R_8F_E4M3, std::uint64_t(k), std::uint64_t(n), k, true},
                         {CUDA_R_8F_E4M3, std::uint64_t(k), std::uint64_t(rows), k, false},
                         {CUDA_R_16BF, std::uint64_t(n), std::uint64_t(rows), n}, {unit.data(), unit.data(), false});
    auto const [ours_ms, ref_ms] = kn::median_ms_interleaved(
        [&] { kn::run_grouped_gemm(args, nullptr); }, [&] { reference.run(b.data(), a.data(), c_ref.data()); },
        nullptr, 5, 20);
    kn::grouped_gemm_check_status(workspace.data(), nullptr);
    double const flops = 2.0 * double(rows) * double(n) * double(k);
    records.push_back({std::string("grouped_gemm_sm90 e4m3, 1x128 / 128x128 block scales") +
                           (Plan::overlap_promotion ? ", overlapped promotion" : ""),
                       name,
                       "fp8", flops / (ours_ms * 1e9), "cuBLASLt FP8 per tensor, one dense GEMM of the same rows",
                       flops / (ref_ms * 1e9), "TFLOP/s", ours_ms * 1e3});
  }
  cublasLtDestroy(handle);
}

}  // namespace

void benchmarks(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  // DeepSeek-V3-like experts: 256 of them, top-8, hidden 7168, expert FFN 2048 (gate and up
  // fused: 4096), FP8 with block scales, at prefill sizes.
  for (std::int64_t tokens : {4096, 16384}) {
    auto const loads = expert_loads(tokens, 8, 256, rng);
    std::string const t = std::to_string(tokens) + " tokens top-8 of 256 experts";
    for (auto const& [what, n, k] : {std::tuple{"gate-up ", 4096, 7168}, std::tuple{"down ", 7168, 2048}}) {
      std::string const name = what + t + " N" + std::to_string(n) + " K" + std::to_string(k);
      bench_fp8<kn::plans::Fp8E4M3BlockwiseGrouped>(name, loads, n, k, records, rng);
      bench_fp8<kn::plans::Fp8E4M3BlockwiseGroupedOverlap>(name, loads, n, k, records, rng);
    }
  }
  auto const for_both_tiles = [&](std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n,
                                  std::int64_t k) {
    bench<kn::plans::Bf16Grouped>(name, loads, n, k, records, rng);
    bench<kn::plans::Bf16GroupedPingPong>(name, loads, n, k, records, rng);
  };
  // Qwen3-30B-A3B's experts: 128 of them, top-8, hidden 2048, expert FFN 768 (gate and up fused: 1536).
  for (std::int64_t tokens : {512, 4096}) {
    auto const loads = expert_loads(tokens, 8, 128, rng);
    std::string const t = std::to_string(tokens) + " tokens top-8 of 128 experts";
    for_both_tiles("gate-up " + t + " N1536 K2048", loads, 1536, 2048);
    for_both_tiles("down " + t + " N2048 K768", loads, 2048, 768);
  }
  // Even loads: 64 rows for each of 128 experts (torch._grouped_mm measured 160 TFLOP/s here).
  for_both_tiles("128 experts x 64 rows N2048 K768", std::vector<std::int64_t>(128, 64), 2048, 768);
}

}  // namespace cute_cpp::test::gemm_grouped
