// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Mamba-2 SSD chunked scan's five device steps (mamba_chunk_scan_combined's organisation),
// over chunks of L tokens that never cross a sequence (locate_tile). With the chunk-local
// cumulative sum a_t = sum_{k <= t in the chunk} dt_k A:
//   1 ssd_dt_kernel          dt = clamp(softplus(dt + dt_bias)), a_t                    (T, H)
//   2 ssd_bmm_kernel         CB[t, s] = C_t . B_s per chunk and group                   (chunks, G, L, L)
//   3 ssd_chunk_state_kernel S_c[p, n] = sum_s exp(a_last - a_s) dt_s x_s[p] B_s[n]      (chunks, H, P, N)
//   4 ssd_state_pass_kernel  per sequence, in chunk order: S_in(c) = S; S = exp(a_last) S + S_c,
//                            from the initial state; S_c is overwritten with S_in(c); the final S kept
//   5 ssd_chunk_scan_kernel  y_t = exp(a_t) C_t . S_in + sum_{s <= t} CB[t, s] exp(a_t - a_s) dt_s x_s
//                            + D x_t
// Every exponent is <= 0 (A < 0, dt >= 0), so no term overflows. CUDA-core f32 throughout, a 16 x 16
// thread grid over each output tile with its reduction dimension staged in shared memory 32 at a
// time (tensor cores: later, README.md).
#include <cute_cpp/kernels/ssm/ssm_args.hpp>    // SsdPrefillArguments
#include <cute_cpp/kernels/ssm/ssm_common.cuh>  // to_f32, from_f32, state_slot

#include <cstdint>

