// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward's producer (fmha_sm90.cuh): one thread loading, per tile, Q once and then
// each key block's K and V (last block first) into their pipelines by TMA.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cstdint>
#include <cstdio>

namespace cute_cpp::kernels {

/// The producer (one thread): per tile, Q once, then per key block (last first) K and V.
template <class Plan>
__device__ __forceinline__ void fmha_producer(typename Plan::SharedStorage& smem, typename Plan::MapQ const& map_q,
                                              typename Plan::MapK const& map_k, typename Plan::MapV const& map_v,
                                              FmhaParams const& p, PersistentTileSchedulerParams const& tiles) {
  typename Plan::PipelineQ const pipe_q{&smem.q_barriers};
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineV const pipe_v{&smem.v_barriers};
  auto q_state = make_pipeline_state<Plan::q_stages>(PipelineUserType::Producer);
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
      TmaCopy::load(map_q, smem.q.tile(q_state.index(), c), pipe_q.producer_get_barrier(q_state),
                    64 * c, t.q_offset + t.m_block * Plan::block_m, t.head, b);
    q_state.advance();
    for (std::int32_t n = t.n_end - 1; n >= t.n_begin; --n) {
      // Where key block n lies: a row of the packed or batched K/V, or of its page in the cache.
      std::int32_t row = t.k_offset + n * Plan::block_n, outer = kv_b;
      if (p.paged()) {
        std::uint32_t slot = 0, in_page = 0;
        p.page_div.divmod(std::uint32_t(n * Plan::block_n), slot, in_page);
        std::int32_t const page = p.block_table[t.batch * p.max_pages_per_seq + std::int32_t(slot)];
#if !defined(NDEBUG)
        if (page < 0 || page >= p.num_pages) {
          printf("cute-cpp [attention.block-table]: sequence %d: page %d of %d at slot %u\n", t.batch, page,
                 p.num_pages, slot);
          __trap();
        }
#endif
        row = std::int32_t(in_page);
        outer = max(0, min(page, p.num_pages - 1));
      }
      pipe_k.producer_acquire(k_state);
      pipe_k.producer_expect_tx(k_state);
#pragma unroll
      for (int c = 0; c < Plan::qk_chunks; ++c)
        TmaCopy::load(map_k, smem.k.tile(k_state.index(), c), pipe_k.producer_get_barrier(k_state),
                      64 * c, row, kv_head, outer);
      k_state.advance();
      pipe_v.producer_acquire(v_state);
      pipe_v.producer_expect_tx(v_state);
      TmaCopy::load(map_v, smem.v.tile(v_state.index()), pipe_v.producer_get_barrier(v_state), 0, row, kv_head, outer);
      v_state.advance();
    }
  }
}

}  // namespace cute_cpp::kernels
