// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The quantization the block-scaled FP8 GEMM reads (DeepSeek-V3's recipe): bf16 to e4m3 with one
// float scale per 128 consecutive elements of a row (quantize_1x128: activations, a model calls it
// on every GEMM input) or per 128 x 128 block (quantize_128x128: weights, once at load). A group's
// scale is amax / 448 (448: e4m3's largest finite value), so the group's largest element maps to
// 448; each element is x * (448 / amax) rounded to nearest, saturated. An all-zero group gets
// scale 1 (its elements stay 0). The scales are written at i * row_stride + kb * k_stride
// (examples/gemm_sm90's BlockScales), so either layout the GEMM takes comes out directly.
// Constraints [fp8.quantize]: K a multiple of 16 (the GEMM's), rows of x and q 16-byte aligned
// (row strides multiples of 8 and 16 elements), strides positive.
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cute_cpp::examples {

/// e4m3's largest finite value.
inline constexpr float e4m3_max = 448.0f;

/// Where a quantization writes: q (rows, K) e4m3 with `ldq` elements between rows, and the scales.
struct Fp8Quantized {
  __nv_fp8_e4m3* q = nullptr;
  std::int64_t ldq = 0;
  float* scales = nullptr;
  std::int64_t scale_row_stride = 0, scale_k_stride = 0;
};

namespace detail {

/// The scale of a group whose largest magnitude is amax, and its reciprocal's use: x * (448 / amax).
__device__ __forceinline__ float fp8_scale(float amax) { return amax > 0.0f ? amax / e4m3_max : 1.0f; }
__device__ __forceinline__ float fp8_inverse_scale(float amax) { return amax > 0.0f ? e4m3_max / amax : 1.0f; }

/// Four bf16 at p (8-byte aligned), as floats.
__device__ __forceinline__ void load4(__nv_bfloat16 const* p, float (&v)[4]) {
  uint2 const raw = *reinterpret_cast<uint2 const*>(p);
  auto const lo = *reinterpret_cast<__nv_bfloat162 const*>(&raw.x);
  auto const hi = *reinterpret_cast<__nv_bfloat162 const*>(&raw.y);
  v[0] = __low2float(lo), v[1] = __high2float(lo), v[2] = __low2float(hi), v[3] = __high2float(hi);
}

/// Four values times `inverse`, rounded to e4m3 (nearest, saturated), stored at p (4-byte aligned).
__device__ __forceinline__ void store4(__nv_fp8_e4m3* p, float const (&v)[4], float inverse) {
  __nv_fp8x4_e4m3 const q(float4{v[0] * inverse, v[1] * inverse, v[2] * inverse, v[3] * inverse});
  *reinterpret_cast<__nv_fp8x4_storage_t*>(p) = q.__x;
}

}  // namespace detail

inline constexpr int quantize_threads = 256;
using QuantizePlan = KernelPlan<quantize_threads>;

/// One warp per group of 128 elements of a row: each lane four of them.
__global__ void __launch_bounds__(quantize_threads)
quantize_1x128_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                      Fp8Quantized out) {
  static_assert(verify_plan<QuantizePlan>());
  std::int64_t const groups = (k + 127) / 128;
  std::int64_t const group = std::int64_t(blockIdx.x) * (quantize_threads / 32) + threadIdx.x / 32;
  if (group >= rows * groups) return;
  std::int64_t const row = group / groups, kb = group % groups;
  std::int64_t const col = kb * 128 + (threadIdx.x % 32) * 4;
  float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (col < k) detail::load4(x + row * ldx + col, v);  // K % 16 == 0: a lane's four are all in or all out
  float amax = fmaxf(fmaxf(fabsf(v[0]), fabsf(v[1])), fmaxf(fabsf(v[2]), fabsf(v[3])));
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
  if (col < k) detail::store4(out.q + row * out.ldq + col, v, detail::fp8_inverse_scale(amax));
  if (threadIdx.x % 32 == 0) out.scales[row * out.scale_row_stride + kb * out.scale_k_stride] = detail::fp8_scale(amax);
}

