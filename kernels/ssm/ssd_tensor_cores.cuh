// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The SSD chunked scan's three products on the tensor cores (SsdProducts::tensor_cores), in place
// of ssd_kernels.cuh's CUDA-core steps 2, 3 and 5 (steps 1 and 4 are shared):
//   2 ssd_bmm_tc_kernel          CB = C Bᵀ per chunk and group             (L, L) over N
//   3 ssd_chunk_state_tc_kernel  S_c = (w x)ᵀ B per chunk and head          (P, N) over the chunk's tokens
//   5 ssd_chunk_scan_tc_kernel   y = exp(a) C S_inᵀ + (masked decayed CB) x + D x   (L, P) over N, then tokens
// Each block tile is a TiledMma of 8 warps on MmaTF32x3Op (3xTF32: f32's accuracy, so the states
// keep the CUDA-core kernels' f32 check), its operands staged in shared memory as f32 with the
// reduction dimension contiguous (ldmatrix), 32 at a time. Same grids, workspace and results as
// the CUDA-core kernels.
#include <cute_cpp/kernels/ssm/ssd_kernels.cuh>  // SsdParams, chunk_of, to_f32, from_f32
#include <cute_cpp/mma/mma_sync.hpp>             // TiledMma, MmaTF32x3Op, gemm
#include <cute_cpp/tensor.hpp>                   // make_tensor, make_layout

#include <cstdint>

namespace cute_cpp::kernels {

namespace ssm_detail {
/// A (Rows, K) f32 tile in shared memory with K contiguous, each row padded to K + 4 floats: rows
/// stay 16-byte aligned for ldmatrix, and the 8 rows one ldmatrix reads fall on 32 different banks.
template <int Rows, int K>
using PaddedTile = float[Rows][K + 4];

template <int Rows, int K>
__device__ __forceinline__ auto padded_view(PaddedTile<Rows, K>& tile) {
  return cute_cpp::make_tensor(&tile[0][0], cute_cpp::make_layout(cute_cpp::make_shape(C<Rows>{}, C<K>{}),
                                                                 cute_cpp::make_stride(C<K + 4>{}, C<1>{})));
}

/// acc += A Bᵀ over one staged K tile: A (M, K) and B (N, K) in shared memory, K contiguous.
template <class Mma, class ViewA, class ViewB>
__device__ __forceinline__ void mma_k_tile(ThrMma<Mma> const& mma, typename Mma::FragmentC& acc, ViewA const& a,
                                           ViewB const& b, int k_tile) {
  for (int kb = 0; kb < k_tile / Mma::tile_k; ++kb) {
    typename Mma::FragmentA fa;
    typename Mma::FragmentB fb;
    mma.copy_s2r_A(a, kb, fa);
    mma.copy_s2r_B(b, kb, fb);
    cute_cpp::gemm(Mma{}, acc, fa, fb);
  }
}

/// The block tile's accumulators into f32 `out`, row-major with `ld` floats a row.
template <class Mma>
__device__ __forceinline__ void store_tile(ThrMma<Mma> const& mma, typename Mma::FragmentC const& acc, float* out,
                                           int ld) {
#pragma unroll
  for (int am = 0; am < Mma::atoms_m; ++am)
#pragma unroll
    for (int an = 0; an < Mma::atoms_n; ++an)
#pragma unroll
      for (int i = 0; i < 4; ++i) out[mma.row_of(am, i) * ld + mma.col_of(an, i)] = acc.v[am][an][i];
}
}  // namespace ssm_detail

// ---- 2: CB = C Bᵀ per chunk and group ----

/// One block a (chunk, group); rows past the chunk's end are zero.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_bmm_tc_kernel(SsdParams<T> p) {
  constexpr int L = Plan::chunk, N = Plan::state, K = Plan::k_tile;
  using Mma = TiledMma<warp::MmaTF32x3Op, 2, 4, L, L, 8>;
  static_assert(Mma::threads == Plan::threads);
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const g = int(blockIdx.y);
  __shared__ __align__(16) ssm_detail::PaddedTile<L, K> sC;  // (t, n)
  __shared__ __align__(16) ssm_detail::PaddedTile<L, K> sB;  // (s, n)
  auto const vC = ssm_detail::padded_view<L, K>(sC);
  auto const vB = ssm_detail::padded_view<L, K>(sB);
  auto const mma = Mma::get_slice(int(threadIdx.x));
  typename Mma::FragmentC acc = Mma::FragmentC::ZERO;
  for (int n0 = 0; n0 < N; n0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const r = e / K, k = e % K, t = chunk.begin + r;
      bool const in = t < chunk.end;
      std::int64_t const at = std::int64_t(t) * p.a.bc_stride + g * N + n0 + k;
      sC[r][k] = in ? ssm_detail::to_f32(p.a.C[at]) : 0.0f;
      sB[r][k] = in ? ssm_detail::to_f32(p.a.B[at]) : 0.0f;
    }
    __syncthreads();
    ssm_detail::mma_k_tile(mma, acc, vC, vB, K);
    __syncthreads();
  }
  ssm_detail::store_tile(mma, acc, p.cb + (std::int64_t(blockIdx.x) * p.a.groups + g) * L * L, L);  // (t, s)
}

