// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper decode attention (sm_90a). A CTA serves one (sequence, kv head, 64-row block of its
// queries, split of its keys); it reads as its stages:
//   decode_producer   two producer warps, K's and V's: per key block, TMA boxes of
//                     the plan's box_rows keys from the block's pages (a box never straddles one);
//   decode_consumer   the consumer warpgroup (MLA: two, each with half of O's columns, taking
//                     S's blocks in turn, decode_mla_consumer.cuh; an e4m3 cache:
//                     decode_fp8_consumer.cuh, the same steps transposed):
//     Q               the group's q heads x new tokens, loaded once into a swizzled 64-row tile;
//     S = Q Kᵀ        wgmma SS; the causal mask on the block holding the sequence's end;
//     OnlineSoftmax   in exp2 with the scale folded in; P converted in place as wgmma's A;
//     O += P V        wgmma RS, overlapped with the next block's S;
//     epilogue        O / rowsum and LSE: the output in q's type, or a split's partial in float.
//   decode_combine    (splits only) per query row, the splits' O weighted by exp(LSE - max):
//                     by the splits' cluster once all are written (up to 8 splits), or by a
//                     kernel of its own.
// Memory-bound: the consumer's work per block is well under the time its bytes take to arrive, so
// one consumer warpgroup per CTA and the producer's stages are what keep the cache streaming.
#include <cute_cpp/kernels/attention/decode/decode.hpp>

#include <cute_cpp/arch/cluster.hpp>
#include <cute_cpp/arch/copy.hpp>
#include <cute_cpp/arch/fence.hpp>
#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/arch/math.hpp>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/arch/thread.hpp>
#include <cute_cpp/attention/online_softmax.hpp>
#include <cute_cpp/attention/value_rows.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace cute_cpp::kernels {

/// One CTA's work: its sequence, kv head, query-row block and split, the sequence's length and
/// the key blocks [n_begin, n_end) of its split.
struct DecodeWork {
  std::int32_t batch = 0, kv_head = 0, m_block = 0, split = 0;
  std::int32_t seq_k = 0, n_begin = 0, n_end = 0;
};

/// `w`'s split's key blocks for its sequence's w.seq_k keys. Each sequence's own blocks are cut
/// into p.splits runs of one length (the last ones shorter or empty): a short sequence in a launch
/// sized for max_seq_k (a CUDA graph's, recorded for the longest sequence it may meet) still
/// spreads over every split instead of filling the first.
template <int BlockN>
__device__ __forceinline__ void decode_split_range(DecodeParams const& p, DecodeWork& w) {
  std::int32_t const blocks = (w.seq_k + BlockN - 1) / BlockN;
  std::int32_t const per_split = (blocks + p.splits - 1) / p.splits;
  w.n_begin = min(blocks, w.split * per_split);
  w.n_end = min(blocks, w.n_begin + per_split);
}

/// Sets `w`'s sequence length (`seq_k`, as loaded: checked against the cache's room here, after
/// the kernel's barriers, so that its load is not waited on before them) and its split's blocks.
template <int BlockN>
__device__ __forceinline__ DecodeWork decode_split_keys(DecodeParams const& p, DecodeWork w, std::int32_t loaded) {
  std::int32_t const seq_k = p.seqlens_k != nullptr ? loaded : p.max_seq_k;
  std::int32_t const room = p.paged() ? p.max_pages_per_seq * std::int32_t(p.page_div.divisor) : p.max_seq_k;
  if (seq_k < 0 || seq_k > room) {
#if !defined(NDEBUG)
    printf("cute-cpp [attention.block-table]: sequence %d: k length %d outside 0..%d\n", w.batch, seq_k, room);
    __trap();
#endif
  }
  // Release builds clamp a bad length, so that it reads nothing outside the cache.
  w.seq_k = max(0, min(seq_k, room));
  decode_split_range<BlockN>(p, w);
  return w;
}

/// A CTA's coordinates from its index, and its split's keys as if the sequence were max_seq_k
/// keys long (decode_split_keys sets the real ones).
template <int BlockN>
__device__ __forceinline__ DecodeWork decode_work(DecodeParams const& p, std::uint32_t cta) {
  DecodeWork w;
  std::uint32_t rest = 0, m_block = 0, split = 0, batch = 0, kv_head = 0;
  // The splits are the fastest index: a cluster's CTAs (combine_in_cluster) are consecutive.
  p.splits_div.divmod(cta, rest, split);
  p.m_blocks_div.divmod(rest, rest, m_block);
  p.heads_kv_div.divmod(rest, batch, kv_head);
  w.batch = std::int32_t(batch);
  w.kv_head = std::int32_t(kv_head);
  w.m_block = std::int32_t(m_block);
  w.split = std::int32_t(split);
  w.seq_k = p.max_seq_k;  // checked on the host: max_seq_k fits the cache
  decode_split_range<BlockN>(p, w);
  return w;
}

