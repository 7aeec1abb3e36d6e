// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm's sm_100a GEMM with MN-major operands (fp16 with a row-major B, fp32 out; bf16 with
// both MN-major on a pair), alone in this object: each MN-major tile is two or four 64-element
// boxes wide, so its loads are several UTMALDG.2D (.2CTA on the pair) a stage; UTCHMMA reads them
// through MN-major descriptors. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc"}}
// expect-sass: {{"UTCHMMA\.2CTA gdesc"}}
// expect-sass: {{"UTMALDG\.2D \["}}
// expect-sass: {{"UTMALDG\.2D\.2CTA"}}
// expect-sass: {{"LDTM\.x16"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
void const* const kernels[] = {reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::F16ToF32NNTile128x256>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Bf16MNPair256x256>)};
