// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward plan and its arguments (the kernel is fmha_sm90.cuh).
//   O = softmax(scale · Q Kᵀ + mask) V, and optionally LSE = log Σ exp(scale · Q Kᵀ + mask) per row.
// Tensors are [batch, seq, heads, dim] with any element strides whose innermost is 1 (a fused QKV
// buffer is read in place); varlen packs the sequences as [total, heads, dim] with cumulative offsets.
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/attention/tile_order.hpp>
#include <cute_cpp/diag/attention.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/alternating_turns.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/sched/fast_divmod.hpp>
#include <cute_cpp/smem/allocator.hpp>
#include <cute_cpp/smem/smem_stages.hpp>
#include <cute_cpp/smem/smem_tile.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// The static shape of an attention kernel: Q rows per CTA tile (64 per consumer warpgroup), keys
/// per K/V tile, K/V stages.
struct FmhaConfig {
  int block_m = 128;
  int block_n = 128;
  int stages = 2;
  int q_stages = 1;  ///< 2: the next tile's Q loads while this tile's last blocks run
};

/// An attention forward plan: element type, head dims (D_qk, D_v) and the tile shape, checked
/// where the type is formed ([attention.*]) and by verify_plan (shared memory, threads).
template <class T, int HeadDim, int HeadDimV, FmhaConfig Config>
struct FmhaPlan {
  static_assert(diag::attention_head_dims<HeadDim, HeadDimV>::ok &&
                diag::attention_tile<Config.block_m, Config.block_n, Config.stages>::ok);
  using Element = T;
  using OutputElement = T;  ///< O's (the FP8 plans' differs: fmha_fp8.hpp)
  static constexpr bool pageable_kv = true;  ///< K and V may come from a paged cache
  static constexpr int head_dim = HeadDim, head_dim_v = HeadDimV;
  static constexpr int block_m = Config.block_m, block_n = Config.block_n, stages = Config.stages;
  static constexpr int q_stages = Config.q_stages;
  static constexpr int consumer_warpgroups = block_m / 64;
  static constexpr int consumer_warps = 4 * consumer_warpgroups;
  static constexpr int threads = 128 * (consumer_warpgroups + 1);
  /// setmaxnreg budgets: the producer gives its registers to the consumers (S, P and O live there).
  static constexpr int producer_registers = consumer_warpgroups == 2 ? 24 : 32;
  static constexpr int consumer_registers = consumer_warpgroups == 2 ? 240 : 160;

  /// Q and K are loaded and read in 64-column chunks (one 128-byte swizzle row each); V is the
  /// M/N-major B of O += P V (D_v contiguous), in 64-column boxes of block_n rows.
  static constexpr int qk_chunks = HeadDim / 64;
  using QChunk = SmemKMajor<T, block_m, 64>;
  using KChunk = SmemKMajor<T, block_n, 64>;
  using VTile = SmemMNMajor<T, HeadDimV, block_n>;
  /// S = Q Kᵀ per chunk (SS), O += P V with P in registers (RS).
  using MmaS = sm90::WgmmaTiledMma<T, T, float, sm90::AOperand<QChunk>, sm90::BOperand<KChunk>, 1, block_n>;
  using MmaO = sm90::WgmmaTiledMmaRS<T, T, float, sm90::BOperand<VTile>, 1, HeadDimV>;

  using Barriers =
      NamedBarrierAllocation<BarrierRequest<consumer_warpgroups, 128>, BarrierRequest<consumer_warpgroups, 256>,
                             BarrierRequest<1, 128 * consumer_warpgroups>>;
  using OutputStore = sm90::EpilogueTmaStore<T, HeadDimV, typename Barriers::template user<0>>;
  using IssueTurns = AlternatingTurns<typename Barriers::template user<1>>;
  using ConsumersBarrier = typename Barriers::template user<2>;  ///< every consumer thread