/// Sequence `batch`'s key length as loaded (0 without seqlens_k: decode_split_keys takes max_seq_k
/// then, and checks it; selected there, a load in flight is not waited on before the barriers).
__device__ __forceinline__ std::int32_t decode_seq_k(DecodeParams const& p, std::int32_t batch) {
  std::int32_t len = 0;
  if (p.seqlens_k != nullptr) len = p.seqlens_k[batch];
  return len;
}

/// A split's page-table entries in its producer warp's registers: each lane holds one entry of the
/// 32-slot window in use and one of the next, loaded a window ahead so that no block waits on the
/// table; a box's page is one shuffle away. Windows are walked from the split's first slot up, as
/// the blocks are. (Two shared windows filled by cp.async, read with one shared load per box, cost
/// a load's latency per box: pages of 16 keys streamed at half a device copy's rate.)
struct PageWindow {
  std::int32_t const* row = nullptr;  ///< the sequence's table row
  std::int32_t first = 0, slots = 0;  ///< the split's first slot; the row's length
  std::int32_t window = 0;            ///< the window in `current`: slots first + 32 window ..
  std::int32_t lane = 0;
  std::int32_t current = 0, next = 0;

  [[nodiscard]] __device__ __forceinline__ std::int32_t load(std::int32_t w) const {
    std::int32_t const slot = first + 32 * w + lane;
    return slot < slots ? __ldg(row + slot) : 0;
  }
  /// Starts the first two windows' loads.
  __device__ __forceinline__ PageWindow(std::int32_t const* table_row, std::int32_t first_slot,
                                        std::int32_t row_slots, std::uint32_t lane_index)
      : row(table_row), first(first_slot), slots(row_slots), lane(std::int32_t(lane_index)) {
    if (row == nullptr) return;
    current = load(0);
    next = load(1);
  }
  /// The page of this lane's `slot`, in the window of `block_slot` (the block's first slot, the
  /// same in every lane, which all call this; a block's slots lie in one window).
  __device__ __forceinline__ std::int32_t page(std::int32_t block_slot, std::int32_t slot) {
    std::int32_t const w = (block_slot - first) / 32;
    if (w != window) {
      current = w == window + 1 ? next : load(w);
      next = load(w + 1);
      window = w;
    }
    return __shfl_sync(~0u, current, (slot - first) % 32);
  }
};

/// The page-table slot of `w`'s split's first key.
template <int BlockN>
__device__ __forceinline__ std::int32_t decode_first_slot(DecodeParams const& p, DecodeWork const& w) {
  return std::int32_t(p.page_div.divide(std::uint32_t(w.n_begin * BlockN)));
}

/// The page-table window of `w`'s split (its first slot's), started loading by `lane`.
template <int BlockN>
__device__ __forceinline__ PageWindow decode_page_window(DecodeParams const& p, DecodeWork const& w,
                                                         std::uint32_t lane) {
  if (!p.paged()) return PageWindow(nullptr, 0, 0, lane);
  return PageWindow(p.block_table + w.batch * p.max_pages_per_seq, decode_first_slot<BlockN>(p, w),
                    p.max_pages_per_seq, lane);
}

/// A producer warp: per key block, `Chunks` box_cols-column chunks of the block's keys (K's
/// or V's) into its pipeline's stage, as box_rows-key boxes. Lane j finds box j (its page by one
/// shuffle of the table's window, PageWindow) and issues its loads once lane 0 has acquired the
/// stage. Boxes past the sequence's end read its last box again (their keys are masked and their V
/// rows zeroed), so a table entry past the sequence is never used.
template <class Plan, class Pipeline, int Chunks>
__device__ __forceinline__ void decode_producer(typename Pipeline::SharedStorage* barriers,
                                                typename Plan::KvElement* stage0, int stage_elems,
                                                typename Plan::MapKV const& map, DecodeParams const& p,
                                                DecodeWork const& w, PageWindow pages) {
  constexpr int BN = Plan::block_n, R = Plan::box_rows, BC = Plan::box_cols, Boxes = Plan::boxes_per_tile;
  static_assert(Boxes <= 32, "cute-cpp [attention.decode-tile]: a block's boxes are one a lane");
  Pipeline const pipe{barriers};
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto const lane = std::uint32_t(threadIdx.x % 32);
  std::int32_t const box = std::int32_t(lane) % Boxes;  // lanes past the boxes shadow one
  // A block's keys lie in one window: 32 slots hold 512 keys or more, a multiple of any block_n.
  static_assert(32 * 16 % BN == 0, "cute-cpp [attention.decode-tile]: a key block within one page-table window");
  // `pages` was started for a guess at the split's keys: loaded again where it was wrong.
  if (p.paged() && decode_first_slot<BN>(p, w) != pages.first)
    pages = decode_page_window<BN>(p, w, lane);
  // Programmatic dependent launch: the table's first windows are on their way; the keys are the
  // predecessors' writes (the append).
  arch::griddepcontrol_wait();
  std::int32_t const last_key = w.seq_k - 1;
  for (std::int32_t n = w.n_begin; n < w.n_end; ++n) {
    // Where this lane's box lies: (row, outer) of the cache's (dim, row, head, outer) map.
    std::int32_t row = n * BN + box * R, outer = w.batch;
    if (p.paged()) {
      std::uint32_t slot = 0, in_page = 0;
      p.page_div.divmod(std::uint32_t(min(row, last_key)), slot, in_page);
      std::int32_t const page =
          pages.page(std::int32_t(p.page_div.divide(std::uint32_t(n * BN))), std::int32_t(slot));
#if !defined(NDEBUG)
      if (std::int32_t(lane) < Boxes && (page < 0 || page >= p.num_pages)) {
        printf("cute-cpp [attention.block-table]: sequence %d: page %d of %d at slot %u\n", w.batch, page,
               p.num_pages, slot);
        __trap();
      }
#endif
      row = std::int32_t(in_page) / R * R;
      outer = max(0, min(page, p.num_pages - 1));
    }
    if (lane == 0) {
      pipe.producer_acquire(state);
      pipe.producer_expect_tx(state);
    }
    __syncwarp();
    if (std::int32_t(lane) < Boxes) {
#pragma unroll
      for (int c = 0; c < Chunks; ++c)
        TmaCopy::load(map, stage0 + state.index() * stage_elems + (c * BN + box * R) * BC,
                      pipe.producer_get_barrier(state), BC * c, row, w.kv_head, outer);
    }
    state.advance();
    __syncwarp();
  }
}

