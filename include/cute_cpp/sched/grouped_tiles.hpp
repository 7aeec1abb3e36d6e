// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Grouped problems (MoE experts): G groups share N and K, each with its own rows of A and C and
// its own B. The rows of a group are found on the device, from one of two descriptions:
//   contiguous  the groups' rows packed one after another; offsets[g] is where group g ends
//               (PyTorch's _grouped_mm `offs`): group g is rows [offsets[g-1], offsets[g]);
//   masked      a fixed capacity of rows per group and a device array of how many are used:
//               group g is rows [g * capacity, g * capacity + counts[g]) (CUDA-graph friendly
//               decode: the host never reads the counts);
//   pointers    masked rows, each group's operands in memory of its own (device arrays of
//               pointers, GroupedPointers): group g is rows [0, counts[g]) of its own A and C.
// A persistent scheduler walks a fixed number of tile rows, known on the host from the bound
// (every group adds at most one ragged tile row); a prepare step on the device writes, for each
// tile row of the walk, which group it belongs to and where, and marks the rows past the last
// group's end empty. Each group gets its own TMA descriptors, patched on the device
// (tensormap.replace), whose row extent ends at the group's end, so loads past a group's rows read
// zeros and stores past them are dropped.
// CuTeDSL: the Hopper grouped_gemm example (its tensormap update and group search); this walks a
// table instead of searching the groups per tile.
#include <cute_cpp/config.hpp>

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/fence.hpp>
#endif

namespace cute_cpp {

/// How a grouped problem's rows are given (see the file comment): exactly one of offsets and counts.
struct GroupedRows {
  std::int32_t groups = 0;
  std::int32_t const* offsets = nullptr;  ///< contiguous: the end row of each group, non-decreasing
  std::int32_t const* counts = nullptr;   ///< masked: the rows each group uses, at most capacity
  std::int64_t capacity = 0;              ///< masked: the rows set aside per group
  std::int64_t rows = 0;                  ///< rows of A and C (contiguous: at least offsets[G-1]; masked: G * capacity)
  [[nodiscard]] CUTE_CPP_HD constexpr bool masked() const { return counts != nullptr; }
  /// Tile rows of `block_m` the walk takes: enough for any valid description.
  [[nodiscard]] constexpr std::int64_t tile_rows(int block_m) const {
    return masked() ? std::int64_t(groups) * ((capacity + block_m - 1) / block_m) : rows / block_m + groups;
  }
};

/// Pointer-array groups: device arrays of each group's A, B and C (G pointers each).
struct GroupedPointers {
  void const* const* a = nullptr;
  void const* const* b = nullptr;
  void* const* c = nullptr;
  [[nodiscard]] CUTE_CPP_HD constexpr bool given() const { return a != nullptr || b != nullptr || c != nullptr; }
};

/// One tile row of the walk: its group (-1: empty, past the last group), its first row within
/// the group, and the group's rows.
struct alignas(16) GroupedTileRow {
  std::int32_t group = -1;
  std::int32_t row0 = 0;
  std::int32_t rows = 0;
  std::int32_t first_row = 0;  ///< the group's first row in A and C
};

/// What the prepare step found wrong with a description (code 0: nothing); the GEMM then computes
/// nothing and the host reads it back (grouped_gemm_status).
struct GroupedStatus {
  enum Code : std::int32_t {
    ok = 0,
    offsets_decrease = 1,
    offsets_past_rows = 2,
    count_negative = 3,
    count_over_capacity = 4,
    pointer_misaligned = 5,  ///< a pointer-array group's A, B or C is not 16-byte aligned (TMA)
  };
  std::int32_t code = ok;
  std::int32_t group = 0;
  std::int64_t value = 0;  ///< the offending offset or count
};

/// Group g's rows, [first, first + rows), and what is wrong with them (GroupedStatus::ok if nothing).
struct GroupRows {
  std::int64_t first = 0, rows = 0;
  std::int32_t error = GroupedStatus::ok;
  std::int64_t value = 0;
};

#if defined(__CUDACC__)
/// Reads group g's rows from the description; rows that would be invalid are reported and count as 0.
__device__ __forceinline__ GroupRows group_rows(GroupedRows const& d, std::int32_t g) {
  GroupRows r;
  if (d.masked()) {
    std::int64_t const count = d.counts[g];
    r.first = std::int64_t(g) * d.capacity;
    r.rows = count;
    if (count < 0) r.error = GroupedStatus::count_negative;
    else if (count > d.capacity) r.error = GroupedStatus::count_over_capacity;
    r.value = count;
  } else {
    std::int64_t const begin = g > 0 ? d.offsets[g - 1] : 0, end = d.offsets[g];
    r.first = begin;
    r.rows = end - begin;
    if (end < begin) r.error = GroupedStatus::offsets_decrease;
    else if (end > d.rows) r.error = GroupedStatus::offsets_past_rows;
    r.value = end;
  }
  if (r.error != GroupedStatus::ok) r.rows = 0;
  return r;
}
#endif

/// The tile rows and per-group descriptors the GEMM kernel reads (written by the prepare step).
struct GroupedTiles {
  GroupedTileRow const* rows = nullptr;  ///< one per tile row of the walk
  std::byte const* maps = nullptr;       ///< per group, `maps_per_group` 128-byte tensor maps
  static constexpr int maps_per_group = 3;  ///< A, B, C

#if defined(__CUDACC__)
  [[nodiscard]] __device__ __forceinline__ GroupedTileRow row(std::int32_t tile_m) const {
    return rows[tile_m];
  }
  /// Group g's map `which` (0: A, 1: B, 2: C); the thread that issues TMA with it acquires it first.
  template <class Map>
  [[nodiscard]] __device__ __forceinline__ Map const* map(std::int32_t g, int which) const {
    return reinterpret_cast<Map const*>(maps + (std::size_t(g) * maps_per_group + which) * 128);
  }
  /// Makes a map the prepare step wrote visible to this thread's TMA operations.
  __device__ __forceinline__ static void acquire(void const* map) { ctm::fence_proxy_tensormap_generic_acquire_gpu(map); }
#endif
};

}  // namespace cute_cpp
