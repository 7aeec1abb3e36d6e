// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm's sm_100a GEMM on one CTA a tile (128 x 128 and 128 x 256, bf16 in, bf16 and fp32
// out), alone in this object: the MMA warp issues UTCHMMA (never the pair's .2CTA form) and
// releases stages with UTCBAR; the TMA warp loads with UTMALDG.2D onto this CTA's barriers; the
// epilogue reads tensor memory with LDTM.x16 and stores C with 16-byte STG; TMEM is allocated
// (UTCATOMSWS) and the cluster launch control walk asks without multicast (SELFCAST). No local
// memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTMALDG\.2D \["}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\], URZ"}}
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\]"}}
// expect-sass: {{"STG\.E\.128"}}
// expect-sass: {{"UTCATOMSWS\.FIND_AND_SET\.ALIGN"}}
// expect-sass: {{"UGETNEXTWORKID\.SELFCAST"}}
// reject-sass: {{"\.2CTA"}}
// reject-sass: {{"UGETNEXTWORKID\.BROADCAST"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
void const* const kernels[] = {reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Bf16Tile128x128>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Bf16ToF32Tile128x256>)};
