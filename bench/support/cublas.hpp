// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cuBLAS and cublasLt failures as exceptions, for the examples' reference products.
#include <cublas_api.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

/// Throws std::runtime_error naming `call` unless `status` is CUBLAS_STATUS_SUCCESS.
inline void cublas_check(cublasStatus_t status, char const* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: cublasStatus " + std::to_string(int(status)));
}

/// The reference linear layer: C (M, N) row-major (ldc elements a row; 0: N) = A (M, K) row-major
/// times W (N, K) row-major (an nn.Linear weight) transposed, bf16 in and out, f32 accumulation.
inline void cublas_linear(cublasHandle_t handle, __nv_bfloat16 const* a, __nv_bfloat16 const* w, __nv_bfloat16* c,
                          int m, int n, int k, int ldc = 0) {
  float const alpha = 1.f, beta = 0.f;
  cublas_check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, w, CUDA_R_16BF, k, a, CUDA_R_16BF, k,
                            &beta, c, CUDA_R_16BF, ldc > 0 ? ldc : n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

}  // namespace cute_cpp::kernels
