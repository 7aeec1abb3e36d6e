// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_ld_st.hpp: tcgen05.ld / tcgen05.st between tensor memory and registers,
// warp-wide, every shape (32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2) and .num (x1..x128),
// with the optional .pack::16b / .unpack::16b. Registers per thread: num for 32x32b, 16x64b,
// 16x32bx2; 2*num for 16x128b; 4*num for 16x256b. Follow with tcgen05_wait_ld / _st.
// CuTeDSL: the tcgen05 copy atoms (cute.nvgpu.tcgen05.Ld32x32bOp, St32x32bOp, ...).
// Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_config.hpp>            // target gates
#include <ctm/generated/sm100_tcgen05_ld_st.hpp>   // Tcgen05LdStShape, the enumerated asm bodies

namespace ctm {

namespace diag {
/// Rules tcgen05.ld-st.num and tcgen05.ld-st.registers.
template <Tcgen05LdStShape Shape, int Num, int Registers>
struct tcgen05_ld_st_operands {
  static_assert(detail::tcgen05_ld_st_regs(Shape, Num) != 0,
                "ctm [tcgen05.ld-st.num]: .num must be a power of two from 1 to 128 (to 64 for "
                "16x128b, to 32 for 16x256b)");
  static_assert(detail::tcgen05_ld_st_regs(Shape, Num) == 0 ||
                    detail::tcgen05_ld_st_regs(Shape, Num) == Registers,
                "ctm [tcgen05.ld-st.registers]: the register array must hold num registers "
                "(2*num for 16x128b, 4*num for 16x256b)");
  static constexpr bool ok = true;
};
}  // namespace diag

/// Registers per thread that tcgen05.ld/st of `Shape` with .x`Num` moves.
template <Tcgen05LdStShape Shape, int Num>
inline constexpr int tcgen05_ld_st_registers = detail::tcgen05_ld_st_regs_v<Shape, Num>;

#if defined(__CUDACC__)

/// tcgen05.ld.sync.aligned.<Shape>.x<Num>{.pack::16b}.b32 r, [taddr] for Shape other than
/// 16x32bx2 (which takes a half-split offset: tcgen05_ld_16x32bx2).
///   std::uint32_t r[32];  ctm::tcgen05_ld<ctm::Tcgen05LdStShape::s32x32b, 32>(r, taddr);
/// @pre Num valid for Shape [tcgen05.ld-st.num]; r holds the shape's register count
///      [tcgen05.ld-st.registers]
template <Tcgen05LdStShape Shape, int Num, bool Pack16b = false, class Target = void, int Registers>
CTM_DEVICE void tcgen05_ld(std::uint32_t (&r)[Registers], std::uint32_t taddr) {
  static_assert(Shape != Tcgen05LdStShape::s16x32bx2,
                "ctm [tcgen05.ld-st.half-split]: the 16x32bx2 shape takes an immediate half-split "
                "offset: use tcgen05_ld_16x32bx2");
  static_assert(diag::tcgen05_ld_st_operands<Shape, Num, Registers>::ok);
  detail::gate_tcgen05_ld<Target>();
  if constexpr (detail::tcgen05_ld_st_regs_v<Shape, Num> == Registers)
    detail::Tcgen05LdSt<Shape, Num>::template ld<Pack16b>(r, taddr);
}

/// tcgen05.ld.sync.aligned.16x32bx2.x<Num>{.pack::16b}.b32 r, [taddr], ImmHalfSplitoff.
template <int Num, int ImmHalfSplitoff, bool Pack16b = false, class Target = void, int Registers>
CTM_DEVICE void tcgen05_ld_16x32bx2(std::uint32_t (&r)[Registers], std::uint32_t taddr) {
  static_assert(diag::tcgen05_ld_st_operands<Tcgen05LdStShape::s16x32bx2, Num, Registers>::ok);
  detail::gate_tcgen05_ld<Target>();
  if constexpr (detail::tcgen05_ld_st_regs_v<Tcgen05LdStShape::s16x32bx2, Num> == Registers)
    detail::Tcgen05LdSt<Tcgen05LdStShape::s16x32bx2, Num>::template ld<ImmHalfSplitoff, Pack16b>(r, taddr);
}

/// tcgen05.st.sync.aligned.<Shape>.x<Num>{.unpack::16b}.b32 [taddr], r.
template <Tcgen05LdStShape Shape, int Num, bool Unpack16b = false, class Target = void, int Registers>
CTM_DEVICE void tcgen05_st(std::uint32_t taddr, std::uint32_t const (&r)[Registers]) {
  static_assert(Shape != Tcgen05LdStShape::s16x32bx2,
                "ctm [tcgen05.ld-st.half-split]: the 16x32bx2 shape takes an immediate half-split "
                "offset: use tcgen05_st_16x32bx2");
  static_assert(diag::tcgen05_ld_st_operands<Shape, Num, Registers>::ok);
  detail::gate_tcgen05_st<Target>();
  if constexpr (detail::tcgen05_ld_st_regs_v<Shape, Num> == Registers)
    detail::Tcgen05LdSt<Shape, Num>::template st<Unpack16b>(taddr, r);
}

/// tcgen05.st.sync.aligned.16x32bx2.x<Num>{.unpack::16b}.b32 [taddr], ImmHalfSplitoff, r.
template <int Num, int ImmHalfSplitoff, bool Unpack16b = false, class Target = void, int Registers>
CTM_DEVICE void tcgen05_st_16x32bx2(std::uint32_t taddr, std::uint32_t const (&r)[Registers]) {
  static_assert(diag::tcgen05_ld_st_operands<Tcgen05LdStShape::s16x32bx2, Num, Registers>::ok);
  detail::gate_tcgen05_st<Target>();
  if constexpr (detail::tcgen05_ld_st_regs_v<Tcgen05LdStShape::s16x32bx2, Num> == Registers)
    detail::Tcgen05LdSt<Tcgen05LdStShape::s16x32bx2, Num>::template st<ImmHalfSplitoff, Unpack16b>(taddr, r);
}

#endif  // __CUDACC__

}  // namespace ctm
