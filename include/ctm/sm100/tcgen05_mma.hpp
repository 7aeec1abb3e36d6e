// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_mma.hpp: tcgen05.mma, issued by one thread. Kinds f16, tf32, f8f6f4, i8
// (A from shared memory or tensor memory; optional disable-output-lane mask; optional
// scale-input-d for f16/tf32) and the block-scaled kinds mxf8f6f4, mxf4, mxf4nvf4 (with the
// scale-factor tensor-memory addresses). cta_group::1 and ::2. Also the sparse-A (.sp) and
// weight-stationary (.ws, .ws.sp) forms. The .collector::a forms: tcgen05_mma_collector.hpp
// (the .ws .collector::bN forms are not exposed).
// CuTeDSL: the tcgen05 MMA atoms
// (cute.nvgpu.tcgen05.MmaF16BF16Op, MmaTF32Op, MmaF8F6F4Op, MmaI8Op, MmaMXF8Op, MmaMXF4Op,
// MmaMXF4NVF4Op). Target: sm_100a only.
#include <cstdint>
#include <ctm/sm100/tcgen05_config.hpp>            // cta_group rule, target gates
#include <ctm/sm100/tcgen05_desc.hpp>              // Tcgen05Kind, tcgen05_idesc, tcgen05_smem_desc
#include <ctm/generated/sm100_tcgen05_mma.hpp>     // the enumerated asm bodies

namespace ctm {

/// scale-input-d: D is scaled by 2^-S before accumulation (kind::f16 and kind::tf32 only).
/// A typed immediate, checked where it is formed: Tcgen05ScaleInputD<3>{}.
template <int S>
struct Tcgen05ScaleInputD {
  static_assert(S >= 0 && S <= 15,
                "ctm [tcgen05.mma.scale-input-d]: scale-input-d is an immediate from 0 to 15");
  static constexpr int value = S;
};

/// Scale-vector size of the block-scaled kinds (PTX .scale_vec::1X / 2X / 4X): how many scale
/// factors each row of A and column of B has per MMA-K. mxf8f6f4: 1X; mxf4: 2X; mxf4nvf4: 2X
/// (ue8m0 scales) or 4X (ue4m3 scales).
enum class Tcgen05ScaleVec : int { x1 = 1, x2 = 2, x4 = 4 };

namespace diag {
template <Tcgen05Kind Kind>
struct tcgen05_mma_plain_kind {
  static_assert(!tcgen05_kind_is_block_scaled(Kind),
                "ctm [tcgen05.mma.kind]: block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4) are issued "
                "with tcgen05_mma_block_scale");
  static constexpr bool ok = true;
};
template <Tcgen05Kind Kind>
struct tcgen05_mma_scale_input_d_kind {
  static_assert(Kind == Tcgen05Kind::f16 || Kind == Tcgen05Kind::tf32,
                "ctm [tcgen05.mma.scale-input-d]: scale-input-d exists for kind::f16 and "
                "kind::tf32 only");
  static constexpr bool ok = true;
};
template <int CtaGroup, int Words>
struct tcgen05_mma_disable_output_lane {
  static_assert(Words == 4 * CtaGroup,
                "ctm [tcgen05.mma.disable-output-lane]: the disable-output-lane mask is 4 words "
                "for cta_group::1 and 8 words for cta_group::2");
  static constexpr bool ok = true;
};
template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec>
struct tcgen05_mma_block_scale_kind {
  static_assert(tcgen05_kind_is_block_scaled(Kind),
                "ctm [tcgen05.mma.kind]: tcgen05_mma_block_scale takes the block-scaled kinds "
                "mxf8f6f4, mxf4 and mxf4nvf4");
  static_assert((Kind == Tcgen05Kind::mxf8f6f4 && Vec == Tcgen05ScaleVec::x1) ||
                    (Kind == Tcgen05Kind::mxf4 && Vec == Tcgen05ScaleVec::x2) ||
                    (Kind == Tcgen05Kind::mxf4nvf4 &&
                     (Vec == Tcgen05ScaleVec::x2 || Vec == Tcgen05ScaleVec::x4)) ||
                    !tcgen05_kind_is_block_scaled(Kind),
                "ctm [tcgen05.mma.scale-vec]: mxf8f6f4 takes scale_vec::1X, mxf4 2X, mxf4nvf4 2X "
                "(ue8m0 scales) or 4X (ue4m3 scales)");
  static constexpr bool ok = true;
};
template <Tcgen05Kind Kind>
struct tcgen05_mma_ws_kind {
  static_assert(!tcgen05_kind_is_block_scaled(Kind),
                "ctm [tcgen05.mma.ws.kind]: tcgen05.mma.ws takes kinds f16, tf32, f8f6f4 and i8 "
                "(cta_group::1 only)");
  static constexpr bool ok = true;
};
}  // namespace diag

/// The default scale-vector size of a block-scaled kind: 1X for mxf8f6f4, 2X for mxf4 and
/// mxf4nvf4 (use 4X with ue4m3 scales).
template <Tcgen05Kind Kind>
inline constexpr Tcgen05ScaleVec tcgen05_default_scale_vec =
    Kind == Tcgen05Kind::mxf8f6f4 ? Tcgen05ScaleVec::x1 : Tcgen05ScaleVec::x2;

#if defined(__CUDACC__)

// ---- kinds f16, tf32, f8f6f4, i8: A from shared memory ----

/// tcgen05.mma.cta_group::N.kind::K [d_tmem], a_desc, b_desc, idesc, enable_input_d:
/// D (tensor memory) = A * B + (enable_input_d ? D : 0), A and B from shared-memory
/// descriptors (tcgen05_smem_desc), idesc from tcgen05_idesc. One thread issues it.
///   ctm::tcgen05_mma<ctm::Tcgen05Kind::f16>(tmem_d, desc_a, desc_b, idesc, k > 0);
/// @pre Kind is f16, tf32, f8f6f4 or i8 [tcgen05.mma.kind]; cta_group 1 or 2 [tcgen05.cta-group]
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                            std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_impl<static_cast<int>(Kind), CtaGroup>(d_tmem, a_desc, b_desc, idesc, enable_input_d);
}

