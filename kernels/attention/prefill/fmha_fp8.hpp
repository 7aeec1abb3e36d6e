// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 attention forward's plan and arguments (the kernel is fmha_fp8_sm90.cuh): e4m3 Q, K, V
// with descale factors per tensor or per (sequence, kv head), fp32 softmax, bf16 O, the LSE
// optional; causal / window masks, GQA and varlen as the 16-bit forward (fmha.hpp), no paged cache.
// Head dims 64, 128 and 256 (diag::attention_fp8_plan: the tiles each takes).
//   O = softmax(scale · dq dk · Q Kᵀ + mask) · dv V
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/attention/fp8_scales.hpp>
#include <cute_cpp/mma/sm90_wgmma_fp8_rs.hpp>
#include <cute_cpp/pipeline/pipeline_async.hpp>

#include <cuda_fp8.h>

namespace cute_cpp::kernels {

/// The FP8 plan's static shape: FmhaConfig's, and the stages of V as loaded (before its transpose).
struct FmhaFp8Config {
  int block_m = 128;
  int block_n = 128;
  int stages = 2;    ///< K's and Vᵀ's
  int q_stages = 1;
  int v_stages = 2;  ///< V's as TMA loads it, read by the producer warps' transpose
};

/// An FP8 attention forward plan (head dim D = D_qk = D_v), checked where the type is formed
/// ([attention.fp8.*], [attention.tile]) and by verify_plan (shared memory, threads).
/// Warpgroup 0: one thread loads Q, K and V by TMA, three warps transpose V into Vᵀ (8-bit
/// wgmma reads B K-major only: Vᵀ's rows are dims, its keys contiguous); warpgroups 1, 2: 64 Q
/// rows each, S = Q Kᵀ (QGMMA SS) and O += P Vᵀ with P e4m3 in registers (QGMMA RS).
template <int HeadDim, FmhaFp8Config Config>
struct FmhaFp8Plan {
  static_assert(diag::attention_fp8_plan<HeadDim, HeadDim, Config.block_m, Config.block_n>::ok &&
                diag::attention_tile<Config.block_m, Config.block_n, Config.stages>::ok);
  using Element = __nv_fp8_e4m3;
  using OutputElement = __nv_bfloat16;
  static constexpr bool pageable_kv = false;  ///< contiguous or varlen K and V only
  static constexpr int head_dim = HeadDim, head_dim_v = HeadDim;
  static constexpr int block_m = Config.block_m, block_n = Config.block_n, stages = Config.stages;
  static constexpr int q_stages = Config.q_stages, v_stages = Config.v_stages;
  static constexpr int consumer_warpgroups = block_m / 64;
  static constexpr int consumer_warps = 4 * consumer_warpgroups;
  static constexpr int threads = 128 * (consumer_warpgroups + 1);
  /// Warp 0 of the producer warpgroup loads (one thread), warps 1-3 transpose V.
  /// NOTE (ptxas, nvcc 13.0): with the loading thread among the transposing warps the producer
  /// spilled at 40 registers (the loads' state and the transpose's lived together); split, it
  /// spilled one value at 32 and none at 40; the consumers at 232 do not spill (D128). 40 + 2 x 232 = 504.
  static constexpr int transpose_warps = 3;
  static constexpr int producer_registers = 40;
  static constexpr int consumer_registers = 232;

  /// Q, K and V (as loaded) in boxes of `box` columns (one swizzle row: 128 bytes, or D64's 64);
  /// Vᵀ one tile of D rows of the block's keys (one swizzle row of block_n bytes).
  static constexpr int box = HeadDim < 128 ? HeadDim : 128;
  static constexpr int qk_chunks = HeadDim / box;
  using QChunk = SmemKMajor<Element, block_m, box, box>;
  using KChunk = SmemKMajor<Element, block_n, box, box>;
  using VtTile = SmemKMajor<Element, HeadDim, block_n, block_n>;
  using MmaS =
      sm90::WgmmaTiledMma<Element, Element, float, sm90::AOperand<QChunk>, sm90::BOperand<KChunk>, 1, block_n>;
  using MmaO = sm90::WgmmaTiledMmaRSFp8<sm90::BOperand<VtTile>, 1, HeadDim>;

  using Barriers =
      NamedBarrierAllocation<BarrierRequest<consumer_warpgroups, 128>, BarrierRequest<consumer_warpgroups, 256>,
                             BarrierRequest<1, 128 * consumer_warpgroups>>;
  using OutputStore = sm90::EpilogueTmaStore<OutputElement, HeadDim, typename Barriers::template user<0>>;
  using IssueTurns = AlternatingTurns<typename Barriers::template user<1>>;
  using ConsumersBarrier = typename Barriers::template user<2>;

