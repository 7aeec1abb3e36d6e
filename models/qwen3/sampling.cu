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
// Both kernels wait for their predecessor's memory first thing (griddepcontrol.wait, a no-op for a plain
// launch), so that a graph may make their edges programmatic (host/graph_pdl.hpp: Qwen3-TTS's frame).
// The shared pieces: sampling_rows.cuh (keys, weights, a row's blocks) and sampling_passes.cuh
// (sample_kernel's passes).
#include "models/qwen3/sampling.hpp"
#include "models/qwen3/sampling_passes.cuh"  // and sampling_rows.cuh

#include <cute_cpp/arch/cluster.hpp>  // cluster_arrive_relaxed, cluster_wait
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_wait, griddepcontrol_launch_dependents
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

// ---- greedy ----

/// ids[row] = the id of the row's largest logit, the smallest such id on ties, NaN below everything
/// (0 when every logit is NaN). One pass; grid: rows x blocks_per_row(vocab), clusters of a row's blocks.
template <bool Sharded>
__global__ void __launch_bounds__(block_threads)
greedy_kernel(std::uint16_t const* __restrict__ logits, std::int64_t ld, int vocab, std::int32_t* __restrict__ ids,
              LogitsLayout layout) {
  __shared__ u64 block_best;                   // this block's best (key << 32 | ~id)
  __shared__ u64 best[max_blocks_per_row];     // in the row's first block: each block's best
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
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
/// ids[row] = a token drawn from the row after temperature, top-k and top-p (SamplingParams); grid:
/// rows x blocks_per_row(vocab), clusters of a row's blocks. @pre params.temperature > 0.
template <bool Sharded>
__global__ void __launch_bounds__(block_threads)
sample_kernel(std::uint16_t const* __restrict__ logits, std::int64_t ld, int vocab, SamplingParams params,
              std::uint64_t step, std::uint64_t const* device_step, std::int32_t* __restrict__ ids,
              LogitsLayout layout) {
  __shared__ SampleShared s;
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
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
    host::argument_error(rule,
                         "temperature is " + show(params.temperature) + "; it must be finite and >= 0 (0: greedy)");
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
