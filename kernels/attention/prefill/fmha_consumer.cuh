// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward's consumer warpgroups (fmha_sm90.cuh): per tile, the key blocks' S = Q Kᵀ,
// online softmax and O += P V in FlashAttention-3's overlap (FmhaConsumerSteps), then the epilogue
// that stores O and the LSE (fmha_consumer_epilogue).
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/arch/fence.hpp>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/attention/online_softmax.hpp>
#include <cute_cpp/attention/overlapped_key_blocks.hpp>
#include <cute_cpp/attention/value_rows.hpp>
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// A consumer warpgroup's release of a key block's K stage (and of Q after the tile's last block);
/// FmhaConsumerSteps refers to it.
/// NOTE: an object of its own that the steps refer to, as the softmax's lambda referred to this
/// one's: made a method of FmhaConsumerSteps, it renumbered the pipeline states' registers in the
/// PTX and the SASS changed (nvcc 13.0).
template <class Plan>
struct FmhaReleaseK {
  typename Plan::PipelineK const& pipe_k;
  PipelineState<Plan::stages>& k_state;
  std::uint32_t const& lane;
  FmhaTile const& t;
  typename Plan::PipelineQ const& pipe_q;
  PipelineState<Plan::q_stages>& q_state;
  // Block n's K is read: free it (and Q after the tile's last block).
  __device__ __forceinline__ void operator()(std::int32_t n) const {
    pipe_k.consumer_release(k_state, lane);
    k_state.advance();
    if (n == t.n_begin) {
      pipe_q.consumer_release(q_state, lane);
      q_state.advance();
    }
  }
};

/// A consumer warpgroup's steps over one tile's key blocks (see the file comment): S's issue,
/// P V's issue, the softmax of S, V's release, and the key blocks in order (key_blocks).
/// The FP8 forward's consumer (fmha_fp8_consumer.cuh) takes the same steps with its softmax (P
/// scaled for e4m3) and its tile's scale; Plan::pageable_kv says whether a paged cache can reach it.
/// NOTE: the members refer to fmha_consumer's locals, as the lambdas these steps were did, which
/// keeps the kernel's SASS as it was; an object holding such state by value changed the decode
/// consumers' SASS (decode_mla_consumer.cuh, nvcc 13.0).
template <class Plan, class Softmax_ = OnlineSoftmax<Plan::block_n, Plan::head_dim_v>>
struct FmhaConsumerSteps {
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = Softmax_;
  using Turns = typename Plan::IssueTurns;
  static constexpr int BM = Plan::block_m, BN = Plan::block_n;

  typename Plan::SharedStorage& smem;
  FmhaParams const& p;
  FmhaTile const& t;
  typename Plan::PipelineQ const& pipe_q;
  typename Plan::PipelineK const& pipe_k;
  typename Plan::PipelineV const& pipe_v;
  PipelineState<Plan::q_stages>& q_state;
  PipelineState<Plan::stages>& k_state;
  PipelineState<Plan::stages>& v_state;
  int const& wg;
  std::uint32_t const& lane;
  decltype(MmaS::get_slice(0)) const& slice;
  std::int32_t const (&band_lo)[2];
  std::int32_t const (&band_hi)[2];
  std::int32_t const& all_from;
  std::int32_t const& all_to;
  float const& scale_log2;  ///< the softmax's scale times log2 e (the FP8 forward's: times dq dk)
  Softmax& softmax;
  typename MmaO::FragmentC& o;
  typename MmaS::FragmentC& s;
  typename MmaO::FragmentA& pa;
  FmhaReleaseK<Plan> const& release_k;

  __device__ __forceinline__ void issue_s() const {
    pipe_k.consumer_wait(k_state);
    MmaS::warpgroup_arrive(s);
#pragma unroll
    for (int c = 0; c < Plan::qk_chunks; ++c)
      MmaS::gemm(s, smem.q.tile(q_state.index(), c), smem.k.tile(k_state.index(), c), 64 * wg, c > 0);
    MmaS::commit_group();
  }
  __device__ __forceinline__ void issue_pv(bool /*last_block*/) const {
    pipe_v.consumer_wait(v_state);
    MmaO::warpgroup_arrive(o, pa);
    MmaO::gemm(o, pa, smem.v.tile(v_state.index()));
    MmaO::commit_group();
  }
  // S's wgmmas are done: mask, softmax, then free K. NOTE: the release comes after the
  // softmax because ptxas hoists the next wgmma wait (P V's) up to the mbarrier arrive:
  // released first, the softmax ran after P V had finished instead of under it.
  __device__ __forceinline__ float2 softmax_of_s(std::int32_t n) const {
    std::int32_t const n0 = n * BN;
    if (n0 < all_from || n0 + BN > all_to) {
      // Value jj's column is a constant from the thread's first one.
#pragma unroll
      for (int jj = 0; jj < BN / 2; ++jj) {
        int const col = n0 + slice.col(jj) - slice.col(0), h = Softmax::half(jj);
        if (col < band_lo[h] || col >= band_hi[h]) s(jj, 0) = -INFINITY;
      }
    }
    float2 const correction = softmax.scores(s, scale_log2);
    release_k(n);
    return correction;
  }
  __device__ __forceinline__ void release_v() const {
    pipe_v.consumer_release(v_state, lane);
    v_state.advance();
  }

