// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates for warp MMA (mma.sync) atoms and tiled MMAs.

namespace cute_cpp::diag {

/// Rule mma.warp.dtype: the operand types an mma.sync atom accepts (ABBytes: the element size
/// given; Allowed: whether the type is one of the atom's).
template <int ABBytes, bool Allowed>
struct warp_mma_dtype {
  static_assert(Allowed, "cute-cpp [mma.warp.dtype]: MmaF16BF16Op takes f16 or bf16, MmaTF32Op float, "
                         "MmaFP8Op e4m3 or e5m2 operands (f32 accumulators)");
  static constexpr bool ok = true;
};

/// Rule mma.warp.tile: the block tile splits into whole warp tiles, and each warp tile into whole
/// atoms (AtomM x AtomN x AtomK); B's atoms are loaded two at a time, so AtomsN is even.
template <int TileM, int TileN, int TileK, int WarpsM, int WarpsN, int AtomM, int AtomN, int AtomK>
struct warp_mma_tile_divides {
  static_assert(TileM % (WarpsM * AtomM) == 0 && TileN % (WarpsN * AtomN * 2) == 0 && TileK % AtomK == 0,
                "cute-cpp [mma.warp.tile]: TileM must be a multiple of WarpsM*16, TileN of WarpsN*16, TileK of the "
                "atom's K");
  static constexpr bool ok = true;
};

/// Rule mma.warp.smem-k-major: operands are read from shared memory with ldmatrix, which needs K
/// contiguous (static stride C<1> on mode 1 of the (M,K) / (N,K) tile).
template <bool KMajor>
struct warp_mma_smem_k_major {
  static_assert(KMajor, "cute-cpp [mma.warp.smem-k-major]: the shared-memory operand tile must be (MN,K) with K "
                        "contiguous (stride C<1> on mode 1)");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
