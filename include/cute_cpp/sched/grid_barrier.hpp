// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// GridBarrier: every CTA of a grid waits until all have arrived, for persistent kernels whose
// phases read what the whole grid wrote in the phase before (a decode step's layers in one
// launch). The grid must be resident at once (launched cooperatively, host::LaunchConfig's
// `cooperative`), else the CTAs that wait hold the SMs the others need.
// The count lives in global memory and only grows: arrival n of the count belongs to barrier
// generation n / grid, so a CTA's arrival ticket says which total to wait for, and no launch has
// to reset the count (a memset node would end a CUDA graph's programmatic chain). It must start
// at 0 and serve one grid size; 64 bits do not wrap in any run. A CTA that waits longer than
// `timeout_ns` (10 s: a phase of a step takes microseconds) prints the rule sched.grid-barrier with
// the counts and traps, so a grid that is not resident at once ends in an error, not a hung GPU.
// CuTeDSL: none (cooperative_groups::this_grid().sync() in CUDA C++; CUTLASS's GenericBarrier
// is the same arrive-then-spin on a counter).
#include <cute_cpp/arch/memory.hpp>  // fetch_add_release_gpu, load_acquire_gpu, sleep_ns

#include <cstdint>
#include <cstdio>

namespace cute_cpp {

/// A barrier across all CTAs of a resident grid, on a 64-bit count in global memory that starts
/// at 0 and is used by one grid size only.
struct GridBarrier {
  std::uint64_t* count = nullptr;
  std::uint64_t timeout_ns = 10'000'000'000ull;

#if defined(__CUDACC__)
  /// The wait's end past timeout_ns: the rule, the counts, a trap. Not inlined: one copy for every sync.
  __device__ __noinline__ void timed_out(std::uint64_t grid, std::uint64_t seen, std::uint64_t target) const {
    printf("cute-cpp [sched.grid-barrier]: block %u waited %llu ns for the grid's %llu CTAs at count %llu (of %llu): "
           "is the grid resident at once (a cooperative launch)?\n",
           blockIdx.x, static_cast<unsigned long long>(timeout_ns), static_cast<unsigned long long>(grid),
           static_cast<unsigned long long>(seen), static_cast<unsigned long long>(target));
    __trap();
  }

  /// Returns once every CTA of the grid has called it as often as this CTA; the writes any thread
  /// of the grid made before its call are visible to every thread after.
  __device__ __forceinline__ void sync() const {
    sync([] { __syncthreads(); });
  }

  /// The same for the CTA's threads that `cta_sync` joins (a named barrier of the warps taking part,
  /// where a warp of the CTA, a copy producer, never waits here); thread (0, 0, 0) must be one of them.
  template <class CtaSync>
  __device__ __forceinline__ void sync(CtaSync const& cta_sync) const {
    cta_sync();  // the CTA's writes happen before thread 0's release
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      std::uint64_t const grid = std::uint64_t(gridDim.x) * gridDim.y * gridDim.z;
      std::uint64_t const ticket = arch::fetch_add_release_gpu(count, 1);
      std::uint64_t const target = (ticket / grid + 1) * grid;
      std::uint64_t const start = arch::global_timer_ns();
      for (std::uint64_t seen; (seen = arch::load_acquire_gpu(count)) < target;) {
        arch::sleep_ns(32);
        if (arch::global_timer_ns() - start > timeout_ns) timed_out(grid, seen, target);
      }
    }
    cta_sync();  // thread 0's acquire happens before the CTA's later reads
  }
#endif
};

}  // namespace cute_cpp
