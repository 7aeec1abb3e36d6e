// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The consumer warpgroup of decode over an e4m3 (FP8) cache. wgmma's FP8 forms want both operands
// in FP8, so the products are transposed instead, and the cache becomes wgmma's A, read from the
// TMA ring into registers and widened there (attention/kv_widen.hpp):
//   Qᵀ               the block's 8 query rows as the N of both products, loaded once, its
//                    columns in e4m3_keys_a's order;
//   Sᵀ = K Qᵀ        wgmma RS: M = block_n keys, N = 8 rows (not 64 padded rows: an eighth of the
//                    tensor work of the 16-bit plans' S = Q Kᵀ), K's stage released once loaded;
//                    two warpgroups take the blocks in turn (the widening's instructions and
//                    each block's chain of waits are what bound a warpgroup), each with its own
//                    softmax, merged at the end;
//   softmax          per query row (a column of Sᵀ) over the warpgroup's keys: the warps' maxima
//                    and, at the end, sums meet in shared memory; Pᵀ written there as B;
//   Oᵀ += Vᵀ Pᵀ      wgmma RS: M = the head dim (rows in e4m3_value_column's order); the next
//                    block's K loads into registers while it runs;
//   epilogue         per row, the output (no splits) or the split's partial in float.
#include <cute_cpp/arch/fence.hpp>                            // fence_view_async_shared
#include <cute_cpp/arch/math.hpp>                             // exp2
#include <cute_cpp/arch/thread.hpp>                           // shuffle_sync_bfly
#include <cute_cpp/attention/kv_widen.hpp>                    // e4m3_keys_a, e4m3_values_a, e4m3_value_column
#include <cute_cpp/kernels/attention/decode/decode.hpp>       // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>  // DecodeWork, decode_row
#include <cute_cpp/mma/sm90_wgmma.hpp>                        // warpgroup_fence, warpgroup_fence_operand
#include <cute_cpp/pipeline/pipeline_state.hpp>               // make_pipeline_state

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// Qᵀ (the block's query rows, K-major, 64-column chunks) in f16, its columns in e4m3_keys_a's
/// order: logical 16-column group u holds physical columns 16u .. 16u + 15 as words 0 2 4 6 1 3 5
/// 7. Each row is scaled by the power of two that brings its largest magnitude to [2^14, 2^15)
/// (exact, and far from f16's overflow and subnormals whatever T's range); `q_scale` keeps it.
template <class Plan>
__device__ __forceinline__ void load_queries_for_e4m3(__half* q_tile, float* q_scale, DecodeParams const& p,
                                                      DecodeWork const& w, int thread) {
  using T = typename Plan::Element;
  constexpr int groups_per_row = Plan::head_dim / 16, units = Plan::block_m * groups_per_row;
  static_assert(units <= Plan::consumer_threads, "cute-cpp [attention.fp8-kv]: one 16-column group of Q a thread");
  auto* const row_max = reinterpret_cast<unsigned*>(q_scale);  // |q| as bits: ordered as the floats
  if (thread < Plan::block_m) row_max[thread] = 0u;
  Plan::ConsumersBarrier::sync();
  int const r = thread / groups_per_row, group = thread % groups_per_row;
  std::int32_t const row = w.m_block * Plan::block_m + r;
  T x[16] = {};
  if (thread < units && row < p.rows) {
    DecodeRow const d = decode_row(p, w, row);
    auto const* const from = static_cast<T const*>(p.q) + w.batch * p.q_batch_stride + d.token * p.q_seq_stride +
                             d.head * p.q_head_stride + 16 * group;
    *reinterpret_cast<int4*>(x) = reinterpret_cast<int4 const*>(from)[0];
    *reinterpret_cast<int4*>(x + 8) = reinterpret_cast<int4 const*>(from)[1];
    float most = 0.0f;
#pragma unroll
    for (int i = 0; i < 16; ++i) most = fmaxf(most, fabsf(float(x[i])));
    atomicMax(&row_max[r], __float_as_uint(most));
  }
  Plan::ConsumersBarrier::sync();
  // Logical column 16 group + 2i (+1) is physical 4i (+1) for i < 4, 4(i - 4) + 2 (+3) after.
  std::uint32_t words[8];
  float scale = 1.0f;
  if (thread < units) {
    float const most = __uint_as_float(row_max[r]);
    if (most > 0.0f) scale = ldexpf(1.0f, min(14 - ilogbf(most), 120));
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      int const phys = i < 4 ? 4 * i : 4 * (i - 4) + 2;
      __half2 const h = __floats2half2_rn(float(x[phys]) * scale, float(x[phys + 1]) * scale);
      words[i] = *reinterpret_cast<std::uint32_t const*>(&h);
    }
  }
  Plan::ConsumersBarrier::sync();  // every thread has read row_max before q_scale overwrites it
  if (thread < units) {
    if (group == 0) q_scale[r] = scale;
    __half* const line = q_tile + group / 4 * Plan::block_m * 64;
    using Chunk = typename Plan::QChunk;
    int const col = group % 4 * 16;
    *reinterpret_cast<uint4*>(line + int(Chunk{}(r, col))) = make_uint4(words[0], words[1], words[2], words[3]);
    *reinterpret_cast<uint4*>(line + int(Chunk{}(r, col + 8))) = make_uint4(words[4], words[5], words[6], words[7]);
  }
  arch::fence_view_async_shared();
  Plan::ConsumersBarrier::sync();
}