  static constexpr std::uint32_t q_bytes = std::uint32_t(block_m) * HeadDim * sizeof(T);
  static constexpr std::uint32_t k_bytes = std::uint32_t(block_n) * HeadDim * sizeof(T);
  static constexpr std::uint32_t v_bytes = std::uint32_t(block_n) * HeadDimV * sizeof(T);
  /// Every consumer warp releases each stage (Q's stages hold one tile's Q each).
  using PipelineQ = PipelineTmaAsync<q_stages, consumer_warps, q_bytes>;
  using PipelineK = PipelineTmaAsync<stages, consumer_warps, k_bytes>;
  using PipelineV = PipelineTmaAsync<stages, consumer_warps, v_bytes>;
  using Pipeline = PipelineK;  ///< what verify_plan checks the consumer arrivals of
  using MapQ = TensorMap<T, QChunk>;
  using MapK = TensorMap<T, KChunk>;
  using MapV = TensorMap<T, VTile>;
  using MapO = typename OutputStore::Map;
  static_assert(qk_chunks * MapQ::tile_bytes == q_bytes && qk_chunks * MapK::tile_bytes == k_bytes &&
                    MapV::tile_bytes == v_bytes && SmemTile<T, QChunk>::bytes == MapQ::tile_bytes &&
                    SmemTile<T, KChunk>::bytes == MapK::tile_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  /// Q's and K's stages as qk_chunks chunks each, V's as one tile: the layouts TMA fills and
  /// wgmma reads.
  struct SharedStorage {
    SmemStages<T, QChunk, q_stages, qk_chunks> q;
    SmemStages<T, KChunk, stages, qk_chunks> k;
    SmemStages<T, VTile, stages> v;
    typename OutputStore::SharedStorage epilogue[consumer_warpgroups];
    typename PipelineQ::SharedStorage q_barriers;
    typename PipelineK::SharedStorage k_barriers;
    typename PipelineV::SharedStorage v_barriers;
  };
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
};

/// The run-time half of an attention call. Fixed length: Q [batch, seq_q, heads_q, head_dim],
/// K [batch, seq_k, heads_kv, head_dim], V [batch, seq_k, heads_kv, head_dim_v], O like Q with
/// head_dim_v, LSE [batch, heads_q, seq_q] (float, optional). Varlen (cu_seqlens_q/k set, device
/// arrays of batch + 1 monotone offsets): Q [total_q, heads_q, head_dim] and so on, seq_q/seq_k
/// the longest sequence, LSE [heads_q, total_q]; the batch strides are ignored. O's element type
/// is the inputs' but for the FP8 forward (e4m3 in, bf16 out: FmhaFp8Arguments, fmha_fp8.hpp).
template <class T, class O = T>
struct FmhaArguments {
  T const* q = nullptr;
  T const* k = nullptr;
  T const* v = nullptr;
  O* o = nullptr;
  float* lse = nullptr;
  AttentionStrides q_stride{}, k_stride{}, v_stride{}, o_stride{};
  int batch = 1, seq_q = 0, seq_k = 0, heads_q = 1, heads_kv = 1;
  int head_dim = 0, head_dim_v = 0;  ///< must be the plan's (checked)
  float softmax_scale = 0.0f;        ///< 0: 1 / sqrt(head_dim)
  /// Masks: causal (bottom-right aligned when seq_q != seq_k, as FlashAttention), and a sliding
  /// window of keys [i + seq_k - seq_q - window_left, i + seq_k - seq_q + window_right] for query
  /// i (-1: unbounded on that side). causal is window_right = 0.
  bool causal = false;
  int window_left = -1, window_right = -1;
  std::int32_t const* cu_seqlens_q = nullptr;
  std::int32_t const* cu_seqlens_k = nullptr;
  std::int64_t total_q = 0, total_k = 0;  ///< varlen: the packed extents (rows of Q and K)
  /// Varlen: the offsets on the host too (optional), to check them before the launch.
  std::int32_t const* cu_seqlens_q_host = nullptr;
  std::int32_t const* cu_seqlens_k_host = nullptr;
  /// A paged K/V cache (block_table set; chunked prefill against a cache): K is [num_pages,
  /// page_size, heads_kv, head_dim] and V alike (k_stride.batch / v_stride.batch: the page
  /// stride); sequence b's key j lies in page block_table[b * max_pages_per_seq + j / page_size];
  /// its length is seqlens_k[b] (device; seq_k: the longest). Q is fixed length or varlen (cu_seqlens_q);
  /// cu_seqlens_k stays null. page_size must be a multiple of the plan's key tile (64 or 128 do).
  std::int32_t const* block_table = nullptr;
  std::int32_t const* seqlens_k = nullptr;
  int page_size = 0, max_pages_per_seq = 0, num_pages = 0;
  /// Paged: the table and lengths on the host too (optional), to check them before the launch.
  std::int32_t const* block_table_host = nullptr;
  std::int32_t const* seqlens_k_host = nullptr;
};

/// What the kernel reads besides the tensor maps, fixed for a launch.
struct FmhaParams {
  std::int32_t batch = 1, seq_q = 0, seq_k = 0, heads_q = 1, group = 1;  ///< group: q heads per kv head
  std::int32_t m_blocks = 0;
  AttentionTileOrder order;  ///< a tile's coordinates from its linear index
  float scale_log2 = 0.0f;  ///< softmax scale times log2(e): exp(scale x) = 2^(scale_log2 x)
  std::int32_t window_left = -1, window_right = -1;
  std::int32_t const* cu_seqlens_q = nullptr;
  std::int32_t const* cu_seqlens_k = nullptr;
  std::int32_t total_q = 0, total_k = 0;
  float* lse = nullptr;
  std::int64_t lse_head_stride = 0, lse_batch_stride = 0;
  void* o = nullptr;  ///< for the rows of a varlen tile that TMA cannot clip
  std::int64_t o_seq_stride = 0, o_head_stride = 0;
  std::int32_t const* block_table = nullptr;
  std::int32_t const* seqlens_k = nullptr;
  std::int32_t max_pages_per_seq = 0, num_pages = 0;
  FastDivmod page_div;  ///< by the page size
  /// Q is packed (cu_seqlens_q): its batch coordinate is 0, its rows offset per sequence.
  [[nodiscard]] CUTE_CPP_HD constexpr bool varlen() const { return cu_seqlens_q != nullptr; }
  [[nodiscard]] CUTE_CPP_HD constexpr bool paged() const { return block_table != nullptr; }
  [[nodiscard]] CUTE_CPP_HD constexpr bool masked() const { return window_left >= 0 || window_right >= 0; }
};

}  // namespace cute_cpp::kernels

