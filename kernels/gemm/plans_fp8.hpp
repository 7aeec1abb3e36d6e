// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 GEMM plans (e4m3 / e5m2 in, per-tensor, per-row or block-scaled; dense and grouped) and
// the lists their *_sm90.cu files instantiate. plans.hpp includes it; the FP8 plans whose input
// is bf16 (a SwiGLU epilogue writing FP8) stay there, beside the tile they share.
#include <cute_cpp/kernels/gemm/gemm.hpp>

#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels::plans {

using bf16 = __nv_bfloat16;

/// FP8 (e4m3 or e5m2, any mix) with bf16 out, scaled per tensor or per row and column in the
/// epilogue (epilogue::Dequantize), 128 x 256 x 128 tiles: a K block of 128 one-byte elements is
/// the same 128-byte swizzled row as bf16's 64, so the stages and shared memory match Wide's.
/// fp32 accumulation in wgmma's accumulator throughout (cuBLASLt's fast-accumulation mode).
template <class TA, class TB>
using Fp8TN = GemmPlan<TA, TB, bf16, GemmConfig{.block_k = 128, .stages = 4, .cluster_m = 2}, epilogue::Dequantize<>>;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;
using Fp8E4M3 = Fp8TN<e4m3, e4m3>;
using Fp8E5M2E4M3 = Fp8TN<e5m2, e4m3>;  ///< gradients (e5m2) against weights (e4m3)
/// cuBLASLt's tile for the per-tensor FP8 GEMM at 4096-8192 (its nvjet_sm90_qqtst_256x128_128x4_1x2
/// kernel: kernels/gemm/README.md): 256 x 128 x 128 in four stages of 48 KB, clusters of two along N
/// sharing A; each consumer warpgroup takes 128 rows, two 64 x 128 atoms. Built, not yet measured.
using Fp8E4M3Tile256x128 =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_m = 256, .block_n = 128, .block_k = 128, .stages = 4, .cluster_n = 2},
             epilogue::Dequantize<>>;
/// The same operands and epilogue with two-level accumulation (GemmConfig::two_level_accumulation:
/// each K block's wgmma products added into an fp32 accumulator, cuBLASLt without its fast
/// accumulation): 128 x 128 tiles, the promotion of K block i overlapping K block i + 1's wgmmas
/// (64 + 2 x 64 floats a thread, rule gemm.block-scaled.registers), six stages, 2-CTA clusters.
/// Built, not yet measured.
template <class TA, class TB>
using Fp8TNTwoLevel =
    GemmPlan<TA, TB, bf16, GemmConfig{.block_n = 128, .block_k = 128, .stages = 6, .cluster_m = 2,
                                      .overlap_promotion = true, .two_level_accumulation = true},
             epilogue::Dequantize<>>;
using Fp8E4M3TwoLevel = Fp8TNTwoLevel<e4m3, e4m3>;
using Fp8E5M2E4M3TwoLevel = Fp8TNTwoLevel<e5m2, e4m3>;
/// Two-level in 128 x 192 tiles, promoted after each K block's wait (one product set: 64 + 2 x 96
/// would pass the rule's 192 floats): half as many promotions a column as 128 x 128's.
using Fp8E4M3TwoLevelN192 =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = 192, .block_k = 128, .stages = 4, .cluster_m = 2,
                                          .two_level_accumulation = true},
             epilogue::Dequantize<>>;
/// Blockwise-scaled e4m3 (BlockScales: 1 x 128 on A, 128 x 128 on B), each K block's products
/// promoted into the fp32 accumulator with their scales: 128 x 128 x 128 tiles (the promoted
/// accumulator and the K block's own, 64 + 64 floats a thread), six stages of 32 KB.
using Fp8E4M3Blockwise =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = 128, .block_k = 128, .stages = 6, .cluster_m = 2,
                                          .block_scaled = true}>;

/// The same 192 columns wide (four stages of 40 KB): each K block's wgmmas are half as long again
/// against the same wait and promotion.
using Fp8E4M3BlockwiseN192 =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = 192, .block_k = 128, .stages = 4, .cluster_m = 2,
                                          .block_scaled = true}>;

/// Issue 44's block-scaled main loops, beside the two above (which stay the baseline). Built, not
/// yet measured (README: FP8, "the block-scaled main loop rebuilt"). A block-scaled config with
/// the main-loop options and any N of rule gemm.block-scaled.tile-n:
template <int BlockN, int Stages, bool Overlap, bool Staged>
using Fp8E4M3BlockwiseMainLoop =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = BlockN, .block_k = 128, .stages = Stages, .cluster_m = 2,
                                          .block_scaled = true, .overlap_promotion = Overlap, .staged_scales = Staged}>;