  /// The tile's key blocks, last first; those from own_end on hold no key this warpgroup's rows
  /// see (fmha_consumer).
  __device__ __forceinline__ void key_blocks(std::int32_t own_end) const {
    pipe_q.consumer_wait(q_state);
    std::int32_t n = t.n_end - 1;
    if constexpr (Plan::pageable_kv) {
      if (p.paged() && t.n_end * BN > t.seq_k) {
        // The last block reaches past the sequence into its page's unused slots, whose P is 0 but
        // whose V may be anything (0 x NaN is NaN): every consumer zeroes a share of those rows
        // before any reads them.
        pipe_v.consumer_wait(v_state);
        zero_value_rows_from<T, Plan::head_dim_v, BN>(smem.v.tile(v_state.index()), t.seq_k - n * BN,
                                                        int(threadIdx.x) - 128, 128 * Plan::consumer_warpgroups);
        arch::fence_view_async_shared();
        Plan::ConsumersBarrier::template barrier<0>::sync();
      }
    }
    // The blocks this warpgroup's rows see nothing of: no GEMM, no softmax (P would be 0); their
    // stages released once landed (a release ahead of the load would count towards the stage's
    // next phase), and the turns taken, each warpgroup as many per tile as the others.
    for (; n >= own_end; --n) {
      Turns::wait(wg);
      Turns::pass(wg);
      pipe_k.consumer_wait(k_state);
      release_k(n);
      pipe_v.consumer_wait(v_state);
      release_v();
    }
    if (n < t.n_begin) {  // no key seen at all: the turn of the last block's O += P V
      Turns::wait(wg);
      Turns::pass(wg);
    } else {
      overlapped_key_blocks<-1, Turns>(*this, n, t.n_begin, wg);
    }
  }
};

/// A consumer warpgroup's epilogue of one tile: the LSE from the quad that owns each row, and O
/// (already divided by the row sums) through the TMA-store path, or from registers for a varlen
/// sequence's last slab. `chunks_stored` carries the output path's count across tiles.
/// NOTE: the tile's fields come by value, one by one: with the FmhaTile whole, the compiler
/// turned `row_lo < seq_q` around and the SASS changed; with references, more of it (nvcc 13.0).
template <class Plan>
__device__ __forceinline__ void fmha_consumer_epilogue(typename Plan::SharedStorage& smem,
                                                       typename Plan::MapO const& map_o, FmhaParams const& p,
                                                       std::int32_t head, std::int32_t batch, std::int32_t q_offset,
                                                       std::int32_t seq_q, int wg, int thread, std::int32_t row_lo,
                                                       typename Plan::MmaO::FragmentC& o, float const (&lse)[2],
                                                       std::uint32_t& chunks_stored) {
  using T = typename Plan::OutputElement;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  // NOTE: the store path and this thread's coordinates are derived anew per tile (from an
  // opaque thread index): derived once, they lived through the main loop and spilled.
  int const et = int(arch::recompute_from_here(std::uint32_t(thread)));
  auto const es = MmaS::get_slice(et);
  typename Plan::OutputStore output(smem.epilogue[wg], wg, et, chunks_stored);
  if (p.lse != nullptr && et % 4 == 0) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      std::int32_t const row = row_lo + es.row(0, 2 * h);
      if (row < seq_q)
        p.lse[head * p.lse_head_stride + batch * p.lse_batch_stride + q_offset + row] = lse[h];
    }
  }
  if (p.varlen() && row_lo + 63 >= seq_q) {
    // TMA would write past the sequence's end into the next one's rows: this slab goes out
    // from registers, row by row.
    T* const out = static_cast<T*>(p.o) + std::int64_t(head) * p.o_head_stride;
#pragma unroll
    for (int jj = 0; jj < Plan::head_dim_v / 2; jj += 2) {
      std::int32_t const row = row_lo + es.row(0, jj);
      if (row < seq_q) {
        T pair[2] = {T(o(jj, 0)), T(o(jj + 1, 0))};
        *reinterpret_cast<std::uint32_t*>(out + (q_offset + row) * p.o_seq_stride + es.col(jj)) =
            *reinterpret_cast<std::uint32_t const*>(pair);
      }
    }
  } else if (row_lo < seq_q) {
    output.template store<typename MmaO::Accumulator>(
        o, 0, epilogue::Identity{},
        {map_o, q_offset + row_lo, 0, std::int64_t(q_offset) + seq_q, Plan::head_dim_v, head,
         p.varlen() ? 0 : batch});
    chunks_stored = output.chunks_stored();
  }
}

