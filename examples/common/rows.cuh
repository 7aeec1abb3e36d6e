// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row-wise kernels' shared machinery (rmsnorm, softmax, reduce). A row of `width` elements is
// read by a group of threads as V-element (16-byte) vectors, row_slots vectors per thread per
// round, every load of a round issued before any of its values is used:
//   - a warp, or a group of 64 or 128 threads of the block, for rows of up to 32, 64 or 128 *
//     row_slots vectors (one round, held in registers);
//   - the blocks of a cluster (1 to 8 blocks of 256 threads), for rows of up to 8 * 256 *
//     row_slots vectors: one round, held in registers, the blocks' partial reductions pushed to
//     each other through distributed shared memory;
//   - one block, streaming wider rows round by round and reading them again for a second pass.
// RowPlan picks the configuration on the host.
#include "examples/common/align.hpp"

#include <cute_cpp/arch/cluster.hpp>   // cluster_arrive_relaxed, cluster_wait, cluster_size, block_rank_in_cluster
#include <cute_cpp/arch/mbarrier.hpp>  // mbarrier_init, mbarrier_arrive_and_expect_tx, mbarrier_wait
#include <cute_cpp/host/launch.hpp>   // LaunchConfig
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/tensor.hpp>  // RegisterTile, warp_reduce, block_reduce

#include <ctm/common/bar.hpp>      // bar_sync
#include <ctm/common/cluster.hpp>  // mapa_shared_cluster_u32, st_async_shared_cluster_mbarrier_complete_tx_bytes_b32

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace cute_cpp::examples {

inline constexpr int row_block_threads = 256;
inline constexpr int row_slots = 4;        // 16-byte vectors per thread per round
inline constexpr int row_max_cluster = 8;  // the largest portable cluster

/// The row kernels' shared memory: the block reduction's scratch and, for rows split over a
/// cluster, per exchange (at most 2) an mbarrier and the partial result of every block of the
/// cluster, pushed here by each block.
struct RowShared {
  SmemArray<float, 32> warp;
  SmemArray<std::uint64_t, 2> bar;
  SmemArray<float, 2 * row_max_cluster> parts;
};

/// The static plan of the row kernels (rmsnorm, softmax, reduce), for verify_plan: 256 threads,
/// the shared floats of RowShared, clusters of up to 8 blocks.
struct RowKernelPlan {
  static constexpr int threads = row_block_threads;
  static constexpr std::size_t smem_bytes = sizeof(RowShared);
  static constexpr int cluster_size = row_max_cluster;
};

/// The compile-time shape of a row kernel: V elements per access, ThreadsPerRow threads per row
/// group (32, 64, 128, or the whole block), and whether the row stays in registers (Cached: one
/// round; with whole blocks, the row is spread over the blocks of the launch's cluster) or is
/// streamed in rounds and read again for a second pass (whole blocks only).
template <int V, int ThreadsPerRow, bool Cached>
struct RowConfig {
  static_assert(ThreadsPerRow == 32 || ThreadsPerRow == 64 || ThreadsPerRow == 128 ||
                ThreadsPerRow == row_block_threads);
  static constexpr int vec = V;
  static constexpr int threads_per_row = ThreadsPerRow;
  static constexpr bool cached = Cached;
  static constexpr bool split = Cached && ThreadsPerRow == row_block_threads;  // cluster-wide row
  static constexpr int rows_per_block = row_block_threads / ThreadsPerRow;
};

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
  [[nodiscard]] __device__ __forceinline__ unsigned round() const { return row_slots * step; }
};

/// Where the calling thread works: its row, its share of the row, and the blocks sharing the row.
struct RowPlace {
  std::int64_t row;
  RowWalk walk;
  unsigned blocks;
};

template <class Config>
__device__ __forceinline__ RowPlace row_place(int width) {
  constexpr unsigned T = Config::threads_per_row, V = Config::vec;
  unsigned const lane = threadIdx.x % T;
  if constexpr (Config::split) {
    // NOTE: the cluster is (blocks, 1, 1), blocks a power of two, and spans one row (launched
    // without a cluster, a block is a cluster of one). Block `rank` holds the rank-th segment of
    // row_slots * T * V elements, so the step between a thread's vectors stays a constant
    // (immediate address offsets, fewer registers).
    unsigned const blocks = arch::cluster_size();
    unsigned const rank = blockIdx.x & (blocks - 1);
    std::int64_t const row = blockIdx.x >> (__ffs(int(blocks)) - 1);
    return {row, {(rank * row_slots * T + lane) * V, T * V, unsigned(width)}, blocks};
  } else {
    return {std::int64_t(blockIdx.x) * Config::rows_per_block + threadIdx.x / T, {lane * V, T * V, unsigned(width)}, 1u};
  }
}

