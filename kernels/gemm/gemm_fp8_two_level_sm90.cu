// SPDX-License-Identifier: Apache-2.0
// FP8 operands for sm_90a with two-level accumulation (plans::Fp8TwoLevelInstantiated): each K
// block's wgmma products added into an fp32 accumulator; scaled per tensor or per row in the epilogue.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Fp8E4M3TwoLevel>(GemmArguments<plans::Fp8E4M3TwoLevel> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3TwoLevel>(GemmArguments<plans::Fp8E4M3TwoLevel> const&);
template void run_gemm_unchecked<plans::Fp8E5M2E4M3TwoLevel>(GemmArguments<plans::Fp8E5M2E4M3TwoLevel> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E5M2E4M3TwoLevel>(GemmArguments<plans::Fp8E5M2E4M3TwoLevel> const&);
template void run_gemm_unchecked<plans::Fp8E4M3TwoLevelN192>(GemmArguments<plans::Fp8E4M3TwoLevelN192> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3TwoLevelN192>(GemmArguments<plans::Fp8E4M3TwoLevelN192> const&);
}  // namespace cute_cpp::kernels
