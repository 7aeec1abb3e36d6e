// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Decode attention: the plan and its arguments (the kernels are decode_sm90.cuh).
//   O = softmax(scale · Q Kᵀ + mask) V for 1 to 8 new query tokens per sequence against a KV cache.
// The cache is paged, [num_pages, page_size, heads_kv, dim] for K and for V (page_size a multiple of
// 16; sequence b's key j lies in page block_table[b * max_pages_per_seq + j / page_size], slot
// j % page_size), or contiguous, [batch, max_seq_k, heads_kv, dim]. Any element strides whose
// innermost is 1. The q heads of one kv group and the query tokens form the 64 rows of one MMA
// (row = token * group + head in group), so each K/V tile is read once per group; long caches are
// split across CTAs (flash-decoding) and a second kernel combines the splits by their LSE.
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/diag/attention.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_async.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/sched/fast_divmod.hpp>
#include <cute_cpp/smem/allocator.hpp>
#include <cute_cpp/smem/smem_tile.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

/// The static shape of a decode kernel: keys per K/V tile, K/V stages, CTAs resident per SM, keys
/// per TMA box.
struct DecodeConfig {
  int block_n = 64;
  int stages = 4;
  int ctas_per_sm = 1;
  int box_rows = 64;  ///< keys per TMA box: pages must be a multiple (16 serves every page size)
  /// Consumer warpgroups, each with O's next head_dim_v / consumer_warpgroups columns (wide D_v,
  /// MLA's 512, does not fit one warpgroup's registers); they compute S for the blocks in turn
  /// (decode_mla_consumer.cuh).
  int consumer_warpgroups = 1;
  /// V is K's first head_dim_v columns (MLA's latent cache, one tensor): one pipeline, read once.
  bool v_in_k = false;
};

/// A decode attention plan: element type (Q, O and the MMAs'), the cache's element type (T, or
/// e4m3: widened to T in registers), head dims and the tile shape, checked where the type is
/// formed ([attention.*]) and by verify_plan (shared memory, threads).
template <class T, int HeadDim, int HeadDimV, DecodeConfig Config, class KV = T>
struct DecodePlan {
  static_assert(diag::attention_decode_head_dims<HeadDim, HeadDimV, Config.consumer_warpgroups, Config.v_in_k>::ok &&
                diag::attention_decode_tile<Config.block_n, Config.box_rows, Config.stages>::ok);
  static_assert(diag::attention_decode_kv<sizeof(KV) == 1, std::is_same_v<KV, __nv_fp8_e4m3> || std::is_same_v<KV, T>,
                                          HeadDim, HeadDimV, Config.consumer_warpgroups, Config.v_in_k,
                                          Config.block_n>::ok);
  using Element = T;
  using KvElement = KV;
  static constexpr int head_dim = HeadDim, head_dim_v = HeadDimV;
  /// An e4m3 cache: the products are transposed (Sᵀ = K Qᵀ, Oᵀ += Vᵀ Pᵀ), so that K and V are
  /// wgmma's A, loaded from shared memory into registers and widened there, and the query rows
  /// are its N (8) instead of 64 padded M rows (decode_fp8_consumer.cuh).
  static constexpr bool kv_fp8 = sizeof(KV) == 1;
  /// Query rows (tokens x q heads of a group) per CTA.
  static constexpr int block_m = kv_fp8 ? 8 : 64;
  static constexpr int block_n = Config.block_n, stages = Config.stages, ctas_per_sm = Config.ctas_per_sm;
  /// Keys per TMA box: a page is a whole number of boxes, so a box never straddles two pages.
  static constexpr int box_rows = Config.box_rows;
  static constexpr int boxes_per_tile = block_n / box_rows;
  static constexpr bool v_in_k = Config.v_in_k;
  /// The consumer warpgroups (threads 0 ..), then the producer warps: K's, and V's unless V is in K.
  static constexpr int consumer_warpgroups = Config.consumer_warpgroups;
  static constexpr int consumer_threads = 128 * consumer_warpgroups;
  /// The warps that read (and release) each stage: every consumer's, or (an e4m3 cache, whose
  /// warpgroups take the blocks in turn) one warpgroup's.
  static constexpr int consumer_warps = kv_fp8 ? 4 : 4 * consumer_warpgroups;
  static constexpr int producer_warps = v_in_k ? 1 : 2;
  static constexpr int producer_thread0 = consumer_threads;
  /// More than one consumer warpgroup: the producer warps are a warpgroup of their own that gives
  /// its registers to the others (setmaxnreg); without it, 320 threads would hold every thread
  /// to 200 registers.
  static constexpr bool producer_warpgroup = consumer_warpgroups > 1;
  static constexpr int threads = producer_thread0 + (producer_warpgroup ? 128 : 32 * producer_warps);
  static constexpr int producer_registers = 40;
  static constexpr int consumer_registers = consumer_warpgroups == 1 ? 240 : 232;
  static_assert(!producer_warpgroup || producer_registers + consumer_warpgroups * consumer_registers <=
                                           threads / 128 * (65536 / threads / 8 * 8),
                "cute-cpp [plan.registers]: the warpgroups' setmaxnreg budgets exceed the register file");
  /// O's columns per consumer warpgroup (its MmaO's N).
  static constexpr int value_cols = HeadDimV / consumer_warpgroups;

