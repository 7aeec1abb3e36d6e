// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// NamedBarrier<Id, Threads>: one of the 16 hardware barriers, for a subset of a CTA's threads.
// Id 0 is __syncthreads' own. CuTeDSL: pipeline.NamedBarrier(barrier_id, num_threads).
#if defined(__CUDACC__)
#  include <ctm/common/bar.hpp>
#endif

namespace cute_cpp {

namespace diag {
template <int Id, int Threads>
struct named_barrier_plan {
  static_assert(Id >= 0 && Id <= 15, "cute-cpp [barrier.id]: a named barrier id is 0..15");
  static_assert(Threads > 0 && Threads % 32 == 0 && Threads <= 1024,
                "cute-cpp [barrier.threads]: a named barrier's thread count is a multiple of 32 up to 1024");
  static constexpr bool ok = true;
};
}  // namespace diag

/// A named barrier with a static id and thread count (checked where the type is formed).
template <int Id, int Threads>
struct NamedBarrier {
  static_assert(diag::named_barrier_plan<Id, Threads>::ok);
  static constexpr int id = Id;
  static constexpr int threads = Threads;
#if defined(__CUDACC__)
  /// bar.sync: waits until `Threads` threads have arrived.
  static __device__ __forceinline__ void sync() { ctm::bar_sync(Id, Threads); }
  /// bar.arrive: counts this thread without waiting.
  static __device__ __forceinline__ void arrive() { ctm::bar_arrive(Id, Threads); }
#endif
};

}  // namespace cute_cpp
