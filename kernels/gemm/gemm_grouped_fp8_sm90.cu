// SPDX-License-Identifier: Apache-2.0
// Grouped block-scaled e4m3 for sm_90a (DeepSeek-V3's experts): 128 x 128 tiles, with the baseline
// main loop and with issue 44's overlapped promotion.
#include <cute_cpp/kernels/gemm/grouped_gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_grouped_gemm<plans::Fp8E4M3BlockwiseGrouped>(
    GroupedGemmArguments<plans::Fp8E4M3BlockwiseGrouped> const&, cudaStream_t);
template void run_grouped_gemm<plans::Fp8E4M3BlockwiseGroupedOverlap>(
    GroupedGemmArguments<plans::Fp8E4M3BlockwiseGroupedOverlap> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
