// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm/simt_gemv.cuh instantiated for one decode token (one short row, K-major), alone in this
// object: a long operand no earlier kernel writes (GemmArguments::independent) has its first round of
// 16-byte loads (LDG.E.128) issued between the programmatic-launch trigger (PREEXIT) and the wait for
// the previous grid (ACQBULK), so the weights stream while that grid finishes; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"PREEXIT.*LDG\.E\.128\.CONSTANT.*ACQBULK"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/gemm/simt_gemv.cuh"

namespace kn = cute_cpp::kernels;
template __global__ void kn::simt_gemv_kernel<__nv_bfloat16, __nv_bfloat16, 1, true>(kn::gemv::Problem<__nv_bfloat16, __nv_bfloat16>);
