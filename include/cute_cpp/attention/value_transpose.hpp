// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Vᵀ for the FP8 attention forward. 8-bit wgmma reads B K-major only, and in O += P V the K is the
// keys, so V ([keys, dim], dim contiguous, as TMA loads it) is transposed in shared memory by the
// producer warps: ldmatrix.trans reads a 16-key x 32-byte block as b16 pairs, byte permutes regroup
// each dim's four keys in the order P's A fragment takes them (fp8_p_key), and stmatrix writes
// them as rows of Vᵀ ([dim, keys], keys contiguous), 128-byte swizzled as wgmma reads them.
// CuTeDSL: no library counterpart (FlashAttention-3 transposes V in its producer warpgroup too).
#include <cute_cpp/attention/fp8_scales.hpp>
#include <cute_cpp/attention/kv_widen.hpp>  // e4m3_unit
#include <cute_cpp/config.hpp>

#if defined(__CUDACC__)
#  include <cute_cpp/arch/registers.hpp>
#  include <ctm/common/ldmatrix.hpp>
#  include <ctm/common/stmatrix.hpp>
#endif

namespace cute_cpp {

#if defined(__CUDACC__)
/// Vᵀ of one key block: `v_tile` holds BlockN keys x HeadDim e4m3 (HeadDim / RowBytes TMA boxes of
/// BlockN rows of RowBytes bytes, swizzled at RowBytes), `vt_tile` gets HeadDim rows of the BlockN keys in
/// fp8_p_key's order (one K-major tile swizzled at BlockN bytes). The block's 16-key x 32-dim pieces are
/// shared among Warps warps (`warp`: 0 .. Warps); every lane of each calls it.
/// NOTE: stmatrix's matrix 0 takes the even dims of lanes 0-15 and the odd dims of lanes 16-31
/// (matrix 1 the others): rows 0 2 4 6 1 3 5 7 of their 8-row swizzle group, so its 8 rows hit
/// 8 different 16-byte units (all 32 banks) where even dims alone would conflict two ways.
template <int BlockN, int HeadDim, int RowBytes, int Warps>
__device__ __forceinline__ void transpose_e4m3_values(void const* v_tile, void* vt_tile, int warp, int lane) {
  static_assert((BlockN == 64 || BlockN == 128) && HeadDim % RowBytes == 0,
                "cute-cpp [attention.fp8.transpose]: Vᵀ is one tile of 64 or 128 keys (one swizzle row) of a head dim "
                "of whole boxes");
  constexpr int key_groups = BlockN / 16, pieces = key_groups * (HeadDim / 32);
  // NOTE: the addresses are derived anew per call (from an opaque lane and warp): derived once,
  // every piece's address was kept through the tile loop and spilled (32 registers).
  Fp8TransposeLane const r = fp8_transpose_lane(arch::recompute_from_here(std::uint32_t(lane)));
  int const w = int(arch::recompute_from_here(std::uint32_t(warp)));
  // NOTE: two pieces at a time, both loads before both stores: the compiler cannot move a load
  // above a store to shared memory it may alias, so one piece at a time left each ldmatrix's
  // latency exposed.
  constexpr int rounds = (pieces + Warps - 1) / Warps;
#pragma unroll
  for (int k = 0; k < rounds; k += 2) {
    std::uint32_t d[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      unsigned const piece = unsigned(w) + unsigned(Warps * (k + h)), g = piece % key_groups, u = piece / key_groups;
      if (k + h < rounds && piece < unsigned(pieces))
        ctm::ldmatrix_x4_trans(d[h][0], d[h][1], d[h][2], d[h][3],
                               static_cast<char const*>(v_tile) +
                                   fp8_tile_unit_offset<BlockN, RowBytes>(16 * g + r.load_key, 2 * u + r.load_unit));
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      unsigned const piece = unsigned(w) + unsigned(Warps * (k + h)), g = piece % key_groups, u = piece / key_groups;
      if (k + h < rounds && piece < unsigned(pieces)) {
        // d[h][0] bytes: (key 2q, dim 2p), (2q, 2p + 1), (2q + 1, 2p), (2q + 1, 2p + 1); d[h][1] keys + 8.
        std::uint32_t const r0 = __byte_perm(d[h][0], d[h][1], r.sel_a), r1 = __byte_perm(d[h][0], d[h][1], r.sel_b);
        std::uint32_t const r2 = __byte_perm(d[h][2], d[h][3], r.sel_a), r3 = __byte_perm(d[h][2], d[h][3], r.sel_b);
        ctm::stmatrix_x4(static_cast<char*>(vt_tile) + fp8_tile_unit_offset<HeadDim, BlockN>(32 * u + r.store_dim, g), r0,
                         r1, r2, r3);
      }
    }
  }
}
#endif

}  // namespace cute_cpp
