// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper GEMM, persistent and warp-specialised (sm_90a). The kernel reads as its stages:
//   gemm_producer   warpgroup 0, one thread: walks the tiles and, per K block, waits for an empty
//                   stage, arms its barrier and issues the TMA loads of A and B;
//   gemm_consumer   warpgroups 1, 2, per tile:
//     GemmMainLoop    multiplies its rows of the tile with wgmma, one wgmma group in flight;
//     gemm_fixup      split-K / stream-K: meets the other warpgroups sharing the tile's K blocks
//                     in the workspace (epilogue/split_k_reduce.hpp, epilogue/stream_k_fixup.hpp);
//     epilogue        the functor -> output type -> stmatrix -> TMA store (Plan::OutputStore); with
//                     overlap_epilogue, part of it during the next tile's first K blocks; a gated
//                     functor first pairs gate and up columns into a half-width accumulator.
// Cooperative: the two consumers take the two halves of every tile. PingPong: each takes every
// other tile whole, skipping the other's stages, so their main loops and epilogues alternate.
// The producer lowers its register budget (setmaxnreg) so the consumers can hold their
// rows_per_warpgroup x block_n accumulators. Tiles come from StaticPersistentTileScheduler;
// ragged edges are TMA's (loads fill zeros, stores drop what lies outside C). With cluster_m = 2,
// the two CTAs of a cluster take vertically adjacent tiles of one tile column: each loads half of
// the shared B tile and multicasts it to both, halving B's L2 traffic; cluster_n = 2 does the same
// for A, with horizontally adjacent tiles. A stage is then free only when the consumers of both
// CTAs have released it.
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/simt_gemm.cuh>

#include <cute_cpp/arch/cluster.hpp>
#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/grouped_tiles.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

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

/// Split-K's and stream-K's meeting in the workspace, for a tile whose K blocks several
/// warpgroups share. Returns false when this warpgroup is done with the tile (its partial sums
/// are left for another); true when `acc` then holds the tile's whole sum, to be stored.
template <class Plan>
__device__ __forceinline__ bool gemm_fixup(typename Plan::Mma::FragmentC& acc, WorkTileInfo const& tile,
                                           SplitKWorkspace const& workspace,
                                           ReductionGroup<typename Plan::FixupBarriers> const& group, int slab) {
  // A tile past M or N has nothing to share (its CTA only took part in the cluster's pipeline).
  if (!tile.valid) return false;
  // NOTE: every warp's rows go through the workspace, also those of a ragged tile past M:
  // skipping them would need the warp's row beside the accumulators (it spills), and
  // problems of at most 64 rows swap A and B, so at most half a tile's rows are wasted.
  if (tile.splits > 1) {
    SplitKPart const part{tile.split_tile * Plan::tile_warpgroups + slab, tile.split, tile.splits};
    return split_k_reduce<Plan::split_k_in_flight>(acc, workspace, part, group);  // true in the last to arrive
  }
  if constexpr (Plan::stream_k) {
    auto const slot = std::uint32_t(tile.stream_k_slot * Plan::tile_warpgroups + slab);
    if (tile.leaves_partial()) {
      stream_k_leave_partial(acc, workspace, slot, group);
      return false;
    }
    stream_k_add_partial<Plan::split_k_in_flight>(acc, workspace, slot, group);
  }
  return true;
}

/// A gated epilogue's outputs (epilogue::Gated): atom a's value 4b + e of the half-width
/// accumulator is op(gate, up) of the accumulator's values 8b + e and 8b + 4 + e, which lie in the
/// same row and column of a gate column block and the up column block beside it.
template <class Plan>
__device__ __forceinline__ typename Plan::OutputAccumulator::FragmentC gated_outputs(
    typename Plan::Mma::FragmentC const& acc, typename Plan::EpilogueOp const& op) {
  typename Plan::OutputAccumulator::FragmentC out;
#pragma unroll
  for (int a = 0; a < Plan::Mma::atoms_m; ++a) {
#pragma unroll
    for (int b = 0; b < Plan::output_n / 8; ++b) {
#pragma unroll
      for (int e = 0; e < 4; ++e) out(4 * b + e, a) = op(acc(8 * b + e, a), acc(8 * b + 4 + e, a));
    }
  }
  return out;
}

