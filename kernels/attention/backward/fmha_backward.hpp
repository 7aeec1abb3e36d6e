// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's plan, arguments, parameters and workspace (the kernels are
// fmha_backward_sm90.cuh). Given Q, K, V, O, dO and the forward's LSE:
//   P = exp(scale Q Kᵀ + mask - LSE), dV = Pᵀ dO, dP = dO Vᵀ, D = rowsum(dO ∘ O),
//   dS = P ∘ (dP - D), dQ = scale dS K, dK = scale dSᵀ Q.
// Tensors are the forward's: [batch, seq, heads, dim] with any element strides whose innermost is 1,
// or varlen [total, heads, dim] with cumulative offsets.
#include <cute_cpp/kernels/attention/backward/fmha_backward_workspace.hpp>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/smem/allocator.hpp>
#include <cute_cpp/smem/smem_stages.hpp>
#include <cute_cpp/smem/smem_tile.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::diag {
/// attention.backward.tile: 64 queries a step (one wgmma atom of dQ and of Sᵀ's N) and 64 keys a
/// consumer warpgroup.
template <int BlockM, int BlockN>
struct attention_backward_tile {
  static_assert(BlockM == kernels::fmha_backward_block_m && BlockN % 64 == 0 && BlockN >= 64 && BlockN <= 128,
                "cute-cpp [attention.backward.tile]: the backward takes 64 queries a step and 64 or 128 keys a CTA "
                "(64 a consumer warpgroup)");
  static constexpr bool ok = true;
};
/// attention.backward.head-dim: dK and dV stay in registers (2 x D / 2 floats a thread besides Sᵀ, dPᵀ
/// and dQ), which fits the 240-register budget for head dims 64 and 128 only.
template <int HeadDim>
struct attention_backward_head_dim {
  static_assert(HeadDim == 64 || HeadDim == 128,
                "cute-cpp [attention.backward.head-dim]: the backward is built for head dims 64 and 128 (dK and dV "
                "of 256 do not fit a warpgroup's registers)");
  static constexpr bool ok = true;
};
}  // namespace cute_cpp::diag

namespace cute_cpp::kernels {

/// The static shape of the backward: keys per CTA (64 per consumer warpgroup), Q / dO stages.
struct FmhaBackwardConfig {
  int block_n = 128;
  int stages = 2;
};

/// A backward plan: element type, head dim (Q, K, V and O alike) and the tile shape.
/// Per CTA: one key block (K, V loaded once), walked over every query block (and every q head of
/// its kv head's group) that sees it. Each consumer warpgroup owns 64 key rows: Sᵀ and dPᵀ
/// (64 keys x 64 queries), dK and dV (64 keys x D) live in its registers.
template <class T, int HeadDim, FmhaBackwardConfig Config>
struct FmhaBackwardPlan {
  static_assert(diag::attention_backward_head_dim<HeadDim>::ok &&
                diag::attention_backward_tile<fmha_backward_block_m, Config.block_n>::ok);
  using Element = T;
  static constexpr int head_dim = HeadDim;
  static constexpr int block_m = fmha_backward_block_m, block_n = Config.block_n, stages = Config.stages;
  static constexpr int consumer_warpgroups = block_n / 64;
  static constexpr int consumer_warps = 4 * consumer_warpgroups;
  static constexpr int threads = 128 * (consumer_warpgroups + 1);
  static constexpr int producer_registers = 24;
  static constexpr int consumer_registers = consumer_warpgroups == 2 ? 240 : 160;
  static constexpr int chunks = HeadDim / 64;  ///< 64-column chunks of the head dim (one 128-byte swizzle row)
  /// dQ's split between the warpgroups: by D's 64-column chunks when there are as many chunks as
  /// warpgroups (each reads all keys' dS), else by keys (each adds its own 64 keys' share).
  static constexpr bool dq_split_keys = chunks != consumer_warpgroups;
  static_assert(!dq_split_keys || chunks == 1,
                "cute-cpp [attention.backward.tile]: dQ split by keys reads K as one 64-column chunk");

