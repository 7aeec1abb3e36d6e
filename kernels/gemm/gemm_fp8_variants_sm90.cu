// SPDX-License-Identifier: Apache-2.0
// The per-tensor / rowwise FP8 plans' variants for sm_90a (plans::Fp8VariantsInstantiated): two-level
// accumulation (each K block's wgmma products added into an fp32 accumulator) and cuBLASLt's
// 256 x 128 tile; scaled per tensor or per row in the epilogue.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Fp8E4M3TwoLevel>(GemmArguments<plans::Fp8E4M3TwoLevel> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3TwoLevel>(GemmArguments<plans::Fp8E4M3TwoLevel> const&);
template void run_gemm_unchecked<plans::Fp8E5M2E4M3TwoLevel>(GemmArguments<plans::Fp8E5M2E4M3TwoLevel> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E5M2E4M3TwoLevel>(GemmArguments<plans::Fp8E5M2E4M3TwoLevel> const&);
template void run_gemm_unchecked<plans::Fp8E4M3TwoLevelN192>(GemmArguments<plans::Fp8E4M3TwoLevelN192> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3TwoLevelN192>(GemmArguments<plans::Fp8E4M3TwoLevelN192> const&);
template void run_gemm_unchecked<plans::Fp8E4M3Tile256x128>(GemmArguments<plans::Fp8E4M3Tile256x128> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3Tile256x128>(GemmArguments<plans::Fp8E4M3Tile256x128> const&);
}  // namespace cute_cpp::kernels
