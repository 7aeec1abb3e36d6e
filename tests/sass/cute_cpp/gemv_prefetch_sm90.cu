// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm/simt_gemv.cuh instantiated for one decode token (one short row, K-major), alone in this
// object: a long operand no earlier kernel writes (GemmArguments::independent) is asked into L2 by
// one bulk prefetch a row (UBLKPF) between the programmatic-launch trigger (PREEXIT) and the wait
// for the previous grid (ACQBULK), so the weights stream while that grid finishes; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"PREEXIT.*UBLKPF\.L2.*ACQBULK"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/gemm/simt_gemv.cuh"

namespace kn = cute_cpp::kernels;
template __global__ void kn::simt_gemv_kernel<__nv_bfloat16, __nv_bfloat16, 1, true>(kn::gemv::Problem<__nv_bfloat16, __nv_bfloat16>);