  /// K-major chunks (as TMA writes them, 64 columns each); `chunks` of them side by side are also
  /// the M/N-major tile of the whole head dim (block c of ((64, chunks), rows)).
  using QChunk = SmemKMajor<T, block_m, 64>;
  using KChunk = SmemKMajor<T, block_n, 64>;
  using QTileMN = SmemMNMajor<T, HeadDim, block_m>;  ///< Q or dO as B of dK / dV (N = D, K = queries)
  /// dSᵀ (block_n keys of 64 contiguous queries) as A of dQ (M = queries, K = keys).
  using DsTile = SmemMNMajor<T, block_m, block_n>;
  static constexpr int dq_keys = dq_split_keys ? 64 : block_n;  ///< keys a warpgroup's dQ sums over
  using DsOperand = SmemMNMajor<T, block_m, dq_keys>;
  using KOperandMN = SmemMNMajor<T, 64, dq_keys>;  ///< K's 64 columns as B of dQ (N = 64, K = keys)
  static_assert(dq_split_keys || size_in_bytes<T, DsOperand>() == size_in_bytes<T, DsTile>());
  /// Where element (key row r, query c) of dSᵀ lies in DsTile: row r's 64 queries, the 128-byte
  /// swizzle in 16-byte units, so a pair (c, c + 1), c even, stays adjacent.
  static CUTE_CPP_HD constexpr int ds_offset(int r, int c) { return int(SwizzleFor<T, 128>{}(r * 64 + c)); }

  /// Sᵀ = K Qᵀ and dPᵀ = V dOᵀ (SS, over D's chunks); dV += Pᵀ dO and dK += dSᵀ Q (RS, Pᵀ and dSᵀ
  /// from registers); dQ = dS K (SS, dSᵀ read M-major).
  using MmaS = sm90::WgmmaTiledMma<T, T, float, sm90::AOperand<KChunk>, sm90::BOperand<QChunk>, 1, block_m>;
  using MmaKV = sm90::WgmmaTiledMmaRS<T, T, float, sm90::BOperand<QTileMN>, 1, HeadDim>;
  using MmaQ = sm90::WgmmaTiledMma<T, T, float, sm90::AOperand<DsOperand>, sm90::BOperand<KOperandMN>, 1, 64>;
#if defined(__CUDACC__)
  static_assert(std::is_same_v<typename MmaKV::FragmentK, typename MmaS::FragmentC>,
                "cute-cpp [attention.backward.tile]: Pᵀ's accumulator must be dV's A fragment");
#endif

  using Barriers = NamedBarrierAllocation<BarrierRequest<1, 128 * consumer_warpgroups>>;
  using ConsumersBarrier = typename Barriers::template user<0>;  ///< every consumer thread

