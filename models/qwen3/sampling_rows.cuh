// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/sampling_rows.cuh: what sampling.cu's kernels share: the launch's sizes, a logit's order
// key and fixed-point weight, the blocks of a row's cluster (their shared memory and barrier), and a
// block's part of its row (one device's row-major logits, or the ranks' gathered shards) with its
// 16-byte walk over the ids. Private to sampling.cu, the one file that includes it: like the kernels,
// it is in an unnamed namespace, so that nothing here is visible to another translation unit.
#include "models/qwen3/sampling.hpp"

#include <cute_cpp/arch/cluster.hpp>  // cluster_arrive_relaxed, cluster_wait, cluster_sync, map_to_block_in_cluster

#include <cuda_runtime.h>

#include <algorithm>  // std::min
#include <cstdint>

namespace cute_cpp::models {
namespace {  // NOLINT(google-build-namespaces): one including file, sampling.cu (above)

using u64 = unsigned long long;  // the type CUDA's 64-bit atomics and shuffles take
static_assert(sizeof(u64) == sizeof(std::uint64_t));

constexpr int block_threads = 512;
constexpr int warps = block_threads / 32;
constexpr int max_blocks_per_row = 8;      // the portable cluster size
constexpr int min_ids_per_block = 4096;    // shorter rows take fewer blocks
constexpr int loads_in_flight = 4;         // 16-byte loads per thread issued before the first is used
constexpr int bins = 256;                  // a histogram over one byte of the key
constexpr u64 weight_one = u64(1) << 40;   // the weight of the largest logit
constexpr int max_vocab = 1 << 23;         // so that vocab * weight_one < 2^63
constexpr int max_rows = 1 << 20;          // so that rows * blocks fits the grid

/// Blocks per row: a cluster of up to 8 blocks of at least min_ids_per_block ids each.
constexpr int blocks_per_row(int vocab) {
  return std::min(max_blocks_per_row, (vocab + min_ids_per_block - 1) / min_ids_per_block);
}

// ---- keys and weights ----

/// The order key of a bf16 logit, from its bits: larger logits give larger keys, -0 and +0 the same
/// key, and NaN key 0, below -inf's (0x007F). Valid keys lie in [0x007F, 0xFF80].
__device__ __forceinline__ unsigned logit_key(unsigned bits) {
  if ((bits & 0x7FFFu) > 0x7F80u) return 0;  // NaN
  if (bits == 0x8000u) bits = 0;             // -0 sorts with +0
  return (bits & 0x8000u) ? (~bits & 0xFFFFu) : (bits | 0x8000u);
}

/// The logit of a valid key, as a float (exactly).
__device__ __forceinline__ float key_logit(unsigned key) {
  unsigned const bits = (key & 0x8000u) ? (key & 0x7FFFu) : (~key & 0xFFFFu);
  return __uint_as_float(bits << 16);
}

/// The weight of a logit x: exp((x - max) / temperature) in fp32, held as an integer count of 2^-40,
/// so that sums of weights are exact and do not depend on the order of the additions: every cut and
/// every draw is reproducible. NOTE: a weight below 2^-41 (x more than 28.4 temperatures below the
/// max) is 0, and its token is never drawn: its probability would be below 5e-13.
struct Weights {
  float largest;  // the row's largest logit
  float temperature;

