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

#include <random>
#include <vector>

namespace cute_cpp::test::gemm_dense {
/// run_gemm_auto on the shapes (each with its host time per call) and plans run directly.
void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle);  ///< --profile
void raster_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void split_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void decomposition_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void k_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void decode_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void shape_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void candidate_sweep(std::mt19937_64& rng, cublasLtHandle_t handle);  ///< prints lines, no records
void host_profile(std::mt19937_64& rng);                              ///< prints lines, no records
}  // namespace cute_cpp::test::gemm_dense

namespace cute_cpp::test::gemm_fp8 {
/// The quantizers, the FP8-output plans and the FP8 plans against cuBLASLt's FP8 GEMM.
void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kernels::Record>& records);
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle);  ///< --fp8-profile
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