/// The query row `row` (0 .. rows) of a kv head's block: its token and q head.
struct DecodeRow {
  std::int32_t token, head;
};
__device__ __forceinline__ DecodeRow decode_row(DecodeParams const& p, DecodeWork const& w, std::int32_t row) {
  return {row / p.group, w.kv_head * p.group + row % p.group};
}

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

/// The consumer warpgroup of a 16-bit cache (see the file comment).
template <class Plan>
__device__ __forceinline__ void decode_consumer(typename Plan::SharedStorage& smem, DecodeParams const& p,
                                                DecodeWork const& w) {
  static_assert(Plan::consumer_warpgroups == 1, "cute-cpp [attention.head-dim]: two warpgroups take the seesaw");
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::value_cols>;
  constexpr int BN = Plan::block_n;
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
    auto const issue_s = [&] {
      pipe_k.consumer_wait(k_state);
      MmaS::warpgroup_arrive(s);
#pragma unroll
      for (int c = 0; c < Plan::qk_chunks; ++c)
        MmaS::gemm(s, smem.q + c * Plan::block_m * 64, smem.k_stage(k_state.index()) + c * BN * 64, 0, c > 0);
      MmaS::commit_group();
    };
    // In the last block, where it reaches past the sequence, V's rows there are zeroed first (they
    // may be anything; 0 x NaN is NaN).
    auto const issue_pv = [&](bool last) {
      pipe_v.consumer_wait(v_state);
      if (last && w.n_end * BN > w.seq_k) {
        zero_value_rows_from<T, Plan::head_dim_v, BN>(smem.v_stage(v_state.index()), w.seq_k - (w.n_end - 1) * BN,
                                                      thread, 128);
        arch::fence_view_async_shared();
        Plan::ConsumersBarrier::sync();
      }
      MmaO::warpgroup_arrive(o, pa);
      MmaO::gemm(o, pa, smem.v_stage(v_state.index()));
      MmaO::commit_group();
    };
    // K is released after the softmax, as in fmha_sm90.cuh (ptxas hoists P V's wait up to the
    // release's arrive).
    auto const softmax_of_s = [&](std::int32_t n) {
      band.template apply<BN>(s, n, slice);
      float2 const correction = softmax.scores(s, scale_log2);
      // V in K: the stage is released with V's (after O += P V).
      if constexpr (!Plan::v_in_k) pipe_k.consumer_release(k_state, lane);
      k_state.advance();
      return correction;
    };
    auto const release_v = [&] {
      pipe_v.consumer_release(v_state, lane);
      v_state.advance();
    };
    std::int32_t n = w.n_begin;
    issue_s();
    MmaS::template wait_group<0>(s);
    float2 correction = softmax_of_s(n);  // O is still 0: its rescale changes nothing
    pa = MmaO::make_a_fragment(s);
    for (++n; n < w.n_end; ++n) {
      issue_s();
      softmax.rescale(o, correction);
      issue_pv(false);
      MmaS::template wait_group<1>(s);
      correction = softmax_of_s(n);
      MmaO::template wait_group<0>(o, pa);
      release_v();
      pa = MmaO::make_a_fragment(s);
    }
    softmax.rescale(o, correction);
    issue_pv(true);
    MmaO::template wait_group<0>(o, pa);
    release_v();
  }
  float lse[2];
  softmax.finish(o, scale_log2, lse);
  if (p.v_scale != nullptr) Softmax::rescale(o, make_float2(v_scale, v_scale));
  decode_store<Plan>(o, lse, p, w);
}

}  // namespace cute_cpp::kernels

// The e4m3 cache's consumer and MLA's two: they share this file's work split, query rows, producers
// and (MLA's) band and epilogue.
#include <cute_cpp/kernels/attention/decode/decode_fp8_consumer.cuh>
#include <cute_cpp/kernels/attention/decode/decode_mla_consumer.cuh>

