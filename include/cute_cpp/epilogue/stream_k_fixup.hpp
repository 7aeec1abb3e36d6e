// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Stream-K's fixup: a tile whose K blocks two CTAs share (StaticPersistentTileScheduler's
// stream_k_tiles) meets in one workspace slot. The CTA holding the tile's first K blocks (the
// head of its range) reaches it first: it leaves its fp32 partial sums and raises the slot's
// flag. The CTA holding the later K blocks (the tail of its range, walked last) waits for the
// flag, adds the partial sums to its own and stores C. The roles are fixed by the schedule, so
// the sum is the same in every run; the flag goes back to zero as it is read, so a workspace
// zeroed once serves every launch.
// NOTE: the adding CTA waits for another CTA, so the grid must be resident at once (the
// persistent grid is sized by the occupancy calculator); the leaving CTA never waits.
#include <cute_cpp/config.hpp>
#include <cute_cpp/epilogue/split_k_reduce.hpp>

#if defined(__CUDACC__)
#  include <cute_cpp/pipeline/wait.hpp>

#  include <ctm/common/ld_st.hpp>

#  include <cstdio>
#endif

#include <cstddef>
#include <cstdint>

namespace cute_cpp {

/// Workspace bytes for `tiles` shared CTA tiles of `tile_floats` accumulators each: split-K's
/// counter region (a flag per (tile, thread group) in it), then the tiles' fp32 partial sums.
/// split_k_workspace(base) lays it out.
constexpr std::size_t stream_k_workspace_bytes(std::int64_t tiles, std::int64_t tile_floats) {
  if (tiles == 0) return 0;
  return split_k_counter_bytes + std::size_t(tiles) * std::size_t(tile_floats) * sizeof(float);
}

#if defined(__CUDACC__)
namespace detail {
/// The thread's first float4 of `slot`: slots are [vector][thread], so each store and load of the
/// group is one contiguous 16-byte run per thread.
/// NOTE: a 32-bit index (stream-K has at most two waves of tiles in the workspace): a 64-bit one
/// is hoisted out of the GEMM's main loop, and beside 160 accumulators its two registers spill.
template <int Threads, class Fragment>
__device__ __forceinline__ float4* stream_k_slot(SplitKWorkspace const& ws, std::uint32_t slot, int thread) {
  constexpr std::uint32_t vectors = sizeof(Fragment) / sizeof(float4);
  return reinterpret_cast<float4*>(ws.partials) + (slot * (vectors * Threads) + std::uint32_t(thread));
}
}  // namespace detail

/// Called by all threads of `group` (e.g. a consumer warpgroup) holding a shared tile's first K
/// blocks, once they are accumulated in `acc` (floats, a multiple of 4 per thread): leaves them
/// in `slot` and raises its flag. A thread whose accumulators all lie outside the problem passes
/// `active` false.
template <class Fragment, class Barriers>
__device__ __forceinline__ void stream_k_leave_partial(Fragment const& acc, SplitKWorkspace const& ws,
                                                       std::uint32_t slot, ReductionGroup<Barriers> const& group,
                                                       bool active = true) {
  constexpr int Threads = Barriers::threads;
  int const thread = group.thread;
  constexpr int vectors = int(sizeof(Fragment) / sizeof(float4));
  static_assert(diag::split_k_fragment<int(sizeof(Fragment) / sizeof(float))>::ok);
  float const* const v = reinterpret_cast<float const*>(&acc);
  float4* const mine = detail::stream_k_slot<Threads, Fragment>(ws, slot, thread);
  if (active) {
#  pragma unroll
    for (int i = 0; i < vectors; ++i)
      __stcg(mine + i * Threads, make_float4(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]));
  }
  group.sync();
  // The release publishes the group's stores, ordered before it by the barrier.
  if (thread == 0) ctm::st_release_gpu_global_b32(ws.counters + slot, 1u);
}

/// Called by all threads of the group holding the shared tile's later K blocks, once they are
/// accumulated in `acc`: waits for the other group's partial sums in `slot` and adds them
/// (InFlight float4 loads in flight per thread: a power of two up to 32). Debug builds trap after
/// TimeoutCycles of waiting, naming the slot.
template <int InFlight = 8, long long TimeoutCycles = detail::default_wait_timeout_cycles, class Fragment,
          class Barriers>
__device__ __forceinline__ void stream_k_add_partial(Fragment& acc, SplitKWorkspace const& ws, std::uint32_t slot,
                                                     ReductionGroup<Barriers> const& group, bool active = true) {
  constexpr int Threads = Barriers::threads;
  int const thread = group.thread;
  constexpr int vectors = int(sizeof(Fragment) / sizeof(float4));
  static_assert(diag::split_k_fragment<int(sizeof(Fragment) / sizeof(float))>::ok);
  static_assert(InFlight >= 1 && InFlight <= 32 && (InFlight & (InFlight - 1)) == 0);
  if (thread == 0) {
#  if !defined(NDEBUG)
    long long const start = clock64();
#  endif
    while (ctm::ld_acquire_gpu_global_b32(ws.counters + slot) == 0u) {
      ctm::nanosleep_u32(32);
#  if !defined(NDEBUG)
      if (clock64() - start > TimeoutCycles) {
        printf("cute-cpp [stream-k.wait-timeout]: the partial sums of slot %u did not arrive within %lld cycles "
               "(block %d): the CTA holding the tile's first K blocks never ran\n",
               slot, TimeoutCycles, int(blockIdx.x));
        __trap();
      }
#  endif
    }
    ws.counters[slot] = 0u;  // read: ready for the next launch
  }
  group.sync();
  if (!active) return;
  // NOTE: float by float (not as float4 lvalues), so the fragment stays in registers.
  float* const v = reinterpret_cast<float*>(&acc);
  float4 const* const theirs = detail::stream_k_slot<Threads, Fragment>(ws, slot, thread);
  constexpr int chunk = detail::load_chunk(vectors, InFlight);
#  pragma unroll
  for (int c = 0; c < vectors; c += chunk) {
    float4 p[chunk];
#  pragma unroll
    for (int i = 0; i < chunk; ++i) p[i] = __ldcg(theirs + (c + i) * Threads);
#  pragma unroll
    for (int i = 0; i < chunk; ++i) {
      v[4 * (c + i)] += p[i].x;
      v[4 * (c + i) + 1] += p[i].y;
      v[4 * (c + i) + 2] += p[i].z;
      v[4 * (c + i) + 3] += p[i].w;
    }
    // NOTE: a scheduling barrier: without it ptxas issues every chunk's loads at once, and beside
    // the live accumulators (and an overlapped epilogue's packed chunks) the consumers spill.
    __syncwarp();
  }
}
#endif

}  // namespace cute_cpp
