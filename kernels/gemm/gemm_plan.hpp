// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The static half of a Hopper GEMM kernel: GemmConfig, the configuration named field by field, and
// GemmPlan, everything the kernel and its launch derive from it (shared-memory tiles, the tiled
// MMA, the pipeline, named barriers, the output store, register budgets, shared storage), checked
// where the plan is formed (rules gemm.cluster, gemm.fp8-k-major, gemm.block-scaled(.*), gemm.grouped,
// gemm.tile-m, gemm.gated, gemm.registers, pipeline.tx-bytes). CuTeDSL / CUTLASS: the kernel
// schedule, tile_shape_mnk, cluster_shape_mn.
#include <cute_cpp/kernels/gemm/gemm_block_scaled_rules.hpp>  // gemm.block-scaled.*

#include <cute_cpp/diag/verify_plan.hpp>             // verify_plan, the checks across a plan
#include <cute_cpp/epilogue/fusion.hpp>              // Identity, is_gated_v, SwiGLU
#include <cute_cpp/epilogue/sm90_tma_store.hpp>      // EpilogueTmaStore, is_fp8_v
#include <cute_cpp/mma/sm90_wgmma.hpp>               // WgmmaTiledMma, WgmmaAccumulator
#include <cute_cpp/operand_modes.hpp>                // OperandMajorMode, LayoutEnum
#include <cute_cpp/pipeline/named_barrier.hpp>       // NamedBarrierAllocation, BarrierRequest
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>  // PipelineTmaAsync
#include <cute_cpp/smem/allocator.hpp>               // smem_bytes_for
#include <cute_cpp/smem/smem_tile.hpp>               // SmemKMajor, SmemMNMajor, size_in_bytes
#include <cute_cpp/tma/tensor_map.hpp>               // TensorMap

#include <cstddef>  // offsetof
#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

/// How the two consumer warpgroups share the work (CuTeDSL / CUTLASS: the kernel schedule).
/// Cooperative: both take halves of every tile. PingPong: each takes whole tiles, alternately,
/// so one warpgroup's epilogue overlaps the other's main loop.
enum class KernelSchedule { Cooperative, PingPong };

/// The static configuration of one GEMM kernel besides its element types, named field by field
/// (C++20 designated initializers, in the order declared here):
///   GemmPlan<bf16, bf16, bf16, GemmConfig{.block_n = 128, .stages = 6, .cluster_m = 2}>
/// A cluster is 1 or 2 CTAs along M and along N: cluster_m CTAs along M share each B tile (each
/// loads 1/cluster_m of it and multicasts it to them), cluster_n CTAs along N share each A tile.
struct GemmConfig {
  int block_m = 128, block_n = 256, block_k = 64;  ///< the CTA tile
  int stages = 4;                                  ///< A and B tiles in flight in shared memory
  int cluster_m = 1, cluster_n = 1;
  OperandMajorMode major_a = OperandMajorMode::K, major_b = OperandMajorMode::K;
  LayoutEnum layout_c = LayoutEnum::RowMajor;
  KernelSchedule schedule = KernelSchedule::Cooperative;
  /// FP8 operands scaled per block (BlockScales): each K block's products are promoted into the
  /// fp32 accumulator with their scales (DeepSeek-V3's recipe, CUTLASS's "2xAcc").
  bool block_scaled = false;
  /// Groups of rows with their own B (MoE experts; run_grouped_gemm): each tile row belongs to
  /// one group, found in a table the device writes (sched/grouped_tiles.hpp).
  bool grouped = false;
  /// Block-scaled or two-level only: each K block's products go to one of two register sets, and
  /// the set of the K block before is promoted while this one's wgmmas run (issue 44; rule
  /// gemm.block-scaled.registers bounds the tile).
  bool overlap_promotion = false;
  /// Block-scaled only: a warp of the producer warpgroup copies each stage's A and B scales into
  /// shared memory with the stage (cp.async completing on the stage's full barrier), so the
  /// consumers read them there instead of from global memory after their wgmmas.
  bool staged_scales = false;
  /// FP8 without block scales: each K block's products (128 of K, wgmma's accumulator) are added
  /// into an fp32 accumulator on the CUDA cores, CUTLASS's two-level ("slow") accumulation and
  /// cuBLASLt's FP8 GEMM without CUBLASLT_MATMUL_DESC_FAST_ACCUM; wgmma's 8-bit forms accumulate at
  /// reduced precision. Off: wgmma's accumulator throughout ("fast accumulation").
  bool two_level_accumulation = false;
};

