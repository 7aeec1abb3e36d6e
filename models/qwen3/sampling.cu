// SPDX-License-Identifier: Apache-2.0
// models/qwen3/sampling.cu: the kernels behind sample_tokens (sampling.hpp) and their launch.
// Each row is read by a cluster of up to 8 blocks (one block for short rows), each block a contiguous
// chunk of ids; the blocks share their partial results through distributed shared memory, so a
// row needs no global workspace and one launch serves every row.
// - greedy_kernel: one pass; each thread keeps its largest (key, -id), then warp, block and cluster maxima.
// - sample_kernel: up to four passes over the row (the later ones from L2):
//   1. the row's largest logit; with top-k, the count of logits of each high byte of the key;
//   2. with top-k, the count of each key in the high byte where the k-th largest lies (so the cut
//      is exact); with top-p, the weight of each high byte;
//   3. with top-p, the count of each key in the high byte where the running weight reaches top_p of
//      the kept total, unless pass 2 counted that byte already;
//   4. the draw: each thread sums the kept weights of a contiguous run of ids, a block and cluster
//      scan gives each run's start, and the run that holds u * total walks its ids to the token.
// Weights are fixed point (see Weights), so every sum is exact and reruns reproduce.
#include "models/qwen3/sampling.hpp"

#include <cute_cpp/arch/cluster.hpp>   // cluster_arrive_relaxed, cluster_wait, cluster_sync, map_to_block_in_cluster, ...
#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream
#include <cute_cpp/host/error.hpp>     // argument_error
#include <cute_cpp/host/launch.hpp>    // launch, LaunchConfig

#include <cuda_runtime.h>

#include <algorithm>  // std::min
#include <cmath>      // std::isfinite
#include <cstddef>
#include <cstdint>
#include <sstream>    // std::ostringstream
#include <string>

namespace cute_cpp::models {
namespace {

using u64 = unsigned long long;  // the type CUDA's 64-bit atomics and shuffles take
static_assert(sizeof(u64) == sizeof(std::uint64_t));

constexpr int block_threads = 512;
constexpr int warps = block_threads / 32;
constexpr int max_blocks_per_row = 8;      // the portable cluster size
constexpr int min_ids_per_block = 4096;    // shorter rows take fewer blocks
constexpr int loads_in_flight = 4;         // 16-byte loads per thread issued before the first is used
constexpr int bins = 256;                  // a histogram over one byte of the key
constexpr u64 weight_one = u64(1) << 40;   // the weight of the largest logit
constexpr int max_vocab = 1 << 23;         // so that vocab * weight_one < 2^63
constexpr int max_rows = 1 << 20;          // so that rows * blocks fits the grid

/// Blocks per row: a cluster of up to 8 blocks of at least min_ids_per_block ids each.
constexpr int blocks_per_row(int vocab) {
  return std::min(max_blocks_per_row, (vocab + min_ids_per_block - 1) / min_ids_per_block);
}

// ---- keys and weights ----

/// The order key of a bf16 logit, from its bits: larger logits give larger keys, -0 and +0 the same
/// key, and NaN key 0, below -inf's (0x007F). Valid keys lie in [0x007F, 0xFF80].
__device__ __forceinline__ unsigned logit_key(unsigned bits) {
  if ((bits & 0x7FFFu) > 0x7F80u) return 0;  // NaN
  if (bits == 0x8000u) bits = 0;             // -0 sorts with +0
  return (bits & 0x8000u) ? (~bits & 0xFFFFu) : (bits | 0x8000u);
}

/// The logit of a valid key, as a float (exactly).
__device__ __forceinline__ float key_logit(unsigned key) {
  unsigned const bits = (key & 0x8000u) ? (key & 0x7FFFu) : (~key & 0xFFFFu);
  return __uint_as_float(bits << 16);
}

/// The weight of a logit x: exp((x - max) / temperature) in fp32, held as an integer count of 2^-40,
/// so that sums of weights are exact and do not depend on the order of the additions: every cut and
/// every draw is reproducible. NOTE: a weight below 2^-41 (x more than 28.4 temperatures below the
/// max) is 0, and its token is never drawn: its probability would be below 5e-13.
struct Weights {
  float largest;  // the row's largest logit
  float temperature;

