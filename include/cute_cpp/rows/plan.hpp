// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host side of the row kernels: plan_rows picks, for rows of a run-time width, the RowConfig
// (vector width, threads per row, cached or streamed) and the blocks per row (a cluster), and
// gives the launch's LaunchConfig; dispatch_rows turns the plan into the kernel's template
// argument. Host-only run-time code (it throws and builds a host::LaunchConfig) beside the device
// rooms of rows/; it needs only rows/config.hpp and host/launch.hpp, so it also builds with plain
// g++ (CPU tests).
#include <cute_cpp/host/launch.hpp>  // LaunchConfig
#include <cute_cpp/rows/config.hpp>  // RowConfig, row_block_threads, row_slots, row_max_cluster

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

namespace cute_cpp::host {

/// A row kernel's run-time plan: V = 16 bytes of T when the width and every pointer allow it,
/// else 1; the smallest group of 32, 64 or 128 threads that holds the row in one round; else a
/// cluster of 1 to 8 blocks per row, holding it in registers (or, staged, in shared memory); one
/// streaming block per row beyond.
struct RowPlan {
  int vec = 1;
  int threads_per_row = 32;
  bool cached = true;
  unsigned cluster = 1;  ///< blocks per row (cached rows of whole blocks)
  bool staged = false;   ///< a row of 2 or more blocks staged in shared memory, persistent clusters
  std::size_t segment_bytes = 0;  ///< bytes of a row per block of the cluster (staged rows)

  /// Blocks for `rows` rows. @pre at most 2^31 - 1 blocks [rows.count]: std::invalid_argument.
  [[nodiscard]] unsigned blocks(std::size_t rows) const {
    std::size_t const per_block = std::size_t(row_block_threads / threads_per_row);
    std::size_t const b = (rows + per_block - 1) / per_block * cluster;
    if (b > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.count]: too many rows for one launch");
    return unsigned(b);
  }
  /// The launch of `rows` rows: a block of row_block_threads, `cluster` blocks per cluster; a
  /// staged plan takes row_stages rows of `inputs` tensors of dynamic shared memory per block
  /// (and its grid is to be cut to the resident clusters: persistent_rows).
  [[nodiscard]] LaunchConfig launch_config(std::size_t rows, cudaStream_t stream, int inputs = 1) const {
    LaunchConfig config;
    config.grid = dim3(blocks(rows));
    config.block = dim3(row_block_threads);
    config.cluster = dim3(cluster);
    config.stream = stream;
    if (staged) config.smem_bytes = std::size_t(row_stages) * std::size_t(inputs) * segment_bytes;
    return config;
  }
};

/// The plan for rows of `width` elements of T; `pointers_aligned`: every pointer the kernel
/// reads or writes is 16-byte aligned. With hold_block_rows false, a row wider than a group
/// streams through one block (no cluster, not held in registers): for kernels that read each
/// element once.
///   plan_rows<bf16>(2048, true)   -> vec 8, 64 threads a row, cached
///   plan_rows<bf16>(65536, true)  -> vec 8, 256 threads, cached, cluster 8
///   plan_rows<bf16>(65536, true, false) -> vec 8, 256 threads, streamed, cluster 1
/// With stage_split_rows (kernels that take staged rows), a row split over 2 or more blocks with
/// 16-byte vectors is staged in shared memory instead of held in registers:
///   plan_rows<bf16>(65536, true, true, true) -> vec 8, 256 threads, cached, cluster 8, staged
/// @pre width < 2^31 [rows.width]: std::invalid_argument otherwise.
template <class T>
[[nodiscard]] RowPlan plan_rows(std::size_t width, bool pointers_aligned, bool hold_block_rows = true,
                                bool stage_split_rows = false) {
  if (width > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.width]: rows are at most 2^31 - 1 elements");
  RowPlan p;
  int const full = int(16 / sizeof(T));
  p.vec = (width % std::size_t(full) == 0 && pointers_aligned) ? full : 1;
  std::size_t const per_thread = std::size_t(p.vec) * row_slots;
  // NOTE: groups of 64 and 128 threads (2 to 4 rows per block) for the widths between a warp's
  // and a block's: a block per row holds only 1 or 2 of its 4 vectors a thread there (the
  // examples' README.md files have the figures). Scalar rows (vec 1: odd widths, misaligned
  // pointers) take warps or blocks only.
  int const largest_group = p.vec > 1 ? 128 : 32;
  p.threads_per_row = 32;
  while (width > std::size_t(p.threads_per_row) * per_thread && p.threads_per_row < largest_group)
    p.threads_per_row *= 2;
  p.cached = width <= std::size_t(p.threads_per_row) * per_thread;
  if (p.cached) return p;
  p.threads_per_row = row_block_threads;
  if (hold_block_rows) {
    std::size_t const per_block = row_block_threads * per_thread;
    std::size_t const needed = (width + per_block - 1) / per_block;
    // NOTE: a power of two, so that a block's rank and row are a mask and a shift. A cluster
    // only when one block cannot hold the row: splitting a row one block holds costs the
    // exchange and halves the work per block (kernels/rows/rmsnorm.md).
    while (p.cluster < needed && p.cluster < unsigned(row_max_cluster)) p.cluster *= 2;
    p.cached = needed <= p.cluster;
    if (!p.cached) p.cluster = 1;
    // NOTE: staged only when split: the cluster's exchange is the latency that the next row's
    // copy hides (kernels/rows/rmsnorm.md has the figures); a row of one block has none.
    p.staged = stage_split_rows && p.cached && p.cluster >= unsigned(row_stage_min_cluster) && p.vec == full;
    if (p.staged) p.segment_bytes = per_block * sizeof(T);
  }
  return p;
}

/// config with its grid cut to the clusters of `kernel` that can be resident at once (at least
/// one): the grid of a kernel whose clusters loop over rows (staged rows).
template <class... Params>
[[nodiscard]] LaunchConfig persistent_rows(void (*kernel)(Params...), LaunchConfig config) {
  int const clusters = resident_clusters(kernel, config);
  if (clusters < 1) throw std::invalid_argument("cute-cpp [rows.staged]: no cluster of the staged row kernel fits");
  unsigned const resident = unsigned(clusters) * config.cluster.x;
  if (config.grid.x > resident) config.grid.x = resident;
  return config;
}

/// Calls f.template operator()<Config>() with the RowConfig matching the plan for rows of T (8
/// instantiations: groups of 64 and 128 threads for 16-byte vectors only; a ninth, the staged
/// rows of 16-byte vectors, with Staged, for plans from plan_rows with stage_split_rows).
template <class T, bool Staged = false, class F>
void dispatch_rows(RowPlan const& p, F&& f) {
  constexpr int Full = int(16 / sizeof(T));
  auto pick = [&]<int V>() {
    if constexpr (Staged && V == Full) {
      if (p.staged && p.threads_per_row != 32) return f.template operator()<RowConfig<V, row_block_threads, true, row_slots, true>>();
    }
    if (p.threads_per_row == 32) f.template operator()<RowConfig<V, 32, true>>();
    else if (p.cached) f.template operator()<RowConfig<V, row_block_threads, true>>();
    else f.template operator()<RowConfig<V, row_block_threads, false>>();
  };
  if (p.vec == Full) {
    if (p.threads_per_row == 64) f.template operator()<RowConfig<Full, 64, true>>();
    else if (p.threads_per_row == 128) f.template operator()<RowConfig<Full, 128, true>>();
    else pick.template operator()<Full>();
  } else {
    pick.template operator()<1>();
  }
}

}  // namespace cute_cpp::host
