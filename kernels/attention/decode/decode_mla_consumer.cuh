// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// MLA's two consumer warpgroups (a seesaw): O's 512 columns do not fit one warpgroup's registers,
// so each keeps 256 of them; S = Q Kᵀ, whose K is 576 wide (nine chunks of Q read from shared
// memory per wgmma), is computed once per block, by the warpgroups in turn:
//   own block        the block's S (issued while the other's block before it is still being
//                    folded in), its masked scores, the rows' new maxima (the other's running
//                    maxima at the block before, from shared memory, folded in), P; P written
//                    for the other into the stage's last K chunk (MLA's rope columns, which only
//                    S reads), the maxima beside; O rescaled and O += P V from registers (wgmma
//                    RS) on this warpgroup's V columns;
//   other's block    its maxima read once the other arrives (a named barrier a warpgroup); O
//                    rescaled and O += P V with P from the stage (wgmma SS); the stage released
//                    once both warpgroups' O += P V have read it;
//   end              each warpgroup's row sums (over its own blocks, all at the final maxima)
//                    added through shared memory; O / sum and the LSE (decode_store).
// The maxima are a chain: a block's P needs the maxima through the block before it, which the
// other warpgroup computed; each warpgroup issues its next S before it waits for that, so the
// GEMMs of one overlap the other's softmax. Both computing every S (the earlier plan) read Q
// from shared memory twice per block, and shared memory's bandwidth bound the kernel.
#include <cute_cpp/arch/fence.hpp>                                      // fence_view_async_shared
#include <cute_cpp/arch/math.hpp>                                       // exp2
#include <cute_cpp/arch/registers.hpp>                                  // recompute_from_here
#include <cute_cpp/arch/thread.hpp>                                     // shuffle_sync_bfly
#include <cute_cpp/attention/online_softmax.hpp>                        // OnlineSoftmax
#include <cute_cpp/attention/value_rows.hpp>                            // zero_value_rows_from
#include <cute_cpp/kernels/attention/decode/decode.hpp>                 // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_consumer_parts.cuh>  // load_queries, DecodeBand, decode_store
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>            // DecodeWork
#include <cute_cpp/pipeline/pipeline_state.hpp>                         // make_pipeline_state

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// The seesaw's steps per block (see the file comment), over the state decode_mla_consumer holds:
/// S's issue, this warpgroup's own block (its softmax, P for the other, O += P V), and the other's
/// block (its maxima, O += P V with its P).
/// NOTE: the members refer to decode_mla_consumer's locals, as the lambdas these steps were did,
/// which keeps the kernel's SASS as it was; an object holding such state by value (GemmMainLoop's
/// idiom), tried on the e4m3 consumer, changed its SASS (nvcc 13.0).
template <class Plan>
struct DecodeMlaSteps {
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using MmaOShared = typename Plan::MmaOShared;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::value_cols>;  // half(), rescale()
  using Full = typename Plan::PFull;
  using State = PipelineState<Plan::stages>;
  static constexpr int BN = Plan::block_n;

  typename Plan::SharedStorage& smem;
  DecodeWork const& w;
  typename Plan::PipelineK const& pipe;
  typename Plan::SeesawExchange& exchange;
  int const& thread;
  int const& group;
  int const& other;
  std::uint32_t const& lane;
  decltype(MmaS::get_slice(0)) const& slice;
  int const (&rows)[2];
  DecodeBand const& band;
  int const& v_offset;
  float const& scale_log2;
  std::int32_t const& first;
  std::int32_t const& end;
  typename MmaO::FragmentC& o;
  float (&row_max)[2];
  float (&row_sum)[2];
  typename MmaS::FragmentC& s;
  typename MmaO::FragmentA& pa;
  State& state;
  State& previous;
  float (&correction)[2];