/// A consumer warpgroup: for each of its tiles, the main loop, the fix-up of a shared tile, and
/// the epilogue (the functor, the output type, stmatrix, TMA store) of its rows of the tile.
/// `consumer` numbers the consumer warpgroups; `slab` is the part of each tile it computes (its
/// rows; the whole tile with PingPong, where the two take turns instead).
template <class Plan>
__device__ __forceinline__ void gemm_consumer(typename Plan::SharedStorage& smem, typename Plan::MapC const& tma_c,
                                              typename Plan::EpilogueOp const& epilogue_parameters, std::int64_t m,
                                              std::int64_t n, PersistentTileSchedulerParams const& tiles,
                                              SplitKWorkspace const& workspace, BlockScales const& block_scales,
                                              epilogue::OutputBlockScales const& output_scales,
                                              GroupedTiles const& grouped) {
  typename Plan::EpilogueOp const epilogue_op = epilogue::prepared(epilogue_parameters);
  using Mma = typename Plan::Mma;
  using OutputStore = typename Plan::OutputStore;
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  int const consumer = int(threadIdx.x) / 128 - 1;
  int const thread = int(threadIdx.x) % 128;
  int const slab = Plan::pingpong ? 0 : consumer;
  GemmMainLoop<Plan> mainloop(smem);
  OutputStore output(smem.epilogue[consumer], consumer, thread);
  ReductionGroup<typename Plan::FixupBarriers> const fixup_group{consumer, thread, &smem.split_k_flag[consumer]};
  typename Mma::FragmentC acc;
  // overlap_epilogue: the previous tile's slab, packed (its chunks from overlap_first_chunk on
  // are still to store while has_pending).
  struct NoSlab {};
  std::conditional_t<Plan::overlap_epilogue, typename OutputStore::Packed, NoSlab> pending;
  bool has_pending = false;
  // C's map: a grouped plan's is the tile's group's (and the pending slab's, its own tile's).
  auto const* map_c = &tma_c;
  auto const* pending_map = &tma_c;
  auto const store_pending_chunk = [&](int c) {
    if constexpr (Plan::overlap_epilogue) output.store_packed_chunk(pending, c, *pending_map);
  };
  for (int turn = 0; scheduler.has_work(); scheduler.advance_to_next_work(), ++turn) {
    WorkTileInfo const tile = scheduler.get_current_work();
    // The tile's first row in C (a grouped plan's: in its group) and the rows C has there; what
    // the main loop sees of it (a grouped plan's: its tile row within the group, its block scales
    // from the group's first row of A and the group's B).
    std::int64_t tile_row = std::int64_t(tile.m) * Plan::block_m, rows = m;
    WorkTileInfo main_tile = tile;
    BlockScales scales = block_scales;
    if constexpr (Plan::grouped) {
      GroupedTileRow const row = grouped.row(tile.m);
      if (row.group < 0) break;  // as the producer
      map_c = grouped.template map<typename Plan::MapC>(row.group, 2);
      if (thread == 0) GroupedTiles::acquire(map_c);  // the thread that stores
      tile_row = row.row0;
      rows = row.rows;
      if constexpr (Plan::block_scaled) {
        main_tile.m = row.row0 / Plan::block_m;
        scales.a += std::int64_t(row.first_row) * scales.a_row_stride;
        scales.b += std::int64_t(row.group) * scales.b_group_stride;
      }
    }
    if constexpr (Plan::pingpong) {
      if (turn % 2 != consumer) {
        mainloop.skip(tile);
        continue;
      }
      // NOTE: the main loops take turns. A parity wait can tell a stage's pending phase only from
      // the one before it, so this warpgroup must not wait on stages past the other's tile until
      // the other has waited on all of them.
      if (turn > 0) Plan::TurnBarriers::sync(consumer);
    }
    mainloop.run(
        acc, main_tile, slab * Plan::rows_per_warpgroup,
        [&](int c) {
          if (has_pending) store_pending_chunk(c);
        },
        scales, rows, Plan::gated ? 2 * n : n);
    has_pending = false;
    if constexpr (Plan::pingpong) {
      auto next = scheduler;
      next.advance_to_next_work();
      bool next_runs = next.has_work();
      if constexpr (Plan::grouped) next_runs = next_runs && grouped.row(next.get_current_work().m).group >= 0;
      if (next_runs) Plan::TurnBarriers::arrive(1 - consumer);
    }
    mainloop.finish(acc, tile);
    if (tile.splits > 1 || tile.stream_k_slot >= 0) {
      if (!gemm_fixup<Plan>(acc, tile, workspace, fixup_group, slab)) continue;
    }

    // ---- epilogue ----
    std::int64_t const row0 = tile_row + slab * Plan::rows_per_warpgroup;
    std::int64_t const col0 = std::int64_t(tile.n) * Plan::output_n;
    if constexpr (Plan::gated) {
      auto const out = gated_outputs<Plan>(acc, epilogue_op);
#pragma unroll
      for (int atom = 0; atom < Mma::atoms_m; ++atom) {
        output.template store<typename Plan::OutputAccumulator>(
            out, atom, epilogue::Identity{}, {*map_c, row0 + atom * 64, col0, rows, n, -1, -1, output_scales});
      }
    } else {
      if constexpr (Plan::overlap_epilogue) {
        if (tile.splits == 1) {
          pending = output.template pack_slab<Mma>(acc, 0, epilogue_op, {*map_c, row0, col0, rows, n});
          pending_map = map_c;
#pragma unroll
          for (int c = 0; c < Plan::overlap_first_chunk; ++c) store_pending_chunk(c);
          has_pending = true;
          continue;
        }
      }
#pragma unroll
      for (int atom = 0; atom < Mma::atoms_m; ++atom)
        output.template store<Mma>(acc, atom, epilogue_op,
                                   {*map_c, row0 + atom * 64, col0, rows, n, -1, -1, output_scales});
    }
  }
  if (has_pending) {
#pragma unroll
    for (int c = Plan::overlap_first_chunk; c < OutputStore::chunks; ++c) store_pending_chunk(c);
  }
  output.drain();
}

