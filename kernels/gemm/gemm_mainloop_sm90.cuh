// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Hopper GEMM's main loop, its two sides over the stages of Plan::Pipeline (sm_90a):
//   gemm_producer   warpgroup 0, one thread: walks the tiles and, per K block, waits for an empty
//                   stage, arms its barrier and issues the TMA loads of A and B;
//   GemmMainLoop    a consumer warpgroup's: multiplies its rows of the tile with wgmma, one wgmma
//                   group in flight (a block-scaled plan promotes each K block with its scales,
//                   a two-level one without, after its wait or, with overlap_promotion, while the
//                   next K block's run).
// With cluster_m = 2, the two CTAs of a cluster take vertically adjacent tiles of one tile column:
// each loads half of the shared B tile and multicasts it to both, halving B's L2 traffic;
// cluster_n = 2 does the same for A, with horizontally adjacent tiles; both, a 2 x 2 block of
// tiles, each CTA sharing A with its row and B with its column. A stage is then free only when
// the consumers of every CTA that shares one of its tiles have released it.
#include <cute_cpp/kernels/gemm/gemm.hpp>                     // GemmPlan, BlockScales, IndependentOperand
#include <cute_cpp/kernels/gemm/gemm_block_scales_sm90.cuh>  // KBlockScales, load_*_scales, promote

#include <cute_cpp/arch/griddepcontrol.hpp>                     // griddepcontrol_wait
#include <cute_cpp/copy/tma_copy.hpp>                           // TmaCopy
#include <cute_cpp/pipeline/pipeline_state.hpp>                 // PipelineState, make_pipeline_state
#include <cute_cpp/sched/grouped_tiles.hpp>                     // GroupedTiles, GroupedTileRow
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // StaticPersistentTileScheduler

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// Where this CTA sits in its cluster (rank r: tile row r % cluster_m, tile column r / cluster_m
/// of the cluster's block, as the scheduler places it), the CTAs that share its A tile (its tile
/// row) and its B tile (its tile column), which its loads are multicast to, and `mask`, both: the
/// CTAs whose consumers read what it loads and whose loads it reads, so release each stage to.
template <class Plan>
struct ClusterPlace {
  std::uint32_t rank = 0, rank_m = 0, rank_n = 0;
  std::uint32_t a_mask = 0, b_mask = 0, mask = 0;
  __device__ __forceinline__ ClusterPlace()
      : rank(blockIdx.x % Plan::cluster_size), rank_m(rank % Plan::cluster_m), rank_n(rank / Plan::cluster_m) {
    for (std::uint32_t j = 0; j < Plan::cluster_n; ++j) a_mask |= 1u << (rank_m + j * Plan::cluster_m);
    for (std::uint32_t i = 0; i < Plan::cluster_m; ++i) b_mask |= 1u << (rank_n * Plan::cluster_m + i);
    mask = Plan::cluster_size > 1 ? a_mask | b_mask : 0u;
  }
};