/// Everything static about one GEMM kernel: element types, the configuration, and the epilogue
/// functor applied to each output (epilogue/fusion.hpp). run_gemm<Plan> launches it.
template <class TA_, class TB_, class TC_, GemmConfig Config, class EpilogueOp_ = epilogue::Identity>
struct GemmPlan {
  using TA = TA_;
  using TB = TB_;
  using TC = TC_;
  using EpilogueOp = EpilogueOp_;
  static constexpr GemmConfig config = Config;
  static constexpr OperandMajorMode major_a = Config.major_a, major_b = Config.major_b;
  static constexpr LayoutEnum layout_c = Config.layout_c;
  static constexpr int block_m = Config.block_m, block_n = Config.block_n, block_k = Config.block_k;
  static constexpr int stages = Config.stages;
  static constexpr int cluster_m = Config.cluster_m, cluster_n = Config.cluster_n;
  static_assert(cluster_m >= 1 && cluster_n >= 1 && cluster_m <= 2 && cluster_n <= 2,
                "cute-cpp [gemm.cluster]: clusters of 1 or 2 CTAs along M and along N");
  static_assert((sizeof(TA) != 1 || major_a == OperandMajorMode::K) && (sizeof(TB) != 1 || major_b == OperandMajorMode::K),
                "cute-cpp [gemm.fp8-k-major]: wgmma reads 8-bit operands K-major only: A row-major, B as a weight "
                "(N x K, rows contiguous)");
  static constexpr bool block_scaled = Config.block_scaled;
  static_assert(!block_scaled || (sizeof(TA) == 1 && sizeof(TB) == 1 && Config.block_k == 128 &&
                                  Config.schedule == KernelSchedule::Cooperative),
                "cute-cpp [gemm.block-scaled]: block scaling takes FP8 operands in tiles of 128 K (one scale block "
                "a K block), cooperative");
  static constexpr bool two_level = Config.two_level_accumulation;
  static_assert(diag::gemm_two_level<two_level, int(sizeof(TA)), int(sizeof(TB)), Config.block_k,
                                     Config.schedule == KernelSchedule::Cooperative, block_scaled>::ok);
  /// Whether the main loop promotes each K block's products into the accumulator (block scales, or
  /// two-level accumulation).
  static constexpr bool promoted = block_scaled || two_level;
  static constexpr bool overlap_promotion = Config.overlap_promotion;
  static constexpr bool staged_scales = Config.staged_scales;
  static_assert(
      diag::gemm_block_scaled_options<block_scaled, overlap_promotion, staged_scales, Config.grouped, two_level>::ok);
  static_assert(diag::gemm_block_scaled_tile<block_scaled, Config.block_n, Config.block_m, overlap_promotion ? 2 : 1,
                                             two_level>());
  /// B's 128-row scale blocks a tile's columns meet: one where the tile's columns never cross
  /// a block (128 % block_n == 0), else at most two (rule gemm.block-scaled.tile-n).
  static constexpr int scale_blocks_b = 128 % Config.block_n == 0 ? 1 : 2;
  /// The step of a tile's start within B's scale block: tile t starts t block_n mod 128 into one, a
  /// multiple of gcd(block_n, 128); so 128 / step boundaries between a tile's two blocks occur.
  static constexpr int scale_boundary_step = diag::gemm_block_scaled_gcd128(Config.block_n);
  /// Threads of the producer warpgroup that copy the stages' scales (staged_scales): one warp.
  static constexpr int scale_loader_threads = staged_scales ? 32 : 0;
  static constexpr bool grouped = Config.grouped;
  static_assert(!grouped || (Config.cluster_m == 1 &&
                             major_a == OperandMajorMode::K && major_b == OperandMajorMode::K &&
                             Config.layout_c == LayoutEnum::RowMajor && !epilogue::is_fp8_v<TC_> &&
                             (epilogue::is_elementwise_v<EpilogueOp_> || epilogue::is_gated_v<EpilogueOp_>)),
                "cute-cpp [gemm.grouped]: a grouped plan has K-major A and B, a 16- or 32-bit row-major C, no "
                "clusters along M (the two CTAs' tile rows may lie in different groups, with different B), and an "
                "elementwise (Identity, Activated) or gated epilogue (a functor's row is the group's, not C's)");
  static constexpr int consumer_warpgroups = 2;
  static constexpr bool pingpong = Config.schedule == KernelSchedule::PingPong;
  static constexpr int threads = 128 * (1 + consumer_warpgroups);
  /// Narrow tiles are fed by memory, not wgmma, and three stages are too few to keep a wgmma
  /// group in flight: their consumers wait for each stage's wgmmas and release it at once, so one
  /// more stage is in flight (README: measurements).
  static constexpr bool release_at_once = !pingpong && (block_n <= 112 || stages <= 3);
  /// Warpgroups that share one tile, and the rows each of them takes.
  static constexpr int tile_warpgroups = pingpong ? 1 : consumer_warpgroups;
  static constexpr int rows_per_warpgroup = block_m / tile_warpgroups;
  static_assert(rows_per_warpgroup % 64 == 0,
                "cute-cpp [gemm.tile-m]: each consumer warpgroup takes a multiple of 64 rows of a tile");

