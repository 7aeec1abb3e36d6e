// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Packed two-float arithmetic: fma.rn.f32x2, add.rn.f32x2, mul.rn.f32x2 on a 64-bit register
// holding {lo, hi}. PTX requires sm_100 or later: sm_100a and sm_120a have them, sm_90a does not
// (cute_cpp::arch::fma_packed_f32x2 falls back to two scalar fma there).
// CuTeDSL: cute.arch.fma_packed_f32x2, add_packed_f32x2, mul_packed_f32x2 underneath.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, detail::always_false

#if defined(__CUDACC__)
namespace ctm {

/// fma.rn.f32x2 d, a, b, c: {d.x, d.y} = {a.x*b.x + c.x, a.y*b.y + c.y}. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE float2 fma_rn_f32x2(float2 a, float2 b, float2 c) {
  float2 d{};
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("{\n.reg .b64 ra, rb, rc, rd;\n"
      "mov.b64 ra, {%2, %3};\nmov.b64 rb, {%4, %5};\nmov.b64 rc, {%6, %7};\n"
      "fma.rn.f32x2 rd, ra, rb, rc;\n"
      "mov.b64 {%0, %1}, rd;\n}\n"
      : "=f"(d.x), "=f"(d.y)
      : "f"(a.x), "f"(a.y), "f"(b.x), "f"(b.y), "f"(c.x), "f"(c.y));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: fma.rn.f32x2 does not exist on sm_90a; "
                "use two fmaf calls (cute_cpp::arch::fma_packed_f32x2 does)");
#  endif
#endif
  return d;
}

/// add.rn.f32x2 d, a, b. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE float2 add_rn_f32x2(float2 a, float2 b) {
  float2 d{};
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("{\n.reg .b64 ra, rb, rd;\n"
      "mov.b64 ra, {%2, %3};\nmov.b64 rb, {%4, %5};\n"
      "add.rn.f32x2 rd, ra, rb;\n"
      "mov.b64 {%0, %1}, rd;\n}\n"
      : "=f"(d.x), "=f"(d.y)
      : "f"(a.x), "f"(a.y), "f"(b.x), "f"(b.y));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: add.rn.f32x2 does not exist on sm_90a; "
                "use two scalar adds (cute_cpp::arch::add_packed_f32x2 does)");
#  endif
#endif
  return d;
}

/// mul.rn.f32x2 d, a, b. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE float2 mul_rn_f32x2(float2 a, float2 b) {
  float2 d{};
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm("{\n.reg .b64 ra, rb, rd;\n"
      "mov.b64 ra, {%2, %3};\nmov.b64 rb, {%4, %5};\n"
      "mul.rn.f32x2 rd, ra, rb;\n"
      "mov.b64 {%0, %1}, rd;\n}\n"
      : "=f"(d.x), "=f"(d.y)
      : "f"(a.x), "f"(a.y), "f"(b.x), "f"(b.y));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: mul.rn.f32x2 does not exist on sm_90a; "
                "use two scalar multiplies (cute_cpp::arch::mul_packed_f32x2 does)");
#  endif
#endif
  return d;
}

}  // namespace ctm
#endif
