// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Fast-math and bit instructions used by softmax and reductions: ex2.approx (f32, ftz, f16x2),
// rcp.approx.ftz, tanh.approx, lg2.approx.ftz, popc, max/min with .NaN. CuTeDSL: cute.arch.exp2,
// rcp_approx, popc, fmax underneath. Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

/// ex2.approx.ftz.f32 d, a: 2^a (max relative error about 2^-22; subnormals flushed).
CTM_DEVICE float ex2_approx_ftz_f32(float a) { float d; asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(d) : "f"(a)); return d; }
/// ex2.approx.f32 d, a: 2^a, subnormal results kept.
CTM_DEVICE float ex2_approx_f32(float a) { float d; asm("ex2.approx.f32 %0, %1;\n" : "=f"(d) : "f"(a)); return d; }
/// ex2.approx.f16x2 d, a: 2^a on a packed f16 pair.
CTM_DEVICE std::uint32_t ex2_approx_f16x2(std::uint32_t a) {
  std::uint32_t d; asm("ex2.approx.f16x2 %0, %1;\n" : "=r"(d) : "r"(a)); return d;
}
/// lg2.approx.ftz.f32 d, a: log2(a).
CTM_DEVICE float lg2_approx_ftz_f32(float a) { float d; asm("lg2.approx.ftz.f32 %0, %1;\n" : "=f"(d) : "f"(a)); return d; }
/// rcp.approx.ftz.f32 d, a: 1/a (max relative error about 2^-23).
CTM_DEVICE float rcp_approx_ftz_f32(float a) { float d; asm("rcp.approx.ftz.f32 %0, %1;\n" : "=f"(d) : "f"(a)); return d; }
/// tanh.approx.f32 d, a.
CTM_DEVICE float tanh_approx_f32(float a) { float d; asm("tanh.approx.f32 %0, %1;\n" : "=f"(d) : "f"(a)); return d; }
/// max.NaN.f32 d, a, b: the maximum, NaN if either is NaN.
CTM_DEVICE float max_NaN_f32(float a, float b) { float d; asm("max.NaN.f32 %0, %1, %2;\n" : "=f"(d) : "f"(a), "f"(b)); return d; }
/// min.NaN.f32 d, a, b.
CTM_DEVICE float min_NaN_f32(float a, float b) { float d; asm("min.NaN.f32 %0, %1, %2;\n" : "=f"(d) : "f"(a), "f"(b)); return d; }
/// popc.b32 d, a: the number of set bits.
CTM_DEVICE std::uint32_t popc_b32(std::uint32_t a) { std::uint32_t d; asm("popc.b32 %0, %1;\n" : "=r"(d) : "r"(a)); return d; }

}  // namespace ctm
#endif