  /// Q, K and V lie in 64-column chunks (one 128-byte swizzle row each), K and V as block_n rows
  /// per chunk, filled box_rows at a time; V is the M/N-major B of O += P V (a warpgroup's
  /// value_cols of it: its chunks). A TMA box is one 128-byte row of box_rows keys: 64 columns,
  /// or 128 of e4m3 (read into registers by ldmatrix, attention/kv_widen.hpp).
  /// An e4m3 cache: Qᵀ and Pᵀ are the B tiles (N = block_m rows, K-major), Pᵀ in 64-key chunks,
  /// and the products are f16 whatever T is: e4m3 widens to f16 in one instruction a pair (to
  /// bf16 in four), Qᵀ's rows are scaled by powers of two into f16's range, and P lies in [0, 1].
  using MmaElement = std::conditional_t<kv_fp8, __half, T>;
  static constexpr int qk_chunks = HeadDim / 64;
  static constexpr int box_cols = 128 / int(sizeof(KV));
  using QChunk = SmemKMajor<MmaElement, block_m, 64>;
  using KChunk = SmemKMajor<T, block_n, 64>;
  using VTile = SmemMNMajor<T, value_cols, block_n>;
  using PChunk = SmemKMajor<MmaElement, block_m, 64>;
  using Box = SmemKMajor<KV, box_rows, box_cols>;
  using MmaS = std::conditional_t<
      kv_fp8, sm90::WgmmaTiledMmaRS<__half, __half, float, sm90::BOperand<QChunk>, block_n / 64, block_m>,
      sm90::WgmmaTiledMma<T, T, float, sm90::AOperand<QChunk>, sm90::BOperand<KChunk>, 1, block_n>>;
  using MmaO = std::conditional_t<
      kv_fp8, sm90::WgmmaTiledMmaRS<__half, __half, float, sm90::BOperand<PChunk>, HeadDimV / 64, block_m>,
      sm90::WgmmaTiledMmaRS<T, T, float, sm90::BOperand<VTile>, 1, value_cols>>;
  /// Two 16-bit consumer warpgroups (MLA) take S's blocks in turn, each passing its P to the other
  /// through shared memory (the seesaw, decode_mla_consumer.cuh): O += P V from registers for its
  /// own blocks (MmaO), from P's shared tile for the other's (MmaOShared). The tile is the block's
  /// stage's last K chunk (past V's columns: MLA's rope), which only S reads.
  static constexpr bool seesaw = !kv_fp8 && consumer_warpgroups == 2;
  static_assert(!seesaw || (v_in_k && HeadDim - HeadDimV >= 64),
                "cute-cpp [attention.head-dim]: two 16-bit consumer warpgroups pass P through a K chunk past V's "
                "columns (V in K, D_qk - D_v >= 64)");
  static_assert(!seesaw || Config.stages >= 3,
                "cute-cpp [pipeline.stages]: the seesaw issues a block's S while the stage two blocks before is still "
                "held: at least three stages");
  using PTile = SmemKMajor<T, block_m, block_n, block_n * int(sizeof(T)) >= 128 ? 128 : block_n * int(sizeof(T))>;
  using MmaOShared = sm90::WgmmaTiledMma<T, T, float, sm90::AOperand<PTile>, sm90::BOperand<VTile>, 1, value_cols>;
  /// The consumers' named barriers: all of them; one warpgroup's; and the seesaw's, per
  /// warpgroup, "P published" (its owner arrives, the other syncs).
  using Barriers = NamedBarrierAllocation<BarrierRequest<1, consumer_threads>, BarrierRequest<consumer_warpgroups, 128>,
                                          BarrierRequest<2, 256>>;
  using ConsumersBarrier = typename Barriers::template user<0>::template barrier<0>;
  using GroupBarriers = typename Barriers::template user<1>;
  using PFull = typename Barriers::template user<2>;

