// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/fused_step_attention.cuh: the fused step's attention (fused_step.cuh's phase 2 and
// the start of phase 3). CTA (kv head g, split s) norms and turns the group's q heads and the new k
// (layer_kernels.cuh's norm_rope_head), writes the new k and v to the cache (split 0), and runs an
// f32 online softmax over its keys, the new token's own k and v taken from shared memory (the cache
// write of another CTA is not yet visible); it leaves (max, sum, unnormalised output) per q head.
// After the grid barrier every CTA combines the splits into the O projection's input.
#include <cuda_bf16.h>

#include <cstdint>

#include "models/qwen3/fused_step.cuh"

namespace cute_cpp::models::fused_step {

/// The attention scratch of a CTA (floats in shared memory; smem_layout's `attention`).
struct AttentionScratch {
  float* q;      ///< [group, head_dim]: the normed, turned q heads
  float* o;      ///< [group, head_dim]: the unnormalised outputs
  float* k_new;  ///< [head_dim]
  float* v_new;  ///< [head_dim]
  float* score;  ///< [group, key_block]
  float* stat;   ///< max, sum and rescale of each q head: [3, max_group]

  __device__ AttentionScratch(float* base, int group, int head_dim)
      : q(base), o(q + group * head_dim), k_new(o + group * head_dim), v_new(k_new + head_dim),
        score(v_new + head_dim), stat(score + group * key_block) {}
};

/// Warp-wide: the group's q heads, the new k and the new v of kv head g into the scratch (item i:
/// q head i of the group, then k, then v); split 0 also writes k and v to the token's cache slot.
template <int HeadDim>
__device__ void stage_heads(FusedStepParams const& p, FusedLayer const& w, int g, bool write_cache, int position,
                            AttentionScratch const& s) {
  constexpr int per_lane = HeadDim / 64, half = HeadDim / 2;
  FusedStepShape const& sh = p.shape;
  int const group = sh.heads_q / sh.heads_kv;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  KvCacheAppend cache = p.rope.cache;
  cache.k = w.k_cache, cache.v = w.v_cache;
  std::int64_t const slot = write_cache ? cache_row(cache, 0, position) : -1;
  std::int64_t const cache_offset = slot * sh.heads_kv * HeadDim + std::int64_t(g) * HeadDim;
  for (int item = warp; item < group + 2; item += warps) {
    if (item == group + 1) {  // v: as it is
      bf16 const* const x = p.io.qkv + std::int64_t(sh.heads_q + sh.heads_kv + g) * HeadDim;
      for (int d = lane; d < HeadDim; d += 32) {
        bf16 const v = __ldcg(x + d);
        s.v_new[d] = __bfloat162float(v);
        if (slot >= 0) cache.v[cache_offset + d] = v;
      }
      continue;
    }
    bool const is_k = item == group;
    int const head = is_k ? sh.heads_q + g : g * group + item;
    bf16 first[per_lane], second[per_lane];
    norm_rope_head<HeadDim>(p.io.qkv + std::int64_t(head) * HeadDim, is_k ? w.k_norm : w.q_norm, p.rope, position,
                            p.io.positions + p.rope.position_plane, lane, first, second);
    float* const out = is_k ? s.k_new : s.q + item * HeadDim;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      out[lane + 32 * j] = __bfloat162float(first[j]);
      out[half + lane + 32 * j] = __bfloat162float(second[j]);
      if (is_k && slot >= 0) {
        cache.k[cache_offset + lane + 32 * j] = first[j];
        cache.k[cache_offset + half + lane + 32 * j] = second[j];
      }
    }
  }
}

/// Key j's row of kv head g in a layer's cache (`cache` [pages, page_size, heads_kv, head_dim]).
template <int HeadDim>
__device__ __forceinline__ bf16 const* key_row(FusedStepParams const& p, bf16 const* cache, int g, int j) {
  KvCacheAppend const& c = p.rope.cache;
  std::int64_t const page = c.block_table[j / c.page_size];
  return cache + ((page * c.page_size + j % c.page_size) * p.shape.heads_kv + g) * HeadDim;
}

