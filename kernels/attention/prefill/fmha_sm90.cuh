// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper attention forward (sm_90a), persistent and warp-specialised. The kernel reads as its stages:
//   fmha_producer   warpgroup 0, one thread: per tile, loads Q once, then K and V of each key
//                   block into their own pipelines (so S = Q Kᵀ starts before V lands);
//   fmha_consumer   warpgroups 1.. , 64 Q rows each, per key block (last first, so the masked
//                   blocks come first and the rest run unmasked; FmhaConsumerSteps):
//     S = Q Kᵀ        wgmma SS over the head dim's 64-column chunks;
//     OnlineSoftmax   the mask, the running row maximum and sum in exp2 with the scale folded in,
//                     O rescaled; P converted to 16 bits in place as wgmma's A registers;
//     O += P V        wgmma RS;
//     epilogue        O / rowsum -> EpilogueTmaStore (the GEMM's TMA-store path), LSE
//                     (fmha_consumer_epilogue).
// Tiles (Q block, head, batch) come from StaticPersistentTileScheduler's walk, heads fastest (the q
// heads of one kv group run together and share K/V in L2) and, under a causal or window mask, the
// longest Q blocks first. Ragged edges: TMA fills zeros past each tensor's extent and the mask
// drops keys past seq_k; rows past seq_q are computed and not stored.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>

#include <cute_cpp/arch/fence.hpp>
#include <cute_cpp/arch/math.hpp>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/attention/online_softmax.hpp>
#include <cute_cpp/attention/value_rows.hpp>
#include <cute_cpp/arch/thread.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/target_check.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace cute_cpp::kernels {

/// One tile of attention work: a block of Q rows of one head of one sequence, and the key blocks
/// [n_begin, n_end) its mask lets it see. Producer and consumers derive it alike from the linear index.
struct FmhaTile {
  std::int32_t m_block = 0, head = 0, batch = 0;
  std::int32_t q_offset = 0, k_offset = 0;  ///< varlen: the sequence's first row in the packed tensors
  std::int32_t seq_q = 0, seq_k = 0;
  std::int32_t n_begin = 0, n_end = 0;
  bool valid = false;  ///< the Q block starts inside its sequence
  /// The keys [first, last) that query i sees (the causal / window band, within the sequence).
  CUTE_CPP_HD constexpr int2 visible_keys(FmhaParams const& p, std::int32_t i) const {
    std::int32_t const diagonal = i + seq_k - seq_q;
    std::int32_t const first = p.window_left >= 0 ? diagonal - p.window_left : 0;
    std::int32_t const last = p.window_right >= 0 ? min(seq_k, diagonal + p.window_right + 1) : seq_k;
    return {first, last};
  }
};

