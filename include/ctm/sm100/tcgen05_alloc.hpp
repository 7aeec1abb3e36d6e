// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_alloc.hpp: tensor-memory allocation. tcgen05.alloc, tcgen05.dealloc and
// tcgen05.relinquish_alloc_permit, for cta_group::1 and ::2. Warp-wide (.sync.aligned): the
// whole warp calls them. CuTeDSL: cute.arch.alloc_tmem / dealloc_tmem /
// relinquish_tmem_alloc_permit (under TmemAllocator). Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_config.hpp>  // Tcgen05Cols, cta_group rule, target gates

#if defined(__CUDACC__)
namespace ctm {

/// tcgen05.alloc.cta_group::N.sync.aligned.shared::cta.b32 [dst], ncols: allocates `Cols`
/// tensor-memory columns and writes their address to the shared-memory word at `dst_smem`
/// (a shared::cta address, e.g. from cvta_to_shared_u32).
///   ctm::tcgen05_alloc<1>(slot, ctm::Tcgen05Cols<256>{});
/// @pre Cols is a power of two in 32..512 [tcgen05.alloc.columns]; cta_group 1 or 2
///      [tcgen05.cta-group]: both compile errors.
template <int CtaGroup = 1, class Target = void, std::uint32_t Cols>
CTM_DEVICE void tcgen05_alloc(std::uint32_t dst_smem, Tcgen05Cols<Cols>) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_alloc<Target>();
  asm volatile("tcgen05.alloc.cta_group::%1.sync.aligned.shared::cta.b32 [%0], %2;\n"
               :: "r"(dst_smem), "n"(CtaGroup), "n"(Cols) : "memory");
}

/// The same with a run-time column count.
/// @pre ncols is a power of two in 32..512 [tcgen05.alloc.columns]: not checked.
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_alloc(std::uint32_t dst_smem, std::uint32_t ncols) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_alloc<Target>();
  asm volatile("tcgen05.alloc.cta_group::%1.sync.aligned.shared::cta.b32 [%0], %2;\n"
               :: "r"(dst_smem), "n"(CtaGroup), "r"(ncols) : "memory");
}

/// tcgen05.dealloc.cta_group::N.sync.aligned.b32 taddr, ncols: frees what tcgen05_alloc gave.
/// @pre as tcgen05_alloc [tcgen05.alloc.columns]
template <int CtaGroup = 1, class Target = void, std::uint32_t Cols>
CTM_DEVICE void tcgen05_dealloc(std::uint32_t taddr, Tcgen05Cols<Cols>) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_alloc<Target>();
  asm volatile("tcgen05.dealloc.cta_group::%1.sync.aligned.b32 %0, %2;\n"
               :: "r"(taddr), "n"(CtaGroup), "n"(Cols) : "memory");
}

/// The same with a run-time column count.
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_dealloc(std::uint32_t taddr, std::uint32_t ncols) {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_alloc<Target>();
  asm volatile("tcgen05.dealloc.cta_group::%1.sync.aligned.b32 %0, %2;\n"
               :: "r"(taddr), "n"(CtaGroup), "r"(ncols) : "memory");
}

/// tcgen05.relinquish_alloc_permit.cta_group::N.sync.aligned: this CTA will allocate no more
/// tensor memory (lets a co-resident CTA's allocation proceed).
template <int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_relinquish_alloc_permit() {
  static_assert(diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_alloc<Target>();
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::%0.sync.aligned;\n"
               :: "n"(CtaGroup) : "memory");
}

}  // namespace ctm
#endif  // __CUDACC__
