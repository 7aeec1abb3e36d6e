// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/sampling_passes.cuh: sample_kernel's passes over a row (sampling.cu's file comment
// lists them) and the block and warp helpers they share: histograms of one byte of the key, the
// sums over a row's blocks, the crossing of a running sum, the scan of pass 4's tallies. Private to
// sampling.cu, the one file that includes it (an unnamed namespace, as sampling_rows.cuh's).
#include "models/qwen3/sampling_rows.cuh"

#include <cstdint>

namespace cute_cpp::models {
namespace {  // NOLINT(google-build-namespaces): one including file, sampling.cu

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

}  // namespace
}  // namespace cute_cpp::models