/// The keys each of this thread's two rows (`row`, `row` + 1 of the CTA's block) sees end below
/// limit[e].
__device__ __forceinline__ void decode_fp8_limits(DecodeParams const& p, DecodeWork const& w, std::int32_t row,
                                                  std::int32_t (&limit)[2]) {
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    std::int32_t const token = (row + e) / p.group;
    limit[e] = p.causal ? w.seq_k - p.q_tokens + token + 1 : w.seq_k;
  }
}

/// Per row (c0, c0 + 1), the softmax's scale over Qᵀ's (`q_scale`: each row's scale of Qᵀ).
template <class Plan>
__device__ __forceinline__ void decode_fp8_row_scale(float scale_log2, float const (&q_scale)[Plan::block_m], int c0,
                                                     float (&row_scale)[2]) {
#pragma unroll
  for (int e = 0; e < 2; ++e) row_scale[e] = scale_log2 / q_scale[c0 + e];
}

/// K's stage (an e4m3 tile of block_n keys) into wgmma A fragments, widened to f16.
template <class Plan>
__device__ __forceinline__ void decode_fp8_keys(typename Plan::KvElement const* stage, int thread,
                                                typename Plan::MmaS::FragmentA (&k)[Plan::qk_chunks]) {
  constexpr int BN = Plan::block_n, key_atoms = BN / 64;
#pragma unroll
  for (int a = 0; a < key_atoms; ++a) {
#pragma unroll
    for (int s = 0; s < Plan::head_dim / 16; s += 2) {
      std::uint32_t regs[2][4];
      e4m3_keys_a<__half, BN>(stage, 64 * a, s, thread, regs);
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int r = 0; r < 4; ++r) k[(s + h) / 4].storage[4 * ((s + h) % 4 + 4 * a) + r] = regs[h][r];
    }
  }
}

/// Orders V's fragments' register accesses around the wgmmas that read them.
template <class Plan>
__device__ __forceinline__ void decode_fp8_fence(typename Plan::MmaO::FragmentA (&v)[Plan::block_n / 64]) {
#pragma unroll
  for (int c = 0; c < Plan::block_n / 64; ++c) sm90::warpgroup_fence_operand(v[c].storage);
}

/// Sᵀ = K Qᵀ for one block (`k` in registers, Qᵀ's chunks at `q`), waited for.
template <class Plan>
__device__ __forceinline__ void decode_fp8_scores(typename Plan::MmaS::FragmentC& s,
                                                  typename Plan::MmaS::FragmentA (&k)[Plan::qk_chunks],
                                                  __half const* q) {
  using MmaS = typename Plan::MmaS;
#pragma unroll
  for (int c = 0; c < Plan::qk_chunks; ++c) sm90::warpgroup_fence_operand(k[c].storage);
  sm90::warpgroup_fence();
#pragma unroll
  for (int c = 0; c < Plan::qk_chunks; ++c) MmaS::gemm(s, k[c], q + c * Plan::block_m * 64, c > 0);
  MmaS::commit_group();
  MmaS::template wait_group<0>(s, k[0]);
}

