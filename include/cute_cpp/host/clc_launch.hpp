// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// clc_launch_config<ClusterSize>(params, block, smem_bytes, stream): how a kernel driven by
// ClcDynamicPersistentTileScheduler is launched: a 1-D grid of every cluster tile (not the SM
// count; the hardware starts what fits, and running clusters cancel and take the rest), in
// clusters of (ClusterSize, 1, 1). Pass the result to host::launch.
#include <cute_cpp/host/launch.hpp>  // LaunchConfig
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace cute_cpp::host {

/// The launch of a cluster launch control kernel over `p` (see the file comment).
/// @pre p is walkable by ClcDynamicPersistentTileScheduler<ClusterSize> [sched.clc.params];
///      the grid has at most 2^31 - 1 CTAs [sched.clc.grid] (std::invalid_argument otherwise).
template <int ClusterSize>
LaunchConfig clc_launch_config(PersistentTileSchedulerParams const& p, dim3 block, std::size_t smem_bytes,
                               cudaStream_t stream = nullptr) {
  std::int64_t const ctas = ClcDynamicPersistentTileScheduler<ClusterSize>::get_grid_shape(p);
  if (ctas > std::int64_t{0x7fffffff})
    throw std::invalid_argument("cute-cpp [sched.clc.grid]: a cluster launch control grid holds one CTA per tile "
                                "and at most 2^31 - 1 CTAs; use larger tiles");
  LaunchConfig config;
  config.grid = dim3(static_cast<unsigned>(ctas), 1, 1);
  config.block = block;
  config.smem_bytes = smem_bytes;
  config.stream = stream;
  config.cluster = dim3(ClusterSize, 1, 1);
  return config;
}

}  // namespace cute_cpp::host