namespace cute_cpp::kernels {

/// The most splits a launch may have (the combine keeps one weight per split in shared memory).
inline constexpr int max_decode_splits = 128;
/// The most splits combined within their cluster (a portable size; clusters of 16 measured slower).
inline constexpr int max_cluster_splits = 8;

/// One query row's combination over the splits, by one warp: the lanes read the splits' LSEs
/// together and turn them into weights exp(LSE - max) / sum; then each lane sums HeadDimV / 32
/// columns over the splits. The partials are other CTAs' writes: read from L2 (ld.cg). Held > 0
/// (at most Held splits, one a lane): every split's O is loaded beside the LSEs, before the
/// weights are known, and a split's weight is a shuffle from its lane (one L2 round trip, not
/// two); otherwise the weights go through `weights` (MaxSplits floats of the warp's shared
/// memory) and the O loads follow them, several splits in flight at once.
template <class T, int HeadDimV, int MaxSplits, int Held = 0>
__device__ __forceinline__ void decode_combine_row(DecodeParams const& p, std::int64_t q_row, int lane,
                                                   float* weights) {
  constexpr int per_lane = HeadDimV / 32, lse_per_lane = MaxSplits / 32;
  static_assert(Held <= 32 && (Held == 0 || lse_per_lane == 1),
                "cute-cpp [attention.splits]: held splits are one a lane");
  std::int64_t const rows = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
  float const* const part0 = p.partial_o + q_row * HeadDimV + lane * per_lane;
  float2 held[Held > 0 ? Held : 1][per_lane / 2];
#pragma unroll
  for (int split = 0; split < Held; ++split)
    if (split < p.splits) {
#pragma unroll
      for (int i = 0; i < per_lane; i += 2)
        held[split][i / 2] = __ldcg(reinterpret_cast<float2 const*>(part0 + split * rows * HeadDimV + i));
    }
  float lse[lse_per_lane];
  float max_lse = -INFINITY;
#pragma unroll
  for (int i = 0; i < lse_per_lane; ++i) {
    int const split = lane + 32 * i;
    lse[i] = split < p.splits ? __ldcg(p.partial_lse + split * rows + q_row) : -INFINITY;
    max_lse = fmaxf(max_lse, lse[i]);
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) max_lse = fmaxf(max_lse, arch::shuffle_sync_bfly(max_lse, offset));
  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < lse_per_lane; ++i) {
    // A split that saw no key has LSE -inf and weight 0 (its O is 0); so has every split when no
    // split saw one.
    lse[i] = lse[i] == -INFINITY ? 0.0f : expf(lse[i] - max_lse);
    total += lse[i];
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) total += arch::shuffle_sync_bfly(total, offset);
  float const inverse = total > 0.0f ? 1.0f / total : 0.0f;
  float acc[per_lane] = {};
  if constexpr (Held > 0) {
#pragma unroll
    for (int split = 0; split < Held; ++split) {
      float const weight = __shfl_sync(~0u, lse[0] * inverse, split);
      if (split < p.splits) {
#pragma unroll
        for (int i = 0; i < per_lane; i += 2) {
          acc[i] += weight * held[split][i / 2].x;
          acc[i + 1] += weight * held[split][i / 2].y;
        }
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < lse_per_lane; ++i) weights[lane + 32 * i] = lse[i] * inverse;
    __syncwarp();
    float const* part = part0;
#pragma unroll 4
    for (int split = 0; split < p.splits; ++split, part += rows * HeadDimV) {
      float const weight = weights[split];
#pragma unroll
      for (int i = 0; i < per_lane; i += 2) {
        float2 const v = __ldcg(reinterpret_cast<float2 const*>(part + i));
        acc[i] += weight * v.x;
        acc[i + 1] += weight * v.y;
      }
    }
    __syncwarp();  // the weights are read before the warp's next row writes them
  }
  std::int32_t const head = std::int32_t(q_row % p.heads_q), token = std::int32_t(q_row / p.heads_q % p.q_tokens);
  std::int32_t const batch = std::int32_t(q_row / (std::int64_t(p.heads_q) * p.q_tokens));
  T* const out = static_cast<T*>(p.o) + batch * p.o_batch_stride + token * p.o_seq_stride + head * p.o_head_stride +
                 lane * per_lane;
#pragma unroll
  for (int i = 0; i < per_lane; i += 2) {
    T pair[2] = {T(acc[i]), T(acc[i + 1])};
    *reinterpret_cast<std::uint32_t*>(out + i) = *reinterpret_cast<std::uint32_t const*>(pair);
  }
  if (p.lse != nullptr && lane == 0) p.lse[q_row] = total > 0.0f ? max_lse + logf(total) : -INFINITY;
}

/// The splits' combination as a kernel of its own (more splits than a cluster holds): one warp
/// per query row.
template <class T, int HeadDimV>
__global__ void __launch_bounds__(128) decode_combine_kernel(DecodeParams const p) {
  __shared__ float weights[4][max_decode_splits];
  // Launched as a programmatic dependent of the decode kernel: its launch overlaps that kernel's
  // run, and this waits here until the partials are written.
  arch::griddepcontrol_wait();
  std::int64_t const rows = std::int64_t(p.batch) * p.q_tokens * p.heads_q;
  int const warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  std::int64_t const q_row = std::int64_t(blockIdx.x) * 4 + warp;
  if (q_row >= rows) return;
  decode_combine_row<T, HeadDimV, max_decode_splits>(p, q_row, lane, weights[warp]);
}

/// The splits' combination within their cluster (combine_in_cluster), once every split's partial
/// is written (the cluster barrier, release and acquire): the cluster's consumer warps share the
/// block's query rows, a warp a row.
template <class Plan>
__device__ __forceinline__ void decode_combine_in_cluster(DecodeParams const& p, DecodeWork const& w) {
  constexpr int warps = Plan::consumer_threads / 32;
  int const warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  std::int32_t const first = w.m_block * Plan::block_m;
  std::int32_t const rows = min(Plan::block_m, p.rows - first);
  for (std::int32_t r = w.split * warps + warp; r < rows; r += p.splits * warps) {
    DecodeRow const d = decode_row(p, w, first + r);
    std::int64_t const q_row = (std::int64_t(w.batch) * p.q_tokens + d.token) * p.heads_q + d.head;
    decode_combine_row<typename Plan::Element, Plan::head_dim_v, 32, max_cluster_splits>(p, q_row, lane, nullptr);
  }
}

/// The decode kernel: one CTA per (sequence, kv head, query-row block, split).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, Plan::ctas_per_sm)
decode_kernel(const __grid_constant__ typename Plan::MapKV map_k, const __grid_constant__ typename Plan::MapKV map_v,
              DecodeParams const p) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  // The length loads while the barriers are set up; beside it, each producer warp's page-table
  // window for the split of a max_seq_k-long sequence (a batch's longest, where the time goes),
  // loaded again once the length shows it wrong. Both are used past the barrier only, so that
  // neither load is waited on before it.
  DecodeWork const guess = decode_work<Plan::block_n>(p, blockIdx.x);
  std::int32_t const seq_k = decode_seq_k(p, guess.batch);
  bool const producer = threadIdx.x >= Plan::producer_thread0 &&
                        threadIdx.x < Plan::producer_thread0 + 32 * Plan::producer_warps;
  PageWindow const pages = producer ? decode_page_window<Plan::block_n>(p, guess, threadIdx.x % 32)
                                    : PageWindow(nullptr, 0, 0, 0);
  // The combine kernel (splits beyond a cluster) may launch now: it waits for this grid's writes.
  arch::griddepcontrol_launch_dependents();
  if (threadIdx.x == 0) {
    Plan::PipelineK::init(smem.k_barriers);
    if constexpr (!Plan::v_in_k) Plan::PipelineV::init(smem.v_barriers);
  }
  if (threadIdx.x == Plan::producer_thread0) {
    TmaCopy::prefetch_descriptor(map_k);
    if constexpr (!Plan::v_in_k) TmaCopy::prefetch_descriptor(map_v);
  }
  __syncthreads();
  DecodeWork const w = decode_split_keys<Plan::block_n>(p, guess, seq_k);
  // Programmatic dependent launch (a no-op for a plain launch): the keys just appended and the
  // queries are the predecessors' writes, so each role waits for them before its loads (the
  // producers once their page-table reads are under way; lengths and tables come from the host).
  // Two producer warps, K's and V's: each issues half the boxes (with small pages, one warp's
  // issue rate is what limits the stream); V in K: one, K's.
  if (threadIdx.x >= Plan::producer_thread0) {
    if constexpr (Plan::producer_warpgroup) arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    int const warp = int(threadIdx.x - Plan::producer_thread0) / 32;
    if (warp == 0) {
      decode_producer<Plan, typename Plan::PipelineK, Plan::head_dim / Plan::box_cols>(
          &smem.k_barriers, smem.k_stage(0), Plan::block_n * Plan::head_dim, map_k, p, w, pages);
    } else if constexpr (!Plan::v_in_k) {
      if (warp == 1)
        decode_producer<Plan, typename Plan::PipelineV, Plan::head_dim_v / Plan::box_cols>(
            &smem.v_barriers, smem.v_stage(0), Plan::block_n * Plan::head_dim_v, map_v, p, w, pages);
    }
    // Every thread of the cluster meets at its barrier (the producers' part is done).
    if (p.combine_in_cluster) arch::cluster_sync();
    return;
  }
  if constexpr (Plan::producer_warpgroup) arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  arch::griddepcontrol_wait();
  if constexpr (Plan::kv_fp8) decode_fp8_consumer<Plan>(smem, p, w);
  else if constexpr (Plan::seesaw) decode_mla_consumer<Plan>(smem, p, w);
  else decode_consumer<Plan>(smem, p, w);
  if (p.combine_in_cluster) {
    arch::cluster_sync();  // release: this split's partials; acquire: the others'
    decode_combine_in_cluster<Plan>(p, w);
  }
}

