// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/attention/prefill/fmha_sm100.cuh's kernel for the D128 bf16 and D64 f16 plans, alone in
// this object: S = Q K^T and O += P V are 1-CTA UTCHMMAs from shared-memory descriptors into tensor
// memory, committed with UTCBAR (no multicast, no CTA pair); Q, K, V arrive by rank-4 TMA; the
// softmax reads S and O a row a thread (LDTM.x32), stores the corrected O back (STTM.x32), exp2s
// on MUFU.EX2, writes P 16 bytes at a time to shared memory (STS.128) fenced for the async proxy
// (FENCE.VIEW.ASYNC.S) before the MMA reads it, and stores O 16 bytes at a time (STG.E.128);
// tensor memory is allocated and freed (UTCATOMSWS, UVIRTCOUNT.DEALLOC). No wgmma, no local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\], tmem\[UR[0-9]+\], idesc\[UR[0-9]+\]"}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\], URZ"}}
// expect-sass: {{"UTMALDG\.4D \["}}
// expect-sass: {{"LDTM\.x32 R[0-9]+, tmem\[UR[0-9]+\]"}}
// expect-sass: {{"STTM\.x32 tmem\[UR[0-9]+"}}
// expect-sass: {{"MUFU\.EX2"}}
// expect-sass: {{"STS\.128 "}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.S"}}
// expect-sass: {{"STG\.E\.128 "}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"UTCATOMSWS\.FIND_AND_SET\.ALIGN"}}
// expect-sass: {{"UVIRTCOUNT\.DEALLOC"}}
// reject-sass: {{"HGMMA"}}
// reject-sass: {{"2CTA|MULTICAST"}}
// reject-sass: {{"[ \t]ST\.E\.128"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.cuh>

namespace kn = cute_cpp::kernels;
using D128 = kn::fmha_sm100_plans::D128<__nv_bfloat16>;
using D64 = kn::fmha_sm100_plans::D64<__half>;
// Taking the kernels' addresses instantiates them (an explicit instantiation would have to repeat
// the __grid_constant__ annotations).
void const* fmha_sm100_kernels[] = {reinterpret_cast<void const*>(&kn::fmha_sm100_kernel<D128>),
                                    reinterpret_cast<void const*>(&kn::fmha_sm100_kernel<D64>)};
