// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's consumer warpgroups (fmha_backward_sm90.cuh). Warpgroup w owns the CTA's
// key rows [64 w, 64 w + 64); per query block (FmhaBackwardConsumer::step):
//   Sᵀ = K Qᵀ, dPᵀ = V dOᵀ          wgmma SS over D's 64-column chunks (keys are M, queries N)
//   Pᵀ = exp2(Sᵀ scale log2 e - LSE log2 e) under the mask, dSᵀ = Pᵀ ∘ (dPᵀ - D)   in registers
//   dV += Pᵀ dO, dK += dSᵀ Q         wgmma RS (Pᵀ, dSᵀ rounded to 16 bits as A)
//   dSᵀ -> shared memory; dQ = dS K  wgmma SS, dSᵀ read M-major (store_ds, dq_partial)
//   dQ += into the float workspace   red.global.add.v2.f32; deterministic mode: in key-block order (add_dq)
// and at the end dK (times the scale) and dV to global memory (store_kv).
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_tile.cuh>
#include <cute_cpp/arch/fence.hpp>
#include <cute_cpp/arch/math.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>

#include <cute_cpp/arch/memory.hpp>  // shared_address, load_shared_f32x2, store_shared_u32, reduce_add_f32x2, ...

#include <cstdint>

namespace cute_cpp::kernels {

/// One consumer warpgroup's state and steps over a CTA's query blocks (see the file comment).
template <class Plan>
struct FmhaBackwardConsumer {
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaKV = typename Plan::MmaKV;
  using MmaQ = typename Plan::MmaQ;
  static constexpr int BM = Plan::block_m, BN = Plan::block_n, D = Plan::head_dim;

  typename Plan::SharedStorage& smem;
  FmhaBackwardParams const& p;
  FmhaBackwardTile const& t;
  int wg, thread;
  std::uint32_t lane;
  typename Plan::PipelineQ pipe_q, pipe_do;
  PipelineState<Plan::stages> q_state, do_state;
  typename MmaKV::FragmentC dk, dv;

  /// Sᵀ and dPᵀ of this warpgroup's keys against query block m, then Pᵀ and dSᵀ in place of them
  /// (masked keys and queries give 0: rows that see no key have LSE -inf, stored as +inf).
  __device__ __forceinline__ void scores(typename MmaS::FragmentC& s, typename MmaS::FragmentC& dp,
                                         std::int32_t m) {
    pipe_q.consumer_wait(q_state);
    MmaS::warpgroup_arrive(s);
#pragma unroll
    for (int c = 0; c < Plan::chunks; ++c)
      MmaS::gemm(s, smem.k.tile(0u, c), smem.q.tile(q_state.index(), c), 64 * wg, c > 0);
    MmaS::commit_group();
    pipe_do.consumer_wait(do_state);
    MmaS::warpgroup_arrive(dp);
#pragma unroll
    for (int c = 0; c < Plan::chunks; ++c)
      MmaS::gemm(dp, smem.v.tile(0u, c), smem.d_o.tile(do_state.index(), c), 64 * wg, c > 0);
    MmaS::commit_group();
    auto const slice = MmaS::get_slice(thread);
    // Values j and j + 1 (j even) are columns c and c + 1 of one row: their rows' floats are one
    // 8-byte shared load. NOTE: shared-state loads: through the arrays' pointers the compiler
    // loaded with generic addresses (LD.E).
    std::uint32_t const lse = arch::shared_address(smem.lse[q_state.index()]);
    std::uint32_t const delta = arch::shared_address(smem.delta[do_state.index()]);
    std::int32_t const key0 = t.n_block * BN + 64 * wg, query0 = m * BM, shift = t.seq_k - t.seq_q;
    MmaS::template wait_group<1>(s);
#pragma unroll
    for (int j = 0; j < BM / 2; j += 2) {
      float2 const l = arch::load_shared_f32x2(lse + 4u * std::uint32_t(slice.col(j)));
      std::int32_t const key = key0 + slice.row(0, j), query = query0 + slice.col(j);
      auto const visible = [&](std::int32_t q) {
        return key < t.seq_k && q < t.seq_q && (!p.causal || key <= q + shift);
      };
      s(j, 0) = visible(query) ? arch::exp2(fmaf(s(j, 0), p.scale_log2, -l.x)) : 0.0f;
      s(j + 1, 0) = visible(query + 1) ? arch::exp2(fmaf(s(j + 1, 0), p.scale_log2, -l.y)) : 0.0f;
    }
    MmaS::template wait_group<0>(dp);
#pragma unroll
    for (int j = 0; j < BM / 2; j += 2) {
      float2 const d = arch::load_shared_f32x2(delta + 4u * std::uint32_t(slice.col(j)));
      dp(j, 0) = s(j, 0) * (dp(j, 0) - d.x);
      dp(j + 1, 0) = s(j + 1, 0) * (dp(j + 1, 0) - d.y);
    }
  }