/// Sets the scores of keys (from n0) that a row does not see to -inf: this thread's keys are
/// slice.row(a, j), its rows' keys end below limit[0] and limit[1].
template <class Plan, class Slice>
__device__ __forceinline__ void decode_fp8_mask(typename Plan::MmaS::FragmentC& s, std::int32_t n0,
                                                std::int32_t const (&limit)[2], Slice const& slice) {
  constexpr int key_atoms = Plan::block_n / 64;
#pragma unroll
  for (int a = 0; a < key_atoms; ++a)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (n0 + slice.row(a, j) >= limit[j % 2]) s(j, a) = -INFINITY;
}

/// This warp's maxima of its rows' (columns c0, c0 + 1 of Sᵀ) scores, into `partial` for the
/// warpgroup's other warps.
template <class Plan>
__device__ __forceinline__ void decode_fp8_block_max(typename Plan::MmaS::FragmentC const& s,
                                                     float (&partial)[4][Plan::block_m], int warp, std::uint32_t lane,
                                                     int c0) {
  constexpr int key_atoms = Plan::block_n / 64;
  float block_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
  for (int a = 0; a < key_atoms; ++a)
#pragma unroll
    for (int j = 0; j < 4; ++j) block_max[j % 2] = fmaxf(block_max[j % 2], s(j, a));
#pragma unroll
  for (int e = 0; e < 2; ++e) {
#pragma unroll
    for (int offset = 4; offset < 32; offset *= 2)
      block_max[e] = fmaxf(block_max[e], arch::shuffle_sync_bfly(block_max[e], offset));
    if (lane < 4) partial[warp][c0 + e] = block_max[e];
  }
}

/// The rows' new running maxima from the warps' (`partial`), the sums rescaled; per row, what
/// the scores' exponents subtract and O's correction.
template <class Plan>
__device__ __forceinline__ void decode_fp8_new_max(float const (&partial)[4][Plan::block_m], int c0,
                                                   float const (&row_scale)[2], float (&row_max)[2],
                                                   float (&row_sum)[2], float (&subtract)[2],
                                                   float (&correction)[2]) {
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    float m = partial[0][c0 + e];
#pragma unroll
    for (int other = 1; other < 4; ++other) m = fmaxf(m, partial[other][c0 + e]);
    float const next = fmaxf(row_max[e], m * row_scale[e]);
    // A row that has seen no key yet keeps -inf; exp2 of (-inf) - (-inf) would be NaN.
    subtract[e] = next == -INFINITY ? 0.0f : next;
    correction[e] = arch::exp2(row_max[e] - subtract[e]);
    row_max[e] = next;
    row_sum[e] *= correction[e];
  }
}

/// The block's probabilities, added to the rows' sums and written as Pᵀ (wgmma's B) to `pt`.
template <class Plan, class Slice>
__device__ __forceinline__ void decode_fp8_probabilities(typename Plan::MmaS::FragmentC const& s,
                                                         float const (&row_scale)[2], float const (&subtract)[2],
                                                         Slice const& slice, int c0, float (&row_sum)[2], __half* pt) {
  constexpr int key_atoms = Plan::block_n / 64;
#pragma unroll
  for (int a = 0; a < key_atoms; ++a) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float const prob = arch::exp2(s(j, a) * row_scale[j % 2] - subtract[j % 2]);
      row_sum[j % 2] += prob;
      pt[a * Plan::block_m * 64 + int(typename Plan::PChunk{}(c0 + j % 2, slice.row(0, j)))] = __half(prob);
    }
  }
}

/// Keys past the sequence: their P is 0, but V there may be anything (0 x NaN is NaN). This
/// thread's registers r hold keys 16 slice + 2q (+1), + 8 for r = 2, 3 (low, high halves).
template <class Plan>
__device__ __forceinline__ void decode_fp8_zero_past_keys(typename Plan::MmaO::FragmentA (&v)[Plan::block_n / 64],
                                                          std::int32_t n0, std::int32_t seq_k, int thread) {
  constexpr int key_atoms = Plan::block_n / 64, value_atoms = Plan::head_dim_v / 64;
  int const q2 = 2 * (thread % 4);
#pragma unroll
  for (int c = 0; c < key_atoms; ++c)
#pragma unroll
    for (int i = 0; i < 4 * 4 * value_atoms; ++i) {
      int const slice16 = i / 4 % 4, r = i % 4;
      std::int32_t const key = n0 + 64 * c + 16 * slice16 + q2 + (r >= 2 ? 8 : 0);
      std::uint32_t const keep = (key < seq_k ? 0x0000FFFFu : 0u) | (key + 1 < seq_k ? 0xFFFF0000u : 0u);
      v[c].storage[i] &= keep;
    }
}

