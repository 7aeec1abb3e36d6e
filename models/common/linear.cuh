// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/linear.cuh: an nn.Linear without bias on kernels/gemm, as the model programs run it.
#include <cute_cpp/kernels/gemm/gemm.hpp>   // GemmArguments
#include <cute_cpp/kernels/gemm/plans.hpp>  // plans::Bf16TN, run_gemm_bf16_tn, gemm_bf16_tn_workspace_bytes
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>  // RmsNormedRows, run_gemm_normed

#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "models/common/device_workspace.hpp"  // GrowingWorkspace

namespace cute_cpp::models {

namespace detail {
/// out = in W^T through Plan's GEMM (plans::Bf16TN: the dispatch), C `ldc` wide, its workspace from
/// `workspace`; m == 0 launches nothing.
template <class Plan>
void linear_gemm(__nv_bfloat16 const* in, __nv_bfloat16 const* weight, __nv_bfloat16* out, std::int64_t m,
                 std::int64_t n, std::int64_t k, std::int64_t ldc, GrowingWorkspace& workspace, cudaStream_t stream,
                 kernels::IndependentOperand weights) {
  namespace kn = cute_cpp::kernels;
  if (m == 0) return;
  kn::GemmArguments<Plan> a;
  a.a = in, a.lda = k;
  a.b = weight, a.ldb = k;
  a.c = out, a.ldc = ldc;
  a.m = m, a.n = n, a.k = k;
  a.independent = weights;
  if constexpr (std::is_same_v<Plan, kn::plans::Bf16TN>) {
    a.workspace_bytes = kn::gemm_bf16_tn_workspace_bytes(a);
    a.workspace = workspace.ensure(a.workspace_bytes, stream);
    kn::run_gemm_bf16_tn(a, stream);
  } else {
    a.workspace_bytes = kn::gemm_workspace_bytes<Plan>(a);
    a.workspace = workspace.ensure(a.workspace_bytes, stream);
    kn::run_gemm<Plan>(a, stream);
  }
}
}  // namespace detail

/// out (m, n) = in (m, k) W^T for an nn.Linear weight W (n, k), bf16, row-major, through the GEMM's
/// dispatch; its split-K / stream-K workspace from `workspace`. m == 0 launches nothing. `weights`:
/// kernels::IndependentOperand::B where no kernel before it in the stream writes W (a step's weights
/// under programmatic launch: their first loads may start before the wait for that kernel).
inline void linear_tn(__nv_bfloat16 const* in, __nv_bfloat16 const* weight, __nv_bfloat16* out, std::int64_t m,
                      std::int64_t n, std::int64_t k, GrowingWorkspace& workspace, cudaStream_t stream,
                      kernels::IndependentOperand weights = kernels::IndependentOperand::None) {
  detail::linear_gemm<kernels::plans::Bf16TN>(in, weight, out, m, n, k, n, workspace, stream, weights);
}

/// out (m, f) = silu(in Wg^T) * (in Wu^T) for the interleaved gate-up weight (2f, k) of
/// kernels/gemm/ffn.cuh's pack_gate_up, in one GEMM with the SwiGLU epilogue (up to 8 rows the
/// gated skinny kernel); `workspace` and `weights` as linear_tn's.
inline void gated_linear_tn(__nv_bfloat16 const* in, __nv_bfloat16 const* gate_up, __nv_bfloat16* out, std::int64_t m,
                            std::int64_t f, std::int64_t k, GrowingWorkspace& workspace, cudaStream_t stream,
                            kernels::IndependentOperand weights = kernels::IndependentOperand::None) {
  detail::linear_gemm<kernels::plans::Bf16TNSwiGLU>(in, gate_up, out, m, 2 * f, k, f, workspace, stream, weights);
}

/// linear_tn of rmsnorm(rows.x + rows.residual) in one launch (kernels/gemm/simt_gemv_norm.cuh), for
/// at most 8 rows whose normed copy fits the kernel (normed_gemv_takes); rows.residual_out gets the
/// sum. `weights` as linear_tn's.
inline void normed_linear_tn(kernels::RmsNormedRows<__nv_bfloat16> const& rows, __nv_bfloat16 const* weight,
                             __nv_bfloat16* out, std::int64_t m, std::int64_t n, std::int64_t k, cudaStream_t stream,
                             kernels::IndependentOperand weights = kernels::IndependentOperand::None) {
  kernels::GemmArguments<kernels::plans::Bf16TN> a;
  a.b = weight, a.ldb = k, a.c = out, a.ldc = n, a.m = m, a.n = n, a.k = k, a.independent = weights;
  kernels::run_gemm_normed<kernels::plans::Bf16TN>(a, rows, stream);
}

/// gated_linear_tn of rmsnorm(rows.x + rows.residual) in one launch, as normed_linear_tn.
inline void normed_gated_linear_tn(kernels::RmsNormedRows<__nv_bfloat16> const& rows, __nv_bfloat16 const* gate_up,
                                   __nv_bfloat16* out, std::int64_t m, std::int64_t f, std::int64_t k,
                                   cudaStream_t stream,
                                   kernels::IndependentOperand weights = kernels::IndependentOperand::None) {
  kernels::GemmArguments<kernels::plans::Bf16TNSwiGLU> a;
  a.b = gate_up, a.ldb = k, a.c = out, a.ldc = f, a.m = m, a.n = 2 * f, a.k = k, a.independent = weights;
  kernels::run_gemm_normed<kernels::plans::Bf16TNSwiGLU>(a, rows, stream);
}

/// Whether normed_linear_tn takes m rows of width k (kernels::normed_gemv_takes).
inline bool normed_linear_takes(std::int64_t m, std::int64_t k) {
  kernels::GemmArguments<kernels::plans::Bf16TN> a;
  a.m = m, a.k = k;
  return kernels::normed_gemv_takes<kernels::plans::Bf16TN>(a);
}

}  // namespace cute_cpp::models