template <int BlockM, int BlockN>
__device__ __forceinline__ FmhaTile fmha_tile(FmhaParams const& p, std::int64_t linear) {
  FmhaTile t;
  AttentionTileCoord const c = p.order(std::uint32_t(linear));
  t.batch = c.batch;
  t.head = c.head;
  t.m_block = c.m_block;
  t.seq_q = p.seq_q;
  t.seq_k = p.seq_k;
  // Offsets and lengths from device arrays are clamped so that bad ones read nothing outside the
  // tensors (release builds); debug builds trap, naming them.
  [[maybe_unused]] auto const bad = [&](char const* what, std::int32_t lo, std::int32_t hi, std::int32_t of) {
#if !defined(NDEBUG)
    printf("cute-cpp [attention.cu-seqlens]: sequence %d: %s [%d, %d) of %d\n", t.batch, what, lo, hi, of);
    __trap();
#endif
  };
  if (p.varlen()) {
    std::int32_t const q0 = p.cu_seqlens_q[t.batch], q_end = p.cu_seqlens_q[t.batch + 1];
    if (q0 < 0 || q_end < q0 || q_end > p.total_q) bad("q offsets", q0, q_end, p.total_q);
    t.q_offset = max(0, min(q0, p.total_q));
    t.seq_q = max(0, min(q_end, p.total_q) - t.q_offset);
  }
  if (p.paged()) {
    std::int32_t const len = p.seqlens_k[t.batch], room = p.max_pages_per_seq * std::int32_t(p.page_div.divisor);
    if (len < 0 || len > room) bad("k length", 0, len, room);
    t.seq_k = max(0, min(len, room));
  } else if (p.cu_seqlens_k != nullptr) {
    std::int32_t const k0 = p.cu_seqlens_k[t.batch], k_end = p.cu_seqlens_k[t.batch + 1];
    if (k0 < 0 || k_end < k0 || k_end > p.total_k) bad("k offsets", k0, k_end, p.total_k);
    t.k_offset = max(0, min(k0, p.total_k));
    t.seq_k = max(0, min(k_end, p.total_k) - t.k_offset);
  }
  std::int32_t const m0 = t.m_block * BlockM;
  t.valid = m0 < t.seq_q;
  std::int32_t const last_row = min(m0 + BlockM, t.seq_q) - 1, shift = t.seq_k - t.seq_q;
  std::int32_t key_lo = 0, key_hi = t.seq_k;  // keys [key_lo, key_hi) any row of the block sees
  if (p.window_left >= 0) key_lo = max(0, m0 + shift - p.window_left);
  if (p.window_right >= 0) key_hi = min(key_hi, last_row + shift + p.window_right + 1);
  t.n_begin = key_lo / BlockN;
  t.n_end = key_hi > key_lo ? (key_hi + BlockN - 1) / BlockN : t.n_begin;
  return t;
}

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
      TmaCopy::load(map_q, smem.q[q_state.index()] + c * Plan::block_m * 64, pipe_q.producer_get_barrier(q_state),
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
        TmaCopy::load(map_k, smem.k[k_state.index()] + c * Plan::block_n * 64, pipe_k.producer_get_barrier(k_state),
                      64 * c, row, kv_head, outer);
      k_state.advance();
      pipe_v.producer_acquire(v_state);
      pipe_v.producer_expect_tx(v_state);
      TmaCopy::load(map_v, smem.v[v_state.index()], pipe_v.producer_get_barrier(v_state), 0, row, kv_head, outer);
      v_state.advance();
    }
  }
}

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
/// NOTE: the members refer to fmha_consumer's locals, as the lambdas these steps were did, which
/// keeps the kernel's SASS as it was; an object holding such state by value changed the decode
/// consumers' SASS (decode_mla_consumer.cuh, nvcc 13.0).
template <class Plan>
struct FmhaConsumerSteps {
  using T = typename Plan::Element;
  using MmaS = typename Plan::MmaS;
  using MmaO = typename Plan::MmaO;
  using Softmax = OnlineSoftmax<Plan::block_n, Plan::head_dim_v>;
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
      MmaS::gemm(s, smem.q[q_state.index()] + c * BM * 64, smem.k[k_state.index()] + c * BN * 64, 64 * wg, c > 0);
    MmaS::commit_group();
  }
  __device__ __forceinline__ void issue_pv() const {
    pipe_v.consumer_wait(v_state);
    MmaO::warpgroup_arrive(o, pa);
    MmaO::gemm(o, pa, smem.v[v_state.index()]);
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
    float2 const correction = softmax.scores(s, p.scale_log2);
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
    if (p.paged() && t.n_end * BN > t.seq_k) {
      // The last block reaches past the sequence into its page's unused slots, whose P is 0 but
      // whose V may be anything (0 x NaN is NaN): every consumer zeroes a share of those rows
      // before any reads them.
      pipe_v.consumer_wait(v_state);
      zero_value_rows_from<T, Plan::head_dim_v, BN>(smem.v[v_state.index()], t.seq_k - n * BN, int(threadIdx.x) - 128,
                                                      128 * Plan::consumer_warpgroups);
      arch::fence_view_async_shared();
      Plan::ConsumersBarrier::template barrier<0>::sync();
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
      Turns::wait(wg);
      issue_s();
      Turns::pass(wg);
      MmaS::template wait_group<0>(s);
      float2 correction = softmax_of_s(n);  // O is still 0: its rescale changes nothing
      pa = MmaO::make_a_fragment(s);
      for (--n; n >= t.n_begin; --n) {
        Turns::wait(wg);
        issue_s();
        // O's rescale for the previous block's maximum runs while S's wgmmas do.
        softmax.rescale(o, correction);
        issue_pv();
        Turns::pass(wg);
        MmaS::template wait_group<1>(s);
        correction = softmax_of_s(n);
        MmaO::template wait_group<0>(o, pa);
        release_v();
        pa = MmaO::make_a_fragment(s);
      }
      Turns::wait(wg);
      softmax.rescale(o, correction);
      issue_pv();
      Turns::pass(wg);
      MmaO::template wait_group<0>(o, pa);
      release_v();
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
  using T = typename Plan::Element;
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
      FmhaConsumerSteps<Plan> const steps{smem, p, t, pipe_q, pipe_k, pipe_v, q_state, k_state, v_state, wg,
                                          lane, slice, band_lo, band_hi, all_from, all_to, softmax, o, s, pa,
                                          release_k};
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

/// The kernel (see the file comment).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
fmha_kernel(const __grid_constant__ typename Plan::MapQ map_q, const __grid_constant__ typename Plan::MapK map_k,
            const __grid_constant__ typename Plan::MapV map_v, const __grid_constant__ typename Plan::MapO map_o,
            FmhaParams const p, PersistentTileSchedulerParams const tiles) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  if (threadIdx.x == 0) {
    Plan::PipelineQ::init(smem.q_barriers);
    Plan::PipelineK::init(smem.k_barriers);
    Plan::PipelineV::init(smem.v_barriers);
    TmaCopy::prefetch_descriptor(map_q);
    TmaCopy::prefetch_descriptor(map_k);
    TmaCopy::prefetch_descriptor(map_v);
    TmaCopy::prefetch_descriptor(map_o);
  }
  __syncthreads();
  if (threadIdx.x / 128 == 0) {
    arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    if (threadIdx.x == 0) fmha_producer<Plan>(smem, map_q, map_k, map_v, p, tiles);
    return;
  }
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  fmha_consumer<Plan>(smem, map_o, p, tiles);
}

namespace detail {

inline void check_offsets(std::int32_t const* cu, int batch, std::int64_t total, char const* name) {
  if (cu == nullptr) return;
  if (cu[0] < 0) host::argument_error("attention.cu-seqlens", std::string(name) + "[0] is negative");
  for (int b = 0; b < batch; ++b) {
    if (cu[b + 1] < cu[b])
      host::argument_error("attention.cu-seqlens", std::string(name) + " is not monotone: entry " +
                                                       std::to_string(b + 1) + " (" + std::to_string(cu[b + 1]) +
                                                       ") is below entry " + std::to_string(b) + " (" +
                                                       std::to_string(cu[b]) + ")");
  }
  if (cu[batch] > total)
    host::argument_error("attention.cu-seqlens", std::string(name) + " ends at " + std::to_string(cu[batch]) +
                                                     ", past the packed extent " + std::to_string(total));
}

/// A paged cache's arguments: the sizes, the key tile within a page, and (when given on the host)
/// every table entry and length.
template <int BlockN, class T>
void check_paged(FmhaArguments<T> const& a) {
  using host::argument_error;
  if (a.seqlens_k == nullptr || a.cu_seqlens_k != nullptr)
    argument_error("attention.block-table", "a paged cache takes seqlens_k (and no cu_seqlens_k)");
  if (a.page_size < 1 || a.max_pages_per_seq < 1 || a.num_pages < 1)
    argument_error("attention.block-table", "page_size, max_pages_per_seq and num_pages must be at least 1");
  if (a.page_size % BlockN != 0)
    argument_error("attention.page-size", "the page size (" + std::to_string(a.page_size) +
                                              ") must be a multiple of the plan's key tile (" + std::to_string(BlockN) +
                                              ")");
  std::int64_t const room = std::int64_t(a.max_pages_per_seq) * a.page_size;
  if (a.seq_k > room || room >= (std::int64_t{1} << 31))
    argument_error("attention.block-table", "seq_k (" + std::to_string(a.seq_k) + ") must fit the table's " +
                                                std::to_string(a.max_pages_per_seq) + " pages of " +
                                                std::to_string(a.page_size) + " keys (below 2^31)");
  cute_cpp::detail::check_page_table(a.seqlens_k_host, a.block_table_host, a.batch, a.max_pages_per_seq, a.page_size,
                                     a.num_pages, room);
}

}  // namespace detail

template <class Plan>
host::LaunchConfig fmha_launch_config(unsigned ctas, cudaStream_t stream = nullptr) {
  host::LaunchConfig config;
  config.grid = dim3(ctas);
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  return config;
}

/// The shortest key sequence whose masked tiles are dealt in one-kv-head sections, every other
/// round reversed (AttentionTileOrder; README 7).
inline constexpr int fmha_dealt_keys = 2048;

/// Runs attention with Plan (its head dims must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched.
template <class Plan>
void run_fmha(FmhaArguments<typename Plan::Element> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  using host::argument_error;
  if (a.head_dim != Plan::head_dim || a.head_dim_v != Plan::head_dim_v)
    argument_error("attention.head-dim", "the plan is for head dims (" + std::to_string(Plan::head_dim) + ", " +
                                             std::to_string(Plan::head_dim_v) + "), the arguments have (" +
                                             std::to_string(a.head_dim) + ", " + std::to_string(a.head_dim_v) + ")");
  if (a.q == nullptr || a.k == nullptr || a.v == nullptr || a.o == nullptr)
    argument_error("attention.pointers", "q, k, v and o must be device pointers (one is null)");
  host::PointerArgument const pointers[] = {{"q", a.q}, {"k", a.k}, {"v", a.v}, {"o", a.o}};
  host::check_device_pointers("attention", pointers, stream);
  host::check_stream("attention", stream);
  if (a.batch < 1 || a.heads_q < 1 || a.heads_kv < 1 || a.seq_q < 0 || a.seq_k < 0)
    argument_error("attention.shape", "batch and heads must be at least 1 and lengths at least 0 (got batch " +
                                          std::to_string(a.batch) + ", heads " + std::to_string(a.heads_q) + "/" +
                                          std::to_string(a.heads_kv) + ", lengths " + std::to_string(a.seq_q) + "/" +
                                          std::to_string(a.seq_k) + ")");
  if (a.heads_q % a.heads_kv != 0)
    argument_error("attention.gqa", "kv heads must divide q heads (got " + std::to_string(a.heads_q) + " q heads, " +
                                        std::to_string(a.heads_kv) + " kv heads)");
  if (a.window_left < -1 || a.window_right < -1)
    argument_error("attention.window", "window sizes are -1 (unbounded) or at least 0");
  bool const varlen = a.cu_seqlens_q != nullptr, varlen_k = a.cu_seqlens_k != nullptr;
  bool const paged = a.block_table != nullptr;
  if (!paged && varlen != varlen_k)
    argument_error("attention.cu-seqlens", "varlen needs both cu_seqlens_q and cu_seqlens_k");
  auto const in_31_bits = [](std::int64_t x) { return x >= 1 && x < (std::int64_t{1} << 31); };
  if ((varlen && !in_31_bits(a.total_q)) || (varlen_k && !in_31_bits(a.total_k)))
    argument_error("attention.cu-seqlens", "varlen needs the packed extents total_q and total_k in 1..2^31");
  detail::check_offsets(a.cu_seqlens_q_host, a.batch, a.total_q, "cu_seqlens_q");
  detail::check_offsets(a.cu_seqlens_k_host, a.batch, a.total_k, "cu_seqlens_k");
  if (paged) detail::check_paged<Plan::block_n>(a);
  if (a.seq_q == 0 || a.seq_k == 0) {
    // Nothing to attend to: O of no keys is 0 (and LSE -inf), as the kernel writes for such rows.
    if (a.seq_q > 0) argument_error("attention.shape", "seq_k is 0: there are no keys (pass seq_k >= 1)");
    return;
  }
  // K/V's (seq, batch) extents: a batch of sequences, one packed sequence, or the cache's pages.
  std::int64_t const q_rows = varlen ? a.total_q : a.seq_q;
  std::int64_t const k_rows = paged ? a.page_size : varlen_k ? a.total_k : a.seq_k;
  int const q_batches = varlen ? 1 : a.batch, k_batches = paged ? a.num_pages : varlen_k ? 1 : a.batch;
  auto const qs = cute_cpp::detail::attention_strides(a.q_stride, "q", Plan::head_dim, a.heads_q, q_rows);
  auto const ks = cute_cpp::detail::attention_strides(a.k_stride, "k", Plan::head_dim, a.heads_kv, k_rows);
  auto const vs = cute_cpp::detail::attention_strides(a.v_stride, "v", Plan::head_dim_v, a.heads_kv, k_rows);
  auto const os = cute_cpp::detail::attention_strides(a.o_stride, "o", Plan::head_dim_v, a.heads_q, q_rows);
  using cute_cpp::detail::attention_map;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, Plan::head_dim, q_rows, a.heads_q, q_batches, qs);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, Plan::head_dim, k_rows, a.heads_kv, k_batches, ks);
  auto const map_v =
      attention_map<T, typename Plan::VTile>(a.v, Plan::head_dim_v, k_rows, a.heads_kv, k_batches, vs);
  auto const map_o =
      attention_map<T, typename Plan::OutputStore::Chunk>(a.o, Plan::head_dim_v, q_rows, a.heads_q, q_batches, os);
  if ((os.seq | os.head) % 2 != 0 || reinterpret_cast<std::uintptr_t>(a.o) % 4 != 0)
    argument_error("attention.strides", "o's strides must be even (pairs of outputs are stored together)");
  FmhaParams p;
  p.batch = a.batch;
  p.seq_q = a.seq_q;
  p.seq_k = a.seq_k;
  p.heads_q = a.heads_q;
  p.group = a.heads_q / a.heads_kv;
  p.m_blocks = (a.seq_q + Plan::block_m - 1) / Plan::block_m;
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, Plan::head_dim);
  p.window_left = a.window_left;
  p.window_right = a.causal ? (a.window_right < 0 ? 0 : std::min(a.window_right, 0)) : a.window_right;
  PersistentTileSchedulerParams tiles;
  std::int64_t const units = std::int64_t(p.m_blocks) * a.heads_q * a.batch;
  if (units >= (std::int64_t{1} << 31))
    argument_error("attention.shape", "too many tiles for the scheduler's 32-bit arithmetic");
  tiles.tiles_m = std::int32_t(units);
  int const resident = host::resident_clusters(&fmha_kernel<Plan>, fmha_launch_config<Plan>(1));
  if (resident < 1) throw std::runtime_error("cute-cpp [attention.occupancy]: the attention kernel cannot be resident");
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(tiles, resident);
  // AttentionTileOrder: one kv head's tiles after another. Masked problems take each section's
  // longest Q blocks first; from fmha_dealt_keys keys, in sections of one kv head, every other
  // round of the grid's CTAs dealt in reverse (so each CTA's work is within a tile of the mean);
  // below, in sections of kv heads whose K/V fit half the L2, dealt in order (measured faster
  // there; README 7).
  static std::int64_t const l2_bytes = host::l2_cache_bytes();
  std::int64_t const kv_bytes = std::int64_t(a.seq_k) * (Plan::head_dim + Plan::head_dim_v) * std::int64_t(sizeof(T));
  bool const dealt = p.masked() && a.seq_k >= fmha_dealt_keys;  // a budget of 0: one kv head a section
  p.order = AttentionTileOrder::make(p.m_blocks, a.heads_q, a.heads_kv, a.batch, p.masked(), kv_bytes,
                                     dealt ? 0 : l2_bytes / 2, dealt ? grid : 1);
  p.cu_seqlens_q = a.cu_seqlens_q;
  p.cu_seqlens_k = a.cu_seqlens_k;
  p.total_q = std::int32_t(q_rows);
  p.total_k = std::int32_t(k_rows);
  if (paged) {
    p.block_table = a.block_table;
    p.seqlens_k = a.seqlens_k;
    p.max_pages_per_seq = a.max_pages_per_seq;
    p.num_pages = a.num_pages;
    p.page_div = FastDivmod(std::uint32_t(a.page_size));
  }
  p.lse = a.lse;
  p.lse_head_stride = varlen ? a.total_q : a.seq_q;
  p.lse_batch_stride = varlen ? 0 : std::int64_t(a.heads_q) * a.seq_q;
  p.o = a.o;
  p.o_seq_stride = os.seq;
  p.o_head_stride = os.head;
  host::launch(&fmha_kernel<Plan>, "fmha_sm90", fmha_launch_config<Plan>(unsigned(grid), stream), map_q, map_k, map_v,
               map_o, p, tiles);
}

}  // namespace cute_cpp::kernels