/// The producer (one thread): per K block of each of its tiles, waits for an empty stage, arms its
/// barrier and loads this CTA's parts of the A and B tiles into it. It waits for the kernel before
/// (programmatic dependent launch) before its first load, except the `independent` operand's
/// part of the first tile's first stages, which it loads before that wait.
template <class Plan>
__device__ __forceinline__ void gemm_producer(typename Plan::SharedStorage& smem, typename Plan::MapA const& tma_a,
                                              typename Plan::MapB const& tma_b,
                                              PersistentTileSchedulerParams const& tiles,
                                              IndependentOperand const independent, GroupedTiles const& grouped) {
  using Pipeline = typename Plan::Pipeline;
  constexpr int BM = Plan::block_m, BN = Plan::block_n, BK = Plan::block_k;
  constexpr int cluster_m = Plan::cluster_m, cluster_n = Plan::cluster_n;
  Pipeline const pipeline{&smem.barriers};
  ClusterPlace<Plan> const cluster;
  // NOTE: each role makes its own scheduler after setmaxnreg, so none of its state is held
  // across the change of register budget.
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  // Loads this CTA's part of an operand tile: all of it, or, shared by a cluster, its part
  // multicast to the CTAs that share it (a mask of 0 lands it here only).
  auto const load_operand = [](auto const& map, auto* dst, bool k_major, int shared_by, std::uint32_t mask,
                               std::int32_t mn, std::int32_t k, std::uint64_t* full) {
    std::int32_t const inner = k_major ? k : mn, outer = k_major ? mn : k;
    TmaCopy::load_multicast(map, dst, full, shared_by > 1 ? std::uint16_t(mask) : std::uint16_t{0}, inner, outer);
  };
  // The CTAs along N share A, those along M share B: each loads its part of a shared tile (by its
  // place along the other dimension: rows from a_row / b_row on, into a_offset / b_offset),
  // multicast to those that share it.
  auto const rank_n = std::int32_t(cluster.rank_n), rank_m = std::int32_t(cluster.rank_m);
  std::int32_t const a_row = rank_n * (BM / cluster_n), b_row = rank_m * (BN / cluster_m);
  std::size_t const a_offset = std::size_t(rank_n) * (Plan::a_bytes / sizeof(typename Plan::TA) / cluster_n);
  std::size_t const b_offset = std::size_t(rank_m) * (Plan::b_bytes / sizeof(typename Plan::TB) / cluster_m);
  // A grouped plan reads each group's operands through the group's maps (sched/grouped_tiles.hpp).
  auto const* map_a = &tma_a;
  auto const* map_b = &tma_b;
  auto const load_a = [&](auto& stage, std::int32_t m0, int kb, std::uint64_t* full) {
    load_operand(*map_a, stage.a + a_offset, Plan::major_a == OperandMajorMode::K, cluster_n, cluster.a_mask,
                 m0 + a_row, kb * BK, full);
  };
  auto const load_b = [&](auto& stage, std::int32_t n0, int kb, std::uint64_t* full) {
    load_operand(*map_b, stage.b + b_offset, Plan::major_b == OperandMajorMode::K, cluster_m, cluster.b_mask,
                 n0 + b_row, kb * BK, full);
  };
  // The first tile's first stages (empty at the start): each armed for both operands and given
  // the independent one now, the other after the wait.
  int early = 0;
  if (!Plan::grouped && independent != IndependentOperand::None && scheduler.has_work()) {
    WorkTileInfo const tile = scheduler.get_current_work();
    early = min(tile.k_block_end - tile.k_block_begin, Plan::stages);
    auto s = state;
    for (int i = 0; i < early; ++i, s.advance()) {
      pipeline.producer_acquire(s);
      pipeline.producer_expect_tx(s);
      int const kb = tile.k_block_begin + i;
      if (independent == IndependentOperand::A) load_a(smem.stage[s.index()], tile.m * BM, kb, pipeline.producer_get_barrier(s));
      else load_b(smem.stage[s.index()], tile.n * BN, kb, pipeline.producer_get_barrier(s));
    }
  }
  arch::griddepcontrol_wait();
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    WorkTileInfo const tile = scheduler.get_current_work();
    std::int32_t m0 = tile.m * BM;
    std::int32_t const n0 = tile.n * BN;
    if constexpr (Plan::grouped) {
      GroupedTileRow const row = grouped.row(tile.m);
      if (row.group < 0) break;  // past the last group (the walk's tail: run_grouped_gemm)
      map_a = grouped.template map<typename Plan::MapA>(row.group, 0);
      map_b = grouped.template map<typename Plan::MapB>(row.group, 1);
      GroupedTiles::acquire(map_a);
      GroupedTiles::acquire(map_b);
      m0 = row.row0;
    }
    for (int kb = tile.k_block_begin; kb < tile.k_block_begin + early; ++kb) {
      auto& stage = smem.stage[state.index()];
      std::uint64_t* const full = pipeline.producer_get_barrier(state);
      if (independent == IndependentOperand::A) load_b(stage, n0, kb, full);
      else load_a(stage, m0, kb, full);
      state.advance();
    }
    for (int kb = tile.k_block_begin + early; kb < tile.k_block_end; ++kb) {
      pipeline.producer_acquire(state);
      pipeline.producer_expect_tx(state);
      auto& stage = smem.stage[state.index()];
      std::uint64_t* const full = pipeline.producer_get_barrier(state);
      load_a(stage, m0, kb, full);
      load_b(stage, n0, kb, full);
      state.advance();
    }
    early = 0;
  }
  if constexpr (Plan::cluster_size > 1) {
    // NOTE: the producer's tail: wait until every stage is released by the consumers of the
    // CTAs that share its tiles, so no remote arrival reaches this CTA after it exits.
    for (int s = 0; s < Plan::stages; ++s) {
      pipeline.producer_acquire(state);
      state.advance();
    }
  }
}

