// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's MMA warp (fmha_sm100.cuh): one thread issuing, per tile,
// S = Q Kᵀ into S's two tensor-memory buffers and O += P V into O's, FlashAttention-4's order:
// S of the next key block is issued before P V of this one, so the softmax of the next block
// runs while this block's P V does.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cstdint>

namespace cute_cpp::kernels {

/// The MMA thread's rings and their states (its side of every pipeline).
template <class Plan>
struct FmhaSm100MmaRings {
  typename Plan::PipelineQ pipe_q;
  typename Plan::PipelineK pipe_k;
  typename Plan::PipelineV pipe_v;
  typename Plan::PipelineS pipe_s;
  typename Plan::PipelineP pipe_p;
  typename Plan::PipelineO pipe_o;
  PipelineState<1> q_state = make_pipeline_state<1>(PipelineUserType::Consumer);
  PipelineState<Plan::stages> k_state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  PipelineState<Plan::stages> v_state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  PipelineState<Plan::s_buffers> s_state = make_pipeline_state<Plan::s_buffers>(PipelineUserType::Producer);
  PipelineState<1> p_state = make_pipeline_state<1>(PipelineUserType::Consumer);
  PipelineState<1> o_state = make_pipeline_state<1>(PipelineUserType::Producer);

  /// S = Q Kᵀ of the next K stage into the next S buffer (its softmax having read it), then K's
  /// stage freed once these MMAs complete.
  __device__ __forceinline__ void issue_s(typename Plan::SharedStorage& smem, std::uint32_t tmem) {
    pipe_k.consumer_wait(k_state);
    pipe_s.producer_acquire(s_state);
    std::uint32_t const s_tmem = tmem + s_state.index() * std::uint32_t(Plan::s_columns);
#pragma unroll
    for (int c = 0; c < Plan::qk_chunks; ++c)
      Plan::MmaS::gemm(s_tmem, smem.q.tile(q_state.index(), c), smem.k.tile(k_state.index(), c), c > 0);
    pipe_s.producer_commit(s_state);
    pipe_k.consumer_release(k_state);
    s_state.advance();
    k_state.advance();
  }

  /// O (+)= P V of the next V stage, once the softmax wrote P (and corrected O); P's buffer and
  /// V's stage are freed once these MMAs complete (P's release tells the softmax O is whole).
  __device__ __forceinline__ void issue_pv(typename Plan::SharedStorage& smem, std::uint32_t tmem, bool accumulate) {
    pipe_p.consumer_wait(p_state);
    pipe_v.consumer_wait(v_state);
    std::uint32_t const o_tmem = tmem + std::uint32_t(Plan::tmem_o);
#pragma unroll
    for (int c = 0; c < Plan::pv_chunks; ++c)
      Plan::MmaO::gemm(o_tmem, smem.p.tile(p_state.index(), c), smem.v.tile(v_state.index(), c), accumulate || c > 0);
    pipe_p.consumer_release(p_state);
    pipe_v.consumer_release(v_state);
    p_state.advance();
    v_state.advance();
  }
};

/// The MMA thread: per tile with keys to see, S of the last key block, then per block S of the
/// block before it and P V of this one; O's end committed for the epilogue. The first P V of a
/// tile waits for the previous tile's epilogue to have read O (O's ring).
template <class Plan>
__device__ __forceinline__ void fmha_sm100_mma(typename Plan::SharedStorage& smem, std::uint32_t tmem,
                                               FmhaParams const& p, PersistentTileSchedulerParams const& tiles) {
  FmhaSm100MmaRings<Plan> r{{&smem.q_barriers}, {&smem.k_barriers}, {&smem.v_barriers},
                            {&smem.s_barriers}, {&smem.p_barriers}, {&smem.o_barriers}};
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<Plan::block_m, Plan::block_n>(p, scheduler.linear_idx());
    if (!t.valid || t.n_begin >= t.n_end) continue;
    std::int32_t const blocks = t.n_end - t.n_begin;
    r.pipe_q.consumer_wait(r.q_state);
    r.issue_s(smem, tmem);
    r.pipe_o.producer_acquire(r.o_state);
    for (std::int32_t i = 0; i < blocks; ++i) {
      if (i + 1 < blocks) r.issue_s(smem, tmem);
      if (i + 1 == blocks) {
        // Every S of the tile is issued: Q's stage frees when they complete.
        r.pipe_q.consumer_release(r.q_state);
        r.q_state.advance();
      }
      r.issue_pv(smem, tmem, i > 0);
    }
    r.pipe_o.producer_commit(r.o_state);
    r.o_state.advance();
  }
}

}  // namespace cute_cpp::kernels
