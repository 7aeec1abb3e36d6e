// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// StaticPersistentTileScheduler: a persistent grid walks the output tiles of an (M, N, L)
// problem, CTA b taking tiles b, b + grid, b + 2 grid, ... Tiles are numbered in rasterization
// groups of `raster_cluster_rows` rows of clusters (a group is walked column by column; CuTeDSL
// calls this the swizzle, max_swizzle_size), so CTAs running at the same time
// share A and B panels in L2. A cluster of cluster_m x cluster_n CTAs takes a block of adjacent
// tiles: cluster_m tile rows of one tile column, or cluster_n tile columns of one tile row
// (rank r is tile row r % cluster_m, tile column r / cluster_m of the block).
// CuTeDSL: utils.StaticPersistentTileScheduler, PersistentTileSchedulerParams, WorkTileInfo.
// Split-K (beyond CuTeDSL's scheduler): the last `split_tiles` cluster tiles in walking order
// are each cut into `splits` K ranges, taken as separate units by neighbouring CTAs, so a
// partial last wave of whole tiles becomes fuller waves of shorter units. The partial sums
// meet in a workspace (epilogue/split_k_reduce.hpp).
// Stream-K (beyond CuTeDSL's scheduler): the first `stream_k_tiles` cluster tiles in walking
// order are laid end to end as one run of K blocks and cut into `stream_k_clusters` equal
// ranges, one per cluster, taken before its whole tiles. A range is at least one tile long
// (stream_k_tiles >= stream_k_clusters), so a tile meets at most two ranges. A range is walked
// K-aligned: its whole tiles, then the head of the tile it ends in (that tile's first K
// blocks), then the tail of the tile it starts in (its later K blocks). All ranges start
// together and are equally long, so at any time the clusters are at only a few K positions and
// share operand loads in L2 as a wave of whole tiles does; and a tile's head is done before
// its tail. The head leaves its partial sums in the workspace; the tail, walked last, adds them
// and stores C (epilogue/stream_k_fixup.hpp).
// NOTE: walked in plain order (the tail first), the clusters sat at as many K positions as
// there are clusters and the stream-K phase lost its L2 reuse (kernels/gemm/README.md).
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
  std::int32_t split_tile = 0;
  /// Stream-K: for a tile whose K blocks two CTAs share, this CTA tile's workspace slot; else -1.
  std::int32_t stream_k_slot = -1;
  CUTE_CPP_HD constexpr bool is_valid_tile() const { return valid; }
  /// Stream-K: this unit holds a shared tile's first K blocks and leaves its partial sums.
  CUTE_CPP_HD constexpr bool leaves_partial() const { return stream_k_slot >= 0 && k_block_begin == 0; }
  /// Stream-K: this unit holds a shared tile's later K blocks, adds the other's partial sums and stores C.
  CUTE_CPP_HD constexpr bool adds_partial() const { return stream_k_slot >= 0 && k_block_begin > 0; }
};

