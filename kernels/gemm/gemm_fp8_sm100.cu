// SPDX-License-Identifier: Apache-2.0
// FP8 operands for sm_100a (kind::f8f6f4): e4m3 x e4m3 on the dispatcher's three tiles and
// e5m2 x e4m3, bf16 out, dequantized by per-tensor scales in the epilogue; and the e4m3 dispatcher.
#include <cute_cpp/kernels/gemm/gemm_sm100.cuh>

namespace cute_cpp::kernels {
namespace p = plans::sm100;
template void run_gemm_sm100_unchecked<p::Fp8E4M3Tile128x128>(GemmArguments<p::Fp8E4M3Tile128x128> const&,
                                                               cudaStream_t);
template void run_gemm_sm100_unchecked<p::Fp8E4M3Tile128x256>(GemmArguments<p::Fp8E4M3Tile128x256> const&,
                                                               cudaStream_t);
template void run_gemm_sm100_unchecked<p::Fp8E4M3Pair256x256>(GemmArguments<p::Fp8E4M3Pair256x256> const&,
                                                               cudaStream_t);
template void run_gemm_sm100_unchecked<p::Fp8E5M2E4M3Tile128x256>(GemmArguments<p::Fp8E5M2E4M3Tile128x256> const&,
                                                                   cudaStream_t);

void run_gemm_sm100(GemmSm100Fp8E4M3Arguments const& args, cudaStream_t stream) {
  run_gemm_sm100_family<p::Fp8E4M3Family>(args, stream);
}
}  // namespace cute_cpp::kernels
