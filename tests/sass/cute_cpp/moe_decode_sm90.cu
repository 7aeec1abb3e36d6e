// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/moe/moe_decode.cuh's two kernels (a decode step's experts: SwiGLU and squared-ReLU first
// projections, the down projection with the weighted combine), alone in this object: 16-byte
// read-only loads of weights and activations, the warps' sums by shuffles, the programmatic-launch
// trigger and wait; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"LDG\.E\.128\.CONSTANT"}}
// expect-sass: {{"SHFL\.BFLY"}}
// expect-sass: {{"PREEXIT.*ACQBULK"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/moe/moe_decode.cuh"

namespace moe = cute_cpp::kernels::moe;
template __global__ void moe::moe_decode_first_kernel<moe::MoeActivation::swiglu>(moe::MoeDecodeFirst);
template __global__ void moe::moe_decode_first_kernel<moe::MoeActivation::relu2>(moe::MoeDecodeFirst);
template __global__ void moe::moe_decode_down_kernel<>(moe::MoeDecodeDown);
