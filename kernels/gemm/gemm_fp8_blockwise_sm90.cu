// SPDX-License-Identifier: Apache-2.0
// Block-scaled e4m3 for sm_90a, issue 44's main loops (plans::Fp8BlockwiseMainLoops): the promotion
// overlapping the next K block's wgmmas, scales staged with the stage, tiles of 112-192 columns.
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseOverlap>(GemmArguments<plans::Fp8E4M3BlockwiseOverlap> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseOverlap>(GemmArguments<plans::Fp8E4M3BlockwiseOverlap> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseStaged>(GemmArguments<plans::Fp8E4M3BlockwiseStaged> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseStaged>(GemmArguments<plans::Fp8E4M3BlockwiseStaged> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseOverlapStaged>(GemmArguments<plans::Fp8E4M3BlockwiseOverlapStaged> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseOverlapStaged>(GemmArguments<plans::Fp8E4M3BlockwiseOverlapStaged> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseN112>(GemmArguments<plans::Fp8E4M3BlockwiseN112> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseN112>(GemmArguments<plans::Fp8E4M3BlockwiseN112> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseN144>(GemmArguments<plans::Fp8E4M3BlockwiseN144> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseN144>(GemmArguments<plans::Fp8E4M3BlockwiseN144> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseN160>(GemmArguments<plans::Fp8E4M3BlockwiseN160> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseN160>(GemmArguments<plans::Fp8E4M3BlockwiseN160> const&);
template void run_gemm_unchecked<plans::Fp8E4M3BlockwiseN192Staged>(GemmArguments<plans::Fp8E4M3BlockwiseN192Staged> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Fp8E4M3BlockwiseN192Staged>(GemmArguments<plans::Fp8E4M3BlockwiseN192Staged> const&);
}  // namespace cute_cpp::kernels