namespace detail {

inline int sm_count() {
  int device = 0, sms = 0;
  host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  host::cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return sms;
}

/// The split count (flash-decoding's rule): the CTAs of a launch run in waves over the SMs' slots,
/// and a last wave that is mostly empty wastes its share of the time. Of the split counts that keep
/// every split at least two key blocks, the smallest whose waves are within 5% of the best filled.
template <int BlockM, int BlockN, int CtasPerSm, class T, class KV>
int choose_splits(DecodeArguments<T, KV> const& a) {
  if (a.num_splits > 0) return a.num_splits;
  std::int64_t const m_blocks = (std::int64_t(a.heads_q / std::max(a.heads_kv, 1)) * a.q_tokens + BlockM - 1) / BlockM;
  std::int64_t const ctas = std::int64_t(a.batch) * a.heads_kv * m_blocks;
  std::int64_t const slots = std::int64_t(sm_count()) * CtasPerSm;
  std::int64_t const blocks = (std::int64_t(a.max_seq_k) + BlockN - 1) / BlockN;
  std::int64_t const most = std::max<std::int64_t>(1, std::min<std::int64_t>(blocks / 2, max_decode_splits));
  auto const filled = [&](std::int64_t splits) {  // the waves' mean occupancy
    std::int64_t const n = ctas * splits;
    return double(n) / double((n + slots - 1) / slots * slots);
  };
  double best = 0;
  for (std::int64_t s = 1; s <= most; ++s) best = std::max(best, filled(s));
  std::int64_t chosen = 1;
  for (std::int64_t s = most; s >= 1; --s)
    if (filled(s) >= 0.95 * best) chosen = s;
  // A short sequence in a small launch (B1 KV4k: 16 splits of two blocks) is bound by each CTA's
  // start and the combine, not by bandwidth: as many splits as combine within one cluster.
  if (chosen > max_cluster_splits && blocks <= 8 * max_cluster_splits) chosen = max_cluster_splits;
  return int(chosen);
}

template <class Plan, class T, class KV>
std::size_t workspace_bytes(DecodeArguments<T, KV> const& a, int splits) {
  if (splits <= 1) return 0;
  std::size_t const rows = std::size_t(a.batch) * a.q_tokens * a.heads_q;
  return std::size_t(splits) * rows * (Plan::head_dim_v + 1) * sizeof(float);
}

/// Every check of the arguments that needs no plan but the key tile.
template <class T, class KV>
void check_decode(DecodeArguments<T, KV> const& a, cudaStream_t stream) {
  using host::argument_error;
  if (a.q == nullptr || a.k == nullptr || a.v == nullptr || a.o == nullptr)
    argument_error("attention.pointers", "q, k, v and o must be device pointers (one is null)");
  // The optional tables stand in as q when absent.
  void const* const seqlens = a.seqlens_k != nullptr ? static_cast<void const*>(a.seqlens_k) : a.q;
  void const* const table = a.block_table != nullptr ? static_cast<void const*>(a.block_table) : a.q;
  host::PointerArgument const pointers[] = {
      {"q", a.q}, {"k", a.k}, {"v", a.v}, {"o", a.o}, {"seqlens_k", seqlens}, {"block_table", table}};
  host::check_device_pointers("attention", pointers, stream);
  if (a.batch < 1 || a.heads_q < 1 || a.heads_kv < 1 || a.max_seq_k < 1)
    argument_error("attention.shape", "batch, heads and max_seq_k must be at least 1 (got batch " +
                                          std::to_string(a.batch) + ", heads " + std::to_string(a.heads_q) + "/" +
                                          std::to_string(a.heads_kv) + ", max_seq_k " + std::to_string(a.max_seq_k) +
                                          ")");
  if (a.q_tokens < 1 || a.q_tokens > 8)
    argument_error("attention.q-tokens", "decode takes 1 to 8 query tokens per sequence (got " +
                                             std::to_string(a.q_tokens) + "); longer ones are prefill (fmha_sm90)");
  if (a.heads_q % a.heads_kv != 0)
    argument_error("attention.gqa", "kv heads must divide q heads (got " + std::to_string(a.heads_q) + " q heads, " +
                                        std::to_string(a.heads_kv) + " kv heads)");
  bool const paged = a.block_table != nullptr;
  if (paged) {
    if (a.seqlens_k == nullptr) argument_error("attention.block-table", "a paged cache takes seqlens_k");
    if (a.page_size < 16 || a.page_size % 16 != 0)
      argument_error("attention.page-size", "the page size (" + std::to_string(a.page_size) +
                                                ") must be a positive multiple of 16 keys");
    if (a.max_pages_per_seq < 1 || a.num_pages < 1)
      argument_error("attention.block-table", "max_pages_per_seq and num_pages must be at least 1");
  }
  std::int64_t const room = paged ? std::int64_t(a.max_pages_per_seq) * a.page_size : a.max_seq_k;
  if (a.max_seq_k > room || room >= (std::int64_t{1} << 31))
    argument_error("attention.block-table", "max_seq_k (" + std::to_string(a.max_seq_k) + ") must fit the table's " +
                                                std::to_string(a.max_pages_per_seq) + " pages of " +
                                                std::to_string(a.page_size) + " keys (below 2^31)");
  cute_cpp::detail::check_page_table(a.seqlens_k_host, paged ? a.block_table_host : nullptr, a.batch,
                                     a.max_pages_per_seq, paged ? a.page_size : 0, a.num_pages, room);
}

}  // namespace detail

