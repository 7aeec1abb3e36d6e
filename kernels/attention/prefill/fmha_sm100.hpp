// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell (sm_100a) attention forward's plan (the kernel is fmha_sm100.cuh): 128 Q rows a
// tile, S = Q Kᵀ and O += P V on the tensor cores (sm100::UmmaTiledMma) with S (two buffers) and
// O in tensor memory, P through shared memory. It takes the Hopper kernel's FmhaArguments and
// FmhaParams (fmha.hpp). Host-computable: the CPU tests read the plans and the plan choice.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/mma/sm100_umma.hpp>
#include <cute_cpp/pipeline/pipeline_async_umma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
#include <cute_cpp/tmem/tmem_allocator.hpp>
#include <cute_cpp/tmem/tmem_copy.hpp>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::diag {

/// Rule attention.sm100.tile: a key tile is whole 64-key chunks (P's and V's 128-byte swizzle rows
/// along K) and one UMMA's N (at most 256); K and V take at least one stage each.
template <int BlockN, int Stages>
struct attention_sm100_tile {
  static_assert(BlockN % 64 == 0 && BlockN >= 64 && BlockN <= 256 && Stages >= 1,
                "cute-cpp [attention.sm100.tile]: block_n is 64, 128, 192 or 256 (whole 64-key chunks, one UMMA's N) "
                "and stages at least 1");
  static constexpr bool ok = true;
};

/// Rule attention.sm100.tmem-columns: two S buffers of block_n fp32 columns and O's D_v columns fit
/// the 512 columns of tensor memory (128 lanes: one Q row a lane).
template <int SColumns, int SBuffers, int OColumns>
struct attention_sm100_tmem_columns {
  static_assert(SColumns * SBuffers + OColumns <= 512,
                "cute-cpp [attention.sm100.tmem-columns]: S's buffers (block_n columns each) and O (D_v columns) "
                "need more than tensor memory's 512 columns");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag

namespace cute_cpp::kernels {

/// The static shape of a Blackwell attention kernel beyond the head dims: keys per K/V tile and
/// K/V stages (Q tiles are 128 rows, one a softmax thread).
struct FmhaSm100Config {
  int block_n = 128;
  int stages = 2;
};

/// A Blackwell attention forward plan (see the file comment). Warp roles: warp 0 loads (TMA),
/// warp 1 issues the MMAs and owns tensor memory, warps 4..7 (a warpgroup, TMEM lane quarters
/// 0..3) run the softmax, the O correction and the epilogue; warps 2 and 3 only hold the
/// softmax warpgroup's alignment (a warp reaches the lanes of quarter warp % 4).
template <class T, int HeadDim, int HeadDimV, FmhaSm100Config Config>
struct FmhaSm100Plan {
  static_assert(diag::attention_head_dims<HeadDim, HeadDimV>::ok &&
                diag::attention_sm100_tile<Config.block_n, Config.stages>::ok);
  using Element = T;
  static constexpr int head_dim = HeadDim, head_dim_v = HeadDimV;
  static constexpr int block_m = 128, block_n = Config.block_n, stages = Config.stages;
  static constexpr int load_warp = 0, mma_warp = 1, softmax_warp = 4, softmax_warps = 4;
  static constexpr int threads = 32 * (softmax_warp + softmax_warps);

  /// Q, K and P are K-major in 64-element chunks (one 128-byte swizzle row each); V is the
  /// N-major B of O += P V (D_v contiguous), in chunks of 64 keys, so each P chunk meets its V chunk.
  static constexpr int qk_chunks = HeadDim / 64;
  static constexpr int pv_chunks = block_n / 64;
  using QChunk = SmemKMajor<T, block_m, 64>;
  using KChunk = SmemKMajor<T, block_n, 64>;
  using PChunk = SmemKMajor<T, block_m, 64>;
  using VChunk = SmemMNMajor<T, HeadDimV, 64>;
  using MmaS = sm100::UmmaTiledMma<T, T, float, sm100::AOperand<QChunk>, sm100::BOperand<KChunk>, block_m, block_n>;
  using MmaO = sm100::UmmaTiledMma<T, T, float, sm100::AOperand<PChunk>, sm100::BOperand<VChunk>, block_m, HeadDimV>;

  /// Tensor memory: S's two buffers at columns 0 and block_n, O after them.
  static constexpr int s_buffers = 2;
  static constexpr int s_columns = MmaS::Accumulator::columns;
  static constexpr int o_columns = MmaO::Accumulator::columns;
  static_assert(diag::attention_sm100_tmem_columns<s_columns, s_buffers, o_columns>::ok);
  static constexpr int tmem_o = s_buffers * s_columns;
  static constexpr int tmem_columns = tmem_o + o_columns;
  /// tcgen05.alloc's power of two.
  static constexpr std::uint32_t tmem_alloc_columns =
      tmem_columns <= 32 ? 32u : tmem_columns <= 64 ? 64u : tmem_columns <= 128 ? 128u : tmem_columns <= 256 ? 256u : 512u;
  using Tmem = sm100::TmemAllocator<tmem_alloc_columns>;
  /// A softmax thread's copies of S and O: one row (its lane), 32 columns a copy.
  using RowAtom = sm100::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 32>;

