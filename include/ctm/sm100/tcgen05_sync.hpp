// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_sync.hpp: ordering for tcgen05. tcgen05.commit (mbarrier arrive when the
// prior async tcgen05 operations complete, optionally multicast to a cluster mask),
// tcgen05.fence::before/after_thread_sync and tcgen05.wait::ld / wait::st. CuTeDSL:
// cute.nvgpu.tcgen05.commit, cute.arch.fence_view_async_tmem_load/store. Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_config.hpp>  // cta_group rule, target gates

#if defined(__CUDACC__)
namespace ctm {

// ---- commit ----

/// tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster.b64 [mbar]: one arrive on
/// the mbarrier at `mbar_smem` once every prior tcgen05.mma/cp of this thread has completed.
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_commit(std::uint32_t mbar_smem) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_commit<Target>();
  asm volatile("tcgen05.commit.cta_group::%1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n"
               :: "r"(mbar_smem), "n"(CtaGroup) : "memory");
}

/// tcgen05.commit.cta_group::N.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
/// [mbar], cta_mask: the arrive goes to the mbarrier at the same offset in every CTA whose bit
/// is set in the 16-bit `cta_mask` (bit i = CTA rank i in the cluster).
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_commit_multicast_cluster(std::uint32_t mbar_smem, std::uint16_t cta_mask) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_commit<Target>();
  asm volatile(
      "tcgen05.commit.cta_group::%2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 "
      "[%0], %1;\n" :: "r"(mbar_smem), "h"(cta_mask), "n"(CtaGroup) : "memory");
}

// ---- fences ----

/// tcgen05.fence::before_thread_sync: orders this thread's prior async tcgen05 operations
/// before a following thread synchronisation (bar.sync, mbarrier arrive, cluster barrier).
template <class Target = void>
CTM_DEVICE void tcgen05_fence_before_thread_sync() {
  detail::gate_tcgen05_fence<Target>();
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
}

/// tcgen05.fence::after_thread_sync: orders following async tcgen05 operations after a prior
/// thread synchronisation.
template <class Target = void>
CTM_DEVICE void tcgen05_fence_after_thread_sync() {
  detail::gate_tcgen05_fence<Target>();
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
}

// ---- waits ----

/// tcgen05.wait::ld.sync.aligned: every prior tcgen05.ld of this thread has completed (its
/// registers may be read).
template <class Target = void>
CTM_DEVICE void tcgen05_wait_ld() {
  detail::gate_tcgen05_wait<Target>();
  asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
}

/// tcgen05.wait::st.sync.aligned: every prior tcgen05.st of this thread has completed.
template <class Target = void>
CTM_DEVICE void tcgen05_wait_st() {
  detail::gate_tcgen05_wait<Target>();
  asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory");
}

/// CuTeDSL cute.arch.fence_view_async_tmem_load: tcgen05.wait::ld.
template <class Target = void>
CTM_DEVICE void fence_view_async_tmem_load() { tcgen05_wait_ld<Target>(); }

/// CuTeDSL cute.arch.fence_view_async_tmem_store: tcgen05.wait::st.
template <class Target = void>
CTM_DEVICE void fence_view_async_tmem_store() { tcgen05_wait_st<Target>(); }

}  // namespace ctm
#endif  // __CUDACC__
