// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineAsyncUmma<Stages, ProducerArrivals, CtaGroup, ClusterSize>: a ring of shared-memory
// operand stages written by threads (ordinary stores: a transform or a fused input) and read by
// the MMA. ProducerArrivals counts one CTA's producer arrivals (threads, or warps with the warp
// form of producer_commit). Each producer arrival first fences its writes into the async proxy
// (fence.proxy.async.shared::cta), which tcgen05.mma reads through.
// 1-CTA: full = ProducerArrivals, empty = 1 commit. 2-CTA (a pair): the leader's MMA reads both
// CTAs' stages, so both CTAs' producers arrive on the leader's full barrier (2 * ProducerArrivals
// there; the peer's arrivals are .release.cluster and the leader waits with cluster-scope
// acquire), and the leader's commit multicasts the release to both CTAs' empty barriers.
// CuTeDSL: pipeline.PipelineAsyncUmma.
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
#  include <ctm/common/fence.hpp>    // fence_proxy_async_shared_cta
#  include <ctm/common/mbarrier.hpp>
#  include <ctm/sm100/tcgen05_sync.hpp>  // tcgen05_fence_after_thread_sync
#endif

namespace cute_cpp {

/// A thread-filled, UMMA-drained ring of Stages buffers (see the file comment).
template <int Stages, int ProducerArrivals, int CtaGroup = 1, int ClusterSize = CtaGroup>
struct PipelineAsyncUmma
    : detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, ProducerArrivals * CtaGroup, 1> {
  using Ring = detail::UmmaStageRing<Stages, CtaGroup, ClusterSize, ProducerArrivals * CtaGroup, 1>;
  static_assert(diag::pipeline_async_arrivals<ProducerArrivals, 1>::ok);
  using typename Ring::Pair;
  using typename Ring::State;
  using Ring::cta_rank;
  using Ring::storage;
  /// One CTA's producer arrivals; the leader's full barrier counts both CTAs' of a pair.
  static constexpr int producer_arrivals = ProducerArrivals;

#if defined(__CUDACC__)
  /// Waits until this CTA's part of state's stage may be rewritten.
  __device__ __forceinline__ void producer_acquire(State const& state) const {
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineAsyncUmma", "empty", state.index());
  }
  /// One producer arrival: this thread's writes to the stage are done and visible to the MMA.
  __device__ __forceinline__ void producer_commit(State const& state) const {
    ctm::fence_proxy_async_shared_cta();
    arrive_full(state);
  }
  /// One producer warp's arrival (ProducerArrivals counting warps): lane 0 arrives once every
  /// lane's writes are fenced.
  __device__ __forceinline__ void producer_commit(State const& state, std::uint32_t lane) const {
    ctm::fence_proxy_async_shared_cta();
    __syncwarp();
    if (lane == 0) arrive_full(state);
  }

  /// The MMA thread waits until state's stage is full, then orders its MMAs after the wait.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait<detail::default_wait_timeout_cycles, (CtaGroup == 2)>(
        &storage->full[state.index()], state.phase(), "PipelineAsyncUmma", "full", state.index());
    ctm::tcgen05_fence_after_thread_sync();
  }
  /// The MMA thread releases state's stage once its MMAs complete (both CTAs' in a pair).
  __device__ __forceinline__ void consumer_release(State const& state) const {
    this->umma_commit(&storage->empty[state.index()]);
  }

 private:
  __device__ __forceinline__ void arrive_full(State const& state) const {
    std::uint64_t* const full = &storage->full[state.index()];
    if constexpr (CtaGroup == 1) {
      ctm::mbarrier_arrive(full);
    } else {
      // NOTE: release at cluster scope: the leader's MMA reads what this thread wrote (a
      // read-after-write across CTAs), unlike the releases of finished reads elsewhere.
      ctm::mbarrier_arrive_release_cluster_shared_cluster(
          ctm::mapa_shared_cluster_u32(full, Pair::leader_rank(cta_rank)));
    }
  }
#endif
};

}  // namespace cute_cpp