/// The kernel: persistent and warp-specialised (see the file comment). m x n is C's extent.
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
gemm_kernel(const __grid_constant__ typename Plan::MapA tma_a, const __grid_constant__ typename Plan::MapB tma_b,
            const __grid_constant__ typename Plan::MapC tma_c, typename Plan::EpilogueOp const epilogue_op,
            std::int64_t const m, std::int64_t const n, PersistentTileSchedulerParams const tiles,
            SplitKWorkspace const workspace, IndependentOperand const independent, BlockScales const block_scales,
            epilogue::OutputBlockScales const output_scales, GroupedTiles const grouped) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  if (threadIdx.x == 0) {
    Plan::Pipeline::init(smem.barriers);
    TmaCopy::prefetch_descriptor(tma_a);
    TmaCopy::prefetch_descriptor(tma_b);
    TmaCopy::prefetch_descriptor(tma_c);
  }
  // Every barrier of the cluster is initialised before any CTA multicasts or arrives remotely.
  if constexpr (Plan::cluster_size > 1) {
    arch::cluster_arrive();
    arch::cluster_wait();
  } else {
    __syncthreads();
  }
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // each role waits for its predecessor's memory before touching global memory the predecessor
  // may write (the producer first loads the independent operand's first stages).
  arch::griddepcontrol_launch_dependents();
  if (threadIdx.x / 128 == 0) {
    arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    if (threadIdx.x == 0) gemm_producer<Plan>(smem, tma_a, tma_b, tiles, independent, grouped);
    return;
  }
  arch::griddepcontrol_wait();
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  gemm_consumer<Plan>(smem, tma_c, epilogue_op, m, n, tiles, workspace, block_scales, output_scales, grouped);
}

/// Tile rows per rasterization group when the arguments leave it at 0 (--raster-sweep moved
/// little between 4 and 32 rows: README: measurements).
inline constexpr int default_raster_group_rows = 16;

