// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 attention forward's consumer warpgroups (fmha_fp8_sm90.cuh): per tile, the 16-bit
// forward's walk (overlapped_key_blocks: S of a block and P V of the one before issued together,
// the softmax under P V, the warpgroups' issues in turns) with e4m3 operands:
//   S = Q Kᵀ        QGMMA SS over the head dim's chunks (one swizzle row each);
//   softmax         OnlineSoftmax with P scaled: the scale times dq dk (this tile's descales), P scaled
//                   by 2^fp8_p_log2_max;
//   O += P Vᵀ       P rounded to e4m3 in the accumulator's own column order (make_a_fragment),
//                   Vᵀ from the producer's transpose, QGMMA RS;
//   epilogue        O · dv / rowsum, bf16, through the 16-bit forward's (fmha_consumer_epilogue).
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_consumer.cuh>  // FmhaConsumerSteps, FmhaReleaseK, epilogue
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/attention/online_softmax.hpp>
#include <cute_cpp/attention/overlapped_key_blocks.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// A consumer warpgroup's steps over one tile's key blocks: the 16-bit forward's (FmhaConsumerSteps)
/// with e4m3's softmax, whose P is scaled by 2^fp8_p_log2_max.
template <class Plan>
using FmhaFp8ConsumerSteps =
    FmhaConsumerSteps<Plan, OnlineSoftmax<Plan::block_n, Plan::head_dim_v, fp8_p_log2_max>>;

/// This tile's descale factors: {scale_log2 · dq · dk, dv}.
__device__ __forceinline__ float2 fmha_fp8_tile_scales(FmhaParams const& p, FmhaFp8Descale const& d,
                                                       FmhaTile const& t) {
  std::int64_t const i = fp8_descale_index(d.layout, t.batch, t.head / p.group, d.heads_kv);
  float const dq = d.q != nullptr ? d.q[i] : 1.0f, dk = d.k != nullptr ? d.k[i] : 1.0f;
  float const dv = d.v != nullptr ? d.v[i] : 1.0f;
  return {p.scale_log2 * dq * dk, dv};
}

/// A consumer warpgroup: its 64 rows of each tile (fmha_consumer's loop, for e4m3).
template <class Plan>
__device__ __forceinline__ void fmha_fp8_consumer(typename Plan::SharedStorage& smem, typename Plan::MapO const& map_o,
                                                  FmhaParams const& p, FmhaFp8Descale const& d,
                                                  PersistentTileSchedulerParams const& tiles) {
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = typename FmhaFp8ConsumerSteps<Plan>::Softmax;
  constexpr int BM = Plan::block_m, BN = Plan::block_n;
  typename Plan::PipelineQ const pipe_q{&smem.q_barriers};
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineV const pipe_v{&smem.v_barriers};
  auto q_state = make_pipeline_state<Plan::q_stages>(PipelineUserType::Consumer);
  auto k_state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  auto v_state = k_state;
  int const wg = int(threadIdx.x) / 128 - 1, thread = int(threadIdx.x) % 128;
  auto const lane = std::uint32_t(thread % 32);
  auto const slice = MmaS::get_slice(thread);
  std::uint32_t chunks_stored = 0;
  using Turns = typename Plan::IssueTurns;
  Turns::start(wg);
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<BM, BN>(p, scheduler.linear_idx());
    if (!t.valid) continue;
    float2 const scales = fmha_fp8_tile_scales(p, d, t);
    std::int32_t const row_lo = t.m_block * BM + 64 * wg;
    std::int32_t band_lo[2], band_hi[2];
    auto const ts = MmaS::get_slice(int(arch::recompute_from_here(std::uint32_t(thread))));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int2 const keys = t.visible_keys(p, row_lo + ts.row(0, 2 * h));
      band_lo[h] = keys.x - ts.col(0);
      band_hi[h] = keys.y - ts.col(0);
    }
    std::int32_t const all_from = t.visible_keys(p, row_lo + 63).x, all_to = t.visible_keys(p, row_lo).y;
    std::int32_t own_end = t.n_begin;
    if (row_lo < t.seq_q) {
      std::int32_t const keys_to = t.visible_keys(p, min(row_lo + 63, t.seq_q - 1)).y;
      own_end = max(t.n_begin, min(t.n_end, (keys_to + BN - 1) / BN));
    }
    typename MmaO::FragmentC o;
    o.fill(0.0f);
    Softmax softmax;
    if (t.n_begin < t.n_end) {
      typename MmaS::FragmentC s;
      typename MmaO::FragmentA pa;
      FmhaReleaseK<Plan> const release_k{pipe_k, k_state, lane, t, pipe_q, q_state};
      FmhaFp8ConsumerSteps<Plan> const steps{smem,     p,        t,        pipe_q,  pipe_k,  pipe_v,  q_state,
                                             k_state,  v_state,  wg,       lane,    slice,   band_lo, band_hi,
                                             all_from, all_to,   scales.x, softmax, o,       s,       pa,
                                             release_k};
      steps.key_blocks(own_end);
    }
    float lse[2];
    softmax.finish(o, scales.x, scales.y, lse);
    FmhaTile const te = fmha_tile<BM, BN>(p, scheduler.linear_idx());

    // ---- epilogue ----
    fmha_consumer_epilogue<Plan>(smem, map_o, p, te.head, te.batch, te.q_offset, te.seq_q, wg, thread, row_lo, o, lse,
                                 chunks_stored);
  }
  typename Plan::OutputStore(smem.epilogue[wg], wg, thread, chunks_stored).drain();
}

}  // namespace cute_cpp::kernels