  /// K-major rows are block_k elements: the widest swizzle they fill (128 bytes, or 64 / 32 for short K).
  static constexpr int k_swizzle_a = block_k * int(sizeof(TA)) >= 128 ? 128 : block_k * int(sizeof(TA));
  static constexpr int k_swizzle_b = block_k * int(sizeof(TB)) >= 128 ? 128 : block_k * int(sizeof(TB));
  /// A Rows x block_k operand tile as TMA writes it and wgmma reads it.
  template <class T, OperandMajorMode Major, int Rows, int KSwizzle>
  using OperandSmem = std::conditional_t<Major == OperandMajorMode::K, SmemKMajor<T, Rows, block_k, KSwizzle>,
                                         SmemMNMajor<T, Rows, block_k>>;
  using ASmem = OperandSmem<TA, major_a, block_m, k_swizzle_a>;
  using BSmem = OperandSmem<TB, major_b, block_n, k_swizzle_b>;
  /// The parts of the A and B tiles one CTA of the cluster loads (and multicasts to all of them).
  using ASmemLoad = OperandSmem<TA, major_a, block_m / cluster_n, k_swizzle_a>;
  using BSmemLoad = OperandSmem<TB, major_b, block_n / cluster_m, k_swizzle_b>;
  using Mma = sm90::WgmmaTiledMma<TA, TB, float, sm90::AOperand<ASmem>, sm90::BOperand<BSmem>, rows_per_warpgroup / 64,
                                  block_n>;
  /// The kernel's named barriers, one run per user, one barrier of each run per consumer warpgroup:
  /// the output stores, split-K's and stream-K's meeting in the workspace, and PingPong's turns
  /// (which hand the main loop from one warpgroup to the other, so all 256 consumer threads).
  using Barriers = NamedBarrierAllocation<BarrierRequest<consumer_warpgroups, 128>,
                                          BarrierRequest<consumer_warpgroups, 128>,
                                          BarrierRequest<consumer_warpgroups, 256>>;
  using StoreBarriers = typename Barriers::template user<0>;
  using FixupBarriers = typename Barriers::template user<1>;
  using TurnBarriers = typename Barriers::template user<2>;
  /// A gated functor (epilogue::Gated) pairs each gate column with its up column: a tile then
  /// writes half as many columns of C as it multiplies, from an accumulator of that width.
  static constexpr bool gated = epilogue::is_gated_v<EpilogueOp>;
  static_assert(!gated || block_n % (2 * epilogue::SwiGLU::block) == 0,
                "cute-cpp [gemm.gated]: a gated epilogue pairs blocks of 8 gate and 8 up columns: the tile's N must be "
                "a multiple of 16");
  static constexpr int output_n = gated ? block_n / 2 : block_n;  ///< columns of C a tile writes
  using OutputAccumulator = sm90::WgmmaAccumulator<Mma::atoms_m, output_n>;
  /// The TMA-store machinery that writes C (the functor is EpilogueOp).
  using OutputStore = sm90::EpilogueTmaStore<TC, output_n, StoreBarriers, layout_c>;
  /// An FP8 C, quantized by 1 x 128 blocks with the scales the epilogue computes.
  static constexpr bool quantized_output = OutputStore::quantized;
  /// fp32 accumulators a consumer thread holds.
  static constexpr int accumulators = Mma::atoms_m * Mma::acc_per_atom;
  /// The epilogue of a whole tile (no split) stores the first chunks of its 16-bit row-major
  /// slab at once and keeps the rest packed in registers, stored a chunk per K block of the next
  /// tile while its wgmmas run.
  static constexpr bool overlap_epilogue = !pingpong && layout_c == LayoutEnum::RowMajor && sizeof(TC) == 2 &&
                                           rows_per_warpgroup == 64 && output_n == 256;
  /// The chunks stored at once. NOTE: with 3 or 4 kept packed beside the next tile's 128
  /// accumulators, the consumers spill (40 or 104 bytes at 232 registers).
  static constexpr int overlap_first_chunk = 2;
  /// Per-thread registers (setmaxnreg) of the producer and consumer warpgroups. The overlapped
  /// epilogue's packed chunks, more than 128 accumulators, or the overlapped promotion's two
  /// product sets need the consumers' extra 8; not with staged scales, whose warp needs the
  /// producer warpgroup's 40 (at 24 it spilled; at 232 the consumers do not).
  static constexpr bool wide_consumers =
      overlap_epilogue || accumulators > 128 || (overlap_promotion && !staged_scales);
  static constexpr int producer_registers = wide_consumers ? 24 : 40;
  // NOTE: run_overlapped has no slot for the overlapped epilogue's chunk stores (between(c)); the
  // register rules keep the two apart (an overlapped promotion's tile is at most 128 wide).
  static_assert(!(overlap_promotion && overlap_epilogue), "cute-cpp [gemm.block-scaled.options]: an overlapped "
                                                          "promotion and an overlapped epilogue do not combine");
  static constexpr int consumer_registers = wide_consumers ? 240 : 232;
  static_assert(producer_registers + consumer_warpgroups * consumer_registers == 3 * 168,
                "cute-cpp [gemm.registers]: the warpgroups' setmaxnreg budgets must share the 3 x 168 registers a "
                "thread that one 384-thread CTA per SM has");
  /// Whether the kernel has stream-K's fixup. NOTE: beside more than 128 accumulators (the
  /// 128x320 plan) its code leaves the consumers short of registers (ptxas spilled 8 bytes).
  static constexpr bool stream_k = accumulators <= 128;
  /// float4 loads in flight per thread in split-K's reduction: 4 beside more than 128
  /// accumulators (8 spill there); 32 beside at most 32 (the skinny tiles, whose last split
  /// otherwise sums a long split-K's partials in as many L2 round trips as it has rounds of 8).
  static constexpr int split_k_in_flight = accumulators > 128 ? 4 : accumulators <= 32 ? 32 : 8;
  static constexpr std::uint32_t a_bytes = size_in_bytes<TA, ASmem>();
  static constexpr std::uint32_t b_bytes = size_in_bytes<TB, BSmem>();
  // NOTE: a stage is released by the consumer warps (of the warpgroups sharing its tile) of every
  // CTA its A or B part was multicast to.
  // A stage's full barrier also takes one arrival per scale-loading thread (staged_scales).
  using Pipeline = PipelineTmaAsync<stages, tile_warpgroups * 4 * (cluster_m + cluster_n - 1), a_bytes + b_bytes,
                                    1 + scale_loader_threads>;
  using MapA = TensorMap<TA, ASmemLoad>;
  using MapB = TensorMap<TB, BSmemLoad>;
  using MapC = typename OutputStore::Map;

