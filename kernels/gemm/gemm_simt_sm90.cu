// SPDX-License-Identifier: Apache-2.0
// The SIMT GEMM (simt_gemm.cuh) for the smallest bf16 problems (bf16 out, and f32 out for the MoE router).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {

template void run_gemm_unchecked<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&);
template void run_gemm_unchecked<plans::Bf16NTSimt>(GemmArguments<plans::Bf16NTSimt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16NTSimt>(GemmArguments<plans::Bf16NTSimt> const&);
template void run_gemm_unchecked<plans::Bf16TNf32Simt>(GemmArguments<plans::Bf16TNf32Simt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNf32Simt>(GemmArguments<plans::Bf16TNf32Simt> const&);

}  // namespace cute_cpp::kernels
