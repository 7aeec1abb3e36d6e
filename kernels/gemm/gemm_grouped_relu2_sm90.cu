// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Grouped bf16 GEMMs with the squared-ReLU epilogue for sm_90a (the up projection of non-gated MoE
// experts, Nemotron-H's): 128-row and 64-row tiles and the choice between them. A translation unit
// of its own, so gemm_grouped_sm90.cu's kernels stay as they were.
#include <cute_cpp/kernels/gemm/grouped_gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_grouped_gemm<plans::Bf16GroupedReLU2>(GroupedGemmArguments<plans::Bf16GroupedReLU2> const&,
                                                        cudaStream_t);
template void run_grouped_gemm<plans::Bf16GroupedPingPongReLU2>(
    GroupedGemmArguments<plans::Bf16GroupedPingPongReLU2> const&, cudaStream_t);

void run_grouped_gemm_bf16_relu2(GroupedBf16ReLU2Arguments const& args, cudaStream_t stream) {
  if (grouped_takes_64_rows(args.rows))
    return run_grouped_gemm<plans::Bf16GroupedPingPongReLU2>({args.gemm, args.rows, args.b_group_stride, args.pointers},
                                                             stream);
  run_grouped_gemm(args, stream);
}
}  // namespace cute_cpp::kernels
