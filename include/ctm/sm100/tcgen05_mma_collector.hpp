// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_mma_collector.hpp: tcgen05.mma with the A-operand collector qualifier
// (.collector::a::fill / use / lastuse / discard): keep A in the tensor core's collector
// buffer across consecutive MMAs that share it (fill, then use, then lastuse), or drop it
// (discard). Plain and block-scaled kinds, A from shared or tensor memory, cta_group 1 and 2.
// Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_mma.hpp>                        // Tcgen05Kind, Tcgen05ScaleVec, rules, gates
#include <ctm/generated/sm100_tcgen05_mma_collector.hpp>    // the enumerated asm bodies

namespace ctm {

/// The A-collector usage of a tcgen05.mma (PTX .collector::a::<op>).
enum class Tcgen05CollectorA : int { fill = 0, use = 1, lastuse = 2, discard = 3 };

#if defined(__CUDACC__)

/// tcgen05.mma.cta_group::N.kind::K.collector::a::<Op> [d_tmem], a_desc, b_desc, idesc,
/// enable_input_d.
///   ctm::tcgen05_mma_collector_a<ctm::Tcgen05Kind::f16, ctm::Tcgen05CollectorA::fill>(d, a, b, id, acc);
template <Tcgen05Kind Kind, Tcgen05CollectorA Op, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_collector_a(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                                        std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_collector_impl<static_cast<int>(Kind), CtaGroup, static_cast<int>(Op)>(
      d_tmem, a_desc, b_desc, idesc, enable_input_d);
}

/// The same with A from tensor memory.
template <Tcgen05Kind Kind, Tcgen05CollectorA Op, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_a_tmem_collector_a(std::uint32_t d_tmem, std::uint32_t a_tmem,
                                               std::uint64_t b_desc, std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_collector_a_tmem_impl<static_cast<int>(Kind), CtaGroup, static_cast<int>(Op)>(
      d_tmem, a_tmem, b_desc, idesc, enable_input_d);
}

/// tcgen05.mma.cta_group::N.kind::K.block_scale.scale_vec::VX.collector::a::<Op> [d_tmem],
/// a_desc, b_desc, idesc, [sfa_tmem], [sfb_tmem], enable_input_d.
template <Tcgen05Kind Kind, Tcgen05CollectorA Op, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>,
          int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_block_scale_collector_a(std::uint32_t d_tmem, std::uint64_t a_desc,
                                                    std::uint64_t b_desc, std::uint32_t idesc,
                                                    std::uint32_t sfa_tmem, std::uint32_t sfb_tmem,
                                                    bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_block_scale_collector_impl<static_cast<int>(Kind), static_cast<int>(Vec), CtaGroup,
                                                 static_cast<int>(Op)>(d_tmem, a_desc, b_desc, idesc, sfa_tmem,
                                                                       sfb_tmem, enable_input_d);
}

/// The same with A from tensor memory.
template <Tcgen05Kind Kind, Tcgen05CollectorA Op, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>,
          int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_block_scale_a_tmem_collector_a(std::uint32_t d_tmem, std::uint32_t a_tmem,
                                                           std::uint64_t b_desc, std::uint32_t idesc,
                                                           std::uint32_t sfa_tmem, std::uint32_t sfb_tmem,
                                                           bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_block_scale_collector_a_tmem_impl<static_cast<int>(Kind), static_cast<int>(Vec),
                                                        CtaGroup, static_cast<int>(Op)>(
      d_tmem, a_tmem, b_desc, idesc, sfa_tmem, sfb_tmem, enable_input_d);
}

#endif  // __CUDACC__

}  // namespace ctm
