// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineTmaStore<Stages>: a ring of Stages shared buffers drained by TMA stores. The thread
// that issues the stores tracks them with bulk async-groups: before refilling a buffer it waits
// until at most Stages - 1 groups still read their source (producer_acquire), each store batch is
// one group (producer_commit), and before the CTA exits every group must be done (producer_tail).
// CuTeDSL: pipeline.PipelineTmaStore.
#include <cute_cpp/pipeline/pipeline_state.hpp>

#if defined(__CUDACC__)
#  include <ctm/common/cp_async_bulk.hpp>
#endif

namespace cute_cpp {

/// TMA-store buffering over bulk async-groups (see the file comment).
template <int Stages>
struct PipelineTmaStore {
  static_assert(diag::pipeline_stages<Stages>::ok);
  static constexpr int stages = Stages;
#if defined(__CUDACC__)
  /// Waits until the oldest of the Stages buffers may be written again.
  static __device__ __forceinline__ void producer_acquire() { ctm::cp_async_bulk_wait_group_read<Stages - 1>(); }
  /// Closes the batch of stores just issued as one group.
  static __device__ __forceinline__ void producer_commit() { ctm::cp_async_bulk_commit_group(); }
  /// Waits until every store has finished reading shared memory: enough before the CTA exits,
  /// since the writes to global memory are visible once the kernel ends. (Waiting for the writes
  /// as well would add their latency to every CTA's end.)
  static __device__ __forceinline__ void producer_tail() { ctm::cp_async_bulk_wait_group_read<0>(); }
#endif
};

}  // namespace cute_cpp
