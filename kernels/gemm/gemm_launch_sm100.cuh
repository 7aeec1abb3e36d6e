// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell GEMM's launch (sm_100a): run_gemm_sm100_unchecked (the checks that need the
// device, the TMA descriptors of A and B, the tile walk and the cluster launch control grid: one
// cluster per cluster tile, clc_launch_config) and the dispatcher's body, run_gemm_sm100_family
// (choose_gemm_sm100_tile on the device's SM count). Its callers check the arguments first.
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>  // gemm_sm100_kernel
#include <cute_cpp/kernels/gemm/gemm_sm100.hpp>         // the arguments, their checks, gemm_sm100_tiles

#include <cute_cpp/host/arguments.hpp>          // check_device_pointers, check_stream
#include <cute_cpp/host/clc_launch.hpp>         // clc_launch_config
#include <cute_cpp/host/error.hpp>              // cuda_check
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/host/tensor_map_encode.hpp>  // create_tensor_map_tiled

#include <cuda_runtime_api.h>

namespace cute_cpp::kernels {

template <class Plan>
void run_gemm_sm100_unchecked(GemmArguments<Plan> const& args, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  host::PointerArgument const pointers[] = {{"A", args.a}, {"B", args.b}, {"C", args.c}};
  host::check_device_pointers("gemm", pointers, stream);
  host::check_stream("gemm", stream);
  bool const a_k = Plan::major_a == OperandMajorMode::K, b_k = Plan::major_b == OperandMajorMode::K;
  auto const a_map = a_k ? host::create_tensor_map_tiled<TA, typename Plan::ASmem>(args.a, args.m, args.k, args.lda)
                         : host::create_tensor_map_tiled<TA, typename Plan::ASmem>(args.a, args.k, args.m, args.lda);
  auto const b_map = b_k ? host::create_tensor_map_tiled<TB, typename Plan::BSmem>(args.b, args.n, args.k, args.ldb)
                         : host::create_tensor_map_tiled<TB, typename Plan::BSmem>(args.b, args.k, args.n, args.ldb);
  PersistentTileSchedulerParams const tiles = gemm_sm100_tiles<Plan>(args.m, args.n, args.k, args.raster_group_rows);
  host::LaunchConfig const config =
      host::clc_launch_config<Plan::cta_group>(tiles, dim3(Plan::threads), Plan::smem_bytes, stream);
  host::launch(&gemm_sm100_kernel<Plan>, "gemm_sm100", config, a_map, b_map, GemmSm100NoScaleMaps{}, args.c, args.ldc,
               args.epilogue_op, args.m, args.n, tiles);
}

/// The dispatcher of one type set: checks the arguments once, then runs the plan of the tile
/// choose_gemm_sm100_tile names for the current device (Family: plans_sm100.hpp's GemmSm100Family).
template <class Family>
void run_gemm_sm100_family(GemmArguments<typename Family::Wide> const& args, cudaStream_t stream) {
  // NOTE: one check for the three plans: their rules differ only in block_n, and the narrowest
  // tile's (Small) 32-bit bound is the strictest.
  check_gemm_sm100_arguments<typename Family::Small>(args);
  int device = 0, sm_count = 0;
  host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  host::cuda_check(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device),
                   "cudaDeviceGetAttribute(MultiProcessorCount)");
  switch (choose_gemm_sm100_tile(args.m, args.n, sm_count)) {
    case GemmSm100Tile::Pair256x256: return run_gemm_sm100_unchecked<typename Family::Pair>(args, stream);
    case GemmSm100Tile::Tile128x256: return run_gemm_sm100_unchecked<typename Family::Wide>(args, stream);
    case GemmSm100Tile::Tile128x128: return run_gemm_sm100_unchecked<typename Family::Small>(args, stream);
  }
}

}  // namespace cute_cpp::kernels
