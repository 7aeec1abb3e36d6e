// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A consumer warpgroup's walk over its key blocks in FlashAttention-3's intra-warpgroup overlap,
// shared by the attention forward (fmha_consumer.cuh) and decode over a 16-bit cache
// (decode_consumer.cuh): S of a block and P V of the block before are issued together, then the
// block's softmax runs while P V does. The kernel brings its steps (where S, P V and V's release
// come from differs: TMA stages, a paged cache's tail, the order of K's release); the sequence of
// issues, waits and releases is the same everywhere, and written once here.
#if defined(__CUDACC__)
#  include <cstdint>
#  include <vector_types.h>  // float2

namespace cute_cpp {

/// Issue turns for one consumer warpgroup, or several that do not take turns: nothing to wait for.
struct NoIssueTurns {
  __device__ __forceinline__ static void wait(int) {}
  __device__ __forceinline__ static void pass(int) {}
};

/// Runs blocks n, n + Step, ... while below `bound` (Step +1) or at least `bound` (Step -1); n is
/// the first and holds at least one key. Steps gives the fragments (s, o, pa), the softmax, the
/// tiled MMAs (MmaS, MmaO) and the steps: issue_s(), issue_pv(bool last_block), softmax_of_s(n)
/// (masks S, updates the row statistics, returns O's correction, releases K) and release_v().
/// Turns (AlternatingTurns or NoIssueTurns) orders the issues of the CTA's consumer warpgroups.
template <int Step, class Turns, class Steps>
__device__ __forceinline__ void overlapped_key_blocks(Steps const& steps, std::int32_t n, std::int32_t bound, int wg) {
  static_assert(Step == 1 || Step == -1, "cute-cpp [attention.key-walk]: key blocks are walked by +1 or -1");
  using MmaS = typename Steps::MmaS;
  using MmaO = typename Steps::MmaO;
  Turns::wait(wg);
  steps.issue_s();
  Turns::pass(wg);
  MmaS::template wait_group<0>(steps.s);
  float2 correction = steps.softmax_of_s(n);  // O is still 0: its rescale changes nothing
  steps.pa = MmaO::make_a_fragment(steps.s);
  for (n += Step; Step > 0 ? n < bound : n >= bound; n += Step) {
    Turns::wait(wg);
    steps.issue_s();
    // O's rescale for the previous block's maximum runs while S's wgmmas do.
    steps.softmax.rescale(steps.o, correction);
    steps.issue_pv(false);
    Turns::pass(wg);
    MmaS::template wait_group<1>(steps.s);
    correction = steps.softmax_of_s(n);
    MmaO::template wait_group<0>(steps.o, steps.pa);
    steps.release_v();
    steps.pa = MmaO::make_a_fragment(steps.s);
  }
  Turns::wait(wg);
  steps.softmax.rescale(steps.o, correction);
  steps.issue_pv(true);
  Turns::pass(wg);
  MmaO::template wait_group<0>(steps.o, steps.pa);
  steps.release_v();
}

}  // namespace cute_cpp
#endif