namespace cute_cpp::kernels {

/// The plans run_attention chooses from, by head dims (measured on the H200, README):
/// D64: 192 Q rows, three consumer warpgroups (each softmax hides behind two others' GEMMs;
///      16% faster than 128 rows); 112 keys leave the 160-register consumers room (128 spilled).
/// D128: 160 keys (4% faster than 128 with two Q stages at 4096 keys); one Q stage is what then
///       fits. Up to 1024 keys, D128Short (below).
/// D256: 64 keys (12% faster than 48), two stages of 64 KB.
namespace fmha_plans {
template <class T>
using D64 = FmhaPlan<T, 64, 64, FmhaConfig{.block_m = 192, .block_n = 112, .stages = 4, .q_stages = 2}>;
template <class T>
using D128 = FmhaPlan<T, 128, 128, FmhaConfig{.block_m = 128, .block_n = 160, .stages = 2, .q_stages = 1}>;
template <class T>
using D256 = FmhaPlan<T, 256, 256, FmhaConfig{.block_m = 128, .block_n = 64, .stages = 2}>;
/// MLA-style prefill (D_qk 192 = 128 + 64 rope, D_v 128): 112 keys fit two stages.
template <class T>
using D192V128 = FmhaPlan<T, 192, 128, FmhaConfig{.block_m = 128, .block_n = 112, .stages = 2}>;
/// A paged cache's key tiles lie within its pages: tiles of 128 keys (64 for D256) serve pages
/// of any multiple of them.
template <class T>
using D64Paged = FmhaPlan<T, 64, 64, FmhaConfig{.block_m = 128, .block_n = 128, .stages = 4, .q_stages = 2}>;
/// D128 on a paged cache, and on sequences of at most 1024 keys: there 160-key tiles leave a
/// partly empty last block (1024 = 6.4 x 160) and the next tile's Q, loaded during this tile's
/// blocks, hides more of the per-tile cost (5% faster at 1024 keys, 18% at 512; 4-6% slower from
/// 2048 keys; bench/attention/bench_sdpa_fmha.py --sweep).
template <class T>
using D128Short = FmhaPlan<T, 128, 128, FmhaConfig{.block_m = 128, .block_n = 128, .stages = 2, .q_stages = 2}>;
/// The longest key sequence D128Short serves.
inline constexpr int d128_short_keys = 1024;

template <class... Plans>
struct FmhaPlanList {};
/// Every plan fmha_*_sm90.cu instantiate (run_attention's), for the build report.
using Instantiated =
    FmhaPlanList<D64<__nv_bfloat16>, D128<__nv_bfloat16>, D256<__nv_bfloat16>, D192V128<__nv_bfloat16>,
                 D64Paged<__nv_bfloat16>, D128Short<__nv_bfloat16>, D64<__half>, D128<__half>, D256<__half>,
                 D192V128<__half>, D64Paged<__half>, D128Short<__half>>;
}  // namespace fmha_plans

/// Attention with the plan for the arguments' head dims (64, 128, 256; 192 with D_v 128); others are
/// std::invalid_argument [attention.head-dim]. Defined for __nv_bfloat16 and __half (fmha_*_sm90.cu).
template <class T>
void run_attention(FmhaArguments<T> const& args, cudaStream_t stream);

}  // namespace cute_cpp::kernels
