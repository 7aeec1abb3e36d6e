// SPDX-License-Identifier: Apache-2.0
// The SIMT GEMM (simt_gemm.cuh) for the smallest bf16 problems (bf16 out, and f32 out for the MoE router),
// and the normed GEMV (simt_gemv_norm.cuh) for the decoders' two plans.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>

namespace cute_cpp::kernels {

template void run_gemm_unchecked<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&);
template void run_gemm_unchecked<plans::Bf16NTSimt>(GemmArguments<plans::Bf16NTSimt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16NTSimt>(GemmArguments<plans::Bf16NTSimt> const&);
template void run_gemm_unchecked<plans::Bf16TNf32Simt>(GemmArguments<plans::Bf16TNf32Simt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNf32Simt>(GemmArguments<plans::Bf16TNf32Simt> const&);
template void run_gemm_normed<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&, RmsNormedRows<plans::bf16> const&,
                                             cudaStream_t);
template void run_gemm_normed<plans::Bf16TNSwiGLU>(GemmArguments<plans::Bf16TNSwiGLU> const&,
                                                   RmsNormedRows<plans::bf16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