/// A consumer warpgroup: its 64 rows of each tile (see the file comment).
template <class Plan>
__device__ __forceinline__ void fmha_consumer(typename Plan::SharedStorage& smem, typename Plan::MapO const& map_o,
                                              FmhaParams const& p, PersistentTileSchedulerParams const& tiles) {
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::head_dim_v>;
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
  std::uint32_t chunks_stored = 0;  // by this warpgroup's output path, across tiles
  using Turns = typename Plan::IssueTurns;
  Turns::start(wg);
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<BM, BN>(p, scheduler.linear_idx());
    if (!t.valid) continue;
    std::int32_t const row_lo = t.m_block * BM + 64 * wg;
    // The mask as few registers: the keys this thread's two rows see, from its first column, and
    // the keys every row of the warpgroup sees (blocks within them need no mask; the first keys
    // rise with the row, as do the last).
    std::int32_t band_lo[2], band_hi[2];
    auto const ts = MmaS::get_slice(int(arch::recompute_from_here(std::uint32_t(thread))));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      int2 const keys = t.visible_keys(p, row_lo + ts.row(0, 2 * h));
      band_lo[h] = keys.x - ts.col(0);
      band_hi[h] = keys.y - ts.col(0);
    }
    std::int32_t const all_from = t.visible_keys(p, row_lo + 63).x, all_to = t.visible_keys(p, row_lo).y;
    // The key blocks [own_end, n_end) hold no key any of this warpgroup's rows sees (the rows
    // past the sequence see none): under a causal mask, the last blocks of a tile of three
    // warpgroups are the lower ones' for nothing, and the rows of a tile past seq_q are all of it.
    // The last row sees the highest keys (a band's end rises with its row).
    std::int32_t own_end = t.n_begin;
    if (row_lo < t.seq_q) {
      std::int32_t const keys_to = t.visible_keys(p, min(row_lo + 63, t.seq_q - 1)).y;
      own_end = max(t.n_begin, min(t.n_end, (keys_to + BN - 1) / BN));
    }
    typename MmaO::FragmentC o;
    o.fill(0.0f);
    Softmax softmax;
    if (t.n_begin < t.n_end) {
      // Per key block (last first): S of this block and P V of the one before are issued
      // together, then this block's softmax runs while P V does (FlashAttention-3's intra-warpgroup
      // overlap); with two consumer warpgroups, their issues take turns, so one's softmax runs
      // while the other's GEMMs do.
      typename MmaS::FragmentC s;
      typename MmaO::FragmentA pa;
      FmhaReleaseK<Plan> const release_k{pipe_k, k_state, lane, t, pipe_q, q_state};
      FmhaConsumerSteps<Plan> const steps{smem,     p,        t,       pipe_q,  pipe_k,       pipe_v,  q_state,
                                          k_state,  v_state,  wg,      lane,    slice,        band_lo, band_hi,
                                          all_from, all_to,   p.scale_log2, softmax, o, s, pa, release_k};
      steps.key_blocks(own_end);
    }
    float lse[2];
    softmax.finish(o, p.scale_log2, lse);
    // NOTE: the tile again, rather than its fields held through the main loop (they spilled).
    FmhaTile const te = fmha_tile<BM, BN>(p, scheduler.linear_idx());

    // ---- epilogue ----
    fmha_consumer_epilogue<Plan>(smem, map_o, p, te.head, te.batch, te.q_offset, te.seq_q, wg, thread, row_lo, o, lse,
                                 chunks_stored);
  }
  typename Plan::OutputStore(smem.epilogue[wg], wg, thread, chunks_stored).drain();
}

}  // namespace cute_cpp::kernels
