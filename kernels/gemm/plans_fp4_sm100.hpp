// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_100a GEMM's block-scaled FP4 plans (gemm_plan_sm100.hpp with a UmmaBlockScale): packed
// E2M1 pairs (__nv_fp4x2_e2m1) K-major, 256 values a K block (128 bytes), bf16 out, the NVFP4
// tensor scales applied by epilogue::Dequantize. NVFP4: UE4M3 factors every 16 values, kind
// mxf4nvf4 (.scale_vec::4X); MXFP4: UE8M0 every 32, kind mxf4 (.scale_vec::2X). One CTA a tile.
// Shared memory: 128 x 128 takes 6 stages (NVFP4 36 KB, MXFP4 34 KB); 128 x 256 takes 4 (54 KB,
// 51 KB). Tensor memory: the accumulators and a scale-factor region a stage (see the plan):
// 128 x 128 keeps 2 accumulator stages (256 + 6 x 32 or 6 x 16 columns); 128 x 256 keeps one
// (256 + 4 x 48 or 4 x 24), since two would fill the 512 columns without room for the factors.
// NOTE: not measured (no sm_100a device here).
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>  // GemmSm100Plan, GemmSm100Config

#include <cute_cpp/epilogue/fusion.hpp>  // Dequantize

#include <cuda_bf16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

namespace cute_cpp::kernels::plans::sm100 {

using fp4x2 = __nv_fp4x2_e2m1;
/// NVFP4's factors: UE4M3 (stored as e4m3 bytes, sign 0) every 16 values.
using Nvfp4Scale = cute_cpp::sm100::UmmaBlockScale<__nv_fp8_e4m3, 16>;
/// MXFP4's factors: UE8M0 every 32 values.
using Mxfp4Scale = cute_cpp::sm100::UmmaBlockScale<__nv_fp8_e8m0, 32>;

/// A block-scaled FP4 plan: one CTA, a 128 x BlockN tile, 128-byte (256-value) K blocks.
template <class Scale, int BlockN, int Stages, int AccStages>
using Fp4Sm100Plan = GemmSm100Plan<fp4x2, fp4x2, __nv_bfloat16,
                                   GemmSm100Config{.block_m = 128, .block_n = BlockN, .block_k = 128, .cta_group = 1,
                                                   .stages = Stages, .acc_stages = AccStages},
                                   epilogue::Dequantize<>, Scale>;

/// The two tiles of one format, as the dispatcher chooses between them.
template <class Scale>
struct Fp4Sm100Family {
  using Small = Fp4Sm100Plan<Scale, 128, 6, 2>;
  using Wide = Fp4Sm100Plan<Scale, 256, 4, 1>;
};
using Nvfp4Family = Fp4Sm100Family<Nvfp4Scale>;
using Mxfp4Family = Fp4Sm100Family<Mxfp4Scale>;
using Nvfp4Tile128x128 = Nvfp4Family::Small;
using Nvfp4Tile128x256 = Nvfp4Family::Wide;
using Mxfp4Tile128x128 = Mxfp4Family::Small;
using Mxfp4Tile128x256 = Mxfp4Family::Wide;
/// The FP4 plans (gemm_fp4_sm100.cu), for the build report.
using Fp4Instantiated = GemmSm100PlanList<Nvfp4Tile128x128, Nvfp4Tile128x256, Mxfp4Tile128x128, Mxfp4Tile128x256>;

}  // namespace cute_cpp::kernels::plans::sm100
