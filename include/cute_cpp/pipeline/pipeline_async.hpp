// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineAsync<Stages, ProducerArrivals, ConsumerArrivals>: a ring of Stages buffers between
// producer and consumer threads of one CTA, where the producers write with ordinary (or
// cp.async) stores and announce a full stage by arriving: ProducerArrivals arrivals complete a
// "full" barrier, ConsumerArrivals complete an "empty" one. CuTeDSL: pipeline.PipelineAsync.
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/stage_barriers.hpp>
#include <cute_cpp/pipeline/wait.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/mbarrier.hpp>
#endif

namespace cute_cpp {

/// A thread-fed pipeline of Stages buffers (see the file comment).
template <int Stages, int ProducerArrivals, int ConsumerArrivals>
struct PipelineAsync {
  static_assert(diag::pipeline_stages<Stages>::ok && diag::pipeline_async_arrivals<ProducerArrivals, ConsumerArrivals>::ok);
  static constexpr int stages = Stages;
  static constexpr int producer_arrivals = ProducerArrivals;
  static constexpr int consumer_arrivals = ConsumerArrivals;
  using State = PipelineState<Stages>;

  /// The barriers, placed in shared memory by the kernel.
  using SharedStorage = detail::StageBarriers<Stages>;

  SharedStorage* storage;

#if defined(__CUDACC__)
  /// Initialises every barrier; one thread calls it, then the CTA synchronises.
  static __device__ __forceinline__ void init(SharedStorage& s) { s.init(ProducerArrivals, ConsumerArrivals); }
  /// Waits until state's stage may be refilled.
  __device__ __forceinline__ void producer_acquire(State const& state) const {
    detail::pipeline_wait(&storage->empty[state.index()], state.phase(), "PipelineAsync", "empty", state.index());
  }
  /// One producer arrival: this thread's writes to the stage are done.
  __device__ __forceinline__ void producer_commit(State const& state) const {
    ctm::mbarrier_arrive(&storage->full[state.index()]);
  }
  /// Waits until state's stage is full.
  __device__ __forceinline__ void consumer_wait(State const& state) const {
    detail::pipeline_wait(&storage->full[state.index()], state.phase(), "PipelineAsync", "full", state.index());
  }
  /// One consumer arrival: this thread is done reading the stage.
  __device__ __forceinline__ void consumer_release(State const& state) const {
    ctm::mbarrier_arrive(&storage->empty[state.index()]);
  }
  /// One consumer warp's arrival (ConsumerArrivals counting warps): lane 0 arrives once the warp's
  /// reads are done.
  __device__ __forceinline__ void consumer_release(State const& state, std::uint32_t lane) const {
    __syncwarp();
    if (lane == 0) ctm::mbarrier_arrive(&storage->empty[state.index()]);
  }
#endif
};

}  // namespace cute_cpp
