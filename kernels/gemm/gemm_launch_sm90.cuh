// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Hopper GEMM's launch: GemmSchedule (the tiles, the cut of the work and the resident grid:
// gemm_schedule), the workspace it needs (gemm_workspace_bytes), and run_gemm_unchecked: the checks
// that need the plan or the device, the TMA descriptors and the launch of gemm_kernel (a SIMT
// plan's: run_simt_gemm). Its callers check the arguments first, once a call (run_gemm).
#include <cute_cpp/kernels/gemm/gemm.hpp>              // GemmArguments, the checks, choose_decomposition
#include <cute_cpp/kernels/gemm/gemm_kernel_sm90.cuh>  // gemm_kernel
#include <cute_cpp/kernels/gemm/simt_gemm.cuh>         // run_simt_gemm

#include <cute_cpp/epilogue/split_k_reduce.hpp>                 // the split-K workspace
#include <cute_cpp/epilogue/stream_k_fixup.hpp>                 // the stream-K workspace
#include <cute_cpp/host/arguments.hpp>                          // check_device_pointers, check_stream
#include <cute_cpp/host/launch.hpp>                             // LaunchConfig, launch, resident_clusters
#include <cute_cpp/host/tensor_map_encode.hpp>                  // create_tensor_map_tiled
#include <cute_cpp/sched/grouped_tiles.hpp>                     // GroupedTiles
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // PersistentTileSchedulerParams

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

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

/// run_gemm_unchecked for a tensor-core plan.
template <class Plan>
void run_wgmma_gemm(GemmArguments<Plan> const& args, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
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

/// A gated plan's problem of a few rows (a decode step's gate-up projection) runs in the gated
/// skinny kernel, where a 128-row tile would be mostly empty (gated_gemv_takes).
template <class Plan>
void run_gemm_unchecked(GemmArguments<Plan> const& args, cudaStream_t stream) {
  if constexpr (is_simt_plan_v<Plan>) {
    run_simt_gemm<Plan>(args, stream);
  } else if constexpr (gated_gemv_plan<Plan>) {
    if (gated_gemv_takes<Plan>(args)) run_simt_gemv_gated<Plan>(args, stream);
    else run_wgmma_gemm<Plan>(args, stream);
  } else {
    run_wgmma_gemm<Plan>(args, stream);
  }
}

}  // namespace cute_cpp::kernels
