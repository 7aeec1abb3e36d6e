// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Hopper GEMM kernel (sm_90a), persistent and warp-specialised: gemm_kernel sets up shared
// memory and the barriers, then warpgroup 0 runs gemm_producer and warpgroups 1, 2 gemm_consumer,
// per tile: GemmMainLoop (gemm_mainloop_sm90.cuh); gemm_fixup, split-K's or stream-K's meeting in
// the workspace (epilogue/split_k_reduce.hpp, stream_k_fixup.hpp); the epilogue, the functor ->
// output type -> stmatrix -> TMA store (Plan::OutputStore), with overlap_epilogue partly during the
// next tile's first K blocks, a gated functor first pairing gate and up columns (gated_outputs).
// Cooperative: the two consumers take the two halves of every tile. PingPong: each takes every
// other tile whole, skipping the other's stages, so their main loops and epilogues alternate.
// The producer lowers its register budget (setmaxnreg) so the consumers can hold their
// rows_per_warpgroup x block_n accumulators. With staged_scales, warp 1 of the producer warpgroup
// copies each stage's block scales (gemm_scale_loader).
#include <cute_cpp/kernels/gemm/gemm.hpp>                // GemmPlan, BlockScales, IndependentOperand
#include <cute_cpp/kernels/gemm/gemm_mainloop_sm90.cuh>  // gemm_producer, GemmMainLoop
#include <cute_cpp/kernels/gemm/gemm_block_scales_sm90.cuh>  // gemm_scale_loader

#include <cute_cpp/arch/cluster.hpp>                            // cluster_arrive, cluster_wait
#include <cute_cpp/arch/griddepcontrol.hpp>                     // griddepcontrol_*
#include <cute_cpp/arch/registers.hpp>                          // warpgroup_reg_alloc, _dealloc
#include <cute_cpp/copy/tma_copy.hpp>                           // TmaCopy::prefetch_descriptor
#include <cute_cpp/epilogue/split_k_reduce.hpp>                 // split_k_reduce, ReductionGroup
#include <cute_cpp/epilogue/stream_k_fixup.hpp>                 // stream_k_leave_partial, _add_partial
#include <cute_cpp/sched/grouped_tiles.hpp>                     // GroupedTiles
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // StaticPersistentTileScheduler
#include <cute_cpp/smem/allocator.hpp>                          // SmemAllocator

#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

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
    if constexpr (Plan::staged_scales) {
      // B's rows: C's columns, twice as many under a gated epilogue (as the consumers read them).
      if (threadIdx.x / 32 == 1) gemm_scale_loader<Plan>(smem, tiles, block_scales, m, Plan::gated ? 2 * n : n);
    }
    return;
  }
  arch::griddepcontrol_wait();
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  gemm_consumer<Plan>(smem, tma_c, epilogue_op, m, n, tiles, workspace, block_scales, output_scales, grouped);
}

}  // namespace cute_cpp::kernels
