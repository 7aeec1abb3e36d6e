// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Decode attention's combine (decode_sm90.cuh; splits only): per query row, the splits' O weighted
// by exp(LSE - max), by the splits' cluster once all are written (up to max_cluster_splits
// splits), or by a kernel of its own.
#include <cute_cpp/arch/griddepcontrol.hpp>                   // griddepcontrol_wait
#include <cute_cpp/arch/thread.hpp>                           // shuffle_sync_bfly
#include <cute_cpp/kernels/attention/decode/decode.hpp>       // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>  // DecodeWork, decode_row

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// The most splits a launch may have (the combine keeps one weight per split in shared memory).
inline constexpr int max_decode_splits = 128;
/// The most splits combined within their cluster (a portable size; clusters of 16 measured slower).
inline constexpr int max_cluster_splits = 8;

/// One query row's combination over the splits, by one warp: the lanes read the splits' LSEs
/// together and turn them into weights exp(LSE - max) / sum; then each lane sums HeadDimV / 32
/// columns over the splits. The partials are other CTAs' writes: read from L2 (ld.cg). Held > 0
/// (at most Held splits, one a lane): every split's O is loaded beside the LSEs, before the
/// weights are known, and a split's weight is a shuffle from its lane (one L2 round trip, not
/// two); otherwise the weights go through `weights` (MaxSplits floats of the warp's shared
/// memory) and the O loads follow them, several splits in flight at once.
template <class T, int HeadDimV, int MaxSplits, int Held = 0>
__device__ __forceinline__ void decode_combine_row(DecodeParams const& p, std::int64_t q_row, int lane,
                                                   float* weights) {
  constexpr int per_lane = HeadDimV / 32, lse_per_lane = MaxSplits / 32;
  static_assert(Held <= 32 && (Held == 0 || lse_per_lane == 1),
                "cute-cpp [attention.splits]: held splits are one a lane");
  std::int64_t const rows = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
  float const* const part0 = p.partial_o + q_row * HeadDimV + lane * per_lane;
  float2 held[Held > 0 ? Held : 1][per_lane / 2];
#pragma unroll
  for (int split = 0; split < Held; ++split)
    if (split < p.splits) {
#pragma unroll
      for (int i = 0; i < per_lane; i += 2)
        held[split][i / 2] = __ldcg(reinterpret_cast<float2 const*>(part0 + split * rows * HeadDimV + i));
    }
  float lse[lse_per_lane];
  float max_lse = -INFINITY;
#pragma unroll
  for (int i = 0; i < lse_per_lane; ++i) {
    int const split = lane + 32 * i;
    lse[i] = split < p.splits ? __ldcg(p.partial_lse + split * rows + q_row) : -INFINITY;
    max_lse = fmaxf(max_lse, lse[i]);
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) max_lse = fmaxf(max_lse, arch::shuffle_sync_bfly(max_lse, offset));
  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < lse_per_lane; ++i) {
    // A split that saw no key has LSE -inf and weight 0 (its O is 0); so has every split when no
    // split saw one.
    lse[i] = lse[i] == -INFINITY ? 0.0f : expf(lse[i] - max_lse);
    total += lse[i];
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) total += arch::shuffle_sync_bfly(total, offset);
  float const inverse = total > 0.0f ? 1.0f / total : 0.0f;
  float acc[per_lane] = {};
  if constexpr (Held > 0) {
#pragma unroll
    for (int split = 0; split < Held; ++split) {
      float const weight = __shfl_sync(~0u, lse[0] * inverse, split);
      if (split < p.splits) {
#pragma unroll
        for (int i = 0; i < per_lane; i += 2) {
          acc[i] += weight * held[split][i / 2].x;
          acc[i + 1] += weight * held[split][i / 2].y;
        }
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < lse_per_lane; ++i) weights[lane + 32 * i] = lse[i] * inverse;
    __syncwarp();
    float const* part = part0;
#pragma unroll 4
    for (int split = 0; split < p.splits; ++split, part += rows * HeadDimV) {
      float const weight = weights[split];
#pragma unroll
      for (int i = 0; i < per_lane; i += 2) {
        float2 const v = __ldcg(reinterpret_cast<float2 const*>(part + i));
        acc[i] += weight * v.x;
        acc[i + 1] += weight * v.y;
      }
    }
    __syncwarp();  // the weights are read before the warp's next row writes them
  }
  std::int32_t const head = std::int32_t(q_row % p.heads_q), token = std::int32_t(q_row / p.heads_q % p.q_tokens);
  std::int32_t const batch = std::int32_t(q_row / (std::int64_t(p.heads_q) * p.q_tokens));
  T* const out = static_cast<T*>(p.o) + batch * p.o_batch_stride + token * p.o_seq_stride + head * p.o_head_stride +
                 lane * per_lane;
#pragma unroll
  for (int i = 0; i < per_lane; i += 2) {
    T pair[2] = {T(acc[i]), T(acc[i + 1])};
    *reinterpret_cast<std::uint32_t*>(out + i) = *reinterpret_cast<std::uint32_t const*>(pair);
  }
  if (p.lse != nullptr && lane == 0) p.lse[q_row] = total > 0.0f ? max_lse + logf(total) : -INFINITY;
}

/// The splits' combination as a kernel of its own (more splits than a cluster holds): one warp
/// per query row.
template <class T, int HeadDimV>
__global__ void __launch_bounds__(128) decode_combine_kernel(DecodeParams const p) {
  __shared__ float weights[4][max_decode_splits];
  // Launched as a programmatic dependent of the decode kernel: its launch overlaps that kernel's
  // run, and this waits here until the partials are written.
  arch::griddepcontrol_wait();
  std::int64_t const rows = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
  int const warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  std::int64_t const q_row = std::int64_t(blockIdx.x) * 4 + warp;
  if (q_row >= rows) return;
  decode_combine_row<T, HeadDimV, max_decode_splits>(p, q_row, lane, weights[warp]);
}

/// The splits' combination within their cluster (combine_in_cluster), once every split's partial
/// is written (the cluster barrier, release and acquire): the cluster's consumer warps share the
/// block's query rows, a warp a row.
template <class Plan>
__device__ __forceinline__ void decode_combine_in_cluster(DecodeParams const& p, DecodeWork const& w) {
  constexpr int warps = Plan::consumer_threads / 32;
  int const warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  std::int32_t const first = w.m_block * Plan::block_m;
  std::int32_t const rows = min(Plan::block_m, p.rows - first);
  for (std::int32_t r = w.split * warps + warp; r < rows; r += p.splits * warps) {
    DecodeRow const d = decode_row(p, w, first + r);
    std::int64_t const q_row = (std::int64_t(w.batch) * p.q_tokens + d.token) * p.heads_q + d.head;
    decode_combine_row<typename Plan::Element, Plan::head_dim_v, 32, max_cluster_splits>(p, q_row, lane, nullptr);
  }
}
}  // namespace cute_cpp::kernels
