// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/moe/moe_decode_router.cuh's kernel (a decode step's add + RMSNorm, router logits and
// choices in one launch), softmax and sigmoid routing, alone in this object: 16-byte read-only
// loads of the router's rows, the warps' sums by shuffles, one atomic increment a CTA (the last to
// arrive routes), the programmatic-launch trigger and wait; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"LDG\.E\.128\.CONSTANT"}}
// expect-sass: {{"SHFL\.BFLY"}}
// expect-sass: {{"ATOMG?\.E\.INC"}}
// expect-sass: {{"PREEXIT.*ACQBULK"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/moe/moe_decode_router.cuh"

namespace moe = cute_cpp::kernels::moe;
template __global__ void moe::moe_decode_router_kernel<moe::MoeRouting::softmax>(moe::MoeDecodeRouter);
template __global__ void moe::moe_decode_router_kernel<moe::MoeRouting::sigmoid>(moe::MoeDecodeRouter);
