// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Widening an FP8 (e4m3) K or V tile to 16 bits in registers. An FP8 KV cache is streamed at half
// the bytes, but wgmma cannot read it as it is: its FP8 forms take both operands in FP8 and
// K-major, and V in O += P V is M/N-major. So decode transposes its products (Sᵀ = K Qᵀ,
// Oᵀ += Vᵀ Pᵀ): K and V become wgmma's A, which may come from registers; ldmatrix reads the e4m3
// tile as b16 pairs (transposed for V) and each pair of bytes widens to a pair of 16-bit values
// in the A fragment's place, with the reduction's order permuted to match (Qᵀ's columns, Oᵀ's rows).
// CuTeDSL: no library counterpart (its FP8 attention examples quantize Q and P instead).
#include <ctm/common/config.hpp>  // cvta_to_shared_u32
#include <ctm/common/cvt.hpp>
#include <ctm/common/ldmatrix.hpp>
#include <cute_cpp/config.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp {

#if defined(__CUDACC__)
/// Four e4m3 bytes (the first in the low byte) as two pairs of T (bf16 or f16), exactly; every
/// byte widens to a finite value or zero except NaN (0x7F, 0xFF), which is a NaN in f16 and
/// finite in bf16. f16 holds every e4m3 value as a normal number, so cvt widens to f16 and bf16
/// takes f16's bits with the exponent rebased (a multiply by 2^112, exact: no operand is subnormal).
template <class T>
__device__ __forceinline__ uint2 widen_e4m3x4(std::uint32_t bytes) {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "cute-cpp [attention.fp8-kv]: e4m3 widens to bf16 or f16");
  std::uint32_t const lo = ctm::cvt_rn_f16x2_e4m3x2(std::uint16_t(bytes));
  std::uint32_t const hi = ctm::cvt_rn_f16x2_e4m3x2(std::uint16_t(bytes >> 16));
  if constexpr (std::is_same_v<T, __half>) {
    return make_uint2(lo, hi);
  } else {
    auto const rebase = [](std::uint32_t h) {
      std::uint32_t const bits = ((h >> 3) & 0x0FFF0FFFu) | (h & 0x80008000u);
      __nv_bfloat162 const x = *reinterpret_cast<__nv_bfloat162 const*>(&bits);
      __nv_bfloat162 const y = __hmul2(x, __nv_bfloat162(__ushort_as_bfloat16(0x7780), __ushort_as_bfloat16(0x7780)));
      return *reinterpret_cast<std::uint32_t const*>(&y);
    };
    return make_uint2(rebase(lo), rebase(hi));
  }
}

/// The shared address of a TMA-written e4m3 tile's 16-byte unit: `unit` (0 .. Cols / 16) of row
/// `row`. TMA wrote the tile as Cols / 128 boxes of Rows rows of 128 bytes, 128-byte swizzled.
template <int Rows>
__device__ __forceinline__ void const* e4m3_unit(void const* tile, int row, int unit) {
  return static_cast<char const*>(tile) + (unit / 8 * Rows + row) * 128 + ((unit % 8) ^ (row % 8)) * 16;
}

/// K as wgmma's A in Sᵀ = K Qᵀ (rows: keys; k: the head dim), for this warp's 16 keys of the
/// 64-key atom at `key0` and the k-slices `slice` and `slice + 1` (16 columns each): `a` gets
/// their four registers each, widened to T (`thread`: 0 .. 127 in the warpgroup). One ldmatrix reads 16 bytes of each key as b16
/// pairs, so this thread's 4 bytes of a row hold logical columns 2q, 2q + 1, 2q + 8, 2q + 9 of the
/// slice (q = lane % 4): Qᵀ is laid out in that order (e4m3_key_column).
template <class T, int Rows>
__device__ __forceinline__ void e4m3_keys_a(void const* tile, int key0, int slice, int thread,
                                            std::uint32_t (&a)[2][4]) {
  int const m = thread % 32 / 8, key = key0 + 16 * (thread / 32 % 4) + 8 * (m & 1) + thread % 8;
  std::uint32_t d[4];
  ctm::ldmatrix_x4(d[0], d[1], d[2], d[3], e4m3_unit<Rows>(tile, key, slice + (m >> 1)));
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    uint2 const r = widen_e4m3x4<T>(d[2 * s]), r8 = widen_e4m3x4<T>(d[2 * s + 1]);
    a[s][0] = r.x;  // keys r, r + 8; columns 2q, 2q + 1 (bytes 0, 1) and 2q + 8, 2q + 9 (bytes 2, 3)
    a[s][1] = r8.x;
    a[s][2] = r.y;
    a[s][3] = r8.y;
  }
}

/// The head-dim column of K that logical column `k` of Sᵀ = K Qᵀ's reduction reads
/// (e4m3_keys_a's order): within each 16, 0 1 4 5 8 9 12 13 2 3 6 7 10 11 14 15.
CUTE_CPP_HD constexpr int e4m3_key_column(int k) {
  int const j = k % 16;
  return k - j + 4 * (j % 8 / 2) + j % 2 + (j >= 8 ? 2 : 0);
}

/// V as wgmma's A in Oᵀ += Vᵀ Pᵀ (rows: head-dim columns; k: keys), for this warp's 16 columns of
/// the 64-column atom `atom` and the keys of k-slices `slice` and `slice + 1`: `a` gets their four
/// registers each, widened to T (`thread` as above). ldmatrix.trans reads each key's 16 bytes as 8 b16 pairs and
/// hands this thread, per key, the pair of columns 2p, 2p + 1 (p = lane / 4): so the thread's rows
/// r and r + 8 of the atom are columns 16 (4 atom + warp) + 2p and + 1 (e4m3_value_column).
template <class T, int Rows>
__device__ __forceinline__ void e4m3_values_a(void const* tile, int atom, int slice, int thread,
                                              std::uint32_t (&a)[2][4]) {
  int const unit = 4 * atom + thread / 32 % 4, key = 16 * slice + 8 * (thread % 32 / 8) + thread % 8;
  std::uint32_t d[4];
  ctm::ldmatrix_x4_trans(d[0], d[1], d[2], d[3], e4m3_unit<Rows>(tile, key, unit));
#pragma unroll
  for (int s = 0; s < 2; ++s) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      // Bytes (key 2q, column 2p), (2q, 2p + 1), (2q + 1, 2p), (2q + 1, 2p + 1): regrouped by column.
      uint2 const r = widen_e4m3x4<T>(__byte_perm(d[2 * s + h], 0, 0x3120));
      a[s][2 * h] = r.x;
      a[s][2 * h + 1] = r.y;
    }
  }
}

/// The head-dim column of V that row `m` of Oᵀ += Vᵀ Pᵀ holds (e4m3_values_a's order).
CUTE_CPP_HD constexpr int e4m3_value_column(int m) {
  int const in16 = m % 16;
  return m - in16 + 2 * (in16 % 8) + in16 / 8;
}
#endif

}  // namespace cute_cpp
