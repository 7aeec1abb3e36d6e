// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_100a GEMM's plans (gemm_plan_sm100.hpp) and the rule the dispatcher picks one by
// (choose_gemm_sm100_tile). Stage counts fill the 227 KB of shared memory a CTA has.
// NOTE: not measured (no sm_100a device here): tiles and depths follow the shape of CUTLASS's and
// CuTeDSL's Blackwell dense GEMMs (128-row UMMA per CTA, 4-6 stages of 128-byte K blocks).
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>  // GemmSm100Plan, GemmSm100Config, GemmSm100Tile

#include <cute_cpp/epilogue/fusion.hpp>  // Identity, Dequantize

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

namespace cute_cpp::kernels::plans::sm100 {

using bf16 = __nv_bfloat16;
using f16 = __half;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;
inline constexpr OperandMajorMode K = OperandMajorMode::K, MN = OperandMajorMode::MN;

/// A plan of the dispatcher's form: K blocks of 128 bytes, a pair when block_m is 256.
/// NOTE: the config is spelled inside the alias: nvcc 13's host pass loses a GemmSm100Config
/// passed as an alias template's own argument.
template <class TA, class TB, class TC, int BlockM, int BlockN, int Stages, class Op = epilogue::Identity,
          OperandMajorMode MajorA = OperandMajorMode::K, OperandMajorMode MajorB = OperandMajorMode::K>
using Sm100Plan = GemmSm100Plan<TA, TB, TC,
                                GemmSm100Config{.block_m = BlockM, .block_n = BlockN,
                                                .block_k = 128 / int(sizeof(TA)), .cta_group = BlockM / 128,
                                                .stages = Stages, .major_a = MajorA, .major_b = MajorB},
                                Op>;

/// The three tiles the dispatcher chooses among (stages fill the 227 KB: 6 x 32 KB, 4 x 48 KB,
/// 6 x 32 KB a CTA), for one type set.
template <class TA, class TB, class TC, class Op = epilogue::Identity>
struct GemmSm100Family {
  using Small = Sm100Plan<TA, TB, TC, 128, 128, 6, Op>;
  using Wide = Sm100Plan<TA, TB, TC, 128, 256, 4, Op>;
  using Pair = Sm100Plan<TA, TB, TC, 256, 256, 6, Op>;
};
using Bf16Family = GemmSm100Family<bf16, bf16, bf16>;
using F16Family = GemmSm100Family<f16, f16, f16>;
/// FP8 operands stored scaled, dequantized by per-tensor scales in the epilogue, bf16 out.
using Fp8E4M3Family = GemmSm100Family<e4m3, e4m3, bf16, epilogue::Dequantize<>>;

using Bf16Tile128x128 = Bf16Family::Small;
using Bf16Tile128x256 = Bf16Family::Wide;
using Bf16Pair256x256 = Bf16Family::Pair;
/// The seed-sized tile: a pair of 256 x 352 as two UMMA atoms of 176 columns. Its 352 fp32
/// columns fit tensor memory's 512 once, so it keeps one accumulator stage (the next tile's MMAs
/// wait for the epilogue); 5 stages of 38 KB a CTA.
using Bf16Pair256x352 = GemmSm100Plan<bf16, bf16, bf16,
                                      GemmSm100Config{.block_m = 256, .block_n = 352, .cta_group = 2, .atoms_n = 2,
                                                      .stages = 5, .acc_stages = 1}>;
using F16Tile128x128 = F16Family::Small;
using F16Tile128x256 = F16Family::Wide;
using F16Pair256x256 = F16Family::Pair;
/// bf16 in, fp32 out.
using Bf16ToF32Tile128x256 = Sm100Plan<bf16, bf16, float, 128, 256, 4>;
/// fp16 in, fp32 out, with an MN-major (row-major) B: a weight stored K x N.
using F16ToF32NNTile128x256 = Sm100Plan<f16, f16, float, 128, 256, 4, epilogue::Identity, K, MN>;
/// bf16 with both operands MN-major, on a pair.
using Bf16MNPair256x256 = Sm100Plan<bf16, bf16, bf16, 256, 256, 6, epilogue::Identity, MN, MN>;
using Fp8E4M3Tile128x128 = Fp8E4M3Family::Small;
using Fp8E4M3Tile128x256 = Fp8E4M3Family::Wide;
using Fp8E4M3Pair256x256 = Fp8E4M3Family::Pair;
/// Gradients (e5m2) against weights (e4m3).
using Fp8E5M2E4M3Tile128x256 = Sm100Plan<e5m2, e4m3, bf16, 128, 256, 4, epilogue::Dequantize<>>;

/// The plans the gemm_*_sm100.cu units instantiate (for the build report).
using Instantiated =
    GemmSm100PlanList<Bf16Tile128x128, Bf16Tile128x256, Bf16Pair256x256, Bf16Pair256x352, F16Tile128x128,
                      F16Tile128x256, F16Pair256x256, Bf16ToF32Tile128x256, F16ToF32NNTile128x256, Bf16MNPair256x256,
                      Fp8E4M3Tile128x128, Fp8E4M3Tile128x256, Fp8E4M3Pair256x256, Fp8E5M2E4M3Tile128x256>;

}  // namespace cute_cpp::kernels::plans::sm100

namespace cute_cpp::kernels {

/// The dispatcher's rule, a wave-quantization model: each tile's time is its waves (its tiles
/// over the tiles that run at once: one a SM, one a pair of SMs for the pair tile) times the work
/// of one wave on an SM, in units of 1024 multiply-adds per K: 32 for 256 x 256 on a pair and for
/// 128 x 256, and 20 for 128 x 128 (16 of area, times 5/4 for its halved operand reuse). The
/// fastest wins; ties go to the larger tile (less L2 traffic).
///   choose_gemm_sm100_tile(4096, 4096, 148)  -> Pair256x256   (4 waves x 32 against 4 x 32, 7 x 20)
///   choose_gemm_sm100_tile(128, 4096, 148)   -> Tile128x128   (1 wave x 20 against 1 x 32)
///   choose_gemm_sm100_tile(384, 12544, 148)  -> Tile128x256   (1 wave x 32 against 2 x 32, 2 x 20)
/// NOTE: not measured (no sm_100a device here): the model of a persistent GEMM's waves.
constexpr GemmSm100Tile choose_gemm_sm100_tile(std::int64_t m, std::int64_t n, int sm_count) {
  auto const cost = [&](std::int64_t bm, std::int64_t bn, std::int64_t slots, std::int64_t wave_cost) {
    std::int64_t const tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
    std::int64_t const s = slots < 1 ? 1 : slots;
    return (tiles + s - 1) / s * wave_cost;
  };
  std::int64_t const pair = cost(256, 256, sm_count / 2, 32), wide = cost(128, 256, sm_count, 32),
                     small = cost(128, 128, sm_count, 20);
  if (pair <= wide && pair <= small) return GemmSm100Tile::Pair256x256;
  if (wide <= small) return GemmSm100Tile::Tile128x256;
  return GemmSm100Tile::Tile128x128;
}

}  // namespace cute_cpp::kernels
