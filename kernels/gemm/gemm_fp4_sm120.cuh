// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_120a FP4 GEMM and GEMV kernel: D = (A x SFA)(B x SFB)^T x ga x gb, bf16 out, A (M, K) and
// B (N, K) packed E2M1 with NVFP4 or MXFP4 factors (gemm_fp4.hpp's layout).
//   1. Each block owns a BlockM x BlockN tile of D; its warps split it as the plan's tiled MMA.
//   2. A multistage cp.async ring stages K tiles of 128: A and B rows (64 bytes, padded to 80 so
//      ldmatrix's eight 16-byte rows hit distinct banks) and their factor rows (8 or 4 bytes).
//   3. Per K tile: ldmatrix to the A/B fragments, 32-bit loads to the factor registers, then the
//      block-scaled mma.sync per atom (sm120::gemm).
//   4. Epilogue: times ga x gb, to bf16, stored a pair of columns at a time.
// The GEMM plan tiles 128 x 128 with 8 warps; the GEMV plan (M <= 16) tiles 16 x 32 with 2 warps.
// Rows past M or N are zero-filled by the copies and never stored.
#include "gemm_fp4.hpp"  // Fp4Format, Fp4GemmArguments

#include <cute_cpp/arch/copy.hpp>                   // arch::cp_async, commit / wait
#include <cute_cpp/diag/verify_plan.hpp>            // verify_plan
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>  // sm120::BlockScaledTiledMma, warp::MmaMXF4NVF4Op, MmaMXF4Op
#include <cute_cpp/tensor.hpp>                      // make_tensor, Layout

#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

/// The MMA atom of a format: NVFP4 kind::mxf4nvf4 with UE4M3 (4X), MXFP4 kind::mxf4 with UE8M0.
template <Fp4Format F>
using Fp4MmaAtom = std::conditional_t<F == Fp4Format::nvfp4, warp::MmaMXF4NVF4Op<quant::ue4m3>, warp::MmaMXF4Op<quant::ue8m0>>;

/// A kernel plan: the tiled MMA over a BlockM x BlockN x 128 tile, and the ring's depth.
template <Fp4Format F, int BlockM, int BlockN, int WarpsM, int WarpsN, int Stages>
struct GemmFp4Plan {
  static constexpr Fp4Format format = F;
  using Mma = sm120::BlockScaledTiledMma<Fp4MmaAtom<F>, WarpsM, WarpsN, BlockM, BlockN, int(fp4_k_tile)>;
  static constexpr int block_m = BlockM, block_n = BlockN, block_k = int(fp4_k_tile), stages = Stages;
  static constexpr int threads = Mma::threads;
  /// Shared-memory rows: K tile bytes plus 16 (ldmatrix's rows 80 bytes apart: 20 banks, no conflict).
  static constexpr int row_bytes = Mma::k_bytes + 16, sf_row_bytes = Mma::sf_k_bytes;
  static constexpr int a_bytes = block_m * row_bytes, b_bytes = block_n * row_bytes;
  static constexpr int sfa_bytes = block_m * sf_row_bytes, sfb_bytes = block_n * sf_row_bytes;
  static constexpr int stage_bytes = a_bytes + b_bytes + sfa_bytes + sfb_bytes;
  static constexpr std::size_t smem_bytes = std::size_t(stages) * stage_bytes;
  static_assert(row_bytes % 16 == 0 && stage_bytes % 16 == 0, "the ring's 16-byte copies stay aligned");
};

/// NOTE: not measured (no sm_120a device here): tiles follow the shape of the sm_80 mma.sync GEMMs.
template <Fp4Format F>
using GemmFp4TilePlan = GemmFp4Plan<F, 128, 128, 2, 4, 3>;
template <Fp4Format F>
using GemvFp4TilePlan = GemmFp4Plan<F, 16, 32, 1, 2, 8>;

/// The kernel's parameters: the checked arguments, flattened.
struct Fp4GemmParams {
  std::uint8_t const *a, *b, *sfa, *sfb;
  float const *ga, *gb;
  __nv_bfloat16* d;
  int m, n, k;
  std::int64_t ldd;
};

