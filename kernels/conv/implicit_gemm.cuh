// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The causal conv's implicit GEMM on the warp tensor cores: out[b, t, n] = epilogue(sum_kk A[t, kk]
// W[n, kk]) with A[t, tap * c_in + ci] = x[b, t - (taps-1-tap) d, ci] gathered by address
// arithmetic (im2col in shared memory, never in global memory), W packed (n_cols, taps * c_in).
// Both the causal conv (n = co) and the causal transposed conv (n = r * c_out + co, taps = K / s,
// d = 1: the s output phases as columns, so out (b, q, n) is out (b, s q + r, co)) run here.
// Steps: (1) a block takes a TileM x TileN tile of (time, column) of one sequence; (2) a ring of
// Stages k-tiles of 32: each thread issues its 16-byte cp.async copies, A's source row chosen by
// conv_gather (x, the carried state, or a zero fill before the sequence and past K), B's from the
// packed weight; (3) warps read a landed stage with ldmatrix and multiply with mma.sync m16n8k16,
// f32 accumulators; (4) the epilogue adds bias[n % c_out], applies the activation (GELU,
// SnakeBeta), adds the residual and stores T, two columns at a time where the row allows.
#include <cute_cpp/kernels/conv/conv_plan.hpp>  // ConvGemmPlan, ConvGeometry, conv_gather, gelu_erf, snake_beta

#include <cute_cpp/copy.hpp>          // CopyG2SOp, cp_async_commit_group, cp_async_wait_group
#include <cute_cpp/diag/verify_plan.hpp>  // verify_plan
#include <cute_cpp/layout.hpp>        // Layout, Shape, Stride, C, _
#include <cute_cpp/mma/mma_sync.hpp>  // warp::MmaF16BF16Op, TiledMma, gemm
#include <cute_cpp/tensor.hpp>        // make_tensor

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

/// What the implicit GEMM kernel is launched with: the operands, the conv's geometry, the output's
/// columns (n_cols) and the channel period of the epilogue's parameters (c_out), batch strides in elements.
template <class T>
struct ConvGemmParams {
  T const* x = nullptr;
  T const* w = nullptr;
  T* out = nullptr;
  T const* residual = nullptr;
  T const* state = nullptr;
  float const* bias = nullptr;
  float const* alpha_log = nullptr;
  float const* beta_log = nullptr;
  ConvGeometry g;
  int length = 0;
  int n_cols = 0;
  int c_out = 0;
};

namespace conv_detail {

/// Two adjacent outputs rounded to T, stored as one 32-bit word.
template <class T>
__device__ __forceinline__ void store_pair(T* dst, float v0, float v1) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) *reinterpret_cast<__nv_bfloat162*>(dst) = __floats2bfloat162_rn(v0, v1);
  else *reinterpret_cast<__half2*>(dst) = __floats2half2_rn(v0, v1);
}

/// The epilogue's per-column constants: bias, and SnakeBeta's e^alpha and 1 / (e^beta + 1e-9).
struct ColumnEpilogue {
  float bias = 0.f, a = 1.f, inv_b = 1.f;
};

template <ConvActivation Act, class T>
__device__ __forceinline__ ColumnEpilogue column_epilogue(ConvGemmParams<T> const& p, int n) {
  ColumnEpilogue e;
  int const c = n % p.c_out;
  if (p.bias != nullptr) e.bias = p.bias[c];
  if constexpr (Act == ConvActivation::snake_beta) {
    e.a = expf(p.alpha_log[c]);
    e.inv_b = 1.0f / (expf(p.beta_log[c]) + float(snake_beta_eps));
  }
  return e;
}

template <ConvActivation Act>
__device__ __forceinline__ float activate(float v, ColumnEpilogue const& e) {
  v += e.bias;
  if constexpr (Act == ConvActivation::gelu) return gelu_erf(v);
  else if constexpr (Act == ConvActivation::snake_beta) return snake_beta(v, e.a, e.inv_b);
  else return v;
}

}  // namespace conv_detail