// ---- 3: each chunk's own state ----

/// One block a (chunk, head): S_c (P, N) = sum over the chunk's tokens s of w_s x_s B_sᵀ with
/// w_s = exp(a_last - a_s) dt_s; x and B staged transposed (token contiguous).
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_chunk_state_tc_kernel(SsdParams<T> p) {
  constexpr int P = Plan::head_dim, N = Plan::state, K = Plan::k_tile;
  using Mma = TiledMma<warp::MmaTF32x3Op, 2, 4, P, N, 8>;
  static_assert(Mma::threads == Plan::threads);
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const h = int(blockIdx.y), H = p.a.heads, g = h / (H / p.a.groups);
  __shared__ __align__(16) ssm_detail::PaddedTile<P, K> sX;  // (p, s), scaled by w_s
  __shared__ __align__(16) ssm_detail::PaddedTile<N, K> sB;  // (n, s)
  __shared__ float sW[K];
  auto const vX = ssm_detail::padded_view<P, K>(sX);
  auto const vB = ssm_detail::padded_view<N, K>(sB);
  auto const mma = Mma::get_slice(int(threadIdx.x));
  float const a_last = p.dA_cumsum[std::int64_t(chunk.end - 1) * H + h];
  typename Mma::FragmentC acc = Mma::FragmentC::ZERO;
  for (int s0 = chunk.begin; s0 < chunk.end; s0 += K) {
    if (threadIdx.x < K) {
      int const s = s0 + int(threadIdx.x);
      std::int64_t const at = std::int64_t(s) * H + h;
      sW[threadIdx.x] = s < chunk.end ? expf(a_last - p.dA_cumsum[at]) * p.dt[at] : 0.0f;
    }
    __syncthreads();
    for (int e = int(threadIdx.x); e < K * P; e += Plan::threads) {
      int const k = e / P, q = e % P, s = s0 + k;
      sX[q][k] = s < chunk.end ? ssm_detail::to_f32(p.a.x[std::int64_t(s) * p.a.x_stride + h * P + q]) * sW[k] : 0.0f;
    }
    for (int e = int(threadIdx.x); e < K * N; e += Plan::threads) {
      int const k = e / N, n = e % N, s = s0 + k;
      sB[n][k] = s < chunk.end ? ssm_detail::to_f32(p.a.B[std::int64_t(s) * p.a.bc_stride + g * N + n]) : 0.0f;
    }
    __syncthreads();
    ssm_detail::mma_k_tile(mma, acc, vX, vB, K);
    __syncthreads();
  }
  ssm_detail::store_tile(mma, acc, p.states + (std::int64_t(blockIdx.x) * H + h) * Plan::state_elems, N);  // (p, n)
}

// ---- 5: the output ----