  static constexpr std::uint32_t q_bytes = std::uint32_t(block_m) * HeadDim;
  static constexpr std::uint32_t k_bytes = std::uint32_t(block_n) * HeadDim;
  static constexpr std::uint32_t v_bytes = k_bytes;
  using PipelineQ = PipelineTmaAsync<q_stages, consumer_warps, q_bytes>;
  using PipelineK = PipelineTmaAsync<stages, consumer_warps, k_bytes>;
  /// V as loaded: filled by TMA, read (and released) by the transposing warps.
  using PipelineVLoad = PipelineTmaAsync<v_stages, transpose_warps, v_bytes>;
  /// Vᵀ: every producer thread arrives once its share is written; the consumer warps release it.
  using PipelineV = PipelineAsync<stages, 32 * transpose_warps, consumer_warps>;
  using Pipeline = PipelineK;  ///< what verify_plan checks the consumer arrivals of
  using MapQ = TensorMap<Element, QChunk>;
  using MapK = TensorMap<Element, KChunk>;
  using MapV = TensorMap<Element, KChunk>;
  using MapO = typename OutputStore::Map;
  static_assert(qk_chunks * MapQ::tile_bytes == q_bytes && qk_chunks * MapK::tile_bytes == k_bytes &&
                    SmemTile<Element, VtTile>::bytes == v_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  struct SharedStorage {
    SmemStages<Element, QChunk, q_stages, qk_chunks> q;
    SmemStages<Element, KChunk, stages, qk_chunks> k;
    SmemStages<Element, KChunk, v_stages, qk_chunks> v_load;
    SmemStages<Element, VtTile, stages> v;
    typename OutputStore::SharedStorage epilogue[consumer_warpgroups];
    typename PipelineQ::SharedStorage q_barriers;
    typename PipelineK::SharedStorage k_barriers;
    typename PipelineVLoad::SharedStorage v_load_barriers;
    typename PipelineV::SharedStorage v_barriers;
  };
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
};

/// The descale factors as the kernel reads them (null: 1).
struct FmhaFp8Descale {
  float const* q = nullptr;
  float const* k = nullptr;
  float const* v = nullptr;
  Fp8DescaleLayout layout = Fp8DescaleLayout::per_tensor;
  std::int32_t heads_kv = 1;
};

/// An FP8 attention call: FmhaArguments' fields (Q, K, V e4m3; O bf16; the LSE float) and the
/// descale factors: Q, K and V hold x / d (d = their descale), so the scores are
/// scale · dq dk · (Q Kᵀ) and O is dv · (P V). Each pointer is null (a factor of 1), one float
/// (per_tensor) or [batch, heads_kv] floats (per_kv_head; varlen: one row a sequence), device memory.
/// block_table must stay null: no paged cache ([attention.fp8.paged]).
struct FmhaFp8Arguments : FmhaArguments<__nv_fp8_e4m3, __nv_bfloat16> {
  float const* q_descale = nullptr;
  float const* k_descale = nullptr;
  float const* v_descale = nullptr;
  Fp8DescaleLayout descale_layout = Fp8DescaleLayout::per_tensor;
};

namespace fmha_fp8_plans {
/// D128: 128 x 128 tiles; two Q stages (the next tile's Q loads during this tile's last blocks).
using D128 = FmhaFp8Plan<128, FmhaFp8Config{.block_m = 128, .block_n = 128, .stages = 2, .q_stages = 2, .v_stages = 2}>;
/// D64: the same tiles, Q, K and V in 64-byte (64-byte swizzled) rows.
using D64 = FmhaFp8Plan<64, FmhaFp8Config{.block_m = 128, .block_n = 128, .stages = 2, .q_stages = 2, .v_stages = 2}>;
/// D256: 128 x 64 tiles (S 32 + O 128 + P 8 registers a thread; 128-key tiles spilled), Vᵀ in
/// 64-byte rows; 192 KB.
using D256 = FmhaFp8Plan<256, FmhaFp8Config{.block_m = 128, .block_n = 64, .stages = 2, .q_stages = 2, .v_stages = 2}>;
template <class... Plans>
struct FmhaFp8PlanList {};
/// Every plan fmha_e4m3_sm90.cu instantiates (run_attention_fp8's), for the build report.
using Instantiated = FmhaFp8PlanList<D64, D128, D256>;
}  // namespace fmha_fp8_plans

/// The FP8 forward with the plan for the arguments' head dims ((64, 64), (128, 128) or (256, 256);
/// others are std::invalid_argument [attention.fp8.head-dim]). Defined in fmha_e4m3_sm90.cu.
void run_attention_fp8(FmhaFp8Arguments const& args, cudaStream_t stream);

}  // namespace cute_cpp::kernels
