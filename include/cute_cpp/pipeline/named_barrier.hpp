// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Named barriers: 16 hardware barriers per CTA, each for a subset of its threads; id 0 is
// __syncthreads' own. NamedBarrier<Id, Threads> is one of them; NamedBarriers<First, Count,
// Threads> is a run of them, one per warpgroup (or row group) of a role, picked by index at run
// time. A kernel takes its ids from one NamedBarrierAllocation, which hands them out in order, so
// no two users of the kernel (an epilogue, a reduction, a schedule) can share one.
// CuTeDSL: pipeline.NamedBarrier(barrier_id, num_threads); the ids are the kernel author's.
#include <cute_cpp/diag/barrier.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/bar.hpp>
#endif

namespace cute_cpp {

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

/// Count named barriers of Threads threads each, ids First .. First + Count - 1.
template <int First, int Count, int Threads>
struct NamedBarriers {
  static_assert(Count >= 1 && diag::named_barrier_plan<First, Threads>::ok &&
                diag::named_barrier_plan<First + Count - 1, Threads>::ok);
  static constexpr int first = First;
  static constexpr int count = Count;
  static constexpr int threads = Threads;
  /// The I-th barrier of the run, as a NamedBarrier.
  template <int I>
  using barrier = NamedBarrier<First + I, Threads>;
#if defined(__CUDACC__)
  /// bar.sync on barrier i of the run (0 <= i < Count).
  static __device__ __forceinline__ void sync(int i) { ctm::bar_sync(std::uint32_t(First + i), Threads); }
  /// bar.arrive on barrier i of the run.
  static __device__ __forceinline__ void arrive(int i) { ctm::bar_arrive(std::uint32_t(First + i), Threads); }
#endif
};

/// What one user of named barriers asks a NamedBarrierAllocation for: Count barriers of Threads.
template <int Count, int Threads>
struct BarrierRequest {
  static constexpr int count = Count;
  static constexpr int threads = Threads;
};

/// The named-barrier ids of one kernel: each request gets its own run, in order from id 1.
/// `user<I>` is the I-th request's NamedBarriers. Rule barrier.ids: the runs fit in ids 1..15.
template <class... Requests>
struct NamedBarrierAllocation {
  // NOTE: the bounds are spelled out: clang 16 reads no element of an array of deduced bound
  // from inside its own class (first_id, user) in a constant expression.
  static constexpr int counts[sizeof...(Requests) + 1] = {Requests::count..., 0};
  static constexpr int threads_of[sizeof...(Requests) + 1] = {Requests::threads..., 0};
  static constexpr int ids_used = (0 + ... + Requests::count);
  static_assert(diag::named_barrier_ids<ids_used>::ok);
  static constexpr int first_id(int i) {
    int id = 1;
    for (int r = 0; r < i; ++r) id += counts[r];
    return id;
  }
  template <int I>
  using user = NamedBarriers<first_id(I), counts[I], threads_of[I]>;
};

}  // namespace cute_cpp
