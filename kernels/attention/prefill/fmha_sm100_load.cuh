// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's load warp (fmha_sm100.cuh): one thread loading, per tile, Q
// once and then each key block's K and V (last block first, as the MMA warp consumes them) into
// their PipelineTmaUmma rings.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cstdint>

namespace cute_cpp::kernels {

/// The load warp's one thread: per tile with keys to see, Q's chunks once, then per key block
/// (last first) K's chunks and V's 64-key chunks, each into its stage. The MMA warp walks the
/// same tiles (fmha_tile) and blocks, so the rings stay in step.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_load(typename Plan::SharedStorage& smem, typename Plan::MapQ const& map_q,
                                                typename Plan::MapK const& map_k, typename Plan::MapV const& map_v,
                                                FmhaParams const& p, PersistentTileSchedulerParams const& tiles) {
  typename Plan::PipelineQ const pipe_q{&smem.q_barriers};
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineV const pipe_v{&smem.v_barriers};
  auto q_state = make_pipeline_state<1>(PipelineUserType::Producer);
  auto k_state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto v_state = k_state;
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
      TmaCopy::load(map_q, smem.q.tile(q_state.index(), c), pipe_q.producer_get_barrier(q_state), 64 * c,
                    t.q_offset + t.m_block * Plan::block_m, t.head, b);
    q_state.advance();
    for (std::int32_t n = t.n_end - 1; n >= t.n_begin; --n) {
      std::int32_t const row = t.k_offset + n * Plan::block_n;
      pipe_k.producer_acquire(k_state);
      pipe_k.producer_expect_tx(k_state);
#pragma unroll
      for (int c = 0; c < Plan::qk_chunks; ++c)
        TmaCopy::load(map_k, smem.k.tile(k_state.index(), c), pipe_k.producer_get_barrier(k_state), 64 * c, row,
                      kv_head, kv_b);
      k_state.advance();
      pipe_v.producer_acquire(v_state);
      pipe_v.producer_expect_tx(v_state);
#pragma unroll
      for (int c = 0; c < Plan::pv_chunks; ++c)
        TmaCopy::load(map_v, smem.v.tile(v_state.index(), c), pipe_v.producer_get_barrier(v_state), 0, row + 64 * c,
                      kv_head, kv_b);
      v_state.advance();
    }
  }
}

}  // namespace cute_cpp::kernels
