// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineTmaAsync<Stages, ConsumerArrivals, TxBytes[, ProducerArrivals]>: a ring of Stages shared
// buffers filled by TMA and drained by consumer warps. Each stage has a "full" barrier (one producer
// arrival, or ProducerArrivals with threads adding cp.async copies, plus TxBytes of TMA
// transactions) and an "empty" barrier (ConsumerArrivals arrivals, one per consumer warp of every
// CTA the stage's data reaches). The producer step is split, as in the
// seed: producer_acquire waits for the stage to be empty, producer_expect_tx (one elected lane)
// arms the full barrier with the bytes the TMA loads will deliver.
// CuTeDSL: pipeline.PipelineTmaAsync (producer_acquire/commit, consumer_wait/release).
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/config.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/stage_barriers.hpp>
#include <cute_cpp/pipeline/wait.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/cluster.hpp>
#  include <ctm/common/mbarrier.hpp>
#endif

namespace cute_cpp {

/// A TMA-fed pipeline of Stages buffers (see the file comment). ProducerArrivals: arrivals that
/// fill a stage besides its TMA bytes (the producer's arrive.expect_tx, and one per thread that
/// adds cp.async copies to the stage through cp.async.mbarrier.arrive.noinc).
template <int Stages, int ConsumerArrivals, std::uint32_t TxBytes, int ProducerArrivals = 1>
struct PipelineTmaAsync {
  static_assert(diag::pipeline_stages<Stages>::ok && diag::pipeline_tma_plan<ConsumerArrivals, TxBytes>::ok);
  static constexpr int stages = Stages;
  static constexpr std::uint32_t tx_bytes = TxBytes;
  static constexpr int consumer_arrivals = ConsumerArrivals;
  static constexpr int producer_arrivals = ProducerArrivals;
  using State = PipelineState<Stages>;

  /// The barriers, placed in shared memory by the kernel.
  using SharedStorage = detail::StageBarriers<Stages>;

  SharedStorage* storage;

#if defined(__CUDACC__)
  /// Initialises every barrier; one thread calls it, then the CTA (or cluster) synchronises.
  static __device__ __forceinline__ void init(SharedStorage& s) { s.init(ProducerArrivals, ConsumerArrivals); }

  /// Waits until the producer may refill state's stage.
  __device__ __forceinline__ void producer_acquire(State const& state) const {
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineTmaAsync", "empty", state.index());
  }
  /// The producer's arrival, arming the full barrier with TxBytes (one elected lane).
  __device__ __forceinline__ void producer_expect_tx(State const& state) const {
    ctm::mbarrier_arrive_expect_tx(&storage->full[state.index()], TxBytes);
  }
  /// The barrier the stage's TMA loads complete on.
  __device__ __forceinline__ std::uint64_t* producer_get_barrier(State const& state) const {
    return &storage->full[state.index()];
  }
  /// Waits until state's stage holds its data.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait(&storage->full[state.index()], state.phase(), "PipelineTmaAsync", "full", state.index());
  }
  /// One consumer warp is done with state's stage: lane 0 arrives on the empty barrier of this
  /// CTA and, for multicast stages, of each other CTA in `cta_mask` (bit r = cluster rank r;
  /// `own_rank` is this CTA's). ClusterSize, where the caller knows it (its plan's cluster size),
  /// bounds the ranks at compile time, so the arrivals unroll into a branch each and no loop.
  template <int ClusterSize = 0>
  __device__ __forceinline__ void consumer_release(State const& state, std::uint32_t lane,
                                                   std::uint32_t cta_mask = 0, std::uint32_t own_rank = 0) const {
    if (lane != 0) return;
    std::uint64_t* const empty = &storage->empty[state.index()];
    ctm::mbarrier_arrive(empty);
    cta_mask &= ~(1u << own_rank);
    // NOTE: remote arrivals use the default (CTA-scope release) form: the .release.cluster form
    // costs a MEMBAR.ALL.GPU per arrival, which cost the 2-CTA GEMM 40% (gemm_sm90 README).
    if constexpr (ClusterSize > 0) {
#pragma unroll
      for (std::uint32_t rank = 0; rank < std::uint32_t(ClusterSize); ++rank) {
        if (cta_mask >> rank & 1u) ctm::mbarrier_arrive_shared_cluster(ctm::mapa_shared_cluster_u32(empty, rank));
      }
    } else {
      for (std::uint32_t rank = 0; cta_mask != 0; ++rank, cta_mask >>= 1) {
        if (cta_mask & 1u) ctm::mbarrier_arrive_shared_cluster(ctm::mapa_shared_cluster_u32(empty, rank));
      }
    }
  }
#endif
};

}  // namespace cute_cpp