/// Oᵀ's columns (this thread's rows) times their correction.
template <class Plan>
__device__ __forceinline__ void decode_fp8_rescale(typename Plan::MmaO::FragmentC& o, float const (&correction)[2]) {
  constexpr int value_atoms = Plan::head_dim_v / 64;
#pragma unroll
  for (int a = 0; a < value_atoms; ++a)
#pragma unroll
    for (int j = 0; j < 4; ++j) o(j, a) *= correction[j % 2];
}

/// An e4m3 consumer's rows' sums over its warpgroup (`row_sum`: this thread's shares; `mine`: the
/// warpgroup's shared softmax storage).
template <class Plan>
__device__ __forceinline__ void decode_fp8_sums(float (&row_sum)[2], typename Plan::TransposedSoftmax::Group& mine,
                                                int group, int warp, std::uint32_t lane, int c0, float (&sum)[2]) {
#pragma unroll
  for (int e = 0; e < 2; ++e) {
#pragma unroll
    for (int offset = 4; offset < 32; offset *= 2) row_sum[e] += arch::shuffle_sync_bfly(row_sum[e], offset);
    if (lane < 4) mine.partial[0][warp][c0 + e] = row_sum[e];
  }
  Plan::GroupBarriers::sync(group);
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    sum[e] = 0.0f;
#pragma unroll
    for (int other = 0; other < 4; ++other) sum[e] += mine.partial[0][other][c0 + e];
  }
}

/// The second warpgroup's O, running maxima and sums, element for element as the first holds them.
template <class Plan>
__device__ __forceinline__ void decode_fp8_publish(typename Plan::MmaO::FragmentC const& o, float const (&row_max)[2],
                                                   float const (&sum)[2],
                                                   typename Plan::TransposedSoftmax::Merge& merge, int thread,
                                                   int c0) {
  constexpr int value_atoms = Plan::head_dim_v / 64;
#pragma unroll
  for (int i = 0; i < 4 * value_atoms; ++i) merge.o[i][thread] = o.storage[i];
  if (thread < 4)
#pragma unroll
    for (int e = 0; e < 2; ++e) merge.max[c0 + e] = row_max[e], merge.sum[c0 + e] = sum[e];
}

/// The second warpgroup's O, maxima and sums (`merge`) folded into the first's.
template <class Plan>
__device__ __forceinline__ void decode_fp8_merge(typename Plan::MmaO::FragmentC& o, float (&row_max)[2],
                                                 float (&sum)[2], typename Plan::TransposedSoftmax::Merge const& merge,
                                                 int thread, int c0) {
  constexpr int value_atoms = Plan::head_dim_v / 64;
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    float const other = merge.max[c0 + e], both = fmaxf(row_max[e], other);
    float const subtract = both == -INFINITY ? 0.0f : both;
    float const mine_weight = arch::exp2(row_max[e] - subtract), other_weight = arch::exp2(other - subtract);
    sum[e] = sum[e] * mine_weight + merge.sum[c0 + e] * other_weight;
    row_max[e] = both;
#pragma unroll
    for (int a = 0; a < value_atoms; ++a)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        o(2 * h + e, a) = o(2 * h + e, a) * mine_weight + merge.o[4 * a + 2 * h + e][thread] * other_weight;
  }
}

/// Per row, its LSE and O's factor `inverse` (V's scale over the sum).
__device__ __forceinline__ void decode_fp8_lse(float const (&sum)[2], float const (&row_max)[2], float v_scale,
                                               float (&lse)[2], float (&inverse)[2]) {
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    // ln(sum 2^(x - max)) + max ln 2, from the log2-unit maximum; a row that saw no key: -inf.
    lse[e] = sum[e] > 0.0f ? (row_max[e] + log2f(sum[e])) * 0.69314718055994531f : -INFINITY;
    inverse[e] = sum[e] > 0.0f ? v_scale / sum[e] : 0.0f;
  }
}

