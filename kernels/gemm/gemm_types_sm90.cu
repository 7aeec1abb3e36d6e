// SPDX-License-Identifier: Apache-2.0
// The other element types for sm_90a: fp16 in and out, bf16 in with fp32 out (row- and column-major).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::F16TN>(GemmArguments<plans::F16TN> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNf32>(GemmArguments<plans::Bf16TNf32> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::F16TN>(GemmArguments<plans::F16TN> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNf32>(GemmArguments<plans::Bf16TNf32> const&);
template void run_gemm_unchecked<plans::Bf16TNf32ColMajor>(GemmArguments<plans::Bf16TNf32ColMajor> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNf32ColMajor>(GemmArguments<plans::Bf16TNf32ColMajor> const&);
}  // namespace cute_cpp::kernels
