// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// NVFP4 128 x 256 with two accumulator stages: 2 x 256 columns fill tensor memory, leaving none
// for the 4 stages' scale factors (48 columns each).
// cute-cpp-arch: 100a
// expected-error {{"umma\.tmem-columns.*AccColumns=256, AccStages=2, ScaleFactorColumns=192"}}
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>
namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
using Bad = p::Fp4Sm100Plan<p::Nvfp4Scale, 256, 4, 2>;
static_assert(Bad::threads > 0);
