// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Blackwell GEMM, persistent and warp-specialised (sm_100a): what a translation unit that
// instantiates run_gemm_sm100_unchecked includes. Tiles come from ClcDynamicPersistentTileScheduler
// (cluster launch control); ragged edges are TMA's zero fill on the loads and the epilogue's bounds
// checks on the stores. The parts:
//   gemm_sm100.hpp            the arguments' checks, run_gemm_sm100 and the dispatcher (host-facing)
//   gemm_plan_sm100.hpp       GemmSm100Config, GemmSm100Plan and their rules
//   plans_sm100.hpp           the plans and choose_gemm_sm100_tile
//   gemm_mainloop_sm100.cuh   the tile walk, the scheduler, TMA and MMA warps
//   gemm_kernel_sm100.cuh     the epilogue warps and gemm_sm100_kernel
//   gemm_launch_sm100.cuh     run_gemm_sm100_unchecked and run_gemm_sm100_family
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>
#include <cute_cpp/kernels/gemm/gemm_launch_sm100.cuh>
#include <cute_cpp/kernels/gemm/gemm_mainloop_sm100.cuh>
#include <cute_cpp/kernels/gemm/gemm_sm100.hpp>
