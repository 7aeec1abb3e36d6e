// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm/simt_gemv_norm.cuh's kernel for one decode token, plain and SwiGLU-gated, alone in this
// object: the weights' first round of 16-byte loads between the programmatic-launch trigger and the
// wait, the normed row read back from shared memory (LDS.128) by the product, each CTA taking blocks of
// rows in turn after norming them once; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"PREEXIT.*LDG\.E\.128\.CONSTANT.*ACQBULK"}}
// expect-sass: {{"LDS\.128"}}
// expect-sass: {{"MUFU\.RSQ"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/gemm/simt_gemv_norm.cuh"

namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
template __global__ void kn::simt_gemv_normed_kernel<bf16, bf16, 1, cute_cpp::epilogue::Identity>(
    kn::gemv::Problem<bf16, bf16>, kn::RmsNormedRows<bf16>, cute_cpp::epilogue::Identity, std::int64_t);
template __global__ void kn::simt_gemv_normed_kernel<bf16, bf16, 1, cute_cpp::epilogue::SwiGLU>(
    kn::gemv::Problem<bf16, bf16>, kn::RmsNormedRows<bf16>, cute_cpp::epilogue::SwiGLU, std::int64_t);