namespace cute_cpp::kernels {

/// The SSD kernels' parameters: the caller's arguments and the workspace's arrays.
template <class T>
struct SsdParams {
  SsdPrefillArguments<T> a;
  float* dt;         // (T, H) dt after softplus and the clamp
  float* dA_cumsum;  // (T, H) a_t, restarting at each chunk
  float* cb;         // (chunks, G, L, L)
  float* states;     // (chunks, H, P, N): the chunk's own state, then its incoming state
};

namespace ssm_detail {
/// The chunk of blockIdx.x (invalid past the last).
template <class Plan, class T>
__device__ __forceinline__ SeqTile chunk_of(SsdParams<T> const& p) {
  return locate_tile(p.a.cu_seqlens, p.a.num_seqs, Plan::chunk, int(blockIdx.x));
}
}  // namespace ssm_detail

// ---- 1: dt and its chunk-local cumulative sum ----

/// One block a chunk, a thread a head: the chunk's tokens in order (the sum is sequential, as
/// torch's cumsum is).
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_dt_kernel(SsdParams<T> p) {
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const H = p.a.heads;
  for (int h = int(threadIdx.x); h < H; h += blockDim.x) {
    float const A = -expf(p.a.A_log[h]), bias = p.a.dt_bias[h];
    float sum = 0.0f;
    for (int t = chunk.begin; t < chunk.end; ++t) {
      float const dt = softplus_dt(ssm_detail::to_f32(p.a.dt[std::int64_t(t) * p.a.dt_stride + h]), bias, p.a.dt_lo,
                                   p.a.dt_hi);
      sum += dt * A;
      p.dt[std::int64_t(t) * H + h] = dt;
      p.dA_cumsum[std::int64_t(t) * H + h] = sum;
    }
  }
}

// ---- 2: CB = C Bᵀ per chunk and group ----

/// One block a (chunk, group): the (L, L) product over N in tiles of 32; rows past the chunk's
/// end are zero.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_bmm_kernel(SsdParams<T> p) {
  constexpr int L = Plan::chunk, N = Plan::state, K = Plan::k_tile, R = L / 16;
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const g = int(blockIdx.y), ty = int(threadIdx.x) / 16, tx = int(threadIdx.x) % 16;
  __shared__ float sC[L][K + 1];  // (t, n): +1 so a column read spreads over the banks
  __shared__ float sB[L][K + 1];  // (s, n)
  float acc[R][R] = {};           // (t = ty + 16 i, s = tx + 16 j)
  for (int n0 = 0; n0 < N; n0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const r = e / K, k = e % K, t = chunk.begin + r;
      bool const in = t < chunk.end;
      std::int64_t const at = std::int64_t(t) * p.a.bc_stride + g * N + n0 + k;
      sC[r][k] = in ? ssm_detail::to_f32(p.a.C[at]) : 0.0f;
      sB[r][k] = in ? ssm_detail::to_f32(p.a.B[at]) : 0.0f;
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      float c[R], b[R];
#pragma unroll
      for (int i = 0; i < R; ++i) c[i] = sC[ty + 16 * i][k];
#pragma unroll
      for (int j = 0; j < R; ++j) b[j] = sB[tx + 16 * j][k];
#pragma unroll
      for (int i = 0; i < R; ++i)
#pragma unroll
        for (int j = 0; j < R; ++j) acc[i][j] = fmaf(c[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  float* const out = p.cb + (std::int64_t(blockIdx.x) * p.a.groups + g) * L * L;  // (t, s)
#pragma unroll
  for (int i = 0; i < R; ++i)
#pragma unroll
    for (int j = 0; j < R; ++j) out[(ty + 16 * i) * L + tx + 16 * j] = acc[i][j];
}

// ---- 3: each chunk's own state ----

/// One block a (chunk, head): S_c (P, N) = sum over the chunk's tokens s of w_s x_s B_sᵀ with
/// w_s = exp(a_last - a_s) dt_s, over s in tiles of 32.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_chunk_state_kernel(SsdParams<T> p) {
  constexpr int P = Plan::head_dim, N = Plan::state, K = Plan::k_tile, RP = P / 16, RN = N / 16;
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const h = int(blockIdx.y), H = p.a.heads, g = h / (H / p.a.groups);
  int const ty = int(threadIdx.x) / 16, tx = int(threadIdx.x) % 16;
  __shared__ float sX[K][P];  // (s, p), scaled by w_s
  __shared__ float sB[K][N];  // (s, n)
  __shared__ float sW[K];
  float const a_last = p.dA_cumsum[std::int64_t(chunk.end - 1) * H + h];
  float acc[RP][RN] = {};  // (p = ty + 16 i, n = tx + 16 j)
  for (int s0 = chunk.begin; s0 < chunk.end; s0 += K) {
    if (threadIdx.x < K) {
      int const s = s0 + int(threadIdx.x);
      sW[threadIdx.x] = s < chunk.end ? expf(a_last - p.dA_cumsum[std::int64_t(s) * H + h]) * p.dt[std::int64_t(s) * H + h]
                                      : 0.0f;
    }
    __syncthreads();
    for (int e = int(threadIdx.x); e < K * P; e += Plan::threads) {
      int const k = e / P, q = e % P, s = s0 + k;
      sX[k][q] = s < chunk.end ? ssm_detail::to_f32(p.a.x[std::int64_t(s) * p.a.x_stride + h * P + q]) * sW[k] : 0.0f;
    }
    for (int e = int(threadIdx.x); e < K * N; e += Plan::threads) {
      int const k = e / N, n = e % N, s = s0 + k;
      sB[k][n] = s < chunk.end ? ssm_detail::to_f32(p.a.B[std::int64_t(s) * p.a.bc_stride + g * N + n]) : 0.0f;
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      float xv[RP], bv[RN];
#pragma unroll
      for (int i = 0; i < RP; ++i) xv[i] = sX[k][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < RN; ++j) bv[j] = sB[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < RP; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j) acc[i][j] = fmaf(xv[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
  float* const out = p.states + (std::int64_t(blockIdx.x) * H + h) * Plan::state_elems;  // (p, n)
#pragma unroll
  for (int i = 0; i < RP; ++i)
#pragma unroll
    for (int j = 0; j < RN; ++j) out[(ty + 16 * i) * N + tx + 16 * j] = acc[i][j];
}

// ---- 4: the state passed from chunk to chunk ----

/// One block a (sequence, head), each thread P*N/256 state entries, the sequence's chunks in
/// order. A thread reads its entries of the initial state before it writes the final state, so
/// the two may be one buffer (a sequence's slot updated in place).
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_state_pass_kernel(SsdParams<T> p) {
  constexpr int L = Plan::chunk, E = Plan::state_per_thread, PN = Plan::state_elems;
  int const seq = int(blockIdx.x), h = int(blockIdx.y), H = p.a.heads;
  int const begin = p.a.cu_seqlens[seq], end = p.a.cu_seqlens[seq + 1];
  int const first = first_tile(p.a.cu_seqlens, seq, L);
  int const slot = ssm_detail::state_slot(p.a.state_slots, seq);
  std::int64_t const slot_base = (std::int64_t(slot) * H + h) * PN;
  float s[E];
#pragma unroll
  for (int k = 0; k < E; ++k)
    s[k] = p.a.initial_states != nullptr ? p.a.initial_states[slot_base + int(threadIdx.x) + k * Plan::threads] : 0.0f;
  for (int c = 0, t0 = begin; t0 < end; ++c, t0 += L) {
    int const last = (t0 + L < end ? t0 + L : end) - 1;
    float const decay = expf(p.dA_cumsum[std::int64_t(last) * H + h]);
    float* const chunk_state = p.states + (std::int64_t(first + c) * H + h) * PN;
#pragma unroll
    for (int k = 0; k < E; ++k) {
      int const e = int(threadIdx.x) + k * Plan::threads;
      float const own = chunk_state[e];
      chunk_state[e] = s[k];
      s[k] = fmaf(decay, s[k], own);
    }
  }
#pragma unroll
  for (int k = 0; k < E; ++k) p.a.final_states[slot_base + int(threadIdx.x) + k * Plan::threads] = s[k];
}

// ---- 5: the output ----

/// One block a (chunk, head): y (L, P) from the incoming state (over N in tiles of 32), then the
/// chunk's own tokens (over s in tiles of 32 of the masked, decayed CB), then D x; rounded to T.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_chunk_scan_kernel(SsdParams<T> p) {
  constexpr int L = Plan::chunk, P = Plan::head_dim, N = Plan::state, K = Plan::k_tile, RT = L / 16, RP = P / 16;
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const h = int(blockIdx.y), H = p.a.heads, g = h / (H / p.a.groups), len = chunk.end - chunk.begin;
  int const ty = int(threadIdx.x) / 16, tx = int(threadIdx.x) % 16;
  __shared__ float sA[L];          // a_t (0 past the end)
  __shared__ float sDt[L];         // dt_t (0 past the end)
  __shared__ float sM[L][K];       // C tile (t, n), then the masked decayed CB tile (t, s)
  __shared__ float sS[P][K + 1];   // the incoming state's tile (p, n)
  __shared__ float sX[K][P];       // x tile (s, p)
  for (int r = int(threadIdx.x); r < L; r += Plan::threads) {
    bool const in = r < len;
    sA[r] = in ? p.dA_cumsum[std::int64_t(chunk.begin + r) * H + h] : 0.0f;
    sDt[r] = in ? p.dt[std::int64_t(chunk.begin + r) * H + h] : 0.0f;
  }
  float acc[RT][RP] = {};  // (t = ty + 16 i, p = tx + 16 j)
  float const* const state_in = p.states + (std::int64_t(blockIdx.x) * H + h) * Plan::state_elems;  // (p, n)
  for (int n0 = 0; n0 < N; n0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const r = e / K, k = e % K;
      sM[r][k] = r < len ? ssm_detail::to_f32(p.a.C[std::int64_t(chunk.begin + r) * p.a.bc_stride + g * N + n0 + k]) : 0.0f;
    }
    for (int e = int(threadIdx.x); e < P * K; e += Plan::threads) sS[e / K][e % K] = state_in[(e / K) * N + n0 + e % K];
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      float cv[RT], sv[RP];
#pragma unroll
      for (int i = 0; i < RT; ++i) cv[i] = sM[ty + 16 * i][k];
#pragma unroll
      for (int j = 0; j < RP; ++j) sv[j] = sS[tx + 16 * j][k];
#pragma unroll
      for (int i = 0; i < RT; ++i)
#pragma unroll
        for (int j = 0; j < RP; ++j) acc[i][j] = fmaf(cv[i], sv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < RT; ++i) {
    float const decay = expf(sA[ty + 16 * i]);
#pragma unroll
    for (int j = 0; j < RP; ++j) acc[i][j] *= decay;
  }
  float const* const cb = p.cb + (std::int64_t(blockIdx.x) * p.a.groups + g) * L * L;  // (t, s)
  for (int s0 = 0; s0 < len; s0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const t = e / K, s = s0 + e % K;
      sM[t][e % K] = (s <= t && t < len) ? cb[t * L + s] * expf(sA[t] - sA[s]) * sDt[s] : 0.0f;
    }
    for (int e = int(threadIdx.x); e < K * P; e += Plan::threads) {
      int const k = e / P, q = e % P, s = s0 + k;
      sX[k][q] = s < len ? ssm_detail::to_f32(p.a.x[std::int64_t(chunk.begin + s) * p.a.x_stride + h * P + q]) : 0.0f;
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
      float mv[RT], xv[RP];
#pragma unroll
      for (int i = 0; i < RT; ++i) mv[i] = sM[ty + 16 * i][k];
#pragma unroll
      for (int j = 0; j < RP; ++j) xv[j] = sX[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < RT; ++i)
#pragma unroll
        for (int j = 0; j < RP; ++j) acc[i][j] = fmaf(mv[i], xv[j], acc[i][j]);
    }
    __syncthreads();
  }
  float const D = p.a.D[h];
#pragma unroll
  for (int i = 0; i < RT; ++i) {
    int const t = ty + 16 * i;
    if (t >= len) continue;
    std::int64_t const token = chunk.begin + t;
#pragma unroll
    for (int j = 0; j < RP; ++j) {
      int const q = tx + 16 * j;
      float const x = ssm_detail::to_f32(p.a.x[token * p.a.x_stride + h * P + q]);
      p.a.y[(token * H + h) * P + q] = ssm_detail::from_f32<T>(fmaf(D, x, acc[i][j]));
    }
  }
}

}  // namespace cute_cpp::kernels
