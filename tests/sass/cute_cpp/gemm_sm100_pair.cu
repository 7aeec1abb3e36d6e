// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm's sm_100a GEMM on CTA pairs (cta_group::2, clusters of 2: 256 x 256, and 256 x 352
// as two atoms of 176), alone in this object: the leader's MMA warp issues UTCHMMA.2CTA and
// commits with UTCBAR.2CTA.MULTICAST to both CTAs (never the 1-CTA commit); both CTAs load with
// UTMALDG.2D.2CTA onto the leader's barrier; the peer's epilogue and every warp's CLC release
// arrive remotely (SYNCS.ARRIVE.TRANS64.RED); the walk's try_cancel is multicast (BROADCAST);
// LDTM.x16 reads the accumulators. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA\.2CTA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCBAR\.2CTA\.MULTICAST"}}
// expect-sass: {{"UTMALDG\.2D\.2CTA"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64\.RED"}}
// expect-sass: {{"UGETNEXTWORKID\.BROADCAST"}}
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\]"}}
// reject-sass: {{"UTCBAR \[UR[0-9]+\], URZ"}}
// reject-sass: {{"UTCHMMA gdesc"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
void const* const kernels[] = {reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Bf16Pair256x256>),
                               reinterpret_cast<void const*>(&kn::gemm_sm100_kernel<p::Bf16Pair256x352>)};
