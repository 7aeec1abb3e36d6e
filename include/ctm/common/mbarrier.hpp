// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// mbarrier: init, arrive (with count), arrive.expect_tx, expect_tx, try_wait / test_wait by
// phase parity or by state, inval, and the cluster-scope remote arrive on a shared::cluster
// address (from mapa). CuTeDSL: cute.arch.mbarrier_init, mbarrier_arrive,
// mbarrier_arrive_and_expect_tx, mbarrier_expect_tx, mbarrier_try_wait, mbarrier_wait.
// Targets: sm_90a, sm_100a, sm_120a. Barriers are 8-byte objects in shared memory.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

#if defined(__CUDACC__)
namespace ctm {

// ---- init / inval ----

/// mbarrier.init.shared::cta.b64 [bar], count: phase 0, pending arrivals = count, tx-count 0.
/// @pre 1 <= count < 2^20; bar is 8-byte aligned shared memory. Follow with
///      fence_mbarrier_init_release_cluster() when other CTAs (or the async proxy) use it.
CTM_DEVICE void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(cvta_to_shared_u32(bar)),
               "r"(count)
               : "memory");
}

/// mbarrier.inval.shared::cta.b64 [bar]: before the barrier's memory is reused for anything else.
CTM_DEVICE void mbarrier_inval(std::uint64_t* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(cvta_to_shared_u32(bar)) : "memory");
}

// ---- arrive ----

/// mbarrier.arrive.shared::cta.b64 state, [bar]: one arrival (release, CTA scope). Returns the
/// state token for mbarrier_try_wait / mbarrier_test_wait.
CTM_DEVICE std::uint64_t mbarrier_arrive(std::uint64_t* bar) {
  std::uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];\n"
               : "=l"(state)
               : "r"(cvta_to_shared_u32(bar))
               : "memory");
  return state;
}

/// mbarrier.arrive.shared::cta.b64 state, [bar], count: `count` arrivals at once.
CTM_DEVICE std::uint64_t mbarrier_arrive(std::uint64_t* bar, std::uint32_t count) {
  std::uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;\n"
               : "=l"(state)
               : "r"(cvta_to_shared_u32(bar)), "r"(count)
               : "memory");
  return state;
}

/// mbarrier.arrive.expect_tx.shared::cta.b64 state, [bar], tx_bytes: raise the expected
/// transaction count by tx_bytes, then arrive once (the TMA producer's step).
CTM_DEVICE std::uint64_t mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t tx_bytes) {
  std::uint64_t state;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;\n"
               : "=l"(state)
               : "r"(cvta_to_shared_u32(bar)), "r"(tx_bytes)
               : "memory");
  return state;
}

/// mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], tx_bytes: raise the expected
/// transaction count without arriving.
CTM_DEVICE void mbarrier_expect_tx(std::uint64_t* bar, std::uint32_t tx_bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(
                   cvta_to_shared_u32(bar)),
               "r"(tx_bytes)
               : "memory");
}

/// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr]: one arrival on a barrier of
/// any CTA in the cluster. `cluster_addr` is a shared::cluster address (mapa_shared_cluster_u32).
CTM_DEVICE void mbarrier_arrive_release_cluster_shared_cluster(std::uint32_t cluster_addr) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_addr)
               : "memory");
}

/// mbarrier.arrive.shared::cluster.b64 _, [addr]: one arrival on a barrier of any CTA in the
/// cluster with the default semantics (release at CTA scope). Unlike the .release.cluster form,
/// which ptxas precedes with MEMBAR.ALL.GPU, this is a single SYNCS.ARRIVE: the form for
/// releasing a pipeline stage whose reads a wgmma wait has already completed.
CTM_DEVICE void mbarrier_arrive_shared_cluster(std::uint32_t cluster_addr) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_addr) : "memory");
}

/// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr], count.
CTM_DEVICE void mbarrier_arrive_release_cluster_shared_cluster(std::uint32_t cluster_addr,
                                                               std::uint32_t count) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;\n" ::"r"(
                   cluster_addr),
               "r"(count)
               : "memory");
}

/// mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [addr], tx_bytes.
CTM_DEVICE void mbarrier_arrive_expect_tx_release_cluster_shared_cluster(std::uint32_t cluster_addr,
                                                                         std::uint32_t tx_bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;\n" ::"r"(
          cluster_addr),
      "r"(tx_bytes)
      : "memory");
}

/// mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [addr], tx_bytes.
CTM_DEVICE void mbarrier_expect_tx_relaxed_cluster_shared_cluster(std::uint32_t cluster_addr,
                                                                  std::uint32_t tx_bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;\n" ::"r"(
                   cluster_addr),
               "r"(tx_bytes)
               : "memory");
}

// ---- wait ----

/// mbarrier.try_wait.parity.shared::cta.b64: true once the phase with parity `phase_parity`
/// (0 or 1) has completed; may suspend the thread for a system-dependent time first.
///   while (!ctm::mbarrier_try_wait_parity(bar, phase)) {}
CTM_DEVICE bool mbarrier_try_wait_parity(std::uint64_t* bar, std::uint32_t phase_parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "r"(phase_parity)
      : "memory");
  return done != 0;
}

/// mbarrier.try_wait.parity.shared::cta.b64 with a suspend-time hint in nanoseconds.
CTM_DEVICE bool mbarrier_try_wait_parity(std::uint64_t* bar, std::uint32_t phase_parity,
                                         std::uint32_t suspend_time_hint_ns) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "r"(phase_parity), "r"(suspend_time_hint_ns)
      : "memory");
  return done != 0;
}

/// mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64: as above, with cluster-scope
/// acquire (the arrivals came from other CTAs of the cluster).
CTM_DEVICE bool mbarrier_try_wait_parity_acquire_cluster(std::uint64_t* bar,
                                                         std::uint32_t phase_parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "r"(phase_parity)
      : "memory");
  return done != 0;
}

/// mbarrier.test_wait.parity.shared::cta.b64: the non-blocking test of a phase parity.
CTM_DEVICE bool mbarrier_test_wait_parity(std::uint64_t* bar, std::uint32_t phase_parity) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "r"(phase_parity)
      : "memory");
  return done != 0;
}

/// mbarrier.try_wait.shared::cta.b64: true once the phase named by `state` (from an arrive)
/// has completed.
CTM_DEVICE bool mbarrier_try_wait(std::uint64_t* bar, std::uint64_t state) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "l"(state)
      : "memory");
  return done != 0;
}

/// mbarrier.test_wait.shared::cta.b64: the non-blocking test of the phase named by `state`.
CTM_DEVICE bool mbarrier_test_wait(std::uint64_t* bar, std::uint64_t state) {
  std::uint32_t done;
  asm volatile(
      "{\n.reg .pred p;\n"
      "mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(cvta_to_shared_u32(bar)), "l"(state)
      : "memory");
  return done != 0;
}

/// Spins on mbarrier.try_wait.parity until the phase with parity `phase_parity` completes
/// (CuTeDSL's mbarrier_wait). Not one instruction: the loop around one.
CTM_DEVICE void mbarrier_wait_parity(std::uint64_t* bar, std::uint32_t phase_parity) {
  while (!mbarrier_try_wait_parity(bar, phase_parity)) {
  }
}

}  // namespace ctm
#endif
