// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm's sm_100a GEMM with FP8 operands (kind::f8f6f4: e4m3 x e4m3 on one CTA and on a
// pair, e5m2 x e4m3), alone in this object: UTCQMMA and UTCQMMA.2CTA, never the 16-bit UTCHMMA;
// bf16 out with 16-byte stores after the per-tensor dequantization. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCQMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCQMMA\.2CTA gdesc"}}
// expect-sass: {{"UTMALDG\.2D"}}
// expect-sass: {{"LDTM\.x16"}}
// expect-sass: {{"STG\.E\.128"}}
// reject-sass: {{"UTCHMMA"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
void const* const kernels[] = {reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Fp8E4M3Tile128x256>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Fp8E4M3Pair256x256>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Fp8E5M2E4M3Tile128x256>)};
