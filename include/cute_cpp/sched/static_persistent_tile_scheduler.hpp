// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// StaticPersistentTileScheduler: a persistent grid walks the output tiles of an (M, N, L)
// problem, CTA b taking tiles b, b + grid, b + 2 grid, ... Tiles are numbered in groups of
// `swizzle` tile rows (a group is walked column by column), so CTAs running at the same time
// share A and B panels in L2. A cluster of cluster_m x cluster_n CTAs takes a block of adjacent
// tiles: cluster_m tile rows of one tile column, or cluster_n tile columns of one tile row
// (rank r is tile row r % cluster_m, tile column r / cluster_m of the block).
// CuTeDSL: utils.StaticPersistentTileScheduler, PersistentTileSchedulerParams, WorkTileInfo.
// Split-K (beyond CuTeDSL's scheduler): the last `split_tiles` cluster tiles in walking order
// are each cut into `splits` K ranges, taken as separate units by neighbouring CTAs, so a
// partial last wave of whole tiles becomes fuller waves of shorter units. The partial sums
// meet in a workspace (sched/split_k.hpp).
#include <cute_cpp/config.hpp>

#include <cstdint>

namespace cute_cpp {

/// One tile of work: its coordinates in tiles and whether it exists.
struct WorkTileInfo {
  std::int32_t m = 0, n = 0, l = 0;
  std::int64_t linear = 0;
  bool valid = false;
  /// The K blocks [k_block_begin, k_block_end) this unit accumulates.
  std::int32_t k_block_begin = 0, k_block_end = 0;
  /// Split-K: this unit's split of `splits` (1: the whole tile), and, for a split tile, the
  /// index of this CTA's tile among the split tiles (its workspace slot).
  std::int32_t split = 0, splits = 1;
  std::int64_t split_tile = 0;
  CUTE_CPP_HD constexpr bool is_valid_tile() const { return valid; }
};

/// The problem in tiles, fixed for a launch; built on the host and passed by value.
struct PersistentTileSchedulerParams {
  std::int32_t tiles_m = 1, tiles_n = 1, tiles_l = 1;
  std::int32_t cluster_m = 1;  ///< CTAs per cluster along M
  std::int32_t swizzle = 1;    ///< tile rows (in clusters) per rasterization group
  std::int32_t k_blocks = 1;   ///< K blocks of a whole tile
  std::int32_t splits = 1;     ///< K splits of each split tile
  std::int64_t split_tiles = 0;  ///< cluster tiles, the last in walking order, that are split
  std::int32_t cluster_n = 1;  ///< CTAs per cluster along N
  CUTE_CPP_HD constexpr std::int32_t cluster_size() const { return cluster_m * cluster_n; }
  /// Cluster tiles.
  CUTE_CPP_HD constexpr std::int32_t cluster_rows() const { return (tiles_m + cluster_m - 1) / cluster_m; }
  CUTE_CPP_HD constexpr std::int32_t cluster_cols() const { return (tiles_n + cluster_n - 1) / cluster_n; }
  CUTE_CPP_HD constexpr std::int64_t units() const {
    return std::int64_t(cluster_rows()) * cluster_cols() * tiles_l;
  }
  /// The units the grid walks: whole cluster tiles, then `splits` units per split tile.
  CUTE_CPP_HD constexpr std::int64_t work_units() const { return units() + split_tiles * (splits - 1); }
  /// Whether the scheduler's 32-bit arithmetic holds: units of work, split K-block bounds and a
  /// rasterization group's span below 2^31.
  constexpr bool fits_32_bits() const {
    constexpr std::int64_t limit = std::int64_t{1} << 31;
    return work_units() < limit && std::int64_t(k_blocks) * (splits + 1) < limit &&
           std::int64_t(swizzle) * cluster_cols() < limit;
  }
};

/// Walks the tiles of one CTA (see the file comment).
class StaticPersistentTileScheduler {
 public:
  /// The grid for `sm_count` SMs: one CTA per SM (times ctas_per_sm), never more CTAs than tiles,
  /// a multiple of the cluster size.
  static constexpr std::int64_t get_grid_shape(PersistentTileSchedulerParams const& p, int sm_count,
                                               int ctas_per_sm = 1) {
    std::int64_t const clusters = (std::int64_t(sm_count) * ctas_per_sm) / p.cluster_size();
    std::int64_t const used = clusters < p.work_units() ? clusters : p.work_units();
    return (used < 1 ? 1 : used) * p.cluster_size();
  }

