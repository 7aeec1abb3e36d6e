// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The pipelines' barrier wait. Release builds (NDEBUG) spin on mbarrier.try_wait.parity. Debug
// builds bound the wait: a phase that has not completed after TimeoutCycles clock cycles
// (default 2^35, about 17 s at 2 GHz) is a hang, so the thread prints which pipeline, barrier,
// stage and phase it waited on and traps, instead of hanging the GPU. AcquireCluster waits with
// cluster-scope acquire, for phases completed by arrivals (with release.cluster) from other CTAs
// after their ordinary shared-memory writes.
#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/mbarrier.hpp>

#  include <cstdio>
#endif

namespace cute_cpp::detail {

inline constexpr long long default_wait_timeout_cycles = 1ll << 35;

#if defined(__CUDACC__)
/// One try_wait.parity on `bar`, at CTA (default) or cluster acquire scope.
template <bool AcquireCluster>
__device__ __forceinline__ bool pipeline_try_wait(std::uint64_t* bar, std::uint32_t phase) {
  if constexpr (AcquireCluster) return ctm::mbarrier_try_wait_parity_acquire_cluster(bar, phase);
  else return ctm::mbarrier_try_wait_parity(bar, phase);
}

/// Waits for the phase with parity `phase` of `bar`; debug builds trap after TimeoutCycles.
template <long long TimeoutCycles = default_wait_timeout_cycles, bool AcquireCluster = false>
__device__ __forceinline__ void pipeline_wait(std::uint64_t* bar, std::uint32_t phase, char const* pipeline,
                                              char const* barrier, std::uint32_t stage) {
#  if defined(NDEBUG)
  (void)pipeline;
  (void)barrier;
  (void)stage;
  while (!pipeline_try_wait<AcquireCluster>(bar, phase)) {
  }
#  else
  long long const start = clock64();
  while (!pipeline_try_wait<AcquireCluster>(bar, phase)) {
    if (clock64() - start > TimeoutCycles) {
      printf("cute-cpp [pipeline.wait-timeout]: %s: the %s barrier of stage %u did not complete phase %u within "
             "%lld cycles (block %d, thread %d): a producer or consumer never arrived\n",
             pipeline, barrier, stage, phase, TimeoutCycles, int(blockIdx.x), int(threadIdx.x));
      __trap();
    }
  }
#  endif
}
#endif

}  // namespace cute_cpp::detail