/// How a launch walks the problem: tiles, split-K and the resident grid.
struct GemmSchedule {
  PersistentTileSchedulerParams tiles;
  int resident_ctas = 0;
  std::size_t workspace_bytes = 0;
  /// CTA tiles that meet in the workspace (split or shared out by stream-K).
  [[nodiscard]] std::int64_t workspace_slots() const {
    return (tiles.split_tiles + tiles.stream_k_tiles) * tiles.cluster_size();
  }
};

/// The launch of Plan's kernel on a grid of `ctas` CTAs.
template <class Plan>
host::LaunchConfig gemm_launch_config(unsigned ctas, cudaStream_t stream = nullptr) {
  host::LaunchConfig config;
  config.grid = dim3(ctas);
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.cluster = dim3(Plan::cluster_size, 1, 1);
  config.stream = stream;
  return config;
}

template <class Plan>
int gemm_resident_ctas() {
  // NOTE: a persistent grid must be resident all at once. Clusters are placed within GPCs, so
  // fewer than sm_count / cluster_size of them may fit: ask the occupancy calculator.
  int const ctas =
      host::resident_clusters(&gemm_kernel<Plan>, gemm_launch_config<Plan>(Plan::cluster_size)) * Plan::cluster_size;
  if (ctas < 1) throw std::runtime_error("cute-cpp [gemm.occupancy]: the GEMM kernel cannot be resident");
  return ctas;
}

template <class Plan>
GemmSchedule gemm_schedule(GemmArguments<Plan> const& args, Decomposition asked) {
  GemmSchedule s;
  auto& tiles = s.tiles;
  tiles.tiles_m = std::int32_t((args.m + Plan::block_m - 1) / Plan::block_m);
  tiles.tiles_n = std::int32_t((args.n + Plan::block_n - 1) / Plan::block_n);
  int const group_rows = args.raster_group_rows > 0 ? args.raster_group_rows : default_raster_group_rows;
  tiles.raster_cluster_rows = std::max(1, group_rows / Plan::cluster_m);
  tiles.cluster_m = Plan::cluster_m;
  tiles.cluster_n = Plan::cluster_n;
  tiles.k_blocks = std::int32_t((args.k + Plan::block_k - 1) / Plan::block_k);
  if (args.k_splits > tiles.k_blocks)
    host::argument_error("gemm.k-splits", std::to_string(args.k_splits) + " K splits of " +
                                              std::to_string(tiles.k_blocks) + " K blocks of " +
                                              std::to_string(Plan::block_k) + ": each split needs one");
  s.resident_ctas = gemm_resident_ctas<Plan>();
  std::int64_t const clusters = s.resident_ctas / Plan::cluster_size;
  if (asked == Decomposition::StreamK && !Plan::stream_k)
    host::argument_error("gemm.stream-k", "the " + std::to_string(Plan::block_m) + "x" +
                                              std::to_string(Plan::block_n) + " plan (" +
                                              std::to_string(Plan::accumulators) +
                                              " accumulators a thread) has no registers for stream-K's fixup");
  if (asked == Decomposition::StreamK && tiles.units() <= clusters)
    host::argument_error("gemm.stream-k", "stream-K needs more cluster tiles than resident clusters (" +
                                              std::to_string(tiles.units()) + " tiles of " +
                                              std::to_string(Plan::block_m) + "x" + std::to_string(Plan::block_n) +
                                              " on " + std::to_string(clusters) +
                                              " clusters): split-K shares out a single wave");
  WorkDecomposition const d = choose_decomposition(tiles.units(), clusters, tiles.k_blocks, Plan::block_k, asked,
                                                   args.k_splits, Plan::stream_k);
  tiles.splits = d.split.splits;
  tiles.split_tiles = d.split.split_tiles;
  tiles.set_stream_k(d.stream_k_tiles, std::int32_t(clusters));
  if (!tiles.stream_k_valid())
    throw std::logic_error("cute-cpp: gemm_schedule made a stream-K walk the scheduler cannot take");
  if (!tiles.fits_32_bits())
    host::argument_error("gemm.shape", "the problem has too many tiles for the scheduler's 32-bit arithmetic (" +
                                           std::to_string(tiles.work_units()) + " units of work)");
  constexpr std::int64_t tile_floats = std::int64_t(Plan::block_m) * Plan::block_n;
  if (!split_k_counters_fit(s.workspace_slots(), Plan::tile_warpgroups))
    throw std::logic_error("cute-cpp [gemm.workspace]: " + std::to_string(s.workspace_slots()) +
                           " shared tiles of " + std::to_string(Plan::tile_warpgroups) +
                           " warpgroups need more counters than the workspace's fixed region holds (" +
                           std::to_string(split_k_counter_words) + ")");
  s.workspace_bytes = d.mode == Decomposition::StreamK
                          ? stream_k_workspace_bytes(d.stream_k_tiles * Plan::cluster_size, tile_floats)
                          : split_k_workspace_bytes(d.split.split_tiles * Plan::cluster_size, d.split.splits, tile_floats);
  return s;
}