/// A round of one thread's vectors of a row, in registers; tiles[s] gives vector s as a RegisterTile.
template <class T, int V>
struct RowTiles {
  using Tile = RegisterTile<T, V>;
  // NOTE: a 16-byte vector is held as four 32-bit words and turned into a RegisterTile where it
  // is used: held as RegisterTile<bf16, 8> across a conditional load, nvcc kept every bf16 in a
  // register of its own (rmsnorm bf16: 80 registers a thread, against 48 for f16).
  using Raw = std::conditional_t<sizeof(Tile) == 16, uint4, Tile>;
  Raw raw[row_slots];

  /// Loads the round's vectors that lie inside the row. NOTE: every load is issued before any
  /// value is used (the first version computed on each vector before loading the next, which
  /// left one 16-byte load per thread in flight: 0.84 of a device copy for rmsnorm bf16 at
  /// 16384 x 8192 on the H200).
  __device__ __forceinline__ void load(T const* row, RowWalk const& w, unsigned base) {
#pragma unroll
    for (int s = 0; s < row_slots; ++s) {
      unsigned const e = w.element(s, base);
      if (e < w.width) {
        if constexpr (std::is_same_v<Raw, uint4>) raw[s] = *reinterpret_cast<uint4 const*>(row + e);
        else raw[s] = Tile::template load_vector<V>(row + e);
      }
    }
  }
  [[nodiscard]] __device__ __forceinline__ Tile operator[](int s) const {
    Tile t;
    __builtin_memcpy(&t, &raw[s], sizeof(Tile));
    return t;
  }
  __device__ __forceinline__ void set(int s, Tile const& t) { __builtin_memcpy(&raw[s], &t, sizeof(Tile)); }
  /// Calls f(s, element) for each of the round's vectors that lie inside the row.
  template <class F>
  __device__ __forceinline__ void each(RowWalk const& w, unsigned base, F&& f) const {
#pragma unroll
    for (int s = 0; s < row_slots; ++s) {
      unsigned const e = w.element(s, base);
      if (e < w.width) f(s, int(e));  // below the width, so below 2^31
    }
  }
};

/// Calls f(base) for each round of the row: once when the row is cached, else until its end.
template <class Config, class F>
__device__ __forceinline__ void for_each_round(RowWalk const& w, F&& f) {
  if constexpr (Config::cached) {
    f(0);
  } else {
    for (unsigned base = 0; base < w.width; base += w.round()) f(base);
  }
}

/// Before a row split over a cluster loads anything: thread 0 sets up this block's exchange
/// barriers, and every thread arrives on the cluster barrier that the first exchange waits on
/// (no block may push into a peer before the peer's barriers exist).
template <class Config>
__device__ __forceinline__ void row_start(RowShared& shared, RowPlace const& at) {
  if constexpr (Config::split) {
    if (at.blocks > 1) {
      if (threadIdx.x == 0) {
        arch::mbarrier_init(&shared.bar[0], 1);
        arch::mbarrier_init(&shared.bar[1], 1);
        arch::mbarrier_init_fence();
      }
      arch::cluster_arrive_relaxed();
    }
  }
}

/// op over the x of the blocks of this cluster (each already reduced over its block), through
/// distributed shared memory; every thread of every block gets the same bits (each block folds
/// the same partials in rank order). Block b's thread r pushes x into block r's parts with
/// st.async, which signals block r's barrier for the exchange; each block waits for the
/// `blocks` partials on its own barrier.
/// NOTE: the pushes need no fence: a release of a shared-memory slot to the cluster
/// (cluster_sync, or fence.acq_rel.cluster) compiles to MEMBAR.ALL.GPU, st.async does not. And
/// since every block waits for all pushes into it before going on, none exits while a peer may
/// still write to it.
template <class Op>
__device__ __forceinline__ float cluster_reduce(float x, Op op, RowShared& shared, unsigned blocks, int exchange) {
  if (exchange == 0) arch::cluster_wait();  // every block's barriers are initialised (row_start)
  std::uint64_t* const bar = &shared.bar[exchange];
  float* const parts = &shared.parts[exchange * row_max_cluster];
  if (threadIdx.x == 0) arch::mbarrier_arrive_and_expect_tx(bar, blocks * std::uint32_t(sizeof(float)));
  if (threadIdx.x < blocks) {
    std::uint32_t const peer = threadIdx.x;
    ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_b32(
        ctm::mapa_shared_cluster_u32(&parts[arch::block_rank_in_cluster()], peer), __float_as_uint(x),
        ctm::mapa_shared_cluster_u32(bar, peer));
  }
  arch::mbarrier_wait(bar, 0);
  float y = parts[0];
  for (unsigned b = 1; b < blocks; ++b) y = op(y, parts[b]);
  return y;
}