/// ... with scale-input-d: D = A * B + D * 2^-S (kind::f16, kind::tf32).
/// @pre Kind is f16 or tf32, 0 <= S <= 15 [tcgen05.mma.scale-input-d]
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int S>
CTM_DEVICE void tcgen05_mma(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                            std::uint32_t idesc, bool enable_input_d, Tcgen05ScaleInputD<S>) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_scale_input_d_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_impl_sid<static_cast<int>(Kind), CtaGroup, S>(d_tmem, a_desc, b_desc, idesc,
                                                                   enable_input_d);
}

/// ... with disable-output-lane: bit i of the mask leaves output lane i of D unwritten
/// (4 words for cta_group::1, 8 for cta_group::2).
/// @pre mask size 4 * cta_group [tcgen05.mma.disable-output-lane]
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int Words>
CTM_DEVICE void tcgen05_mma(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                            std::uint32_t idesc, std::uint32_t const (&disable_output_lane)[Words],
                            bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_disable_output_lane<CtaGroup, Words>::ok);
  detail::gate_tcgen05_mma<Target>();
  if constexpr (Words == 4 * CtaGroup)
    detail::tcgen05_mma_impl_dol<static_cast<int>(Kind), CtaGroup>(d_tmem, a_desc, b_desc, idesc,
                                                                  disable_output_lane, enable_input_d);
}

/// ... with disable-output-lane and scale-input-d.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int Words, int S>
CTM_DEVICE void tcgen05_mma(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                            std::uint32_t idesc, std::uint32_t const (&disable_output_lane)[Words],
                            bool enable_input_d, Tcgen05ScaleInputD<S>) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_disable_output_lane<CtaGroup, Words>::ok &&
                diag::tcgen05_mma_scale_input_d_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  if constexpr (Words == 4 * CtaGroup)
    detail::tcgen05_mma_impl_dol_sid<static_cast<int>(Kind), CtaGroup, S>(
        d_tmem, a_desc, b_desc, idesc, disable_output_lane, enable_input_d);
}

// ---- kinds f16, tf32, f8f6f4, i8: A from tensor memory ----

/// tcgen05.mma.cta_group::N.kind::K [d_tmem], [a_tmem], b_desc, idesc, enable_input_d: as
/// tcgen05_mma with A read from tensor memory at `a_tmem`.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                   std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_a_tmem_impl<static_cast<int>(Kind), CtaGroup>(d_tmem, a_tmem, b_desc, idesc,
                                                                   enable_input_d);
}

/// ... with scale-input-d.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int S>
CTM_DEVICE void tcgen05_mma_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                   std::uint32_t idesc, bool enable_input_d, Tcgen05ScaleInputD<S>) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_scale_input_d_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_a_tmem_impl_sid<static_cast<int>(Kind), CtaGroup, S>(d_tmem, a_tmem, b_desc, idesc,
                                                                          enable_input_d);
}

/// ... with disable-output-lane.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int Words>
CTM_DEVICE void tcgen05_mma_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                   std::uint32_t idesc, std::uint32_t const (&disable_output_lane)[Words],
                                   bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_disable_output_lane<CtaGroup, Words>::ok);
  detail::gate_tcgen05_mma<Target>();
  if constexpr (Words == 4 * CtaGroup)
    detail::tcgen05_mma_a_tmem_impl_dol<static_cast<int>(Kind), CtaGroup>(
        d_tmem, a_tmem, b_desc, idesc, disable_output_lane, enable_input_d);
}

