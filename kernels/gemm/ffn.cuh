// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A feed-forward block on the Hopper GEMM (gemm.hpp): y = (silu(x Wg^T) * (x Wu^T)) Wd^T
// for x (M, D), Wg and Wu (F, D), Wd (D, F), all bf16 row-major (nn.Linear weights), fp32
// accumulation. Two GEMMs:
//   1. the gate-up projection, one GEMM against the fused weight Wgu (2F, D) whose rows interleave
//      Wg's and Wu's in blocks of 8 (pack_gate_up makes it once, as a model does when it loads its
//      weights), with the SwiGLU epilogue: h = silu(gate) * up, stored as bf16 (M, F); the gate and
//      up products never leave the registers;
//   2. the down projection: y = h Wd^T, the GEMM's bf16 TN dispatch (its tile heuristic).
// Constraints: D and F multiples of 8 [ffn.shape] (TMA's 16-byte rows; Wgu's blocks of 8 rows);
// every pointer 16-byte aligned (the GEMM's [tma.global.address]); M any.
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/error.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace cute_cpp::kernels {

/// The FFN's weights as its GEMMs read them: the fused gate-up weight (2F, D) and Wd (D, F).
struct FfnWeights {
  bf16 const* gate_up = nullptr;
  bf16 const* down = nullptr;
};

namespace detail {
inline void check_ffn_shape(std::size_t d, std::size_t f) {
  if (d == 0 || f == 0 || d % 8 != 0 || f % 8 != 0)
    throw std::invalid_argument("cute-cpp [ffn.shape]: the model and hidden sizes must be positive multiples of 8 (got D=" +
                                std::to_string(d) + ", F=" + std::to_string(f) + ")");
}

/// The GEMM arguments of out = in W^T for in (M, K) and an nn.Linear weight W (N, K), both
/// row-major; out has `ldc` elements between rows.
template <class Plan>
GemmArguments<Plan> linear_arguments(bf16 const* in, bf16 const* weight, bf16* out, std::size_t m, std::size_t n,
                                     std::size_t k, std::size_t ldc) {
  GemmArguments<Plan> a;
  a.a = in, a.lda = std::int64_t(k);
  a.b = weight, a.ldb = std::int64_t(k);
  a.c = out, a.ldc = std::int64_t(ldc);
  a.m = std::int64_t(m), a.n = std::int64_t(n), a.k = std::int64_t(k);
  return a;
}
/// The gate-up GEMM: its N is Wgu's 2F rows; h (M, F) takes half as many columns.
inline GemmArguments<plans::Bf16TNSwiGLU> gate_up_arguments(bf16 const* x, FfnWeights const& w, bf16* h, std::size_t m,
                                                            std::size_t d, std::size_t f) {
  return linear_arguments<plans::Bf16TNSwiGLU>(x, w.gate_up, h, m, 2 * f, d, f);
}
inline GemmArguments<plans::Bf16TN> down_arguments(bf16 const* h, FfnWeights const& w, bf16* y, std::size_t m,
                                                   std::size_t d, std::size_t f) {
  return linear_arguments<plans::Bf16TN>(h, w.down, y, m, d, f, d);
}
}  // namespace detail

/// Wgu (2F, D) from Wg and Wu (F, D): Wgu's row gated_gate_row(r) is Wg's row r and its row
/// gated_up_row(r) is Wu's row r (epilogue/fusion.hpp). Two strided copies on `stream`.
inline void pack_gate_up(bf16 const* wg, bf16 const* wu, bf16* wgu, std::size_t f, std::size_t d,
                         cudaStream_t stream = nullptr) {
  detail::check_ffn_shape(d, f);
  std::size_t const block = 8 * d * sizeof(bf16);  // 8 rows of a weight
  host::cuda_check(cudaMemcpy2DAsync(wgu, 2 * block, wg, block, block, f / 8, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpy2DAsync");
  host::cuda_check(cudaMemcpy2DAsync(wgu + 8 * d, 2 * block, wu, block, block, f / 8, cudaMemcpyDeviceToDevice, stream),
                   "cudaMemcpy2DAsync");
}

/// The workspace the two GEMMs may use for stream-K or split-K (they run one after the other).
inline std::size_t ffn_workspace_bytes(std::size_t m, std::size_t d, std::size_t f) {
  detail::check_ffn_shape(d, f);
  FfnWeights const none{};
  return std::max(gemm_workspace_bytes<plans::Bf16TNSwiGLU>(detail::gate_up_arguments(nullptr, none, nullptr, m, d, f)),
                  gemm_bf16_tn_workspace_bytes(detail::down_arguments(nullptr, none, nullptr, m, d, f)));
}

/// y (M, D) = ffn(x); h (M, F) holds the activation between the GEMMs. `workspace` (zeroed once,
/// ffn_workspace_bytes long, or null: the GEMMs then take whole tiles) serves both GEMMs.
inline void ffn(bf16 const* x, FfnWeights const& w, bf16* h, bf16* y, std::size_t m, std::size_t d, std::size_t f,
                void* workspace = nullptr, std::size_t workspace_bytes = 0, cudaStream_t stream = nullptr) {
  detail::check_ffn_shape(d, f);
  if (m == 0) return;
  auto gate_up = detail::gate_up_arguments(x, w, h, m, d, f);
  gate_up.workspace = workspace, gate_up.workspace_bytes = workspace_bytes;
  run_gemm<plans::Bf16TNSwiGLU>(gate_up, stream);
  auto down = detail::down_arguments(h, w, y, m, d, f);
  down.workspace = workspace, down.workspace_bytes = workspace_bytes;
  run_gemm_bf16_tn(down, stream);
}

}  // namespace cute_cpp::kernels
