// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The GEMM instantiations this example builds (each explicitly instantiated in a *_sm90.cu file).
#include "gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cute_cpp::examples::plans {

using bf16 = __nv_bfloat16;
using f16 = __half;
constexpr auto K = OperandMajorMode::K;
constexpr auto MN = OperandMajorMode::MN;

// NOTE: 128 x 256 x 64 with 4 stages: 192 KB of stages + 32 KB of epilogue buffers.
template <class TA, class TC, OperandMajorMode MA, OperandMajorMode MB, class Epi = epilogue::Identity>
using Wide = GemmPlan<TA, TA, TC, MA, MB, 128, 256, 64, 4, Epi>;

using Bf16TN = Wide<bf16, bf16, K, K>;
using Bf16NN = Wide<bf16, bf16, MN, K>;
using Bf16TT = Wide<bf16, bf16, K, MN>;
using Bf16NT = Wide<bf16, bf16, MN, MN>;
using F16TN = Wide<f16, f16, K, K>;
using Bf16TNf32 = Wide<bf16, float, K, K>;
using Bf16TNRelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::ReLU>>;
using Bf16TNGelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::GELU>>;
using Bf16TNSilu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::SiLU>>;

}  // namespace cute_cpp::examples::plans