/// op over the x of the Threads (64 or 128) threads of this thread's row group; every thread of
/// the group gets the same bits. The group's warps meet at named barrier 1 + group, so a group
/// past the last row may leave early; `scratch` holds a float per warp of the block.
template <int Threads, class Op>
__device__ __forceinline__ float group_reduce(float x, Op op, float* scratch) {
  constexpr unsigned warps = Threads / 32;
  x = warp_reduce(x, op);
  unsigned const warp = threadIdx.x / 32;
  unsigned const barrier = 1 + threadIdx.x / Threads;
  if (threadIdx.x % 32 == 0) scratch[warp] = x;
  ctm::bar_sync(barrier, Threads);
  float const* const group = scratch + warp / warps * warps;
  float y = group[0];
#pragma unroll
  for (unsigned w = 1; w < warps; ++w) y = op(y, group[w]);
  ctm::bar_sync(barrier, Threads);  // scratch may be written again by the next reduction
  return y;
}

/// The sum / max of x over the threads of one row: a warp, a group of 64 or 128 threads, a
/// block, or the blocks of a cluster. `exchange` (0, then 1) numbers a kernel's cluster-wide
/// reductions.
template <class Config, class Op>
__device__ __forceinline__ float row_reduce(float x, Op op, float identity, RowShared& shared, RowPlace const& at,
                                            int exchange) {
  if constexpr (Config::threads_per_row == 32) {
    return warp_reduce(x, op);
  } else if constexpr (Config::threads_per_row < row_block_threads) {
    return group_reduce<Config::threads_per_row>(x, op, shared.warp.data);
  } else {
    x = block_reduce<Config::threads_per_row>(x, op, identity, shared.warp.data);
    if constexpr (Config::split) {
      if (at.blocks > 1) x = cluster_reduce(x, op, shared, at.blocks, exchange);
    }
    return x;
  }
}

/// Host side: V = 16 bytes of T when the width and every pointer allow it, else 1; the smallest
/// group of 32, 64 or 128 threads that holds the row in one round; else a cluster of 1 to 8
/// blocks per row, holding it in registers; one streaming block per row beyond that.
struct RowPlan {
  int vec = 1;
  int threads_per_row = 32;
  bool cached = true;
  unsigned cluster = 1;  ///< blocks per row (cached rows of whole blocks)
  [[nodiscard]] unsigned blocks(std::size_t rows) const {
    std::size_t const per_block = std::size_t(row_block_threads / threads_per_row);
    std::size_t const b = (rows + per_block - 1) / per_block * cluster;
    if (b > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.count]: too many rows for one launch");
    return unsigned(b);
  }
  [[nodiscard]] host::LaunchConfig launch_config(std::size_t rows, cudaStream_t stream) const {
    host::LaunchConfig config;
    config.grid = dim3(blocks(rows));
    config.block = dim3(row_block_threads);
    config.cluster = dim3(cluster);
    config.stream = stream;
    return config;
  }
};

/// The plan for rows of `width` elements of T ([rows.width]: at most 2^31 - 1). With
/// hold_block_rows false, a row wider than a group streams through one block (no cluster, not
/// held in registers): for kernels that read each element once.
template <class T>
RowPlan plan_rows(std::size_t width, bool pointers_aligned, bool hold_block_rows = true) {
  if (width > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.width]: rows are at most 2^31 - 1 elements");
  RowPlan p;
  int const full = int(16 / sizeof(T));
  p.vec = (width % std::size_t(full) == 0 && pointers_aligned) ? full : 1;
  std::size_t const per_thread = std::size_t(p.vec) * row_slots;
  // NOTE: groups of 64 and 128 threads (2 to 4 rows per block) for the widths between a warp's
  // and a block's: a block per row held only 1 or 2 of its 4 vectors a thread there. H200, bf16,
  // 131072 x 2048, block per row -> groups of 64, of a device copy: rmsnorm 0.70 -> 0.99,
  // softmax 0.62 -> 1.00, reduce 0.63 -> 0.98; 65536 x 4096 (groups of 128): rmsnorm 0.93 ->
  // 0.99. Scalar rows (vec 1: odd widths, misaligned pointers) take warps or blocks only.
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
    // only when one block cannot hold the row: H200, rmsnorm bf16 16384 x 8192 split over 2
    // blocks ran at 0.66 of a device copy against 0.94 in one; rows in registers over 8
    // blocks (4096 x 65536) 0.88, against 0.64 streamed and read twice.
    while (p.cluster < needed && p.cluster < unsigned(row_max_cluster)) p.cluster *= 2;
    p.cached = needed <= p.cluster;
    if (!p.cached) p.cluster = 1;
  }
  return p;
}

/// Calls f.template operator()<Config>() with the RowConfig matching the plan for rows of T (8
/// instantiations: groups of 64 and 128 threads for 16-byte vectors only).
template <class T, class F>
void dispatch_rows(RowPlan const& p, F&& f) {
  constexpr int Full = int(16 / sizeof(T));
  auto pick = [&]<int V>() {
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

}  // namespace cute_cpp::examples
