// SPDX-License-Identifier: Apache-2.0
// FP8 outputs for sm_90a, quantized by 1 x 128 blocks in the epilogue: block-scaled e4m3 in, and
// the bf16 gate-up projection with SwiGLU.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseToFp8>(GemmArguments<plans::Fp8E4M3BlockwiseToFp8> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseToFp8>(
    GemmArguments<plans::Fp8E4M3BlockwiseToFp8> const&);
template void run_gemm_unchecked<plans::Bf16TNSwiGLUToFp8>(GemmArguments<plans::Bf16TNSwiGLUToFp8> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwiGLUToFp8>(GemmArguments<plans::Bf16TNSwiGLUToFp8> const&);
}  // namespace cute_cpp::kernels