  /// dSᵀ (16-bit, A fragment) into ds buffer `buf` at this warpgroup's rows, visible to wgmma.
  __device__ __forceinline__ void store_ds(typename MmaKV::FragmentA const& dsa, int buf) {
    auto const slice = MmaS::get_slice(thread);
    // NOTE: a shared-state store: through the tile's pointer the compiler stored with 64-bit
    // generic addresses (ST.E), not knowing the pointer is shared.
    std::uint32_t const tile = arch::shared_address(smem.ds.tile(buf));
#pragma unroll
    for (int w = 0; w < BM / 4; ++w) {
      int const r = 64 * wg + slice.row(0, 2 * w), c = slice.col(2 * w);
      arch::store_shared_u32(tile + std::uint32_t(Plan::ds_offset(r, c)) * sizeof(T), dsa.storage[w]);
    }
    arch::fence_view_async_shared();
  }

  /// This warpgroup's share of dQ for the step: its 64 columns of D over all keys, or (D 64) all
  /// columns over its own 64 keys.
  __device__ __forceinline__ void dq_partial(typename MmaQ::FragmentC& dq, int buf) {
    T const* a = smem.ds.tile(buf);
    T const* b = smem.k.tile(0u, Plan::dq_split_keys ? 0 : wg);
    if constexpr (Plan::dq_split_keys) {
      a += 64 * 64 * wg;
      b += 64 * 64 * wg;
    }
    MmaQ::warpgroup_arrive(dq);
    MmaQ::gemm(dq, a, b, 0, false);
    MmaQ::commit_group();
  }

  /// dQ's share into the float workspace; deterministic mode: after the key blocks before this
  /// one (a semaphore per query block and head), warpgroup by warpgroup.
  __device__ __forceinline__ void add_dq(typename MmaQ::FragmentC& dq, std::int32_t head, std::int32_t m) {
    std::int64_t const row0 = std::int64_t(head) * p.ws.rows + t.pad_q + std::int64_t(m) * BM;
    float* const out = p.dq_accum + row0 * D + (Plan::dq_split_keys ? 0 : 64 * wg);
    std::uint32_t* const sem = p.semaphores + row0 / BM;
    auto const slice = MmaQ::get_slice(thread);
    auto const add = [&] {
#pragma unroll
      for (int j = 0; j < 32; j += 2)
        arch::reduce_add_f32x2(out + std::int64_t(slice.row(0, j)) * D + slice.col(j), dq(j, 0), dq(j + 1, 0));
    };
    if (!p.deterministic) return add();
    if (threadIdx.x == 128) {
      while (arch::load_acquire_gpu(sem) != std::uint32_t(t.n_block)) arch::sleep_ns(32);
    }
    Plan::ConsumersBarrier::sync(0);
    for (int turn = 0; turn < Plan::consumer_warpgroups; ++turn) {
      if (turn == wg) add();
      __threadfence();
      Plan::ConsumersBarrier::sync(0);
    }
    if (threadIdx.x == 128) arch::store_release_gpu(sem, std::uint32_t(t.n_block + 1));
  }