namespace detail {

/// One stage's shared memory: (rows, bytes) views of A, B and their factors.
template <class Plan>
struct Fp4Stage {
  using Operand = Layout<Shape<C<Plan::block_m>, C<Plan::Mma::k_bytes>>, Stride<C<Plan::row_bytes>, C<1>>>;
  using OperandB = Layout<Shape<C<Plan::block_n>, C<Plan::Mma::k_bytes>>, Stride<C<Plan::row_bytes>, C<1>>>;
  using ScalesA = Layout<Shape<C<Plan::block_m>, C<Plan::sf_row_bytes>>, Stride<C<Plan::sf_row_bytes>, C<1>>>;
  using ScalesB = Layout<Shape<C<Plan::block_n>, C<Plan::sf_row_bytes>>, Stride<C<Plan::sf_row_bytes>, C<1>>>;
  std::uint8_t* base;
  __device__ std::uint8_t* a() const { return base; }
  __device__ std::uint8_t* b() const { return base + Plan::a_bytes; }
  __device__ std::uint8_t* sfa() const { return base + Plan::a_bytes + Plan::b_bytes; }
  __device__ std::uint8_t* sfb() const { return base + Plan::a_bytes + Plan::b_bytes + Plan::sfa_bytes; }
};

/// Rows x 64 bytes of one K tile from global (row stride k/2 bytes) into rows of row_bytes; rows
/// at or past `valid` are zero-filled (the source clamped to row 0, nothing read).
template <class Plan, int Rows>
__device__ __forceinline__ void load_operand(std::uint8_t* dst, std::uint8_t const* src, int valid, std::int64_t row_stride,
                                             int kt) {
  constexpr int chunks = Plan::Mma::k_bytes / 16;
  for (int i = int(threadIdx.x); i < Rows * chunks; i += Plan::threads) {
    int const r = i / chunks, c = i % chunks;
    bool const in = r < valid;
    std::uint8_t const* s = src + (in ? r : 0) * row_stride + std::int64_t(kt) * Plan::Mma::k_bytes + c * 16;
    arch::cp_async<16>(dst + r * Plan::row_bytes + c * 16, s, in ? 16u : 0u);
  }
}

/// Rows x sf_row_bytes factors of one K tile (row stride k/vec bytes), zero-filled past `valid`.
template <class Plan, int Rows>
__device__ __forceinline__ void load_scales(std::uint8_t* dst, std::uint8_t const* src, int valid, std::int64_t row_stride,
                                            int kt) {
  constexpr int bytes = Plan::sf_row_bytes;
  for (int r = int(threadIdx.x); r < Rows; r += Plan::threads) {
    bool const in = r < valid;
    std::uint8_t const* s = src + (in ? r : 0) * row_stride + std::int64_t(kt) * bytes;
    arch::cp_async<bytes>(dst + r * bytes, s, in ? std::uint32_t(bytes) : 0u);
  }
}

/// Issues the copies of K tile kt into `stage`.
template <class Plan>
__device__ __forceinline__ void load_stage(Fp4Stage<Plan> const& stage, Fp4GemmParams const& p, int m0, int n0, int kt) {
  constexpr int vec = Plan::Mma::sf_vec_size;
  std::int64_t const data_stride = p.k / 2, sf_stride = p.k / vec;
  load_operand<Plan, Plan::block_m>(stage.a(), p.a + m0 * data_stride, p.m - m0, data_stride, kt);
  load_operand<Plan, Plan::block_n>(stage.b(), p.b + n0 * data_stride, p.n - n0, data_stride, kt);
  load_scales<Plan, Plan::block_m>(stage.sfa(), p.sfa + m0 * sf_stride, p.m - m0, sf_stride, kt);
  load_scales<Plan, Plan::block_n>(stage.sfb(), p.sfb + n0 * sf_stride, p.n - n0, sf_stride, kt);
}

/// The accumulators times alpha, to bf16, in D; a column pair at once where both are inside N.
template <class Plan>
__device__ __forceinline__ void store_d(typename Plan::Mma::FragmentC const& acc, Fp4GemmParams const& p, int m0, int n0) {
  using M = typename Plan::Mma;
  float const alpha = (p.ga ? *p.ga : 1.0f) * (p.gb ? *p.gb : 1.0f);
  auto const thr = M::get_slice(int(threadIdx.x));
#pragma unroll
  for (int am = 0; am < M::atoms_m; ++am)
#pragma unroll
    for (int an = 0; an < M::atoms_n; ++an)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        int const row = m0 + thr.row_of(am, 2 * half), col = n0 + thr.col_of(an, 2 * half);
        if (row >= p.m || col >= p.n) continue;
        __nv_bfloat16* out = p.d + std::int64_t(row) * p.ldd + col;
        float const x = acc.v[am][an][2 * half] * alpha, y = acc.v[am][an][2 * half + 1] * alpha;
        if (col + 1 < p.n) *reinterpret_cast<__nv_bfloat162*>(out) = __floats2bfloat162_rn(x, y);
        else *out = __float2bfloat16_rn(x);
      }
}

}  // namespace detail

