// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates for the sm_120a block-scaled warp MMA (mma.sync m16n8k64 kind::mxf4 /
// kind::mxf4nvf4 on E2M1) and its tiled form (mma/sm120_block_scaled_mma.hpp).

namespace cute_cpp::diag {

/// The block-scaled kinds, as the error names them.
enum class Sm120MmaKind : int { mxf4 = 1, mxf4nvf4 = 2 };
/// The scale-factor types, as the error names them (other: anything else).
enum class Sm120ScaleType : int { ue8m0 = 1, ue4m3 = 2, other = 3 };

/// Rule mma.sm120.scale-type: kind::mxf4 takes UE8M0 factors; kind::mxf4nvf4 takes UE8M0 (MXFP4)
/// or UE4M3 (NVFP4).
template <Sm120MmaKind Kind, Sm120ScaleType Scale>
struct sm120_mma_scale_type {
  static_assert(Scale == Sm120ScaleType::ue8m0 || (Kind == Sm120MmaKind::mxf4nvf4 && Scale == Sm120ScaleType::ue4m3),
                "cute-cpp [mma.sm120.scale-type]: MmaMXF4Op takes ue8m0 scale factors; MmaMXF4NVF4Op takes ue8m0 "
                "(MXFP4) or ue4m3 (NVFP4)");
  static constexpr bool ok = true;
};

/// Rule mma.sm120.scale-vec: the elements per factor follow from the scale type: 32 for UE8M0
/// (scale_vec::2X in a K of 64), 16 for UE4M3 (scale_vec::4X).
template <Sm120ScaleType Scale, int SFVecSize>
struct sm120_mma_scale_vec {
  static_assert((Scale == Sm120ScaleType::ue8m0 && SFVecSize == 32) || (Scale == Sm120ScaleType::ue4m3 && SFVecSize == 16),
                "cute-cpp [mma.sm120.scale-vec]: a ue8m0 factor covers 32 elements of K, a ue4m3 factor 16");
  static constexpr bool ok = true;
};

/// Rule mma.sm120.tile: the block tile splits into whole warp tiles and each into whole 16 x 8
/// atoms; B's atoms are loaded two at a time (ldmatrix.x4), so TileN is a multiple of WarpsN*16.
template <int TileM, int TileN, int WarpsM, int WarpsN>
struct sm120_mma_tile {
  static_assert(WarpsM > 0 && WarpsN > 0 && TileM % (WarpsM * 16) == 0 && TileN % (WarpsN * 16) == 0,
                "cute-cpp [mma.sm120.tile]: TileM must be a multiple of WarpsM*16 and TileN of WarpsN*16");
  static constexpr bool ok = true;
};

/// Rule mma.sm120.tile-k: TileK is a multiple of the atom's K (64) and of 4 x SFVecSize, since a
/// thread's 32-bit scale register holds four consecutive factors of a row (64 K for NVFP4, 128 for MXFP4).
template <int TileK, int SFVecSize>
struct sm120_mma_tile_k {
  static_assert(TileK > 0 && TileK % 64 == 0 && TileK % (4 * SFVecSize) == 0,
                "cute-cpp [mma.sm120.tile-k]: TileK must be a multiple of 64 (the atom's K) and of 4 x the "
                "elements per scale factor (a scale register holds 4 factors)");
  static constexpr bool ok = true;
};

/// Rule mma.sm120.smem-operand: operand and scale tiles in shared memory are bytes (packed E2M1
/// pairs, one factor a byte) with K contiguous (static stride C<1> on mode 1), as ldmatrix and the
/// 32-bit scale loads read them.
template <int ElementBytes, bool KContiguous>
struct sm120_mma_smem_operand {
  static_assert(ElementBytes == 1 && KContiguous,
                "cute-cpp [mma.sm120.smem-operand]: the shared-memory tile must hold bytes (packed e2m1 pairs or "
                "scale factors) as (MN,K) with K contiguous (stride C<1> on mode 1)");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