/// ... with disable-output-lane and scale-input-d.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void, int Words, int S>
CTM_DEVICE void tcgen05_mma_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                   std::uint32_t idesc, std::uint32_t const (&disable_output_lane)[Words],
                                   bool enable_input_d, Tcgen05ScaleInputD<S>) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok &&
                diag::tcgen05_mma_disable_output_lane<CtaGroup, Words>::ok &&
                diag::tcgen05_mma_scale_input_d_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  if constexpr (Words == 4 * CtaGroup)
    detail::tcgen05_mma_a_tmem_impl_dol_sid<static_cast<int>(Kind), CtaGroup, S>(
        d_tmem, a_tmem, b_desc, idesc, disable_output_lane, enable_input_d);
}

// ---- block-scaled kinds mxf8f6f4, mxf4, mxf4nvf4 ----

/// tcgen05.mma.cta_group::N.kind::K.block_scale.scale_vec::VX [d_tmem], a_desc, b_desc, idesc,
/// [sfa_tmem], [sfb_tmem], enable_input_d: D = (A * SFA) (B * SFB) + (enable_input_d ? D : 0),
/// the scale factors read from tensor memory (their byte lane also goes in the descriptor:
/// tcgen05_idesc_with_sf_ids).
///   ctm::tcgen05_mma_block_scale<ctm::Tcgen05Kind::mxf4nvf4, ctm::Tcgen05ScaleVec::x4>(
///       tmem_d, desc_a, desc_b, idesc, tmem_sfa, tmem_sfb, k > 0);
/// @pre Kind block-scaled [tcgen05.mma.kind]; Vec allowed for Kind [tcgen05.mma.scale-vec]
template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>, int CtaGroup = 1,
          class Target = void>
CTM_DEVICE void tcgen05_mma_block_scale(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                                        std::uint32_t idesc, std::uint32_t sfa_tmem,
                                        std::uint32_t sfb_tmem, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_block_scale_impl<static_cast<int>(Kind), static_cast<int>(Vec), CtaGroup>(
      d_tmem, a_desc, b_desc, idesc, sfa_tmem, sfb_tmem, enable_input_d);
}

/// The same with A from tensor memory.
template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>, int CtaGroup = 1,
          class Target = void>
CTM_DEVICE void tcgen05_mma_block_scale_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem,
                                               std::uint64_t b_desc, std::uint32_t idesc,
                                               std::uint32_t sfa_tmem, std::uint32_t sfb_tmem,
                                               bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_block_scale_a_tmem_impl<static_cast<int>(Kind), static_cast<int>(Vec), CtaGroup>(
      d_tmem, a_tmem, b_desc, idesc, sfa_tmem, sfb_tmem, enable_input_d);
}

// ---- sparse A: tcgen05.mma.sp ----

/// tcgen05.mma.sp.cta_group::N.kind::K [d_tmem], a_desc, b_desc, [sp_meta_tmem], idesc,
/// enable_input_d: A is 2:4 (4:8 for tf32) structured-sparse, its metadata in tensor memory at
/// `sp_meta_tmem`; the descriptor has the sparse bit and selector (tcgen05_idesc with
/// .sparse = true). K doubles over the dense form.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_sp(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                               std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_sp_impl<static_cast<int>(Kind), CtaGroup>(d_tmem, a_desc, b_desc, sp_meta_tmem, idesc,
                                                               enable_input_d);
}

/// The same with A from tensor memory.
template <Tcgen05Kind Kind, int CtaGroup = 1, class Target = void>
CTM_DEVICE void tcgen05_mma_sp_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                      std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_plain_kind<Kind>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_sp_a_tmem_impl<static_cast<int>(Kind), CtaGroup>(d_tmem, a_tmem, b_desc, sp_meta_tmem,
                                                                      idesc, enable_input_d);
}

/// tcgen05.mma.sp.cta_group::N.kind::K.block_scale.scale_vec::VX [d_tmem], a_desc, b_desc,
/// [sp_meta_tmem], idesc, [sfa_tmem], [sfb_tmem], enable_input_d.
template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>, int CtaGroup = 1,
          class Target = void>
CTM_DEVICE void tcgen05_mma_sp_block_scale(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                                           std::uint32_t sp_meta_tmem, std::uint32_t idesc,
                                           std::uint32_t sfa_tmem, std::uint32_t sfb_tmem, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_sp_block_scale_impl<static_cast<int>(Kind), static_cast<int>(Vec), CtaGroup>(
      d_tmem, a_desc, b_desc, sp_meta_tmem, idesc, sfa_tmem, sfb_tmem, enable_input_d);
}

