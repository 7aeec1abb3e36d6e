// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the sm_100a tensor-core surface: the tiled UMMA (umma.*) and tensor memory
// (tmem.*). The values under test are the template arguments, so the compiler prints them on the
// first context line. Plain C++: g++ compiles this header.

namespace cute_cpp::diag {

/// Rule umma.types: A and B element types name one tcgen05.mma kind (f16 x f16, bf16 x bf16,
/// float (tf32) x float, 8/6/4-bit float types one byte each (f8f6f4), packed e2m1 pairs only
/// with block scaling). Kind is -1 when the pair names none.
template <int Kind, int ABits, int BBits>
struct umma_types {
  static_assert(Kind >= 0,
                "cute-cpp [umma.types]: A and B element types name no tcgen05.mma kind (f16 x f16, bf16 x bf16, "
                "float (tf32) x float, 8/6/4-bit floats (f8f6f4), packed e2m1 pairs with a UmmaBlockScale)");
  static constexpr bool ok = true;
};
/// Rule umma.accumulator: float for every kind; __half also for kind::f16 with f16 inputs and for
/// kind::f8f6f4.
template <int Kind, bool AccFloat, bool AccHalf, bool HalfAllowed>
struct umma_accumulator {
  static_assert(AccFloat || (AccHalf && HalfAllowed),
                "cute-cpp [umma.accumulator]: the accumulator is float, or __half for f16 x f16 and f8f6f4 "
                "products");
  static constexpr bool ok = true;
};
/// Rule umma.pair-m: a CTA pair (cta_group::2) computes M = 128 or 256 rows.
template <int CtaGroup, int M>
struct umma_pair_m {
  static_assert(CtaGroup == 1 || CtaGroup == 2, "cute-cpp [umma.pair-m]: CtaGroup is 1 (one CTA) or 2 (a CTA pair)");
  static_assert(CtaGroup == 1 || M == 128 || M == 256,
                "cute-cpp [umma.pair-m]: a CTA pair (CtaGroup 2) computes M = 128 or 256 rows, half in each CTA");
  static constexpr bool ok = true;
};
/// Rule umma.shape: M and N of the kind and CtaGroup (PTX ISA, tcgen05.mma shapes): one CTA M 64 or
/// 128 (block-scaled: 128), N a multiple of 8 in 8..256; a pair N a multiple of 16.
template <int Kind, int CtaGroup, int M, int N, bool ShapeOk>
struct umma_shape {
  static_assert(ShapeOk,
                "cute-cpp [umma.shape]: M x N is no tcgen05.mma shape for this kind and CtaGroup (one CTA: M 64 "
                "or 128, block-scaled 128, N = 8..256 in steps of 8; a pair: M 128 or 256, N in steps of 16)");
  static constexpr bool ok = true;
};
/// Rule umma.operand-extent: each CTA's A tile holds M / CtaGroup rows and its B tile N / CtaGroup.
template <int TileRows, int Needed>
struct umma_operand_extent {
  static_assert(TileRows == Needed,
                "cute-cpp [umma.operand-extent]: a CTA's shared tile must hold the M / CtaGroup rows of A (or the "
                "N / CtaGroup rows of B) that its tcgen05.mma reads");
  static constexpr bool ok = true;
};
/// Rule umma.tile-k: the tiles' K is a multiple of one instruction's K (32 bytes: 16 f16, 8 tf32,
/// 32 8/6/4-bit values, 64 packed e2m1), and A and B have the same K.
template <int AK, int BK, int KPerInstr>
struct umma_tile_k {
  static_assert(AK == BK && AK % KPerInstr == 0 && AK > 0,
                "cute-cpp [umma.tile-k]: A and B tiles need the same K, a multiple of the instruction's K "
                "(32 bytes of the element type)");
  static constexpr bool ok = true;
};
/// Rule umma.major: an MN-major operand needs a type of 8 bits or more stored as such (6/4-bit types
/// and packed e2m1 pairs are K-major).
template <bool KMajor, int ValueBits>
struct umma_major {
  static_assert(KMajor || ValueBits >= 8,
                "cute-cpp [umma.major]: 6-bit and 4-bit operands must be K-major in shared memory (SmemKMajor)");
  static constexpr bool ok = true;
};
/// Rule umma.smem-layout: a K-major tile's rows are exactly one swizzle width (32, 64 or 128
/// bytes); an MN-major tile's blocks are one swizzle width, or 16 bytes when unswizzled (the
/// interleaved core matrices: SmemMNMajor<T, MN, K, 16>).
template <bool KMajor, int RowBytes, int SwizzleBytes>
struct umma_smem_layout {
  static_assert(KMajor ? (SwizzleBytes != 0 && RowBytes == SwizzleBytes)
                       : (SwizzleBytes != 0 ? RowBytes == SwizzleBytes : RowBytes == 16),
                "cute-cpp [umma.smem-layout]: a K-major tile is one 32/64/128-byte swizzle wide (SmemKMajor); an "
                "MN-major tile is blocks of one swizzle width, or of 16 bytes unswizzled (SmemMNMajor<T, MN, K, 16>)");
  static constexpr bool ok = true;
};
/// Rule umma.sf-vec-size: the scale-factor vector of a block-scaled kind: ue8m0 every 32 values
/// (mxf8f6f4, mxf4) or ue4m3 every 16 (mxf4nvf4). Scaled: the plan has a UmmaBlockScale.
template <bool Scaled, bool SfE8m0, bool SfE4m3, int VecSize, bool Packed>
struct umma_sf_vec_size {
  static_assert(!Scaled || (SfE8m0 && VecSize == 32) || (SfE4m3 && VecSize == 16 && Packed),
                "cute-cpp [umma.sf-vec-size]: block scaling is ue8m0 every 32 values (mxf8f6f4, mxf4) or ue4m3 "
                "every 16 values of packed e2m1 (mxf4nvf4)");
  static constexpr bool ok = true;
};
/// Rule umma.operand-role: Position 0 is A, 1 is B; Tagged is the role the tag says (-1: none).
template <int Position, int Tagged>
struct umma_operand_role {
  static_assert(Tagged < 0 || Position == Tagged,
                "cute-cpp [umma.operand-role]: an operand tile tagged for one role (AOperand / BOperand) is passed "
                "in the other's place; swap the A and B shared layouts");
  static constexpr bool ok = true;
};
/// Rule umma.tmem-columns: the accumulator stages and the scale factors fit tensor memory's 512
/// columns.
template <int AccColumns, int AccStages, int ScaleFactorColumns>
struct umma_tmem_columns {
  static_assert(AccStages >= 1 && AccColumns * AccStages + ScaleFactorColumns <= 512,
                "cute-cpp [umma.tmem-columns]: the accumulator stages and scale factors need more than the 512 "
                "tensor-memory columns");
  static constexpr bool ok = true;
};
/// Rule umma.sf-copy.cta-group: the scale-factor copy helper serves one-CTA plans.
template <int CtaGroup>
struct umma_sf_copy_cta_group {
  static_assert(CtaGroup == 1,
                "cute-cpp [umma.sf-copy.cta-group]: UmmaScaleFactors copies scale factors for CtaGroup 1 plans only");
  static constexpr bool ok = true;
};

/// Rule tmem.alloc-columns: tensor memory is allocated in powers of two from 32 to 512 columns.
template <unsigned Columns>
struct tmem_alloc_columns {
  static_assert(Columns >= 32 && Columns <= 512 && (Columns & (Columns - 1)) == 0,
                "cute-cpp [tmem.alloc-columns]: TmemAllocator allocates a power of two from 32 to 512 columns");
  static constexpr bool ok = true;
};
/// Rule tmem.lane-quarter: a warp reaches only its 32-lane quarter of tensor memory (warp w: lanes
/// 32 (w % 4) ..): a copy starting LaneOffset lanes into it must end inside it.
template <int LaneOffset, int AtomLanes>
struct tmem_lane_quarter {
  static_assert(LaneOffset >= 0 && LaneOffset % 16 == 0 && LaneOffset + AtomLanes <= 32,
                "cute-cpp [tmem.lane-quarter]: a warp may access only its own 32 lanes of tensor memory (lanes "
                "32 * (warp % 4) ..); the copy's lanes leave that quarter");
  static constexpr bool ok = true;
};
/// Rule tmem.acc-shape: an M = 64 accumulator (PTX layout F) fills lanes 0-15 of each quarter, so it
/// is read with a 16-lane shape (16x64b, 16x128b, 16x256b, 16x32bx2).
template <int M, int CtaGroup, int AtomLanes>
struct tmem_acc_shape {
  static_assert(!(M == 64 && CtaGroup == 1) || AtomLanes == 16,
                "cute-cpp [tmem.acc-shape]: an M = 64 accumulator holds 16 rows per warp quarter: copy it with a "
                "16-lane tcgen05.ld/st shape (16x64b, 16x128b, 16x256b, 16x32bx2)");
  static constexpr bool ok = true;
};

/// Rule tmem.acc-columns: an accumulator is copied in whole copies, so the copy's columns divide
/// the accumulator's.
template <int AccColumns, int AtomColumns>
struct tmem_acc_columns {
  static_assert(AccColumns % AtomColumns == 0,
                "cute-cpp [tmem.acc-columns]: the tcgen05.ld/st copy's columns must divide the accumulator's "
                "tensor-memory columns");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
