// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/linear.cuh: an nn.Linear without bias on kernels/gemm, as the model programs run it.
#include <cute_cpp/kernels/gemm/gemm.hpp>   // GemmArguments
#include <cute_cpp/kernels/gemm/plans.hpp>  // plans::Bf16TN, run_gemm_bf16_tn, gemm_bf16_tn_workspace_bytes

#include <cuda_bf16.h>

#include <cstdint>

#include "models/common/device_workspace.hpp"  // GrowingWorkspace

namespace cute_cpp::models {

/// out (m, n) = in (m, k) W^T for an nn.Linear weight W (n, k), bf16, row-major, through the GEMM's
/// dispatch; its split-K / stream-K workspace from `workspace`. m == 0 launches nothing.
inline void linear_tn(__nv_bfloat16 const* in, __nv_bfloat16 const* weight, __nv_bfloat16* out, std::int64_t m,
                      std::int64_t n, std::int64_t k, GrowingWorkspace& workspace, cudaStream_t stream) {
  namespace kn = cute_cpp::kernels;
  if (m == 0) return;
  kn::GemmArguments<kn::plans::Bf16TN> a;
  a.a = in, a.lda = k;
  a.b = weight, a.ldb = k;
  a.c = out, a.ldc = n;
  a.m = m, a.n = n, a.k = k;
  a.workspace_bytes = kn::gemm_bf16_tn_workspace_bytes(a);
  a.workspace = workspace.ensure(a.workspace_bytes, stream);
  kn::run_gemm_bf16_tn(a, stream);
}

}  // namespace cute_cpp::models