/// The same with A from tensor memory.
template <Tcgen05Kind Kind, Tcgen05ScaleVec Vec = tcgen05_default_scale_vec<Kind>, int CtaGroup = 1,
          class Target = void>
CTM_DEVICE void tcgen05_mma_sp_block_scale_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem,
                                                  std::uint64_t b_desc, std::uint32_t sp_meta_tmem,
                                                  std::uint32_t idesc, std::uint32_t sfa_tmem,
                                                  std::uint32_t sfb_tmem, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_block_scale_kind<Kind, Vec>::ok && diag::tcgen05_cta_group<CtaGroup>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_sp_block_scale_a_tmem_impl<static_cast<int>(Kind), static_cast<int>(Vec), CtaGroup>(
      d_tmem, a_tmem, b_desc, sp_meta_tmem, idesc, sfa_tmem, sfb_tmem, enable_input_d);
}

// ---- weight-stationary: tcgen05.mma.ws (cta_group::1) ----

/// tcgen05.mma.ws.cta_group::1.kind::K [d_tmem], a_desc, b_desc, idesc, enable_input_d: the
/// weight-stationary form (M = 32, 64, 128; N = 64, 128, 256; the descriptor built with
/// .ws = true, optionally with a maximum B-reuse shift).
/// @pre Kind is f16, tf32, f8f6f4 or i8 [tcgen05.mma.ws.kind]
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                               std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_impl<static_cast<int>(Kind)>(d_tmem, a_desc, b_desc, idesc, enable_input_d);
}

/// ... with the 64-bit zero-column-mask descriptor (PTX zero-column-mask-desc: which columns of
/// B read as zero, as start counts and use/skip spans, plus the B shift; no encoder here yet).
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                               std::uint32_t idesc, bool enable_input_d, std::uint64_t zero_column_mask_desc) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_impl_mask<static_cast<int>(Kind)>(d_tmem, a_desc, b_desc, idesc, enable_input_d,
                                                          zero_column_mask_desc);
}

/// tcgen05.mma.ws with A from tensor memory.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                      std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_a_tmem_impl<static_cast<int>(Kind)>(d_tmem, a_tmem, b_desc, idesc, enable_input_d);
}

/// ... with the zero-column mask.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                      std::uint32_t idesc, bool enable_input_d, std::uint64_t zero_column_mask_desc) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_a_tmem_impl_mask<static_cast<int>(Kind)>(d_tmem, a_tmem, b_desc, idesc,
                                                                 enable_input_d, zero_column_mask_desc);
}

/// tcgen05.mma.ws.sp.cta_group::1.kind::K [d_tmem], a_desc, b_desc, [sp_meta_tmem], idesc,
/// enable_input_d: weight-stationary with sparse A.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_sp(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                                  std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_sp_impl<static_cast<int>(Kind)>(d_tmem, a_desc, b_desc, sp_meta_tmem, idesc,
                                                        enable_input_d);
}

/// ... with the zero-column mask.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_sp(std::uint32_t d_tmem, std::uint64_t a_desc, std::uint64_t b_desc,
                                  std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d,
                                  std::uint64_t zero_column_mask_desc) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_sp_impl_mask<static_cast<int>(Kind)>(d_tmem, a_desc, b_desc, sp_meta_tmem, idesc,
                                                             enable_input_d, zero_column_mask_desc);
}

/// tcgen05.mma.ws.sp with A from tensor memory.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_sp_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                         std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_sp_a_tmem_impl<static_cast<int>(Kind)>(d_tmem, a_tmem, b_desc, sp_meta_tmem, idesc,
                                                               enable_input_d);
}

/// ... with the zero-column mask.
template <Tcgen05Kind Kind, class Target = void>
CTM_DEVICE void tcgen05_mma_ws_sp_a_tmem(std::uint32_t d_tmem, std::uint32_t a_tmem, std::uint64_t b_desc,
                                         std::uint32_t sp_meta_tmem, std::uint32_t idesc, bool enable_input_d,
                                         std::uint64_t zero_column_mask_desc) {
  static_assert(diag::tcgen05_mma_ws_kind<Kind>::ok);
  detail::gate_tcgen05_mma<Target>();
  detail::tcgen05_mma_ws_sp_a_tmem_impl_mask<static_cast<int>(Kind)>(d_tmem, a_tmem, b_desc, sp_meta_tmem,
                                                                    idesc, enable_input_d, zero_column_mask_desc);
}

#endif  // __CUDACC__

}  // namespace ctm
