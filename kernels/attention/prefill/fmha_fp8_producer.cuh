// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 attention forward's producer warpgroup (fmha_fp8_sm90.cuh): warp 0's first thread loads,
// per tile, Q once and each key block's K and V (last block first) by TMA (fmha_fp8_loader); warps
// 1-3 transpose each block's V into Vᵀ (fmha_fp8_transposer, transpose_e4m3_values) as it lands,
// the stages of V as loaded and of Vᵀ letting the loads run ahead.
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/arch/fence.hpp>
#include <cute_cpp/attention/value_transpose.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cstdint>

namespace cute_cpp::kernels {

/// The loading thread's K and V of key block n (at row `row` of kv head `kv_head`, sequence `kv_b`).
template <class Plan>
__device__ __forceinline__ void fmha_fp8_load_block(typename Plan::SharedStorage& smem, typename Plan::MapK const& map_k,
                                                    typename Plan::MapV const& map_v,
                                                    typename Plan::PipelineK const& pipe_k,
                                                    typename Plan::PipelineVLoad const& pipe_vl,
                                                    PipelineState<Plan::stages>& k_state,
                                                    PipelineState<Plan::v_stages>& vl_state, std::int32_t row,
                                                    std::int32_t kv_head, std::int32_t kv_b) {
  pipe_k.producer_acquire(k_state);
  pipe_k.producer_expect_tx(k_state);
#pragma unroll
  for (int c = 0; c < Plan::qk_chunks; ++c)
    TmaCopy::load(map_k, smem.k.tile(k_state.index(), c), pipe_k.producer_get_barrier(k_state), Plan::box * c,
                  row, kv_head, kv_b);
  k_state.advance();
  pipe_vl.producer_acquire(vl_state);
  pipe_vl.producer_expect_tx(vl_state);
#pragma unroll
  for (int c = 0; c < Plan::qk_chunks; ++c)
    TmaCopy::load(map_v, smem.v_load.tile(vl_state.index(), c), pipe_vl.producer_get_barrier(vl_state), Plan::box * c,
                  row, kv_head, kv_b);
  vl_state.advance();
}

/// The loading thread (warp 0's first): per tile, Q once, then each key block's K and V, last first.
template <class Plan>
__device__ __forceinline__ void fmha_fp8_loader(typename Plan::SharedStorage& smem, typename Plan::MapQ const& map_q,
                                                typename Plan::MapK const& map_k, typename Plan::MapV const& map_v,
                                                FmhaParams const& p, PersistentTileSchedulerParams const& tiles) {
  typename Plan::PipelineQ const pipe_q{&smem.q_barriers};
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineVLoad const pipe_vl{&smem.v_load_barriers};
  auto q_state = make_pipeline_state<Plan::q_stages>(PipelineUserType::Producer);
  auto k_state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto vl_state = make_pipeline_state<Plan::v_stages>(PipelineUserType::Producer);
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<Plan::block_m, Plan::block_n>(p, scheduler.linear_idx());
    if (!t.valid || t.n_begin >= t.n_end) continue;
    std::int32_t const b = p.varlen() ? 0 : t.batch, kv_head = t.head / p.group;
    std::int32_t const kv_b = p.cu_seqlens_k != nullptr ? 0 : t.batch;
    pipe_q.producer_acquire(q_state);
    pipe_q.producer_expect_tx(q_state);
#pragma unroll
    for (int c = 0; c < Plan::qk_chunks; ++c)
      TmaCopy::load(map_q, smem.q.tile(q_state.index(), c), pipe_q.producer_get_barrier(q_state), Plan::box * c,
                    t.q_offset + t.m_block * Plan::block_m, t.head, b);
    q_state.advance();
    for (std::int32_t n = t.n_end - 1; n >= t.n_begin; --n)
      fmha_fp8_load_block<Plan>(smem, map_k, map_v, pipe_k, pipe_vl, k_state, vl_state,
                                t.k_offset + n * Plan::block_n, kv_head, kv_b);
  }
}

/// The transposing warps (warps 1 .. transpose_warps of the producer warpgroup; `warp` counts
/// from 0 among them): per tile, each key block's V, once landed, into a free Vᵀ stage; each
/// thread's stores fenced for the async proxy (wgmma reads them) before its arrival.
template <class Plan>
__device__ __forceinline__ void fmha_fp8_transposer(typename Plan::SharedStorage& smem, FmhaParams const& p,
                                                    PersistentTileSchedulerParams const& tiles, int warp) {
  typename Plan::PipelineVLoad const pipe_vl{&smem.v_load_barriers};
  typename Plan::PipelineV const pipe_v{&smem.v_barriers};
  auto vl_read = make_pipeline_state<Plan::v_stages>(PipelineUserType::Consumer);
  auto v_state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto const lane = std::uint32_t(threadIdx.x % 32);
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<Plan::block_m, Plan::block_n>(p, scheduler.linear_idx());
    if (!t.valid || t.n_begin >= t.n_end) continue;
    for (std::int32_t n = t.n_end - 1; n >= t.n_begin; --n) {
      pipe_vl.consumer_wait(vl_read);
      pipe_v.producer_acquire(v_state);
      transpose_e4m3_values<Plan::block_n, Plan::head_dim, Plan::box, Plan::transpose_warps>(
          smem.v_load.tile(vl_read.index()), smem.v.tile(v_state.index()), warp, int(lane));
      arch::fence_view_async_shared();
      pipe_v.producer_commit(v_state);
      v_state.advance();
      __syncwarp();
      pipe_vl.consumer_release(vl_read, lane);
      vl_read.advance();
    }
  }
}

}  // namespace cute_cpp::kernels
