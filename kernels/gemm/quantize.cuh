// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The quantization the block-scaled FP8 GEMM reads (DeepSeek-V3's recipe): bf16 to e4m3 with one
// float scale per 128 consecutive elements of a row (quantize_1x128: activations, a model calls it
// on every GEMM input) or per 128 x 128 block (quantize_128x128: weights, once at load). A group's
// scale is amax / 448 (448: e4m3's largest finite value), so the group's largest element maps to
// 448; each element is x * (448 / amax) rounded to nearest, saturated. An all-zero group gets
// scale 1 (its elements stay 0): epilogue/block_quantize.hpp's rules, which the GEMM's FP8
// epilogue follows too. The scales are written at i * row_stride + kb * k_stride
// (the GEMM's BlockScales, gemm.hpp), so either layout the GEMM takes comes out directly.
// Constraints [fp8.quantize]: K a multiple of 16 (the GEMM's), rows of x and q 16-byte aligned
// (row strides multiples of 8 and 16 elements), strides positive.
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/epilogue/block_quantize.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/sched/fast_divmod.hpp>

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

/// e4m3's largest finite value.
inline constexpr float e4m3_max = epilogue::fp8_max_finite<__nv_fp8_e4m3>;

/// Where a quantization writes: q (rows, K) e4m3 with `ldq` elements between rows, and the scales.
struct Fp8Quantized {
  __nv_fp8_e4m3* q = nullptr;
  std::int64_t ldq = 0;
  float* scales = nullptr;
  std::int64_t scale_row_stride = 0, scale_k_stride = 0;
};

namespace detail {

// NOTE: eight bf16 stay packed in a uint4 (four registers) between the load and the store, so a
// lane holds its eight loads in flight in 32 registers.

/// Eight bf16 (16 bytes) as floats.
__device__ __forceinline__ void unpack8(uint4 const& raw, float (&v)[8]) {
  auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&raw);
#pragma unroll
  for (int e = 0; e < 4; ++e) v[2 * e] = __low2float(h[e]), v[2 * e + 1] = __high2float(h[e]);
}

/// Eight bf16 times `inverse`, rounded to e4m3 (nearest, saturated), stored at p (8-byte aligned).
__device__ __forceinline__ void store8(__nv_fp8_e4m3* p, uint4 const& raw, float inverse) {
  float v[8];
  unpack8(raw, v);
  __nv_fp8x4_e4m3 const lo(float4{v[0] * inverse, v[1] * inverse, v[2] * inverse, v[3] * inverse});
  __nv_fp8x4_e4m3 const hi(float4{v[4] * inverse, v[5] * inverse, v[6] * inverse, v[7] * inverse});
  *reinterpret_cast<uint2*>(p) = uint2{lo.__x, hi.__x};
}

/// The largest magnitude of eight bf16.
__device__ __forceinline__ float amax8(uint4 const& raw) {
  float v[8];
  unpack8(raw, v);
  float m = 0.0f;
#pragma unroll
  for (float x : v) m = fmaxf(m, fabsf(x));
  return m;
}

}  // namespace detail

inline constexpr int quantize_threads = 256;
using QuantizePlan = KernelPlan<quantize_threads>;
/// Loads in flight per lane: each a half-warp's 16-byte piece of one 128-element row segment.
inline constexpr int quantize_loads = 4;

