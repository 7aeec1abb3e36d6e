// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch named barriers: barrier(id, n), barrier_arrive(id, n).
#include <cstdint>
#include <ctm/common/bar.hpp>  // bar_sync, bar_arrive

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// bar.sync barrier_id, number_of_threads: waits until number_of_threads threads (a multiple
/// of 32) reach barrier barrier_id (0..15; 0 is sync_threads'). Without a count: all threads.
__device__ __forceinline__ void barrier(std::uint32_t barrier_id, std::uint32_t number_of_threads) {
  ctm::bar_sync(barrier_id, number_of_threads);
}
__device__ __forceinline__ void barrier(std::uint32_t barrier_id = 0) { ctm::bar_sync(barrier_id); }

/// bar.arrive barrier_id, number_of_threads: counts this warp towards the barrier, no wait.
__device__ __forceinline__ void barrier_arrive(std::uint32_t barrier_id, std::uint32_t number_of_threads) {
  ctm::bar_arrive(barrier_id, number_of_threads);
}

}  // namespace cute_cpp::arch
#endif
