// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Where a thread of a row kernel works: row_place gives its row, its share of the row (a RowWalk:
// which vectors of each round are its own) and the blocks sharing the row; for_each_round walks
// the row's rounds. A row is read by a warp, a group of 64 or 128 threads, the blocks of a
// cluster, or one block that streams it. CuTeDSL: the thread-value layouts its rmsnorm/softmax
// examples build by hand for each row width.
#include <cute_cpp/arch/cluster.hpp>  // cluster_size
#include <cute_cpp/rows/config.hpp>   // RowConfig

#include <cstdint>

#if defined(__CUDACC__)
namespace cute_cpp {

/// One thread's share of a row: in the round starting at element `base`, its vector s starts at
/// base + first + s * step. Consecutive threads hold consecutive vectors, so a warp's accesses
/// are contiguous; the blocks of a cluster hold consecutive segments of the row.
/// NOTE: unsigned: for a width just below 2^31, a round that starts inside the row ends past
/// 2^31 (but below 2^32).
struct RowWalk {
  unsigned first;
  unsigned step;
  unsigned width;
  [[nodiscard]] __device__ __forceinline__ unsigned element(int s, unsigned base) const {
    return base + first + unsigned(s) * step;
  }
};

/// Where the calling thread works: its row, its share of the row, and the blocks sharing the row.
struct RowPlace {
  std::int64_t row;
  RowWalk walk;
  unsigned blocks;
};

/// The calling thread's place in a launch of Config over rows of `width` elements.
///   RowConfig<8, 64, true>, thread 70 of block 3: row 3 * 4 + 1, first = 6 * 8, step = 64 * 8.
template <class Config>
[[nodiscard]] __device__ __forceinline__ RowPlace row_place(int width) {
  constexpr unsigned T = Config::threads_per_row, V = Config::vec, S = Config::slots;
  unsigned const lane = threadIdx.x % T;
  if constexpr (Config::split) {
    // NOTE: the cluster is (blocks, 1, 1), blocks a power of two, and spans one row (launched
    // without a cluster, a block is a cluster of one). Block `rank` holds the rank-th segment of
    // S * T * V elements, so the step between a thread's vectors stays a constant (immediate
    // address offsets, fewer registers).
    unsigned const blocks = arch::cluster_size();
    unsigned const rank = blockIdx.x & (blocks - 1);
    std::int64_t const row = blockIdx.x >> (__ffs(int(blocks)) - 1);
    return {row, {(rank * S * T + lane) * V, T * V, unsigned(width)}, blocks};
  } else {
    return {std::int64_t(blockIdx.x) * Config::rows_per_block + threadIdx.x / T, {lane * V, T * V, unsigned(width)},
            1u};
  }
}

/// Calls f(base) for each round of the row: once when the row is cached, else until its end.
template <class Config, class F>
__device__ __forceinline__ void for_each_round(RowWalk const& w, F&& f) {
  if constexpr (Config::cached) {
    f(0u);
  } else {
    for (unsigned base = 0; base < w.width; base += Config::slots * w.step) f(base);
  }
}

}  // namespace cute_cpp
#endif
