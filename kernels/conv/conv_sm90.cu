// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp::conv's instantiations for sm_90a: Qwen3-TTS's decoder convolutions in bf16.
#include <cute_cpp/kernels/conv/conv.cuh>

namespace cute_cpp::kernels {

template void run_causal_conv1d<ConvWidePlan, __nv_bfloat16>(CausalConv1dArguments<__nv_bfloat16> const&,
                                                                     cudaStream_t);
template void run_causal_conv1d<ConvNarrowPlan, __nv_bfloat16>(CausalConv1dArguments<__nv_bfloat16> const&,
                                                                       cudaStream_t);
template void run_causal_conv_transpose1d<ConvTransposeS8, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_causal_conv_transpose1d<ConvTransposeS5, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_causal_conv_transpose1d<ConvTransposeS4, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_causal_conv_transpose1d<ConvTransposeS3, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_causal_conv_transpose1d<ConvTransposeS2, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_depthwise_conv1d<ConvNextDepthwisePlan, __nv_bfloat16>(
    DepthwiseConv1dArguments<__nv_bfloat16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
