// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The static half of the Blackwell GEMM kernel (sm_100a): GemmSm100Config, named field by field,
// and GemmSm100Plan, everything the kernel and its launch derive from it (operand tiles, the tiled
// UMMA, the three pipelines, tensor-memory columns, the epilogue's TMEM copy, shared storage),
// checked where the plan is formed (rules gemm.sm100.*, umma.tmem-columns, smem.budget). Host and
// device: the CPU tests read the plans. CuTeDSL: the dense_gemm_persistent example's mma_tiler_mn,
// cluster_shape_mn (a pair: use_2cta_instrs), num_acc_stage, num_ab_stage.
#include <cute_cpp/arch/clc.hpp>                           // ClcResponse
#include <cute_cpp/diag/verify_plan.hpp>                   // verify_plan
#include <cute_cpp/epilogue/fusion.hpp>                    // Identity
#include <cute_cpp/mma/sm100_umma.hpp>                     // sm100::UmmaTiledMma
#include <cute_cpp/operand_modes.hpp>                      // OperandMajorMode, LayoutEnum
#include <cute_cpp/pipeline/pipeline_clc_fetch_async.hpp>  // PipelineClcFetchAsync
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>         // PipelineTmaUmma
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>       // PipelineUmmaAsync
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>  // ClcDynamicPersistentTileScheduler
#include <cute_cpp/smem/allocator.hpp>                     // smem_bytes_for
#include <cute_cpp/smem/smem_tile.hpp>                     // SmemKMajor, SmemMNMajor, size_in_bytes
#include <cute_cpp/tma/tensor_map.hpp>                     // TensorMap
#include <cute_cpp/tmem/tmem_allocator.hpp>                // TmemAllocator
#include <cute_cpp/tmem/tmem_copy.hpp>                     // TmemCopyAtom, UmmaAccumulator

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

