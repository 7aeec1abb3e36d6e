// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Tensor memory <-> registers for an epilogue: TmemCopyAtom (one warp's tcgen05.ld / tcgen05.st of
// a shape 32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2 and .num, with each register's lane and
// column), UmmaAccumulator (where a tcgen05.mma accumulator's rows and columns lie in tensor
// memory: PTX layouts A, B, D, F) and get_slice(warp, lane), which gives a thread the
// (row, col) of every register it loads. A warp reaches only its 32-lane quarter (warp % 4).
// CuTeDSL: tcgen05.Ld32x32bOp / Ld16x64bOp / Ld16x128bOp / Ld16x256bOp / Ld16x32bx2Op (and St),
// tcgen05.make_tmem_copy, tiled_copy.get_slice.
#include <cute_cpp/config.hpp>          // CUTE_CPP_HD
#include <cute_cpp/diag/umma.hpp>       // tmem.lane-quarter, tmem.acc-shape
#include <ctm/sm100/tcgen05_ld_st.hpp>  // Tcgen05LdStShape, tcgen05_ld / tcgen05_st, register counts

#include <cstdint>

namespace cute_cpp::sm100 {

// ---- one warp's tcgen05.ld / tcgen05.st ----

/// One warp's tcgen05.ld/st of Shape with .x<Num> (16x32bx2: half-split offset Num, so the two
/// halves are side by side). Register j of lane-in-warp t lies at lane(t, j) lanes past the copy's
/// first lane and column(t, j) columns past its first column (PTX ISA, "Matrix fragments for
/// tcgen05.ld/st"; as CUTLASS's SM100_TMEM_LOAD traits read them).
template <ctm::Tcgen05LdStShape Shape, int Num>
struct TmemCopyAtom {
  static constexpr ctm::Tcgen05LdStShape shape = Shape;
  static constexpr int num = Num;
  static constexpr int registers = ctm::tcgen05_ld_st_registers<Shape, Num>;
  /// Lanes the warp's copy covers: 32 for 32x32b, 16 for the others.
  static constexpr int lanes = Shape == ctm::Tcgen05LdStShape::s32x32b ? 32 : 16;
  /// 32-bit columns per lane the copy covers.
  static constexpr int columns = Shape == ctm::Tcgen05LdStShape::s32x32b    ? Num
                                 : Shape == ctm::Tcgen05LdStShape::s16x64b  ? 2 * Num
                                 : Shape == ctm::Tcgen05LdStShape::s16x128b ? 4 * Num
                                 : Shape == ctm::Tcgen05LdStShape::s16x256b ? 8 * Num
                                                                            : 2 * Num;

  /// Lane (from the copy's first) of register j of thread t (0..31 in the warp).
  static CUTE_CPP_HD constexpr int lane(int t, int j) {
    switch (Shape) {
      case ctm::Tcgen05LdStShape::s32x32b: return t;
      case ctm::Tcgen05LdStShape::s16x64b: return t / 4 + 8 * (t % 2);
      case ctm::Tcgen05LdStShape::s16x128b: return t / 4 + 8 * (j % 2);
      case ctm::Tcgen05LdStShape::s16x256b: return t / 4 + 8 * ((j / 2) % 2);
      default: return t % 16;
    }
  }
  /// Column (from the copy's first) of register j of thread t.
  static CUTE_CPP_HD constexpr int column(int t, int j) {
    switch (Shape) {
      case ctm::Tcgen05LdStShape::s32x32b: return j;
      case ctm::Tcgen05LdStShape::s16x64b: return 2 * j + (t / 2) % 2;
      case ctm::Tcgen05LdStShape::s16x128b: return t % 4 + 4 * (j / 2);
      case ctm::Tcgen05LdStShape::s16x256b: return 2 * (t % 4) + j % 2 + 8 * (j / 4);
      default: return j + Num * (t / 16);
    }
  }

#if defined(__CUDACC__)
  /// The warp's tcgen05.ld from `taddr` (the copy's first lane and column); follow with
  /// tcgen05.wait::ld (arch::fence_view_async_tmem_load) before reading the registers.
  static __device__ __forceinline__ void load(std::uint32_t (&r)[registers], std::uint32_t taddr) {
    if constexpr (Shape == ctm::Tcgen05LdStShape::s16x32bx2) ctm::tcgen05_ld_16x32bx2<Num, Num>(r, taddr);
    else ctm::tcgen05_ld<Shape, Num>(r, taddr);
  }
  /// The warp's tcgen05.st to `taddr`; tcgen05.wait::st orders it before later reads.
  static __device__ __forceinline__ void store(std::uint32_t taddr, std::uint32_t const (&r)[registers]) {
    if constexpr (Shape == ctm::Tcgen05LdStShape::s16x32bx2) ctm::tcgen05_st_16x32bx2<Num, Num>(taddr, r);
    else ctm::tcgen05_st<Shape, Num>(taddr, r);
  }
#endif
};

// ---- where a tcgen05.mma accumulator lies in tensor memory ----

/// The accumulator of an M x N tcgen05.mma on CtaGroup CTAs, as one CTA's tensor memory holds it
/// (PTX ISA "Data path layout organization"; the CTA's rows are its half of M for a pair):
///   D  M = 128, one CTA       row r at lane r, column c at column c        (N columns)
///   A  M = 256, a pair        the same for the CTA's 128 rows              (N columns)
///   F  M = 64, one CTA        row r at lane 32 (r / 16) + r % 16           (N columns)
///   B  M = 128, a pair        the CTA's 64 rows: columns c < N/2 at lane r, the rest at lane
///                             64 + r, column c - N/2                       (N / 2 columns)
/// Each 32-bit column holds one accumulator value (f32; a 16-bit accumulator one value per
/// column too).
template <int M, int N, int CtaGroup>
struct UmmaAccumulator {
  static constexpr int m = M, n = N, cta_group = CtaGroup;
  static constexpr bool folded = CtaGroup == 2 && M == 128;     ///< layout B
  static constexpr bool half_lanes = CtaGroup == 1 && M == 64;  ///< layout F
  static constexpr int rows = M / CtaGroup;                     ///< rows this CTA holds
  static constexpr int columns = folded ? N / 2 : N;            ///< tensor-memory columns used

