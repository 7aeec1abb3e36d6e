// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's softmax (fmha_sm100.cuh): each thread of the softmax
// warpgroup owns one Q row of the tile (tensor-memory lane 32 (warp % 4) + lane). Per key block it
// reads its row of S from tensor memory (32x32b copies), masks it, folds it into the running
// maximum and sum (exp2, the scale folded in), corrects O when the maximum grew
// (fmha_sm100_correct_o) and writes P, 16-bit, to shared memory as the A operand of O += P V.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/arch/math.hpp>
#include <cute_cpp/arch/tmem.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// A softmax thread's rings and states, and what it knows of its row.
template <class Plan>
struct FmhaSm100SoftmaxRings {
  typename Plan::PipelineS pipe_s;
  typename Plan::PipelineP pipe_p;
  typename Plan::PipelineO pipe_o;
  PipelineState<Plan::s_buffers> s_state = make_pipeline_state<Plan::s_buffers>(PipelineUserType::Consumer);
  PipelineState<1> p_state = make_pipeline_state<1>(PipelineUserType::Producer);
  PipelineState<1> o_state = make_pipeline_state<1>(PipelineUserType::Consumer);
};

/// The running maximum (of the raw scores) and sum of one row.
struct FmhaSm100RowState {
  float row_max = -INFINITY;
  float row_sum = 0.0f;
};

/// O's row in tensor memory *= `correction` (O holds P V up to the previous block, complete): a
/// load, scale and store per 32 columns. The warp's tcgen05.ld/st are collective: every lane
/// calls, a lane whose row did not move scaling by 1.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_correct_o(std::uint32_t tmem, int warp, int lane, float correction) {
  using Atom = typename Plan::RowAtom;
  using Copy = sm100::TmemThrCopy<typename Plan::MmaO::Accumulator, Atom>;
  Copy const slice = sm100::get_slice<typename Plan::MmaO::Accumulator, Atom>(warp, lane);
  std::uint32_t const o_tmem = tmem + std::uint32_t(Plan::tmem_o);
#pragma unroll
  for (int i = 0; i < Copy::copies; ++i) {
    std::uint32_t r[Atom::registers];
    Atom::load(r, slice.tmem_addr(o_tmem, i));
    arch::fence_view_async_tmem_load();
#pragma unroll
    for (int j = 0; j < Atom::registers; ++j) r[j] = __float_as_uint(__uint_as_float(r[j]) * correction);
    Atom::store(slice.tmem_addr(o_tmem, i), r);
  }
  arch::fence_view_async_tmem_store();
}

/// Writes the row's P (block_n probabilities, 16-bit) to the P buffer: 16 bytes (8 keys) a store,
/// at the swizzled unit of the K-major chunk (fmha_p_unit_offset).
template <class Plan>
__device__ __forceinline__ void fmha_sm100_write_p(typename Plan::SharedStorage& smem, std::uint32_t p_index, int row,
                                                   float const (&s)[Plan::block_n]) {
  using T = typename Plan::Element;
  // NOTE: the address goes through the shared window (cvta): from the carved storage's generic
  // pointer nvcc emitted generic stores (ST.E.128) where shared ones (STS.128) serve.
  std::uint32_t const p_smem = std::uint32_t(__cvta_generic_to_shared(smem.p.tile(p_index, 0)));
  constexpr int chunk_elems = decltype(smem.p)::tile_elems;
#pragma unroll
  for (int c = 0; c < Plan::pv_chunks; ++c) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      alignas(16) T unit[8];
#pragma unroll
      for (int e = 0; e < 8; ++e) unit[e] = T(s[64 * c + 8 * u + e]);
      std::uint32_t const at =
          p_smem + std::uint32_t(sizeof(T) * (c * chunk_elems + fmha_p_unit_offset(row, u)));
      *static_cast<uint4*>(__cvta_shared_to_generic(at)) = *reinterpret_cast<uint4 const*>(unit);
    }
  }
}

