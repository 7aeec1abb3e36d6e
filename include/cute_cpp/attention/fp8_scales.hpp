// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The arithmetic of the FP8 (e4m3) attention forward that host and device share: where a
// (sequence, kv head)'s descale factors lie, the fixed scale P is quantized with, and the order of
// the keys in P's wgmma A fragment (and so in Vᵀ's shared-memory rows), and the lanes' roles in
// V's transpose. Plain C++: the CPU tests check it with g++.
#include <cute_cpp/config.hpp>

#include <cstdint>

namespace cute_cpp {

/// Where q_descale, k_descale and v_descale hold their factors (FlashAttention-3's API: float
/// pointers): one float for the whole tensor, or one per (sequence, kv head), [batch, heads_kv]
/// row-major. A null pointer is a factor of 1.
enum class Fp8DescaleLayout : std::int32_t { per_tensor = 0, per_kv_head = 1 };

/// The index of sequence `batch`'s kv head `kv_head`'s factor.
CUTE_CPP_HD constexpr std::int64_t fp8_descale_index(Fp8DescaleLayout layout, std::int32_t batch,
                                                     std::int32_t kv_head, std::int32_t heads_kv) {
  return layout == Fp8DescaleLayout::per_kv_head ? std::int64_t(batch) * heads_kv + kv_head : 0;
}

/// How many floats each descale array holds for a problem of `batch` sequences and `heads_kv` kv heads.
CUTE_CPP_HD constexpr std::int64_t fp8_descale_count(Fp8DescaleLayout layout, std::int32_t batch,
                                                     std::int32_t heads_kv) {
  return layout == Fp8DescaleLayout::per_kv_head ? std::int64_t(batch) * heads_kv : 1;
}

/// P = 2^(scale_log2 (s - max)) lies in [0, 1]; it is quantized to e4m3 as P · 2^fp8_p_log2_max
/// (at most 256, below e4m3's 448), so values down to 2^-17 stay representable (e4m3's smallest
/// subnormal is 2^-9) and every P above 2^-14 keeps e4m3's 3 mantissa bits. The row sums are
/// taken of the same scaled values (in float, before rounding), so the scale cancels in O / sum.
inline constexpr int fp8_p_log2_max = 8;

/// The relative rounding error bound of e4m3 round-to-nearest for normal values (3 mantissa bits):
/// half an ulp, 2^-4. The GPU check's tolerance on O is built from it.
inline constexpr double fp8_e4m3_half_ulp = 1.0 / 16.0;

/// The key that logical column `k` of P's wgmma A fragment (m64nNk32, 8-bit A from registers)
/// holds, within each 32-key k-slice. The A fragment gives a thread row r's columns 4t .. 4t + 3
/// and 16 + 4t .. 16 + 4t + 3 (t = lane % 4); the S accumulator it is converted from holds row
/// r's columns 2t, 2t + 1, 8 + 2t, 9 + 2t, 16 + 2t, .... Rather than move bytes between threads,
/// P's columns are taken in the accumulator's order, so logical column 4t + i of each 16 is key
/// 2t + (i % 2) + 8 (i / 2), and Vᵀ's rows hold their keys in that same order (the producer's
/// transpose writes them so): 0 1 8 9 2 3 10 11 4 5 12 13 6 7 14 15.
CUTE_CPP_HD constexpr int fp8_p_key(int k) {
  int const j = k % 16, t = j / 4, i = j % 4;
  return k - j + 2 * t + (i % 2) + 8 * (i / 2);
}

/// Which of a thread's 16 accumulator values of a 32-column k-slice (jj = c + 2 h + 4 b: row half
/// h, column 8 b + 2 t + c) byte `byte` of P's A register `reg` takes (make_a_fragment): register
/// 0 row r's logical columns 4t .. 4t + 3 (keys 2t, 2t + 1, 8 + 2t, 9 + 2t), 1 row r + 8's, 2 and 3
/// the same 16 keys on.
CUTE_CPP_HD constexpr int fp8_a_value(int reg, int byte) {
  return byte % 2 + 4 * (byte / 2) + 2 * (reg % 2) + 8 * (reg / 2);
}

/// The byte offset of 16-byte unit `unit` (0 .. D / 16) of row `row` of an e4m3 tile TMA wrote as
/// boxes of Rows rows of RowBytes (64 or 128) bytes, swizzled at RowBytes (the swizzle xors the unit
/// with the row's bits above 128 bytes: row % 8 for 128-byte rows, row / 2 % 4 for 64-byte rows).
/// NOTE: unsigned arithmetic: the kernel's rows and units are never negative, and signed division
/// costs sign fix-ups.
template <int Rows, int RowBytes>
CUTE_CPP_HD constexpr unsigned fp8_tile_unit_offset(unsigned row, unsigned unit) {
  static_assert(RowBytes == 64 || RowBytes == 128, "cute-cpp [attention.fp8.transpose]: e4m3 rows of 64 or 128 bytes");
  constexpr unsigned units = RowBytes / 16;
  return (unit / units * Rows + row) * RowBytes + ((unit % units) ^ ((row * RowBytes >> 7) & (units - 1))) * 16;
}

/// The lanes' roles in transpose_e4m3_values (value_transpose.hpp; here for the CPU test's model):
/// the row lane `lane` addresses for ldmatrix.x4.trans (key within the 16-key group, 16-byte unit
/// within the 32-dim piece) and for stmatrix.x4 (Vᵀ row within the piece), and the byte selectors
/// whose results go to stmatrix's matrices 0 and 1 (2 and 3 alike, from the next 16 dims).
struct Fp8TransposeLane {
  unsigned load_key, load_unit, store_dim;
  unsigned sel_a, sel_b;
};
CUTE_CPP_HD constexpr Fp8TransposeLane fp8_transpose_lane(unsigned lane) {
  unsigned const i = lane / 8, j = lane % 8;
  bool const low = lane / 4 < 4;
  return {8 * (i % 2) + j, i / 2, 16 * (i / 2) + (j < 4 ? 2 * j + i % 2 : 2 * j + 1 - i % 2), low ? 0x6420u : 0x7531u,
          low ? 0x7531u : 0x6420u};
}

}  // namespace cute_cpp
