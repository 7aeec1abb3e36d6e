// SPDX-License-Identifier: Apache-2.0
// fp16 operands for sm_100a: fp16 out on the dispatcher's three tiles, fp32 out with an MN-major
// B; and the fp16 dispatcher.
#include <cute_cpp/kernels/gemm/gemm_sm100.cuh>

namespace cute_cpp::kernels {
namespace p = plans::sm100;
template void run_gemm_sm100_unchecked<p::F16Tile128x128>(GemmArguments<p::F16Tile128x128> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::F16Tile128x256>(GemmArguments<p::F16Tile128x256> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::F16Pair256x256>(GemmArguments<p::F16Pair256x256> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::F16ToF32NNTile128x256>(GemmArguments<p::F16ToF32NNTile128x256> const&,
                                                                  cudaStream_t);

void run_gemm_sm100(GemmSm100F16Arguments const& args, cudaStream_t stream) {
  run_gemm_sm100_family<p::F16Family>(args, stream);
}
}  // namespace cute_cpp::kernels
