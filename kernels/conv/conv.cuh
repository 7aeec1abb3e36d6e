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

#include <cstdint>
#include <stdexcept>
#include <string>

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

/// Calls f.template operator()<Plan>() with the built causal transposed conv plan of a (stride,
/// kernel): (2, 2) and (s, 2 s) for s = 8, 5, 4, 3 [conv.plan].
template <class F>
decltype(auto) with_conv_transpose_plan(std::int64_t stride, std::int64_t kernel, F&& f) {
  if (stride == 2 && kernel == 2) return f.template operator()<ConvTransposeS2>();
  if (stride == 8 && kernel == 16) return f.template operator()<ConvTransposeS8>();
  if (stride == 5 && kernel == 10) return f.template operator()<ConvTransposeS5>();
  if (stride == 4 && kernel == 8) return f.template operator()<ConvTransposeS4>();
  if (stride == 3 && kernel == 6) return f.template operator()<ConvTransposeS3>();
  throw std::invalid_argument("cute-cpp [conv.plan]: no transposed-conv plan for stride " + std::to_string(stride) +
                              " and kernel " + std::to_string(kernel) +
                              " (built: (2, 2), (8, 16), (5, 10), (4, 8), (3, 6))");
}

/// The causal conv1d in the built bf16 plan for its output width: 64-column tiles where the output
/// is narrow (c_out <= 96: fewer columns of a tile compute nothing), else 128.
inline void run_causal_conv1d_auto(CausalConv1dArguments<__nv_bfloat16> const& a, cudaStream_t stream = nullptr) {
  if (a.c_out <= 96) run_causal_conv1d<ConvNarrowPlan>(a, stream);
  else run_causal_conv1d<ConvWidePlan>(a, stream);
}

}  // namespace cute_cpp::kernels
