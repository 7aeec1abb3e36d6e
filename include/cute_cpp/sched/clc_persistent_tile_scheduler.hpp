// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ClcDynamicPersistentTileScheduler<ClusterSize>: a persistent walk of an (M, N, L) problem's
// tiles driven by cluster launch control (sm_100a; sm_120a with ClusterSize 1). The grid holds
// one cluster per cluster tile, as if nothing were persistent: cluster c (CTAs c * ClusterSize
// .. + ClusterSize - 1 of a 1-D grid, cluster shape (ClusterSize, 1, 1)) starts on cluster tile
// c of the static scheduler's walk (place_cluster_tile: the same rasterization groups and the
// same rank-to-tile rule). When done, the cluster asks the hardware to cancel a cluster that has
// not started yet (advance_to_next_work: clusterlaunchcontrol.try_cancel, multicast to the
// cluster's CTAs when ClusterSize > 1) and takes that cluster's tile (fetch_next_work); a
// response that cancels nothing ends the walk. So a cluster that runs longer takes fewer tiles,
// and the grid gives way to a higher-priority kernel between tiles. The responses travel through
// a PipelineClcFetchAsync. No split-K or stream-K: every unit is a whole tile.
// CuTeDSL: utils.ClcDynamicPersistentTileScheduler (get_grid_shape, get_current_work,
// advance_to_next_work), ClcDynamicPersistentTileSchedulerParams (here
// PersistentTileSchedulerParams).
#include <cute_cpp/arch/clc.hpp>  // ClcResponse, issue_clc_query, clc_response
#include <cute_cpp/config.hpp>
#include <cute_cpp/diag/umma_pipeline.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // params, WorkTileInfo, place_cluster_tile

#include <cstdint>
#include <stdexcept>

#if defined(__CUDACC__)
#  include <ctm/common/fence.hpp>  // fence_proxy_async_shared_cta
#endif

namespace cute_cpp {

/// Walks the tiles of one CTA under cluster launch control (see the file comment).
template <int ClusterSize = 1>
class ClcDynamicPersistentTileScheduler {
  static_assert(diag::clc_cluster_size<ClusterSize>::ok);

 public:
  static constexpr int cluster_size = ClusterSize;
  /// Whether requests write the response to every CTA of the cluster (sm_100a only).
  static constexpr bool multicast = ClusterSize > 1;

  /// Throws unless `p` is a problem this scheduler walks: clusters of ClusterSize CTAs, whole
  /// tiles only, within 32-bit arithmetic.
  static constexpr void check_params(PersistentTileSchedulerParams const& p) {
    if (p.cluster_size() != ClusterSize || p.splits != 1 || p.split_tiles != 0 || p.stream_k_tiles != 0 ||
        !p.fits_32_bits() || p.raster_cluster_rows < 1)
      throw std::invalid_argument(
          "cute-cpp [sched.clc.params]: a cluster launch control walk takes whole tiles (no split-K, no stream-K) "
          "in clusters of the scheduler's ClusterSize, with fewer than 2^31 units");
  }
  /// The grid, in CTAs of a 1-D grid with cluster shape (ClusterSize, 1, 1): every cluster tile
  /// of the problem (not the number of SMs: the hardware starts what fits and the running
  /// clusters take the rest by cancelling it).
  static constexpr std::int64_t get_grid_shape(PersistentTileSchedulerParams const& p) {
    check_params(p);
    return p.units() * ClusterSize;
  }

  /// The scheduler of the CTA `block` (blockIdx.x): its cluster's own tile first.
  CUTE_CPP_HD constexpr ClcDynamicPersistentTileScheduler(PersistentTileSchedulerParams const& p, std::int64_t block)
      : p_(p), unit_(std::uint32_t(block) / ClusterSize), rank_(std::uint32_t(block) % ClusterSize) {}

  CUTE_CPP_HD constexpr bool has_work() const { return valid_ && unit_ < std::uint32_t(p_.units()); }
  /// The current cluster tile's index in walking order.
  CUTE_CPP_HD constexpr std::int64_t linear_idx() const { return unit_; }
  /// The current tile; .valid is false after the walk, or for a cluster rank whose tile lies
  /// beyond M or N (it still takes part in the cluster's pipelines).
  CUTE_CPP_HD constexpr WorkTileInfo get_current_work() const {
    WorkTileInfo w;
    if (!has_work()) return w;
    place_cluster_tile(p_, rank_, unit_, w);
    w.linear = unit_;
    w.k_block_end = p_.k_blocks;
    return w;
  }
  /// (m, n, l) of the current tile.
  CUTE_CPP_HD constexpr WorkTileInfo tile_idx() const { return get_current_work(); }

  /// Takes the tile of a decoded response: the canceled cluster's, whose first CTA has
  /// %ctaid.x = `first_ctaid_x`; or none (`canceled` false), which ends the walk.
  CUTE_CPP_HD constexpr void set_from_response(bool canceled, std::uint32_t first_ctaid_x) {
    valid_ = canceled;
    unit_ = canceled ? first_ctaid_x / ClusterSize : unit_;
  }

#if defined(__CUDACC__)
  /// Requests the next tile: one thread of the producer warp (rank 0), after the pipeline's
  /// producer_acquire armed `full_barrier`. The response lands in `response` (in every CTA of
  /// the cluster, with multicast).
  /// @pre has_work(): after a response that canceled nothing, a CTA must not request again.
  template <class Target = void>
  __device__ __forceinline__ void advance_to_next_work(ClcResponse* response, std::uint64_t* full_barrier) const {
    arch::issue_clc_query<multicast, Target>(full_barrier, response);
  }
  /// Reads a completed response (after the pipeline's consumer_wait) and moves to its tile;
  /// returns it. Every CTA of the cluster reads its own copy and keeps its rank's tile.
  template <class Target = void>
  __device__ __forceinline__ WorkTileInfo fetch_next_work(ClcResponse const* response) {
    arch::ClcWorkId const id = arch::clc_response<Target>(response);
    // NOTE: orders this generic read before the async-proxy write of the slot's next response
    // (CuTeDSL fences here too).
    ctm::fence_proxy_async_shared_cta();
    set_from_response(id.valid, id.x);
    return get_current_work();
  }
#endif

 private:
  PersistentTileSchedulerParams p_;
  std::uint32_t unit_;
  std::uint32_t rank_;
  bool valid_ = true;
};

}  // namespace cute_cpp
