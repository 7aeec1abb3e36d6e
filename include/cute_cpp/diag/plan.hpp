// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The cross-cutting rules verify_plan checks on a whole kernel plan (plan.*, smem.budget,
// pipeline.consumers, barrier.cluster-shape), as rule templates whose arguments are the values.
#include <cstddef>

namespace cute_cpp::diag {

template <int Threads>
struct plan_threads {
  static_assert(Threads >= 32 && Threads <= 1024 && Threads % 32 == 0,
                "cute-cpp [plan.threads]: a kernel's thread count is a whole number of warps, 32..1024");
  static constexpr bool ok = true;
};

template <std::size_t SmemBytes, std::size_t Budget, int TargetArch>
struct smem_budget {
  static_assert(SmemBytes <= Budget,
                "cute-cpp [smem.budget]: the plan's shared memory (stages x tiles + barriers + epilogue) exceeds "
                "the target's per-block limit (227 KB on sm_90a and sm_100a, 99 KB on sm_120a)");
  static constexpr bool ok = true;
};

template <int ClusterSize, bool NonPortable>
struct cluster_shape {
  static_assert(ClusterSize >= 1 && (ClusterSize <= 8 || (NonPortable && ClusterSize <= 16)),
                "cute-cpp [barrier.cluster-shape]: a cluster has at most 8 CTAs (16 with the non-portable "
                "cluster size flag set in the plan)");
  static constexpr bool ok = true;
};

template <int ConsumerArrivals, int ConsumerWarps, int ClusterReach>
struct pipeline_consumers {
  static_assert(ConsumerArrivals == ConsumerWarps * ClusterReach,
                "cute-cpp [pipeline.consumers]: a stage's empty barrier expects one arrival per consumer warp of "
                "every CTA it is multicast to (ConsumerArrivals = ConsumerWarps x ClusterReach)");
  static constexpr bool ok = true;
};

template <int ConsumerWarps, int Threads>
struct plan_consumer_warps {
  static_assert(ConsumerWarps >= 1 && ConsumerWarps * 32 <= Threads,
                "cute-cpp [plan.consumer-warps]: the plan's consumer warps must exist in its thread block");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
