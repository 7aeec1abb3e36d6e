// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch arithmetic: fma/add/mul_packed_f32x2 (the f32x2 instructions on sm_100a and
// sm_120a; two scalar operations on sm_90a, which lacks them), cvt_f16x2_f32, cvt_e4m3x2_f32,
// warp_reduction_max_f32 / warp_reduction_sum_f32, exp2, rcp_approx, fmax, popc.
#include <cstdint>
#include <ctm/common/cvt.hpp>             // cvt_rn_f16x2_f32, cvt_rn_satfinite_e4m3x2_f32
#include <ctm/common/f32x2.hpp>           // fma_rn_f32x2, add_rn_f32x2, mul_rn_f32x2
#include <ctm/common/math.hpp>            // ex2_approx_ftz_f32, rcp_approx_ftz_f32, popc_b32
#include <ctm/common/shfl.hpp>            // shfl_sync_bfly_b32, redux_sync_max_f32

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// {a.x*b.x + c.x, a.y*b.y + c.y}, each rounded once (fma.rn). sm_100a/sm_120a: one
/// fma.rn.f32x2; sm_90a: two fmaf (same results).
__device__ __forceinline__ float2 fma_packed_f32x2(float2 a, float2 b, float2 c) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  return ctm::fma_rn_f32x2(a, b, c);
#else
  return make_float2(__fmaf_rn(a.x, b.x, c.x), __fmaf_rn(a.y, b.y, c.y));
#endif
}
/// {a.x + b.x, a.y + b.y} (add.rn.f32x2 where it exists).
__device__ __forceinline__ float2 add_packed_f32x2(float2 a, float2 b) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  return ctm::add_rn_f32x2(a, b);
#else
  return make_float2(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y));
#endif
}
/// {a.x * b.x, a.y * b.y} (mul.rn.f32x2 where it exists).
__device__ __forceinline__ float2 mul_packed_f32x2(float2 a, float2 b) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  return ctm::mul_rn_f32x2(a, b);
#else
  return make_float2(__fmul_rn(a.x, b.x), __fmul_rn(a.y, b.y));
#endif
}

/// Two floats to a packed f16 pair, x in the low half (the order of __floats2half2_rn and of
/// a half2's .x/.y); round to nearest even.
__device__ __forceinline__ std::uint32_t cvt_f16x2_f32(float x, float y) { return ctm::cvt_rn_f16x2_f32(y, x); }

/// Two floats to a packed e4m3 pair, x in the low byte; round to nearest even, out-of-range values
/// clamped to +-448 (satfinite).
__device__ __forceinline__ std::uint16_t cvt_e4m3x2_f32(float x, float y) {
  return ctm::cvt_rn_satfinite_e4m3x2_f32(y, x);
}

/// The maximum of v over the 32 lanes, in every lane (redux.sync.max.f32 on sm_100a, a
/// butterfly of shuffles and fmaxf elsewhere): NaN lanes are ignored unless all are NaN.
__device__ __forceinline__ float warp_reduction_max_f32(float v) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  return ctm::redux_sync_max_f32(v);
#else
  for (std::uint32_t m = 16; m > 0; m >>= 1) v = fmaxf(v, ctm::shfl_sync_bfly_b32(v, m));
  return v;
#endif
}
/// The sum of v over the 32 lanes, in every lane (butterfly; every lane gets the same bits).
__device__ __forceinline__ float warp_reduction_sum_f32(float v) {
  for (std::uint32_t m = 16; m > 0; m >>= 1) v += ctm::shfl_sync_bfly_b32(v, m);
  return v;
}

/// 2^x (ex2.approx.ftz.f32), 1/x (rcp.approx.ftz.f32), the NaN-propagating maximum, popc.
__device__ __forceinline__ float exp2(float x) { return ctm::ex2_approx_ftz_f32(x); }
__device__ __forceinline__ float rcp_approx(float x) { return ctm::rcp_approx_ftz_f32(x); }
__device__ __forceinline__ float fmax(float a, float b) { return ctm::max_NaN_f32(a, b); }
__device__ __forceinline__ std::uint32_t popc(std::uint32_t x) { return ctm::popc_b32(x); }

}  // namespace cute_cpp::arch
#endif
