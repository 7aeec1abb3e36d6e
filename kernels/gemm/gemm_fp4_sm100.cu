// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_100a block-scaled FP4 GEMM (gemm_fp4_sm100.hpp): NVFP4 (kind::mxf4nvf4) and MXFP4
// (kind::mxf4) on 128 x 128 and 128 x 256 tiles, bf16 out. Built for 100a alone (the file name),
// into cute_cpp::gemm_sm100.
#include <cute_cpp/kernels/gemm/gemm_fp4_launch_sm100.cuh>
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>  // choose_gemm_sm100_tile

#include <cute_cpp/host/error.hpp>  // cuda_check

namespace cute_cpp::kernels {

namespace {

/// The named tile, or the one choose_gemm_sm100_tile names (no block-scaled pair: 128 x 256).
template <class Family>
void run_fp4_family(Fp4Format format, Fp4GemmArguments const& g, Fp4Sm100Tile tile, cudaStream_t stream) {
  if (tile == Fp4Sm100Tile::automatic) {
    int device = 0, sm_count = 0;
    host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    host::cuda_check(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device),
                     "cudaDeviceGetAttribute(MultiProcessorCount)");
    tile = choose_gemm_sm100_tile(g.m, g.n, sm_count) == GemmSm100Tile::Tile128x128 ? Fp4Sm100Tile::tile128x128
                                                                                      : Fp4Sm100Tile::tile128x256;
  }
  if (tile == Fp4Sm100Tile::tile128x128) run_gemm_fp4_sm100_unchecked<typename Family::Small>(format, g, stream);
  else run_gemm_fp4_sm100_unchecked<typename Family::Wide>(format, g, stream);
}

}  // namespace

void run_gemm_fp4_sm100(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream, Fp4Sm100Tile tile) {
  detail::check_gemm_fp4_sm100(args, stream);
  if (args.m == 0 || args.n == 0) return;
  if (format == Fp4Format::nvfp4) run_fp4_family<plans::sm100::Nvfp4Family>(format, args, tile, stream);
  else run_fp4_family<plans::sm100::Mxfp4Family>(format, args, tile, stream);
}

}  // namespace cute_cpp::kernels
