// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The consumer warpgroup of decode over a 16-bit (bf16 or f16) cache (decode_sm90.cuh):
//   Q               the group's q heads x new tokens, loaded once into a swizzled 64-row tile;
//   S = Q Kᵀ        wgmma SS; the causal mask on the block holding the sequence's end;
//   OnlineSoftmax   in exp2 with the scale folded in; P converted in place as wgmma's A;
//   O += P V        wgmma RS, overlapped with the next block's S;
//   epilogue        O / rowsum and LSE: the output in q's type, or a split's partial in float.
#include <cute_cpp/arch/fence.hpp>                                      // fence_view_async_shared
#include <cute_cpp/attention/online_softmax.hpp>                        // OnlineSoftmax
#include <cute_cpp/attention/overlapped_key_blocks.hpp>                 // overlapped_key_blocks
#include <cute_cpp/attention/value_rows.hpp>                            // zero_value_rows_from
#include <cute_cpp/kernels/attention/decode/decode.hpp>                 // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_consumer_parts.cuh>  // load_queries, DecodeBand, decode_store
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>            // DecodeWork
#include <cute_cpp/pipeline/pipeline_state.hpp>                         // make_pipeline_state

#include <cstdint>

namespace cute_cpp::kernels {

/// The consumer's steps over its key blocks for overlapped_key_blocks (the order is there).
/// NOTE: the members refer to decode_consumer's locals, as the lambdas these steps were did (the
/// SASS stayed as it was; fmha_consumer.cuh's FmhaConsumerSteps says why not by value).
template <class Plan>
struct DecodeConsumerSteps {
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::value_cols>;
  static constexpr int BN = Plan::block_n;

  typename Plan::SharedStorage& smem;
  DecodeWork const& w;
  typename Plan::PipelineK const& pipe_k;
  typename Plan::PipelineV const& pipe_v;
  PipelineState<Plan::stages>& v_state;
  PipelineState<Plan::stages>& k_state;
  std::uint32_t const& lane;
  int const& thread;
  decltype(MmaS::get_slice(0)) const& slice;
  DecodeBand const& band;
  float const& scale_log2;
  Softmax& softmax;
  typename MmaO::FragmentC& o;
  typename MmaS::FragmentC& s;
  typename MmaO::FragmentA& pa;

  __device__ __forceinline__ void issue_s() const {
    pipe_k.consumer_wait(k_state);
    MmaS::warpgroup_arrive(s);
#pragma unroll
    for (int c = 0; c < Plan::qk_chunks; ++c)
      MmaS::gemm(s, smem.q + c * Plan::block_m * 64, smem.k_stage(k_state.index()) + c * BN * 64, 0, c > 0);
    MmaS::commit_group();
  }
  // In the last block, where it reaches past the sequence, V's rows there are zeroed first (they
  // may be anything; 0 x NaN is NaN).
  __device__ __forceinline__ void issue_pv(bool last_block) const {
    pipe_v.consumer_wait(v_state);
    if (last_block && w.n_end * BN > w.seq_k) {
      zero_value_rows_from<T, Plan::head_dim_v, BN>(smem.v_stage(v_state.index()), w.seq_k - (w.n_end - 1) * BN,
                                                    thread, 128);
      arch::fence_view_async_shared();
      Plan::ConsumersBarrier::sync();
    }
    MmaO::warpgroup_arrive(o, pa);
    MmaO::gemm(o, pa, smem.v_stage(v_state.index()));
    MmaO::commit_group();
  }
  // K is released after the softmax, as in fmha_consumer.cuh (ptxas hoists P V's wait up to the
  // release's arrive).
  __device__ __forceinline__ float2 softmax_of_s(std::int32_t n) const {
    band.template apply<BN>(s, n, slice);
    float2 const correction = softmax.scores(s, scale_log2);
    // V in K: the stage is released with V's (after O += P V).
    if constexpr (!Plan::v_in_k) pipe_k.consumer_release(k_state, lane);
    k_state.advance();
    return correction;
  }
  __device__ __forceinline__ void release_v() const {
    pipe_v.consumer_release(v_state, lane);
    v_state.advance();
  }
};

/// The consumer warpgroup of a 16-bit cache (see the file comment).
template <class Plan>
__device__ __forceinline__ void decode_consumer(typename Plan::SharedStorage& smem, DecodeParams const& p,
                                                DecodeWork const& w) {
  static_assert(Plan::consumer_warpgroups == 1, "cute-cpp [attention.head-dim]: two warpgroups take the seesaw");
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::value_cols>;
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineV const pipe_v{smem.v_pipeline()};
  auto k_state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  auto v_state = k_state;
  int const thread = int(threadIdx.x) % 128;
  auto const lane = std::uint32_t(thread % 32);
  auto const slice = MmaS::get_slice(thread);
  DecodeBand const band(p, w, slice, w.m_block * Plan::block_m);
  // A scaled cache: K's scale folds into the softmax's, V's into O at the end.
  float const scale_log2 = p.scale_log2 * (p.k_scale != nullptr ? p.k_scale[w.kv_head] : 1.0f);
  float const v_scale = p.v_scale != nullptr ? p.v_scale[w.kv_head] : 1.0f;

  typename MmaO::FragmentC o;
  o.fill(0.0f);
  Softmax softmax;
  // The queries load while the sequence's length does.
  load_queries<Plan>(smem.q, p, w, int(threadIdx.x));
  if (w.n_begin < w.n_end) {
    typename MmaS::FragmentC s;
    typename MmaO::FragmentA pa;
    DecodeConsumerSteps<Plan> const steps{smem, w, pipe_k, pipe_v, v_state, k_state, lane, thread,
                                          slice, band, scale_log2, softmax, o, s, pa};
    overlapped_key_blocks<1, NoIssueTurns>(steps, w.n_begin, w.n_end, 0);
  }
  float lse[2];
  softmax.finish(o, scale_log2, lse);
  if (p.v_scale != nullptr) Softmax::rescale(o, make_float2(v_scale, v_scale));
  decode_store<Plan>(o, lse, p, w);
}
}  // namespace cute_cpp::kernels
