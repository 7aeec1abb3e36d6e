// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/fused_step_attention.cuh: the fused step's attention (fused_step.cuh's phase 2). CTA
// (kv head g, split s) norms and turns the group's q heads and the new k (layer_kernels.cuh's
// norm_rope_head), writes the new k and v to the cache (split 0), and runs an f32 online softmax
// over its keys, a block of keys' rows at a time staged in shared memory by bulk copies (the new
// token's own k and v from its staging: the cache write of another CTA is not yet visible); it
// leaves (max, sum, unnormalised output) per q head, or, where a kv head has one split, its output.
// The last split of a kv head to finish (counted in p.arrivals) combines the head's splits into its
// q heads' part of p.attention_out, so that after the grid barrier the O projection's input is one
// bf16 row to load, not every split of every head to combine in every CTA.
#include <cute_cpp/arch/copy.hpp>      // cp_async_bulk_global_to_shared, cp_async_bulk_prefetch_l2
#include <cute_cpp/arch/fence.hpp>     // fence_view_async_shared
#include <cute_cpp/arch/mbarrier.hpp>  // mbarrier_*

#include <cuda_bf16.h>

#include <cstdint>

#include "models/qwen3/fused_step.cuh"

namespace cute_cpp::models::fused_step {

/// The attention scratch of a CTA (shared memory; smem_layout's `attention`, split_scratch_bytes).
struct AttentionScratch {
  bf16* k_block;  ///< [key_block, head_dim]: the block's keys (bulk copies from the cache; the new token's from k_new)
  bf16* v_block;  ///< [key_block, head_dim]: their values
  float* q;       ///< [group, head_dim]: the normed, turned q heads
  float* o;       ///< [group, head_dim]: the unnormalised outputs
  float* k_new;   ///< [head_dim]
  float* v_new;   ///< [head_dim]
  float* score;   ///< [group, key_block]
  float* stat;    ///< max, sum and rescale of each q head: [3, max_group]

