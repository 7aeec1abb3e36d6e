// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineClcFetchAsync<Stages, ConsumerArrivals, ClusterSize>: a ring of cluster launch control
// responses. The producer is one warp of the cluster's first CTA (rank 0): producer_acquire waits
// until a response slot is free, then lane r arms CTA r's "full" barrier with the response's 16
// bytes (so every CTA's barrier expects the multicast write); one lane then issues the request
// (ClcDynamicPersistentTileScheduler::advance_to_next_work). The consumers, every thread or warp
// of the cluster that reads the responses (the producer warp among them), arrive on rank 0's
// "empty" barrier: ConsumerArrivals counts them over the whole cluster. Each CTA's full barrier
// takes one arrival; only rank 0's empty barrier is used.
// CuTeDSL: pipeline.PipelineClcFetchAsync.
#include <cute_cpp/arch/clc.hpp>  // ClcResponse
#include <cute_cpp/config.hpp>
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/diag/umma_pipeline.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/stage_barriers.hpp>
#include <cute_cpp/pipeline/wait.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/cluster.hpp>  // mapa_shared_cluster_u32
#  include <ctm/common/mbarrier.hpp>
#endif

namespace cute_cpp {

/// A ring of Stages cluster launch control responses (see the file comment).
template <int Stages, int ConsumerArrivals, int ClusterSize = 1>
struct PipelineClcFetchAsync {
  static_assert(diag::pipeline_stages<Stages>::ok && diag::clc_cluster_size<ClusterSize>::ok &&
                diag::clc_pipeline_consumer_arrivals<ConsumerArrivals>::ok);
  static constexpr int stages = Stages;
  static constexpr int cluster_size = ClusterSize;
  /// The bytes one response completes on each CTA's full barrier.
  static constexpr std::uint32_t tx_bytes = sizeof(ClcResponse);
  static constexpr int full_arrivals = 1;
  static constexpr int empty_arrivals = ConsumerArrivals;
  /// The rank whose producer warp issues the requests and whose empty barriers count the releases.
  static constexpr std::uint32_t producer_rank = 0;
  using State = PipelineState<Stages>;

  /// The barriers, placed in shared memory by the kernel (the responses are the scheduler's).
  using SharedStorage = detail::StageBarriers<Stages>;

  SharedStorage* storage;
  /// This CTA's rank in its cluster (arch::block_rank_in_cluster()); 0 without a cluster.
  std::uint32_t cta_rank = 0;

#if defined(__CUDACC__)
  /// Initialises every barrier; one thread calls it, then the CTA (or cluster) synchronises.
  static __device__ __forceinline__ void init(SharedStorage& s) { s.init(full_arrivals, empty_arrivals); }

  /// The producer warp (every lane, in rank 0) waits until state's slot is free; lane r <
  /// ClusterSize then arms CTA r's full barrier with the response's bytes.
  __device__ __forceinline__ void producer_acquire(State const& state, std::uint32_t lane) const {
    std::uint64_t* const full = &storage->full[state.index()];
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineClcFetchAsync", "empty",
                          state.index());
    if constexpr (ClusterSize == 1) {
      if (lane == 0) ctm::mbarrier_arrive_expect_tx(full, tx_bytes);
    } else {
      if (lane < std::uint32_t(ClusterSize))
        ctm::mbarrier_arrive_expect_tx_release_cluster_shared_cluster(ctm::mapa_shared_cluster_u32(full, lane),
                                                                      tx_bytes);
    }
  }
  /// The barrier the request completes on (at the same offset in every CTA, with multicast).
  __device__ __forceinline__ std::uint64_t* producer_get_barrier(State const& state) const {
    return &storage->full[state.index()];
  }

  /// Waits until state's response has arrived in this CTA.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait(&storage->full[state.index()], state.phase(), "PipelineClcFetchAsync", "full",
                          state.index());
  }
  /// One consumer arrival (this thread has read the response) on rank 0's empty barrier.
  __device__ __forceinline__ void consumer_release(State const& state) const { arrive_empty(state); }
  /// One consumer warp's arrival (ConsumerArrivals counting warps): lane 0 arrives once every
  /// lane has read the response.
  __device__ __forceinline__ void consumer_release(State const& state, std::uint32_t lane) const {
    __syncwarp();
    if (lane == 0) arrive_empty(state);
  }

 private:
  __device__ __forceinline__ void arrive_empty(State const& state) const {
    std::uint64_t* const empty = &storage->empty[state.index()];
    if constexpr (ClusterSize == 1) {
      ctm::mbarrier_arrive(empty);
    } else {
      // NOTE: the default (CTA-scope release) remote arrival: it orders completed reads only.
      ctm::mbarrier_arrive_shared_cluster(ctm::mapa_shared_cluster_u32(empty, producer_rank));
    }
  }
#endif
};

}  // namespace cute_cpp