/// 128 x 128, the promotion of K block i overlapping K block i + 1's wgmmas (two product sets,
/// 64 + 2 x 64 floats a thread); scales read from global memory as the baseline reads them.
using Fp8E4M3BlockwiseOverlap = Fp8E4M3BlockwiseMainLoop<128, 6, true, false>;
/// 128 x 128, the scales copied into each stage by the producer warpgroup's scale warp. Five
/// stages: a sixth's 520 bytes of scales overflow shared memory beside the 32 KB epilogue buffers.
using Fp8E4M3BlockwiseStaged = Fp8E4M3BlockwiseMainLoop<128, 5, false, true>;
/// 128 x 128 with both.
using Fp8E4M3BlockwiseOverlapStaged = Fp8E4M3BlockwiseMainLoop<128, 5, true, true>;
/// 112 columns, staged scales, seven stages of 30 KB: 14336 / 112 = 128 tile columns.
/// NOTE: with two product sets (56 + 2 x 56 floats) ptxas spilled 36-44 bytes (232 or 240
/// registers, staged or not; 2026-12-05), where 128 columns (64 + 2 x 64) do not: not built.
using Fp8E4M3BlockwiseN112 = Fp8E4M3BlockwiseMainLoop<112, 7, false, true>;
/// 144 and 160 columns, staged scales, the promotion after the wait (two product sets would be
/// 216 and 240 floats: rule gemm.block-scaled.registers); 8192 / 144 = 57 and 8192 / 160 = 52
/// tile columns, more work per K block's wait than 128.
using Fp8E4M3BlockwiseN144 = Fp8E4M3BlockwiseMainLoop<144, 6, false, true>;
using Fp8E4M3BlockwiseN160 = Fp8E4M3BlockwiseMainLoop<160, 5, false, true>;
/// The baseline's 128 x 192 tile with staged scales.
using Fp8E4M3BlockwiseN192Staged = Fp8E4M3BlockwiseMainLoop<192, 4, false, true>;

/// f(std::type_identity<P>{}) for the block-scaled plan P of an n-column problem: 192-column tiles
/// (faster by 10-17% at 4096-14336 columns, 2026-12-03), 128 for at most 128 columns.
template <class F>
decltype(auto) with_blockwise_plan(std::int64_t n, F&& f) {
  if (n <= 128) return f(std::type_identity<Fp8E4M3Blockwise>{});
  return f(std::type_identity<Fp8E4M3BlockwiseN192>{});
}

/// FP8 C, quantized by 1 x 128 blocks of a row with the scales the epilogue computes
/// (GemmArguments::output_scales): a GEMM whose output is the next block-scaled GEMM's A without a
/// bf16 round trip (DeepSeek-V3's chain). The block-scaled GEMM's tile, and the fused gate-up
/// projection of an FFN, whose silu(gate) * up goes to an FP8 down projection.
using Fp8E4M3BlockwiseToFp8 =
    GemmPlan<e4m3, e4m3, e4m3, GemmConfig{.block_n = 128, .block_k = 128, .stages = 6, .cluster_m = 2,
                                          .block_scaled = true}>;
/// Grouped blockwise-scaled e4m3 (DeepSeek-V3's experts): Fp8E4M3Blockwise's tile without the
/// cluster; A's scales by row of the packed rows, B's per group (BlockScales::b_group_stride).
/// NOTE: in pairs along N sharing A (cluster_n = 2) it ran 0.87-0.91x of this (2026-12-03).
using Fp8E4M3BlockwiseGrouped =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = 128, .block_k = 128, .stages = 6, .block_scaled = true,
                                          .grouped = true}>;
/// NOTE: in 128 x 192 tiles the grouped consumer spills (108 bytes) and ran 0.89-0.93x of these
/// (2026-12-03, DeepSeek-like experts): not built.
/// The same with issue 44's overlapped promotion (two product sets; the scales from global memory:
/// staged_scales walks dense tiles only, rule gemm.block-scaled.options). Built, not yet measured.
using Fp8E4M3BlockwiseGroupedOverlap =
    GemmPlan<e4m3, e4m3, bf16, GemmConfig{.block_n = 128, .block_k = 128, .stages = 6, .block_scaled = true,
                                          .grouped = true, .overlap_promotion = true}>;

/// The per-tensor FP8 plans' variants: two-level accumulation and cuBLASLt's tile
/// (gemm_fp8_variants_sm90.cu; the same check and benchmark).
using Fp8VariantsInstantiated =
    GemmPlanList<Fp8E4M3TwoLevel, Fp8E5M2E4M3TwoLevel, Fp8E4M3TwoLevelN192, Fp8E4M3Tile256x128>;
/// Issue 44's block-scaled main loops (gemm_fp8_blockwise_sm90.cu; the same check and benchmark).
using Fp8BlockwiseMainLoops =
    GemmPlanList<Fp8E4M3BlockwiseOverlap, Fp8E4M3BlockwiseStaged, Fp8E4M3BlockwiseOverlapStaged, Fp8E4M3BlockwiseN112,
                 Fp8E4M3BlockwiseN144, Fp8E4M3BlockwiseN160, Fp8E4M3BlockwiseN192Staged>;

}  // namespace cute_cpp::kernels::plans