  __device__ u64 operator()(unsigned key) const {
    float const x = key_logit(key);
    if (x == largest) return weight_one;  // also when it is +-inf, where x - largest is NaN
    return __float2ull_rn(expf((x - largest) / temperature) * 0x1p40f);
  }
};

/// The tokens kept: every valid key above `key`, and the first `ties` ids (the smallest) whose key is
/// `key`. {0, 0} keeps every token that is not NaN.
struct Cut {
  unsigned key;
  unsigned ties;
};

// ---- the row's blocks ----

/// The variable at `local` (this block's shared memory) in block `rank` of the row's cluster.
template <class T>
__device__ __forceinline__ T* in_block(T* local, unsigned rank, unsigned blocks) {
  return blocks == 1 ? local : arch::map_to_block_in_cluster(local, rank);
}

/// A barrier for every thread of the row's blocks: their shared-memory writes before it are seen after it.
__device__ __forceinline__ void row_barrier(unsigned blocks) {
  if (blocks > 1) {
    __syncwarp();  // the .aligned cluster barrier wants the warp converged; a thread may come from a walk
    arch::cluster_sync();
  } else {
    __syncthreads();
  }
}

/// Calls visit(id, key) for this thread's share of the ids [begin, end) of `row`, block-strided:
/// 16-byte loads of 8 ids, loads_in_flight of them issued before any is used (one at a time would
/// leave the block waiting on L2 or DRAM), one id each before the first 16-byte boundary and after
/// the last. Every thread makes the same number of calls, so `visit` may use warp collectives; a
/// call for no id, like a NaN logit, has key 0.
template <class Visit>
__device__ __forceinline__ void for_each_key(std::uint16_t const* __restrict__ row, int begin, int end, Visit&& visit) {
  int const t = int(threadIdx.x);
  int const to_boundary = int((16u - (reinterpret_cast<std::uintptr_t>(row + begin) & 15u)) & 15u) / 2;
  int const head = min(to_boundary, end - begin);
  int const body_begin = begin + head;
  int const vectors = (end - body_begin) / 8;
  int const tail_begin = body_begin + vectors * 8;
  visit(begin + t, t < head ? logit_key(row[begin + t]) : 0u);
  uint4 const* const body = reinterpret_cast<uint4 const*>(row + body_begin);
  for (int base = 0; base < vectors; base += block_threads * loads_in_flight) {
    uint4 v[loads_in_flight];
#pragma unroll
    for (int u = 0; u < loads_in_flight; ++u) {
      int const i = base + u * block_threads + t;
      v[u] = i < vectors ? __ldg(body + i) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < loads_in_flight; ++u) {
      int const i = base + u * block_threads + t;
      unsigned const words[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
#pragma unroll
      for (int j = 0; j < 8; ++j)
        visit(body_begin + 8 * i + j, i < vectors ? logit_key((words[j / 2] >> (16 * (j % 2))) & 0xFFFFu) : 0u);
    }
  }
  visit(tail_begin + t, t < end - tail_begin ? logit_key(row[tail_begin + t]) : 0u);
}

// ---- the row's blocks ----

/// This block's part of its row: the ids [begin, end) of row `index` (logits `x`), one of `blocks`,
/// in a row-major buffer (one device).
struct RowPart {
  std::uint16_t const* x;
  int index;
  int begin, end;
  unsigned blocks, rank;
  template <class Visit>
  __device__ __forceinline__ void for_each(Visit&& visit) const {
    for_each_key(x, begin, end, visit);
  }
  __device__ __forceinline__ std::uint16_t at(int id) const { return x[id]; }
};

/// The same part of a row of all-gathered tensor-parallel logits (vocab_shards.hpp's LogitsLayout):
/// x is the buffer's start, and the logit of id is at logit_offset(layout, index, id). The padding
/// columns past the vocabulary (the last shard's) are never visited: ids stop at vocab.
struct ShardedRowPart : RowPart {
  LogitsLayout layout;
  /// for_each_key over each shard's piece of [begin, end) in id order (shard_ids), each piece
  /// contiguous: every thread makes the same calls (the pieces depend on the block's range alone),
  /// as for_each_key needs.
  template <class Visit>
  __device__ __forceinline__ void for_each(Visit&& visit) const {
    if (begin >= end) return for_each_key(x, begin, end, visit);
    for (std::int64_t q = begin / layout.shard_cols; q <= (end - 1) / layout.shard_cols; ++q) {
      IdRange const ids = shard_ids(layout, q, begin, end);
      // Indexed by id: the piece's pointer is offset back by its first id.
      for_each_key(x + (logit_offset(layout, index, ids.lo) - ids.lo), int(ids.lo), int(ids.hi), visit);
    }
  }
  __device__ __forceinline__ std::uint16_t at(int id) const { return x[logit_offset(layout, index, id)]; }
};

/// This block's part of row blockIdx.x / blocks: RowPart, or ShardedRowPart with the layout's shards.
template <bool Sharded>
__device__ __forceinline__ auto row_part(std::uint16_t const* logits, std::int64_t ld, int vocab,
                                         LogitsLayout const& layout) {
  unsigned const blocks = arch::cluster_size(), rank = arch::block_rank_in_cluster();
  int const index = int(blockIdx.x / blocks);
  int const chunk = ((vocab + int(blocks) - 1) / int(blocks) + 7) / 8 * 8;
  int const begin = min(vocab, int(rank) * chunk), end = min(vocab, int(rank + 1) * chunk);
  if constexpr (Sharded) {
    return ShardedRowPart{{logits, index, begin, end, blocks, rank}, layout};
  } else {
    return RowPart{logits + index * ld, index, begin, end, blocks, rank};
  }
}

// ---- greedy ----

/// ids[row] = the id of the row's largest logit, the smallest such id on ties, NaN below everything
/// (0 when every logit is NaN). One pass; grid: rows x blocks_per_row(vocab), clusters of a row's blocks.
template <bool Sharded>
__global__ void __launch_bounds__(block_threads)
greedy_kernel(std::uint16_t const* __restrict__ logits, std::int64_t ld, int vocab, std::int32_t* __restrict__ ids,
              LogitsLayout layout) {
  __shared__ u64 block_best;                   // this block's best (key << 32 | ~id)
  __shared__ u64 best[max_blocks_per_row];     // in the row's first block: each block's best
  auto const part = row_part<Sharded>(logits, ld, vocab, layout);
  // NOTE: a block may write another's shared memory only once that block has started: the cluster
  // barrier is begun here and waited on after the pass, where it costs nothing.
  if (part.blocks > 1) arch::cluster_arrive_relaxed();
  if (threadIdx.x == 0) block_best = 0;
  __syncthreads();
  u64 mine = 0;
  part.for_each([&](int id, unsigned key) {
    if (key != 0) mine = max(mine, (u64(key) << 32) | (0xFFFFFFFFu - unsigned(id)));
  });
  for (int lanes = 16; lanes > 0; lanes /= 2) mine = max(mine, __shfl_xor_sync(~0u, mine, lanes));
  if (threadIdx.x % 32 == 0) atomicMax(&block_best, mine);
  __syncthreads();
  if (part.blocks > 1) arch::cluster_wait();
  if (threadIdx.x == 0) *in_block(&best[part.rank], 0, part.blocks) = block_best;
  row_barrier(part.blocks);
  if (part.rank == 0 && threadIdx.x == 0) {
    u64 row_best = 0;
    for (unsigned r = 0; r < part.blocks; ++r) row_best = max(row_best, best[r]);
    ids[part.index] = row_best == 0 ? 0 : std::int32_t(0xFFFFFFFFu - unsigned(row_best));
  }
}

// ---- sampling: block and warp helpers ----

/// One pass's histogram of one block, over one byte of the key.
struct Histogram {
  unsigned count[bins];
  u64 mass[bins];
};

/// A run of ids in pass 4: the weight of its ids above the cut's key, and its ids at the cut's key.
struct Tally {
  u64 weight;
  unsigned ties;
};
__device__ __forceinline__ Tally operator+(Tally a, Tally b) { return {a.weight + b.weight, a.ties + b.ties}; }
__device__ __forceinline__ Tally operator-(Tally a, Tally b) { return {a.weight - b.weight, a.ties - b.ties}; }

struct SampleShared {
  // NOTE: passes alternate between the two: another block may still read the last pass's while this
  // one fills the next, and every block has read the one before by the barrier that ended the last.
  Histogram pass[2];           // this block's
  unsigned high_count[bins];   // the row's count of valid keys by high byte (pass 1, with top-k)
  unsigned k_low_count[bins];  // the row's count of each key in top-k's high byte (pass 2)
  u64 high_mass[bins];         // the row's weight by high byte (pass 2, with top-p)
  unsigned p_low_count[bins];  // the row's count of each key in top-p's high byte (pass 3)
  u64 low_mass[bins];          // the kept weight of each key in the high byte top-p searches
  unsigned largest;            // this block's largest key (pass 1)
  Tally warp_sums[warps];      // pass 4's block scan
  Tally block_total;           // pass 4: this block's tally, read by the row's other blocks
};

/// row_sums[i] = the sum over the row's blocks of block_sums[i] (the same variable in each block).
template <class T>
__device__ void sum_over_blocks(T* row_sums, T const* block_sums, unsigned blocks) {
  for (int i = int(threadIdx.x); i < bins; i += block_threads) {
    T sum = 0;
    for (unsigned r = 0; r < blocks; ++r) sum += in_block(block_sums, r, blocks)[i];
    row_sums[i] = sum;
  }
}

/// The sum of all bins of `sums` (shared memory), in every lane of the calling warp.
template <class T>
__device__ u64 warp_total(T const* sums) {
  u64 total = 0;
  for (int b = int(threadIdx.x % 32); b < bins; b += 32) total += sums[b];
  for (int lanes = 16; lanes > 0; lanes /= 2) total += __shfl_xor_sync(~0u, total, lanes);
  return total;
}

/// Where a running sum over bins 255, 254, ..., 0 first reaches a goal: the bin, and the sum of the bins above it.
struct Crossing {
  unsigned bin;
  u64 above;
};

/// The first bin, from the top, where the running sum of `sums` (shared memory) reaches `goal`.
/// @pre 0 < goal <= the sum of all bins. Each warp finds it on its own, so no barrier follows.
template <class T>
__device__ Crossing find_crossing(T const* sums, u64 goal) {
  unsigned const lane = threadIdx.x % 32;
  u64 own = 0;  // lane l holds bins 255 - 8l down to 248 - 8l
  for (unsigned j = 0; j < 8; ++j) own += sums[255 - 8 * lane - j];
  u64 through = own;
  for (unsigned d = 1; d < 32; d *= 2) {
    u64 const up = __shfl_up_sync(~0u, through, d);
    if (lane >= d) through += up;
  }
  unsigned const reached = __ballot_sync(~0u, through >= goal);
  if (reached == 0) return {0, __shfl_sync(~0u, through, 31)};  // the precondition broken: nothing kept
  unsigned const first = unsigned(__ffs(int(reached))) - 1;
  u64 running = __shfl_sync(~0u, through - own, first);
  for (unsigned j = 0; j < 8; ++j) {
    unsigned const bin = 255 - 8 * first - j;
    if (running + sums[bin] >= goal) return {bin, running};
    running += sums[bin];
  }
  return {0, running};
}

/// Adds `w` to bin `bin` of `mass` (shared memory); every lane of the warp calls it. NOTE: a 64-bit
/// shared atomic add is a compare-and-swap loop (ATOMS.CAST.SPIN.64 on sm_90a) that retries under
/// contention, and logits crowd into a few bins: the lanes holding the same bin sum their weights
/// first (a round per distinct bin), and one of them adds the sum.
__device__ __forceinline__ void add_weight(u64* mass, unsigned bin, u64 w) {
  unsigned const lane = threadIdx.x % 32;
  for (unsigned pending = __ballot_sync(~0u, w != 0); pending != 0;) {
    unsigned const leader = unsigned(__ffs(int(pending))) - 1;
    unsigned const leader_bin = __shfl_sync(~0u, bin, leader);
    bool const joins = (pending >> lane & 1u) != 0 && bin == leader_bin;
    // weights are at most 2^40: 32 of their low 20 bits, or of their high 21 bits, sum below 2^32
    unsigned const low = __reduce_add_sync(~0u, joins ? unsigned(w & 0xFFFFFu) : 0u);
    unsigned const high = __reduce_add_sync(~0u, joins ? unsigned(w >> 20) : 0u);
    if (lane == leader) atomicAdd(&mass[leader_bin], (u64(high) << 20) + low);
    pending &= ~__ballot_sync(~0u, joins);
  }
}

/// masses[lo] = the kept weight of key (high << 8 | lo): its count times its weight, with only the
/// first cut.ties ids of cut.key kept, and no key below it.
__device__ void fill_low_masses(u64* masses, unsigned const* counts, unsigned high, Cut cut, Weights const& weight) {
  for (unsigned lo = threadIdx.x; lo < unsigned(bins); lo += block_threads) {
    unsigned const key = high << 8 | lo;
    u64 const n = key > cut.key ? counts[lo] : key == cut.key ? cut.ties : 0;
    masses[lo] = n == 0 ? 0 : n * weight(key);
  }
}

/// The sum of the tallies of this block's threads before this one, and (in `total`) of all of them.
__device__ Tally block_exclusive_scan(Tally mine, Tally& total, Tally* warp_sums) {
  unsigned const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  Tally through = mine;
  for (unsigned d = 1; d < 32; d *= 2) {
    Tally const up{__shfl_up_sync(~0u, through.weight, d), __shfl_up_sync(~0u, through.ties, d)};
    if (lane >= d) through = through + up;
  }
  if (lane == 31) warp_sums[warp] = through;
  __syncthreads();
  Tally before{0, 0};
  total = {0, 0};
  for (unsigned w = 0; w < unsigned(warps); ++w) {
    if (w < warp) before = before + warp_sums[w];
    total = total + warp_sums[w];
  }
  return before + through - mine;
}

// ---- sampling: the passes ----

/// Pass 1: the row's largest key (0 when every logit is NaN); with `count_high`, s.high_count.
template <class Part>
__device__ unsigned pass_largest(Part const& part, bool count_high, SampleShared& s) {
  Histogram& h = s.pass[0];
  for (int i = int(threadIdx.x); i < bins; i += block_threads) h.count[i] = 0;
  if (threadIdx.x == 0) s.largest = 0;
  __syncthreads();
  unsigned largest = 0;
  part.for_each([&](int, unsigned key) {
    largest = max(largest, key);
    if (count_high && key != 0) atomicAdd(&h.count[key >> 8], 1u);
  });
  largest = __reduce_max_sync(~0u, largest);
  if (threadIdx.x % 32 == 0) atomicMax(&s.largest, largest);
  row_barrier(part.blocks);
  if (count_high) sum_over_blocks(s.high_count, h.count, part.blocks);
  unsigned row_largest = 0;
  for (unsigned r = 0; r < part.blocks; ++r) row_largest = max(row_largest, *in_block(&s.largest, r, part.blocks));
  __syncthreads();
  return row_largest;
}

/// Pass 2: with top-k, s.k_low_count (the keys of high byte k_high); with top-p, s.high_mass, where
/// top-k leaves out the high bytes below k_high.
template <class Part>
__device__ void pass_top_k_and_masses(Part const& part, bool top_k, unsigned k_high, bool top_p,
                                      Weights const& weight, SampleShared& s) {
  Histogram& h = s.pass[1];
  for (int i = int(threadIdx.x); i < bins; i += block_threads) {
    h.count[i] = 0;
    h.mass[i] = 0;
  }
  __syncthreads();
  part.for_each([&](int, unsigned key) {
    unsigned const high = key >> 8;
    if (top_k && key != 0 && high == k_high) atomicAdd(&h.count[key & 0xFFu], 1u);
    if (top_p) add_weight(h.mass, high, key != 0 && high >= k_high ? weight(key) : 0);
  });
  row_barrier(part.blocks);
  if (top_k) sum_over_blocks(s.k_low_count, h.count, part.blocks);
  if (top_p) sum_over_blocks(s.high_mass, h.mass, part.blocks);
  __syncthreads();
}

/// Pass 3: s.p_low_count, the count of each key of high byte p_high.
template <class Part>
__device__ void pass_top_p_counts(Part const& part, unsigned p_high, SampleShared& s) {
  Histogram& h = s.pass[0];
  for (int i = int(threadIdx.x); i < bins; i += block_threads) h.count[i] = 0;
  __syncthreads();
  part.for_each([&](int, unsigned key) {
    if (key != 0 && key >> 8 == p_high) atomicAdd(&h.count[key & 0xFFu], 1u);
  });
  row_barrier(part.blocks);
  sum_over_blocks(s.p_low_count, h.count, part.blocks);
  __syncthreads();
}

/// Top-p among the tokens `k_cut` keeps: the tokens, in order, whose weight before them is below
/// top_p of the kept total (HF's TopPLogitsWarper). Runs pass 3 when pass 2 has not counted the
/// high byte it ends in. @pre pass 2 ran with top-p.
template <class Part>
__device__ Cut top_p_cut(Part const& part, float top_p, bool top_k, Cut k_cut, Weights const& weight,
                         SampleShared& s) {
  unsigned const k_high = k_cut.key >> 8;
  if (top_k) {  // top-k's high byte holds only the kept weight of its keys; those below hold none
    fill_low_masses(s.low_mass, s.k_low_count, k_high, k_cut, weight);
    __syncthreads();
    u64 const in_k_high = warp_total(s.low_mass);
    for (unsigned b = threadIdx.x; b <= k_high; b += block_threads) s.high_mass[b] = b == k_high ? in_k_high : 0;
    __syncthreads();
  }
  u64 const total = warp_total(s.high_mass);
  u64 goal = __double2ull_ru(double(top_p) * double(total));  // keep while the weight before < goal
  goal = goal < 1 ? 1 : goal > total ? total : goal;
  Crossing const high = find_crossing(s.high_mass, goal);
  if (!top_k || high.bin != k_high) {
    pass_top_p_counts(part, high.bin, s);
    fill_low_masses(s.low_mass, s.p_low_count, high.bin, Cut{0, 0}, weight);
    __syncthreads();
  }
  Crossing const low = find_crossing(s.low_mass, goal - high.above);
  unsigned const key = high.bin << 8 | low.bin;
  u64 const w = weight(key);  // > 0: the crossing's bin holds weight
  u64 const before = high.above + low.above;
  return {key, unsigned((goal - before + w - 1) / w)};
}

/// Passes 2 and 3: the cut of top-k, then that of top-p among the tokens top-k keeps.
template <class Part>
__device__ Cut choose_cut(Part const& part, SamplingParams const& params, Weights const& weight, SampleShared& s) {
  unsigned const valid = params.top_k > 0 ? unsigned(warp_total(s.high_count)) : 0;
  bool const top_k = params.top_k > 0 && unsigned(params.top_k) < valid;
  bool const top_p = params.top_p < 1.0f;
  if (!top_k && !top_p) return {0, 0};
  Crossing const k_high = top_k ? find_crossing(s.high_count, u64(params.top_k)) : Crossing{0, 0};
  pass_top_k_and_masses(part, top_k, k_high.bin, top_p, weight, s);
  Cut cut{0, 0};
  if (top_k) {
    unsigned const goal = unsigned(params.top_k) - unsigned(k_high.above);
    Crossing const low = find_crossing(s.k_low_count, goal);
    cut = {k_high.bin << 8 | low.bin, goal - unsigned(low.above)};
  }
  return top_p ? top_p_cut(part, params.top_p, top_k, cut, weight, s) : cut;
}

/// Pass 4: the row's token, drawn among the kept ones with probability weight / kept total by the
/// inverse of the cumulative weight in id order at random * total / 2^64, written by the thread
/// whose run of ids holds it.
template <class Part>
__device__ void draw(Part const& part, Cut cut, Weights const& weight, u64 random, SampleShared& s,
                     std::int32_t* id_out) {
  // Each thread reads a contiguous run, so the kept weight before a run is a scan over the threads.
  int const per_thread = (part.end - part.begin + block_threads - 1) / block_threads;
  int const first = min(part.end, part.begin + int(threadIdx.x) * per_thread);
  int const last = min(part.end, first + per_thread);
  Tally mine{0, 0};
  for (int id = first; id < last; ++id) {
    unsigned const key = logit_key(part.at(id));
    if (key > cut.key) {
      mine.weight += weight(key);
    } else if (key == cut.key && cut.ties > 0) {
      ++mine.ties;
    }
  }
  Tally block_total;
  Tally before = block_exclusive_scan(mine, block_total, s.warp_sums);
  if (threadIdx.x == 0) s.block_total = block_total;
  row_barrier(part.blocks);
  Tally row_total{0, 0};
  for (unsigned r = 0; r < part.blocks; ++r) {
    Tally const t = *in_block(&s.block_total, r, part.blocks);
    if (r < part.rank) before = before + t;
    row_total = row_total + t;
  }
  u64 const tie_weight = cut.ties > 0 ? weight(cut.key) : 0;
  auto const kept = [&](Tally t) { return t.weight + u64(min(t.ties, cut.ties)) * tie_weight; };
  u64 const target = __umul64hi(random, kept(row_total));
  u64 running = kept(before);
  if (target < running || target >= kept(before + mine)) return;
  unsigned ties_seen = before.ties;
  for (int id = first; id < last; ++id) {
    unsigned const key = logit_key(part.at(id));
    if (key > cut.key) {
      running += weight(key);
    } else if (key == cut.key && cut.ties > 0 && ties_seen++ < cut.ties) {
      running += tie_weight;
    }
    if (running > target) {
      *id_out = id;
      return;
    }
  }
}

/// ids[row] = a token drawn from the row after temperature, top-k and top-p (SamplingParams); grid:
/// rows x blocks_per_row(vocab), clusters of a row's blocks. @pre params.temperature > 0.
template <bool Sharded>
__global__ void __launch_bounds__(block_threads)
sample_kernel(std::uint16_t const* __restrict__ logits, std::int64_t ld, int vocab, SamplingParams params,
              std::uint64_t step, std::uint64_t const* device_step, std::int32_t* __restrict__ ids,
              LogitsLayout layout) {
  __shared__ SampleShared s;
  auto const part = row_part<Sharded>(logits, ld, vocab, layout);
  unsigned const largest = pass_largest(part, params.top_k > 0, s);
  if (largest == 0) {
    if (part.rank == 0 && threadIdx.x == 0) ids[part.index] = 0;  // every logit is NaN
  } else {
    Weights const weight{key_logit(largest), params.temperature};
    Cut const cut = choose_cut(part, params, weight, s);
    // NOTE: the device part of the step is read here, late, so that it holds no register before.
    std::uint64_t const at = device_step != nullptr ? step + *device_step : step;
    draw(part, cut, weight, sampling_random_bits(params.seed, at, unsigned(part.index)), s, ids + part.index);
  }
  row_barrier(part.blocks);  // NOTE: no block leaves while another may still read its shared memory
}

// ---- host ----

std::string show(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

void check_shape(int rows, int vocab) {
  if (rows < 1 || rows > max_rows)
    host::argument_error("qwen3.sampling", "rows is " + std::to_string(rows) + "; it must be in [1, " +
                                               std::to_string(max_rows) + "]");
  if (vocab < 1 || vocab > max_vocab)
    host::argument_error("qwen3.sampling", "vocab is " + std::to_string(vocab) + "; it must be in [1, " +
                                               std::to_string(max_vocab) + "]");
}

}  // namespace

std::size_t sampling_workspace_bytes(int rows, int vocab) {
  check_shape(rows, vocab);
  return 0;
}

void sample_tokens(__nv_bfloat16 const* logits, std::int64_t ld, int rows, int vocab, SamplingParams const& params,
                   std::uint64_t step, std::int32_t* ids, void* workspace, std::size_t workspace_bytes,
                   cudaStream_t stream) {
  sample_tokens(logits, ld, rows, vocab, params, step, nullptr, ids, workspace, workspace_bytes, stream);
}

void sample_tokens(__nv_bfloat16 const* logits, std::int64_t ld, int rows, int vocab, SamplingParams const& params,
                   std::uint64_t step, std::uint64_t const* device_step, std::int32_t* ids, void* workspace,
                   std::size_t workspace_bytes, cudaStream_t stream) {
  if (ld < vocab)
    host::argument_error("qwen3.sampling", "ld is " + std::to_string(ld) + "; it must be at least vocab (" +
                                               std::to_string(vocab) + ")");
  sample_tokens(logits, LogitsLayout{ld, ld, 0}, rows, vocab, params, step, device_step, ids, workspace,
                workspace_bytes, stream);
}

void sample_tokens(__nv_bfloat16 const* logits, LogitsLayout const& layout, int rows, int vocab,
                   SamplingParams const& params, std::uint64_t step, std::uint64_t const* device_step,
                   std::int32_t* ids, void* workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  check_shape(rows, vocab);
  char const* const rule = "qwen3.sampling";
  std::int64_t const ld = layout.ld;
  if (std::string const why = check_logits_layout(layout, rows, vocab); !why.empty()) host::argument_error(rule, why);
  if (!(params.temperature >= 0.0f) || !std::isfinite(params.temperature))
    host::argument_error(rule, "temperature is " + show(params.temperature) + "; it must be finite and >= 0 (0: greedy)");
  if (params.top_k < 0)
    host::argument_error(rule, "top_k is " + std::to_string(params.top_k) + "; it must be >= 0 (0: off)");
  if (!(params.top_p > 0.0f && params.top_p <= 1.0f))
    host::argument_error(rule, "top_p is " + show(params.top_p) + "; it must be in (0, 1] (1: off)");
  if (logits == nullptr) host::argument_error(rule, "logits is null");
  if (ids == nullptr) host::argument_error(rule, "ids is null");
  host::PointerArgument const pointers[] = {{"logits", logits}, {"ids", ids}};
  host::check_device_pointers("qwen3.sampling", pointers, stream);
  host::check_stream("qwen3.sampling", stream);
  std::size_t const need = sampling_workspace_bytes(rows, vocab);
  if (workspace_bytes < need || (need > 0 && workspace == nullptr))
    host::argument_error(rule, "the workspace is " + std::to_string(workspace_bytes) + " bytes at " +
                                   (workspace == nullptr ? "null" : "a device pointer") + "; " +
                                   std::to_string(need) + " are needed (sampling_workspace_bytes)");

  int const blocks = blocks_per_row(vocab);
  host::LaunchConfig config;
  config.grid = dim3(unsigned(rows) * unsigned(blocks));
  config.block = dim3(block_threads);
  config.cluster = dim3(unsigned(blocks));
  config.stream = stream;
  auto const* const bits = reinterpret_cast<std::uint16_t const*>(logits);
  // One shard (one device): the kernels of old, with no shard arithmetic.
  bool const sharded = layout.sharded(vocab);
  if (params.temperature == 0.0f) {
    host::launch(sharded ? &greedy_kernel<true> : &greedy_kernel<false>, "qwen3 greedy_kernel", config, bits, ld,
                 vocab, ids, layout);
  } else {
    host::launch(sharded ? &sample_kernel<true> : &sample_kernel<false>, "qwen3 sample_kernel", config, bits, ld,
                 vocab, params, step, device_step, ids, layout);
  }
}

}  // namespace cute_cpp::models