/// One BlockM x BlockN tile of D per block (blockIdx.x over N, blockIdx.y over M).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads) gemm_fp4_kernel(Fp4GemmParams const p) {
  static_assert(verify_plan<Plan>());
  using M = typename Plan::Mma;
  using Stage = detail::Fp4Stage<Plan>;
  extern __shared__ __align__(128) std::uint8_t smem[];
  int const m0 = int(blockIdx.y) * Plan::block_m, n0 = int(blockIdx.x) * Plan::block_n;
  int const k_tiles = p.k / Plan::block_k;
  auto const stage = [&](int kt) { return Stage{smem + (kt % Plan::stages) * Plan::stage_bytes}; };

  // ---- prologue: the first stages - 1 K tiles in flight ----
#pragma unroll
  for (int s = 0; s < Plan::stages - 1; ++s) {
    if (s < k_tiles) detail::load_stage<Plan>(stage(s), p, m0, n0, s);
    arch::cp_async_commit_group();
  }

  // ---- mainloop: wait for tile kt, refill the slot tile kt - 1 left, multiply tile kt ----
  auto const thr = M::get_slice(int(threadIdx.x));
  typename M::FragmentC acc{};
  typename M::FragmentA fa;
  typename M::FragmentB fb;
  typename M::FragmentSFA fsa;
  typename M::FragmentSFB fsb;
  for (int kt = 0; kt < k_tiles; ++kt) {
    arch::cp_async_wait_group<Plan::stages - 2>();
    __syncthreads();
    if (int const next = kt + Plan::stages - 1; next < k_tiles) detail::load_stage<Plan>(stage(next), p, m0, n0, next);
    arch::cp_async_commit_group();
    Stage const s = stage(kt);
    auto const sA = make_tensor(static_cast<std::uint8_t const*>(s.a()), typename Stage::Operand{});      // (BM,BK/2)
    auto const sB = make_tensor(static_cast<std::uint8_t const*>(s.b()), typename Stage::OperandB{});     // (BN,BK/2)
    auto const sSFA = make_tensor(static_cast<std::uint8_t const*>(s.sfa()), typename Stage::ScalesA{});  // (BM,BK/vec)
    auto const sSFB = make_tensor(static_cast<std::uint8_t const*>(s.sfb()), typename Stage::ScalesB{});  // (BN,BK/vec)
    thr.copy_s2r_A(sA, 0, fa);
    thr.copy_s2r_B(sB, 0, fb);
    thr.copy_s2r_SFA(sSFA, 0, fsa);
    thr.copy_s2r_SFB(sSFB, 0, fsb);
    sm120::gemm(M{}, acc, fa, fb, fsa, fsb);
  }
  arch::cp_async_wait_group<0>();

  // ---- epilogue ----
  detail::store_d<Plan>(acc, p, m0, n0);
}

}  // namespace cute_cpp::kernels
