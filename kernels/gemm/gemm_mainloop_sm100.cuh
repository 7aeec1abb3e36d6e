// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell GEMM's main loop (sm_100a), its roles over Plan::MainPipeline's stages:
//   GemmSm100Walk        every warp's walk of the tiles under cluster launch control: the current
//                        tile, then the next response (Plan::ClcPipeline) read and released
//   gemm_sm100_scheduler the scheduler warp: asks for the next tile (rank 0) and walks
//   gemm_sm100_producer  the TMA warp: per K block, waits for an empty stage, arms its barrier
//                        and loads this CTA's A rows and B atoms (a pair: onto the leader's
//                        barrier), and a block-scaled plan's scale factors of both
//   GemmSm100MmaStep     one K block's UMMAs; block-scaled: first the stage's scale factors'
//                        tcgen05.cp into the stage's tensor-memory region, then the scaled gemm
//   gemm_sm100_mma       the MMA warp: per tile, an accumulator stage of Plan::AccPipeline, a
//                        GemmSm100MmaStep per K block, the stage released by tcgen05.commit
// In a pair (cta_group 2) both CTAs load their halves (A: their 128 rows; B: their half of each
// atom) and the leader's MMA thread multiplies them; its commits free both CTAs' stages.
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>  // GemmSm100Plan

#include <cute_cpp/copy/tma_copy.hpp>                        // TmaCopy
#include <cute_cpp/pipeline/pipeline_state.hpp>              // PipelineState, make_pipeline_state
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // WorkTileInfo, PersistentTileSchedulerParams
#include <cute_cpp/smem/smem_tile.hpp>                       // SmemTile: a tile's TMA boxes
#include <ctm/common/config.hpp>                             // cvta_to_shared_u32
#include <ctm/common/cp_async_bulk_tensor.hpp>               // the .cta_group::2 tile loads

#include <cstdint>

namespace cute_cpp::kernels {

/// A warp's walk of the tiles: the scheduler, the response ring it reads, and its place in it.
/// Every warp of the cluster reads every response, so each advance() is one arrival per warp.
template <class Plan>
struct GemmSm100Walk {
  using Pipeline = typename Plan::ClcPipeline;
  typename Plan::Scheduler scheduler;
  Pipeline pipeline;
  ClcResponse* responses;
  PipelineState<Plan::clc_stages> state;
  std::uint32_t lane;

  __device__ __forceinline__ GemmSm100Walk(typename Plan::SharedStorage& s, PersistentTileSchedulerParams const& p,
                                           std::uint32_t rank, std::uint32_t lane_)
      : scheduler(p, blockIdx.x), pipeline{&s.clc_barriers, rank}, responses(s.responses),
        state(make_pipeline_state<Plan::clc_stages>(PipelineUserType::Consumer)), lane(lane_) {}