  /// One query block of one q head (see the file comment); `buf` alternates the dSᵀ buffers.
  __device__ __forceinline__ void step(std::int32_t head, std::int32_t m, int buf) {
    typename MmaS::FragmentC s, dp;
    scores(s, dp, m);
    typename MmaKV::FragmentA pa = MmaKV::make_a_fragment(s);
    typename MmaKV::FragmentA dsa = MmaKV::make_a_fragment(dp);
    MmaKV::warpgroup_arrive(dv, pa);
    MmaKV::gemm(dv, pa, smem.d_o.tile(do_state.index(), 0));
    MmaKV::commit_group();
    // NOTE: dSᵀ goes to shared memory before its registers feed the dK wgmma: reading an in-flight
    // wgmma's A registers before its wait_group is undefined (PTX ISA, wgmma.wait_group).
    store_ds(dsa, buf);
    MmaKV::warpgroup_arrive(dk, dsa);
    MmaKV::gemm(dk, dsa, smem.q.tile(q_state.index(), 0));
    MmaKV::commit_group();
    // Both warpgroups' dSᵀ are in place (and each finished reading this buffer two steps ago).
    Plan::ConsumersBarrier::sync(0);
    typename MmaQ::FragmentC dq;
    dq_partial(dq, buf);
    MmaQ::template wait_group<0>(dq);
    sm90::warpgroup_fence_operand(dv.storage);
    sm90::warpgroup_fence_operand(dk.storage);
    sm90::warpgroup_fence_operand(pa.storage);
    sm90::warpgroup_fence_operand(dsa.storage);
    pipe_q.consumer_release(q_state, lane);
    q_state.advance();
    pipe_do.consumer_release(do_state, lane);
    do_state.advance();
    add_dq(dq, head, m);
  }

  /// dK (times the scale) and dV of this warpgroup's key rows within the sequence, as pairs.
  __device__ __forceinline__ void store_kv() {
    auto const slice = MmaKV::get_slice(thread);
    std::int64_t const kv_b = p.varlen() ? 0 : t.batch;
    std::int32_t const key0 = t.n_block * BN + 64 * wg;
    T* const dk_out = static_cast<T*>(p.dk) + kv_b * p.dk_stride.batch + std::int64_t(t.kv_head) * p.dk_stride.head;
    T* const dv_out = static_cast<T*>(p.dv) + kv_b * p.dv_stride.batch + std::int64_t(t.kv_head) * p.dv_stride.head;
#pragma unroll
    for (int j = 0; j < D / 2; j += 2) {
      std::int32_t const key = key0 + slice.row(0, j);
      if (key >= t.seq_k) continue;
      std::int64_t const row = t.k_offset + key;
      T const k_pair[2] = {T(dk(j, 0) * p.scale), T(dk(j + 1, 0) * p.scale)};
      T const v_pair[2] = {T(dv(j, 0)), T(dv(j + 1, 0))};
      *reinterpret_cast<std::uint32_t*>(dk_out + row * p.dk_stride.seq + slice.col(j)) =
          *reinterpret_cast<std::uint32_t const*>(k_pair);
      *reinterpret_cast<std::uint32_t*>(dv_out + row * p.dv_stride.seq + slice.col(j)) =
          *reinterpret_cast<std::uint32_t const*>(v_pair);
    }
  }
};

/// A consumer warpgroup: K and V once, every q head of the group and query block, then dK and dV.
template <class Plan>
__device__ __forceinline__ void fmha_backward_consumer(typename Plan::SharedStorage& smem, FmhaBackwardParams const& p,
                                                       FmhaBackwardTile const& t) {
  typename Plan::PipelineKV const pipe_kv{&smem.kv_barriers};
  int const wg = int(threadIdx.x) / 128 - 1, thread = int(threadIdx.x) % 128;
  FmhaBackwardConsumer<Plan> c{smem,
                               p,
                               t,
                               wg,
                               thread,
                               std::uint32_t(thread % 32),
                               typename Plan::PipelineQ{&smem.q_barriers},
                               typename Plan::PipelineQ{&smem.do_barriers},
                               make_pipeline_state<Plan::stages>(PipelineUserType::Consumer),
                               make_pipeline_state<Plan::stages>(PipelineUserType::Consumer),
                               {},
                               {}};
  c.dk.fill(0.0f);
  c.dv.fill(0.0f);
  pipe_kv.consumer_wait(make_pipeline_state<1>(PipelineUserType::Consumer));
  int buf = 0;
  for (std::int32_t g = 0; g < p.group; ++g) {
    for (std::int32_t m = t.m_begin; m < t.m_end; ++m) {
      c.step(t.kv_head * p.group + g, m, buf);
      buf ^= 1;
    }
  }
  c.store_kv();
}

}  // namespace cute_cpp::kernels
