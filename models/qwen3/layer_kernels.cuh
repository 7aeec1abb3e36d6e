// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/layer_kernels.cuh: the two small kernels of the Qwen3 decoder that no example
// provides: gathering rows by index (the embedding lookup, and the last token of each prompt
// before the LM head), and the per-head q_norm/k_norm RMSNorm followed by RoPE, in place on the
// fused QKV activation. Both are memory-bound and tiny beside the GEMMs; one warp per row.
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>  // std::invalid_argument
#include <string>     // std::to_string

namespace cute_cpp::models {

using bf16 = __nv_bfloat16;

/// out[r, :] = table[rows[r], :] for `count` rows of `width` elements (width a multiple of 8,
/// rows 16-byte aligned); a row index outside [0, table_rows) writes zeros (the host checks ids
/// before the launch, so this only keeps a bad index from reading past the table).
__global__ void __launch_bounds__(128) gather_rows_kernel(bf16 const* __restrict__ table, std::int64_t table_rows,
                                                          std::int32_t const* __restrict__ rows, bf16* __restrict__ out,
                                                          std::int64_t count, int width) {
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // this one waits for its predecessor's memory before touching global memory.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const r = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;
  if (r >= count) return;
  std::int64_t const src = rows[r];
  int4* const dst = reinterpret_cast<int4*>(out + r * width);
  for (int i = int(threadIdx.x % 32); i < width / 8; i += 32)
    dst[i] = src >= 0 && src < table_rows ? reinterpret_cast<int4 const*>(table + src * width)[i] : int4{};
}

inline void gather_rows(bf16 const* table, std::int64_t table_rows, std::int32_t const* rows, bf16* out,
                        std::int64_t count, int width, cudaStream_t stream) {
  if (count == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((count + 3) / 4));
  config.block = dim3(128);
  config.stream = stream;
  host::launch(&gather_rows_kernel, "gather_rows_kernel", config, table, table_rows, rows, out, count, width);
}

/// h[m, j] = silu(gate) * up for a few rows of the interleaved gate-up product gu [rows, 2F]
/// (the GEMM against pack_gate_up's weight: gate column j at gated_gate_row(j), up column j at
/// gated_up_row(j) of epilogue/fusion.hpp). The decode step's path: at a handful of rows the
/// swapped skinny GEMM reads the gate-up weight at the memory rate, where the fused SwiGLU
/// epilogue's 128-row tiles would leave most CTAs without rows. Gate, silu and the product are
/// rounded to bf16 as transformers' bf16 MLP rounds them. One thread per 8 outputs (one 16-byte
/// block of gate and one of up).
__global__ void __launch_bounds__(256) swiglu_interleaved_kernel(bf16 const* __restrict__ gu, bf16* __restrict__ h,
                                                                 std::int64_t rows, int f) {
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // this one waits for its predecessor's memory before touching global memory.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const item = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;  // (row, block of 8)
  int const blocks = f / 8;
  if (item >= rows * blocks) return;
  std::int64_t const row = item / blocks, b = item % blocks;
  auto const gate = *reinterpret_cast<int4 const*>(gu + row * 2 * f + b * 16);
  auto const up = *reinterpret_cast<int4 const*>(gu + row * 2 * f + b * 16 + 8);
  bf16 const* const g = reinterpret_cast<bf16 const*>(&gate);
  bf16 const* const u = reinterpret_cast<bf16 const*>(&up);
  int4 out;
  bf16* const o = reinterpret_cast<bf16*>(&out);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    float const x = __bfloat162float(g[i]);
    float const silu = __bfloat162float(__float2bfloat16(x / (1.0f + expf(-x))));
    o[i] = __float2bfloat16(silu * __bfloat162float(u[i]));
  }
  *reinterpret_cast<int4*>(h + row * f + b * 8) = out;
}

/// @pre f a multiple of 8; gu and h 16-byte aligned.
inline void swiglu_interleaved(bf16 const* gu, bf16* h, std::int64_t rows, int f, cudaStream_t stream) {
  if (rows == 0) return;
  std::int64_t const items = rows * (f / 8);
  host::LaunchConfig config;
  config.grid = dim3(unsigned((items + 255) / 256));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&swiglu_interleaved_kernel, "swiglu_interleaved_kernel", config, gu, h, rows, f);
}

