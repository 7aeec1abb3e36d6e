// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's row kernels (fmha_backward_sm90.cuh), one warp a row, 64 rows (one
// workspace block) a CTA of 4 warps; grid (query blocks of the longest sequence, q heads, sequences):
//   fmha_backward_preprocess   D = rowsum(dO ∘ O) in float and the LSE in log2 units into the
//                              workspace, padded to the block (D 0, LSE +inf: such rows give P = 0)
//   fmha_backward_postprocess  dQ = scale x the float sum, rounded to T, for the sequence's rows
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/arch/math.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// A 64-row block of one q head of one sequence: the sequence's rows, where they lie in the
/// packed tensors and in the workspace.
struct FmhaBackwardRows {
  std::int32_t batch = 0, head = 0, seq_q = 0, q_offset = 0;
  std::int64_t ws_row = 0;  ///< the block's first row of the workspace (this head)
};

__device__ __forceinline__ FmhaBackwardRows fmha_backward_rows(FmhaBackwardParams const& p) {
  FmhaBackwardRows r;
  r.head = std::int32_t(blockIdx.y);
  r.batch = std::int32_t(blockIdx.z);
  r.seq_q = p.seq_q;
  if (p.varlen()) {
    std::int32_t const q0 = p.cu_seqlens_q[r.batch], q_end = p.cu_seqlens_q[r.batch + 1];
    r.q_offset = max(0, min(q0, p.total_q));
    r.seq_q = max(0, min(q_end, p.total_q) - r.q_offset);
  }
  r.ws_row = std::int64_t(r.head) * p.ws.rows + p.ws.padded_start(r.batch, r.q_offset) +
             std::int64_t(blockIdx.x) * fmha_backward_block_m;
  return r;
}

/// D and the LSE (log2 units) of a block; lse_head/lse_batch: the forward's LSE strides.
template <class T>
__global__ void __launch_bounds__(128) fmha_backward_preprocess(T const* o, T const* d_o, float const* lse,
                                                                AttentionStrides os, AttentionStrides dos,
                                                                std::int64_t lse_head, std::int64_t lse_batch,
                                                                FmhaBackwardParams const p) {
  FmhaBackwardRows const r = fmha_backward_rows(p);
  std::int32_t const s0 = std::int32_t(blockIdx.x) * fmha_backward_block_m;
  if (s0 >= r.seq_q) return;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  std::int64_t const b = p.varlen() ? 0 : r.batch;
  for (int i = warp; i < fmha_backward_block_m; i += 4) {
    std::int32_t const s = s0 + i;
    float dot = 0.0f;
    if (s < r.seq_q && 8 * lane < p.ws.head_dim) {
      std::int64_t const row = r.q_offset + s;
      uint4 const ov = *reinterpret_cast<uint4 const*>(o + b * os.batch + row * os.seq + r.head * os.head + 8 * lane);
      uint4 const dv =
          *reinterpret_cast<uint4 const*>(d_o + b * dos.batch + row * dos.seq + r.head * dos.head + 8 * lane);
      T const* const oe = reinterpret_cast<T const*>(&ov);
      T const* const de = reinterpret_cast<T const*>(&dv);
#pragma unroll
      for (int e = 0; e < 8; ++e) dot = fmaf(float(oe[e]), float(de[e]), dot);
    }
    dot = arch::warp_reduction_sum_f32(dot);
    if (lane == 0) {
      float l = INFINITY;
      if (s < r.seq_q) {
        float const natural = lse[r.head * lse_head + r.batch * lse_batch + r.q_offset + s];
        l = natural == -INFINITY ? INFINITY : natural * float(M_LOG2E);
      }
      p.delta[r.ws_row + i] = s < r.seq_q ? dot : 0.0f;
      p.lse_log2[r.ws_row + i] = l;
    }
  }
}

/// dQ of a block's rows within the sequence: scale x the workspace's float sum, as T.
template <class T>
__global__ void __launch_bounds__(128) fmha_backward_postprocess(T* dq, AttentionStrides dqs,
                                                                 FmhaBackwardParams const p) {
  FmhaBackwardRows const r = fmha_backward_rows(p);
  std::int32_t const s0 = std::int32_t(blockIdx.x) * fmha_backward_block_m;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  std::int64_t const b = p.varlen() ? 0 : r.batch;
  if (8 * lane >= p.ws.head_dim) return;
  for (int i = warp; i < fmha_backward_block_m && s0 + i < r.seq_q; i += 4) {
    float const* const src = p.dq_accum + (r.ws_row + i) * p.ws.head_dim + 8 * lane;
    float4 const lo = *reinterpret_cast<float4 const*>(src), hi = *reinterpret_cast<float4 const*>(src + 4);
    float const v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    alignas(16) T out[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) out[e] = T(v[e] * p.scale);
    std::int64_t const row = r.q_offset + s0 + i;
    *reinterpret_cast<uint4*>(dq + b * dqs.batch + row * dqs.seq + r.head * dqs.head + 8 * lane) =
        *reinterpret_cast<uint4 const*>(out);
  }
}

}  // namespace cute_cpp::kernels