  /// Row half h's running maximum moved to `next`; returns O's correction.
  __device__ __forceinline__ float move_max(int h, float next) const {
    // A row that has seen no key keeps -inf: exp2 of (-inf) - (-inf) would be NaN.
    float const correction = arch::exp2(row_max[h] - (next == -INFINITY ? 0.0f : next));
    row_max[h] = next;
    row_sum[h] *= correction;
    return correction;
  }
  // A block's P, written into its own stage by the warpgroup that owns the block once its S is
  // done. The stage is refilled only once both warpgroups have released it, and a warpgroup
  // writes its next block's maxima only after the other's block between, which the other
  // published after reading these maxima: no "empty" barrier is needed.
  __device__ __forceinline__ T* p_tile(int stage) const {
    return smem.k_stage(stage) + (Plan::qk_chunks - 1) * BN * 64;
  }
  /// S of the block in stage `at`.
  __device__ __forceinline__ void issue_s(State at) const {
    // Q's descriptors are the same every block: the compiler would keep all nine chunks' in
    // registers and spill; derived from an opaque offset they are recomputed here instead.
    T const* const q = smem.q + arch::recompute_from_here(0);
    pipe.consumer_wait(at);
    MmaS::warpgroup_arrive(s);
#pragma unroll
    for (int c = 0; c < Plan::qk_chunks; ++c)
      MmaS::gemm(s, q + c * Plan::block_m * 64, smem.k_stage(at.index()) + c * BN * 64, 0, c > 0);
    MmaS::commit_group();
  }
  __device__ __forceinline__ void next_block() const {
    previous = state;
    state.advance();
  }
  // This warpgroup's block n once its S is done, up to its O += P V, left in flight.
  __device__ __forceinline__ void own_block(std::int32_t n) const {
    band.template apply<BN>(s, n, slice);
    float block_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
    for (int jj = 0; jj < BN / 2; ++jj) block_max[Softmax::half(jj)] = fmaxf(block_max[Softmax::half(jj)], s(jj, 0));
    float correction[2], subtract[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      block_max[h] = fmaxf(block_max[h], arch::shuffle_sync_bfly(block_max[h], 1));
      block_max[h] = fmaxf(block_max[h], arch::shuffle_sync_bfly(block_max[h], 2));
      correction[h] = move_max(h, fmaxf(row_max[h], block_max[h] * scale_log2));
      subtract[h] = row_max[h] == -INFINITY ? 0.0f : row_max[h];
    }
#pragma unroll
    for (int jj = 0; jj < BN / 2; ++jj) {
      float const e = arch::exp2(fmaf(s(jj, 0), scale_log2, -subtract[Softmax::half(jj)]));
      s(jj, 0) = e;
      row_sum[Softmax::half(jj)] += e;
    }
    // The other's block n - 1 is folded in: its stage is free.
    MmaO::template wait_group<0>(o, pa);
    if (n > first) pipe.consumer_release(previous, lane);
    pa = MmaO::make_a_fragment(s);
    // In the last block, where it reaches past the sequence, V's rows there are zeroed (they may
    // be anything; 0 x NaN is NaN) before either warpgroup reads them; this one's S is done.
    if (n == end - 1 && end * BN > w.seq_k) {
      zero_value_rows_from<T, Plan::head_dim_v, BN>(smem.k_stage(state.index()), w.seq_k - n * BN, thread, 128);
      arch::fence_view_async_shared();
      Plan::GroupBarriers::sync(group);
    }
    // P (as rounded for this warpgroup's own wgmma) and the maxima, for the other.
    T* const tile = p_tile(state.index());
#pragma unroll
    for (int jj = 0; jj < BN / 2; jj += 2)
      *reinterpret_cast<std::uint32_t*>(tile + int(typename Plan::PTile{}(slice.row(0, jj), slice.col(jj)))) =
          pa.storage[jj / 2];
    if (thread % 4 == 0) exchange.max[group][rows[0]] = row_max[0], exchange.max[group][rows[1]] = row_max[1];
    arch::fence_view_async_shared();
    Full::arrive(group);
    Softmax::rescale(o, make_float2(correction[0], correction[1]));
    MmaO::warpgroup_arrive(o, pa);
    MmaO::gemm(o, pa, smem.k_stage(state.index()) + v_offset);
    MmaO::commit_group();
    next_block();
  }
  // The other's block n: its maxima, once the other arrives.
  __device__ __forceinline__ void other_maxima() const {
    Full::sync(other);
#pragma unroll
    for (int h = 0; h < 2; ++h) correction[h] = move_max(h, exchange.max[other][rows[h]]);
  }
  // Once this warpgroup's O += P V of its block before is done: that block's stage released (at
  // once, so that the producer refills it while this warpgroup waits for the other's P).
  __device__ __forceinline__ void release_own(std::int32_t n) const {
    if (n >= first) pipe.consumer_release(previous, lane);
  }
  // Then O += P V with the other's P from the stage, left in flight.
  __device__ __forceinline__ void fold_in() const {
    Softmax::rescale(o, make_float2(correction[0], correction[1]));
    pipe.consumer_wait(state);
    MmaOShared::warpgroup_arrive(o);
    MmaOShared::gemm(o, p_tile(state.index()), smem.k_stage(state.index()) + v_offset, 0);
    MmaOShared::commit_group();
    next_block();
  }
};