template <class Plan>
std::size_t gemm_workspace_bytes(GemmArguments<Plan> const& args) {
  if constexpr (is_simt_plan_v<Plan>) return 0;
  else return gemm_schedule<Plan>(args, args.decomposition).workspace_bytes;
}

/// Block scales are given exactly to a block-scaled plan, with positive strides
/// [gemm.block-scales]: a plan that would ignore them refuses them rather than compute unscaled.
inline void check_block_scales(BlockScales const& s, bool block_scaled, cudaStream_t stream) {
  if (!block_scaled) {
    if (s.a != nullptr || s.b != nullptr)
      host::argument_error("gemm.block-scales", "this plan does not scale by blocks: use a block_scaled plan");
    return;
  }
  if (s.a_row_stride <= 0 || s.a_k_stride <= 0 || s.b_row_stride <= 0 || s.b_k_stride <= 0)
    host::argument_error("gemm.block-scales", "every scale stride is positive (got A's " +
                                                  std::to_string(s.a_row_stride) + ", " + std::to_string(s.a_k_stride) +
                                                  " and B's " + std::to_string(s.b_row_stride) + ", " +
                                                  std::to_string(s.b_k_stride) + ")");
  host::PointerArgument const scales[] = {{"block_scales.a", s.a}, {"block_scales.b", s.b}};
  host::check_device_pointers("gemm", scales, stream);
}

/// An FP8 C's block scales are given exactly to a plan with an FP8 C, with positive strides
/// [gemm.output-scales]: the output is meaningless without them, and a plan that writes no scales
/// refuses them rather than leave them unwritten.
inline void check_output_scales(epilogue::OutputBlockScales const& s, bool quantized, cudaStream_t stream) {
  if (!quantized) {
    if (s.data != nullptr)
      host::argument_error("gemm.output-scales", "this plan's C is not FP8: it writes no block scales");
    return;
  }
  if (s.data == nullptr)
    host::argument_error("gemm.output-scales", "an FP8 C is quantized by 1 x 128 blocks: give output_scales");
  if (s.row_stride <= 0 || s.block_stride <= 0)
    host::argument_error("gemm.output-scales", "the output scales' strides are positive (got " +
                                                   std::to_string(s.row_stride) + ", " +
                                                   std::to_string(s.block_stride) + ")");
  host::PointerArgument const scales[] = {{"output_scales", s.data}};
  host::check_device_pointers("gemm", scales, stream);
}

/// The shape rules Plan adds to check_gemm_arguments': a gated epilogue's N, and K's multiple for
/// TMA's 16-byte rows (8 elements of 16 bits, 16 of FP8, of the narrower operand).
template <class Plan>
void check_plan_shape(std::int64_t n, std::int64_t k) {
  if (Plan::gated && n % (2 * epilogue::SwiGLU::block) != 0)
    host::argument_error("gemm.gated", "a gated epilogue pairs blocks of 8 gate and 8 up columns: N must be a multiple "
                                       "of 16 (got " + std::to_string(n) + ")");
  constexpr int k_multiple = 16 / int(sizeof(typename Plan::TA) < sizeof(typename Plan::TB) ? sizeof(typename Plan::TA)
                                                                                             : sizeof(typename Plan::TB));
  if (k % k_multiple != 0)
    host::argument_error(k_multiple == 8 ? "gemm.k-multiple-of-8" : "gemm.k-multiple-of-16",
                         "K must be a multiple of " + std::to_string(k_multiple) + " elements (got " +
                             std::to_string(k) + "): TMA needs 16-byte row strides; pad K with zeros");
}