// ---- epilogue: this thread's rows c0, c0 + 1; per atom its pair of columns ----
/// An e4m3 consumer's epilogue: this thread's two rows (`row0`, `row0` + 1 of the CTA's work, Oᵀ's
/// columns c0 and c0 + 1) of O times `inverse` (V's scale over the row's sum), in q's type (no
/// splits) with the LSE, or the split's partial O and LSE in float.
template <class Plan>
__device__ __forceinline__ void decode_fp8_store(typename Plan::MmaO::FragmentC const& o, float const (&lse)[2],
                                                 float const (&inverse)[2], DecodeParams const& p, DecodeWork const& w,
                                                 int thread, std::int32_t row0) {
  using T = typename Plan::Element;
  constexpr int value_atoms = Plan::head_dim_v / 64;
  auto const os = Plan::MmaO::get_slice(thread);
  bool const partial = p.splits > 1;
  std::int64_t const rows_total = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    std::int32_t const row = row0 + e;
    if (row >= p.rows) continue;
    DecodeRow const d = decode_row(p, w, row);
    std::int64_t const q_row = (std::int64_t(w.batch) * p.q_tokens + d.token) * p.heads_q + d.head;
    if (partial) {
      float* const out = p.partial_o + (w.split * rows_total + q_row) * Plan::head_dim_v;
      if (thread < 4) p.partial_lse[w.split * rows_total + q_row] = lse[e];
#pragma unroll
      for (int a = 0; a < value_atoms; ++a)
        *reinterpret_cast<float2*>(out + e4m3_value_column(os.row(a, 0))) =
            make_float2(o(e, a) * inverse[e], o(2 + e, a) * inverse[e]);
    } else {
      T* const out = static_cast<T*>(p.o) + w.batch * p.o_batch_stride + d.token * p.o_seq_stride +
                     d.head * p.o_head_stride;
      if (thread < 4 && p.lse != nullptr) p.lse[q_row] = lse[e];
#pragma unroll
      for (int a = 0; a < value_atoms; ++a) {
        T pair[2] = {T(o(e, a) * inverse[e]), T(o(2 + e, a) * inverse[e])};
        *reinterpret_cast<std::uint32_t*>(out + e4m3_value_column(os.row(a, 0))) =
            *reinterpret_cast<std::uint32_t const*>(pair);
      }
    }
  }
}

