// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch-style UMMA completion arrivals over tcgen05.commit: umma_arrive (onto this CTA's
// barrier) and umma_arrive_multicast (onto the barrier at the same offset in every CTA of a
// mask), for one CTA (CtaGroup 1) or a CTA pair (CtaGroup 2, issued by the pair's leader).
// CuTeDSL: cute.nvgpu.tcgen05.commit(mbar_ptr, mask, cta_group); CUTLASS C++: umma_arrive,
// umma_arrive_multicast, and their _2x1SM forms. sm_100a only: the ctm instruction rejects
// other targets by name.
#include <cstdint>
#include <ctm/common/config.hpp>      // cvta_to_shared_u32
#include <ctm/sm100/tcgen05_sync.hpp>  // tcgen05_commit, tcgen05_commit_multicast_cluster

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// tcgen05.commit.cta_group::CtaGroup: one arrival on this CTA's barrier `mbar` once every
/// earlier tcgen05.mma / cp of this thread has completed.
template <int CtaGroup = 1, class Target = void>
__device__ __forceinline__ void umma_arrive(std::uint64_t* mbar) {
  ctm::tcgen05_commit<CtaGroup, Target>(ctm::cvta_to_shared_u32(mbar));
}

/// tcgen05.commit.cta_group::CtaGroup...multicast::cluster: one arrival on the barrier at
/// `mbar`'s offset in every CTA whose bit is set in `cta_mask` (bit r = cluster rank r), once
/// every earlier tcgen05.mma / cp of this thread has completed.
template <int CtaGroup = 1, class Target = void>
__device__ __forceinline__ void umma_arrive_multicast(std::uint64_t* mbar, std::uint16_t cta_mask) {
  ctm::tcgen05_commit_multicast_cluster<CtaGroup, Target>(ctm::cvta_to_shared_u32(mbar), cta_mask);
}

}  // namespace cute_cpp::arch
#endif
