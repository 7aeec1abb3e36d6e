// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Conversions: f32 pairs to packed f16x2 / bf16x2, f32 pairs and f16x2 to packed fp8 pairs
// (e4m3x2, e5m2x2, saturating), fp8 pairs back to f16x2, f16/bf16 to f32, f32 to tf32.
// In a packed result the first source operand lands in the upper half (PTX's rule):
// cvt_rn_f16x2_f32(hi, lo). FP4 (e2m1x2) and UE8M0 packs exist on sm_100a and sm_120a only.
// CuTeDSL: cute.arch.cvt_f16x2_f32 and the fp8 converts underneath.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- to 16-bit pairs ----

/// cvt.rn.f16x2.f32 d, hi, lo: d = {f16(hi) << 16 | f16(lo)}, round to nearest even.
CTM_DEVICE std::uint32_t cvt_rn_f16x2_f32(float hi, float lo) {
  std::uint32_t d; asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo)); return d;
}
/// cvt.rn.bf16x2.f32 d, hi, lo.
CTM_DEVICE std::uint32_t cvt_rn_bf16x2_f32(float hi, float lo) {
  std::uint32_t d; asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo)); return d;
}
/// cvt.rn.f16.f32 d, a: one half's bits.
CTM_DEVICE std::uint16_t cvt_rn_f16_f32(float a) {
  std::uint16_t d; asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(d) : "f"(a)); return d;
}
/// cvt.rn.bf16.f32 d, a.
CTM_DEVICE std::uint16_t cvt_rn_bf16_f32(float a) {
  std::uint16_t d; asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(d) : "f"(a)); return d;
}

// ---- from 16-bit ----

/// cvt.f32.f16 d, a (exact).
CTM_DEVICE float cvt_f32_f16(std::uint16_t a) {
  float d; asm("cvt.f32.f16 %0, %1;\n" : "=f"(d) : "h"(a)); return d;
}
/// cvt.f32.bf16 d, a (exact).
CTM_DEVICE float cvt_f32_bf16(std::uint16_t a) {
  float d; asm("cvt.f32.bf16 %0, %1;\n" : "=f"(d) : "h"(a)); return d;
}

// ---- fp8 pairs ----

/// cvt.rn.satfinite.e4m3x2.f32 d, hi, lo: two e4m3 bytes, out-of-range values clamp to ±448.
CTM_DEVICE std::uint16_t cvt_rn_satfinite_e4m3x2_f32(float hi, float lo) {
  std::uint16_t d; asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;\n" : "=h"(d) : "f"(hi), "f"(lo)); return d;
}
/// cvt.rn.satfinite.e5m2x2.f32 d, hi, lo: two e5m2 bytes, clamped to ±57344.
CTM_DEVICE std::uint16_t cvt_rn_satfinite_e5m2x2_f32(float hi, float lo) {
  std::uint16_t d; asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;\n" : "=h"(d) : "f"(hi), "f"(lo)); return d;
}
/// cvt.rn.satfinite.e4m3x2.f16x2 d, a.
CTM_DEVICE std::uint16_t cvt_rn_satfinite_e4m3x2_f16x2(std::uint32_t a) {
  std::uint16_t d; asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;\n" : "=h"(d) : "r"(a)); return d;
}
/// cvt.rn.satfinite.e5m2x2.f16x2 d, a.
CTM_DEVICE std::uint16_t cvt_rn_satfinite_e5m2x2_f16x2(std::uint32_t a) {
  std::uint16_t d; asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;\n" : "=h"(d) : "r"(a)); return d;
}
/// cvt.rn.f16x2.e4m3x2 d, a (exact).
CTM_DEVICE std::uint32_t cvt_rn_f16x2_e4m3x2(std::uint16_t a) {
  std::uint32_t d; asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n" : "=r"(d) : "h"(a)); return d;
}
/// cvt.rn.f16x2.e5m2x2 d, a (exact).
CTM_DEVICE std::uint32_t cvt_rn_f16x2_e5m2x2(std::uint16_t a) {
  std::uint32_t d; asm("cvt.rn.f16x2.e5m2x2 %0, %1;\n" : "=r"(d) : "h"(a)); return d;
}

// ---- tf32 ----

/// cvt.rna.tf32.f32 d, a: rounds to tf32 (nearest, ties away), kept in a 32-bit register.
CTM_DEVICE std::uint32_t cvt_rna_tf32_f32(float a) {
  std::uint32_t d; asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(d) : "f"(a)); return d;
}

// ---- fp4 and ue8m0 (sm_100a, sm_120a) ----

/// cvt.rn.satfinite.e2m1x2.f32 d, hi, lo: two FP4 (e2m1) values in one byte, hi in the upper
/// nibble, clamped to ±6. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE std::uint8_t cvt_rn_satfinite_e2m1x2_f32(float hi, float lo) {
  std::uint8_t d = 0;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  std::uint32_t r;
  asm("{\n.reg .b8 q;\ncvt.rn.satfinite.e2m1x2.f32 q, %1, %2;\ncvt.u32.u8 %0, q;\n}\n" : "=r"(r) : "f"(hi), "f"(lo));
  d = static_cast<std::uint8_t>(r);
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: cvt.rn.satfinite.e2m1x2.f32 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
  return d;
}
/// cvt.rn.f16x2.e2m1x2 d, a: two FP4 values to an f16 pair (exact). Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE std::uint32_t cvt_rn_f16x2_e2m1x2(std::uint8_t a) {
  std::uint32_t d = 0;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("{\n.reg .b8 q;\ncvt.u8.u32 q, %1;\ncvt.rn.f16x2.e2m1x2 %0, q;\n}\n" : "=r"(d) : "r"(std::uint32_t{a}));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: cvt.rn.f16x2.e2m1x2 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
  return d;
}
/// cvt.rz.satfinite.ue8m0x2.f32 d, hi, lo: two UE8M0 (power-of-two) scale factors, rounded
/// toward zero (MX block scales). Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE std::uint16_t cvt_rz_satfinite_ue8m0x2_f32(float hi, float lo) {
  std::uint16_t d = 0;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("cvt.rz.satfinite.ue8m0x2.f32 %0, %1, %2;\n" : "=h"(d) : "f"(hi), "f"(lo));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: cvt.rz.satfinite.ue8m0x2.f32 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
  return d;
}
/// cvt.rn.bf16x2.ue8m0x2 d, a: two UE8M0 scales to a bf16 pair (exact). Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE std::uint32_t cvt_rn_bf16x2_ue8m0x2(std::uint16_t a) {
  std::uint32_t d = 0;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("cvt.rn.bf16x2.ue8m0x2 %0, %1;\n" : "=r"(d) : "h"(a));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: cvt.rn.bf16x2.ue8m0x2 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
  return d;
}

}  // namespace ctm
#endif
