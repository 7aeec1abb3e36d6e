// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_100a block-scaled FP4 GEMM's launch: run_gemm_fp4_sm100_unchecked<Plan> encodes the four
// TMA descriptors (A and B as bytes of packed E2M1 pairs; their factors as 32-bit words, a row of
// the map a group of 4 factors for every row of the operand) and launches gemm_sm100_kernel with
// the NVFP4 tensor scales in its Dequantize epilogue. Its caller checks the arguments first.
#include <cute_cpp/kernels/gemm/gemm_fp4_sm100.hpp>     // Fp4GemmArguments, the scale layout
#include <cute_cpp/kernels/gemm/gemm_kernel_sm100.cuh>  // gemm_sm100_kernel
#include <cute_cpp/kernels/gemm/gemm_sm100.hpp>         // gemm_sm100_tiles

#include <cute_cpp/epilogue/fusion.hpp>         // Dequantize
#include <cute_cpp/host/clc_launch.hpp>         // clc_launch_config
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/host/tensor_map_encode.hpp>  // create_tensor_map_tiled

#include <cuda_runtime_api.h>

#include <cstdint>

namespace cute_cpp::kernels {

/// The TMA descriptor of one operand's factors (`rows` rows of A or B, K values): K / block / 4
/// map rows of (rows padded to 128) words, each word 4 factors of one operand row.
template <class Plan, class SfSmem>
TensorMap<std::uint32_t, SfSmem> fp4_sm100_scale_map(std::uint8_t const* scales, Fp4Format format, std::int64_t rows,
                                                     std::int64_t k) {
  std::uint64_t const words = std::uint64_t((rows + 127) / 128 * 128);
  std::uint64_t const groups = std::uint64_t(k / fp4_scale_block(format) / 4);
  return host::create_tensor_map_tiled<std::uint32_t, SfSmem>(reinterpret_cast<std::uint32_t const*>(scales), groups,
                                                              words, words);
}

/// Runs Plan's kernel (a plans_fp4_sm100.hpp plan of `format`) for arguments that passed
/// detail::check_gemm_fp4_sm100, with M and N non-zero.
template <class Plan>
void run_gemm_fp4_sm100_unchecked(Fp4Format format, Fp4GemmArguments const& g, cudaStream_t stream) {
  static_assert(verify_plan<Plan>() && Plan::block_scaled);
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  std::int64_t const row_bytes = g.k / 2;  // packed pairs: the maps count stored bytes
  auto const a_map = host::create_tensor_map_tiled<TA, typename Plan::ASmem>(reinterpret_cast<TA const*>(g.a.data),
                                                                             g.m, row_bytes, row_bytes);
  auto const b_map = host::create_tensor_map_tiled<TB, typename Plan::BSmem>(reinterpret_cast<TB const*>(g.b.data),
                                                                             g.n, row_bytes, row_bytes);
  typename Plan::ScaleMaps const sf_maps{
      fp4_sm100_scale_map<Plan, typename Plan::SfaSmem>(g.a.scales, format, g.m, g.k),
      fp4_sm100_scale_map<Plan, typename Plan::SfbSmem>(g.b.scales, format, g.n, g.k)};
  epilogue::Dequantize<> op;
  op.scale_a = g.a.global_scale;  // null: 1 (MXFP4 has none)
  op.scale_b = g.b.global_scale;
  PersistentTileSchedulerParams const tiles = gemm_sm100_tiles<Plan>(g.m, g.n, row_bytes, 0);
  host::LaunchConfig const config = host::clc_launch_config<1>(tiles, dim3(Plan::threads), Plan::smem_bytes, stream);
  host::launch(&gemm_sm100_kernel<Plan>, "gemm_fp4_sm100", config, a_map, b_map, sf_maps, g.d, g.ldd, op, g.m, g.n,
               tiles);
}

}  // namespace cute_cpp::kernels