/// A consumer warpgroup's main loop over one tile's K blocks: per K block, waits for the stage,
/// issues its wgmmas into `acc` and releases the stage before (one wgmma group stays in flight),
/// or this one at once (release_at_once). With overlap_epilogue, `between(c)` runs after each of
/// the first K blocks, for chunks c from overlap_first_chunk on: the previous tile's packed
/// epilogue goes out a chunk per K block while the wgmmas run.
template <class Plan>
struct GemmMainLoop {
  using Mma = typename Plan::Mma;
  using Pipeline = typename Plan::Pipeline;
  typename Plan::SharedStorage& smem;
  Pipeline pipeline;
  ClusterPlace<Plan> cluster;
  std::uint32_t lane;
  PipelineState<Plan::stages> state;

  __device__ __forceinline__ explicit GemmMainLoop(typename Plan::SharedStorage& s)
      : smem(s), pipeline{&s.barriers}, lane(threadIdx.x % 32),
        state(make_pipeline_state<Plan::stages>(PipelineUserType::Consumer)), in_flight(state) {}

  /// Moves past a tile the other warpgroup takes (PingPong).
  __device__ __forceinline__ void skip(WorkTileInfo const& tile) {
    for (int kb = tile.k_block_begin; kb < tile.k_block_end; ++kb) state.advance();
  }

  /// acc = the tile's product over its K blocks (this warpgroup's rows from `row0` of the tile);
  /// block-scaled plans: the sum of each K block's product times its scales (`scales`, for rows
  /// of A below `m` and rows of B below `n`); two-level ones: the fp32 sum of the K blocks' products.
  template <class Between>
  __device__ __forceinline__ void run(typename Mma::FragmentC& acc, WorkTileInfo const& tile, int row0,
                                      Between&& between, BlockScales const& scales = {}, std::int64_t m = 0,
                                      std::int64_t n = 0) {
    if constexpr (Plan::overlap_promotion) {
      run_overlapped(acc, tile, row0, scales, m, n);
      return;
    }
    acc.fill(0.0f);
    auto previous = state;
    auto const step = [&](int kb) {
      if constexpr (Plan::promoted) return promoted_step(acc, tile, row0, kb, scales, m, n);
      pipeline.consumer_wait(state);
      Mma::warpgroup_arrive(acc);
      gemm_stage(acc, state, row0, true);
      Mma::commit_group();
      if constexpr (Plan::release_at_once) {
        Mma::template wait_group<0>(acc);
        release(state);
      } else if (kb > tile.k_block_begin) {
        // NOTE: one wgmma group stays in flight; the stage before it is now free.
        Mma::template wait_group<1>(acc);
        release(previous);
      }
      previous = state;
      state.advance();
    };
    int kb = tile.k_block_begin;
    if constexpr (Plan::overlap_epilogue) {
      // All of the previous tile's chunks go out, even when this tile has fewer K blocks.
#pragma unroll
      for (int c = Plan::overlap_first_chunk; c < Plan::OutputStore::chunks; ++c) {
        if (kb < tile.k_block_end) step(kb++);
        between(c);
      }
    }
    for (; kb < tile.k_block_end; ++kb) step(kb);
    in_flight = previous;
  }

