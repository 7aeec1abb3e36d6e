// SPDX-License-Identifier: Apache-2.0
// The fused epilogues for sm_90a: alpha/beta with a source matrix, bias, and an activation.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Bf16TNLinear>(GemmArguments<plans::Bf16TNLinear> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNRelu>(GemmArguments<plans::Bf16TNRelu> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNGelu>(GemmArguments<plans::Bf16TNGelu> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNSilu>(GemmArguments<plans::Bf16TNSilu> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNLinear>(GemmArguments<plans::Bf16TNLinear> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNRelu>(GemmArguments<plans::Bf16TNRelu> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNGelu>(GemmArguments<plans::Bf16TNGelu> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSilu>(GemmArguments<plans::Bf16TNSilu> const&);
}  // namespace cute_cpp::kernels
