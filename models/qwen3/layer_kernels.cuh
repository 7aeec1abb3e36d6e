// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/layer_kernels.cuh: the small kernels of the Qwen3 decoder that no example
// provides: gathering rows by index (the embedding lookup, and the last token of each prompt
// before the LM head), SwiGLU of the interleaved gate-up product, and the per-head q_norm/k_norm
// RMSNorm followed by RoPE, in place on the fused QKV activation (in a decode step also
// appending k and v to the paged cache). All are memory-bound and tiny beside the GEMMs.
#include <cute_cpp/kernels/attention/decode/kv_append.cuh>  // copy_row, page_of

#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig
#include "models/qwen3/vocab_shards.hpp"  // vocab_local_row

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
template <int = 0>  // a template for its linkage: the header is in several libraries
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
  host::launch(&gather_rows_kernel<>, "gather_rows_kernel", config, table, table_rows, rows, out, count, width);
}

/// Tensor parallelism's embedding (vocab_shards.hpp): out[r, :] = table[ids[r] - begin, :] for the ids
/// this rank holds, [begin, end), and zeros for the others; the ranks' outputs, all-reduced, are the
/// whole embedding's rows. gather_rows_kernel's launch and loads.
template <int = 0>  // a template for its linkage (random_weights.cuh's NOTE): the header is in several libraries
__global__ void __launch_bounds__(128) gather_vocab_rows_kernel(bf16 const* __restrict__ table, std::int64_t begin,
                                                                std::int64_t end, std::int32_t const* __restrict__ ids,
                                                                bf16* __restrict__ out, std::int64_t count, int width) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const r = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;
  if (r >= count) return;
  std::int64_t const src = vocab_local_row(ids[r], begin, end);
  int4* const dst = reinterpret_cast<int4*>(out + r * width);
  for (int i = int(threadIdx.x % 32); i < width / 8; i += 32)
    dst[i] = src >= 0 ? reinterpret_cast<int4 const*>(table + src * width)[i] : int4{};
}

inline void gather_vocab_rows(bf16 const* table, std::int64_t begin, std::int64_t end, std::int32_t const* ids,
                              bf16* out, std::int64_t count, int width, cudaStream_t stream) {
  if (count == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((count + 3) / 4));
  config.block = dim3(128);
  config.stream = stream;
  host::launch(&gather_vocab_rows_kernel<>, "gather_vocab_rows_kernel", config, table, begin, end, ids, out, count,
               width);
}

/// h[m, j] = silu(gate) * up for a few rows of the interleaved gate-up product gu [rows, 2F]
/// (the GEMM against pack_gate_up's weight: gate column j at gated_gate_row(j), up column j at
/// gated_up_row(j) of epilogue/fusion.hpp). The decode step's path: at a handful of rows the
/// swapped skinny GEMM reads the gate-up weight at the memory rate, where the fused SwiGLU
/// epilogue's 128-row tiles would leave most CTAs without rows. Gate, silu and the product are
/// rounded to bf16 as transformers' bf16 MLP rounds them. One thread per 8 outputs (one 16-byte
/// block of gate and one of up).
template <int = 0>  // a template for its linkage: the header is in several libraries
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
  host::launch(&swiglu_interleaved_kernel<>, "swiglu_interleaved_kernel", config, gu, h, rows, f);
}

/// A decode step's paged KV cache, for qk_norm_rope to append each token's k and v heads to:
/// token t is sequence t, its slot the one at positions[t] in row t of the block table. The cache
/// is [pages, page_size, heads_kv, head_dim] (one layer's K or V).
struct KvCacheAppend {
  bf16* k = nullptr;  ///< null: no append
  bf16* v = nullptr;
  std::int32_t const* block_table = nullptr;  ///< [tokens, max_pages_per_seq]
  int max_pages_per_seq = 0, page_size = 0, num_pages = 0;
};

/// Where the heads lie in one token's row of the fused QKV activation, and what to apply.
struct QkNormRopeParams {
  std::int64_t tokens = 0;
  std::int64_t row_stride = 0;  ///< elements between tokens' rows
  int heads_q = 0, heads_kv = 0;
  float eps = 1e-6f;
  float const* inv_freq = nullptr;  ///< [head_dim / 2]: rope_frequencies' (models/common/rope.hpp)
  float cos_sin_scale = 1.0f;       ///< cos and sin times this before their bf16 rounding: YaRN's attention factor
  KvCacheAppend cache;              ///< decode: where the k and v heads go as well
  /// Multimodal RoPE (Qwen3-TTS's talker): null for plain RoPE, which turns every pair by
  /// positions[token]. Else [head_dim / 2]: the position id (0 temporal, 1 height, 2 width) that
  /// turns each pair, read from plane 1 + id of the positions (planes of position_plane entries;
  /// plane 0 stays the token's place in the sequence, its cache slot).
  std::int8_t const* rope_component = nullptr;
  std::int64_t position_plane = 0;
};

/// The cache row (page * page_size + offset) of token `token` at `position`, or -1 where it has no
/// slot (a bad table: trapped in debug builds, the append skipped otherwise), as kv_append.
__device__ __forceinline__ std::int64_t cache_row(KvCacheAppend const& c, std::int64_t token, std::int32_t position) {
  std::int32_t const page = kernels::page_of(c.block_table + token * c.max_pages_per_seq, c.max_pages_per_seq,
                                             c.page_size, c.num_pages, position);
  if (page < 0) {
#if !defined(NDEBUG)
    if (threadIdx.x % 32 == 0)
      printf("cute-cpp [attention.kv-slot]: token %lld: key position %d has no slot in the cache\n", (long long)token,
             position);
    __trap();
#endif
    return -1;
  }
  return std::int64_t(page) * c.page_size + position % c.page_size;
}