  __device__ AttentionScratch(unsigned char* base, int group, int head_dim)
      : k_block(reinterpret_cast<bf16*>(base)), v_block(k_block + key_block * head_dim),
        q(reinterpret_cast<float*>(v_block + key_block * head_dim)), o(q + group * head_dim),
        k_new(o + group * head_dim), v_new(k_new + head_dim), score(v_new + head_dim),
        stat(score + group * key_block) {}
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

/// Whether the block of keys [j0, j0 + n) holds the new token's (at `position`).
__device__ __forceinline__ bool holds_new_key(int j0, int n, int position) {
  return position >= j0 && position < j0 + n;
}

/// Starts keys [j0, j0 + n) of kv head g on their way into s.k_block and s.v_block: thread jj copies
/// key jj's rows from the layer's cache ([pages, page_size, heads_kv, head_dim]) with bulk copies that
/// complete on `kv_full`, so that the block's rows are all in flight at once, and asks L2 for the next
/// layer's same rows (null: the last layer). The new token's rows are place_new_key's.
template <int HeadDim>
__device__ void issue_keys(FusedStepParams const& p, FusedLayer const& w, FusedLayer const* next, int g, int j0, int n,
                           int position, AttentionScratch const& s, std::uint64_t* kv_full) {
  constexpr std::uint32_t row_bytes = HeadDim * 2;
  KvCacheAppend const& c = p.rope.cache;
  std::uint32_t const copied = std::uint32_t(n - holds_new_key(j0, n, position));
  if (threadIdx.x == 0) arch::mbarrier_arrive_and_expect_tx(kv_full, 2 * row_bytes * copied);
  sync_consumers();  // the bytes expected before any copy completes
  for (int jj = int(threadIdx.x); jj < n; jj += threads) {
    int const j = j0 + jj;
    if (j == position) continue;
    std::int64_t const page = c.block_table[j / c.page_size];
    std::int64_t const row = ((page * c.page_size + j % c.page_size) * p.shape.heads_kv + g) * HeadDim;
    arch::cp_async_bulk_global_to_shared(s.k_block + jj * HeadDim, w.k_cache + row, row_bytes, kv_full);
    arch::cp_async_bulk_global_to_shared(s.v_block + jj * HeadDim, w.v_cache + row, row_bytes, kv_full);
    if (next != nullptr) {
      arch::cp_async_bulk_prefetch_l2(next->k_cache + row, row_bytes);
      arch::cp_async_bulk_prefetch_l2(next->v_cache + row, row_bytes);
    }
  }
}

/// The new token's rows (k_new, v_new: the cache write of another CTA is not yet visible) into the
/// block of keys [j0, j0 + n) where it is one of them; then the block's rows are all placed or on
/// their way (the caller waits on kv_full).
template <int HeadDim>
__device__ void place_new_key(int j0, int n, int position, AttentionScratch const& s) {
  if (holds_new_key(j0, n, position)) {
    for (int d = int(threadIdx.x); d < HeadDim; d += threads) {  // bf16 values held as f32: exact
      s.k_block[(position - j0) * HeadDim + d] = __float2bfloat16(s.k_new[d]);
      s.v_block[(position - j0) * HeadDim + d] = __float2bfloat16(s.v_new[d]);
    }
    arch::fence_view_async_shared();  // ordered before a later block's bulk copies into the same rows
  }
  sync_consumers();
}

/// The scores of the block's n keys (s.k_block) against the group's q heads, times scale log2(e): a
/// warp a key.
template <int HeadDim>
__device__ void score_keys(FusedStepParams const& p, int n, AttentionScratch const& s) {
  int const group = p.shape.heads_q / p.shape.heads_kv;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  for (int jj = warp; jj < n; jj += warps) {
    bf16 const* const k = s.k_block + jj * HeadDim;
    float acc[max_group] = {};
#pragma unroll
    for (int e = 0; e < HeadDim / 32; ++e) {
      int const d = lane + 32 * e;
      float const kd = __bfloat162float(k[d]);
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

/// The floats of split `split_index`'s partial of q head `head`: max, sum, then head_dim outputs.
template <int HeadDim>
__device__ __forceinline__ float* split_partial(FusedStepParams const& p, int split_index, int head) {
  return p.partials + (std::int64_t(split_index) * p.shape.heads_q + head) * (HeadDim + 2);
}

/// p.attention_out's q heads of kv head g (bf16): the splits' partials combined, num / den with
/// num = sum f o and den = sum f l over the splits in order, f = exp2(m - top). The (split, head)
/// maxima and sums load once, all at once, into `scratch` (combine_scratch_bytes), each head's
/// weights and denominator follow from them, and the outputs' loads are independent of each other.
template <int HeadDim>
__device__ void combine_group(FusedStepParams const& p, int g, KeySplit split, float* scratch) {
  int const heads = p.shape.heads_q, group = heads / p.shape.heads_kv, pairs = split.count * group;
  float* const weight = scratch;      // [count, group]: m, then f
  float* const sum = weight + pairs;  // [count, group]: l
  float* const den = sum + pairs;     // [group]
  for (int t = int(threadIdx.x); t < pairs; t += threads) {
    float const* const part = split_partial<HeadDim>(p, t / group, g * group + t % group);
    weight[t] = __ldcg(part), sum[t] = __ldcg(part + 1);
  }
  sync_consumers();
  if (int const i = int(threadIdx.x); i < group) {
    float top = -INFINITY;
    for (int s = 0; s < split.count; ++s) top = fmaxf(top, weight[s * group + i]);
    float d = 0.0f;
    for (int s = 0; s < split.count; ++s) {
      float const f = exp2f(weight[s * group + i] - top);
      weight[s * group + i] = f;
      d = fmaf(f, sum[s * group + i], d);
    }
    den[i] = d;
  }
  sync_consumers();
  for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) {
    int const i = t / HeadDim, d = t % HeadDim;
    float const* const out = split_partial<HeadDim>(p, 0, g * group + i) + 2 + d;
    float num = 0.0f;
#pragma unroll 8
    for (int s = 0; s < split.count; ++s)
      num = fmaf(weight[s * group + i], __ldcg(out + std::int64_t(s) * heads * (HeadDim + 2)), num);
    p.attention_out[std::int64_t(g * group) * HeadDim + t] = __float2bfloat16(num / den[i]);
  }
}

/// Whether this CTA is the last of kv head g's splits to have written its partials (then the
/// others' are visible to it, and the count is back at 0 for the next layer).
__device__ __forceinline__ bool last_split(FusedStepParams const& p, int g, int splits) {
  __shared__ int flag;
  __threadfence();  // this CTA's partials, before its arrival
  sync_consumers();
  if (threadIdx.x == 0) {
    bool const last = atomicAdd(p.arrivals + g, 1u) == unsigned(splits - 1);
    if (last) p.arrivals[g] = 0;  // read again only after grid barriers
    flag = last;
  }
  sync_consumers();
  bool const last = flag != 0;
  if (last) __threadfence();  // the others' partials, after their arrivals
  return last;
}

/// Split s of kv head g: its keys [s * split.keys, ..) through an online softmax into the partials;
/// the last split of g to finish combines g's splits. `next`: the next layer (null: the last);
/// `kv_uses`: the completed phases of kv_full, this CTA's count across layers.
template <int HeadDim>
__device__ void attend(FusedStepParams const& p, FusedLayer const& w, FusedLayer const* next, int g, int split_index,
                       KeySplit split, int length, int position, unsigned char* scratch, std::uint64_t* kv_full,
                       int& kv_uses) {
  int const group = p.shape.heads_q / p.shape.heads_kv;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  AttentionScratch const s(scratch, group, HeadDim);
  int const begin = split_index * split.keys, end = min(length, begin + split.keys);
  // The first block's rows are on their way while the heads are staged.
  issue_keys<HeadDim>(p, w, next, g, begin, min(key_block, end - begin), position, s, kv_full);
  stage_heads<HeadDim>(p, w, g, split_index == 0, position, s);
  for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) s.o[t] = 0.0f;
  if (int(threadIdx.x) < group) s.stat[threadIdx.x] = -INFINITY, s.stat[max_group + threadIdx.x] = 0.0f;
  sync_consumers();
  for (int j0 = begin; j0 < end; j0 += key_block) {
    int const n = min(key_block, end - j0);
    if (j0 != begin) issue_keys<HeadDim>(p, w, next, g, j0, n, position, s, kv_full);
    place_new_key<HeadDim>(j0, n, position, s);
    arch::mbarrier_wait(kv_full, std::uint32_t(kv_uses++) & 1u);
    score_keys<HeadDim>(p, n, s);
    sync_consumers();
    if (warp < group) {  // warp i: head i's running max and sum; the scores become probabilities
      float* const row = s.score + warp * key_block;
      float block_max = -INFINITY;
      for (int j = lane; j < n; j += 32) block_max = fmaxf(block_max, row[j]);
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2)
        block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, offset));
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
    sync_consumers();
    for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) {
      int const i = t / HeadDim, d = t % HeadDim;
      float acc = s.o[t] * s.stat[2 * max_group + i];
#pragma unroll 8
      for (int jj = 0; jj < n; ++jj)
        acc = fmaf(s.score[i * key_block + jj], __bfloat162float(s.v_block[jj * HeadDim + d]), acc);
      s.o[t] = acc;
    }
    sync_consumers();
  }
  if (split.count == 1) {  // the whole of the keys: the output as the combine of one split gives it
    for (int t = int(threadIdx.x); t < group * HeadDim; t += threads)
      p.attention_out[std::int64_t(g * group) * HeadDim + t] =
          __float2bfloat16(s.o[t] / s.stat[max_group + t / HeadDim]);
    return;
  }
  for (int t = int(threadIdx.x); t < group * HeadDim; t += threads) {
    int const i = t / HeadDim, d = t % HeadDim;
    float* const out = split_partial<HeadDim>(p, split_index, g * group + i);
    out[2 + d] = s.o[t];
    if (d == 0) out[0] = s.stat[i], out[1] = s.stat[max_group + i];
  }
  if (last_split(p, g, split.count))
    combine_group<HeadDim>(p, g, split, reinterpret_cast<float*>(scratch));
}

}  // namespace cute_cpp::models::fused_step