// In cute_cpp::diag with the library's other rules: a cute_cpp::kernels::diag would hide that namespace
// from every plan in cute_cpp::kernels included after this header (gemm_plan.hpp's among them).
namespace cute_cpp::diag {
/// Rule gemm.sm100.tile-m: a tile has 128 rows a CTA: 128 for one CTA, 256 for a pair.
template <int CtaGroup, int BlockM>
struct gemm_sm100_tile_m {
  static_assert((CtaGroup == 1 || CtaGroup == 2) && BlockM == 128 * CtaGroup,
                "cute-cpp [gemm.sm100.tile-m]: a tile has 128 rows per CTA: block_m = 128 with cta_group 1, "
                "256 with cta_group 2 (a CTA pair)");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.tile-n: block_n is atoms_n UMMA atoms of at most 256 columns, each a multiple
/// of 16 (the epilogue copies 16 columns at a time; a pair's atom splits into halves of 8 rows).
template <int BlockN, int AtomsN>
struct gemm_sm100_tile_n {
  static_assert(AtomsN >= 1 && BlockN % AtomsN == 0 && (BlockN / AtomsN) % 16 == 0 && BlockN / AtomsN <= 256,
                "cute-cpp [gemm.sm100.tile-n]: block_n must be atoms_n UMMA atoms of at most 256 columns each, "
                "each a multiple of 16");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.tile-k: a K block is one 128-byte swizzle row of each operand (64 16-bit or
/// 128 8-bit elements).
template <int BlockK, int BytesA, int BytesB>
struct gemm_sm100_tile_k {
  static_assert(BlockK * BytesA == 128 && BlockK * BytesB == 128,
                "cute-cpp [gemm.sm100.tile-k]: block_k must span 128 bytes of A and of B (64 16-bit elements, "
                "128 8-bit ones)");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.n-atoms: several atoms along N read B K-major (an atom's rows are a whole
/// number of swizzle repeats into the tile; MN-major blocks would split them).
template <int AtomsN, bool BKMajor>
struct gemm_sm100_n_atoms {
  static_assert(AtomsN == 1 || BKMajor,
                "cute-cpp [gemm.sm100.n-atoms]: a tile of several UMMA atoms along N needs a K-major B");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.smem: at least two stages, and the stages with the barriers fit a CTA's 227 KB.
template <int Stages, int StageBytes, std::size_t SmemBytes>
struct gemm_sm100_smem {
  static_assert(Stages >= 2 && SmemBytes <= 232448,
                "cute-cpp [gemm.sm100.smem]: the stages of A and B tiles (at least 2) and the barriers must fit "
                "the 227 KB of shared memory a CTA has; use fewer stages");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.block-scale: a block-scaled plan runs on one CTA with one UMMA atom along N
/// (UmmaScaleFactorLayout's tcgen05.cp serves cta_group 1; one atom's scale factors are one TMA box).
template <bool BlockScaled, int CtaGroup, int AtomsN>
struct gemm_sm100_block_scale {
  static_assert(!BlockScaled || (CtaGroup == 1 && AtomsN == 1),
                "cute-cpp [gemm.sm100.block-scale]: a block-scaled plan runs on one CTA (cta_group 1, block_m 128) "
                "with one UMMA atom along N (atoms_n 1)");
  static constexpr bool ok = true;
};
/// Rule gemm.sm100.output: C is bf16, fp16 or fp32.
template <bool Supported>
struct gemm_sm100_output {
  static_assert(Supported, "cute-cpp [gemm.sm100.output]: the sm_100a GEMM writes C as bf16, fp16 or fp32");
  static constexpr bool ok = true;
};
}  // namespace cute_cpp::diag

namespace cute_cpp::kernels {

/// The static configuration of one sm_100a GEMM kernel besides its element types, named field by
/// field: GemmSm100Plan<bf16, bf16, bf16, GemmSm100Config{.block_m = 256, .cta_group = 2}>.
struct GemmSm100Config {
  int block_m = 128, block_n = 256, block_k = 64;  ///< the tile of one CTA, or of a CTA pair
  int cta_group = 1;   ///< 1: a CTA a tile; 2: a pair (cluster of 2), 128 rows and half of B each
  int atoms_n = 1;     ///< UMMA instructions side by side along N, block_n / atoms_n columns each
  int stages = 4;      ///< A and B tiles in flight in shared memory
  int acc_stages = 2;  ///< accumulators in tensor memory: 2 lets a tile's epilogue overlap the next's MMAs
  OperandMajorMode major_a = OperandMajorMode::K, major_b = OperandMajorMode::K;
};

/// The scale-factor descriptors a dense plan's kernel takes: none.
struct GemmSm100NoScaleMaps {};

/// Everything static about one sm_100a GEMM kernel; run_gemm_sm100<Plan> launches it. BlockScale_:
/// sm100::UmmaNoBlockScale (dense), or sm100::UmmaBlockScale<Sf, Vec> for the block-scaled kinds,
/// whose scale factors ride in each stage beside A and B (gemm_fp4_sm100.hpp).
template <class TA_, class TB_, class TC_, GemmSm100Config Config, class EpilogueOp_ = epilogue::Identity,
          class BlockScale_ = sm100::UmmaNoBlockScale>
struct GemmSm100Plan {
  using TA = TA_;
  using TB = TB_;
  using TC = TC_;
  using EpilogueOp = EpilogueOp_;
  using BlockScale = BlockScale_;
  static constexpr GemmSm100Config config = Config;
  static constexpr int block_m = Config.block_m, block_n = Config.block_n, block_k = Config.block_k;
  static constexpr int cta_group = Config.cta_group, atoms_n = Config.atoms_n;
  static constexpr int stages = Config.stages, acc_stages = Config.acc_stages;
  static constexpr OperandMajorMode major_a = Config.major_a, major_b = Config.major_b;
  static constexpr LayoutEnum layout_c = LayoutEnum::RowMajor;
  static constexpr bool gated = false;  ///< what check_plan_shape reads: no gated epilogue here
  static_assert(diag::gemm_sm100_tile_m<cta_group, block_m>::ok);
  static_assert(diag::gemm_sm100_tile_n<block_n, atoms_n>::ok);
  static_assert(diag::gemm_sm100_tile_k<block_k, int(sizeof(TA)), int(sizeof(TB))>::ok);
  static_assert(diag::gemm_sm100_n_atoms<atoms_n, major_b == OperandMajorMode::K>::ok);
  static_assert(diag::gemm_sm100_output<std::is_same_v<TC, __nv_bfloat16> || std::is_same_v<TC, __half> ||
                                        std::is_same_v<TC, float>>::ok);

  /// A CTA's rows of A, and the columns of one UMMA atom (a CTA holds half of each in a pair).
  static constexpr int cta_m = block_m / cta_group;
  static constexpr int atom_n = block_n / atoms_n;
  static constexpr int cta_atom_n = atom_n / cta_group;
  /// NOTE: the tiles take a 128-byte K block even where gemm.sm100.tile-k fails, so that rule's
  /// error is the only one (not the TMA and UMMA layout rules' after it).
  static constexpr int tile_k = block_k * int(sizeof(TA)) == 128 ? block_k : 128 / int(sizeof(TA));
  /// A Rows x block_k operand tile as TMA writes it and tcgen05.mma reads it (128-byte swizzle).
  template <class T, OperandMajorMode Major, int Rows>
  using OperandSmem = std::conditional_t<Major == OperandMajorMode::K, SmemKMajor<T, Rows, tile_k, 128>,
                                         SmemMNMajor<T, Rows, tile_k, 128>>;
  using ASmem = OperandSmem<TA, major_a, cta_m>;
  /// One atom's part of B in this CTA; the atoms lie one after another in the stage.
  using BSmem = OperandSmem<TB, major_b, cta_atom_n>;
  using Mma = sm100::UmmaTiledMma<TA, TB, float, sm90::AOperand<ASmem>, sm90::BOperand<BSmem>, block_m, atom_n,
                                  cta_group, BlockScale>;
  static constexpr bool block_scaled = Mma::block_scaled;
  static_assert(diag::gemm_sm100_block_scale<block_scaled, cta_group, atoms_n>::ok);
  static constexpr std::uint32_t a_bytes = size_in_bytes<TA, ASmem>();
  static constexpr std::uint32_t b_atom_bytes = size_in_bytes<TB, BSmem>();
  static constexpr std::uint32_t b_bytes = b_atom_bytes * atoms_n;
  /// A K block's scale factors of A's rows and B's columns (block-scaled plans; 0 otherwise), in
  /// UmmaScaleFactorLayout's 512-byte blocks.
  static constexpr std::uint32_t sfa_bytes = block_scaled ? Mma::SfaLayout::bytes : 0;
  static constexpr std::uint32_t sfb_bytes = block_scaled ? Mma::SfbLayout::bytes : 0;
  /// This CTA's bytes of a stage (the pair's leader arms its barrier with both CTAs').
  static constexpr std::uint32_t stage_bytes = a_bytes + b_bytes + sfa_bytes + sfb_bytes;
  using MapA = TensorMap<TA, ASmem>;
  using MapB = TensorMap<TB, BSmem>;
  /// The scale factors as one TMA box a K block: k_blocks rows (4 factors a row of the tile each)
  /// of row_blocks x 512 bytes, read as 32-bit words (a 512-byte block is 128 words, so a word
  /// column is a row of A or B). Global layout: gemm_fp4_sm100.hpp's fp4_sm100_scale_offset.
  template <class SfLayout>
  using ScaleSmem = RowMajor<SfLayout::k_blocks, SfLayout::row_blocks * 128>;
  using SfaSmem = ScaleSmem<typename Mma::SfaLayout>;
  using SfbSmem = ScaleSmem<typename Mma::SfbLayout>;
  /// The scale factors' descriptors the kernel takes (__grid_constant__, beside A's and B's).
  struct BlockScaleMaps {
    TensorMap<std::uint32_t, SfaSmem> sfa;
    TensorMap<std::uint32_t, SfbSmem> sfb;
  };
  using ScaleMaps = std::conditional_t<block_scaled, BlockScaleMaps, GemmSm100NoScaleMaps>;

  /// Tensor memory: acc_stages accumulators of block_n fp32 columns (atoms_n atoms side by side),
  /// then, block-scaled, each stage's scale factors (A's, then B's).
  /// NOTE: a region per stage, not one: a stage's tcgen05.cp is issued only after the consumer
  /// wait that follows the commit of the MMAs which last read that region, so no copy can
  /// overwrite factors an MMA in flight still reads, whatever the tensor core's queue order.
  static constexpr int acc_columns = Mma::Accumulator::columns * atoms_n;
  static constexpr int sf_stage_columns = Mma::sf_columns;
  static constexpr int sf_tmem_column = acc_stages * acc_columns;
  static_assert(
      cute_cpp::diag::umma_tmem_columns<Mma::Accumulator::columns, acc_stages * atoms_n, stages * sf_stage_columns>::ok);
  static constexpr int tmem_columns = acc_stages * acc_columns + stages * sf_stage_columns;
  static constexpr std::uint32_t tmem_alloc_columns = [] {
    std::uint32_t c = 32;
    while (c < std::uint32_t(tmem_columns)) c *= 2;
    return c;
  }();
  using TmemAlloc = sm100::TmemAllocator<tmem_alloc_columns, cta_group>;
  /// The epilogue's view of one accumulator stage: this CTA's 128 rows by block_n columns, read
  /// 16 columns a copy (32x32b.x16: a thread's 16 registers are 16 consecutive columns of its row).
  using Accumulator = sm100::UmmaAccumulator<block_m, block_n, cta_group>;
  using TmemAtom = sm100::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 16>;

  // ---- warps: 4 epilogue warps (TMEM lane quarters 0..3), the MMA warp, the TMA warp, the scheduler ----
  static constexpr int epilogue_warps = 4;
  static constexpr int mma_warp = 4, tma_warp = 5, scheduler_warp = 6;
  static constexpr int warps = 7;
  static constexpr int threads = 32 * warps;
  /// CLC responses in flight: the scheduler warp asks for tile i + 1 while tile i is walked.
  static constexpr int clc_stages = 2;

  using MainPipeline = PipelineTmaUmma<stages, stage_bytes, cta_group, cta_group>;
  using AccPipeline = PipelineUmmaAsync<acc_stages, epilogue_warps, cta_group, cta_group>;
  /// Every warp of every CTA of the cluster reads every response.
  using ClcPipeline = PipelineClcFetchAsync<clc_stages, warps * cta_group, cta_group>;
  using Scheduler = ClcDynamicPersistentTileScheduler<cta_group>;

  struct alignas(1024) DenseStage {
    TA a[a_bytes / sizeof(TA)];
    TB b[b_bytes / sizeof(TB)];
  };
  /// A and B, then the K block's scale factors (512-byte blocks after 1024-byte tiles: aligned
  /// for TMA and for tcgen05.cp's descriptors).
  struct alignas(1024) ScaledStage {
    TA a[a_bytes / sizeof(TA)];
    TB b[b_bytes / sizeof(TB)];
    std::uint32_t sfa[(sfa_bytes + 3) / 4];
    std::uint32_t sfb[(sfb_bytes + 3) / 4];
  };
  struct SharedStorage {
    using Stage = std::conditional_t<block_scaled, ScaledStage, DenseStage>;
    Stage stage[stages];
    typename MainPipeline::SharedStorage main_barriers;
    typename AccPipeline::SharedStorage acc_barriers;
    typename ClcPipeline::SharedStorage clc_barriers;
    ClcResponse responses[clc_stages];
    std::uint32_t tmem_slot;
  };
  /// Dynamic shared memory to ask for (SmemAllocator's slack for the 1024-byte alignment included).
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
  static_assert(diag::gemm_sm100_smem<stages, int(stage_bytes), smem_bytes>::ok);
  static_assert(a_bytes % Mma::OpB::repeat_bytes == 0 && b_atom_bytes % Mma::OpB::repeat_bytes == 0,
                "cute-cpp [gemm.sm100.tile-n]: each operand tile starts on a whole swizzle repeat");

  // What verify_plan checks across the plan.
  static constexpr int cluster_size = cta_group;
};

/// Where this CTA's operands of tile `t` start: its A rows, and per atom its half (a pair) or all
/// (one CTA) of the atom's B rows. Host and device: the CPU tests check the pair's B halves.
template <class Plan>
struct GemmSm100Operands {
  std::int32_t a_row;   ///< A's first row (M)
  std::int32_t b_row0;  ///< atom 0's first row of B (N) in this CTA
  CUTE_CPP_HD static constexpr GemmSm100Operands of(WorkTileInfo const& t, std::uint32_t rank) {
    std::int32_t const half = Plan::cta_group == 2 ? std::int32_t(rank % 2) : 0;
    return {t.m * Plan::cta_m, t.n * Plan::block_n + half * Plan::cta_atom_n};
  }
  /// Atom `a`'s first row of B in this CTA.
  CUTE_CPP_HD constexpr std::int32_t b_row(int a) const { return b_row0 + a * Plan::atom_n; }
};

/// The tile the heuristic's rule names (plans_sm100.hpp maps each to a plan).
enum class GemmSm100Tile { Tile128x128, Tile128x256, Pair256x256 };

/// A list of plans (what a set of translation units instantiates, for the build report).
template <class... Plans>
struct GemmSm100PlanList {};

}  // namespace cute_cpp::kernels
