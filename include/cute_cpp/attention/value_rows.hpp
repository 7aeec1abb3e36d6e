// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Zeroing the rows of a V tile past a sequence's end. A paged cache's last page holds slots past
// the sequence, whose P is 0 but whose V may be anything: 0 x NaN is NaN in O += P V, so those rows
// are zeroed in shared memory before the wgmma reads them.
#include <cute_cpp/config.hpp>

namespace cute_cpp {

#if defined(__CUDACC__)
/// Zeroes rows [first, BlockN) of an M/N-major V tile of HeadDimV x BlockN elements of T (64-column
/// boxes of BlockN rows; each row is 128 bytes of its box, whatever the swizzle), shared among
/// `threads` threads (`thread`: 0 .. threads). The caller then fences for the async proxy and syncs.
template <class T, int HeadDimV, int BlockN>
__device__ __forceinline__ void zero_value_rows_from(T* v_tile, int first, int thread, int threads) {
  static_assert(sizeof(T) == 2, "cute-cpp [attention.value-rows]: 16-bit V tiles (64 elements per 128-byte row)");
  constexpr int boxes = HeadDimV / 64, units_per_row = 8;  // 16-byte units of a 128-byte row
  int const rows = BlockN - max(first, 0);
  auto* const base = reinterpret_cast<int4*>(v_tile);
  for (int u = thread; u < boxes * rows * units_per_row; u += threads) {
    int const box = u / (rows * units_per_row), rest = u % (rows * units_per_row);
    int const row = max(first, 0) + rest / units_per_row, unit = rest % units_per_row;
    base[(box * BlockN + row) * units_per_row + unit] = make_int4(0, 0, 0, 0);
  }
}
#endif

}  // namespace cute_cpp
