// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Hopper GEMM's main loop, its two sides over the stages of Plan::Pipeline (sm_90a):
//   gemm_producer   warpgroup 0, one thread: walks the tiles and, per K block, waits for an empty
//                   stage, arms its barrier and issues the TMA loads of A and B;
//   GemmMainLoop    a consumer warpgroup's: multiplies its rows of the tile with wgmma, one wgmma
//                   group in flight (a block-scaled plan promotes each K block with its scales).
// With cluster_m = 2, the two CTAs of a cluster take vertically adjacent tiles of one tile column:
// each loads half of the shared B tile and multicasts it to both, halving B's L2 traffic;
// cluster_n = 2 does the same for A, with horizontally adjacent tiles. A stage is then free only
// when the consumers of both CTAs have released it.
#include <cute_cpp/kernels/gemm/gemm.hpp>  // GemmPlan, BlockScales, IndependentOperand

#include <cute_cpp/arch/griddepcontrol.hpp>                     // griddepcontrol_wait
#include <cute_cpp/copy/tma_copy.hpp>                           // TmaCopy
#include <cute_cpp/pipeline/pipeline_state.hpp>                 // PipelineState, make_pipeline_state
#include <cute_cpp/sched/grouped_tiles.hpp>                     // GroupedTiles, GroupedTileRow
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // StaticPersistentTileScheduler

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// Where this CTA sits in its cluster, and the mask of the CTAs its loads are multicast to.
template <class Plan>
struct ClusterPlace {
  std::uint32_t rank = 0;
  std::uint32_t mask = 0;
  __device__ __forceinline__ ClusterPlace()
      : rank(blockIdx.x % Plan::cluster_size),
        mask(Plan::cluster_size > 1 ? (1u << Plan::cluster_size) - 1 : 0u) {}
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
  auto const mask = std::uint16_t(cluster.mask);
  // Loads this CTA's part of an operand tile: all of it, or, shared by a cluster, its part
  // multicast to all (a mask of 0 lands it here only).
  auto const load_operand = [mask](auto const& map, auto* dst, bool k_major, int shared_by, std::int32_t mn,
                                   std::int32_t k, std::uint64_t* full) {
    std::int32_t const inner = k_major ? k : mn, outer = k_major ? mn : k;
    TmaCopy::load_multicast(map, dst, full, shared_by > 1 ? mask : std::uint16_t{0}, inner, outer);
  };
  // A cluster along N shares A, one along M shares B: each CTA loads its rank's part of the
  // shared tile (rows from a_row / b_row on, into a_offset / b_offset), multicast to both.
  std::int32_t const rank_n = cluster_n > 1 ? std::int32_t(cluster.rank) : 0;
  std::int32_t const rank_m = cluster_m > 1 ? std::int32_t(cluster.rank) : 0;
  std::int32_t const a_row = rank_n * (BM / cluster_n), b_row = rank_m * (BN / cluster_m);
  std::size_t const a_offset = std::size_t(rank_n) * (Plan::a_bytes / sizeof(typename Plan::TA) / cluster_n);
  std::size_t const b_offset = std::size_t(rank_m) * (Plan::b_bytes / sizeof(typename Plan::TB) / cluster_m);
  // A grouped plan reads each group's operands through the group's maps (sched/grouped_tiles.hpp).
  auto const* map_a = &tma_a;
  auto const* map_b = &tma_b;
  auto const load_a = [&](auto& stage, std::int32_t m0, int kb, std::uint64_t* full) {
    load_operand(*map_a, stage.a + a_offset, Plan::major_a == OperandMajorMode::K, cluster_n, m0 + a_row, kb * BK, full);
  };
  auto const load_b = [&](auto& stage, std::int32_t n0, int kb, std::uint64_t* full) {
    load_operand(*map_b, stage.b + b_offset, Plan::major_b == OperandMajorMode::K, cluster_m, n0 + b_row, kb * BK, full);
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
    // NOTE: the producer's tail: wait until every stage is released by the consumers of both
    // CTAs, so no remote arrival reaches this CTA after it exits.
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
  /// of A below `m` and rows of B below `n`).
  template <class Between>
  __device__ __forceinline__ void run(typename Mma::FragmentC& acc, WorkTileInfo const& tile, int row0,
                                      Between&& between, BlockScales const& scales = {}, std::int64_t m = 0,
                                      std::int64_t n = 0) {
    acc.fill(0.0f);
    auto previous = state;
    auto const step = [&](int kb) {
      if constexpr (Plan::block_scaled) return scaled_step(acc, tile, row0, kb, scales, m, n);
      pipeline.consumer_wait(state);
      auto& stage = smem.stage[state.index()];
      Mma::warpgroup_arrive(acc);
      Mma::gemm(acc, stage.a, stage.b, row0);
      Mma::commit_group();
      if constexpr (Plan::release_at_once) {
        Mma::template wait_group<0>(acc);
        pipeline.consumer_release(state, lane, cluster.mask, cluster.rank);
      } else if (kb > tile.k_block_begin) {
        // NOTE: one wgmma group stays in flight; the stage before it is now free.
        Mma::template wait_group<1>(acc);
        pipeline.consumer_release(previous, lane, cluster.mask, cluster.rank);
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
    if (!Plan::release_at_once && !Plan::block_scaled && tile.k_block_end > tile.k_block_begin)
      pipeline.consumer_release(in_flight, lane, cluster.mask, cluster.rank);
  }

 private:
  /// B's 128-row scale blocks a tile's columns meet: one for 128 columns, two for 192 (a tile
  /// starts at a multiple of 64 columns, so its 192 meet two blocks, split at 64 or 128).
  static constexpr int b_blocks = Plan::block_n > 128 ? 2 : 1;
  /// A K block's scales for this thread's values: A's scale of each of its rows times B's of each
  /// scale block its columns meet, and the tile column where the second block starts.
  struct KBlockScales {
    float row_block[Mma::atoms_m][2][b_blocks];
    int boundary;
  };
  __device__ __forceinline__ KBlockScales load_scales(WorkTileInfo const& tile, int row0, int kb,
                                                      BlockScales const& scales, std::int64_t m,
                                                      std::int64_t n) const {
    KBlockScales r;
    auto const slice = Mma::get_slice(int(threadIdx.x % 128));
    std::int64_t const tile_row = std::int64_t(tile.m) * Plan::block_m + row0;
    std::int64_t const n0 = std::int64_t(tile.n) * Plan::block_n;
    r.boundary = 128 - int(n0 % 128);
    float b_scale[b_blocks];
#pragma unroll
    for (int b = 0; b < b_blocks; ++b)
      // NOTE: past B's last row block (a ragged tile's columns past N, or a cluster's tile past
      // N altogether) the scale is not read.
      b_scale[b] = n0 + (b == 0 ? 0 : r.boundary) < n
                       ? epilogue::read_only(scales.b, (n0 / 128 + b) * scales.b_row_stride +
                                                           std::int64_t(kb) * scales.b_k_stride)
                       : 0.0f;
#pragma unroll
    for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        std::int64_t const row = tile_row + slice.row(a, 2 * h);
        float const a_scale =
            row < m ? epilogue::read_only(scales.a, row * scales.a_row_stride + std::int64_t(kb) * scales.a_k_stride)
                    : 0.0f;
#pragma unroll
        for (int b = 0; b < b_blocks; ++b) r.row_block[a][h][b] = a_scale * b_scale[b];
      }
    return r;
  }
  /// One K block of a block-scaled plan: its products into a fresh accumulator, waited for (the
  /// scales load meanwhile), the stage released, then acc += product * a(row, kb) * b(n block, kb).
  /// NOTE: the wait leaves no wgmma in flight across K blocks in this warpgroup; the other
  /// consumer warpgroup's wgmmas keep the tensor cores busy during the promotion. Measured
  /// slower (README): the next block's scales loaded a block ahead, and a second product
  /// accumulator to keep a wgmma group in flight; the tile's columns in two halves, one promoted
  /// while the other's wgmmas run, ptxas serializes (C7514: accumulators read in flight).
  __device__ __forceinline__ void scaled_step(typename Mma::FragmentC& acc, WorkTileInfo const& tile, int row0,
                                              int kb, BlockScales const& scales, std::int64_t m, std::int64_t n) {
    typename Mma::FragmentC product;
    pipeline.consumer_wait(state);
    auto& stage = smem.stage[state.index()];
    Mma::warpgroup_arrive(product);
    Mma::gemm(product, stage.a, stage.b, row0, false);
    Mma::commit_group();
    KBlockScales const s = load_scales(tile, row0, kb, scales, m, n);
    Mma::template wait_group<0>(product);
    pipeline.consumer_release(state, lane, cluster.mask, cluster.rank);
    state.advance();
    auto const slice = Mma::get_slice(int(threadIdx.x % 128));
#pragma unroll
    for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
      for (int j = 0; j < Mma::acc_per_atom; ++j) {
        // Value j lies in column block j / 4 (8 columns) and in the atom's first or second row.
        int const h = slice.row(a, j) == slice.row(a, 0) ? 0 : 1;
        float const scale = b_blocks == 1 || 8 * (j / 4) < s.boundary ? s.row_block[a][h][0]
                                                                       : s.row_block[a][h][b_blocks - 1];
        acc.storage[a * Mma::acc_per_atom + j] += product.storage[a * Mma::acc_per_atom + j] * scale;
      }
  }

  PipelineState<Plan::stages> in_flight;  ///< the stage of the last wgmmas issued
};

}  // namespace cute_cpp::kernels