  /// Whether this cluster still has a tile (false after a response that canceled nothing).
  __device__ __forceinline__ bool has_work() const { return scheduler.has_work(); }
  /// The current tile: m counts this CTA's 128-row tiles (a pair's ranks take rows 2r and 2r + 1).
  __device__ __forceinline__ WorkTileInfo tile() const { return scheduler.get_current_work(); }
  /// The whole warp: waits for the next response, moves to its tile, releases the slot.
  __device__ __forceinline__ void advance() {
    pipeline.consumer_wait(state);
    scheduler.fetch_next_work(&responses[state.index()]);
    pipeline.consumer_release(state, lane);
    state.advance();
  }
};

/// The scheduler warp: on rank 0, asks for the next tile (lane r arms CTA r's response barrier,
/// lane 0 issues the multicast try_cancel) before reading each response; elsewhere only reads.
template <class Plan>
__device__ __forceinline__ void gemm_sm100_scheduler(GemmSm100Walk<Plan>& walk, std::uint32_t rank) {
  auto request = make_pipeline_state<Plan::clc_stages>(PipelineUserType::Producer);
  while (walk.has_work()) {
    if (rank == Plan::ClcPipeline::producer_rank) {
      walk.pipeline.producer_acquire(request, walk.lane);
      if (walk.lane == 0)
        walk.scheduler.advance_to_next_work(&walk.responses[request.index()],
                                            walk.pipeline.producer_get_barrier(request));
      request.advance();
    }
    walk.advance();
  }
}

/// Loads one operand tile (every TMA box of layout L) at (inner, outer) of the map into `dst`:
/// onto this CTA's barrier (CtaGroup 1), or onto the pair leader's (a shared::cluster address,
/// .cta_group::2), whose barrier counts both CTAs' bytes.
template <int CtaGroup, class T, class L, class Barrier>
__device__ __forceinline__ void gemm_sm100_load_tile(TensorMap<T, L> const& map, T* dst, Barrier bar,
                                                     std::int32_t inner, std::int32_t outer) {
  if constexpr (CtaGroup == 1) {
    TmaCopy::load(map, dst, bar, inner, outer);
  } else {
    using tile = SmemTile<T, L>;
#pragma unroll
    for (int b = 0; b < tile::boxes; ++b)
      ctm::cp_async_bulk_tensor_2d_shared_cluster_global_cta_group_2(dst + b * tile::box_elems, &map,
                                                                     inner + b * tile::box_inner, outer, bar);
  }
}

/// The TMA warp (lane 0 issues): per K block of each tile, an empty stage armed with the group's
/// bytes and filled with this CTA's A rows and B atoms. At the end it waits until every stage
/// is released, so no UMMA commit reaches this CTA's barriers after it exits.
template <class Plan>
__device__ __forceinline__ void gemm_sm100_producer(typename Plan::SharedStorage& smem,
                                                    typename Plan::MapA const& tma_a, typename Plan::MapB const& tma_b,
                                                    typename Plan::ScaleMaps const& tma_sf, GemmSm100Walk<Plan>& walk,
                                                    std::uint32_t rank) {
  constexpr bool a_k = Plan::major_a == OperandMajorMode::K, b_k = Plan::major_b == OperandMajorMode::K;
  typename Plan::MainPipeline const pipeline{&smem.main_barriers, rank};
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  while (walk.has_work()) {
    WorkTileInfo const t = walk.tile();
    auto const at = GemmSm100Operands<Plan>::of(t, rank);
    for (std::int32_t kb = 0; kb < t.k_block_end; ++kb) {
      pipeline.producer_acquire(state);
      if (walk.lane == 0) {
        pipeline.producer_expect_tx(state);
        auto const bar = pipeline.producer_get_barrier(state);
        auto& stage = smem.stage[state.index()];
        std::int32_t const k = kb * Plan::block_k;
        gemm_sm100_load_tile<Plan::cta_group>(tma_a, stage.a, bar, a_k ? k : at.a_row, a_k ? at.a_row : k);
#pragma unroll
        for (int a = 0; a < Plan::atoms_n; ++a)
          gemm_sm100_load_tile<Plan::cta_group>(tma_b, stage.b + a * (Plan::b_atom_bytes / sizeof(typename Plan::TB)),
                                                bar, b_k ? k : at.b_row(a), b_k ? at.b_row(a) : k);
        if constexpr (Plan::block_scaled) {
          // One box each: the K block's rows of 4-factor groups, a 32-bit word column per row of
          // A or B (so the rows' first word is the tile's first row).
          constexpr std::int32_t groups_a = Plan::Mma::SfaLayout::k_blocks, groups_b = Plan::Mma::SfbLayout::k_blocks;
          TmaCopy::load(tma_sf.sfa, stage.sfa, bar, at.a_row, kb * groups_a);
          TmaCopy::load(tma_sf.sfb, stage.sfb, bar, at.b_row(0), kb * groups_b);
        }
      }
      __syncwarp();
      state.advance();
    }
    walk.advance();
  }
  for (int s = 0; s < Plan::stages; ++s) {
    pipeline.producer_acquire(state);
    state.advance();
  }
}

/// One K block's UMMAs into the accumulator at `tmem_acc`: each atom's A x B into its columns,
/// adding to them unless `accumulate` is false (the tile's first K block). One thread. A
/// block-scaled plan first copies the stage's scale factors to `tmem_sf` (tcgen05.cp: the same
/// thread's copies precede its MMAs, and the stage's tcgen05.commit tracks both).
template <class Plan>
struct GemmSm100MmaStep {
  using Mma = typename Plan::Mma;
  static __device__ __forceinline__ void run(std::uint32_t tmem_acc, std::uint32_t tmem_sf,
                                             typename Plan::SharedStorage::Stage const& stage, bool accumulate) {
    std::uint32_t const a = ctm::cvta_to_shared_u32(stage.a), b = ctm::cvta_to_shared_u32(stage.b);
    if constexpr (Plan::block_scaled) {
      std::uint32_t const tmem_sfa = tmem_sf, tmem_sfb = tmem_sf + std::uint32_t(Mma::SfaLayout::columns);
      Mma::SfaLayout::copy(ctm::cvta_to_shared_u32(stage.sfa), tmem_sfa);
      Mma::SfbLayout::copy(ctm::cvta_to_shared_u32(stage.sfb), tmem_sfb);
      Mma::gemm(tmem_acc, a, b, tmem_sfa, tmem_sfb, accumulate);
    } else {
      (void)tmem_sf;
#pragma unroll
      for (int atom = 0; atom < Plan::atoms_n; ++atom)
        Mma::gemm(tmem_acc + std::uint32_t(atom * Mma::Accumulator::columns), a, b + atom * Plan::b_atom_bytes,
                  accumulate);
    }
  }
};

/// The MMA warp (lane 0 issues; in a pair, the leader's only, the peer's only walks): per tile,
/// waits for a free accumulator stage, runs a GemmSm100MmaStep per K block, releasing each stage
/// with tcgen05.commit, and commits the accumulator to the epilogue.
template <class Plan>
__device__ __forceinline__ void gemm_sm100_mma(typename Plan::SharedStorage& smem, GemmSm100Walk<Plan>& walk,
                                               std::uint32_t tmem_base, std::uint32_t rank) {
  typename Plan::MainPipeline const operands{&smem.main_barriers, rank};
  typename Plan::AccPipeline const accumulators{&smem.acc_barriers, rank};
  auto in = make_pipeline_state<Plan::stages>(PipelineUserType::Consumer);
  auto out = make_pipeline_state<Plan::acc_stages>(PipelineUserType::Producer);
  bool const issues = operands.is_leader_cta();
  while (walk.has_work()) {
    if (issues) {
      WorkTileInfo const t = walk.tile();
      accumulators.producer_acquire(out);
      std::uint32_t const tmem_acc = tmem_base + std::uint32_t(out.index() * Plan::acc_columns);
      for (std::int32_t kb = 0; kb < t.k_block_end; ++kb) {
        operands.consumer_wait(in);
        if (walk.lane == 0) {
          std::uint32_t const tmem_sf =
              tmem_base + std::uint32_t(Plan::sf_tmem_column + in.index() * Plan::sf_stage_columns);
          GemmSm100MmaStep<Plan>::run(tmem_acc, tmem_sf, smem.stage[in.index()], kb > 0);
          operands.consumer_release(in);
        }
        __syncwarp();
        in.advance();
      }
      if (walk.lane == 0) accumulators.producer_commit(out);
      __syncwarp();
      out.advance();
    }
    walk.advance();
  }
}

}  // namespace cute_cpp::kernels
