// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm's FP8 part: the Hopper GEMM's FP8 plans (kernels/gemm) against cuBLASLt's FP8 GEMM
// with per-tensor scales, with and without its fast accumulation (the two-level accumulation plans
// against cuBLASLt without it, a 256 x 128 tile against it with: --fp8-variants alone); the
// FP8-output plans against the same GEMM writing bf16 followed by quantize_1x128; the quantizers
// against a device copy; and the launches bench_gemm --fp8-profile runs for ncu; the block-scaled
// main loops (baseline and issue 44's) alone with --fp8-blockwise, their ncu launches with
// --fp8-blockwise-profile. Records are named "gemm_fp8_sm90 ...",
// "quantize_1x128" and "quantize_128x128" as the former gemm_fp8_sm90 example named them. Its
// checks: tests/gpu/gemm/gemm_fp8_check.cu.
#include "bench/gemm/bench_gemm.hpp"
#include "bench/support/cublaslt_gemm.hpp"
#include "tests/gpu/gemm/gemm_fp8_operands.hpp"
#include <cute_cpp/kernels/gemm/quantize.cuh>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <array>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_fp8 {
namespace {

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
  // NOTE: the baseline plans' names are those of earlier records (scripts/gpu-check compares by
  // name); issue 44's main loops add their options.
  std::string const name = std::string("gemm_fp8_sm90 ") + fp8_name<typename Plan::TA>() + "x" +
                           fp8_name<typename Plan::TB>() + " " + scaling_name(scaling) +
                           (Plan::two_level ? ", two-level accumulation" : "") +
                           (Plan::promoted || Plan::block_m != 128
                                ? ", tile " + std::to_string(Plan::block_m) + "x" + std::to_string(Plan::block_n)
                                : "") +
                           (Plan::overlap_promotion ? ", overlapped promotion" : "") +
                           (Plan::staged_scales ? ", staged scales" : "");
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

}  // namespace

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
  }
  variant_benchmarks(rng, handle, records);
  blockwise_benchmarks(rng, handle, records);
}

/// The per-tensor plans' variants on their shapes: two-level accumulation against cuBLASLt's same
/// mode (no fast accumulation), per tensor in both tiles and rowwise; cuBLASLt's 256 x 128 tile
/// against cuBLASLt with fast accumulation.
void variant_benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (auto const& s : {std::array<std::int64_t, 3>{8192, 8192, 8192}, {4096, 14336, 4096}, {4096, 4096, 4096}}) {
    bench<plans::Fp8E4M3Tile256x128>(s[0], s[1], s[2], Scaling::Tensor, true, rng, handle, records);
    bench<plans::Fp8E4M3TwoLevel>(s[0], s[1], s[2], Scaling::Tensor, false, rng, handle, records);
    bench<plans::Fp8E4M3TwoLevelN192>(s[0], s[1], s[2], Scaling::Tensor, false, rng, handle, records);
    bench<plans::Fp8E4M3TwoLevel>(s[0], s[1], s[2], Scaling::RowColumn, false, rng, handle, records);
  }
}

/// Block-scaled plans against cuBLASLt's per-tensor GEMM that also promotes its accumulator (no
/// fast accumulation): the baseline main loop (128 and 192 columns) and issue 44's
/// (plans::Fp8BlockwiseMainLoops), each timed alternately with cuBLASLt on the same operands, on
/// the FP8 shapes above and two DeepSeek-V3 projections of 4096 tokens (an expert's down projection
/// as one dense GEMM, 7168 x 2048; q_b_proj, 24576 x 1536). bench_gemm --fp8-blockwise runs only this.
void blockwise_benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  using Plans = plans::JoinedPlanLists<kn::GemmPlanList<plans::Fp8E4M3Blockwise, plans::Fp8E4M3BlockwiseN192>,
                                       plans::Fp8BlockwiseMainLoops>::type;
  for (auto const& s : {std::array<std::int64_t, 3>{8192, 8192, 8192}, {4096, 14336, 4096}, {4096, 4096, 4096},
                        {4096, 7168, 2048}, {4096, 24576, 1536}}) {
    [&]<class... P>(kn::GemmPlanList<P...>) {
      (bench<P>(s[0], s[1], s[2], Scaling::Block, false, rng, handle, records), ...);
    }(Plans{});
  }
}

/// --fp8-blockwise-profile: for ncu, two launches of each block-scaled plan (baseline and issue
/// 44's) at 4096^3 and of cuBLASLt's per-tensor GEMM without fast accumulation, and nothing else.
void blockwise_profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle) {
  using Plans = plans::JoinedPlanLists<kn::GemmPlanList<plans::Fp8E4M3Blockwise, plans::Fp8E4M3BlockwiseN192>,
                                       plans::Fp8BlockwiseMainLoops>::type;
  std::int64_t const size = 4096;
  auto const twice = [&]<class P>(std::type_identity<P>) {
    Problem<P> p(size, size, size, Scaling::Block, rng, false);
    for (int i = 0; i < 2; ++i) p.run();
  };
  [&]<class... P>(kn::GemmPlanList<P...>) { (twice(std::type_identity<P>{}), ...); }(Plans{});
  Problem<plans::Fp8E4M3> p(size, size, size, Scaling::Tensor, rng, false);
  host::DeviceBuffer<plans::bf16> c(p.dc.size());
  kn::LtGemm reference(handle, {CUDA_R_8F_E4M3, std::uint64_t(size), std::uint64_t(size), p.ldb, true},
                       {CUDA_R_8F_E4M3, std::uint64_t(size), std::uint64_t(size), p.lda, false},
                       {CUDA_R_16BF, std::uint64_t(size), std::uint64_t(size), p.ldc},
                       {p.dscale_b.data(), p.dscale_a.data(), false});
  for (int i = 0; i < 2; ++i) reference.run(p.db.data(), p.da.data(), c.data());
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

/// --fp8-profile: for ncu, two launches of ours and of cuBLASLt (fast accumulation) at 4096^3 and
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

}  // namespace cute_cpp::test::gemm_fp8
