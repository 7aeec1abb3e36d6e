// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The static shape of a row kernel (rmsnorm, softmax, row reductions): how many threads share a
// row, how wide their vectors are, how many vectors each holds per round, and whether the row
// stays in registers. Host and device (no CUDA needed): rows/plan.hpp picks one, the device
// rooms (rows/walk.hpp, rows/tiles.hpp, rows/reduce.hpp) are templated on it.
// CuTeDSL has no row-kernel type: its rmsnorm/softmax examples fix these as Python constants.
#include <cute_cpp/diag/rows.hpp>

namespace cute_cpp {

/// Threads per block of every row kernel.
inline constexpr int row_block_threads = 256;
/// 16-byte vectors per thread per round, unless a RowConfig asks for more.
inline constexpr int row_slots = 4;
/// The most blocks that share one row: the largest portable cluster.
inline constexpr int row_max_cluster = 8;
/// Rows in shared memory per block of a staged row kernel: the one being reduced and the next
/// one, whose bulk copy is in flight meanwhile.
/// NOTE: 3 stages measured no better (kernels/rows/rmsnorm.md).
inline constexpr int row_stages = 2;
/// The fewest blocks per row for which a kernel that takes staged rows stages them.
/// NOTE: at 4 blocks a row (8192 x 32768 bf16) staging measured 0.89 of a device copy against
/// 0.94 in registers; at 8, 0.905 against 0.883 (kernels/rows/rmsnorm.md).
inline constexpr int row_stage_min_cluster = 8;

/// The compile-time shape of a row kernel: V elements per access, ThreadsPerRow threads per row
/// group (32, 64, 128, or the whole block), whether the row stays in registers (Cached: one
/// round; with whole blocks, the row is spread over the blocks of the launch's cluster) or is
/// streamed in rounds and read again for a second pass (whole blocks only), Slots vectors a
/// thread per round, and whether a row split over a cluster is Staged: each block's segment of
/// the row brought into shared memory by a bulk copy (row_stages rows deep), the cluster looping
/// over rows (a persistent grid), so that the next row streams in during this row's exchange.
///   RowConfig<8, 256, true>: bf16 rows of up to 8 * 256 * 4 elements per block of the cluster.
///   RowConfig<8, 256, true, 4, true>: the same rows, staged in shared memory.
template <int V, int ThreadsPerRow, bool Cached, int Slots = row_slots, bool Staged = false>
struct RowConfig {
  static_assert(diag::row_threads_per_row<ThreadsPerRow, row_block_threads>::ok);
  static_assert(diag::row_slots_per_thread<ThreadsPerRow, Slots, row_block_threads, row_slots>::ok);
  static_assert(diag::row_staged_split<Staged, Cached, ThreadsPerRow, row_block_threads>::ok);
  static constexpr int vec = V;
  static constexpr int threads_per_row = ThreadsPerRow;
  static constexpr bool cached = Cached;
  static constexpr int slots = Slots;
  static constexpr bool split = Cached && ThreadsPerRow == row_block_threads;  ///< a row over a cluster's blocks
  static constexpr bool staged = Staged;  ///< split rows staged in shared memory, persistent clusters
  /// Elements of a row per block of the cluster (split rows): its segment.
  static constexpr int segment = Slots * ThreadsPerRow * V;
  static constexpr int rows_per_block = row_block_threads / ThreadsPerRow;
  /// Named barriers the row reductions use: one per row group, for groups of 64 or 128 threads
  /// (a warp shuffles; a block meets at __syncthreads).
  static constexpr int group_barriers = ThreadsPerRow > 32 && ThreadsPerRow < row_block_threads ? rows_per_block : 0;
};

}  // namespace cute_cpp