template <class Plan>
int decode_splits_for(DecodeArguments<typename Plan::Element, typename Plan::KvElement> const& a) {
  return detail::choose_splits<Plan::block_m, Plan::block_n, Plan::ctas_per_sm>(a);
}

/// Runs decode attention with Plan (its head dims must be the arguments').
template <class Plan>
void run_decode(DecodeArguments<typename Plan::Element, typename Plan::KvElement> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  using KV = typename Plan::KvElement;
  using host::argument_error;
  if (a.head_dim != Plan::head_dim || a.head_dim_v != Plan::head_dim_v)
    argument_error("attention.head-dim", "the plan is for head dims (" + std::to_string(Plan::head_dim) + ", " +
                                             std::to_string(Plan::head_dim_v) + "), the arguments have (" +
                                             std::to_string(a.head_dim) + ", " + std::to_string(a.head_dim_v) + ")");
  detail::check_decode(a, stream);
  host::check_stream("attention", stream);
  if (a.block_table != nullptr && a.page_size % Plan::box_rows != 0)
    argument_error("attention.page-size", "the plan loads boxes of " + std::to_string(Plan::box_rows) +
                                              " keys; the page size (" + std::to_string(a.page_size) +
                                              ") must be a multiple");
  int const splits = decode_splits_for<Plan>(a);
  if (splits > max_decode_splits)
    argument_error("attention.splits", "at most " + std::to_string(max_decode_splits) + " splits (got " +
                                           std::to_string(splits) + ")");
  std::size_t const workspace = detail::workspace_bytes<Plan>(a, splits);
  if (workspace > 0 && (a.workspace == nullptr || a.workspace_bytes < workspace))
    argument_error("attention.workspace", std::to_string(splits) + " splits need a workspace of " +
                                              std::to_string(workspace) + " bytes (got " +
                                              std::to_string(a.workspace_bytes) + "; see decode_workspace_bytes)");
  bool const paged = a.block_table != nullptr;
  std::int64_t const k_rows = paged ? a.page_size : a.max_seq_k;
  int const k_outer = paged ? a.num_pages : a.batch;
  auto const qs = cute_cpp::detail::attention_strides(a.q_stride, "q", Plan::head_dim, a.heads_q, a.q_tokens);
  auto const ks = cute_cpp::detail::attention_strides(a.k_stride, "k", Plan::head_dim, a.heads_kv, k_rows);
  if constexpr (Plan::v_in_k) {
    if (a.v != a.k || !(a.v_stride == a.k_stride || a.v_stride == AttentionStrides{}))
      argument_error("attention.mla-value", "the plan reads V as the first " + std::to_string(Plan::head_dim_v) +
                                                " columns of K (MLA's latent cache): v must be k, with k's strides "
                                                "or none");
  }
  auto const vs = Plan::v_in_k ? ks
                               : cute_cpp::detail::attention_strides(a.v_stride, "v", Plan::head_dim_v, a.heads_kv,
                                                                     k_rows);
  auto const os = cute_cpp::detail::attention_strides(a.o_stride, "o", Plan::head_dim_v, a.heads_q, a.q_tokens);
  if ((qs.batch | qs.seq | qs.head) % 8 != 0 || reinterpret_cast<std::uintptr_t>(a.q) % 16 != 0)
    argument_error("attention.strides", "q's address must be 16-byte aligned and its strides multiples of 8 "
                                        "(rows are read 16 bytes at a time)");
  if ((os.batch | os.seq | os.head) % 2 != 0 || reinterpret_cast<std::uintptr_t>(a.o) % 4 != 0)
    argument_error("attention.strides", "o's strides must be even (pairs of outputs are stored together)");
  using cute_cpp::detail::attention_map;
  auto const map_k = attention_map<KV, typename Plan::Box>(a.k, Plan::head_dim, k_rows, a.heads_kv, k_outer, ks);
  auto const map_v = attention_map<KV, typename Plan::Box>(a.v, Plan::head_dim_v, k_rows, a.heads_kv, k_outer, vs);

  DecodeParams p;
  p.batch = a.batch;
  p.q_tokens = a.q_tokens;
  p.heads_q = a.heads_q;
  p.heads_kv = a.heads_kv;
  p.group = a.heads_q / a.heads_kv;
  p.rows = p.group * a.q_tokens;
  p.m_blocks = (p.rows + Plan::block_m - 1) / Plan::block_m;
  p.splits = splits;
  p.m_blocks_div = FastDivmod(std::uint32_t(p.m_blocks));
  p.splits_div = FastDivmod(std::uint32_t(splits));
  p.heads_kv_div = FastDivmod(std::uint32_t(a.heads_kv));
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, Plan::head_dim);
  p.causal = a.causal;
  p.q = a.q;
  p.q_batch_stride = qs.batch;
  p.q_seq_stride = qs.seq;
  p.q_head_stride = qs.head;
  p.o = a.o;
  p.o_batch_stride = os.batch;
  p.o_seq_stride = os.seq;
  p.o_head_stride = os.head;
  p.lse = a.lse;
  p.k_scale = a.k_scale;
  p.v_scale = a.v_scale;
  std::int64_t const rows = std::int64_t(a.batch) * a.q_tokens * a.heads_q;
  if (splits > 1) {
    p.partial_o = static_cast<float*>(a.workspace);
    p.partial_lse = p.partial_o + std::int64_t(splits) * rows * Plan::head_dim_v;
  }
  p.seqlens_k = a.seqlens_k;
  p.max_seq_k = a.max_seq_k;
  if (paged) {
    p.block_table = a.block_table;
    p.max_pages_per_seq = a.max_pages_per_seq;
    p.num_pages = a.num_pages;
    p.page_div = FastDivmod(std::uint32_t(a.page_size));
  }
  std::int64_t const ctas = std::int64_t(a.batch) * a.heads_kv * p.m_blocks * splits;
  if (ctas >= (std::int64_t{1} << 31)) argument_error("attention.shape", "too many CTAs for one launch");
  host::LaunchConfig config;
  config.grid = dim3(unsigned(ctas));
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  // Up to max_cluster_splits splits combine in their cluster (no second kernel, no wait for the
  // whole grid), where a cluster of them can be resident (it cannot under some MIG slices).
  if (splits > 1 && splits <= max_cluster_splits) {
    host::LaunchConfig clustered = config;
    clustered.cluster = dim3(unsigned(splits));
    if (host::resident_clusters(&decode_kernel<Plan>, clustered) > 0) {
      config = clustered;
      p.combine_in_cluster = true;
    }
  }
  host::launch(&decode_kernel<Plan>, "decode_attention_sm90", config, map_k, map_v, p);
  if (splits > 1 && !p.combine_in_cluster) {
    host::LaunchConfig combine;
    combine.grid = dim3(unsigned((rows + 3) / 4));
    combine.block = dim3(128);
    combine.stream = stream;
    combine.programmatic_dependent_launch = true;
    host::launch(&decode_combine_kernel<T, Plan::head_dim_v>, "decode_attention_sm90 combine", combine, p);
  }
}

