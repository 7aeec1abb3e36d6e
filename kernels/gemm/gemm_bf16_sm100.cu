// SPDX-License-Identifier: Apache-2.0
// bf16 operands for sm_100a: bf16 out on the dispatcher's three tiles and the 256 x 352 pair, fp32
// out, and both operands MN-major on a pair; and the bf16 dispatcher.
#include <cute_cpp/kernels/gemm/gemm_sm100.cuh>

namespace cute_cpp::kernels {
namespace p = plans::sm100;
template void run_gemm_sm100_unchecked<p::Bf16Tile128x128>(GemmArguments<p::Bf16Tile128x128> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::Bf16Tile128x256>(GemmArguments<p::Bf16Tile128x256> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::Bf16Pair256x256>(GemmArguments<p::Bf16Pair256x256> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::Bf16Pair256x352>(GemmArguments<p::Bf16Pair256x352> const&, cudaStream_t);
template void run_gemm_sm100_unchecked<p::Bf16ToF32Tile128x256>(GemmArguments<p::Bf16ToF32Tile128x256> const&,
                                                                 cudaStream_t);
template void run_gemm_sm100_unchecked<p::Bf16MNPair256x256>(GemmArguments<p::Bf16MNPair256x256> const&, cudaStream_t);

void run_gemm_sm100(GemmSm100Bf16Arguments const& args, cudaStream_t stream) {
  run_gemm_sm100_family<p::Bf16Family>(args, stream);
}
}  // namespace cute_cpp::kernels