/// Loads the row's S of the next S buffer into `s` and frees the buffer.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_load_s(FmhaSm100SoftmaxRings<Plan>& r, std::uint32_t tmem, int warp,
                                                  int lane, float (&s)[Plan::block_n]) {
  using Atom = typename Plan::RowAtom;
  using Copy = sm100::TmemThrCopy<typename Plan::MmaS::Accumulator, Atom>;
  Copy const slice = sm100::get_slice<typename Plan::MmaS::Accumulator, Atom>(warp, lane);
  r.pipe_s.consumer_wait(r.s_state);
  __syncwarp();
  std::uint32_t const s_tmem = tmem + r.s_state.index() * std::uint32_t(Plan::s_columns);
  std::uint32_t v[Copy::copies][Atom::registers];
#pragma unroll
  for (int i = 0; i < Copy::copies; ++i) Atom::load(v[i], slice.tmem_addr(s_tmem, i));
  arch::fence_view_async_tmem_load();
  r.pipe_s.consumer_release(r.s_state, std::uint32_t(lane));
  r.s_state.advance();
#pragma unroll
  for (int i = 0; i < Copy::copies; ++i)
#pragma unroll
    for (int j = 0; j < Atom::registers; ++j) s[slice.col(i, j)] = __uint_as_float(v[i][j]);
}

/// One key block `n` of the row (tile row `row`, global query `query`): S read and masked, the
/// maximum and sum folded, O corrected (after the previous block's P V, `first`: none), P written
/// and handed to the MMA warp.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_softmax_block(typename Plan::SharedStorage& smem, FmhaSm100SoftmaxRings<Plan>& r,
                                                         FmhaSm100RowState& st, std::uint32_t tmem, int warp, int lane,
                                                         int row, int2 keys, std::int32_t n, bool first,
                                                         float scale_log2) {
  constexpr int BN = Plan::block_n;
  float s[BN];
  fmha_sm100_load_s<Plan>(r, tmem, warp, lane, s);
  std::int32_t const n0 = n * BN;
  if (n0 < keys.x || n0 + BN > keys.y) {
#pragma unroll
    for (int j = 0; j < BN; ++j)
      if (n0 + j < keys.x || n0 + j >= keys.y) s[j] = -INFINITY;
  }
  float block_max = st.row_max;
#pragma unroll
  for (int j = 0; j < BN; ++j) block_max = fmaxf(block_max, s[j]);
  // A row that sees no key yet keeps -inf: its offset 0 makes every P 0, not NaN. The correction
  // is exactly 1 where the maximum did not move (O and the sum are then left as they are).
  float const offset = block_max == -INFINITY ? 0.0f : block_max * scale_log2;
  float const correction = block_max == st.row_max ? 1.0f : arch::exp2(st.row_max * scale_log2 - offset);
  st.row_max = block_max;
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < BN; ++j) {
    s[j] = arch::exp2(fmaf(s[j], scale_log2, -offset));
    sum += s[j];
  }
  st.row_sum = fmaf(st.row_sum, correction, sum);
  // P's buffer is free once the previous block's P V completed: O is then whole and may be
  // corrected. NOTE: skipping the correction where no row of the warp moved is exact (a factor
  // of 1); FlashAttention-4's thresholded skip is not done.
  r.pipe_p.producer_acquire(r.p_state);
  if (!first && __any_sync(0xffffffffu, correction != 1.0f)) {
    arch::tcgen05_fence_after_thread_sync();
    fmha_sm100_correct_o<Plan>(tmem, warp, lane, correction);
  }
  fmha_sm100_write_p<Plan>(smem, r.p_state.index(), row, s);
  arch::tcgen05_fence_before_thread_sync();
  r.pipe_p.producer_commit(r.p_state, std::uint32_t(lane));
  r.p_state.advance();
}

}  // namespace cute_cpp::kernels