/// The plan run_decode_attention uses for `a`'s head dims, as a callable on it.
template <class T, class KV, class F>
decltype(auto) with_decode_plan(DecodeArguments<T, KV> const& a, F&& f) {
  using namespace decode_plans;
  bool const small_pages = a.block_table != nullptr && a.page_size % 64 != 0;
  if constexpr (!std::is_same_v<KV, T>) {
    if (a.head_dim == 128 && a.head_dim_v == 128) return small_pages ? f(Fp8D128Page16<T>{}) : f(Fp8D128<T>{});
    if (a.head_dim == 256 && a.head_dim_v == 256) return small_pages ? f(Fp8D256Page16<T>{}) : f(Fp8D256<T>{});
    host::argument_error("attention.head-dim", "no decode plan for an e4m3 cache of head dims (" +
                                                   std::to_string(a.head_dim) + ", " + std::to_string(a.head_dim_v) +
                                                   "): built are (128, 128) and (256, 256)");
  } else {
    if (a.head_dim == 64 && a.head_dim_v == 64) return small_pages ? f(D64Page16<T>{}) : f(D64<T>{});
    if (a.head_dim == 128 && a.head_dim_v == 128) return small_pages ? f(D128Page16<T>{}) : f(D128<T>{});
    if (a.head_dim == 256 && a.head_dim_v == 256) return small_pages ? f(D256Page16<T>{}) : f(D256<T>{});
    if (a.head_dim == 576 && a.head_dim_v == 512) return f(Mla<T>{});
    host::argument_error("attention.head-dim", "no decode plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                   std::to_string(a.head_dim_v) +
                                                   "): built are (64, 64), (128, 128), (256, 256) and MLA's (576, 512)");
  }
}

template <class T, class KV>
int decode_num_splits(DecodeArguments<T, KV> const& a) {
  return with_decode_plan(a, [&](auto plan) { return decode_splits_for<decltype(plan)>(a); });
}

template <class T, class KV>
std::size_t decode_workspace_bytes(DecodeArguments<T, KV> const& a) {
  return with_decode_plan(a, [&](auto plan) {
    using Plan = decltype(plan);
    return detail::workspace_bytes<Plan>(a, decode_splits_for<Plan>(a));
  });
}

template <class T, class KV>
void run_decode_attention(DecodeArguments<T, KV> const& a, cudaStream_t stream) {
  with_decode_plan(a, [&](auto plan) { run_decode<decltype(plan)>(a, stream); });
}

}  // namespace cute_cpp::kernels
