// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The convolution kernel family of Qwen3-TTS's speech-tokenizer decoder: the causal conv1d and
// the causal transposed conv1d on an implicit GEMM (mma.sync, cp.async im2col), the weight
// packing, and ConvNeXt's depthwise causal conv. The decoder's plans in bf16 are compiled once
// into cute_cpp::conv (conv_sm90.cu, sm_90a); other plans instantiate from these headers.
#include <cute_cpp/kernels/conv/causal_conv.cuh>     // run_causal_conv1d, run_causal_conv_transpose1d, packing
#include <cute_cpp/kernels/conv/depthwise_conv.cuh>  // run_depthwise_conv1d

#include <cuda_bf16.h>

namespace cute_cpp::kernels {

/// The decoder's transposed convs: its four blocks (K = 2 s; 96 output channels at s 3, so the
/// narrow tile there) and its two ConvNeXt upsamplers (K = s = 2).
using ConvTransposeS8 = ConvTransposePlan<8, 16, ConvWidePlan>;
using ConvTransposeS5 = ConvTransposePlan<5, 10, ConvWidePlan>;
using ConvTransposeS4 = ConvTransposePlan<4, 8, ConvWidePlan>;
using ConvTransposeS3 = ConvTransposePlan<3, 6, ConvNarrowPlan>;
using ConvTransposeS2 = ConvTransposePlan<2, 2, ConvWidePlan>;

extern template void run_causal_conv1d<ConvWidePlan, __nv_bfloat16>(CausalConv1dArguments<__nv_bfloat16> const&,
                                                                     cudaStream_t);
extern template void run_causal_conv1d<ConvNarrowPlan, __nv_bfloat16>(CausalConv1dArguments<__nv_bfloat16> const&,
                                                                       cudaStream_t);
extern template void run_causal_conv_transpose1d<ConvTransposeS8, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_causal_conv_transpose1d<ConvTransposeS5, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_causal_conv_transpose1d<ConvTransposeS4, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_causal_conv_transpose1d<ConvTransposeS3, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_causal_conv_transpose1d<ConvTransposeS2, __nv_bfloat16>(
    ConvTranspose1dArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_depthwise_conv1d<ConvNextDepthwisePlan, __nv_bfloat16>(
    DepthwiseConv1dArguments<__nv_bfloat16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
