// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// AlternatingTurns<TurnBarriers>: warpgroups taking turns in a ring, each waiting for its turn
// before it issues its tensor-core work and passing the turn on after, so that one's other work
// (a softmax, an epilogue) runs while the others' GEMMs do (FlashAttention-3's ping-pong).
// CuTeDSL: the PipelineOrder-style named-barrier schedule of its Hopper FMHA.
#include <cute_cpp/pipeline/named_barrier.hpp>

namespace cute_cpp {

/// A ring of turns over TurnBarriers::count warpgroups: one barrier of 256 threads per warpgroup
/// (its own 128 and the passer's). The last warpgroup hands warpgroup 0 the first turn (start).
template <class TurnBarriers>
struct AlternatingTurns {
  static constexpr int warpgroups = TurnBarriers::count;
  static_assert(warpgroups >= 2 && TurnBarriers::threads == 256,
                "cute-cpp [barrier.turns]: a ring of turns needs at least two warpgroups and barriers of 256 "
                "threads (the waiting warpgroup and the passing one)");
#if defined(__CUDACC__)
  /// Called once by every thread of each warpgroup before its first wait.
  static __device__ __forceinline__ void start(int wg) {
    if (wg == warpgroups - 1) TurnBarriers::arrive(0);
  }
  static __device__ __forceinline__ void wait(int wg) { TurnBarriers::sync(wg); }
  static __device__ __forceinline__ void pass(int wg) { TurnBarriers::arrive(wg + 1 == warpgroups ? 0 : wg + 1); }
#endif
};

}  // namespace cute_cpp