/// Where the heads lie in one token's row of the fused QKV activation, and what to apply.
struct QkNormRopeParams {
  std::int64_t tokens = 0;
  std::int64_t row_stride = 0;  ///< elements between tokens' rows
  int heads_q = 0, heads_kv = 0;
  float eps = 1e-6f;
  float const* inv_freq = nullptr;  ///< [head_dim / 2]: theta^(-2i / head_dim), as transformers computes it
};

/// One warp per (token, head) of q and k: x = rmsnorm(x) * w (q_norm or k_norm), then RoPE at
/// the token's position, in place. The roundings follow transformers' bf16 arithmetic (the norm
/// rounds x * rstd, then the product with w; RoPE rounds cos, sin, each product and the sum), so
/// that greedy decoding agrees with its bf16 reference as far as arithmetic order allows.
/// Lane l holds elements l + 32 j of the first half and their rotation partners in the second.
template <int HeadDim>
__global__ void __launch_bounds__(128) qk_norm_rope_kernel(bf16* __restrict__ qkv, std::int32_t const* __restrict__ positions,
                                                           bf16 const* __restrict__ q_norm, bf16 const* __restrict__ k_norm,
                                                           QkNormRopeParams const p) {
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // this one waits for its predecessor's memory before touching global memory.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  constexpr int half = HeadDim / 2, per_lane = half / 32;
  static_assert(HeadDim == 64 || HeadDim == 128 || HeadDim == 256,
                "cute-cpp [qwen3.head-dim]: the attention kernels take head_dim 64, 128 or 256");
  int const heads = p.heads_q + p.heads_kv;
  std::int64_t const item = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;
  if (item >= p.tokens * heads) return;
  std::int64_t const token = item / heads;
  int const head = int(item % heads);  // q heads, then k heads: their rows are adjacent in QKV
  int const lane = int(threadIdx.x % 32);
  bf16* const x = qkv + token * p.row_stride + std::int64_t(head) * HeadDim;
  bf16 const* const w = head < p.heads_q ? q_norm : k_norm;
  float lo[per_lane], hi[per_lane];
  float sum_sq = 0.f;
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    lo[j] = __bfloat162float(x[lane + 32 * j]);
    hi[j] = __bfloat162float(x[half + lane + 32 * j]);
    sum_sq += lo[j] * lo[j] + hi[j] * hi[j];
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) sum_sq += __shfl_xor_sync(0xffffffffu, sum_sq, offset);
  float const rstd = rsqrtf(sum_sq / float(HeadDim) + p.eps);
  auto const round = [](float v) { return __bfloat162float(__float2bfloat16(v)); };
  float const position = float(positions[token]);
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    int const i = lane + 32 * j;
    float const a = round(round(lo[j] * rstd) * __bfloat162float(w[i]));
    float const b = round(round(hi[j] * rstd) * __bfloat162float(w[half + i]));
    float const angle = position * p.inv_freq[i];
    float const c = round(cosf(angle)), s = round(sinf(angle));
    x[i] = __float2bfloat16(round(a * c) - round(b * s));
    x[half + i] = __float2bfloat16(round(b * c) + round(a * s));
  }
}

inline void qk_norm_rope(bf16* qkv, std::int32_t const* positions, bf16 const* q_norm, bf16 const* k_norm,
                         QkNormRopeParams const& p, int head_dim, cudaStream_t stream) {
  if (p.tokens == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((p.tokens * (p.heads_q + p.heads_kv) + 3) / 4));
  config.block = dim3(128);
  config.stream = stream;
  auto const go = [&](auto kernel) { host::launch(kernel, "qk_norm_rope_kernel", config, qkv, positions, q_norm, k_norm, p); };
  switch (head_dim) {
    case 64: return go(&qk_norm_rope_kernel<64>);
    case 128: return go(&qk_norm_rope_kernel<128>);
    case 256: return go(&qk_norm_rope_kernel<256>);
    default: throw std::invalid_argument("cute-cpp [qwen3.head-dim]: the attention kernels take head_dim 64, 128 or 256 (got " +
                                         std::to_string(head_dim) + ")");
  }
}

}  // namespace cute_cpp::models