/// One CTA per 128 x 128 block: thread t takes row t / 2 of it, columns 64 (t % 2) .. +63, in
/// sixteen groups of four; the block's amax meets through the warps' in shared memory.
__global__ void __launch_bounds__(quantize_threads)
quantize_128x128_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                        Fp8Quantized out) {
  static_assert(verify_plan<QuantizePlan>());
  __shared__ float warp_amax[quantize_threads / 32];
  std::int64_t const row = std::int64_t(blockIdx.y) * 128 + threadIdx.x / 2;
  std::int64_t const col0 = std::int64_t(blockIdx.x) * 128 + (threadIdx.x % 2) * 64;
  float v[16][4];
  float amax = 0.0f;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    v[i][0] = v[i][1] = v[i][2] = v[i][3] = 0.0f;
    if (row < rows && col0 + 4 * i < k) detail::load4(x + row * ldx + col0 + 4 * i, v[i]);
    amax = fmaxf(amax, fmaxf(fmaxf(fabsf(v[i][0]), fabsf(v[i][1])), fmaxf(fabsf(v[i][2]), fabsf(v[i][3]))));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
  if (threadIdx.x % 32 == 0) warp_amax[threadIdx.x / 32] = amax;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < quantize_threads / 32; ++w) amax = fmaxf(amax, warp_amax[w]);
  float const inverse = detail::fp8_inverse_scale(amax);
#pragma unroll
  for (int i = 0; i < 16; ++i)
    if (row < rows && col0 + 4 * i < k) detail::store4(out.q + row * out.ldq + col0 + 4 * i, v[i], inverse);
  if (threadIdx.x == 0)
    out.scales[std::int64_t(blockIdx.y) * out.scale_row_stride + std::int64_t(blockIdx.x) * out.scale_k_stride] =
        detail::fp8_scale(amax);
}

namespace detail {
inline void check_quantize(char const* what, __nv_bfloat16 const* x, std::int64_t ldx, std::int64_t rows,
                           std::int64_t k, Fp8Quantized const& out, cudaStream_t stream) {
  auto const fail = [&](std::string const& why) { host::argument_error("fp8.quantize", std::string(what) + ": " + why); };
  if (rows < 0 || k <= 0 || k % 16 != 0) fail("K must be a positive multiple of 16 (got " + std::to_string(k) + ")");
  if (ldx < k || ldx % 8 != 0 || out.ldq < k || out.ldq % 16 != 0)
    fail("row strides must cover K and keep rows 16-byte aligned (x: " + std::to_string(ldx) + ", q: " +
         std::to_string(out.ldq) + ")");
  if (reinterpret_cast<std::uintptr_t>(x) % 16 != 0 || reinterpret_cast<std::uintptr_t>(out.q) % 16 != 0)
    fail("x and q must be 16-byte aligned");
  if (out.scale_row_stride <= 0 || out.scale_k_stride <= 0) fail("scale strides must be positive");
  host::PointerArgument const pointers[] = {{"x", x}, {"q", out.q}, {"scales", out.scales}};
  host::check_device_pointers("fp8.quantize", pointers, stream);
  host::check_stream("fp8.quantize", stream);
}
}  // namespace detail

/// x (rows, K) bf16 -> q e4m3 and one scale per row and 128 of K (scales (rows, ceil(K/128)) at
/// out's strides): the block-scaled GEMM's A.
inline void quantize_1x128(__nv_bfloat16 const* x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                           Fp8Quantized const& out, cudaStream_t stream = nullptr) {
  detail::check_quantize("quantize_1x128", x, ldx, rows, k, out, stream);
  std::int64_t const groups = rows * ((k + 127) / 128);
  if (groups == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((groups + quantize_threads / 32 - 1) / (quantize_threads / 32)));
  config.block = dim3(quantize_threads);
  config.stream = stream;
  host::launch(&quantize_1x128_kernel, "quantize_1x128", config, x, ldx, rows, k, out);
}

/// w (rows, K) bf16 -> q e4m3 and one scale per 128 x 128 block (scales (ceil(rows/128),
/// ceil(K/128)) at out's strides): the block-scaled GEMM's B, a weight quantized once.
inline void quantize_128x128(__nv_bfloat16 const* w, std::int64_t ldw, std::int64_t rows, std::int64_t k,
                             Fp8Quantized const& out, cudaStream_t stream = nullptr) {
  detail::check_quantize("quantize_128x128", w, ldw, rows, k, out, stream);
  if (rows == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((k + 127) / 128), unsigned((rows + 127) / 128));
  config.block = dim3(quantize_threads);
  config.stream = stream;
  host::launch(&quantize_128x128_kernel, "quantize_128x128", config, w, ldw, rows, k, out);
}

}  // namespace cute_cpp::examples