  /// The scheduler of the CTA `block` (blockIdx.x) of a grid of `grid` CTAs.
  CUTE_CPP_HD constexpr StaticPersistentTileScheduler(PersistentTileSchedulerParams const& p, std::int64_t block,
                                                      std::int64_t grid)
      : p_(p),
        unit_(block / p.cluster_size()),
        stride_(grid / p.cluster_size()),
        rank_(std::int32_t(block % p.cluster_size())) {}

  CUTE_CPP_HD constexpr bool has_work() const { return unit_ < p_.work_units(); }
  CUTE_CPP_HD constexpr std::int64_t linear_idx() const { return unit_; }

  /// The current tile; .valid is false past the end, or for a cluster rank whose tile lies
  /// beyond M or N (it still takes part in the cluster's pipeline).
  /// NOTE: 32-bit arithmetic (fits_32_bits() holds): a 64-bit division is a software routine of
  /// dozens of dependent instructions, and the producer computes its first tile before its first load.
  CUTE_CPP_HD constexpr WorkTileInfo get_current_work() const {
    WorkTileInfo w;
    if (!has_work()) return w;
    auto const u = std::uint32_t(unit_);
    auto const whole = std::uint32_t(p_.units() - p_.split_tiles);
    auto const splits = std::uint32_t(p_.splits), k_blocks = std::uint32_t(p_.k_blocks);
    std::uint32_t tile = u;
    w.k_block_end = p_.k_blocks;
    if (u >= whole) {
      std::uint32_t const v = u - whole, split_tile = v / splits, split = v - split_tile * splits;
      tile = whole + split_tile;
      w.split = std::int32_t(split);
      w.splits = p_.splits;
      w.split_tile = std::int64_t(split_tile) * p_.cluster_size() + rank_;
      // Balanced ranges: the splits' lengths differ by at most one block.
      w.k_block_begin = std::int32_t(split * k_blocks / splits);
      w.k_block_end = std::int32_t((split + 1) * k_blocks / splits);
    }
    auto const cluster_rows = std::uint32_t(p_.cluster_rows()), cluster_cols = std::uint32_t(p_.cluster_cols());
    std::uint32_t const per_batch = cluster_rows * cluster_cols;
    std::uint32_t const l = tile / per_batch;
    std::uint32_t const t = tile - l * per_batch;
    std::uint32_t const group_span = std::uint32_t(p_.swizzle) * cluster_cols;
    std::uint32_t const group = t / group_span;
    std::uint32_t const first_row = group * std::uint32_t(p_.swizzle);
    std::uint32_t const rows_left = cluster_rows - first_row;
    std::uint32_t const rows = rows_left < std::uint32_t(p_.swizzle) ? rows_left : std::uint32_t(p_.swizzle);
    std::uint32_t const within = t - group * group_span;
    std::uint32_t const column = within / rows;
    std::uint32_t const cluster_row = first_row + (within - column * rows);
    auto const rank = std::uint32_t(rank_), cm = std::uint32_t(p_.cluster_m);
    w.m = std::int32_t(cluster_row * cm + rank % cm);
    w.n = std::int32_t(column * std::uint32_t(p_.cluster_n) + rank / cm);
    w.l = std::int32_t(l);
    w.linear = unit_;
    w.valid = w.m < p_.tiles_m && w.n < p_.tiles_n;
    return w;
  }
  /// (m, n, l) of the current tile.
  CUTE_CPP_HD constexpr WorkTileInfo tile_idx() const { return get_current_work(); }

  CUTE_CPP_HD constexpr void advance_to_next_work() { unit_ += stride_; }

 private:
  PersistentTileSchedulerParams p_;
  std::int64_t unit_;
  std::int64_t stride_;
  std::int32_t rank_;
};

}  // namespace cute_cpp