/// The problem in tiles, fixed for a launch; built on the host and passed by value.
struct PersistentTileSchedulerParams {
  std::int32_t tiles_m = 1, tiles_n = 1, tiles_l = 1;
  std::int32_t cluster_m = 1;  ///< CTAs per cluster along M
  std::int32_t raster_cluster_rows = 1;  ///< rows of clusters per rasterization group
  std::int32_t k_blocks = 1;   ///< K blocks of a whole tile
  std::int32_t splits = 1;     ///< K splits of each split tile
  std::int64_t split_tiles = 0;  ///< cluster tiles, the last in walking order, that are split
  std::int32_t cluster_n = 1;  ///< CTAs per cluster along N
  std::int64_t stream_k_tiles = 0;     ///< cluster tiles, the first in walking order, shared out as K ranges
  std::int32_t stream_k_clusters = 0;  ///< the grid's clusters, one K range each (set_stream_k)
  std::int32_t stream_k_blocks = 0;    ///< K blocks of a range; the first stream_k_extra ranges take one more
  std::int32_t stream_k_extra = 0;
  /// Shares the first `tiles` cluster tiles out in K over `clusters` equal ranges (the fields
  /// above; the device then needs no division to find a range).
  constexpr void set_stream_k(std::int64_t tiles, std::int32_t clusters) {
    std::int64_t const run = tiles * k_blocks;
    stream_k_tiles = tiles;
    stream_k_clusters = clusters;
    stream_k_blocks = tiles > 0 ? std::int32_t(run / clusters) : 0;
    stream_k_extra = tiles > 0 ? std::int32_t(run % clusters) : 0;
  }
  CUTE_CPP_HD constexpr std::int32_t cluster_size() const { return cluster_m * cluster_n; }
  /// Cluster tiles.
  CUTE_CPP_HD constexpr std::int32_t cluster_rows() const { return (tiles_m + cluster_m - 1) / cluster_m; }
  CUTE_CPP_HD constexpr std::int32_t cluster_cols() const { return (tiles_n + cluster_n - 1) / cluster_n; }
  CUTE_CPP_HD constexpr std::int64_t units() const {
    return std::int64_t(cluster_rows()) * cluster_cols() * tiles_l;
  }
  /// The units the grid walks: whole cluster tiles, then `splits` units per split tile.
  CUTE_CPP_HD constexpr std::int64_t work_units() const { return units() + split_tiles * (splits - 1); }
  /// Whether the scheduler's 32-bit arithmetic holds: units of work, split K-block bounds,
  /// stream-K's run of K blocks and a rasterization group's span below 2^31.
  constexpr bool fits_32_bits() const {
    constexpr std::int64_t limit = std::int64_t{1} << 31;
    return work_units() < limit && std::int64_t(k_blocks) * (splits + 1) < limit &&
           stream_k_tiles * k_blocks + k_blocks < limit && std::int64_t(raster_cluster_rows) * cluster_cols() < limit;
  }
  /// Whether the stream-K fields describe a walk the scheduler can take: none, or every range at
  /// least one tile long, over tiles that exist, without split-K.
  constexpr bool stream_k_valid() const {
    if (stream_k_tiles == 0) return true;
    return stream_k_clusters >= 1 && stream_k_tiles >= stream_k_clusters && stream_k_tiles <= units() &&
           split_tiles == 0 && stream_k_extra >= 0 && stream_k_extra < stream_k_clusters &&
           std::int64_t(stream_k_blocks) * stream_k_clusters + stream_k_extra == stream_k_tiles * k_blocks;
  }
};

/// Fills in w's tile coordinates (m, n, l, valid) for CTA `rank` of the cluster that takes
/// cluster tile `tile` in walking order: rasterization groups of raster_cluster_rows cluster
/// rows, each walked column by column (see the file comment). Shared by the persistent schedulers.
/// NOTE: 32-bit arithmetic (fits_32_bits() holds): see StaticPersistentTileScheduler::get_current_work.
CUTE_CPP_HD constexpr void place_cluster_tile(PersistentTileSchedulerParams const& p, std::uint32_t rank,
                                              std::uint32_t tile, WorkTileInfo& w) {
  auto const cluster_rows = std::uint32_t(p.cluster_rows()), cluster_cols = std::uint32_t(p.cluster_cols());
  std::uint32_t const per_batch = cluster_rows * cluster_cols;
  std::uint32_t const l = tile / per_batch;
  std::uint32_t const t = tile - l * per_batch;
  auto const raster = std::uint32_t(p.raster_cluster_rows);
  std::uint32_t const group_span = raster * cluster_cols;
  std::uint32_t const group = t / group_span;
  std::uint32_t const first_row = group * raster;
  std::uint32_t const rows_left = cluster_rows - first_row;
  std::uint32_t const rows = rows_left < raster ? rows_left : raster;
  std::uint32_t const within = t - group * group_span;
  std::uint32_t const column = within / rows;
  std::uint32_t const cluster_row = first_row + (within - column * rows);
  auto const cm = std::uint32_t(p.cluster_m);
  w.m = std::int32_t(cluster_row * cm + rank % cm);
  w.n = std::int32_t(column * std::uint32_t(p.cluster_n) + rank / cm);
  w.l = std::int32_t(l);
  w.valid = w.m < p.tiles_m && w.n < p.tiles_n;
}