  static constexpr std::uint32_t q_bytes = std::uint32_t(block_m) * HeadDim * sizeof(T);
  static constexpr std::uint32_t k_bytes = std::uint32_t(block_n) * HeadDim * sizeof(T);
  static constexpr std::uint32_t v_bytes = std::uint32_t(block_n) * HeadDimV * sizeof(T);
  /// TMA -> MMA: Q (one tile's), K and V; MMA -> softmax: S's buffers and O's end of a tile;
  /// softmax -> MMA: P (one buffer: writing P_i waits for P_{i-1} V, after which O may be
  /// corrected). The softmax warps arrive one per warp.
  using PipelineQ = PipelineTmaUmma<1, q_bytes>;
  using PipelineK = PipelineTmaUmma<stages, k_bytes>;
  using PipelineV = PipelineTmaUmma<stages, v_bytes>;
  using PipelineS = PipelineUmmaAsync<s_buffers, softmax_warps>;
  using PipelineO = PipelineUmmaAsync<1, softmax_warps>;
  using PipelineP = PipelineAsyncUmma<1, softmax_warps>;
  using MapQ = TensorMap<T, QChunk>;
  using MapK = TensorMap<T, KChunk>;
  using MapV = TensorMap<T, VChunk>;
  static_assert(qk_chunks * MapQ::tile_bytes == q_bytes && qk_chunks * MapK::tile_bytes == k_bytes &&
                    pv_chunks * MapV::tile_bytes == v_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  struct SharedStorage {
    SmemStages<T, QChunk, 1, qk_chunks> q;
    SmemStages<T, KChunk, stages, qk_chunks> k;
    SmemStages<T, VChunk, stages, pv_chunks> v;
    SmemStages<T, PChunk, 1, pv_chunks> p;
    typename PipelineQ::SharedStorage q_barriers;
    typename PipelineK::SharedStorage k_barriers;
    typename PipelineV::SharedStorage v_barriers;
    typename PipelineS::SharedStorage s_barriers;
    typename PipelineO::SharedStorage o_barriers;
    typename PipelineP::SharedStorage p_barriers;
    std::uint32_t tmem_slot;
  };
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
};

/// Element offset of P's 16-byte unit `unit` (keys 8 unit .. 8 unit + 7 of a 64-key chunk) in
/// row `row` of a PChunk (SmemKMajor<16-bit, 128, 64>: 128-byte rows, the unit XOR row % 8).
CUTE_CPP_HD constexpr int fmha_p_unit_offset(int row, int unit) { return 64 * row + 8 * (unit ^ (row % 8)); }

/// The plans run_attention_sm100 chooses from, by head dims; each fits tensor memory (2 block_n +
/// D_v <= 512 columns) and the 227 KB of shared memory (Q + stages x (K + V) + P):
///   D64       128 keys, 4 stages: 320 columns, 16 + 4 x 32 + 32 KB
///   D128      128 keys, 2 stages: 384 columns, 32 + 2 x 64 + 32 KB
///   D192V128   64 keys, 3 stages: 256 columns, 48 + 3 x 40 + 16 KB
///   D256       64 keys, 2 stages: 384 columns, 64 + 2 x 64 + 16 KB
namespace fmha_sm100_plans {
template <class T>
using D64 = FmhaSm100Plan<T, 64, 64, FmhaSm100Config{.block_n = 128, .stages = 4}>;
template <class T>
using D128 = FmhaSm100Plan<T, 128, 128, FmhaSm100Config{.block_n = 128, .stages = 2}>;
template <class T>
using D192V128 = FmhaSm100Plan<T, 192, 128, FmhaSm100Config{.block_n = 64, .stages = 3}>;
template <class T>
using D256 = FmhaSm100Plan<T, 256, 256, FmhaSm100Config{.block_n = 64, .stages = 2}>;
/// A list of plans (what the sm_100a forward instantiates, for the build report).
template <class... Plans>
struct FmhaSm100PlanList {};
using Instantiated = FmhaSm100PlanList<D64<__nv_bfloat16>, D128<__nv_bfloat16>, D192V128<__nv_bfloat16>,
                                       D256<__nv_bfloat16>, D64<__half>, D128<__half>, D192V128<__half>, D256<__half>>;

/// Which plan run_attention_sm100 takes for head dims (D_qk, D_v).
enum class Choice { none, d64, d128, d192v128, d256 };
CUTE_CPP_HD constexpr Choice choose(int head_dim, int head_dim_v) {
  if (head_dim == 64 && head_dim_v == 64) return Choice::d64;
  if (head_dim == 128 && head_dim_v == 128) return Choice::d128;
  if (head_dim == 192 && head_dim_v == 128) return Choice::d192v128;
  if (head_dim == 256 && head_dim_v == 256) return Choice::d256;
  return Choice::none;
}
}  // namespace fmha_sm100_plans

/// Attention on sm_100a with Plan (its head dims must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched. A paged K/V cache is not
/// served yet ([attention.sm100.paged]).
template <class Plan>
void run_fmha_sm100(FmhaArguments<typename Plan::Element> const& args, cudaStream_t stream);

/// Attention on sm_100a with the plan for the arguments' head dims (64, 128, 256; 192 with D_v
/// 128); others are std::invalid_argument [attention.head-dim]. Defined for __nv_bfloat16 and
/// __half (fmha_*_sm100.cu, built when CUTE_CPP_ARCHS holds 100a).
template <class T>
void run_attention_sm100(FmhaArguments<T> const& args, cudaStream_t stream);

}  // namespace cute_cpp::kernels
