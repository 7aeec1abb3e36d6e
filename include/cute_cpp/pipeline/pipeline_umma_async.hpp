// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineUmmaAsync<Stages, ConsumerArrivals, CtaGroup, ClusterSize>: the sm_100a accumulator
// ring. The MMA thread fills a tensor-memory accumulator stage and commits it (tcgen05.commit)
// onto the stage's "full" barrier, which completes when the MMAs have; epilogue threads read the
// stage (tcgen05.ld) and arrive on its "empty" barrier. ConsumerArrivals counts one CTA's
// epilogue arrivals (threads, or warps with the warp form of consumer_release).
// 1-CTA: full = 1 commit, empty = ConsumerArrivals. 2-CTA (a pair, ranks 2k and 2k + 1): the
// leader's commit multicasts to both CTAs' full barriers (each CTA's epilogue reads its own
// half of the accumulator), and both CTAs' epilogues arrive on the leader's empty barrier,
// empty = 2 * ConsumerArrivals there (the peer's empty barriers stay unused).
// CuTeDSL: pipeline.PipelineUmmaAsync. The tcgen05 fences around the barrier steps are here,
// not in the caller: after_thread_sync after each wait (tensor-memory work follows) and
// before_thread_sync before each epilogue arrival (its tcgen05.ld precede it).
#include <cute_cpp/config.hpp>
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/diag/umma_pipeline.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/stage_barriers.hpp>
#include <cute_cpp/pipeline/umma_cta_pair.hpp>
#include <cute_cpp/pipeline/umma_stage_ring.hpp>
#include <cute_cpp/pipeline/wait.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <cute_cpp/arch/umma.hpp>  // umma_arrive, umma_arrive_multicast
#  include <ctm/common/cluster.hpp>  // mapa_shared_cluster_u32
#  include <ctm/common/mbarrier.hpp>
#  include <ctm/sm100/tcgen05_sync.hpp>  // tcgen05_fence_before/after_thread_sync
#endif

namespace cute_cpp {

/// A UMMA-filled, thread-drained ring of accumulator stages (see the file comment).
template <int Stages, int ConsumerArrivals, int CtaGroup = 1, int ClusterSize = CtaGroup>
struct PipelineUmmaAsync
    : detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, 1, ConsumerArrivals * CtaGroup> {
  using Ring = detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, 1, ConsumerArrivals * CtaGroup>;
  static_assert(diag::pipeline_async_arrivals<1, ConsumerArrivals>::ok);
  using typename Ring::Pair;
  using typename Ring::State;
  using Ring::cta_rank;
  using Ring::storage;
  /// One CTA's epilogue arrivals; the leader's empty barrier counts both CTAs' of a pair.
  static constexpr int consumer_arrivals = ConsumerArrivals;

#if defined(__CUDACC__)
  /// The MMA thread waits until state's accumulator stage may be overwritten.
  __device__ __forceinline__ void producer_acquire(State const& state) const {
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineUmmaAsync", "empty", state.index());
    ctm::tcgen05_fence_after_thread_sync();
  }
  /// The MMA thread commits state's stage: its full barrier (both CTAs' in a pair) completes
  /// when every MMA this thread issued has.
  __device__ __forceinline__ void producer_commit(State const& state) const {
    this->umma_commit(&storage->full[state.index()]);
  }

  /// Waits until state's accumulator stage holds its results.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait(&storage->full[state.index()], state.phase(), "PipelineUmmaAsync", "full", state.index());
    ctm::tcgen05_fence_after_thread_sync();
  }
  /// One consumer arrival: this thread's tensor-memory reads of the stage are done (after its
  /// tcgen05.wait::ld). In a pair, the arrival goes to the leader's empty barrier.
  __device__ __forceinline__ void consumer_release(State const& state) const {
    ctm::tcgen05_fence_before_thread_sync();
    arrive_empty(state);
  }
  /// One consumer warp's arrival (ConsumerArrivals counting warps): lane 0 arrives once every
  /// lane's reads are done.
  __device__ __forceinline__ void consumer_release(State const& state, std::uint32_t lane) const {
    ctm::tcgen05_fence_before_thread_sync();
    __syncwarp();
    if (lane == 0) arrive_empty(state);
  }

 private:
  __device__ __forceinline__ void arrive_empty(State const& state) const {
    std::uint64_t* const empty = &storage->empty[state.index()];
    if constexpr (CtaGroup == 1) {
      ctm::mbarrier_arrive(empty);
    } else {
      // NOTE: the default (CTA-scope release) remote arrival, as in PipelineTmaAsync: the reads it
      // orders have completed (tcgen05.wait::ld), and the .release.cluster form adds a MEMBAR.
      ctm::mbarrier_arrive_shared_cluster(ctm::mapa_shared_cluster_u32(empty, Pair::leader_rank(cta_rank)));
    }
  }
#endif
};

}  // namespace cute_cpp
