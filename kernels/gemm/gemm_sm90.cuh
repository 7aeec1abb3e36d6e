// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper GEMM, persistent and warp-specialised (sm_90a): what a translation unit that instantiates
// run_gemm_unchecked includes. Tiles come from StaticPersistentTileScheduler; ragged edges are
// TMA's (loads fill zeros, stores drop what lies outside C). The parts:
//   gemm.hpp                 the plan, the arguments and run_gemm (host-facing)
//   gemm_mainloop_sm90.cuh   the producer's TMA loads and a consumer warpgroup's wgmma main loop
//   gemm_kernel_sm90.cuh     the consumers' fix-up and epilogue, and gemm_kernel
//   gemm_launch_sm90.cuh     the schedule, the workspace and run_gemm_unchecked
//   simt_gemm.cuh            the SIMT GEMM, for problems too small for the tensor cores
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/gemm_kernel_sm90.cuh>
#include <cute_cpp/kernels/gemm/gemm_launch_sm90.cuh>
#include <cute_cpp/kernels/gemm/gemm_mainloop_sm90.cuh>
#include <cute_cpp/kernels/gemm/simt_gemm.cuh>

// What this header has always brought its includers besides the parts.
#include <cute_cpp/arch/cluster.hpp>
#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/sched/grouped_tiles.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
