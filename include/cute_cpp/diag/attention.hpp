// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of attention plans (attention.*). The values under test are the template
// arguments, so the compiler prints them on the first context line.

namespace cute_cpp::diag {

/// Head dims are whole 64-element (128-byte) swizzle rows, as TMA loads them and wgmma reads them;
/// D_v is the N of O += P V, one wgmma (at most 256).
template <int HeadDim, int HeadDimV>
struct attention_head_dims {
  static_assert(HeadDim % 64 == 0 && HeadDim >= 64 && HeadDim <= 256 && HeadDimV % 64 == 0 && HeadDimV >= 64 &&
                    HeadDimV <= 256,
                "cute-cpp [attention.head-dim]: the head dims (D_qk, D_v) must be 64, 128, 192 or 256");
  static constexpr bool ok = true;
};

/// Decode's head dims: as attention_head_dims, or, with V read from K's first D_v columns (MLA's
/// latent cache: D_qk 576 = 512 + 64 rope, D_v 512), D_v within D_qk; D_v is split over the
/// consumer warpgroups (1 or 2), each taking whole 64-column chunks, at most 256 (one wgmma's N).
template <int HeadDim, int HeadDimV, int ConsumerWarpgroups, bool VInK>
struct attention_decode_head_dims {
  static_assert(ConsumerWarpgroups == 1 || ConsumerWarpgroups == 2,
                "cute-cpp [attention.head-dim]: decode has one or two consumer warpgroups");
  static_assert(HeadDim % 64 == 0 && HeadDim >= 64 && HeadDim <= (VInK ? 576 : 256) && HeadDimV % 64 == 0 &&
                    HeadDimV >= 64 && HeadDimV <= (VInK ? HeadDim : 256),
                "cute-cpp [attention.head-dim]: decode's head dims (D_qk, D_v) must be 64, 128, 192 or 256, or with "
                "V in K (MLA) D_v <= D_qk <= 576, multiples of 64");
  static_assert(HeadDimV % (64 * ConsumerWarpgroups) == 0 && HeadDimV / ConsumerWarpgroups <= 256,
                "cute-cpp [attention.head-dim]: each consumer warpgroup takes whole 64-column chunks of D_v, at most "
                "256 (one wgmma's N)");
  static constexpr bool ok = true;
};

/// A decode cache of another type than Q's is e4m3 (widened in registers), read as boxes of 128
/// columns, with V its own tensor, in tiles of whole 64-key wgmma atoms (the keys are the M of
/// Sᵀ = K Qᵀ).
template <bool Fp8, bool KnownType, int HeadDim, int HeadDimV, int ConsumerWarpgroups, bool VInK, int BlockN = 64>
struct attention_decode_kv {
  static_assert(KnownType, "cute-cpp [attention.fp8-kv]: the cache's element type is Q's or e4m3");
  static_assert(!Fp8 || (HeadDim % 128 == 0 && HeadDimV % 128 == 0),
                "cute-cpp [attention.fp8-kv]: an e4m3 cache is read in 128-column boxes: head dims multiples of 128");
  static_assert(!Fp8 || !VInK, "cute-cpp [attention.fp8-kv]: an e4m3 cache's V is its own tensor");
  static_assert(!Fp8 || BlockN % 64 == 0,
                "cute-cpp [attention.fp8-kv]: an e4m3 cache's key tile is whole 64-key wgmma atoms (Sᵀ = K Qᵀ)");
  static constexpr bool ok = true;
};

/// A CTA tile of Q rows is one 64-row wgmma atom per consumer warpgroup (2 or 3 of them); a K/V
/// tile of block_n keys is S's wgmma N (a multiple of 16, so P's k-slices are whole) and a TMA box.
template <int BlockM, int BlockN, int Stages>
struct attention_tile {
  static_assert(BlockM % 64 == 0 && BlockM >= 128 && BlockM <= 192,
                "cute-cpp [attention.tile]: block_m is 128 or 192 (two or three consumer warpgroups of 64 rows)");
  static_assert(BlockN % 16 == 0 && BlockN >= 16 && BlockN <= 256,
                "cute-cpp [attention.tile]: block_n is a multiple of 16 in 16..256 (S's wgmma N)");
  static_assert(Stages >= 2, "cute-cpp [attention.tile]: K and V need at least two stages each");
  static constexpr bool ok = true;
};

/// A decode K/V tile of block_n keys is filled by TMA boxes of BoxRows keys (the smallest page, so
/// no box straddles two pages): block_n is a whole number of boxes and S's wgmma N (at most 256).
template <int BlockN, int BoxRows, int Stages>
struct attention_decode_tile {
  static_assert(BlockN % BoxRows == 0 && BlockN >= BoxRows && BlockN <= 256,
                "cute-cpp [attention.decode-tile]: block_n must be a multiple of the 16-key page box in 16..256");
  static_assert(Stages >= 2, "cute-cpp [attention.decode-tile]: K and V need at least two stages each");
  static constexpr bool ok = true;
};

/// The FP8 (e4m3) forward: Q, K and V are read in boxes of one swizzle row (64 or 128 bytes) and
/// Vᵀ is one tile of block_n keys (64 or 128: its rows one swizzle row), with two consumer
/// warpgroups of 64 rows. D256 takes 64-key tiles: in 128-key tiles S 64 + O 128 + P 16
/// registers a thread spilled (136-304 bytes at 232-240 registers; ptxas, nvcc 13.0).
template <int HeadDim, int HeadDimV, int BlockM, int BlockN>
struct attention_fp8_plan {
  static_assert(HeadDim == HeadDimV && (HeadDim == 64 || HeadDim == 128 || HeadDim == 256),
                "cute-cpp [attention.fp8.head-dim]: the FP8 forward's head dims are (64, 64), (128, 128) or (256, 256)");
  static_assert(HeadDim != 256 || BlockN == 64,
                "cute-cpp [attention.fp8.head-dim]: D256 takes 64-key tiles (in 128-key tiles its registers spill)");
  static_assert(BlockM == 128 && (BlockN == 64 || BlockN == 128),
                "cute-cpp [attention.fp8.tile]: the FP8 forward's tiles are 128 x 64 or 128 x 128 (two consumer "
                "warpgroups; Vᵀ's rows are one swizzle row of keys)");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
