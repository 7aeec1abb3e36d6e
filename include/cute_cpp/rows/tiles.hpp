// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// RowTiles: one thread's round of a row in registers (Slots vectors of V elements, laid out by a
// RowWalk), loaded from global memory with every load of the round in flight before any value is
// used, and handed out as RegisterTiles. CuTeDSL: the register fragment and
// cute.copy(CopyUniversalOp, ...) with a predicate tensor of its rmsnorm/softmax examples.
#include <cute_cpp/tensor/register_tile.hpp>  // RegisterTile
#include <cute_cpp/rows/config.hpp>           // row_slots
#include <cute_cpp/rows/walk.hpp>             // RowWalk

#include <type_traits>

#if defined(__CUDACC__)
namespace cute_cpp {

/// A round of one thread's vectors of a row, in registers; tiles[s] gives vector s as a
/// RegisterTile<T, V>. Entries outside the row are never loaded nor handed to `each`.
///   RowTiles<bf16, 8> xs; xs.load(x_row, walk, base); xs.each(walk, base, [&](int s, int e) { ... xs[s] ... });
template <class T, int V, int Slots = row_slots>
struct RowTiles {
  using Tile = RegisterTile<T, V>;
  // NOTE: a 16-byte vector is held as four 32-bit words and turned into a RegisterTile where it
  // is used: held as RegisterTile<bf16, 8> across a conditional load, nvcc kept every bf16 in a
  // register of its own (rmsnorm bf16: 80 registers a thread, against 48 for f16).
  using Raw = std::conditional_t<sizeof(Tile) == 16, uint4, Tile>;
  static constexpr int slots = Slots;
  Raw raw[Slots];

  /// Loads the round's vectors that lie inside the row.
  /// NOTE: every load is issued before any value is used: computing on each vector before
  /// loading the next leaves one 16-byte load per thread in flight, too few to cover the
  /// latency of HBM (kernels/rows/rmsnorm.md has the figures).
  __device__ __forceinline__ void load(T const* row, RowWalk const& w, unsigned base) {
#pragma unroll
    for (int s = 0; s < Slots; ++s) {
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
    for (int s = 0; s < Slots; ++s) {
      unsigned const e = w.element(s, base);
      if (e < w.width) f(s, int(e));  // below the width, so below 2^31
    }
  }
};

}  // namespace cute_cpp
#endif
