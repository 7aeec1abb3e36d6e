// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row-wise kernels' shared machinery (rmsnorm, softmax, reduce): a row of `width` elements is
// read by a group of ThreadsPerRow threads (a warp, or the whole block) as V-element vectors;
// with Cached, the row is held in registers (Slots vectors per thread) between passes, otherwise
// each pass reads it again. RowPlan picks the configuration on the host.
#include <cute_cpp/plan/verify_plan.hpp>
#include <cute_cpp/tensor.hpp>  // RegisterTile, warp_reduce, block_reduce

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace cute_cpp::examples {

inline constexpr int row_block_threads = 256;

/// The static plan of the row kernels (rmsnorm, softmax, reduce), for verify_plan: 256 threads
/// and the 32 floats of a block reduction's scratch.
struct RowKernelPlan {
  static constexpr int threads = row_block_threads;
  static constexpr std::size_t smem_bytes = 32 * sizeof(float);
};
inline constexpr int row_slots = 4;  // vectors per thread held in registers when cached

/// The compile-time shape of a row kernel: V elements per access, ThreadsPerRow threads per row,
/// and whether the row stays in registers (width <= ThreadsPerRow * V * row_slots).
template <int V, int ThreadsPerRow, bool Cached>
struct RowConfig {
  static constexpr int vec = V;
  static constexpr int threads_per_row = ThreadsPerRow;
  static constexpr bool cached = Cached;
  static constexpr int rows_per_block = row_block_threads / ThreadsPerRow;
};

/// The sum / max of x over the threads of one row group (a warp, or the whole block).
template <int ThreadsPerRow, class Op>
__device__ __forceinline__ float row_reduce(float x, Op op, float identity, float* scratch) {
  if constexpr (ThreadsPerRow == 32) return warp_reduce(x, op);
  else return block_reduce<ThreadsPerRow>(x, op, identity, scratch);
}

/// Calls f(tile, element_index) for every vector of the row the calling thread owns, loading it
/// (cached: from registers after the first load). Vectors are strided by ThreadsPerRow so that a
/// warp's accesses are contiguous.
template <class T, class Config>
struct RowReader {
  using Tile = RegisterTile<T, Config::vec>;
  static constexpr int span = Config::threads_per_row * Config::vec;  // elements per slot round
  Tile slot[Config::cached ? row_slots : 1];
  T const* row;
  int width;
  int lane;

  __device__ __forceinline__ RowReader(T const* row_ptr, int w, int l) : row(row_ptr), width(w), lane(l) {}

  template <class F>
  __device__ __forceinline__ void load_each(F&& f) {
    if constexpr (Config::cached) {
#pragma unroll
      for (int s = 0; s < row_slots; ++s) {
        int const e = s * span + lane * Config::vec;
        if (e < width) {
          slot[s] = Tile::template load_vector<Config::vec>(row + e);
          f(slot[s], e);
        }
      }
    } else {
      for (int e = lane * Config::vec; e < width; e += span) f(Tile::template load_vector<Config::vec>(row + e), e);
    }
  }
  /// The second pass: registers when cached, memory (L2) otherwise.
  template <class F>
  __device__ __forceinline__ void reuse_each(F&& f) {
    if constexpr (Config::cached) {
#pragma unroll
      for (int s = 0; s < row_slots; ++s) {
        int const e = s * span + lane * Config::vec;
        if (e < width) f(slot[s], e);
      }
    } else {
      load_each(f);
    }
  }
};

/// Host side: V = 16 bytes of T when the width and every pointer allow it, else 1; a warp per
/// row for narrow rows, the block for wide ones; cached when the row fits the registers.
struct RowPlan {
  int vec = 1;
  int threads_per_row = 32;
  bool cached = true;
  [[nodiscard]] unsigned blocks(std::size_t rows) const {
    std::size_t const per_block = std::size_t(row_block_threads / threads_per_row);
    std::size_t const b = (rows + per_block - 1) / per_block;
    if (b > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.count]: too many rows for one launch");
    return unsigned(b);
  }
};

inline bool aligned16(void const* p) { return p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class T>
RowPlan plan_rows(std::size_t width, bool pointers_aligned) {
  RowPlan p;
  int const full = int(16 / sizeof(T));
  p.vec = (width % std::size_t(full) == 0 && pointers_aligned) ? full : 1;
  std::size_t const warp_cap = std::size_t(32) * p.vec * row_slots;
  if (width <= warp_cap) {
    p.threads_per_row = 32;
    p.cached = true;
  } else {
    p.threads_per_row = row_block_threads;
    p.cached = width <= std::size_t(row_block_threads) * p.vec * row_slots;
  }
  return p;
}

/// Calls f.template operator()<Config>() with the RowConfig matching the plan (6 instantiations).
template <int Full, class F>
void dispatch_rows(RowPlan const& p, F&& f) {
  auto pick = [&]<int V>() {
    if (p.threads_per_row == 32) f.template operator()<RowConfig<V, 32, true>>();
    else if (p.cached) f.template operator()<RowConfig<V, row_block_threads, true>>();
    else f.template operator()<RowConfig<V, row_block_threads, false>>();
  };
  if (p.vec == Full) pick.template operator()<Full>();
  else pick.template operator()<1>();
}

}  // namespace cute_cpp::examples
