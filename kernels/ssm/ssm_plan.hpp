// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The state-space (Mamba-2) kernels' static plans and the pieces the host computes too: SsdPlan
// and ConvPlan with their rules, dt's softplus and limits, the tiling of a varlen batch into
// per-sequence tiles (locate_tile: chunks never cross a sequence), and the SSD prefill's
// workspace layout. Host and device; compiles with plain g++ (tests/cpu/ssm).
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// ---- rules on the static choices (template arguments = the offending values) ----
// In cute_cpp::diag with the library's other rules: a cute_cpp::kernels::diag would hide that namespace
// from every plan in cute_cpp::kernels included after this header.
namespace cute_cpp::diag {
/// Rule ssm.plan.head-dim: the chunk kernels give each of 16 thread columns P/16 head lanes, and
/// the output kernel's (32, P) and (P, 33) f32 tiles fit its static shared memory up to P = 64.
template <int HeadDim>
struct ssm_head_dim_valid {
  static_assert(HeadDim >= 16 && HeadDim <= 64 && HeadDim % 16 == 0,
                "cute-cpp [ssm.plan.head-dim]: the head dimension P must be a multiple of 16 in 16..64");
  static constexpr bool ok = true;
};
/// Rule ssm.plan.state: the decode update gives each lane N/32 state entries of a row.
template <int State>
struct ssm_state_valid {
  static_assert(State >= 32 && State <= 256 && State % 32 == 0,
                "cute-cpp [ssm.plan.state]: the state size N must be a multiple of 32 in 32..256");
  static constexpr bool ok = true;
};
/// Rule ssm.plan.chunk: a chunk's (L, 32) tiles of C and B share 48 KiB of static shared memory.
template <int Chunk>
struct ssm_chunk_valid {
  static_assert(Chunk >= 16 && Chunk <= 128 && Chunk % 16 == 0,
                "cute-cpp [ssm.plan.chunk]: the chunk length must be a multiple of 16 in 16..128");
  static constexpr bool ok = true;
};
/// Rule ssm.plan.registers: the chunk-state and state-passing kernels hold P*N/256 floats a thread.
template <int HeadDim, int State>
struct ssm_state_registers {
  static_assert(HeadDim * State <= 64 * 128,
                "cute-cpp [ssm.plan.registers]: P * N must be at most 8192 (64 x 128): a thread of the "
                "chunk-state kernel holds P*N/256 accumulators");
  static constexpr bool ok = true;
};
/// Rule ssm.plan.tensor-cores: the tensor-core chunk kernels lay 8 warps over (L, L), (P, N) and
/// (L, P) tiles of m16n8k8 atoms: 2 x 4 warps over C Bᵀ and the chunk states, 4 x 2 over the output.
template <bool TensorCores, int HeadDim, int State, int Chunk>
struct ssm_tensor_core_tiles {
  static_assert(!TensorCores || (Chunk % 64 == 0 && HeadDim % 32 == 0 && State % 32 == 0),
                "cute-cpp [ssm.plan.tensor-cores]: the tensor-core SSD kernels need the chunk a multiple of 64, the "
                "head dimension P of 32 and the state N of 32");
  static constexpr bool ok = true;
};
/// Rule ssm.plan.conv-width: the causal conv1d holds its window of Width inputs in registers.
template <int Width>
struct ssm_conv_width_valid {
  static_assert(Width >= 2 && Width <= 8, "cute-cpp [ssm.plan.conv-width]: the conv1d kernel width must be in 2..8");
  static constexpr bool ok = true;
};
}  // namespace cute_cpp::diag