/// run_gemm for a tensor-core plan.
template <class Plan>
void run_wgmma_gemm(GemmArguments<Plan> const& args, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
  check_gemm_arguments(args, Plan::major_a, Plan::major_b, Plan::layout_c, Plan::gated);
  host::PointerArgument const pointers[] = {{"A", args.a}, {"B", args.b}, {"C", args.c}};
  host::check_device_pointers("gemm", pointers, stream);
  check_block_scales(args.block_scales, Plan::block_scaled, stream);
  check_output_scales(args.output_scales, Plan::quantized_output, stream);
  host::check_stream("gemm", stream);
  check_plan_shape<Plan>(args.n, args.k);
  if (args.k_splits < 0 || (args.k_splits != 0 && args.decomposition != Decomposition::SplitK))
    host::argument_error("gemm.k-splits", "k_splits is 0 or, with Decomposition::SplitK, a count (got " +
                                              std::to_string(args.k_splits) + ")");
  // Without room for its choice, the heuristic falls back to whole tiles.
  GemmSchedule schedule = gemm_schedule<Plan>(args, args.decomposition);
  if (schedule.workspace_bytes > 0 && (args.workspace == nullptr || args.workspace_bytes < schedule.workspace_bytes)) {
    if (args.decomposition != Decomposition::Heuristic)
      host::argument_error("gemm.workspace", "split-K and stream-K need a workspace of " +
                                                 std::to_string(schedule.workspace_bytes) + " bytes (got " +
                                                 std::to_string(args.workspace_bytes) + ")");
    schedule = gemm_schedule<Plan>(args, Decomposition::DataParallel);
  }
  if (schedule.workspace_bytes > 0 && reinterpret_cast<std::uintptr_t>(args.workspace) % 16 != 0)
    host::argument_error("gemm.workspace", "the workspace must be 16-byte aligned (partials are float4s)");
  using ALoad = typename Plan::ASmemLoad;
  auto const a_map = Plan::major_a == OperandMajorMode::K
                         ? host::create_tensor_map_tiled<TA, ALoad>(args.a, args.m, args.k, args.lda)
                         : host::create_tensor_map_tiled<TA, ALoad>(args.a, args.k, args.m, args.lda);
  using BLoad = typename Plan::BSmemLoad;
  auto const b_map = Plan::major_b == OperandMajorMode::K
                         ? host::create_tensor_map_tiled<TB, BLoad>(args.b, args.n, args.k, args.ldb)
                         : host::create_tensor_map_tiled<TB, BLoad>(args.b, args.k, args.n, args.ldb);
  using CChunk = typename Plan::OutputStore::Chunk;
  std::int64_t const c_cols = Plan::gated ? args.n / 2 : args.n;
  auto const c_map = Plan::layout_c == LayoutEnum::RowMajor
                         ? host::create_tensor_map_tiled<TC, CChunk>(args.c, args.m, c_cols, args.ldc)
                         : host::create_tensor_map_tiled<TC, CChunk>(args.c, c_cols, args.m, args.ldc);
  SplitKWorkspace workspace{};
  if (schedule.workspace_bytes > 0)
    workspace = split_k_workspace(args.workspace);

  auto const grid = StaticPersistentTileScheduler::get_grid_shape(schedule.tiles, schedule.resident_ctas);
  host::launch(&gemm_kernel<Plan>, "gemm_sm90", gemm_launch_config<Plan>(unsigned(grid), stream), a_map, b_map, c_map,
               args.epilogue_op, args.m, c_cols, schedule.tiles, workspace, args.independent, args.block_scales,
               args.output_scales, GroupedTiles{});
}

template <class Plan>
void run_gemm(GemmArguments<Plan> const& args, cudaStream_t stream) {
  if constexpr (is_simt_plan_v<Plan>) run_simt_gemm<Plan>(args, stream);
  else run_wgmma_gemm<Plan>(args, stream);
}

}  // namespace cute_cpp::kernels