  __device__ u64 operator()(unsigned key) const {
    float const x = key_logit(key);
    if (x == largest) return weight_one;  // also when it is +-inf, where x - largest is NaN
    return __float2ull_rn(expf((x - largest) / temperature) * 0x1p40f);
  }
};

/// The tokens kept: every valid key above `key`, and the first `ties` ids (the smallest) whose key is
/// `key`. {0, 0} keeps every token that is not NaN.
struct Cut {
  unsigned key;
  unsigned ties;
};

// ---- the row's blocks ----

/// The variable at `local` (this block's shared memory) in block `rank` of the row's cluster.
template <class T>
__device__ __forceinline__ T* in_block(T* local, unsigned rank, unsigned blocks) {
  return blocks == 1 ? local : arch::map_to_block_in_cluster(local, rank);
}

/// A barrier for every thread of the row's blocks: their shared-memory writes before it are seen after it.
__device__ __forceinline__ void row_barrier(unsigned blocks) {
  if (blocks > 1) {
    __syncwarp();  // the .aligned cluster barrier wants the warp converged; a thread may come from a walk
    arch::cluster_sync();
  } else {
    __syncthreads();
  }
}

/// Calls visit(id, key) for this thread's share of the ids [begin, end) of `row`, block-strided:
/// 16-byte loads of 8 ids, loads_in_flight of them issued before any is used (one at a time would
/// leave the block waiting on L2 or DRAM), one id each before the first 16-byte boundary and after
/// the last. Every thread makes the same number of calls, so `visit` may use warp collectives; a
/// call for no id, like a NaN logit, has key 0.
template <class Visit>
__device__ __forceinline__ void for_each_key(std::uint16_t const* __restrict__ row, int begin, int end, Visit&& visit) {
  int const t = int(threadIdx.x);
  int const to_boundary = int((16u - (reinterpret_cast<std::uintptr_t>(row + begin) & 15u)) & 15u) / 2;
  int const head = min(to_boundary, end - begin);
  int const body_begin = begin + head;
  int const vectors = (end - body_begin) / 8;
  int const tail_begin = body_begin + vectors * 8;
  visit(begin + t, t < head ? logit_key(row[begin + t]) : 0u);
  uint4 const* const body = reinterpret_cast<uint4 const*>(row + body_begin);
  for (int base = 0; base < vectors; base += block_threads * loads_in_flight) {
    uint4 v[loads_in_flight];
#pragma unroll
    for (int u = 0; u < loads_in_flight; ++u) {
      int const i = base + u * block_threads + t;
      v[u] = i < vectors ? __ldg(body + i) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < loads_in_flight; ++u) {
      int const i = base + u * block_threads + t;
      unsigned const words[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
#pragma unroll
      for (int j = 0; j < 8; ++j)
        visit(body_begin + 8 * i + j, i < vectors ? logit_key((words[j / 2] >> (16 * (j % 2))) & 0xFFFFu) : 0u);
    }
  }
  visit(tail_begin + t, t < end - tail_begin ? logit_key(row[tail_begin + t]) : 0u);
}

// ---- a block's part of its row ----

/// This block's part of its row: the ids [begin, end) of row `index` (logits `x`), one of `blocks`,
/// in a row-major buffer (one device).
struct RowPart {
  std::uint16_t const* x;
  int index;
  int begin, end;
  unsigned blocks, rank;
  template <class Visit>
  __device__ __forceinline__ void for_each(Visit&& visit) const {
    for_each_key(x, begin, end, visit);
  }
  __device__ __forceinline__ std::uint16_t at(int id) const { return x[id]; }
};

/// The same part of a row of all-gathered tensor-parallel logits (vocab_shards.hpp's LogitsLayout):
/// x is the buffer's start, and the logit of id is at logit_offset(layout, index, id). The padding
/// columns past the vocabulary (the last shard's) are never visited: ids stop at vocab.
struct ShardedRowPart : RowPart {
  LogitsLayout layout;
  /// for_each_key over each shard's piece of [begin, end) in id order (shard_ids), each piece
  /// contiguous: every thread makes the same calls (the pieces depend on the block's range alone),
  /// as for_each_key needs.
  template <class Visit>
  __device__ __forceinline__ void for_each(Visit&& visit) const {
    if (begin >= end) return for_each_key(x, begin, end, visit);
    for (std::int64_t q = begin / layout.shard_cols; q <= (end - 1) / layout.shard_cols; ++q) {
      IdRange const ids = shard_ids(layout, q, begin, end);
      // Indexed by id: the piece's pointer is offset back by its first id.
      for_each_key(x + (logit_offset(layout, index, ids.lo) - ids.lo), int(ids.lo), int(ids.hi), visit);
    }
  }
  __device__ __forceinline__ std::uint16_t at(int id) const { return x[logit_offset(layout, index, id)]; }
};

/// This block's part of row blockIdx.x / blocks: RowPart, or ShardedRowPart with the layout's shards.
template <bool Sharded>
__device__ __forceinline__ auto row_part(std::uint16_t const* logits, std::int64_t ld, int vocab,
                                         LogitsLayout const& layout) {
  unsigned const blocks = arch::cluster_size(), rank = arch::block_rank_in_cluster();
  int const index = int(blockIdx.x / blocks);
  int const chunk = ((vocab + int(blocks) - 1) / int(blocks) + 7) / 8 * 8;
  int const begin = min(vocab, int(rank) * chunk), end = min(vocab, int(rank + 1) * chunk);
  if constexpr (Sharded) {
    return ShardedRowPart{{logits, index, begin, end, blocks, rank}, layout};
  } else {
    return RowPart{logits + index * ld, index, begin, end, blocks, rank};
  }
}

}  // namespace
}  // namespace cute_cpp::models
