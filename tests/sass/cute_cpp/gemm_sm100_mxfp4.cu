// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm's sm_100a block-scaled GEMM with MXFP4 operands (128 x 128 and 128 x 256), alone in
// this object: the MMA warp copies each stage's UE8M0 factors shared -> tensor memory (UTCCP
// 4x32dp128bit) and issues the block-scaled UMMA of kind::mxf4 (.scale_vec::2X: UTCOMMA,
// reading A's and B's factors from tensor memory), never mxf4nvf4 (UTCOMMA.4X), a 16-bit or
// 8-bit UMMA, or a pair's .2CTA; the TMA warp loads A, B and both factor boxes with UTMALDG.2D;
// the epilogue reads with LDTM.x16 and stores bf16 with 16-byte STG. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCOMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\], tmem\[UR[0-9]+\], idesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCCP\.T\.S\.4x32dp128bit tmem\[UR[0-9]+\], gdesc\[UR[0-9]+\]"}}
// expect-sass: {{"UTMALDG\.2D \["}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\], URZ"}}
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\]"}}
// expect-sass: {{"STG\.E\.128"}}
// reject-sass: {{"UTCOMMA\.4X"}}
// reject-sass: {{"UTC[HQ]MMA"}}
// reject-sass: {{"\.2CTA"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
void const* const kernels[] = {reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Mxfp4Tile128x128>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Mxfp4Tile128x256>)};