/// One (TileM, TileN) tile of one sequence (blockIdx.x: time tile, y: column tile, z: sequence);
/// see the file comment's steps. Dynamic shared memory: Plan::smem_bytes.
template <class T, class Plan, ConvActivation Act>
__global__ void __launch_bounds__(Plan::threads)
conv_implicit_gemm_kernel(ConvGemmParams<T> const p) {
  static_assert(verify_plan<Plan>());
  constexpr int BM = Plan::tile_m, BN = Plan::tile_n, BK = Plan::tile_k, S = Plan::stages, V = Plan::vec;
  using Mma = TiledMma<warp::MmaF16BF16Op<T>, Plan::warps_m, Plan::warps_n, BM, BN, BK>;
  using SmemA = Layout<Shape<C<BM>, C<BK>, C<S>>, Stride<C<Plan::row_stride>, C<1>, C<Plan::a_stage_elems>>>;
  using SmemB = Layout<Shape<C<BN>, C<BK>, C<S>>, Stride<C<Plan::row_stride>, C<1>, C<Plan::b_stage_elems>>>;
  extern __shared__ __align__(128) unsigned char conv_smem[];
  T* const a_smem = reinterpret_cast<T*>(conv_smem);
  auto const sA = make_tensor(a_smem, SmemA{});                              // (BM,BK,PIPE)
  auto const sB = make_tensor(a_smem + S * Plan::a_stage_elems, SmemB{});    // (BN,BK,PIPE)

  int const m0 = int(blockIdx.x) * BM, n0 = int(blockIdx.y) * BN, b = int(blockIdx.z);
  int const tid = int(threadIdx.x);
  std::int64_t const K = p.g.k_total();
  int const P = p.g.state_len();
  T const* const xb = p.x + std::int64_t(b) * p.length * p.g.c_in;              // (length,c_in)
  T const* const sb = p.state != nullptr ? p.state + std::int64_t(b) * P * p.g.c_in : nullptr;  // (P,c_in)

  // ---- producer side: stage `stage` <- k-tile kt of the gathered A and of W, zero-filled outside ----
  auto const load_stage = [&](int kt, int stage) {
    std::int64_t const k0 = std::int64_t(kt) * BK;
#pragma unroll
    for (int j = 0; j < Plan::a_copies; ++j) {
      int const c = tid + j * Plan::threads, r = c / (BK / V), col = (c % (BK / V)) * V;
      std::int64_t const kk = k0 + col;
      T const* src = xb;
      bool ok = false;
      if (m0 + r < p.length && kk < K) {
        ConvSource const s = conv_gather(p.g, m0 + r, kk, sb != nullptr);
        ok = s.kind != ConvSource::zero;
        src = (s.kind == ConvSource::state ? sb : xb) + std::int64_t(s.row) * p.g.c_in + s.ci;
      }
      CopyG2SOp<16>::copy_zfill(ok ? src : p.x, &sA(r, col, stage), ok);
    }
#pragma unroll
    for (int j = 0; j < Plan::b_copies; ++j) {
      int const c = tid + j * Plan::threads, r = c / (BK / V), col = (c % (BK / V)) * V;
      bool const ok = n0 + r < p.n_cols && k0 + col < K;
      T const* const src = ok ? p.w + std::int64_t(n0 + r) * K + k0 + col : p.w;
      CopyG2SOp<16>::copy_zfill(src, &sB(r, col, stage), ok);
    }
    cp_async_commit_group();
  };

  // ---- main loop: the ring holds S - 1 k-tiles in flight while the warps multiply one ----
  auto const mma = Mma::get_slice(tid);
  auto acc = mma.partition_fragment_C();  // (MMA_M,MMA_N,4) floats, zero
  typename Mma::FragmentA tCrA;           // (MMA_M,MMA_K,4) registers of A
  typename Mma::FragmentB tCrB;           // (MMA_N,MMA_K,2) registers of B
  int const k_tiles = int((K + BK - 1) / BK);
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    else cp_async_commit_group();  // empty groups keep the wait below counting the same
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait_group<S - 2>();  // this thread's copies of k-tile kt have landed
    __syncthreads();               // ... everyone's, and every warp is done with the stage refilled next
    int const next = kt + S - 1;
    if (next < k_tiles) load_stage(next, next % S);
    else cp_async_commit_group();
    mma.copy_s2r_A(sA(_, _, kt % S), 0, tCrA);
    mma.copy_s2r_B(sB(_, _, kt % S), 0, tCrB);
    gemm(Mma{}, acc, tCrA, tCrB);
  }

  // ---- epilogue: bias, activation, residual, two columns a store ----
  std::int64_t const out_base = std::int64_t(b) * p.length * p.n_cols;
  bool const paired = p.n_cols % 2 == 0;
#pragma unroll
  for (int an = 0; an < Mma::atoms_n; ++an) {
    int const n = n0 + mma.col_of(an, 0);  // even; its pair is n + 1
    if (n >= p.n_cols) continue;
    conv_detail::ColumnEpilogue const e0 = conv_detail::column_epilogue<Act>(p, n);
    conv_detail::ColumnEpilogue const e1 = n + 1 < p.n_cols ? conv_detail::column_epilogue<Act>(p, n + 1) : e0;
#pragma unroll
    for (int am = 0; am < Mma::atoms_m; ++am)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int const m = m0 + mma.row_of(am, 2 * h);
        if (m >= p.length) continue;
        std::int64_t const o = out_base + std::int64_t(m) * p.n_cols + n;
        float v0 = conv_detail::activate<Act>(acc.v[am][an][2 * h], e0);
        float v1 = conv_detail::activate<Act>(acc.v[am][an][2 * h + 1], e1);
        if (p.residual != nullptr) {
          v0 += float(p.residual[o]);
          if (n + 1 < p.n_cols) v1 += float(p.residual[o + 1]);
        }
        if (paired) {
          conv_detail::store_pair(p.out + o, v0, v1);
        } else {
          p.out[o] = T(v0);
          if (n + 1 < p.n_cols) p.out[o + 1] = T(v1);
        }
      }
  }
}

}  // namespace cute_cpp::kernels
