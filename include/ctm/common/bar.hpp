// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Named barriers (bar.sync / bar.arrive with a barrier id 0..15 and a thread count) and
// bar.warp.sync. CuTeDSL: cute.arch.barrier, barrier_arrive, NamedBarrier underneath.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

/// bar.sync id: every thread of the CTA waits at barrier `id` (0..15).
CTM_DEVICE void bar_sync(std::uint32_t id) {
  asm volatile("bar.sync %0;\n" ::"r"(id) : "memory");
}

/// bar.sync id, thread_count: waits until `thread_count` threads (a multiple of 32) have
/// reached barrier `id`. Barrier 0 is __syncthreads'; give named barriers ids from 1.
CTM_DEVICE void bar_sync(std::uint32_t id, std::uint32_t thread_count) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(thread_count) : "memory");
}

/// bar.arrive id, thread_count: counts this warp's threads towards barrier `id` without waiting
/// (the producer side of a producer/consumer named barrier).
CTM_DEVICE void bar_arrive(std::uint32_t id, std::uint32_t thread_count) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(thread_count) : "memory");
}

/// bar.warp.sync membermask (__syncwarp).
CTM_DEVICE void bar_warp_sync(std::uint32_t membermask = 0xffffffffu) {
  asm volatile("bar.warp.sync %0;\n" ::"r"(membermask) : "memory");
}

}  // namespace ctm
#endif