  struct alignas(8) StageScales {
    float a[block_m];
    float b[2];
  };
  struct StagedScales {
    StageScales stage[stages];
  };
  struct NoStagedScales {};
  struct SharedStorage {
    struct alignas(1024) Stage {
      TA a[a_bytes / sizeof(TA)];
      TB b[b_bytes / sizeof(TB)];
    };
    Stage stage[stages];
    typename OutputStore::SharedStorage epilogue[consumer_warpgroups];
    typename Pipeline::SharedStorage barriers;
    std::uint32_t split_k_flag[consumer_warpgroups];
    /// staged_scales: each stage's A scales (its rows) and B scales (the one or two scale blocks its
    /// columns meet), filled by the scale loader. NOTE: last and empty otherwise, so the other
    /// plans' storage is laid out as before.
    [[no_unique_address]] std::conditional_t<staged_scales, StagedScales, NoStagedScales> scales;
  };
  /// Dynamic shared memory to ask for: the storage, carved from the dynamic block by SmemAllocator
  /// at the alignment of its swizzled tiles (and so with that much slack).
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
  static_assert(diag::smem_tma_buffer_alignment<offsetof(SharedStorage, stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<a_bytes, MapB::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<sizeof(typename SharedStorage::Stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<offsetof(SharedStorage, epilogue), MapC::tile::swizzle_bytes>::ok);
  static_assert(cluster_n * MapA::tile_bytes + cluster_m * MapB::tile_bytes == Pipeline::tx_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  // What verify_plan checks across the plan.
  static constexpr int consumer_warps = tile_warpgroups * 4;
  static constexpr int cluster_size = cluster_m * cluster_n;
  /// CTAs whose consumers release each stage: this one, those it shares A with and those it shares B with.
  static constexpr int cluster_reach = cluster_m + cluster_n - 1;
};

/// A list of plans (what a set of translation units instantiates).
template <class... Plans>
struct GemmPlanList {};

}  // namespace cute_cpp::kernels