/// Walks the tiles of one CTA (see the file comment).
class StaticPersistentTileScheduler {
 public:
  /// The grid for `resident_ctas` CTAs that can run at once (the SM count times CTAs per SM, or
  /// what the occupancy calculator finds for a cluster shape): never more CTAs than units of
  /// work, a multiple of the cluster size.
  static constexpr std::int64_t get_grid_shape(PersistentTileSchedulerParams const& p, int resident_ctas) {
    std::int64_t const clusters = std::int64_t(resident_ctas) / p.cluster_size();
    std::int64_t const used = clusters < p.work_units() ? clusters : p.work_units();
    return (used < 1 ? 1 : used) * p.cluster_size();
  }

  /// The scheduler of the CTA `block` (blockIdx.x) of a grid of `grid` CTAs.
  /// NOTE: 32-bit arithmetic (a grid has fewer than 2^31 CTAs): it runs before the first load.
  CUTE_CPP_HD constexpr StaticPersistentTileScheduler(PersistentTileSchedulerParams const& p, std::int64_t block,
                                                      std::int64_t grid)
      : p_(p),
        unit_(std::uint32_t(block) / std::uint32_t(p.cluster_size()) + std::uint32_t(p.stream_k_tiles)),
        stride_(std::uint32_t(grid) / std::uint32_t(p.cluster_size())),
        rank_(std::int32_t(std::uint32_t(block) % std::uint32_t(p.cluster_size()))) {
    if (p.stream_k_tiles > 0 && unit_ - std::uint32_t(p.stream_k_tiles) < std::uint32_t(p.stream_k_clusters))
      stream_k_tile_ = next_stream_k_tile(~0u);
  }

  CUTE_CPP_HD constexpr bool has_work() const {
    // NOTE: the bound first and unconditionally, so its divisions are hoisted (get_current_work).
    bool const whole_left = unit_ < std::uint32_t(p_.work_units());
    return whole_left || in_stream_k();
  }
  /// The current unit: a whole or split tile's index in walking order, or, in a stream-K range,
  /// the index of the tile it is in.
  CUTE_CPP_HD constexpr std::int64_t linear_idx() const {
    return in_stream_k() ? std::int64_t(stream_k_tile_) : std::int64_t(unit_);
  }

  /// The current tile; .valid is false past the end, or for a cluster rank whose tile lies
  /// beyond M or N (it still takes part in the cluster's pipeline).
  /// NOTE: 32-bit arithmetic (fits_32_bits() holds): a 64-bit division is a software routine of
  /// dozens of dependent instructions, and the producer computes its first tile before its first load.
  CUTE_CPP_HD constexpr WorkTileInfo get_current_work() const {
    // NOTE: every division is on the unconditional path (the tile is chosen by selects, placed
    // once): a division by a run-time divisor cannot be hoisted out of the caller's loop from
    // under a condition (the divisor might be 0), and in the loop it delays the first load.
    WorkTileInfo w;
    auto const whole = std::uint32_t(p_.units() - p_.split_tiles);
    auto const splits = std::uint32_t(p_.splits), k_blocks = std::uint32_t(p_.k_blocks);
    bool const stream_k = in_stream_k();
    std::uint32_t tile = stream_k ? stream_k_tile_ : unit_;
    w.k_block_end = p_.k_blocks;
    if (stream_k) {
      std::uint32_t const first = tile * k_blocks, begin = stream_k_begin(), left = stream_k_end() - first;
      w.k_block_begin = std::int32_t(begin > first ? begin - first : 0u);
      w.k_block_end = std::int32_t(left < k_blocks ? left : k_blocks);
      if (w.k_block_begin > 0 || w.k_block_end < p_.k_blocks)
        w.stream_k_slot = std::int32_t(tile) * p_.cluster_size() + rank_;
    }
    std::uint32_t const v = unit_ - whole, split_tile = v / splits, split = v - split_tile * splits;
    // Balanced ranges: the splits' lengths differ by at most one block.
    std::uint32_t const split_begin = split * k_blocks / splits, split_end = (split + 1) * k_blocks / splits;
    if (!stream_k && unit_ >= whole) {
      tile = whole + split_tile;
      w.split = std::int32_t(split);
      w.splits = p_.splits;
      w.split_tile = std::int32_t(split_tile) * p_.cluster_size() + rank_;
      w.k_block_begin = std::int32_t(split_begin);
      w.k_block_end = std::int32_t(split_end);
    }
    place_cluster_tile(p_, std::uint32_t(rank_), tile, w);
    w.linear = stream_k ? tile : unit_;
    return has_work() ? w : WorkTileInfo{};
  }
  /// (m, n, l) of the current tile.
  CUTE_CPP_HD constexpr WorkTileInfo tile_idx() const { return get_current_work(); }

