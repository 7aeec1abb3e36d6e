// SPDX-License-Identifier: Apache-2.0
// Grouped bf16 GEMMs for sm_90a (MoE experts): 128-row and 64-row tiles, plain and the gate-up
// projection with SwiGLU, and the choice between the tiles.
#include <cute_cpp/kernels/gemm/grouped_gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_grouped_gemm<plans::Bf16Grouped>(GroupedGemmArguments<plans::Bf16Grouped> const&, cudaStream_t);
template void run_grouped_gemm<plans::Bf16GroupedSwiGLU>(GroupedGemmArguments<plans::Bf16GroupedSwiGLU> const&,
                                                         cudaStream_t);
template void run_grouped_gemm<plans::Bf16GroupedPingPong>(GroupedGemmArguments<plans::Bf16GroupedPingPong> const&,
                                                           cudaStream_t);
template void run_grouped_gemm<plans::Bf16GroupedPingPongSwiGLU>(
    GroupedGemmArguments<plans::Bf16GroupedPingPongSwiGLU> const&, cudaStream_t);


template <bool SwiGLU>
void run_grouped_gemm_bf16(GroupedBf16Arguments<SwiGLU> const& args, cudaStream_t stream) {
  using Narrow = std::conditional_t<SwiGLU, plans::Bf16GroupedPingPongSwiGLU, plans::Bf16GroupedPingPong>;
  if (grouped_takes_64_rows(args.rows))
    return run_grouped_gemm<Narrow>({args.gemm, args.rows, args.b_group_stride, args.pointers}, stream);
  run_grouped_gemm(args, stream);
}
template void run_grouped_gemm_bf16<false>(GroupedBf16Arguments<false> const&, cudaStream_t);
template void run_grouped_gemm_bf16<true>(GroupedBf16Arguments<true> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
