// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's producer (fmha_backward_sm90.cuh): one thread loading the CTA's K and V
// once, then, for each q head of the group and each query block the key block meets, Q with its
// rows' LSE and dO with its rows' D into their pipelines (TMA for the tiles, a bulk copy for the
// rows' floats, which the workspace pads to whole 64-row blocks).
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_tile.cuh>
#include <cute_cpp/arch/copy.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>

#include <cstdint>

namespace cute_cpp::kernels {

template <class Plan>
__device__ __forceinline__ void fmha_backward_producer(typename Plan::SharedStorage& smem,
                                                       typename Plan::MapQ const& map_q,
                                                       typename Plan::MapK const& map_k,
                                                       typename Plan::MapK const& map_v,
                                                       typename Plan::MapQ const& map_do,
                                                       FmhaBackwardParams const& p, FmhaBackwardTile const& t) {
  constexpr int BM = Plan::block_m, BN = Plan::block_n;
  typename Plan::PipelineKV const pipe_kv{&smem.kv_barriers};
  typename Plan::PipelineQ const pipe_q{&smem.q_barriers};
  typename Plan::PipelineQ const pipe_do{&smem.do_barriers};
  auto kv_state = make_pipeline_state<1>(PipelineUserType::Producer);
  auto q_state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto do_state = q_state;
  std::int32_t const kv_b = p.varlen() ? 0 : t.batch;
  pipe_kv.producer_acquire(kv_state);
  pipe_kv.producer_expect_tx(kv_state);
#pragma unroll
  for (int c = 0; c < Plan::chunks; ++c) {
    TmaCopy::load(map_k, smem.k.tile(0u, c), pipe_kv.producer_get_barrier(kv_state), 64 * c,
                  t.k_offset + t.n_block * BN, t.kv_head, kv_b);
    TmaCopy::load(map_v, smem.v.tile(0u, c), pipe_kv.producer_get_barrier(kv_state), 64 * c,
                  t.k_offset + t.n_block * BN, t.kv_head, kv_b);
  }
  for (std::int32_t g = 0; g < p.group; ++g) {
    std::int32_t const head = t.kv_head * p.group + g;
    for (std::int32_t m = t.m_begin; m < t.m_end; ++m) {
      std::int32_t const row = t.q_offset + m * BM;
      std::int64_t const ws_row = std::int64_t(head) * p.ws.rows + t.pad_q + std::int64_t(m) * BM;
      pipe_q.producer_acquire(q_state);
      pipe_q.producer_expect_tx(q_state);
#pragma unroll
      for (int c = 0; c < Plan::chunks; ++c)
        TmaCopy::load(map_q, smem.q.tile(q_state.index(), c), pipe_q.producer_get_barrier(q_state), 64 * c, row,
                      head, kv_b);
      arch::cp_async_bulk_global_to_shared(smem.lse[q_state.index()], p.lse_log2 + ws_row, Plan::row_bytes,
                                           pipe_q.producer_get_barrier(q_state));
      q_state.advance();
      pipe_do.producer_acquire(do_state);
      pipe_do.producer_expect_tx(do_state);
#pragma unroll
      for (int c = 0; c < Plan::chunks; ++c)
        TmaCopy::load(map_do, smem.d_o.tile(do_state.index(), c), pipe_do.producer_get_barrier(do_state), 64 * c,
                      row, head, kv_b);
      arch::cp_async_bulk_global_to_shared(smem.delta[do_state.index()], p.delta + ws_row, Plan::row_bytes,
                                           pipe_do.producer_get_barrier(do_state));
      do_state.advance();
    }
  }
}

}  // namespace cute_cpp::kernels
