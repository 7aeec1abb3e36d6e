// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// bench_gemm's parts, a translation unit each, which bench_gemm.cu runs: the dense GEMM and its
// sweeps (bench_gemm_dense.cu), FP8 (bench_gemm_fp8.cu), grouped (bench_gemm_grouped.cu), and the
// FFN and MoE blocks (bench_ffn_moe.cu). Each appends one Record per figure, its kernel named as
// the program that timed it before (gemm_sm90, gemm_fp8_sm90, ...) named it: scripts/gpu-check's
// results compare figures across commits by those names.
#include "bench/support/bench.hpp"

#include <cublasLt.h>

#include <array>
#include <random>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_dense {
/// run_gemm_auto on the shapes (each with its host time per call) and plans run directly.
void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
/// --profile: for ncu / nsys, two launches of ours and two of cuBLASLt on each shape, nothing else:
/// the benchmark's shapes and the dispatch's plan, or `shapes` in `choice` (empty: the dispatch's).
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle,
                      std::vector<std::array<std::int64_t, 3>> const& shapes = {}, std::string const& choice = "");
void raster_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void split_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void decomposition_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void k_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void decode_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void shape_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
/// Prints lines, no records; on `shapes` (M, N, K), or the shape sweep's where empty.
/// What --candidate-sweep times: its shapes (empty: sweep_shapes()), tiles (names, empty: every
/// GemmTile) and cuts ("whole", "heuristic", "stream-K", "split": every split count; empty: all).
struct CandidateOptions {
  std::vector<std::array<std::int64_t, 3>> shapes;
  std::vector<std::string> tiles, cuts;
};
void candidate_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, CandidateOptions options = {});
void host_profile(std::mt19937_64& rng);                              ///< prints lines, no records
}  // namespace cute_cpp::test::gemm_dense

namespace cute_cpp::test::gemm_model {
/// bench_gemm --model-sweep's settings (issue 43; bench/gemm/model_shapes.hpp has the points).
struct ModelSweepOptions {
  std::string dtype = "bf16";    ///< --dtype bf16 | fp16
  std::string layout = "KK";     ///< --layout KK | MNK | KMN | MNMN: A's then B's major mode
  bool warm = false;             ///< --warm: back to back on one copy of the operands; else L2 flushed
  bool held_out_only = false;    ///< --held-out-only
  int part = 0, parts = 1;       ///< --part I/N (I from 1): every N-th point from the I-th
  double budget_s = 480;         ///< --budget-s: the estimate M points are thinned to fit
  int m_points = 0;              ///< --m-points: M points a projection (0: as many as fit the budget)
  /// --rows LO-HI: only the points of LO to HI rows (after --m-points or the budget thinned M over the
  /// whole grid, so they are the whole sweep's points there: a rule judged on the rows it changes)
  std::int64_t rows_min = 1, rows_max = std::int64_t{1} << 40;
  /// --shapes MxNxK,MxNxK,...: the candidate sweep's or --profile's shapes instead of its own
  std::vector<std::array<std::int64_t, 3>> shapes;
  /// --choice "TILE [CUT]": what --profile launches on --shapes (gemm_choice_name's form; empty: the dispatch's)
  std::string choice;
  /// --tiles NAME,... and --cuts whole,heuristic,stream-K,split: the candidate sweep's (empty: all)
  std::vector<std::string> tiles, cuts;
};
/// --model-sweep: run_gemm_auto against the faster of cublasGemmEx and cuBLASLt's best of 8.
void model_sweep(ModelSweepOptions const& options, std::mt19937_64& rng, cublasLtHandle_t handle,
                 std::vector<kernels::Record>& records);
}  // namespace cute_cpp::test::gemm_model

namespace cute_cpp::test::gemm_fp8 {
/// The quantizers, the FP8-output plans and the FP8 plans against cuBLASLt's FP8 GEMM.
void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle);  ///< --fp8-profile
/// The block-scaled plans (baseline and issue 44's main loops) against cuBLASLt (--fp8-blockwise;
/// part of benchmarks).
void blockwise_benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
/// The per-tensor plans' variants: two-level accumulation (per tensor and rowwise) against cuBLASLt
/// without fast accumulation, the 256 x 128 tile against it with (part of benchmarks; alone with
/// bench_gemm --fp8-variants).
void variant_benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void blockwise_profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle);  ///< --fp8-blockwise-profile
}  // namespace cute_cpp::test::gemm_fp8

namespace cute_cpp::test::gemm_grouped {
/// MoE layers' expert GEMMs: bf16 against a cuBLAS loop, block-scaled FP8 against one dense cuBLASLt GEMM.
void benchmarks(std::mt19937_64& rng, std::vector<kernels::Record>& records);
}  // namespace cute_cpp::test::gemm_grouped

namespace cute_cpp::test::ffn_block {
/// The FFN block against cuBLAS x3 + swiglu.
void benchmarks(std::mt19937_64& rng, std::vector<kernels::Record>& records);
}  // namespace cute_cpp::test::ffn_block

namespace cute_cpp::test::moe_block {
/// The MoE block against the same routing with cuBLAS per expert.
void benchmarks(std::mt19937_64& rng, std::vector<kernels::Record>& records);
}  // namespace cute_cpp::test::moe_block