/// One head of q or k in a warp: x = rmsnorm(x) * w (q_norm or k_norm), then RoPE at the token's
/// position. Lane l gets elements l + 32 j of the first half in `first` and their rotation partners
/// in `second`. The roundings follow transformers' bf16 arithmetic (the norm rounds x * rstd, then
/// the product with w; RoPE rounds cos and sin, each scaled by cos_sin_scale in float32 first, each
/// product and the sum), so that greedy decoding agrees with its bf16 reference as far as
/// arithmetic order allows. `planes`: the token's multimodal position planes (positions + token +
/// position_plane), read where p.rope_component is set. x may be written by the kernel's own
/// earlier phases (models/qwen3/fused_step.cuh): it is read with plain loads.
template <int HeadDim>
__device__ __forceinline__ void norm_rope_head(bf16 const* x, bf16 const* __restrict__ w, QkNormRopeParams const& p,
                                               std::int32_t position_index, std::int32_t const* planes, int lane,
                                               bf16 (&first)[HeadDim / 64], bf16 (&second)[HeadDim / 64]) {
  constexpr int half = HeadDim / 2, per_lane = half / 32;
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
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    int const i = lane + 32 * j;
    float const a = round(round(lo[j] * rstd) * __bfloat162float(w[i]));
    float const b = round(round(hi[j] * rstd) * __bfloat162float(w[half + i]));
    float const position = float(p.rope_component == nullptr ? position_index
                                                             : planes[p.rope_component[i] * p.position_plane]);
    float const angle = position * p.inv_freq[i];
    float const c = round(cosf(angle) * p.cos_sin_scale), s = round(sinf(angle) * p.cos_sin_scale);
    first[j] = __float2bfloat16(round(a * c) - round(b * s));
    second[j] = __float2bfloat16(round(b * c) + round(a * s));
  }
}

/// One warp per (token, head) of q and k: norm_rope_head in place; with a cache to append to
/// (decode), also one warp per v head, and the k and v heads written to the token's cache slot
/// (what kv_append would do after).
/// With QkNormRopeParams::rope_component set (multimodal RoPE, Qwen3-TTS's talker), pair i turns by
/// the position id rope_component[i] of the token instead of its place.
/// The positions and the block table are read before waiting for the kernel before (PDL): the
/// host writes them before the step, no kernel of it does.
template <int HeadDim>
__global__ void __launch_bounds__(128) qk_norm_rope_kernel(bf16* __restrict__ qkv, std::int32_t const* __restrict__ positions,
                                                           bf16 const* __restrict__ q_norm, bf16 const* __restrict__ k_norm,
                                                           QkNormRopeParams const p) {
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now.
  arch::griddepcontrol_launch_dependents();
  constexpr int half = HeadDim / 2, per_lane = half / 32;
  static_assert(HeadDim == 64 || HeadDim == 128 || HeadDim == 256,
                "cute-cpp [qwen3.head-dim]: the attention kernels take head_dim 64, 128 or 256");
  bool const append = p.cache.k != nullptr;
  int const heads = p.heads_q + p.heads_kv * (append ? 2 : 1);  // q, k, then v heads: adjacent in QKV
  std::int64_t const item = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;
  if (item >= p.tokens * heads) {
    arch::griddepcontrol_wait();  // a grid completes only after its predecessor (PDL chains stay ordered)
    return;
  }
  std::int64_t const token = item / heads;
  int const head = int(item % heads);
  int const lane = int(threadIdx.x % 32);
  std::int32_t const position_index = positions[token];
  std::int64_t const slot = append && head >= p.heads_q ? cache_row(p.cache, token, position_index) : -1;
  arch::griddepcontrol_wait();
  bf16* const x = qkv + token * p.row_stride + std::int64_t(head) * HeadDim;
  std::int64_t const cache_offset = slot * p.heads_kv * HeadDim + std::int64_t((head - p.heads_q) % p.heads_kv) * HeadDim;
  if (head >= p.heads_q + p.heads_kv) {  // a v head: copied to the cache as it is
    if (slot >= 0) kernels::copy_row(p.cache.v + cache_offset, x, HeadDim, lane);
    return;
  }
  bf16 first[per_lane], second[per_lane];
  norm_rope_head<HeadDim>(x, head < p.heads_q ? q_norm : k_norm, p, position_index, positions + token + p.position_plane,
                          lane, first, second);
  bf16* const cached = slot >= 0 ? p.cache.k + cache_offset : nullptr;  // set for k heads only
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    int const i = lane + 32 * j;
    x[i] = first[j];
    x[half + i] = second[j];
    if (cached != nullptr) {
      cached[i] = first[j];
      cached[half + i] = second[j];
    }
  }
}

inline void qk_norm_rope(bf16* qkv, std::int32_t const* positions, bf16 const* q_norm, bf16 const* k_norm,
                         QkNormRopeParams const& p, int head_dim, cudaStream_t stream) {
  if (p.tokens == 0) return;
  if (p.cache.k != nullptr &&
      (p.cache.v == nullptr || p.cache.block_table == nullptr || p.cache.page_size < 1 || p.cache.num_pages < 1 ||
       p.cache.max_pages_per_seq < 1 || reinterpret_cast<std::uintptr_t>(p.cache.k) % 16 != 0 ||
       reinterpret_cast<std::uintptr_t>(p.cache.v) % 16 != 0))
    throw std::invalid_argument("cute-cpp [attention.block-table]: a KV cache append needs 16-byte aligned k and v, a block "
                                "table, and a page size, page count and pages per sequence of at least 1");
  host::LaunchConfig config;
  config.grid = dim3(unsigned((p.tokens * (p.heads_q + p.heads_kv * (p.cache.k != nullptr ? 2 : 1)) + 3) / 4));
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
