// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineTmaUmma<Stages, TxBytesPerCta, CtaGroup, ClusterSize, ConsumerArrivals>: the sm_100a
// mainloop ring. TMA loads fill a stage and complete their bytes on its "full" barrier; the MMA
// thread consumes it, and releases it with a tcgen05.commit onto the stage's "empty" barrier, so
// the stage frees when the MMAs that read it have finished (not when they were issued).
// 1-CTA (CtaGroup 1): full = 1 arrival (the producer's arrive.expect_tx) + TxBytesPerCta bytes;
// empty = ConsumerArrivals commits (1, or one per MMA-issuing CTA whose MMAs read this CTA's
// multicast loads). 2-CTA (CtaGroup 2, a cluster of an even number of CTAs): the pair's loads
// (both CTAs', issued with .cta_group::2) complete on the leader's full barrier, which the
// leader's producer arms with the pair's bytes, tx_bytes = 2 * TxBytesPerCta; the peer's full
// barriers stay unused. The leader's commit, cta_group::2 multicast, frees the stage in both CTAs.
// CuTeDSL: pipeline.PipelineTmaUmma (producer_acquire, producer_commit, consumer_wait,
// consumer_release); the producer step is split as in PipelineTmaAsync (producer_expect_tx).
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
#  include <ctm/sm100/tcgen05_sync.hpp>  // tcgen05_fence_after_thread_sync
#endif

namespace cute_cpp {

/// A TMA-fed, UMMA-drained ring of Stages buffers (see the file comment).
template <int Stages, std::uint32_t TxBytesPerCta, int CtaGroup = 1, int ClusterSize = CtaGroup,
          int ConsumerArrivals = 1>
struct PipelineTmaUmma : detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, 1, ConsumerArrivals> {
  using Ring = detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, 1, ConsumerArrivals>;
  static_assert(diag::umma_pipeline_tx_bytes<TxBytesPerCta, CtaGroup>::ok &&
                diag::umma_pipeline_consumer_arrivals<ConsumerArrivals, CtaGroup, ClusterSize>::ok);
  using typename Ring::Pair;
  using typename Ring::State;
  using Ring::cta_rank;
  using Ring::is_leader_cta;
  using Ring::storage;
  /// The bytes the leader's producer arms a stage's full barrier with: the whole group's loads.
  static constexpr std::uint32_t tx_bytes = TxBytesPerCta * CtaGroup;

#if defined(__CUDACC__)
  /// Waits until this CTA's part of state's stage may be refilled (both CTAs of a pair wait).
  __device__ __forceinline__ void producer_acquire(State const& state) const {
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineTmaUmma", "empty", state.index());
  }
  /// The producer's arrival, arming the full barrier with tx_bytes (one elected lane); the peer
  /// of a pair arms nothing (its loads count on the leader's barrier).
  __device__ __forceinline__ void producer_expect_tx(State const& state) const {
    if (is_leader_cta()) ctm::mbarrier_arrive_expect_tx(&storage->full[state.index()], tx_bytes);
  }
  /// The barrier the stage's TMA loads complete on: this CTA's (std::uint64_t*) alone; the
  /// leader's, as a shared::cluster address (std::uint32_t) for the .cta_group::2 loads, in a pair.
  __device__ __forceinline__ auto producer_get_barrier(State const& state) const {
    if constexpr (CtaGroup == 1) {
      return &storage->full[state.index()];
    } else {
      return ctm::mapa_shared_cluster_u32(&storage->full[state.index()], Pair::leader_rank(cta_rank));
    }
  }
  /// Nothing: the TMA loads complete the stage's bytes themselves (CuTeDSL keeps the call).
  __device__ __forceinline__ void producer_commit(State const&) const {}

  /// The MMA thread waits until state's stage holds its data, then orders its MMAs after the wait.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait(&storage->full[state.index()], state.phase(), "PipelineTmaUmma", "full", state.index());
    ctm::tcgen05_fence_after_thread_sync();
  }
  /// The MMA thread releases state's stage once its MMAs complete: a tcgen05.commit onto this
  /// CTA's empty barrier, or, in a pair, onto both CTAs' (multicast).
  __device__ __forceinline__ void consumer_release(State const& state) const {
    this->umma_commit(&storage->empty[state.index()]);
  }
  /// As above, onto the empty barriers of every CTA in `cta_mask` (bit r = cluster rank r): the
  /// CTAs whose multicast loads wrote the stage this MMA read.
  __device__ __forceinline__ void consumer_release(State const& state, std::uint16_t cta_mask) const {
    arch::umma_arrive_multicast<CtaGroup>(&storage->empty[state.index()], cta_mask);
  }
#endif
};

}  // namespace cute_cpp