namespace cute_cpp::kernels {

template <class T>
void run_attention(FmhaArguments<T> const& a, cudaStream_t stream) {
  if (a.block_table != nullptr) {
    if (a.head_dim == 64 && a.head_dim_v == 64) return run_fmha<fmha_plans::D64Paged<T>>(a, stream);
    if (a.head_dim == 128 && a.head_dim_v == 128) return run_fmha<fmha_plans::D128Short<T>>(a, stream);
    if (a.head_dim == 256 && a.head_dim_v == 256) return run_fmha<fmha_plans::D256<T>>(a, stream);
    host::argument_error("attention.head-dim", "no paged-cache plan for head dims (" + std::to_string(a.head_dim) +
                                                   ", " + std::to_string(a.head_dim_v) +
                                                   "): built are (64, 64), (128, 128) and (256, 256)");
  }
  if (a.head_dim == 64 && a.head_dim_v == 64) return run_fmha<fmha_plans::D64<T>>(a, stream);
  if (a.head_dim == 128 && a.head_dim_v == 128) {
    if (a.seq_k <= fmha_plans::d128_short_keys) return run_fmha<fmha_plans::D128Short<T>>(a, stream);
    return run_fmha<fmha_plans::D128<T>>(a, stream);
  }
  if (a.head_dim == 256 && a.head_dim_v == 256) return run_fmha<fmha_plans::D256<T>>(a, stream);
  if (a.head_dim == 192 && a.head_dim_v == 128) return run_fmha<fmha_plans::D192V128<T>>(a, stream);
  host::argument_error("attention.head-dim", "no plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                 std::to_string(a.head_dim_v) + "): built are (64, 64), (128, 128), "
                                                 "(256, 256) and (192, 128)");
}

}  // namespace cute_cpp::kernels
