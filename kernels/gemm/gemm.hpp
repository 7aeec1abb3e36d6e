// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the Hopper GEMM, declared here and instantiated in the *_sm90.cu files, so
// host code includes no kernel:
//   C[m, n] = epilogue_op(sum_k A[m, k] B[k, n], m, n)
// Its parts: the plan (gemm_plan.hpp), the arguments and their checks (gemm_arguments.hpp, with the
// operands' layouts), the cut of the work (gemm_decomposition.hpp), the tile a shape takes
// (gemm_tile_choice.hpp) and the SIMT plan (simt_plan.hpp). run_gemm checks a call's arguments
// and runs it; the kernel and its launch are gemm_sm90.cuh's.
#include <cute_cpp/kernels/gemm/gemm_arguments.hpp>      // GemmProblemArguments, check_gemm_arguments
#include <cute_cpp/kernels/gemm/gemm_decomposition.hpp>  // Decomposition, choose_decomposition
#include <cute_cpp/kernels/gemm/gemm_plan.hpp>           // GemmConfig, GemmPlan
#include <cute_cpp/kernels/gemm/gemm_tile_choice.hpp>    // GemmTile, GemmChoice, choose_gemm_tile
#include <cute_cpp/kernels/gemm/simt_plan.hpp>           // SimtGemmPlan, is_simt_plan_v

// The workspace's layout and the tile scheduler, which this header has always brought its includers.
#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/epilogue/stream_k_fixup.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cute_cpp::kernels {

/// run_gemm's work for arguments that passed check_gemm_arguments with Plan's layouts: the checks
/// that need the plan or the device, the TMA descriptors and the launch of the persistent kernel
/// on `stream`. For the entry points that check a call's arguments once, before any device query
/// (run_gemm, run_gemm_auto, the C entry points). Defined in gemm_launch_sm90.cuh.
template <class Plan>
void run_gemm_unchecked(GemmArguments<Plan> const& args, cudaStream_t stream);

/// Checks the arguments (std::invalid_argument naming the rule), encodes the TMA descriptors
/// and launches the persistent kernel on `stream`.
template <class Plan>
void run_gemm(GemmArguments<Plan> const& args, cudaStream_t stream) {
  if constexpr (is_simt_plan_v<Plan>) check_gemm_arguments(args, Plan::major_a, Plan::major_b, Plan::layout_c, false);
  else check_gemm_arguments(args, Plan::major_a, Plan::major_b, Plan::layout_c, Plan::gated);
  run_gemm_unchecked<Plan>(args, stream);
}

/// The workspace bytes split-K needs for these arguments (0 when it splits nothing).
template <class Plan>
std::size_t gemm_workspace_bytes(GemmArguments<Plan> const& args);

}  // namespace cute_cpp::kernels