  /// Waits for the tile's last wgmmas and releases the stage they read (unless released at once).
  __device__ __forceinline__ void finish(typename Mma::FragmentC& acc, WorkTileInfo const& tile) {
    Mma::template wait_group<0>(acc);
    if (!Plan::release_at_once && !Plan::promoted && tile.k_block_end > tile.k_block_begin)
      release(in_flight);
  }

 private:
  /// acc (+)= the product of the tiles in `at`'s stage: stage 0's addresses plus whole stages, so
  /// that no K block converts a generic pointer to a shared address again.
  /// NOTE: stage 0's addresses are not members: held in registers through the loop they pushed the
  /// fp8 128 x 256 plans (128 accumulators a thread) into local memory; computed here, the compiler
  /// keeps them where registers allow and recomputes them on the uniform path where they do not.
  __device__ __forceinline__ void gemm_stage(typename Mma::FragmentC& acc, PipelineState<Plan::stages> const& at,
                                             int row0, bool accumulate) const {
    std::uint32_t const offset = std::uint32_t(at.index()) * std::uint32_t(sizeof(smem.stage[0]));
    Mma::gemm_at(acc, ctm::cvta_to_shared_u32(smem.stage[0].a) + offset,
                 ctm::cvta_to_shared_u32(smem.stage[0].b) + offset, row0, accumulate);
  }
  /// This warp is done with `at`'s stage: it arrives on the empty barriers of every CTA that shares
  /// it (the cluster's size a constant, so the remote arrivals unroll).
  /// NOTE: the unrolled arrivals keep each rank's barrier in registers; plans of 128 accumulators a
  /// thread (the 128 x 256 tiles) have none to spare (fp8's spilled 24 bytes), so they loop.
  __device__ __forceinline__ void release(PipelineState<Plan::stages> const& at) const {
    constexpr int unrolled_ranks = Plan::accumulators < 128 ? Plan::cluster_size : 0;
    pipeline.template consumer_release<unrolled_ranks>(at, lane, cluster.mask, cluster.rank);
  }
  /// A K block's scales: from the stage (staged_scales; `at` is its pipeline state) or from global
  /// memory.
  __device__ __forceinline__ KBlockScales<Plan> load_scales(PipelineState<Plan::stages> const& at,
                                                            WorkTileInfo const& tile, int row0, int kb,
                                                            BlockScales const& scales, std::int64_t m,
                                                            std::int64_t n) const {
    if constexpr (Plan::staged_scales) return load_staged_scales<Plan>(smem.scales.stage[at.index()], tile, row0);
    else return load_global_scales<Plan>(tile, row0, kb, scales, m, n);
  }
  /// One K block of a promoting plan: its products into a fresh accumulator, waited for (the scales
  /// load meanwhile), the stage released, then acc += product * a(row, kb) * b(n block, kb), or a
  /// two-level plan's acc += product.
  /// NOTE: the wait leaves no wgmma in flight across K blocks in this warpgroup; the other
  /// consumer warpgroup's wgmmas keep the tensor cores busy during the promotion. Measured
  /// slower (README): the next block's scales loaded a block ahead, and a second product
  /// accumulator to keep a wgmma group in flight (2026-12-02; run_overlapped is issue 44's form of
  /// it, not yet measured); the tile's columns in two halves, one promoted while the other's
  /// wgmmas run, ptxas serializes (C7514: accumulators read in flight).
  __device__ __forceinline__ void promoted_step(typename Mma::FragmentC& acc, WorkTileInfo const& tile, int row0,
                                                int kb, BlockScales const& scales, std::int64_t m, std::int64_t n) {
    typename Mma::FragmentC product;
    pipeline.consumer_wait(state);
    Mma::warpgroup_arrive(product);
    gemm_stage(product, state, row0, false);
    Mma::commit_group();
    if constexpr (Plan::two_level) {
      Mma::template wait_group<0>(product);
      release(state);
      state.advance();
      accumulate<Plan>(acc, product);
    } else {
      KBlockScales<Plan> const s = load_scales(state, tile, row0, kb, scales, m, n);
      Mma::template wait_group<0>(product);
      release(state);
      state.advance();
      // NOTE: the baseline plans keep promote, as built (issue 44's plans: promote_tile).
      if constexpr (Plan::staged_scales || Plan::overlap_promotion) promote_tile<Plan>(acc, product, s);
      else promote<Plan>(acc, product, s);
    }
  }
  /// overlap_promotion: K blocks alternate between two product sets. Per K block: its wgmmas are
  /// issued into one set, the other set's group (the K block before) is waited for, its stage
  /// released and its products promoted while this block's wgmmas run; so one wgmma group of this
  /// warpgroup stays in flight during each promotion. The loop is unrolled by two so each set is
  /// a fixed set of registers (ptxas serialises wgmmas whose accumulators it cannot tell apart).
  /// NOTE: a K block's scales are read at its issue and multiplied only at its promotion, a K block
  /// later: multiplied at once, ptxas placed the multiply before the wait, so the promotion of the
  /// block before waited for this block's global loads. A two-level plan reads none.
  __device__ __forceinline__ void run_overlapped(typename Mma::FragmentC& acc, WorkTileInfo const& tile, int row0,
                                                 BlockScales const& scales, std::int64_t m, std::int64_t n) {
    using Raw = std::conditional_t<Plan::two_level, NoKBlockScales, RawKBlockScales<Plan>>;
    using Stage = PipelineState<Plan::stages>;
    acc.fill(0.0f);
    typename Mma::FragmentC even, odd;
    Stage even_at = state, odd_at = state;
    int const boundary = scale_boundary<Plan>(tile);
    auto const issue = [&](typename Mma::FragmentC& product, Stage& at, int kb) {
      pipeline.consumer_wait(state);
      Mma::warpgroup_arrive(product);
      gemm_stage(product, state, row0, false);
      Mma::commit_group();
      at = state;
      state.advance();
      if constexpr (Plan::two_level) return NoKBlockScales{};
      else if constexpr (Plan::staged_scales) return load_staged_raw_scales<Plan>(smem.scales.stage[at.index()], row0);
      else return load_global_raw_scales<Plan>(tile, row0, kb, scales, m, n);
    };
    auto const retire = [&]<int Pending>(typename Mma::FragmentC& product, Stage const& at, Raw const& raw) {
      Mma::template wait_group<Pending>(product);
      release(at);
      if constexpr (Plan::two_level) accumulate<Plan>(acc, product);
      else promote_tile<Plan>(acc, product, combined<Plan>(raw, boundary));
    };
    int kb = tile.k_block_begin;
    int const end = tile.k_block_end;
    if (kb >= end) return;
    Raw even_scales = issue(even, even_at, kb++);
    while (true) {
      if (kb == end) {
        retire.template operator()<0>(even, even_at, even_scales);
        return;
      }
      Raw const odd_scales = issue(odd, odd_at, kb++);
      retire.template operator()<1>(even, even_at, even_scales);
      if (kb == end) {
        retire.template operator()<0>(odd, odd_at, odd_scales);
        return;
      }
      even_scales = issue(even, even_at, kb++);
      retire.template operator()<1>(odd, odd_at, odd_scales);
    }
  }

  PipelineState<Plan::stages> in_flight;  ///< the stage of the last wgmmas issued
};

}  // namespace cute_cpp::kernels
