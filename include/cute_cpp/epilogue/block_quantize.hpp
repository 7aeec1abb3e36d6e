// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// FP8 quantization by blocks of 128 consecutive elements of a row (DeepSeek-V3's 1 x 128 recipe
// for activations): a block's scale is amax / max_finite (max_finite: 448 for e4m3, 57344 for
// e5m2), so its largest element maps to the type's largest value, and each element is
// x * (max_finite / amax), rounded to nearest and saturated. An all-zero block gets scale 1.
// The quantizing kernels (kernels/gemm/quantize.cuh) and the GEMM epilogue that writes
// FP8 (sm90_tma_store.hpp) share these rules, so either makes the operand the other's consumer reads.
#include <cute_cpp/config.hpp>

#include <cuda_fp8.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp::epilogue {

/// The largest finite value of an FP8 type.
template <class T>
inline constexpr float fp8_max_finite = std::is_same_v<T, __nv_fp8_e4m3> ? 448.0f : 57344.0f;

template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;

/// The scale of a block whose largest magnitude is `amax` (the real value is the FP8 one times it).
CUTE_CPP_HD inline float fp8_block_scale(float amax, float max_finite) {
  return amax > 0.0f ? amax / max_finite : 1.0f;
}
/// What each element of that block is multiplied by before it is rounded to FP8.
CUTE_CPP_HD inline float fp8_block_inverse_scale(float amax, float max_finite) {
  return amax > 0.0f ? max_finite / amax : 1.0f;
}

/// Where an epilogue that quantizes its output to FP8 by 1 x 128 blocks writes the scales: block
/// (row, col / 128) at row * row_stride + (col / 128) * block_stride, so C_real[row, col] =
/// C[row, col] * scale. The form of BlockScales' A scales (row-major (M, N/128) is {N/128, 1};
/// DeepGEMM's block-major (N/128, M) is {1, M}), so the output is the next block-scaled GEMM's A.
struct OutputBlockScales {
  float* data = nullptr;
  std::int64_t row_stride = 0, block_stride = 0;
};

}  // namespace cute_cpp::epilogue
