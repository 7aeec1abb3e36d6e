// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The SIMT GEMM's plan (simt_gemm.cuh): SimtGemmTile, SimtGemmPlan with a GemmPlan's element
// types and layouts, is_simt_plan_v; and when its skinny kernel (simt_gemv.cuh) takes a problem
// (skinny_short_operand), which the dispatch also asks.
#include <cute_cpp/epilogue/fusion.hpp>  // Identity
#include <cute_cpp/kernels/gemm/gemm_decomposition.hpp>  // Decomposition
#include <cute_cpp/operand_modes.hpp>    // OperandMajorMode, LayoutEnum

#include <cstdint>

namespace cute_cpp::kernels {

/// The SIMT GEMM's tile (simt_gemm.cuh): 32 x 64 of C per CTA of 256 threads, K in chunks of 32.
struct SimtGemmTile {
  static constexpr int block_m = 32, block_n = 64, block_k = 32, threads = 256;
  /// M or N at most this beside a K-major other operand: the skinny kernel (simt_gemv.cuh) instead.
  static constexpr int skinny_rows = 8;
};

/// The most element loads an M/N-major short operand may cost the skinny kernel: long rows x K x
/// short rows. Such an operand is read element by element (a k's short rows are contiguous, the k's
/// a leading dimension apart), so a warp's load scatters over as many sectors as lanes. Measured
/// (H200 shape sweep, 2026-12-03): it beat the tiles up to 134k (1 x 1121 x 120, 808 x 6 x 16) and
/// lost from 807k (5 x 961 x 168: 0.80x of cuBLASLt against the tiles' 0.97x; 448 x 1 x 32320 KMN:
/// 0.22x against 0.79x).
inline constexpr std::int64_t skinny_scattered_loads = std::int64_t(1) << 19;

/// Which operand the skinny kernel (simt_gemv.cuh) takes as its short one for an m x n x k
/// problem: at most SimtGemmTile::skinny_rows rows (M for A, N for B) beside a K-major other
/// operand, the one it streams, and if M/N-major within skinny_scattered_loads; the shorter where
/// both qualify; neither where neither does.
enum class SkinnyShort { none, a, b };
constexpr SkinnyShort skinny_short_operand(std::int64_t m, std::int64_t n, std::int64_t k, OperandMajorMode major_a,
                                           OperandMajorMode major_b) {
  auto const takes = [&](std::int64_t rows, OperandMajorMode major, std::int64_t long_rows, OperandMajorMode long_major) {
    return rows <= SimtGemmTile::skinny_rows && long_major == OperandMajorMode::K &&
           (major == OperandMajorMode::K || long_rows * k * rows <= skinny_scattered_loads);
  };
  bool const a = takes(m, major_a, n, major_b), b = takes(n, major_b, m, major_a);
  if (a && b) return m <= n ? SkinnyShort::a : SkinnyShort::b;
  return a ? SkinnyShort::a : b ? SkinnyShort::b : SkinnyShort::none;
}

/// Whether a gated plan's problem (GemmArguments<Plan>) runs in the gated skinny kernel
/// (simt_gemv.cuh), where a 128-row tile would be mostly empty: at most SimtGemmTile::skinny_rows
/// rows of A beside B, the interleaved gate-up weight, K-major; whole tiles asked for (the kernel
/// splits nothing); 16-bit operands, no block scales, a 16-bit C.
template <class Plan>
inline constexpr bool gated_gemv_plan =
    Plan::gated && !Plan::block_scaled && !Plan::quantized_output && sizeof(typename Plan::TA) == 2;
template <class Plan, class Arguments>
constexpr bool gated_gemv_takes(Arguments const& args) {
  if constexpr (!gated_gemv_plan<Plan>) {
    return false;
  } else {
    return skinny_short_operand(args.m, args.n, args.k, Plan::major_a, Plan::major_b) == SkinnyShort::a &&
           (args.decomposition == Decomposition::Heuristic || args.decomposition == Decomposition::DataParallel) &&
           args.k_splits == 0;
  }
}

/// A plan for the SIMT GEMM (simt_gemm.cuh): fp32 FMAs on CUDA cores for problems too small for
/// the tensor-core kernel's fixed costs; the element types and layouts of a GemmPlan, whose
/// GemmArguments it takes (whole tiles, no workspace, the Identity epilogue).
template <class TA_, class TC_, OperandMajorMode MA, OperandMajorMode MB, LayoutEnum LC = LayoutEnum::RowMajor>
struct SimtGemmPlan : SimtGemmTile {
  using TA = TA_;
  using TB = TA_;
  using TC = TC_;
  using EpilogueOp = epilogue::Identity;
  static constexpr OperandMajorMode major_a = MA, major_b = MB;
  static constexpr LayoutEnum layout_c = LC;
  static_assert(sizeof(TA_) == 2 && (sizeof(TC_) == 2 || sizeof(TC_) == 4),
                "cute-cpp [gemm.simt-types]: the SIMT GEMM takes 16-bit operands and a 16- or 32-bit C");
};

template <class Plan>
inline constexpr bool is_simt_plan_v = false;
template <class TA, class TC, OperandMajorMode MA, OperandMajorMode MB, LayoutEnum LC>
inline constexpr bool is_simt_plan_v<SimtGemmPlan<TA, TC, MA, MB, LC>> = true;

}  // namespace cute_cpp::kernels