namespace cute_cpp::kernels {

// ---- plans ----

/// Where the SSD prefill's three chunk products (C Bᵀ, the chunk states, the outputs) run: f32 FMAs
/// on the CUDA cores, or mma.sync on the tensor cores in 3xTF32 (f32's accuracy; MmaTF32x3Op).
enum class SsdProducts { cuda_cores, tensor_cores };

/// The Mamba-2 SSD chunked scan's static shape: head dimension P, state size N, chunk length L,
/// and where its chunk products run.
template <int HeadDim, int State, int Chunk, SsdProducts Products = SsdProducts::cuda_cores>
struct SsdPlan {
  static_assert(diag::ssm_head_dim_valid<HeadDim>::ok && diag::ssm_state_valid<State>::ok &&
                diag::ssm_chunk_valid<Chunk>::ok && diag::ssm_state_registers<HeadDim, State>::ok &&
                diag::ssm_tensor_core_tiles<Products == SsdProducts::tensor_cores, HeadDim, State, Chunk>::ok);
  static constexpr SsdProducts products = Products;
  static constexpr int head_dim = HeadDim;
  static constexpr int state = State;
  static constexpr int chunk = Chunk;
  static constexpr int threads = 256;  // a 16 x 16 grid of threads over each chunk kernel's output
  static constexpr int k_tile = 32;    // the reduction dimension's tile in shared memory
  static constexpr int state_elems = HeadDim * State;
  static constexpr int state_per_thread = state_elems / threads;
};

/// The causal depthwise conv1d's static shape: the kernel width (4 for Mamba-2).
template <int Width>
struct ConvPlan {
  static_assert(diag::ssm_conv_width_valid<Width>::ok);
  static constexpr int width = Width;
  static constexpr int state_len = Width - 1;  // the inputs a sequence carries to its next call
  static constexpr int channels_per_block = 128;
  static constexpr int tile = 64;  // tokens a thread walks; >= state_len, so only a first tile reads the state
  static_assert(tile >= state_len);
};

/// Nemotron-3 Nano's Mamba-2 layers: P 64, N 128, chunk 128; conv width 4.
using NemotronSsdPlan = SsdPlan<64, 128, 128>;
/// The same on the tensor cores: checked and timed beside it (tests/gpu/ssm, bench/ssm) before the
/// model takes it.
using NemotronSsdPlanTensorCores = SsdPlan<64, 128, 128, SsdProducts::tensor_cores>;
using NemotronConvPlan = ConvPlan<4>;

// ---- dt: softplus(dt + dt_bias), clamped ----

/// The clamp applied to dt after the softplus. transformers' NemotronH torch path clamps below at
/// time_step_min and not above (`torch.clamp(dt, self.time_step_min)`); the mamba_ssm kernels its
/// CUDA path calls take time_step_limit, (0, inf) by default, which is no clamp.
struct DtLimits {
  float lo = 0.0f;
  float hi = INFINITY;
};

/// softplus(raw + bias) as torch computes it (the input itself above 20), clamped to [lo, hi].
template <class F>
CUTE_CPP_HD inline F softplus_dt(F raw, F bias, F lo, F hi) {
  F const v = raw + bias;
  F s;
  if constexpr (std::is_same_v<F, float>) s = v > 20.0f ? v : log1pf(expf(v));
  else s = v > 20.0 ? v : log1p(exp(v));
  s = s < lo ? lo : s;
  return s > hi ? hi : s;
}

// ---- varlen tiling: per-sequence tiles, never crossing a sequence ----

/// One tile of a varlen batch: tokens [begin, end) of sequence `seq`, its `index`-th tile.
struct SeqTile {
  int seq = -1;
  int begin = 0;
  int end = 0;
  int index = 0;
  [[nodiscard]] CUTE_CPP_HD constexpr bool valid() const { return seq >= 0; }
};

/// The `n`-th tile of `tile` tokens when each sequence of cu_seqlens (num_seqs + 1 offsets) is
/// cut into ceil(len / tile) tiles in order (with empty_tile, an empty sequence has one empty
/// tile); invalid past the last tile.
///   cu_seqlens {0, 130, 131}, tile 128: n 0 -> seq 0 [0,128); 1 -> seq 0 [128,130); 2 -> seq 1 [130,131)
CUTE_CPP_HD inline SeqTile locate_tile(int const* cu_seqlens, int num_seqs, int tile, int n, bool empty_tile = false) {
  for (int s = 0; s < num_seqs; ++s) {
    int const begin = cu_seqlens[s], end = cu_seqlens[s + 1];
    int tiles = (end - begin + tile - 1) / tile;
    if (empty_tile && tiles == 0) tiles = 1;
    if (n < tiles) {
      int const b = begin + n * tile;
      return {s, b, b + tile < end ? b + tile : end, n};
    }
    n -= tiles;
  }
  return {};
}

/// The global index of sequence `seq`'s first tile (the tiles of the sequences before it).
CUTE_CPP_HD inline int first_tile(int const* cu_seqlens, int seq, int tile) {
  int n = 0;
  for (int s = 0; s < seq; ++s) n += (cu_seqlens[s + 1] - cu_seqlens[s] + tile - 1) / tile;
  return n;
}

/// An upper bound of the tiles of any num_seqs sequences of total_tokens tokens: without
/// empty_tile, sum ceil(len_i / tile) <= (total + num_seqs (tile - 1)) / tile, reached when every
/// length is 1 more than a multiple of the tile; with it, sum max(ceil(len_i / tile), 1) <=
/// total / tile + num_seqs, reached, e.g., when every sequence is empty.
CUTE_CPP_HD constexpr std::int64_t max_tiles(std::int64_t total_tokens, std::int64_t num_seqs, int tile,
                                             bool empty_tile = false) {
  return empty_tile ? total_tokens / tile + num_seqs : (total_tokens + num_seqs * (tile - 1)) / tile;
}

// ---- the SSD prefill's workspace ----

/// Where the SSD prefill keeps its intermediates in the caller's workspace (byte offsets, each
/// 256-byte aligned): dt after softplus and its chunk-local cumulative sum dA (T, H) f32, C Bᵀ per
/// chunk and group (chunks, G, L, L) f32, the chunk states (chunks, H, P, N) f32 (overwritten
/// with each chunk's incoming state by the state passing).
struct SsdWorkspace {
  std::size_t dt = 0;
  std::size_t dA_cumsum = 0;
  std::size_t cb = 0;
  std::size_t states = 0;
  std::size_t bytes = 0;
  std::int64_t chunks = 0;
};

/// The workspace layout of Plan for total_tokens tokens in num_seqs sequences, heads and groups.
template <class Plan>
constexpr SsdWorkspace ssd_workspace(std::int64_t total_tokens, std::int64_t num_seqs, int heads, int groups) {
  auto const align = [](std::size_t b) { return (b + 255) / 256 * 256; };
  SsdWorkspace w;
  w.chunks = max_tiles(total_tokens, num_seqs, Plan::chunk);
  std::size_t const per_token = align(std::size_t(total_tokens) * std::size_t(heads) * sizeof(float));
  w.dt = 0;
  w.dA_cumsum = per_token;
  w.cb = 2 * per_token;
  std::size_t const cb_bytes =
      align(std::size_t(w.chunks) * std::size_t(groups) * Plan::chunk * Plan::chunk * sizeof(float));
  w.states = w.cb + cb_bytes;
  w.bytes = w.states + std::size_t(w.chunks) * std::size_t(heads) * Plan::state_elems * sizeof(float);
  return w;
}

}  // namespace cute_cpp::kernels