/// The consumer warpgroup of an e4m3 cache (see the file comment).
template <class Plan>
__device__ __forceinline__ void decode_fp8_consumer(typename Plan::SharedStorage& smem, DecodeParams const& p,
                                                    DecodeWork const& w) {
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using H = __half;  // the products' type (Plan::MmaElement)
  constexpr int BN = Plan::block_n, key_atoms = BN / 64, value_atoms = Plan::head_dim_v / 64;
  constexpr int groups = Plan::consumer_warpgroups;
  static_assert(Plan::block_m == 8);
  typename Plan::PipelineK const pipe_k{&smem.k_barriers};
  typename Plan::PipelineV const pipe_v{&smem.v_barriers};
  // The warpgroups take the split's blocks in turn: this one's stages are every groups-th.
  int const group = int(threadIdx.x) / 128;
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  for (int g = 0; g < group; ++g) state.advance();
  auto const next_block = [&] {
    for (int g = 0; g < groups; ++g) state.advance();
  };
  auto& shared = smem.softmax;
  auto& mine = shared.group[group];
  using GroupBarrier = typename Plan::GroupBarriers;
  int const thread = int(threadIdx.x) % 128, warp = thread / 32;
  auto const lane = std::uint32_t(thread % 32);
  // This thread's two query rows are Sᵀ's and Oᵀ's columns c0 and c0 + 1; its keys in Sᵀ are rows
  // slice.row(a, j) of the tile.
  auto const slice = MmaS::get_slice(thread);
  int const c0 = slice.col(0);
  std::int32_t const row0 = w.m_block * Plan::block_m;
  // The keys each of the two rows sees end below limit[e]; keys below all_to are seen by every row.
  std::int32_t limit[2];
  decode_fp8_limits(p, w, row0 + c0, limit);
  std::int32_t const all_to = p.causal ? w.seq_k - p.q_tokens + 1 : w.seq_k;
  // A scaled cache: K's scale folds into the softmax's, V's into O at the end.
  float const scale_log2 = p.scale_log2 * (p.k_scale != nullptr ? p.k_scale[w.kv_head] : 1.0f);
  float const v_scale = p.v_scale != nullptr ? p.v_scale[w.kv_head] : 1.0f;

  typename MmaO::FragmentC o;
  o.fill(0.0f);
  // Per row: the running maximum of the scaled scores (log2 units) and this thread's share of the sum.
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.0f, 0.0f};
  load_queries_for_e4m3<Plan>(smem.q, shared.q_scale, p, w, int(threadIdx.x));
  float row_scale[2];  // per row, the softmax's scale over Qᵀ's
  decode_fp8_row_scale<Plan>(scale_log2, shared.q_scale, c0, row_scale);
  // K's and V's widened stages. A block's K loads while the block before's O += V P runs, which is
  // waited for within its iteration: left in flight across the loop's back edge, O's registers
  // pass through copies there and ptxas serialises every wgmma.
  typename MmaS::FragmentA k[Plan::qk_chunks];
  typename MmaO::FragmentA v[key_atoms];
  auto const fence_values = [&] { decode_fp8_fence<Plan>(v); };
  auto const load_keys = [&] {  // K's stage into registers, released at once
    pipe_k.consumer_wait(state);
    decode_fp8_keys<Plan>(smem.k_stage(state.index()), thread, k);
    __syncwarp();
    pipe_k.consumer_release(state, lane);
  };

  if (w.n_begin + group < w.n_end) load_keys();
  for (std::int32_t n = w.n_begin + group; n < w.n_end; n += groups) {
    int const buffer = (n - w.n_begin) / groups & 1;
    // ---- Sᵀ = K Qᵀ ----
    typename MmaS::FragmentC s;
    decode_fp8_scores<Plan>(s, k, smem.q);

    // ---- the softmax of this block's columns ----
    std::int32_t const n0 = n * BN;
    if (n0 + BN > all_to) decode_fp8_mask<Plan>(s, n0, limit, slice);
    decode_fp8_block_max<Plan>(s, mine.partial[buffer], warp, lane, c0);
    GroupBarrier::sync(group);
    float correction[2], subtract[2];
    decode_fp8_new_max<Plan>(mine.partial[buffer], c0, row_scale, row_max, row_sum, subtract, correction);
    decode_fp8_probabilities<Plan>(s, row_scale, subtract, slice, c0, row_sum, mine.p[buffer][0]);
    arch::fence_view_async_shared();  // Pᵀ is read by wgmma
    GroupBarrier::sync(group);

    // ---- Oᵀ += Vᵀ Pᵀ: V's stage into registers, released at once; the wgmmas left in flight ----
    // NOTE: V's load stays in this body: moved into a function of its own (as K's is,
    // decode_fp8_keys), it changed the kernel's SASS (the order of O's zeroing, nvcc 13.0).
    pipe_v.consumer_wait(state);
#pragma unroll
    for (int a = 0; a < value_atoms; ++a) {
#pragma unroll
      for (int s2 = 0; s2 < BN / 16; s2 += 2) {
        std::uint32_t regs[2][4];
        e4m3_values_a<H, BN>(smem.v_stage(state.index()), a, s2, thread, regs);
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int r = 0; r < 4; ++r) v[(s2 + h) / 4].storage[4 * ((s2 + h) % 4 + 4 * a) + r] = regs[h][r];
      }
    }
    __syncwarp();
    pipe_v.consumer_release(state, lane);
    next_block();
    if (n0 + BN > w.seq_k) decode_fp8_zero_past_keys<Plan>(v, n0, w.seq_k, thread);
    decode_fp8_rescale<Plan>(o, correction);
    fence_values();
    MmaO::warpgroup_arrive(o, v[0]);
#pragma unroll
    for (int c = 0; c < key_atoms; ++c) MmaO::gemm(o, v[c], mine.p[buffer][c]);
    MmaO::commit_group();
    if (n + groups < w.n_end) load_keys();
    MmaO::template wait_group<0>(o, v[0]);
    fence_values();
  }

  // ---- the rows' sums over the warpgroup, then the warpgroups' parts merged into the first's ----
  float sum[2];
  decode_fp8_sums<Plan>(row_sum, mine, group, warp, lane, c0, sum);
  if constexpr (groups > 1) {
    static_assert(groups == 2);
    if (group == 1) decode_fp8_publish<Plan>(o, row_max, sum, shared.merge, thread, c0);
    Plan::ConsumersBarrier::sync();
    if (group == 1) return;
    decode_fp8_merge<Plan>(o, row_max, sum, shared.merge, thread, c0);
  }
  float lse[2], inverse[2];
  decode_fp8_lse(sum, row_max, v_scale, lse, inverse);
  decode_fp8_store<Plan>(o, lse, inverse, p, w, thread, row0 + c0);
}

}  // namespace cute_cpp::kernels
