// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the Blackwell GEMM (sm_100a), declared here and instantiated in the
// *_sm100.cu files (built only when CUTE_CPP_ARCHS holds 100a, into cute_cpp::gemm_sm100), so host
// code includes no kernel:
//   C[m, n] = epilogue_op(sum_k A[m, k] B[k, n], m, n)
// with the Hopper GEMM's arguments (gemm_arguments.hpp: GemmArguments, its operand layouts and
// checks) and a row-major C. Whole tiles only: no split-K or stream-K, no block scales, no gated
// epilogue, no FP8 C. run_gemm_sm100<Plan> runs one plan; run_gemm_sm100(args) picks the plan of
// its type set by choose_gemm_sm100_tile (plans_sm100.hpp).
#include <cute_cpp/kernels/gemm/gemm_arguments.hpp>  // GemmArguments, check_gemm_arguments, check_plan_shape
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>     // the plans, choose_gemm_sm100_tile

#include <cute_cpp/epilogue/fusion.hpp>  // Identity, Dequantize
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // PersistentTileSchedulerParams
#include <cute_cpp/host/error.hpp>       // argument_error

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

/// The checks of an sm_100a GEMM's arguments that need no device, made before any device query:
/// check_gemm_arguments' (pointers, sizes, leading dimensions, TMA alignment, aliasing), the K
/// multiple TMA needs (check_plan_shape), and what this kernel does not do: split-K or stream-K
/// [gemm.sm100.decomposition], block scales [gemm.block-scales], output scales
/// [gemm.output-scales]; and M, N small enough for the scheduler's 32-bit tile walk [gemm.shape].
template <class Plan>
void check_gemm_sm100_arguments(GemmArguments<Plan> const& args) {
  check_gemm_arguments(args, Plan::major_a, Plan::major_b, LayoutEnum::RowMajor, false);
  check_plan_shape<Plan>(args.n, args.k);
  if (args.decomposition == Decomposition::SplitK || args.decomposition == Decomposition::StreamK ||
      args.k_splits != 0)
    host::argument_error("gemm.sm100.decomposition",
                         "the sm_100a GEMM walks whole tiles: use Decomposition::Heuristic or DataParallel and "
                         "k_splits = 0");
  if (args.block_scales.a != nullptr || args.block_scales.b != nullptr)
    host::argument_error("gemm.block-scales", "this plan does not scale by blocks: block-scaled FP4 on sm_100a is "
                                              "run_gemm_fp4_sm100 (gemm_fp4_sm100.hpp)");
  if (args.output_scales.data != nullptr)
    host::argument_error("gemm.output-scales", "this plan's C is not FP8: it writes no block scales");
  std::int64_t const tiles = ((args.m + 127) / 128) * ((args.n + Plan::block_n - 1) / Plan::block_n);
  if (tiles >= (std::int64_t{1} << 31) || (args.k + Plan::block_k - 1) / Plan::block_k >= (std::int64_t{1} << 31))
    host::argument_error("gemm.shape", "the problem has too many tiles for the scheduler's 32-bit arithmetic (" +
                                           std::to_string(tiles) + ")");
}

/// Tile rows per rasterization group when the arguments leave it at 0 (the Hopper GEMM's default).
inline constexpr int default_sm100_raster_group_rows = 16;

/// The tile walk of Plan's kernel over an m x n x k problem: 128-row CTA tiles (a pair's two
/// CTAs take rows 2r and 2r + 1 of a cluster tile), block_n columns, K blocks of block_k; in
/// rasterization groups of `raster_group_rows` tile rows (0: the default).
///   gemm_sm100_tiles<Bf16Pair256x256>(300, 520, 100, 0): tiles 3 x 3, cluster_m 2, k_blocks 2, raster 8
template <class Plan>
constexpr PersistentTileSchedulerParams gemm_sm100_tiles(std::int64_t m, std::int64_t n, std::int64_t k,
                                                         int raster_group_rows) {
  PersistentTileSchedulerParams p;
  p.tiles_m = std::int32_t((m + Plan::cta_m - 1) / Plan::cta_m);
  p.tiles_n = std::int32_t((n + Plan::block_n - 1) / Plan::block_n);
  p.cluster_m = Plan::cta_group;
  p.k_blocks = std::int32_t((k + Plan::block_k - 1) / Plan::block_k);
  int const rows = raster_group_rows > 0 ? raster_group_rows : default_sm100_raster_group_rows;
  p.raster_cluster_rows = rows / Plan::cta_group > 1 ? rows / Plan::cta_group : 1;
  return p;
}

/// Runs Plan's kernel for arguments that passed check_gemm_sm100_arguments: the device checks, the
/// TMA descriptors and the launch on `stream`. Defined in gemm_launch_sm100.cuh.
template <class Plan>
void run_gemm_sm100_unchecked(GemmArguments<Plan> const& args, cudaStream_t stream);

/// Checks the arguments (std::invalid_argument naming the rule), encodes the TMA descriptors and
/// launches Plan's kernel on `stream`.
template <class Plan>
void run_gemm_sm100(GemmArguments<Plan> const& args, cudaStream_t stream = nullptr) {
  check_gemm_sm100_arguments<Plan>(args);
  run_gemm_sm100_unchecked<Plan>(args, stream);
}

/// The dispatched type sets: a tile by choose_gemm_sm100_tile on the current device's SM count.
using GemmSm100Bf16Arguments = GemmArguments<plans::sm100::Bf16Tile128x256>;
using GemmSm100F16Arguments = GemmArguments<plans::sm100::F16Tile128x256>;
using GemmSm100Fp8E4M3Arguments = GemmArguments<plans::sm100::Fp8E4M3Tile128x256>;
/// bf16 x bf16 -> bf16, K-major A and B.
void run_gemm_sm100(GemmSm100Bf16Arguments const& args, cudaStream_t stream = nullptr);
/// fp16 x fp16 -> fp16, K-major A and B.
void run_gemm_sm100(GemmSm100F16Arguments const& args, cudaStream_t stream = nullptr);
/// e4m3 x e4m3 -> bf16 with per-tensor (or per-row / per-column) scales (epilogue::Dequantize).
void run_gemm_sm100(GemmSm100Fp8E4M3Arguments const& args, cudaStream_t stream = nullptr);

}  // namespace cute_cpp::kernels
