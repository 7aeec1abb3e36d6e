// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// How a GEMM's work is cut into units: whole tiles, split-K or stream-K (Decomposition), and the
// model that chooses among them for a problem's cluster tiles on the resident clusters
// (choose_split_k, stream_k_tiles, choose_decomposition). Host arithmetic only; the kernel's side
// is sched/static_persistent_tile_scheduler.hpp and epilogue/split_k_reduce.hpp, stream_k_fixup.hpp.
// CUTLASS: DecompositionMode.
#include <cstdint>

namespace cute_cpp::kernels {

/// How the work is cut into units (CUTLASS: DecompositionMode). A last wave of whole tiles that
/// only part of the GPU takes leaves the rest idle: SplitK cuts that wave's tiles into K ranges
/// taken by more CTAs; StreamK lays that wave's tiles and one wave more end to end in K and gives
/// every cluster an equal range (epilogue/stream_k_fixup.hpp). Both need a workspace.
enum class Decomposition {
  Heuristic,     ///< with a workspace, what choose_decomposition models fastest; else DataParallel
  DataParallel,  ///< whole tiles
  SplitK,        ///< the last wave's tiles in k_splits K ranges (0: choose_split_k's count)
  StreamK,       ///< needs more cluster tiles than resident clusters
};

/// The split of the work: `splits` K ranges for each of the last `split_tiles` cluster tiles.
struct SplitKChoice {
  int splits = 1;
  std::int64_t split_tiles = 0;
};

/// The time to write or read one tile's fp32 partial sums, in tile times: about 256 / K, since
/// they move at the L2 rate per SM while the tile's products need 2K flops per output at the
/// wgmma rate.
constexpr double partial_pass(int k_blocks, int block_k) { return 256.0 / double(std::int64_t(k_blocks) * block_k); }

/// Split-K for `units` cluster tiles of `k_blocks` K blocks (of `block_k` elements) on
/// `clusters` resident clusters; `requested` as GemmArguments::k_splits. Only the tiles of the
/// last, partial wave are split: into the number of ranges that minimises the modelled time of
/// that wave (the shorter units, plus writing one partial and reading `splits`), among the counts
/// whose pieces still fit one wave. Pieces over two or more waves modelled faster than whole tiles
/// but ran slower: on the H100's model-shape probe at cef1614, 1 in 4 counts that made two waves
/// beat whole tiles and 1 in 10 that made three, against 98 in 100 of those within one wave
/// (README: measurements).
constexpr SplitKChoice choose_split_k(std::int64_t units, std::int64_t clusters, int k_blocks, int block_k,
                                      int requested) {
  std::int64_t const tail = units <= clusters ? units : units % clusters;
  if (requested == 1 || tail == 0) return {};
  if (requested > 1) return {requested, tail};
  double const pass = partial_pass(k_blocks, block_k);
  SplitKChoice best;
  double best_time = 1.0;
  for (int s = 2; s <= 8 && k_blocks / s >= 2 && tail * s <= clusters; ++s) {
    double const time = 1.0 / s + double(1 + s) * pass;
    if (time < best_time - 0.02) {
      best = {s, tail};
      best_time = time;
    }
  }
  return best;
}

/// The decomposition of the work: SplitK's `splits` K ranges for each of the last `split_tiles`
/// cluster tiles, or StreamK's first `stream_k_tiles` cluster tiles shared out in K.
struct WorkDecomposition {
  Decomposition mode = Decomposition::DataParallel;
  SplitKChoice split;
  std::int64_t stream_k_tiles = 0;
};

/// Stream-K for `units` cluster tiles on `clusters` resident clusters (units > clusters): the
/// tiles of the last, partial wave and of one whole wave before it, so that every cluster's
/// range is at least one tile long (a tile then meets at most two ranges).
constexpr std::int64_t stream_k_tiles(std::int64_t units, std::int64_t clusters) {
  return units % clusters + clusters;
}

/// The decomposition for `units` cluster tiles of `k_blocks` K blocks (of `block_k` elements) on
/// `clusters` resident clusters, as asked (`stream_k`: whether the plan has it). Heuristic:
/// - one partial wave (units <= clusters): split-K as choose_split_k models it;
/// - a partial last wave after whole ones: stream-K, where its time for that wave (the wave's
///   share per cluster, two partial passes and 0.1 of a tile for the rest) beats the whole
///   wave's 1 by 0.02; else whole tiles. Never split-K there: its tail ran slower than whole
///   tiles.
/// The thresholds come from --decomposition-sweep (README: measurements).
constexpr WorkDecomposition choose_decomposition(std::int64_t units, std::int64_t clusters, int k_blocks, int block_k,
                                                 Decomposition asked, int k_splits, bool stream_k = true) {
  WorkDecomposition d;
  switch (asked) {
    case Decomposition::DataParallel: return d;
    case Decomposition::SplitK:
      d.split = choose_split_k(units, clusters, k_blocks, block_k, k_splits);
      if (d.split.splits > 1) d.mode = Decomposition::SplitK;
      return d;
    case Decomposition::StreamK:
      d.mode = Decomposition::StreamK;
      d.stream_k_tiles = stream_k_tiles(units, clusters);
      return d;
    case Decomposition::Heuristic: break;
  }
  if (units <= clusters) return choose_decomposition(units, clusters, k_blocks, block_k, Decomposition::SplitK, 0);
  std::int64_t const tail = units % clusters;
  double const time = double(tail) / double(clusters) + 2 * partial_pass(k_blocks, block_k) + 0.1;
  if (stream_k && tail > 0 && time < 0.98)
    return choose_decomposition(units, clusters, k_blocks, block_k, Decomposition::StreamK, 0);
  return d;
}

}  // namespace cute_cpp::kernels
