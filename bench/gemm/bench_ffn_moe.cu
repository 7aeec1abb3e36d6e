// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm's FFN and MoE part: the blocks built on the Hopper GEMM. The FFN (kernels/gemm/ffn.cuh)
// against cuBLAS doing the same three products (bf16 in, f32 accumulate) plus kernels/rows/swiglu.cuh's
// kernel, sampled rows of each timed shape checked first; the MoE block (kernels/moe/moe.cuh) at
// Qwen3-30B-A3B's size against the same routing with cuBLAS doing the experts' products one expert
// at a time (gate and up, then the swiglu kernel, then down), and Nemotron-3 Nano's (sigmoid routing,
// ReLU^2 experts, a shared expert) against the same routing with cuBLAS per expert (up, a squared-ReLU
// elementwise pass, down) and the shared expert by cuBLAS. Records are named "ffn" and "moe_sm90
// layer" as the former ffn and moe_sm90 examples named them. Their checks: tests/gpu/gemm/ffn_check.cu,
// tests/gpu/gemm/moe_check.cu, tests/gpu/gemm/nemotron_moe_check.cu.
#include "bench/gemm/bench_gemm.hpp"
#include "bench/support/cublas.hpp"
#include "tests/gpu/gemm/ffn_operands.hpp"
#include "tests/gpu/gemm/moe_operands.hpp"
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include <cute_cpp/kernels/rows/instances.hpp>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cublas_v2.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::ffn_block {
namespace {

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

void benchmarks(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  bench(8192, 4096, 11008, records, rng);
  bench(2048, 4096, 11008, records, rng);
}

}  // namespace cute_cpp::test::ffn_block

namespace cute_cpp::test::moe_block {
namespace {

void bench(std::int64_t tokens, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  moe::MoeShape const s{.tokens = tokens, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8};
  Layer l(s, rng);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  // The experts' offsets for the per-expert reference (a decode step's layer runs without them).
  moe::moe_dispatch(l.dx.data(), l.weights(), s, m, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const offsets = download(m.offsets, std::size_t(s.experts));
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  host::DeviceBuffer<bf16> gu(std::size_t(s.rows() * 2 * s.ffn));
  // The reference: the same routing steps, then each expert's products by cuBLAS (the fused weight's
  // interleaved rows give an interleaved gu; the swiglu kernel's split halves cost the same), then
  // the same combine.
  auto const reference = [&] {
    moe::moe_dispatch(l.dx.data(), l.weights(), s, m, nullptr);
    for (int e = 0; e < s.experts; ++e) {
      int const lo = e ? offsets[std::size_t(e - 1)] : 0, rows = offsets[std::size_t(e)] - lo;
      if (rows == 0) continue;
      kn::cublas_linear(handle, m.x_perm + std::int64_t(lo) * s.hidden, l.dgate_up.data() + std::int64_t(e) * 2 * s.ffn * s.hidden,
                    gu.data() + std::int64_t(lo) * 2 * s.ffn, rows, int(2 * s.ffn), int(s.hidden));
    }
    kn::swiglu<bf16>(gu.data(), m.h, std::size_t(s.rows()), std::size_t(s.ffn));
    for (int e = 0; e < s.experts; ++e) {
      int const lo = e ? offsets[std::size_t(e - 1)] : 0, rows = offsets[std::size_t(e)] - lo;
      if (rows == 0) continue;
      kn::cublas_linear(handle, m.h + std::int64_t(lo) * s.ffn, l.ddown.data() + std::int64_t(e) * s.hidden * s.ffn,
                    m.y_perm + std::int64_t(lo) * s.hidden, rows, int(s.hidden), int(s.ffn));
    }
    int const row_warps = moe::moe_row_warps(s.tokens, moe::moe_sms());
    moe::combine_kernel<><<<moe::row_grid(s.tokens, row_warps), 256>>>(m.y_perm, m.rows, m.weights, s.tokens, s.top_k,
                                                                     s.hidden, l.dy.data(), row_warps);
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { l.run(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  // FLOPs: the router and the experts' three products per chosen row.
  double const flops = 2.0 * double(tokens) * double(s.hidden) * double(s.experts) +
                       2.0 * double(s.rows()) * double(s.hidden) * double(s.ffn) * 3.0;
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"moe_sm90 layer", "Qwen3-30B-A3B T" + std::to_string(tokens) + " E128 k8 H2048 F768", "bf16",
                     tflops(ours_ms), "same routing + cuBLAS per expert + swiglu", tflops(ref_ms), "TFLOP/s",
                     ours_ms * 1e3});
}

/// relu(v)^2 of a bf16, in f32 (the reference's activation pass, in place over h).
struct Relu2Pass {
  CUTE_CPP_HD float operator()(bf16 v) const { return epilogue::ReLUSquared{}(static_cast<float>(v)); }
};

void bench_nemotron(std::int64_t tokens, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  moe::MoeShape const s = nemotron3_nano_shape(tokens);
  FullLayer l(s, rng);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  // The experts' offsets for the per-expert reference (a decode step's layer runs without them).
  moe::moe_dispatch(l.dx.data(), l.weights(), s, m, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const offsets = download(m.offsets, std::size_t(s.experts));
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  // out = in W_e^T for each expert's rows, one cuBLAS call an expert.
  auto const per_expert = [&](bf16 const* in, bf16 const* w, bf16* out, std::int64_t n, std::int64_t k) {
    for (int e = 0; e < s.experts; ++e) {
      int const lo = e ? offsets[std::size_t(e - 1)] : 0, rows = offsets[std::size_t(e)] - lo;
      if (rows == 0) continue;
      kn::cublas_linear(handle, in + std::int64_t(lo) * k, w + std::int64_t(e) * n * k, out + std::int64_t(lo) * n,
                        rows, int(n), int(k));
    }
  };
  auto const rows = std::size_t(s.rows()), t = std::size_t(tokens);
  auto const reference = [&] {
    moe::moe_dispatch(l.dx.data(), l.weights(), s, m, nullptr);
    per_expert(m.x_perm, l.dfirst.data(), m.h, s.ffn, s.hidden);
    kn::elementwise_apply(Relu2Pass{}, rows * std::size_t(s.ffn), nullptr, m.h, static_cast<bf16 const*>(m.h));
    per_expert(m.h, l.ddown.data(), m.y_perm, s.hidden, s.ffn);
    kn::cublas_linear(handle, l.dx.data(), l.dshared_first.data(), m.h_shared, int(t), int(s.shared_ffn), int(s.hidden));
    kn::elementwise_apply(Relu2Pass{}, t * std::size_t(s.shared_ffn), nullptr, m.h_shared,
                          static_cast<bf16 const*>(m.h_shared));
    kn::cublas_linear(handle, m.h_shared, l.dshared_down.data(), m.y_shared, int(t), int(s.hidden), int(s.shared_ffn));
    int const row_warps = moe::moe_row_warps(tokens, moe::moe_sms());
    moe::combine_shared_kernel<><<<moe::row_grid(tokens, row_warps), 256>>>(m.y_perm, m.rows, m.weights, m.y_shared,
                                                                          tokens, s.top_k, s.hidden, l.dy.data(),
                                                                          row_warps);
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { l.run(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  // FLOPs: the router, the chosen experts' two products per row, the shared expert's two per token.
  double const flops = 2.0 * double(tokens) * double(s.hidden) * double(s.experts) +
                       2.0 * double(s.rows()) * double(s.hidden) * double(s.ffn) * 2.0 +
                       2.0 * double(tokens) * double(s.hidden) * double(s.shared_ffn) * 2.0;
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"moe_sm90 layer", "Nemotron-3-Nano T" + std::to_string(tokens) + " E128 k6 H2688 F1856 Fs3712",
                     "bf16", tflops(ours_ms), "same routing + cuBLAS per expert + relu2 + cuBLAS shared", tflops(ref_ms),
                     "TFLOP/s", ours_ms * 1e3});
}

}  // namespace

void benchmarks(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  // Decode steps (moe_decode.cuh's two launches) and prefill chunks (the grouped GEMMs).
  for (std::int64_t tokens : {1, 8, 512, 4096}) bench(tokens, records, rng);
  for (std::int64_t tokens : {1, 512, 4096}) bench_nemotron(tokens, records, rng);
}

}  // namespace cute_cpp::test::moe_block
