// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the sm_90a warpgroup MMA (mma.wgmma.*, mma.operand-role).
// The values under test are the template arguments, so the compiler prints them on the first
// context line.

namespace cute_cpp::diag {

template <int Atoms, int N>
struct wgmma_tile_shape {
  static_assert(Atoms >= 1, "cute-cpp [mma.wgmma.atoms-m]: a warpgroup computes at least one 64-row atom");
  static_assert(N >= 8 && N <= 256 && N % 8 == 0, "cute-cpp [mma.wgmma.n]: wgmma N is a multiple of 8 in 8..256");
  static constexpr bool ok = true;
};
template <int SwizzleBytes>
struct wgmma_smem_swizzled {
  static_assert(SwizzleBytes != 0,
                "cute-cpp [mma.wgmma.smem-swizzle]: wgmma operands here are swizzled tiles (SmemKMajor / "
                "SmemMNMajor with 32, 64 or 128-byte swizzle)");
  static constexpr bool ok = true;
};
/// A tile wider than one wgmma (N > 256) is cut into Atoms equal atoms along N; each starts
/// on a row of B that keeps the descriptor's base offset (a multiple of RowStep rows).
template <int N, int Atoms, int RowStep>
struct wgmma_tile_n {
  static_assert(N % Atoms == 0 && (N / Atoms) % RowStep == 0,
                "cute-cpp [mma.wgmma.tile-n]: a tile's N above 256 is cut into equal wgmma atoms, each a "
                "multiple of 8 columns (K-major B) or of B's box width (MN-major B)");
  static constexpr bool ok = true;
};
template <int TileRows, int Needed>
struct wgmma_operand_rows {
  static_assert(TileRows >= Needed && TileRows % Needed == 0,
                "cute-cpp [mma.wgmma.operand-extent]: the shared tile's M/N extent must be a multiple of what "
                "the warpgroup's MMA reads");
  static constexpr bool ok = true;
};
template <int TileK, int AtomK>
struct wgmma_tile_k {
  static_assert(TileK % AtomK == 0, "cute-cpp [mma.wgmma.tile-k]: the tile's K must be a multiple of the instruction's K");
  static constexpr bool ok = true;
};
template <bool AKMajor, bool BKMajor, int ElemBytes>
struct wgmma_k_major_for_8bit {
  static_assert(ElemBytes != 1 || (AKMajor && BKMajor),
                "cute-cpp [mma.wgmma.fp8-k-major]: 8-bit wgmma operands must be K-major in shared memory");
  static constexpr bool ok = true;
};

/// Rule mma.operand-role: Position 0 is A, 1 is B; Tagged is the role the tag says (-1: none).
template <int Position, int Tagged>
struct wgmma_operand_role {
  static_assert(Tagged < 0 || Position == Tagged,
                "cute-cpp [mma.operand-role]: an operand tile tagged for one role (AOperand / BOperand) is passed "
                "in the other's place; swap the A and B shared layouts");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