  static constexpr std::uint32_t q_bytes = std::uint32_t(block_m) * HeadDim * sizeof(T);
  static constexpr std::uint32_t row_bytes = std::uint32_t(block_m) * sizeof(float);  ///< LSE or D of a step
  static constexpr std::uint32_t kv_bytes = 2u * std::uint32_t(block_n) * HeadDim * sizeof(T);
  /// K and V once; Q with its rows' LSE, dO with its rows' D, stage by stage. Every consumer warp
  /// releases each stage.
  using PipelineKV = PipelineTmaAsync<1, consumer_warps, kv_bytes>;
  using PipelineQ = PipelineTmaAsync<stages, consumer_warps, q_bytes + row_bytes>;
  using Pipeline = PipelineQ;  ///< what verify_plan checks the consumer arrivals of
  using MapQ = TensorMap<T, QChunk>;
  using MapK = TensorMap<T, KChunk>;
  static_assert(chunks * MapQ::tile_bytes == q_bytes && 2 * chunks * MapK::tile_bytes == kv_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes and rows");

  struct SharedStorage {
    SmemStages<T, KChunk, 1, chunks> k;
    SmemStages<T, KChunk, 1, chunks> v;
    SmemStages<T, QChunk, stages, chunks> q;
    SmemStages<T, QChunk, stages, chunks> d_o;
    SmemStages<T, DsTile, 2> ds;  ///< dSᵀ, double-buffered across steps
    alignas(16) float lse[stages][block_m];
    alignas(16) float delta[stages][block_m];
    typename PipelineKV::SharedStorage kv_barriers;
    typename PipelineQ::SharedStorage q_barriers;
    typename PipelineQ::SharedStorage do_barriers;
  };
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
};

/// The plans run_attention_backward chooses from, by head dim.
namespace fmha_backward_plans {
template <class T>
using D64 = FmhaBackwardPlan<T, 64, FmhaBackwardConfig{.block_n = 128, .stages = 2}>;
template <class T>
using D128 = FmhaBackwardPlan<T, 128, FmhaBackwardConfig{.block_n = 128, .stages = 2}>;
/// A list of plans (what the fmha_backward_*_sm90.cu units instantiate, for the build report).
template <class... Plans>
struct FmhaBackwardPlanList {};
using Instantiated = FmhaBackwardPlanList<D64<__nv_bfloat16>, D128<__nv_bfloat16>, D64<__half>, D128<__half>>;
}  // namespace fmha_backward_plans

/// The run-time half of a backward call. Shapes as FmhaArguments: Q, O, dO, dQ [batch, seq_q,
/// heads_q, head_dim], K, V, dK, dV [batch, seq_k, heads_kv, head_dim]; LSE as the forward wrote
/// it ([batch, heads_q, seq_q] float; varlen [heads_q, total_q]). dK and dV are summed over the q
/// heads sharing a kv head. `workspace` holds fmha_backward_workspace(...).bytes (float scratch:
/// the padded LSE and D, dQ in float, the deterministic mode's semaphores).
template <class T>
struct FmhaBackwardArguments {
  T const* q = nullptr;
  T const* k = nullptr;
  T const* v = nullptr;
  T const* o = nullptr;
  T const* d_o = nullptr;
  float const* lse = nullptr;
  T* dq = nullptr;
  T* dk = nullptr;
  T* dv = nullptr;
  AttentionStrides q_stride{}, k_stride{}, v_stride{}, o_stride{}, do_stride{}, dq_stride{}, dk_stride{},
      dv_stride{};
  int batch = 1, seq_q = 0, seq_k = 0, heads_q = 1, heads_kv = 1;
  int head_dim = 0;
  float softmax_scale = 0.0f;  ///< 0: 1 / sqrt(head_dim)
  bool causal = false;         ///< bottom-right aligned when seq_q != seq_k, as the forward
  /// dQ's float additions in a fixed order (a semaphore per query block orders the key blocks), so
  /// two runs give the same bits; a little slower.
  bool deterministic = false;
  std::int32_t const* cu_seqlens_q = nullptr;
  std::int32_t const* cu_seqlens_k = nullptr;
  std::int64_t total_q = 0, total_k = 0;
  std::int32_t const* cu_seqlens_q_host = nullptr;
  std::int32_t const* cu_seqlens_k_host = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

/// What the kernels read besides the tensor maps, fixed for a launch.
struct FmhaBackwardParams {
  std::int32_t batch = 1, seq_q = 0, seq_k = 0, heads_q = 1, group = 1;
  float scale = 0.0f, scale_log2 = 0.0f;
  bool causal = false, deterministic = false;
  std::int32_t const* cu_seqlens_q = nullptr;
  std::int32_t const* cu_seqlens_k = nullptr;
  std::int32_t total_q = 0, total_k = 0;
  FmhaBackwardWorkspace ws;
  float* lse_log2 = nullptr;        ///< [heads_q, padded rows]: LSE log2(e), +inf past a sequence
  float* delta = nullptr;           ///< [heads_q, padded rows]: D, 0 past a sequence
  float* dq_accum = nullptr;        ///< [heads_q, padded rows, head_dim]
  std::uint32_t* semaphores = nullptr;  ///< [heads_q, padded rows / block_m]
  void* dk = nullptr;
  void* dv = nullptr;
  AttentionStrides dk_stride, dv_stride;
  [[nodiscard]] CUTE_CPP_HD constexpr bool varlen() const { return cu_seqlens_q != nullptr; }
};

/// The backward with the plan for the arguments' head dim (64 or 128; others are
/// std::invalid_argument [attention.backward.head-dim]). Defined for __nv_bfloat16 and __half
/// (fmha_backward_*_sm90.cu).
template <class T>
void run_attention_backward(FmhaBackwardArguments<T> const& args, cudaStream_t stream);

/// The workspace bytes run_attention_backward needs for these arguments (its sizes only).
template <class T>
std::size_t attention_backward_workspace_bytes(FmhaBackwardArguments<T> const& args) {
  bool const varlen = args.cu_seqlens_q != nullptr;
  return fmha_backward_workspace(args.batch, args.seq_q, args.heads_q, args.head_dim, varlen ? args.total_q : 0,
                                 varlen, args.deterministic)
      .bytes;
}

}  // namespace cute_cpp::kernels
