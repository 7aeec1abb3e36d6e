// SPDX-License-Identifier: Apache-2.0
// FP8 operands for sm_90a: e4m3 x e4m3 and e5m2 x e4m3, bf16 out, dequantized in the epilogue;
// e4m3 scaled by blocks, promoted in the main loop.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Fp8E4M3>(GemmArguments<plans::Fp8E4M3> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3>(GemmArguments<plans::Fp8E4M3> const&);
template void run_gemm_unchecked<plans::Fp8E5M2E4M3>(GemmArguments<plans::Fp8E5M2E4M3> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E5M2E4M3>(GemmArguments<plans::Fp8E5M2E4M3> const&);
template void run_gemm_unchecked<plans::Fp8E4M3Blockwise>(GemmArguments<plans::Fp8E4M3Blockwise> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3Blockwise>(GemmArguments<plans::Fp8E4M3Blockwise> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseN192>(GemmArguments<plans::Fp8E4M3BlockwiseN192> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseN192>(GemmArguments<plans::Fp8E4M3BlockwiseN192> const&);
}  // namespace cute_cpp::kernels
