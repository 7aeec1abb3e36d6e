// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// bf16 -> FP4 in the layout the sm_120a FP4 GEMM reads (gemm_fp4.hpp): one thread per scale block
// (16 elements for NVFP4, 32 for MXFP4) runs quant/fp4.hpp's block quantizer, the same code the CPU
// reference runs, so the two agree bit for bit. NVFP4 first takes the tensor's largest magnitude
// (fp4_amax_kernel), from which the quantizer derives the encode scale and writes the decode scale.
#include "gemm_fp4.hpp"  // Fp4Format, Fp4Quantized

#include <cute_cpp/diag/verify_plan.hpp>  // verify_plan, KernelPlan
#include <cute_cpp/quant/fp4.hpp>         // quantize_nvfp4_block, quantize_mxfp4_block, nvfp4_encode_scale

#include <cuda_bf16.h>

#include <cstdint>

namespace cute_cpp::kernels {

inline constexpr int quantize_fp4_threads = 256;
using QuantizeFp4Plan = KernelPlan<quantize_fp4_threads>;

/// The largest |x| over (rows, K) into *amax (zeroed by the host first): a grid-stride pass over
/// 8-element pieces, a warp reduction, then an atomicMax on the float's bits (non-negative floats
/// order as their bit patterns).
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(quantize_fp4_threads)
fp4_amax_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, std::int64_t rows, std::int64_t k, float* amax) {
  static_assert(verify_plan<QuantizeFp4Plan>());
  std::int64_t const pieces = k / 8, total = rows * pieces;
  float m = 0.0f;
  for (std::int64_t i = std::int64_t(blockIdx.x) * quantize_fp4_threads + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * quantize_fp4_threads) {
    uint4 const raw = *reinterpret_cast<uint4 const*>(x + (i / pieces) * ldx + (i % pieces) * 8);
    auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&raw);
#pragma unroll
    for (int e = 0; e < 4; ++e) m = fmaxf(m, fmaxf(fabsf(__low2float(h[e])), fabsf(__high2float(h[e]))));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  if (threadIdx.x % 32 == 0) atomicMax(reinterpret_cast<unsigned*>(amax), __float_as_uint(m));
}

/// One thread per block of `Block` elements of a row: loads them (16-byte pieces), quantizes with
/// quant/fp4.hpp, stores Block/2 packed bytes and the factor. NVFP4 reads the tensor amax and the
/// first thread writes the decode scale 1 / encode.
template <Fp4Format F>
__global__ void __launch_bounds__(quantize_fp4_threads)
quantize_fp4_kernel(__nv_bfloat16 const* __restrict__ x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                    Fp4Quantized const out) {
  static_assert(verify_plan<QuantizeFp4Plan>());
  constexpr int block = F == Fp4Format::nvfp4 ? quant::nvfp4_block : quant::mxfp4_block;
  std::int64_t const blocks = k / block;
  std::int64_t const i = std::int64_t(blockIdx.x) * quantize_fp4_threads + threadIdx.x;
  float const encode = F == Fp4Format::nvfp4 ? quant::nvfp4_encode_scale(*out.amax_workspace) : 1.0f;
  if (F == Fp4Format::nvfp4 && i == 0) *out.global_scale = 1.0f / encode;
  if (F == Fp4Format::mxfp4 && i == 0 && out.global_scale != nullptr) *out.global_scale = 1.0f;
  if (i >= rows * blocks) return;
  std::int64_t const row = i / blocks, b = i % blocks;
  float v[block];
  auto const* src = reinterpret_cast<uint4 const*>(x + row * ldx + b * block);
#pragma unroll
  for (int piece = 0; piece < block / 8; ++piece) {
    uint4 const raw = src[piece];
    auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&raw);
#pragma unroll
    for (int e = 0; e < 4; ++e) v[piece * 8 + 2 * e] = __low2float(h[e]), v[piece * 8 + 2 * e + 1] = __high2float(h[e]);
  }
  std::uint8_t packed[block / 2];
  std::uint8_t sf = 0;
  if constexpr (F == Fp4Format::nvfp4) sf = quant::quantize_nvfp4_block(v, encode, packed);
  else sf = quant::quantize_mxfp4_block(v, packed);
  std::uint8_t* dst = out.data + row * (k / 2) + b * (block / 2);
  if constexpr (block == 16) {
    *reinterpret_cast<uint2*>(dst) = uint2{std::uint32_t(packed[0]) | std::uint32_t(packed[1]) << 8 |
                                               std::uint32_t(packed[2]) << 16 | std::uint32_t(packed[3]) << 24,
                                           std::uint32_t(packed[4]) | std::uint32_t(packed[5]) << 8 |
                                               std::uint32_t(packed[6]) << 16 | std::uint32_t(packed[7]) << 24};
  } else {
    std::uint32_t w[4];
#pragma unroll
    for (int j = 0; j < 4; ++j)
      w[j] = std::uint32_t(packed[4 * j]) | std::uint32_t(packed[4 * j + 1]) << 8 | std::uint32_t(packed[4 * j + 2]) << 16 |
             std::uint32_t(packed[4 * j + 3]) << 24;
    *reinterpret_cast<uint4*>(dst) = uint4{w[0], w[1], w[2], w[3]};
  }
  out.scales[row * blocks + b] = sf;
}

}  // namespace cute_cpp::kernels