  CUTE_CPP_HD constexpr void advance_to_next_work() {
    if (in_stream_k()) {
      stream_k_tile_ = next_stream_k_tile(stream_k_tile_);  // ~0 at the range's end: unit_ goes on
      return;
    }
    unit_ += stride_;
  }

 private:
  // NOTE: the range's bounds are computed, not kept: the consumers keep the scheduler live
  // through their main loops, beside the accumulators. While in its range, a cluster's unit_
  // is still its first whole tile, stream_k_tiles + its index.
  CUTE_CPP_HD constexpr bool in_stream_k() const { return stream_k_tile_ != ~0u; }
  /// This cluster's range, [stream_k_begin(), stream_k_end()), in the run of K blocks.
  CUTE_CPP_HD constexpr std::uint32_t stream_k_begin() const {
    return range_start(unit_ - std::uint32_t(p_.stream_k_tiles));
  }
  CUTE_CPP_HD constexpr std::uint32_t stream_k_end() const {
    return range_start(unit_ - std::uint32_t(p_.stream_k_tiles) + 1);
  }
  /// The tile after `t` in this cluster's K-aligned walk of its range (~0: the first; returns ~0
  /// after the last): whole tiles, then the head, then the tail (see the file comment).
  CUTE_CPP_HD constexpr std::uint32_t next_stream_k_tile(std::uint32_t t) const {
    auto const k_blocks = std::uint32_t(p_.k_blocks);
    std::uint32_t const begin = stream_k_begin(), end = stream_k_end();
    std::uint32_t const tail = begin / k_blocks, head = end / k_blocks;
    bool const has_tail = begin != tail * k_blocks, has_head = end != head * k_blocks;
    std::uint32_t const first_whole = has_tail ? tail + 1 : tail;
    if (t == ~0u) return first_whole < head ? first_whole : has_head ? head : tail;
    if (has_tail && t == tail) return ~0u;
    if (t + 1 < head) return t + 1;
    if (t + 1 == head && has_head) return head;
    return has_tail ? tail : ~0u;
  }
  CUTE_CPP_HD constexpr std::uint32_t range_start(std::uint32_t c) const {
    auto const extra = std::uint32_t(p_.stream_k_extra);
    return c * std::uint32_t(p_.stream_k_blocks) + (c < extra ? c : extra);
  }

  PersistentTileSchedulerParams p_;
  // NOTE: 32 bits (fits_32_bits(): units of work below 2^31, so unit_ + stride_ < 2^32): the
  // consumers keep the scheduler live through their main loops, beside the accumulators.
  std::uint32_t unit_;
  std::uint32_t stride_;
  std::int32_t rank_;
  /// Stream-K: the tile (in walking order) of this cluster's range being walked; ~0 outside it.
  std::uint32_t stream_k_tile_ = ~0u;
};

}  // namespace cute_cpp
