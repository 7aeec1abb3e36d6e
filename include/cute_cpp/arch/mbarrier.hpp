// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch mbarrier helpers: mbarrier_init, mbarrier_init_fence, mbarrier_arrive (local or on
// a peer CTA's barrier), mbarrier_arrive_and_expect_tx, mbarrier_expect_tx, mbarrier_try_wait,
// mbarrier_wait.
#include <cstdint>
#include <ctm/common/cluster.hpp>   // mapa_shared_cluster_u32
#include <ctm/common/fence.hpp>     // fence_mbarrier_init_release_cluster
#include <ctm/common/mbarrier.hpp>  // the mbarrier instructions

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// mbarrier.init with `count` expected arrivals per phase.
__device__ __forceinline__ void mbarrier_init(std::uint64_t* mbar, std::uint32_t count) { ctm::mbarrier_init(mbar, count); }
/// fence.mbarrier_init.release.cluster: after the inits, before the barriers are shared.
__device__ __forceinline__ void mbarrier_init_fence() { ctm::fence_mbarrier_init_release_cluster(); }

/// One arrival on this CTA's barrier.
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* mbar) { (void)ctm::mbarrier_arrive(mbar); }
/// One arrival on the barrier at the same offset in the CTA of rank peer_cta_rank_in_cluster.
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* mbar, std::uint32_t peer_cta_rank_in_cluster) {
  ctm::mbarrier_arrive_release_cluster_shared_cluster(ctm::mapa_shared_cluster_u32(mbar, peer_cta_rank_in_cluster));
}

/// Expect `bytes` more transaction bytes, then arrive (the TMA producer's step).
__device__ __forceinline__ void mbarrier_arrive_and_expect_tx(std::uint64_t* mbar, std::uint32_t bytes) {
  (void)ctm::mbarrier_arrive_expect_tx(mbar, bytes);
}
/// The same on a peer CTA's barrier.
__device__ __forceinline__ void mbarrier_arrive_and_expect_tx(std::uint64_t* mbar, std::uint32_t bytes,
                                                              std::uint32_t peer_cta_rank_in_cluster) {
  ctm::mbarrier_arrive_expect_tx_release_cluster_shared_cluster(
      ctm::mapa_shared_cluster_u32(mbar, peer_cta_rank_in_cluster), bytes);
}
/// Expect `bytes` more transaction bytes without arriving.
__device__ __forceinline__ void mbarrier_expect_tx(std::uint64_t* mbar, std::uint32_t bytes) {
  ctm::mbarrier_expect_tx(mbar, bytes);
}

/// True once the phase with parity `phase` has completed (may suspend briefly first).
__device__ __forceinline__ bool mbarrier_try_wait(std::uint64_t* mbar, std::uint32_t phase) {
  return ctm::mbarrier_try_wait_parity(mbar, phase);
}
/// True once the phase with parity `phase` has completed, without suspending.
__device__ __forceinline__ bool mbarrier_test_wait(std::uint64_t* mbar, std::uint32_t phase) {
  return ctm::mbarrier_test_wait_parity(mbar, phase);
}
/// Waits until the phase with parity `phase` has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* mbar, std::uint32_t phase) {
  ctm::mbarrier_wait_parity(mbar, phase);
}

}  // namespace cute_cpp::arch
#endif