/// One block a (chunk, head): y (L, P) from the incoming state (over N), scaled by exp(a_t), then
/// the chunk's own tokens (over s of the masked, decayed CB), then D x; rounded to T.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::threads) ssd_chunk_scan_tc_kernel(SsdParams<T> p) {
  constexpr int L = Plan::chunk, P = Plan::head_dim, N = Plan::state, K = Plan::k_tile;
  using Mma = TiledMma<warp::MmaTF32x3Op, 4, 2, L, P, 8>;
  static_assert(Mma::threads == Plan::threads);
  SeqTile const chunk = ssm_detail::chunk_of<Plan>(p);
  if (!chunk.valid()) return;
  int const h = int(blockIdx.y), H = p.a.heads, g = h / (H / p.a.groups), len = chunk.end - chunk.begin;
  __shared__ float sA[L];                                    // a_t (0 past the end)
  __shared__ float sDt[L];                                   // dt_t (0 past the end)
  __shared__ __align__(16) ssm_detail::PaddedTile<L, K> sM;  // C (t, n), then the masked decayed CB (t, s)
  __shared__ __align__(16) ssm_detail::PaddedTile<P, K> sS;  // the incoming state (p, n)
  __shared__ __align__(16) ssm_detail::PaddedTile<P, K> sX;  // x (p, s)
  auto const vM = ssm_detail::padded_view<L, K>(sM);
  auto const vS = ssm_detail::padded_view<P, K>(sS);
  auto const vX = ssm_detail::padded_view<P, K>(sX);
  for (int r = int(threadIdx.x); r < L; r += Plan::threads) {
    bool const in = r < len;
    sA[r] = in ? p.dA_cumsum[std::int64_t(chunk.begin + r) * H + h] : 0.0f;
    sDt[r] = in ? p.dt[std::int64_t(chunk.begin + r) * H + h] : 0.0f;
  }
  auto const mma = Mma::get_slice(int(threadIdx.x));
  typename Mma::FragmentC acc = Mma::FragmentC::ZERO;
  float const* const state_in = p.states + (std::int64_t(blockIdx.x) * H + h) * Plan::state_elems;  // (p, n)
  for (int n0 = 0; n0 < N; n0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const r = e / K, k = e % K;
      std::int64_t const at = std::int64_t(chunk.begin + r) * p.a.bc_stride + g * N + n0 + k;
      sM[r][k] = r < len ? ssm_detail::to_f32(p.a.C[at]) : 0.0f;
    }
    for (int e = int(threadIdx.x); e < P * K; e += Plan::threads) sS[e / K][e % K] = state_in[(e / K) * N + n0 + e % K];
    __syncthreads();
    ssm_detail::mma_k_tile(mma, acc, vM, vS, K);
    __syncthreads();
  }
#pragma unroll
  for (int am = 0; am < Mma::atoms_m; ++am)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float const decay = expf(sA[mma.row_of(am, i)]);
#pragma unroll
      for (int an = 0; an < Mma::atoms_n; ++an) acc.v[am][an][i] *= decay;
    }
  float const* const cb = p.cb + (std::int64_t(blockIdx.x) * p.a.groups + g) * L * L;  // (t, s)
  for (int s0 = 0; s0 < len; s0 += K) {
    for (int e = int(threadIdx.x); e < L * K; e += Plan::threads) {
      int const t = e / K, s = s0 + e % K;
      sM[t][e % K] = (s <= t && t < len) ? cb[t * L + s] * expf(sA[t] - sA[s]) * sDt[s] : 0.0f;
    }
    for (int e = int(threadIdx.x); e < K * P; e += Plan::threads) {
      int const k = e / P, q = e % P, s = s0 + k;
      sX[q][k] = s < len ? ssm_detail::to_f32(p.a.x[std::int64_t(chunk.begin + s) * p.a.x_stride + h * P + q]) : 0.0f;
    }
    __syncthreads();
    ssm_detail::mma_k_tile(mma, acc, vM, vX, K);
    __syncthreads();
  }
  float const D = p.a.D[h];
#pragma unroll
  for (int am = 0; am < Mma::atoms_m; ++am)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      int const t = mma.row_of(am, i);
      if (t >= len) continue;
      std::int64_t const token = chunk.begin + t;
#pragma unroll
      for (int an = 0; an < Mma::atoms_n; ++an) {
        int const q = mma.col_of(an, i);
        float const x = ssm_detail::to_f32(p.a.x[token * p.a.x_stride + h * P + q]);
        p.a.y[(token * H + h) * P + q] = ssm_detail::from_f32<T>(fmaf(D, x, acc.v[am][an][i]));
      }
    }
}

}  // namespace cute_cpp::kernels
