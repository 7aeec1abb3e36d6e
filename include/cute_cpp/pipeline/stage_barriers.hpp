// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The shared storage of the mbarrier pipelines (PipelineAsync, PipelineTmaAsync): a "full" and
// an "empty" barrier per stage, and their initialisation.
#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/fence.hpp>
#  include <ctm/common/mbarrier.hpp>
#endif

namespace cute_cpp::detail {

/// Each stage's full and empty barrier, placed in shared memory by the kernel.
template <int Stages>
struct StageBarriers {
  std::uint64_t full[Stages];
  std::uint64_t empty[Stages];

#if defined(__CUDACC__)
  /// Initialises every barrier (one thread; then the CTA or cluster synchronises) and makes the
  /// initialisation visible to the cluster.
  __device__ __forceinline__ void init(std::uint32_t full_arrivals, std::uint32_t empty_arrivals) {
    for (int i = 0; i < Stages; ++i) {
      ctm::mbarrier_init(&full[i], full_arrivals);
      ctm::mbarrier_init(&empty[i], empty_arrivals);
    }
    ctm::fence_mbarrier_init_release_cluster();
  }
#endif
};

}  // namespace cute_cpp::detail
