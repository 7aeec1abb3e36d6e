// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The GEMM instantiations this example builds (each explicitly instantiated in a *_sm90.cu file).
#include "gemm.hpp"

#include <cute_cpp/host/target_check.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cute_cpp::examples::plans {

using bf16 = __nv_bfloat16;
using f16 = __half;
constexpr auto K = OperandMajorMode::K;
constexpr auto MN = OperandMajorMode::MN;

// NOTE: 128 x 256 x 64 with 4 stages: 192 KB of stages + 32 KB of epilogue buffers; clusters of
// two CTAs along M share (multicast) each B tile. H200, 2026-11-30, 8192^3 bf16: 683 TFLOP/s with
// the cluster, 473 without (L2-bound: ncu L2 throughput 81%); 128x256x32 in 8 stages: 501.
template <class TA, class TC, OperandMajorMode MA, OperandMajorMode MB, class Epi = epilogue::Identity>
using Wide = GemmPlan<TA, TA, TC, MA, MB, 128, 256, 64, 4, 2, Epi>;

/// 320 columns: each consumer warpgroup's 64 x 320 slab is two n160 wgmma atoms (160 of its
/// registers), and a stage (16 + 40 KB) leaves room for three. Fewer waves where 128 x 256 tiles
/// leave the last one mostly empty (4096 x 14336: 10.9 waves against 13.6), but with three
/// stages each tile is slower (README); choose_gemm_tile does not take it.
using Bf16TN320 = GemmPlan<bf16, bf16, bf16, K, K, 128, 320, 64, 3, 2>;

/// Narrower tiles for problems with few 128 x 256 tiles (chosen by choose_gemm_tile): more
/// stages fill the same shared memory.
using Bf16TN128 = GemmPlan<bf16, bf16, bf16, K, K, 128, 128, 64, 6, 2>;
using Bf16TN64 = GemmPlan<bf16, bf16, bf16, K, K, 128, 64, 64, 8, 2>;
/// The same without clusters, for problems of a single tile row.
using Bf16TN128NoCluster = GemmPlan<bf16, bf16, bf16, K, K, 128, 128, 64, 6, 1>;
using Bf16TN64NoCluster = GemmPlan<bf16, bf16, bf16, K, K, 128, 64, 64, 8, 1>;

/// 112 columns: 14336 / 112 = 128 tiles fill one wave of 132 SMs without split-K. Alone, every
/// CTA reads the same A tile from L2 at once (H200, 2026-11-30, 128x14336x4096: 61 us); in
/// clusters of two CTAs along N, which share (multicast) the A tile, 46.6 us.
using Bf16TN112NoCluster = GemmPlan<bf16, bf16, bf16, K, K, 128, 112, 64, 7, 1>;
using Bf16TN112ClusterN = GemmPlan<bf16, bf16, bf16, K, K, 128, 112, 64, 7, 1, epilogue::Identity,
                                   KernelSchedule::Cooperative, LayoutEnum::RowMajor, 2>;
/// A and B swapped for problems of few rows: 128 columns of C (rows of the swapped product) by
/// Rows rows, C written column-major (= the original row-major C). With ClusterM = 2 the two
/// CTAs take adjacent column blocks and share (multicast) the rows of A.
template <int Rows, int Stages, int ClusterM = 1>
using Bf16TNSwapped = GemmPlan<bf16, bf16, bf16, K, K, 128, Rows, 64, Stages, ClusterM, epilogue::Identity,
                               KernelSchedule::Cooperative, LayoutEnum::ColMajor>;
// NOTE: 16x4096x4096 (H200, 2026-11-30): 10 stages 18.2 us, 12 stages 17.5 us; 64 x 16 tiles
// (PingPong, 20 stages) 18.5 us at best.
using Bf16TNSwap16 = Bf16TNSwapped<16, 12>;
using Bf16TNSwap32 = Bf16TNSwapped<32, 10>;
using Bf16TNSwap64 = Bf16TNSwapped<64, 8>;
/// The sweep's comparison for one tile row of 128: 128 x 128 tiles in pairs sharing A
/// (H200, 2026-11-30, 128x14336x4096: 46.5 us, as 128x112 in pairs along N).
using Bf16TNSwap128c2 = Bf16TNSwapped<128, 6, 2>;

/// PingPong: each consumer warpgroup takes whole 64 x 256 tiles, alternately.
using Bf16TNPingPong =
    GemmPlan<bf16, bf16, bf16, K, K, 64, 256, 64, 4, 2, epilogue::Identity, KernelSchedule::PingPong>;

/// The same tile without clusters: the benchmark's measure of what multicast buys.
using Bf16TNNoCluster = GemmPlan<bf16, bf16, bf16, K, K, 128, 256, 64, 4, 1>;

using Bf16TN = Wide<bf16, bf16, K, K>;
using Bf16NN = Wide<bf16, bf16, MN, K>;
using Bf16TT = Wide<bf16, bf16, K, MN>;
using Bf16NT = Wide<bf16, bf16, MN, MN>;
using F16TN = Wide<f16, f16, K, K>;
using Bf16TNf32 = Wide<bf16, float, K, K>;
/// fp32 out into a column-major C (the epilogue writes it element by element, in two boxes of
/// 32 rows per 64-row slab).
using Bf16TNf32ColMajor = GemmPlan<bf16, bf16, float, K, K, 128, 64, 64, 6, 1, epilogue::Identity,
                                   KernelSchedule::Cooperative, LayoutEnum::ColMajor>;
using Bf16TNRelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::ReLU>>;
using Bf16TNGelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::GELU>>;
using Bf16TNSilu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::SiLU>>;

}  // namespace cute_cpp::examples::plans

namespace cute_cpp::examples {

/// f(arguments rebound to the bf16 TN plan choose_gemm_tile picks for the shape, or swapped
/// into a swapped plan).
template <class F>
decltype(auto) with_chosen_plan(GemmArguments<plans::Bf16TN> const& args, F&& f) {
  static int const sms = host::multiprocessor_count();
  switch (choose_gemm_tile(args.m, args.n, sms)) {
    case GemmTile::n256: break;
    case GemmTile::n128: return f(rebind_arguments<plans::Bf16TN128>(args));
    case GemmTile::n64: return f(rebind_arguments<plans::Bf16TN64>(args));
    case GemmTile::n256c1: return f(rebind_arguments<plans::Bf16TNNoCluster>(args));
    case GemmTile::n128c1: return f(rebind_arguments<plans::Bf16TN128NoCluster>(args));
    case GemmTile::n112cn2: return f(rebind_arguments<plans::Bf16TN112ClusterN>(args));
    case GemmTile::n64c1: return f(rebind_arguments<plans::Bf16TN64NoCluster>(args));
    case GemmTile::swap16: return f(swap_ab_arguments<plans::Bf16TNSwap16>(args));
    case GemmTile::swap32: return f(swap_ab_arguments<plans::Bf16TNSwap32>(args));
    case GemmTile::swap64: return f(swap_ab_arguments<plans::Bf16TNSwap64>(args));
  }
  return f(args);
}

/// bf16 C = A B (A K-major, B K-major) with the tile choose_gemm_tile picks for the shape.
void run_gemm_bf16_tn(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream);
/// The split-K workspace run_gemm_bf16_tn needs for `args`.
std::size_t gemm_bf16_tn_workspace_bytes(GemmArguments<plans::Bf16TN> const& args);

}  // namespace cute_cpp::examples
