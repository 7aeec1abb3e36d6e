// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Split-K's meeting point: the CTAs that accumulate the K ranges of one output tile each leave
// their fp32 partial sums in a workspace slot and count themselves in; the one that arrives
// last sums every slot, in split order, and runs the epilogue. No CTA waits for another, and
// the sum does not depend on which split finished last (it is bit-identical run to run).
// Counters go back to zero as they complete, and they live in a fixed region at the workspace's
// head (never where any launch's partial sums go), so a workspace zeroed once serves every later
// launch of any shape, plan or decomposition.
// The scheduler's side is StaticPersistentTileScheduler's split_tiles / splits.
#include <cute_cpp/diag/epilogue.hpp>
#include <cute_cpp/config.hpp>

#if defined(__CUDACC__)
#  include <ctm/common/ld_st.hpp>
#endif

#include <cstddef>
#include <cstdint>

namespace cute_cpp {

/// Split-K's workspace: a counter per (split tile, thread group) and an fp32 slot per
/// (split tile, split, thread group). Zeroed once before first use; one kernel at a time.
struct SplitKWorkspace {
  std::uint32_t* counters = nullptr;
  float* partials = nullptr;
};

/// The counter words at the head of every split-K or stream-K workspace. The region is the same
/// size for every launch, so one launch's counters never lie where an earlier launch of another
/// shape left partial sums (issue 51: counters sized per launch met a larger launch's stale
/// partials). Bounded because both decompositions share out at most two waves of tiles: at most
/// 2 x resident CTAs x groups counters (checked by split_k_counters_fit).
inline constexpr std::int64_t split_k_counter_words = 4096;
inline constexpr std::size_t split_k_counter_bytes = std::size_t(split_k_counter_words) * sizeof(std::uint32_t);

/// Whether `split_tiles` CTA tiles reduced by `groups` thread groups each have a counter each.
constexpr bool split_k_counters_fit(std::int64_t split_tiles, int groups) {
  return split_tiles * groups <= split_k_counter_words;
}

/// Workspace bytes for `split_tiles` CTA tiles of `tile_floats` accumulators each, cut in
/// `splits`: the counter region, then the partial sums.
constexpr std::size_t split_k_workspace_bytes(std::int64_t split_tiles, int splits, std::int64_t tile_floats) {
  if (split_tiles == 0 || splits <= 1) return 0;
  return split_k_counter_bytes + std::size_t(split_tiles) * std::size_t(splits) * std::size_t(tile_floats) * sizeof(float);
}
/// The workspace's parts, laid out from `base` (as split_k_workspace_bytes counts them): the same
/// for every launch.
inline SplitKWorkspace split_k_workspace(void* base) {
  auto* const bytes = static_cast<unsigned char*>(base);
  return {reinterpret_cast<std::uint32_t*>(bytes), reinterpret_cast<float*>(bytes + split_k_counter_bytes)};
}

namespace detail {
/// Float4 loads issued together when summing `vectors` of them with `in_flight` in flight: the
/// widest power of two up to in_flight that divides vectors.
CUTE_CPP_HD constexpr int load_chunk(int vectors, int in_flight) {
  int c = in_flight;
  while (vectors % c != 0) c /= 2;
  return c;
}
}  // namespace detail

/// The thread group that meets other CTAs' groups in the workspace (a consumer warpgroup, say):
/// its named barrier (barrier `index` of the NamedBarriers run Barriers), the calling thread's
/// index in the group, and, for split-K, a shared word of the group.
template <class Barriers>
struct ReductionGroup {
  static constexpr int threads = Barriers::threads;
  int index = 0;
  int thread = 0;
  std::uint32_t* flag = nullptr;
#if defined(__CUDACC__)
  __device__ __forceinline__ void sync() const { Barriers::sync(index); }
#endif
};

/// Which part of a split tile a group holds: the workspace slot of its (split tile, group) pair,
/// and its split of `splits`.
struct SplitKPart {
  std::int64_t slot = 0;
  int split = 0;
  int splits = 1;
};

#if defined(__CUDACC__)
/// Called by all threads of `group` once their split of the tile is accumulated in `acc` (any
/// fragment of floats, a multiple of 4 per thread). InFlight (a power of two up to 32): the
/// float4 loads a thread keeps in flight while summing, 4 InFlight registers on top of the
/// fragment. A thread whose accumulators all lie outside the problem passes `active` false: it
/// neither writes nor reads partials (the group still syncs).
/// Returns true in the group that arrived last, whose `acc` then holds the whole tile's sum
/// (for active threads); false elsewhere (that group is done with the tile).
template <int InFlight = 8, class Fragment, class Barriers>
__device__ __forceinline__ bool split_k_reduce(Fragment& acc, SplitKWorkspace const& ws, SplitKPart const& part,
                                               ReductionGroup<Barriers> const& group, bool active = true) {
  constexpr int Threads = Barriers::threads;
  std::int64_t const slot = part.slot;
  int const split = part.split, splits = part.splits, thread = group.thread;
  constexpr int vectors = int(sizeof(Fragment) / sizeof(float4));
  static_assert(diag::split_k_fragment<int(sizeof(Fragment) / sizeof(float))>::ok);
  static_assert(InFlight >= 1 && InFlight <= 32 && (InFlight & (InFlight - 1)) == 0);
  // NOTE: float by float (not as float4 lvalues), so the fragment stays in registers.
  float* const v = reinterpret_cast<float*>(&acc);
  // Slot layout [vector][thread]: each store and load of the group is one contiguous 16-byte run per thread.
  auto slot_of = [&](int s) {
    return reinterpret_cast<float4*>(ws.partials) + (slot * splits + s) * std::int64_t(vectors * Threads) + thread;
  };
  float4* const mine = slot_of(split);
  if (active) {
#pragma unroll
    for (int i = 0; i < vectors; ++i)
      __stcg(mine + i * Threads, make_float4(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]));
  }
  group.sync();
  if (thread == 0) {
    // acq_rel: releases this group's partials (ordered before by the barrier) and, for the last
    // arrival, acquires everyone else's.
    std::uint32_t const before = ctm::atom_acq_rel_gpu_global_add_u32(ws.counters + slot, 1u);
    bool const last = before == std::uint32_t(splits - 1);
    if (last) ws.counters[slot] = 0u;  // every split has arrived: ready for the next launch
    *group.flag = last ? 1u : 0u;
  }
  group.sync();
  if (*group.flag == 0u) return false;
  if (!active) return true;
  // Sum the slots in split order (this group's own included), not in arrival order, a few
  // vectors at a time so the loads in flight do not need a second fragment of registers; with
  // few vectors, several splits' loads go out together (InFlight float4s per thread), since
  // each round of loads waits a whole L2 round trip.
  constexpr int chunk = detail::load_chunk(vectors, InFlight);
  constexpr int together = InFlight / chunk;  // splits whose loads go out together
#pragma unroll
  for (int c = 0; c < vectors; c += chunk) {
    for (int s0 = 0; s0 < splits; s0 += together) {
      float4 p[together][chunk];
#pragma unroll
      for (int g = 0; g < together; ++g) {
#pragma unroll
        for (int i = 0; i < chunk; ++i)
          if (s0 + g < splits) p[g][i] = __ldcg(slot_of(s0 + g) + (c + i) * Threads);
      }
#pragma unroll
      for (int g = 0; g < together; ++g) {
        if (s0 + g >= splits) break;
#pragma unroll
        for (int i = 0; i < chunk; ++i) {
          float const q[4] = {p[g][i].x, p[g][i].y, p[g][i].z, p[g][i].w};
#pragma unroll
          for (int j = 0; j < 4; ++j) v[4 * (c + i) + j] = s0 + g == 0 ? q[j] : v[4 * (c + i) + j] + q[j];
        }
      }
    }
  }
  return true;
}
#endif

}  // namespace cute_cpp
