// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_cp.hpp: tcgen05.cp (shared memory -> tensor memory, asynchronous, issued by
// one thread; completion through tcgen05_commit) in every shape and multicast form, with the
// optional 4/6-bit to 8-bit decompression, and tcgen05.shift.down. CuTeDSL: the tcgen05 S2T
// copy atoms (cute.nvgpu.tcgen05.Cp128x256bOp, Cp4x256bOp, Cp128x128bOp, Cp2x64x128b...Op,
// Cp4x32x128bOp). Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_config.hpp>          // cta_group rule, target gates
#include <ctm/sm100/tcgen05_desc.hpp>            // tcgen05_smem_desc (the source descriptor)
#include <ctm/generated/sm100_tcgen05_cp.hpp>    // Tcgen05CpShape, Tcgen05CpSrcFormat, asm bodies

#if defined(__CUDACC__)
namespace ctm {

/// tcgen05.cp.cta_group::N.<shape>{.multicast}{.b8x16.<src>} [taddr], s_desc: copies the
/// matrix described by the shared-memory descriptor `s_desc` to tensor memory at `taddr`.
///   ctm::tcgen05_cp<ctm::Tcgen05CpShape::s32x128b_warpx4>(tmem_sf, desc_sf);
template <Tcgen05CpShape Shape, int CtaGroup = 1, Tcgen05CpSrcFormat Src = Tcgen05CpSrcFormat::none,
          class Target = void>
CTM_DEVICE void tcgen05_cp(std::uint32_t taddr, std::uint64_t s_desc) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_cp<Target>();
  detail::tcgen05_cp_impl<Shape, Src, CtaGroup>(taddr, s_desc);
}

/// tcgen05.shift.cta_group::N.down [taddr]: shifts the 32-byte elements of the tensor-memory
/// rows at `taddr` down by one row (lane), issued by one thread.
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_shift_down(std::uint32_t taddr) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_shift<Target>();
  asm volatile("tcgen05.shift.cta_group::%1.down [%0];\n" :: "r"(taddr), "n"(CtaGroup) : "memory");
}

}  // namespace ctm
#endif  // __CUDACC__