/// MLA's consumer warpgroups (see the file comment).
template <class Plan>
__device__ __forceinline__ void decode_mla_consumer(typename Plan::SharedStorage& smem, DecodeParams const& p,
                                                    DecodeWork const& w) {
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::value_cols>;  // rescale()
  constexpr int BN = Plan::block_n;
  static_assert(Plan::consumer_warpgroups == 2 && Plan::v_in_k,
                "cute-cpp [attention.head-dim]: the seesaw is two warpgroups over V in K");
  typename Plan::PipelineK const pipe{&smem.k_barriers};
  auto& exchange = smem.exchange;
  int const thread = int(threadIdx.x) % 128;
  // The warpgroup, uniform to the compiler (read from lane 0): the branches on it hold wgmmas,
  // which ptxas serialises where it cannot prove the warps converged.
  int const group = __shfl_sync(~0u, int(threadIdx.x) / 128, 0), other = 1 - group;
  auto const lane = std::uint32_t(thread % 32);
  auto const slice = MmaS::get_slice(thread);
  int const rows[2] = {slice.row(0, 0), slice.row(0, 2)};  // this thread's two rows (halves)
  DecodeBand const band(p, w, slice, w.m_block * Plan::block_m);
  int const v_offset = group * Plan::value_cols * BN;  // this warpgroup's V columns of a stage
  float const scale_log2 = p.scale_log2 * (p.k_scale != nullptr ? p.k_scale[w.kv_head] : 1.0f);
  float const v_scale = p.v_scale != nullptr ? p.v_scale[w.kv_head] : 1.0f;
  std::int32_t const first = w.n_begin, end = w.n_end;
  auto const owns = [&](int g, std::int32_t n) { return n < end && (n - first) % 2 == g; };

  typename MmaO::FragmentC o;
  o.fill(0.0f);
  // Per row half: the running maximum of the scaled scores (log2 units) and this thread's sum of
  // its own blocks' P at that maximum.
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};
  load_queries<Plan>(smem.q, p, w, int(threadIdx.x));
  typename MmaS::FragmentC s;
  typename MmaO::FragmentA pa;
  // Each warpgroup meets the blocks in order, its own and the other's in turn; `state` is the
  // stage of the block it meets next, `previous` the one before (released once folded in).
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  auto previous = state;
  // O's correction for the other's block, from its maxima.
  float correction[2];
  DecodeMlaSteps<Plan> const step{smem, w, pipe, exchange, thread, group, other, lane, slice, rows, band, v_offset,
                                  scale_log2, first, end, o, row_max, row_sum, s, pa, state, previous, correction};
  // The loop takes this warpgroup's blocks n, each after the other's block n - 1; the first
  // warpgroup's first block, which follows none, is peeled off. ptxas serialises every wgmma of
  // the kernel where it cannot prove that registers are touched only once their wgmma is done:
  // it keeps the order of the groups in flight only in straight-line code, so the loop waits for
  // this warpgroup's O += P V of the block before (its own) at its top, before S is issued (and
  // not after, with S in flight: measured serialised), and each wait is exact on every path.
  // That block's stage is released there, not once the other's P has come (+5-8% on the
  // cache-bound shapes: the producer refills it the sooner).
  std::int32_t n = first + group;
  if (group == 0 && n < end) {
    step.issue_s(state);
    MmaS::template wait_group<0>(s);
    step.own_block(n);
    n += 2;
  }
  for (; n < end; n += 2) {
    auto mine = state;
    mine.advance();
    MmaO::template wait_group<0>(o, pa);
    step.release_own(n - 2);
    step.issue_s(mine);  // S of block n, while the other's block n - 1 is folded in
    step.other_maxima();
    step.fold_in();
    MmaS::template wait_group<1>(s);
    step.own_block(n);
  }
  // The other's last block, where it follows this warpgroup's.
  if (owns(other, n - 1)) {
    step.other_maxima();
    MmaO::template wait_group<0>(o, pa);
    step.release_own(n - 2);
    step.fold_in();
  }
  MmaO::template wait_group<0>(o, pa);
  if (first < end) pipe.consumer_release(previous, lane);

  // ---- the rows' sums: this warpgroup's blocks' and the other's, at the same (final) maxima ----
  float lse[2], inverse[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    row_sum[h] += arch::shuffle_sync_bfly(row_sum[h], 1);
    row_sum[h] += arch::shuffle_sync_bfly(row_sum[h], 2);
    if (thread % 4 == 0) exchange.sum[group][rows[h]] = row_sum[h];
  }
  Plan::ConsumersBarrier::sync();
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float const sum = row_sum[h] + exchange.sum[other][rows[h]];
    inverse[h] = sum > 0.0f ? v_scale / sum : 0.0f;
    // ln(sum 2^(x - max)) + max ln 2; a row that saw no key: -inf (its O is 0).
    lse[h] = sum > 0.0f ? (row_max[h] + std::log2(sum)) * float(M_LN2) : -INFINITY;
  }
  Softmax::rescale(o, make_float2(inverse[0], inverse[1]));
  decode_store<Plan>(o, lse, p, w);
}

}  // namespace cute_cpp::kernels