  /// True when (lane, column) of the allocation holds an accumulator value.
  static CUTE_CPP_HD constexpr bool holds(int lane, int column) {
    return column < columns && (!half_lanes || lane % 32 < 16);
  }
  /// The accumulator row (of this CTA's rows) at tensor-memory `lane`.
  static CUTE_CPP_HD constexpr int row(int lane, int /*column*/) {
    return half_lanes ? 16 * (lane / 32) + lane % 32 : folded ? lane % 64 : lane;
  }
  /// The accumulator column at tensor-memory (`lane`, `column`).
  static CUTE_CPP_HD constexpr int col(int lane, int column) {
    return folded ? column + (N / 2) * (lane / 64) : column;
  }
};

/// One thread's share of a warp's copies of an accumulator with Atom: the copies go over the lane
/// halves of the warp's quarter (16-lane atoms; one half for layout F) and over column chunks of
/// Atom::columns. Built by get_slice.
template <class Acc, class Atom>
struct TmemThrCopy {
  static_assert(diag::tmem_acc_shape<Acc::m, Acc::cta_group, Atom::lanes>::ok);
  static_assert(diag::tmem_acc_columns<Acc::columns, Atom::columns>::ok);
  static constexpr int lane_halves = Atom::lanes == 32 || Acc::half_lanes ? 1 : 2;
  static constexpr int column_chunks = Acc::columns / Atom::columns;
  /// Copies a warp issues to cover its quarter of the accumulator.
  static constexpr int copies = lane_halves * column_chunks;

  int quarter;  ///< warp % 4: the 32 lanes 32 quarter .. the warp may access
  int thread;   ///< lane in the warp, 0..31

  /// First lane of copy i, within the warp's quarter (0 or 16), checked against the quarter.
  static CUTE_CPP_HD constexpr int lane_offset(int i) { return (i / column_chunks) * 16; }
  /// The tensor-memory address copy i reads, from the accumulator's address `acc`.
  CUTE_CPP_HD constexpr std::uint32_t tmem_addr(std::uint32_t acc, int i) const {
    return acc + (std::uint32_t(32 * quarter + lane_offset(i)) << 16) +
           std::uint32_t((i % column_chunks) * Atom::columns);
  }
  /// Accumulator row of register j of copy i.
  CUTE_CPP_HD constexpr int row(int i, int j) const { return Acc::row(lane(i, j), column(i, j)); }
  /// Accumulator column of register j of copy i.
  CUTE_CPP_HD constexpr int col(int i, int j) const { return Acc::col(lane(i, j), column(i, j)); }

 private:
  CUTE_CPP_HD constexpr int lane(int i, int j) const {
    return 32 * quarter + lane_offset(i) + Atom::lane(thread, j);
  }
  CUTE_CPP_HD constexpr int column(int i, int j) const {
    return (i % column_chunks) * Atom::columns + Atom::column(thread, j);
  }
};

/// The address at which warp `warp` (a warp index in the CTA) starts a copy with Atom,
/// LaneOffset lanes into its quarter, from tensor-memory address `tmem`:
///   tmem_warp_addr<TmemCopyAtom<s16x256b, 4>, 16>(0x0000'0040, 5) -> 0x0030'0040 (lane 48)
/// @pre the copy stays in the warp's 32 lanes [tmem.lane-quarter]
template <class Atom, int LaneOffset = 0>
CUTE_CPP_HD constexpr std::uint32_t tmem_warp_addr(std::uint32_t tmem, int warp) {
  static_assert(diag::tmem_lane_quarter<LaneOffset, Atom::lanes>::ok);
  return tmem + (std::uint32_t(32 * (warp % 4) + LaneOffset) << 16);
}

/// The copy of thread `lane` of warp `warp` (a warp index in the CTA; its quarter is warp % 4).
/// The lanes come from warp % 4, so the warp reads only its quarter [tmem.lane-quarter].
template <class Acc, class Atom>
CUTE_CPP_HD constexpr TmemThrCopy<Acc, Atom> get_slice(int warp, int lane) {
  return {warp % 4, lane};
}

}  // namespace cute_cpp::sm100
