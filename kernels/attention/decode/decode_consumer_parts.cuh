// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The 16-bit consumers' shared parts (decode_consumer.cuh's warpgroup and MLA's two,
// decode_mla_consumer.cuh): the block's query rows loaded into the swizzled Q tile, the causal
// band that masks S, and the epilogue that stores O and its LSE (or a split's partials).
#include <cute_cpp/arch/fence.hpp>                            // fence_view_async_shared
#include <cute_cpp/attention/online_softmax.hpp>              // accumulator_row_half
#include <cute_cpp/kernels/attention/decode/decode.hpp>       // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>  // DecodeWork, decode_row

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// Loads the block's query rows into the swizzled Q tile (rows past the group's are zero), shared
/// among the consumer warpgroups' threads; then the tile is visible to wgmma.
template <class Plan>
__device__ __forceinline__ void load_queries(typename Plan::Element* q_tile, DecodeParams const& p,
                                             DecodeWork const& w, int thread) {
  using T = typename Plan::Element;
  constexpr int units_per_row = Plan::head_dim / 8;  // 16-byte units
  auto const* const q = static_cast<T const*>(p.q) + w.batch * p.q_batch_stride;
  for (int u = thread; u < Plan::block_m * units_per_row; u += Plan::consumer_threads) {
    int const r = u / units_per_row, unit = u % units_per_row, chunk = unit / 8, col = unit % 8 * 8;
    std::int32_t const row = w.m_block * Plan::block_m + r;
    int4 value = make_int4(0, 0, 0, 0);
    if (row < p.rows) {
      DecodeRow const d = decode_row(p, w, row);
      value = *reinterpret_cast<int4 const*>(q + d.token * p.q_seq_stride + d.head * p.q_head_stride + chunk * 64 + col);
    }
    *reinterpret_cast<int4*>(q_tile + chunk * Plan::block_m * 64 + int(typename Plan::QChunk{}(r, col))) = value;
  }
  arch::fence_view_async_shared();
  Plan::ConsumersBarrier::sync();
}

/// Where a 16-bit consumer's S (= Q Kᵀ, the block's 64 rows by block_n keys) is masked: the keys
/// each of this thread's two rows sees end at band_hi (counted from its first column); keys below
/// all_to are seen by every row of the block.
struct DecodeBand {
  std::int32_t band_hi[2];
  std::int32_t all_to;

  template <class Slice>
  __device__ __forceinline__ DecodeBand(DecodeParams const& p, DecodeWork const& w, Slice const& slice,
                                        std::int32_t row0) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      std::int32_t const token = (row0 + slice.row(0, 2 * h)) / p.group;
      band_hi[h] = (p.causal ? w.seq_k - p.q_tokens + token + 1 : w.seq_k) - slice.col(0);
    }
    all_to = p.causal ? w.seq_k - p.q_tokens + 1 : w.seq_k;
  }
  /// Sets the scores of block `n`'s keys that a row does not see to -inf.
  template <int BlockN, class Slice, class FragmentS>
  __device__ __forceinline__ void apply(FragmentS& s, std::int32_t n, Slice const& slice) const {
    std::int32_t const n0 = n * BlockN;
    if (n0 + BlockN <= all_to) return;
#pragma unroll
    for (int jj = 0; jj < BlockN / 2; ++jj) {
      if (n0 + slice.col(jj) - slice.col(0) >= band_hi[accumulator_row_half(jj)]) s(jj, 0) = -INFINITY;
    }
  }
};

/// A 16-bit consumer's epilogue: per row of the block (this thread's two), the output in q's type
/// (no splits) and its LSE, or the split's partial O and LSE in float; `o` is the warpgroup's
/// value_cols columns of O, already divided by the rows' sums.
template <class Plan>
__device__ __forceinline__ void decode_store(typename Plan::MmaO::FragmentC const& o, float const (&lse)[2],
                                             DecodeParams const& p, DecodeWork const& w) {
  using T = typename Plan::Element;
  int const thread = int(threadIdx.x) % 128, warpgroup = int(threadIdx.x) / 128;
  // This thread's two rows (row halves h) are fixed: their destinations are found once, then each
  // writes its column pairs (null: a row past the block's queries).
  auto const os = Plan::MmaO::get_slice(thread);
  bool const partial = p.splits > 1;
  std::int64_t const rows_total = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
  T* out[2] = {nullptr, nullptr};
  float* out_partial[2] = {nullptr, nullptr};
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    std::int32_t const row = w.m_block * Plan::block_m + os.row(0, 2 * h);
    if (row >= p.rows) continue;
    DecodeRow const d = decode_row(p, w, row);
    std::int64_t const q_row = (std::int64_t(w.batch) * p.q_tokens + d.token) * p.heads_q + d.head;
    if (partial) {
      out_partial[h] = p.partial_o + (w.split * rows_total + q_row) * Plan::head_dim_v;
      if (thread % 4 == 0 && warpgroup == 0) p.partial_lse[w.split * rows_total + q_row] = lse[h];
    } else {
      out[h] = static_cast<T*>(p.o) + w.batch * p.o_batch_stride + d.token * p.o_seq_stride + d.head * p.o_head_stride;
      if (thread % 4 == 0 && warpgroup == 0 && p.lse != nullptr) p.lse[q_row] = lse[h];
    }
  }
#pragma unroll
  for (int jj = 0; jj < Plan::value_cols / 2; jj += 2) {
    int const h = accumulator_row_half(jj), col = warpgroup * Plan::value_cols + os.col(jj);
    if (out_partial[h] != nullptr)
      *reinterpret_cast<float2*>(out_partial[h] + col) = make_float2(o(jj, 0), o(jj + 1, 0));
    if (out[h] != nullptr) {
      T pair[2] = {T(o(jj, 0)), T(o(jj + 1, 0))};
      *reinterpret_cast<std::uint32_t*>(out[h] + col) = *reinterpret_cast<std::uint32_t const*>(pair);
    }
  }
}
}  // namespace cute_cpp::kernels