/// Half a warp per group of 128 elements of a row, each lane eight of them (16 bytes): a warp's
/// load covers two groups, and each lane has quantize_loads loads in flight (8 groups a warp).
/// `groups` divides a group's index into its row and K block (fewer than 2^31 groups: the host's
/// rule), `total` is rows x groups.
/// NOTE: with one 8-byte load a lane per group (a warp per group) it read at 0.49x of a device copy.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(quantize_threads)
quantize_1x128_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, FastDivmod const groups,
                      std::int32_t const total, std::int64_t k, Fp8Quantized out) {
  static_assert(verify_plan<QuantizePlan>());
  int const lane = int(threadIdx.x % 32), half = lane / 16, piece = lane % 16;
  std::int32_t const first = (std::int32_t(blockIdx.x) * (quantize_threads / 32) + std::int32_t(threadIdx.x / 32)) *
                             2 * quantize_loads;
  uint4 v[quantize_loads];
  std::int64_t row[quantize_loads], kb[quantize_loads];
  bool in[quantize_loads];
#pragma unroll
  for (int i = 0; i < quantize_loads; ++i) {
    std::int32_t const group = first + 2 * i + half;
    std::uint32_t r = 0, b = 0;
    groups.divmod(std::uint32_t(group), r, b);
    row[i] = r, kb[i] = b;
    std::int64_t const col = kb[i] * 128 + piece * 8;
    in[i] = group < total && col < k;  // K % 16 == 0: a lane's eight are all in or all out
    v[i] = in[i] ? *reinterpret_cast<uint4 const*>(x + row[i] * ldx + col) : uint4{0, 0, 0, 0};
  }
#pragma unroll
  for (int i = 0; i < quantize_loads; ++i) {
    float amax = detail::amax8(v[i]);
#pragma unroll
    for (int offset = 8; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
    if (in[i])
      detail::store8(out.q + row[i] * out.ldq + kb[i] * 128 + piece * 8, v[i],
                     epilogue::fp8_block_inverse_scale(amax, e4m3_max));
    if (piece == 0 && first + 2 * i + half < total)
      out.scales[row[i] * out.scale_row_stride + kb[i] * out.scale_k_stride] = epilogue::fp8_block_scale(amax, e4m3_max);
  }
}

/// One CTA per 128 x 128 block: a warp's load covers two of its rows (a half-warp a row, 16 bytes
/// a lane), eight loads in flight a lane; the block's amax meets through the warps' in shared memory.
/// NOTE: with two threads a row (8-byte loads, 16 rows an instruction) it read at 0.25x of a copy.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(quantize_threads)
quantize_128x128_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                        Fp8Quantized out) {
  static_assert(verify_plan<QuantizePlan>());
  constexpr int warps = quantize_threads / 32, steps = 128 / (2 * warps);
  __shared__ float warp_amax[warps];
  int const lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  std::int64_t const row0 = std::int64_t(blockIdx.y) * 128 + 2 * warp + lane / 16;
  std::int64_t const col = std::int64_t(blockIdx.x) * 128 + (lane % 16) * 8;
  uint4 v[steps];
  float amax = 0.0f;
#pragma unroll
  for (int i = 0; i < steps; ++i) {
    std::int64_t const row = row0 + i * 2 * warps;
    v[i] = row < rows && col < k ? *reinterpret_cast<uint4 const*>(x + row * ldx + col) : uint4{0, 0, 0, 0};
  }
#pragma unroll
  for (int i = 0; i < steps; ++i) amax = fmaxf(amax, detail::amax8(v[i]));
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
  if (lane == 0) warp_amax[warp] = amax;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < warps; ++w) amax = fmaxf(amax, warp_amax[w]);
  float const inverse = epilogue::fp8_block_inverse_scale(amax, e4m3_max);
#pragma unroll
  for (int i = 0; i < steps; ++i) {
    std::int64_t const row = row0 + i * 2 * warps;
    if (row < rows && col < k) detail::store8(out.q + row * out.ldq + col, v[i], inverse);
  }
  if (threadIdx.x == 0)
    out.scales[std::int64_t(blockIdx.y) * out.scale_row_stride + std::int64_t(blockIdx.x) * out.scale_k_stride] =
        epilogue::fp8_block_scale(amax, e4m3_max);
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
  std::int64_t const groups = (k + 127) / 128, total = rows * groups;
  if (total == 0) return;
  // NOTE: the group index is 32-bit, divided by FastDivmod: with a 64-bit division a group it read
  // at 0.74x of a device copy, so 0.84x (2026-12-03); eight loads in flight a lane, 0.67x.
  std::int64_t const per_block = quantize_threads / 32 * 2 * quantize_loads;
  if (total + per_block >= (std::int64_t{1} << 31))
    host::argument_error("fp8.quantize", "quantize_1x128: rows x K/128 must stay below 2^31 (got " +
                                             std::to_string(total) + "): quantize in parts");
  host::LaunchConfig config;
  config.grid = dim3(unsigned((total + per_block - 1) / per_block));
  config.block = dim3(quantize_threads);
  config.stream = stream;
  host::launch(&quantize_1x128_kernel<>, "quantize_1x128", config, x, ldx, FastDivmod(std::uint32_t(groups)),
               std::int32_t(total), k, out);
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
  host::launch(&quantize_128x128_kernel<>, "quantize_128x128", config, w, ldw, rows, k, out);
}

}  // namespace cute_cpp::kernels
