// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// What the three UMMA pipelines share (PipelineTmaUmma, PipelineUmmaAsync, PipelineAsyncUmma): a
// ring of Stages full/empty barrier pairs in shared memory, the CTA's rank and its place in a CTA
// pair (UmmaCtaPair), the barriers' arrival counts, and the MMA thread's tcgen05.commit onto a
// stage's barrier, multicast to both CTAs of a pair. Each pipeline adds its roles' steps.
#include <cute_cpp/config.hpp>
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/diag/umma_pipeline.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/stage_barriers.hpp>
#include <cute_cpp/pipeline/umma_cta_pair.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <cute_cpp/arch/umma.hpp>  // umma_arrive, umma_arrive_multicast
#endif

namespace cute_cpp::detail {

/// The barrier ring of a UMMA pipeline whose full barriers take FullArrivals and empty barriers
/// EmptyArrivals (see the file comment); aggregate-initialised as {&storage, cta_rank}.
template <int Stages, int CtaGroup, int ClusterSize, int FullArrivals, int EmptyArrivals>
struct UmmaStageRing {
  static_assert(diag::pipeline_stages<Stages>::ok && diag::umma_pipeline_cluster<CtaGroup, ClusterSize>::ok);
  static constexpr int stages = Stages;
  static constexpr int cta_group = CtaGroup;
  static constexpr int cluster_size = ClusterSize;
  static constexpr int full_arrivals = FullArrivals;
  static constexpr int empty_arrivals = EmptyArrivals;
  using Pair = UmmaCtaPair<CtaGroup>;
  using State = PipelineState<Stages>;
  /// The barriers, placed in shared memory by the kernel.
  using SharedStorage = StageBarriers<Stages>;

  SharedStorage* storage;
  /// This CTA's rank in its cluster (arch::block_rank_in_cluster()); 0 without a cluster.
  std::uint32_t cta_rank = 0;

  /// Whether this CTA's MMA thread issues (the leader of a pair; every CTA alone).
  CUTE_CPP_HD constexpr bool is_leader_cta() const { return Pair::is_leader(cta_rank); }

#if defined(__CUDACC__)
  /// Initialises every barrier; one thread calls it, then the CTA (or cluster) synchronises.
  static __device__ __forceinline__ void init(SharedStorage& s) { s.init(full_arrivals, empty_arrivals); }

 protected:
  /// The MMA thread's tcgen05.commit onto `barrier`: it completes when every MMA the thread issued
  /// has; in a pair, onto the barrier at the same offset in both CTAs (multicast).
  __device__ __forceinline__ void umma_commit(std::uint64_t* barrier) const {
    if constexpr (CtaGroup == 1) {
      arch::umma_arrive<1>(barrier);
    } else {
      arch::umma_arrive_multicast<2>(barrier, Pair::mask(cta_rank));
    }
  }
#endif
};

}  // namespace cute_cpp::detail