  static constexpr std::uint32_t k_bytes = std::uint32_t(block_n) * HeadDim * sizeof(KV);
  static constexpr std::uint32_t v_bytes = std::uint32_t(block_n) * HeadDimV * sizeof(KV);
  /// The TMA rings: every consumer warp releases a stage it read (V in K: after O += P V, not
  /// after S).
  using PipelineK = PipelineTmaAsync<stages, consumer_warps, k_bytes>;
  using PipelineV = std::conditional_t<v_in_k, PipelineK, PipelineTmaAsync<stages, consumer_warps, v_bytes>>;
  using Pipeline = PipelineK;  ///< what verify_plan checks the consumer arrivals of
  using MapKV = TensorMap<KV, Box>;
  static_assert(HeadDim / box_cols * boxes_per_tile * MapKV::tile_bytes == k_bytes &&
                    HeadDimV / box_cols * boxes_per_tile * MapKV::tile_bytes == v_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  /// A ring's tiles, and what stands in for a ring or barriers the plan does not have.
  template <class E, int Stages, int Elems>
  struct Ring {
    alignas(1024) E tile[Stages][Elems];
  };
  struct None {};
  template <bool Present, class X>
  using Maybe = std::conditional_t<Present, X, None>;

  /// An e4m3 cache's softmax, per consumer warpgroup: Pᵀ and the warps' column maxima, then sums,
  /// each in two buffers used in turn (a fast warp writes the next block's while a slow one may
  /// still read this block's maxima); Qᵀ's row scales; the
  /// second warpgroup's O, maxima and sums, merged into the first's at the end (unused with one).
  struct TransposedSoftmax {
    struct Group {
      alignas(1024) __half p[2][block_n / 64][block_m * 64];
      float partial[2][4][block_m];
    };
    Group group[consumer_warpgroups];
    float q_scale[block_m];  ///< powers of two
    struct Merge {
      float o[HeadDimV / 16][128];  ///< element i of each thread's fragment, thread-minor
      float max[block_m], sum[block_m];
    } merge;
  };

  /// The seesaw's exchange (P is in the stage): per warpgroup, its rows' running maxima (log2
  /// units, scale folded in) at its latest block; at the end, each one's row sums.
  struct SeesawExchange {
    float max[2][block_m];
    float sum[2][block_m];
  };

  /// Q (an e4m3 cache: Qᵀ); the K and V rings (V's is K's when V is in K); the barriers.
  struct SharedStorage {
    alignas(1024) MmaElement q[block_m * HeadDim];
    Ring<KV, stages, block_n * HeadDim> k;
    [[no_unique_address]] Maybe<!v_in_k, Ring<KV, stages, block_n * HeadDimV>> v;
    [[no_unique_address]] Maybe<kv_fp8, TransposedSoftmax> softmax;
    [[no_unique_address]] Maybe<seesaw, SeesawExchange> exchange;
    typename PipelineK::SharedStorage k_barriers;
    [[no_unique_address]] Maybe<!v_in_k, typename PipelineV::SharedStorage> v_barriers;

    __device__ KV* k_stage(int stage) { return k.tile[stage]; }
    __device__ KV* v_stage(int stage) {
      if constexpr (v_in_k) return k.tile[stage];
      else return v.tile[stage];
    }
    __device__ auto* v_pipeline() {
      if constexpr (v_in_k) return &k_barriers;
      else return &v_barriers;
    }
  };
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
};

/// The run-time half of a decode call.
///   q      [batch, q_tokens, heads_q, head_dim]     the new tokens' queries
///   k, v   paged: [num_pages, page_size, heads_kv, head_dim(_v)]  (k_stride.batch: the page stride)
///          contiguous (block_table null): [batch, max_seq_k, heads_kv, head_dim(_v)]
///   o      [batch, q_tokens, heads_q, head_dim_v]   in q's type
///   lse    [batch, q_tokens, heads_q] float, natural log (optional)
/// The cache already holds the new tokens: sequence b has seqlens_k[b] keys, the last q_tokens of
/// them the queries' own. With `causal`, query token t sees keys [0, seqlens_k[b] - q_tokens + t].
/// Launched as a programmatic dependent (PDL), the kernel reads seqlens_k and block_table before
/// it waits for the kernel before it: that kernel must not write them (a serving loop's host
/// writes them before the step).
template <class T, class KV = T>
struct DecodeArguments {
  T const* q = nullptr;
  KV const* k = nullptr;  ///< the cache: T, or e4m3 (an FP8 cache, with k_scale and v_scale)
  KV const* v = nullptr;
  T* o = nullptr;
  float* lse = nullptr;
  /// Per kv head (device, [heads_kv]; null: 1): the cache holds K / k_scale and V / v_scale, as
  /// run_kv_append quantizes them. Q Kᵀ is scaled by k_scale before the softmax, O by v_scale.
  float const* k_scale = nullptr;
  float const* v_scale = nullptr;
  AttentionStrides q_stride{}, k_stride{}, v_stride{}, o_stride{};
  int batch = 1, q_tokens = 1, heads_q = 1, heads_kv = 1;
  int head_dim = 0, head_dim_v = 0;  ///< must be a plan's (checked)
  float softmax_scale = 0.0f;        ///< 0: 1 / sqrt(head_dim)
  bool causal = true;
  /// Key lengths (device, [batch]); null: every sequence has max_seq_k keys (contiguous only).
  std::int32_t const* seqlens_k = nullptr;
  int max_seq_k = 0;  ///< the longest sequence (contiguous: the cache's seq extent)
  /// The paged cache (block_table null: contiguous).
  std::int32_t const* block_table = nullptr;  ///< device, [batch, max_pages_per_seq]
  int page_size = 0, max_pages_per_seq = 0, num_pages = 0;
  /// Host copies (optional), to check every length and table entry before the launch.
  std::int32_t const* seqlens_k_host = nullptr;
  std::int32_t const* block_table_host = nullptr;
  /// Splits of the keys (flash-decoding): 0 chooses from the batch, lengths and SM count; 1 is
  /// none. More than one needs the workspace (decode_workspace_bytes).
  int num_splits = 0;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

/// What the decode kernel reads besides the tensor maps, fixed for a launch.
struct DecodeParams {
  std::int32_t batch = 1, q_tokens = 1, heads_q = 1, heads_kv = 1, group = 1;
  std::int32_t rows = 1;      ///< group x q_tokens: query rows per kv head
  std::int32_t m_blocks = 1;  ///< 64-row blocks of them
  std::int32_t splits = 1;
  /// The splits of a (sequence, kv head, row block) are one cluster, which combines their partials
  /// itself (no combine kernel): at most max_cluster_splits splits.
  bool combine_in_cluster = false;
  FastDivmod m_blocks_div, splits_div, heads_kv_div;  ///< a CTA's coordinates from its index
  float scale_log2 = 0.0f;  ///< softmax scale times log2(e)
  bool causal = true;
  void const* q = nullptr;
  std::int64_t q_batch_stride = 0, q_seq_stride = 0, q_head_stride = 0;
  void* o = nullptr;
  std::int64_t o_batch_stride = 0, o_seq_stride = 0, o_head_stride = 0;
  float* lse = nullptr;
  float const* k_scale = nullptr;  ///< per kv head, or null
  float const* v_scale = nullptr;
  /// Splits: each writes its normalised O and LSE per query row (row (b, t, head) is
  /// (b * q_tokens + t) * heads_q + head) to [split][row][head_dim_v] and [split][row].
  float* partial_o = nullptr;
  float* partial_lse = nullptr;
  std::int32_t const* seqlens_k = nullptr;
  std::int32_t max_seq_k = 0;
  std::int32_t const* block_table = nullptr;
  std::int32_t max_pages_per_seq = 0, num_pages = 0;
  FastDivmod page_div;  ///< by the page size
  [[nodiscard]] CUTE_CPP_HD constexpr bool paged() const { return block_table != nullptr; }
};

namespace decode_plans {
/// Per head dim, two plans: boxes of 64 keys for a contiguous cache and pages of a multiple of 64,
/// boxes of 16 for smaller pages (16, 32; four times the TMA issues). Tiles of 128 keys (the sweep
/// in the README).
template <class T, int D, int BoxRows>
using Plan = DecodePlan<T, D, D,
                        DecodeConfig{.block_n = D == 256 ? 64 : 128, .stages = D == 64 ? 6 : D == 128 ? 3 : 2,
                                     .box_rows = BoxRows}>;
template <class T>
using D64 = Plan<T, 64, 64>;
template <class T>
using D128 = Plan<T, 128, 64>;
template <class T>
using D256 = Plan<T, 256, 64>;
template <class T>
using D64Page16 = Plan<T, 64, 16>;
template <class T>
using D128Page16 = Plan<T, 128, 16>;
template <class T>
using D256Page16 = Plan<T, 256, 16>;

/// MLA (DeepSeek's latent attention, FlashMLA's workload): D_qk 576 (512 latent + 64 rope), V
/// the latent's 512 columns of the same cache (v_in_k), usually one kv head for 16 to 128 q heads.
/// Two consumer warpgroups of 256 O columns taking S's blocks in turn (the seesaw); 32-key tiles in
/// four stages (Q and the stages take 216 KB; 64-key tiles fit two stages, which the seesaw cannot
/// run on: a warpgroup issues its next block's S before it releases the block before); boxes of
/// 32 keys, so pages of a multiple of 32.
template <class T>
using Mla = DecodePlan<T, 576, 512,
                       DecodeConfig{.block_n = 32, .stages = 4, .box_rows = 32, .consumer_warpgroups = 2,
                                    .v_in_k = true}>;

/// An e4m3 cache (FP8 KV) for bf16 or f16 queries, head dims 128 and 256, read by two consumer
/// warpgroups (blocks in turn) straight from the TMA ring into registers, the ring 192 KB in six
/// stages: D128 in 128-key tiles, D256 in 64-key tiles (the --sweep-e4m3 rows in the README).
template <class T, int D, int BoxRows>
using Fp8Plan = DecodePlan<T, D, D,
                           DecodeConfig{.block_n = D == 128 ? 128 : 64, .stages = 6, .box_rows = BoxRows,
                                        .consumer_warpgroups = 2},
                           __nv_fp8_e4m3>;
template <class T>
using Fp8D128 = Fp8Plan<T, 128, 64>;
template <class T>
using Fp8D256 = Fp8Plan<T, 256, 64>;
template <class T>
using Fp8D128Page16 = Fp8Plan<T, 128, 16>;
template <class T>
using Fp8D256Page16 = Fp8Plan<T, 256, 16>;

template <class... Plans>
struct DecodePlanList {};
/// Every plan decode_*_sm90.cu instantiate, for the build report.
using Instantiated =
    DecodePlanList<D64<__nv_bfloat16>, D128<__nv_bfloat16>, D256<__nv_bfloat16>, D64Page16<__nv_bfloat16>,
                   D128Page16<__nv_bfloat16>, D256Page16<__nv_bfloat16>, D64<__half>, D128<__half>, D256<__half>,
                   D64Page16<__half>, D128Page16<__half>, D256Page16<__half>, Mla<__nv_bfloat16>, Mla<__half>,
                   Fp8D128<__nv_bfloat16>, Fp8D256<__nv_bfloat16>, Fp8D128Page16<__nv_bfloat16>,
                   Fp8D256Page16<__nv_bfloat16>, Fp8D128<__half>, Fp8D256<__half>, Fp8D128Page16<__half>,
                   Fp8D256Page16<__half>>;
}  // namespace decode_plans

/// The new tokens' K and V, to be written into a decode cache (run_kv_append): token t of sequence
/// b goes to key position seqlens_k[b] - q_tokens + t, the cache's lengths counting the new tokens.
template <class T, class KV = T>
struct KvAppendArguments {
  T const* k_new = nullptr;  ///< [batch, q_tokens, heads_kv, head_dim]
  T const* v_new = nullptr;  ///< [batch, q_tokens, heads_kv, head_dim_v]
  AttentionStrides k_new_stride{}, v_new_stride{};
  KV* k = nullptr;  ///< the cache, laid out as DecodeArguments' k and v
  KV* v = nullptr;
  /// An e4m3 cache: per kv head (device, [heads_kv], required), the cache is written K / k_scale
  /// and V / v_scale, rounded to nearest and saturated to ±448 (DecodeArguments' scales).
  float const* k_scale = nullptr;
  float const* v_scale = nullptr;
  AttentionStrides k_stride{}, v_stride{};
  int batch = 1, q_tokens = 1, heads_kv = 1, head_dim = 0, head_dim_v = 0;
  std::int32_t const* seqlens_k = nullptr;  ///< device, [batch]: the lengths after the append
  int max_seq_k = 0;                        ///< contiguous: the cache's seq extent
  std::int32_t const* block_table = nullptr;
  int page_size = 0, max_pages_per_seq = 0, num_pages = 0;
};

/// Writes the new tokens' K and V into their cache slots (v_new and v both null: K alone, for
/// MLA's latent cache). A slot outside the sequence's pages or a
/// page outside the cache is skipped (release builds) or a trap naming it (debug builds); bad
/// shapes throw std::invalid_argument. Defined for __nv_bfloat16 and __half, into a cache of the
/// same type or of e4m3.
template <class T, class KV>
void run_kv_append(KvAppendArguments<T, KV> const& args, cudaStream_t stream);

/// The split count run_decode_attention uses for these arguments (num_splits, or the choice from
/// the batch, lengths and the current device's SM count when it is 0).
template <class T, class KV>
int decode_num_splits(DecodeArguments<T, KV> const& args);

/// Workspace bytes run_decode_attention needs for these arguments (0 without splits).
template <class T, class KV>
std::size_t decode_workspace_bytes(DecodeArguments<T, KV> const& args);

/// Decode attention with the plan for the arguments' head dims (64, 128, 256; MLA's 576 / 512; an
/// e4m3 cache: 128, 256); bad arguments throw std::invalid_argument naming the rule, before
/// anything is launched. Defined for __nv_bfloat16 and __half queries, each with a cache of the
/// same type or of e4m3 (decode_*_sm90.cu).
template <class T, class KV>
void run_decode_attention(DecodeArguments<T, KV> const& args, cudaStream_t stream);

}  // namespace cute_cpp::kernels