/// The scores of keys [j0, j0 + n) against the group's q heads, times scale log2(e): a warp a key.
template <int HeadDim>
__device__ void score_keys(FusedStepParams const& p, FusedLayer const& w, int g, int j0, int n, int position,
                           AttentionScratch const& s) {
  int const group = p.shape.heads_q / p.shape.heads_kv;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  for (int jj = warp; jj < n; jj += warps) {
    int const j = j0 + jj;
    bf16 const* const k = j == position ? nullptr : key_row<HeadDim>(p, w.k_cache, g, j);
    float acc[max_group] = {};
#pragma unroll
    for (int e = 0; e < HeadDim / 32; ++e) {
      int const d = lane + 32 * e;
      float const kd = k == nullptr ? s.k_new[d] : __bfloat162float(k[d]);
#pragma unroll
      for (int i = 0; i < max_group; ++i)
        if (i < group) acc[i] = fmaf(s.q[i * HeadDim + d], kd, acc[i]);
    }
#pragma unroll
    for (int i = 0; i < max_group; ++i) {
      if (i >= group) break;
      float a = acc[i];
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) a += __shfl_xor_sync(0xffffffffu, a, offset);
      if (lane == 0) s.score[i * key_block + jj] = a * p.scale_log2;
    }
  }
}

/// Split s of kv head g: its keys [s * split.keys, ..) through an online softmax into the partials.
template <int HeadDim>
__device__ void attend(FusedStepParams const& p, FusedLayer const& w, int g, int split_index, KeySplit split,
                       int length, int position, float* scratch) {
  int const group = p.shape.heads_q / p.shape.heads_kv;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  AttentionScratch const s(scratch, group, HeadDim);
  stage_heads<HeadDim>(p, w, g, split_index == 0, position, s);
  for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) s.o[t] = 0.0f;
  if (int(threadIdx.x) < group) s.stat[threadIdx.x] = -INFINITY, s.stat[max_group + threadIdx.x] = 0.0f;
  __syncthreads();
  int const begin = split_index * split.keys, end = min(length, begin + split.keys);
  for (int j0 = begin; j0 < end; j0 += key_block) {
    int const n = min(key_block, end - j0);
    score_keys<HeadDim>(p, w, g, j0, n, position, s);
    __syncthreads();
    if (warp < group) {  // warp i: head i's running max and sum; the scores become probabilities
      float* const row = s.score + warp * key_block;
      float block_max = -INFINITY;
      for (int j = lane; j < n; j += 32) block_max = fmaxf(block_max, row[j]);
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, offset));
      float const old_max = s.stat[warp], new_max = fmaxf(old_max, block_max);
      float sum = 0.0f;
      for (int j = lane; j < n; j += 32) sum += row[j] = exp2f(row[j] - new_max);
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(~0u, sum, offset);
      __syncwarp();
      if (lane == 0) {
        float const rescale = exp2f(old_max - new_max);  // 0 for the first block (old_max -inf)
        s.stat[warp] = new_max;
        s.stat[max_group + warp] = s.stat[max_group + warp] * rescale + sum;
        s.stat[2 * max_group + warp] = rescale;
      }
    }
    __syncthreads();
    for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) {
      int const i = t / HeadDim, d = t % HeadDim;
      float acc = s.o[t] * s.stat[2 * max_group + i];
      for (int jj = 0; jj < n; ++jj) {
        int const j = j0 + jj;
        float const vd = j == position ? s.v_new[d] : __bfloat162float(key_row<HeadDim>(p, w.v_cache, g, j)[d]);
        acc = fmaf(s.score[i * key_block + jj], vd, acc);
      }
      s.o[t] = acc;
    }
    __syncthreads();
  }
  for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) {
    int const i = t / HeadDim, d = t % HeadDim;
    float* const out = p.partials + (std::int64_t(split_index) * p.shape.heads_q + g * group + i) * (HeadDim + 2);
    out[2 + d] = s.o[t];
    if (d == 0) out[0] = s.stat[i], out[1] = s.stat[max_group + i];
  }
}

/// act = the attention output of every q head (bf16, shared memory): the splits' partials combined.
template <int HeadDim>
__device__ void combine_splits(FusedStepParams const& p, KeySplit split, bf16* act) {
  int const heads = p.shape.heads_q;
  for (int t = int(threadIdx.x); t < heads * HeadDim; t += threads) {
    int const h = t / HeadDim, d = t % HeadDim;
    float top = -INFINITY;
    for (int s = 0; s < split.count; ++s)
      top = fmaxf(top, __ldcg(p.partials + (std::int64_t(s) * heads + h) * (HeadDim + 2)));
    float num = 0.0f, den = 0.0f;
    for (int s = 0; s < split.count; ++s) {
      float const* const part = p.partials + (std::int64_t(s) * heads + h) * (HeadDim + 2);
      float const f = exp2f(__ldcg(part) - top);
      num = fmaf(f, __ldcg(part + 2 + d), num);
      den = fmaf(f, __ldcg(part + 1), den);
    }
    act[t] = __float2bfloat16(num / den);
  }
  __syncthreads();
}

}  // namespace cute_cpp::models::fused_step
