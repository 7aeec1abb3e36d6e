// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The GEMM plans the kernels build (each explicitly instantiated in a *_sm90.cu file): the dense
// bf16 / fp16 tile families, the fused-epilogue and grouped plans, the instantiation lists, and
// the dense dispatch (with_tile_plan, choose_gemm_plan, run_gemm_auto); the FP8 plans in
// plans_fp8.hpp.
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/gemm_tile_table.hpp>
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans_fp8.hpp>  // the FP8 plans

#include <cute_cpp/host/target_check.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

namespace cute_cpp::kernels::plans {

using bf16 = __nv_bfloat16;
using f16 = __half;
constexpr auto K = OperandMajorMode::K;
constexpr auto MN = OperandMajorMode::MN;
using epilogue::Identity;

/// 128 x 256 x 64 in 4 stages (192 KB of stages + 32 KB of output buffers), in clusters of two
/// CTAs along M that share (multicast) each B tile: without the cluster the tile is bound by L2
/// (README: measurements).
template <class TA, class TC, OperandMajorMode MA, OperandMajorMode MB, class Op = Identity>
using Wide = GemmPlan<TA, TA, TC, GemmConfig{.stages = 4, .cluster_m = 2, .major_a = MA, .major_b = MB}, Op>;

/// 320 columns: each consumer warpgroup's 64 x 320 slab is two n160 wgmma atoms (160 of its
/// registers), and a stage (16 + 40 KB) leaves room for three. Fewer waves where 128 x 256 tiles
/// leave the last one mostly empty (4096 x 14336: 10.9 waves against 13.6), but with three
/// stages each tile is slower (README); choose_gemm_tile does not take it.
using Bf16TN320 = GemmPlan<bf16, bf16, bf16, GemmConfig{.block_n = 320, .stages = 3, .cluster_m = 2}>;

/// The tiles the heuristic and the tuner choose among (GemmTile) for one element type and operand
/// layout, C row-major in T. Narrower tiles for problems with few 128 x 256 ones: more stages
/// fill the same shared memory; without clusters for a single tile row.
/// 112 columns: 14336 / 112 = 128 tiles fill one wave of 132 SMs without split-K. Alone, every
/// CTA reads the same A tile from L2 at once; in clusters of two CTAs along N, which share
/// (multicast) the A tile, a quarter faster (README).
/// swapN: A and B swapped for problems of few rows: 128 columns of C (rows of the swapped
/// product) by N rows, C written column-major (= the original row-major C); 12 stages for 16
/// rows, the deepest pipeline that fits (README: the stage sweep).
/// NOTE: an M/N-major operand is loaded in boxes of whole 128-byte swizzle rows, 64 elements: the
/// tiles whose M/N-major part is narrower (n64 in pairs, n112cn2, swap16, swap32) are not built
/// for that layout; `has` says which are, and `nearest` what stands in.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
struct TileFamily {
  using n256 = Wide<T, T, MA, MB>;
  using n128 = GemmPlan<T, T, T, GemmConfig{.block_n = 128, .stages = 6, .cluster_m = 2, .major_a = MA, .major_b = MB}>;
  using n64 = GemmPlan<T, T, T, GemmConfig{.block_n = 64, .stages = 8, .cluster_m = 2, .major_a = MA, .major_b = MB}>;
  using n256c1 = GemmPlan<T, T, T, GemmConfig{.stages = 4, .major_a = MA, .major_b = MB}>;
  using n128c1 = GemmPlan<T, T, T, GemmConfig{.block_n = 128, .stages = 6, .major_a = MA, .major_b = MB}>;
  using n112cn2 =
      GemmPlan<T, T, T, GemmConfig{.block_n = 112, .stages = 7, .cluster_n = 2, .major_a = MA, .major_b = MB}>;
  using n64c1 = GemmPlan<T, T, T, GemmConfig{.block_n = 64, .stages = 8, .major_a = MA, .major_b = MB}>;
  /// 64 rows: M in steps of 64 where a 128-row tile would leave most of its last one empty (272
  /// rows run as 384 in 128-row tiles, as 320 here); a candidate the dispatch does not take yet.
  using n256m64 = GemmPlan<T, T, T,
                           GemmConfig{.block_m = 64, .stages = 4, .cluster_m = 2, .major_a = MA, .major_b = MB,
                                      .schedule = KernelSchedule::PingPong}>;
  /// In pairs along N that share (multicast) the A tile: M pads to 128 rows where n256's pairs along
  /// M pad it to 256 (537 rows run as 640, not 768), for a quarter more L2 reads a CTA than n256's
  /// (64 + 256 rows a K block against 128 + 128).
  using n256cn2 = GemmPlan<T, T, T, GemmConfig{.stages = 4, .cluster_n = 2, .major_a = MA, .major_b = MB}>;
  /// The stages of a swapped tile of `rows` x `cols` (of C): as many (at most `most`) as fit 224 KB
  /// beside its output buffers (two chunks of 64 rows a consumer warpgroup, the column-major
  /// epilogue's chunk).
  static constexpr int swapped_stages_fitting(int rows, int cols, int most) {
    int const stage_bytes = (cols + rows) * 64 * int(sizeof(T));
    int const output_bytes = 2 * 2 * sm90::detail::column_major_chunk_cols(rows) * 64 * int(sizeof(T));
    return std::min(most, (224 * 1024 - output_bytes) / stage_bytes);
  }
  /// The wide swapped tiles' stages: at most 8.
  static constexpr int wide_swapped_stages(int rows, int cols = 128) { return swapped_stages_fitting(rows, cols, 8); }
  /// A swapped tile's stages: swap16 to swap64 as measured (12, 10, 8: the deepest pipelines that
  /// fit, README's stage sweep); the wide ones wide_swapped_stages.
  static constexpr int swapped_stages(SwappedShape s) {
    if (s.rows <= 64) return s.rows == 16 ? 12 : s.rows == 32 ? 10 : 8;
    return wide_swapped_stages(s.rows, s.cols);
  }
  /// A swapped tile's plan (its shape: swapped_tile_shapes), C^T = B^T A^T: the weights' rows are
  /// the plan's M (S.cols of them a tile), C's rows its N (S.rows), C written column-major (= the
  /// caller's row-major C). The tiles, by kind:
  /// - swap16 to swap64: 128 columns of C by 16-64 rows, for problems of few rows.
  /// - swap80 to swap160: all of C's rows in one tile where 128-row tiles would multiply 1.6 times
  ///   as many or more (80 or 129-160 rows); swap96cn2 to swap160cn2: in pairs along C's rows that
  ///   share (multicast) the weights' tile.
  /// - swap128c2 to swap256c2: 128-256 rows, in pairs along C's columns that share the rows' tile
  ///   (at 160 rows 7% fewer L2 reads than the cn2 pairs), so that a few hundred rows split into
  ///   two or three tiles padding little (537 rows: 3 x 192 where 128-row pairs run 768);
  ///   swap96c2cn2 to swap224c2cn2: in 2 x 2 clusters, each CTA loading a quarter of a pair's bytes.
  /// - swap144x256cn2 to swap160x256c2: 256 columns, two 64-row wgmma atoms a consumer warpgroup, a
  ///   few hundred rows in tiles of 144 or 160 (428 rows: 3 x 144), each loading 1.3 times the
  ///   products a byte of 128-column ones (cuBLAS's 256 x 136-160 tiles at such rows of 4096-128256
  ///   columns, seen under torch's profiler); their 144-160 accumulators a thread leave no registers
  ///   for stream-K's fixup.
  /// Past swap64, K-major A and B only (has).
  template <SwappedShape S>
  using SwappedPlan = GemmPlan<T, T, T, GemmConfig{.block_m = S.cols, .block_n = S.rows, .stages = swapped_stages(S),
                                                   .cluster_m = S.along_cols, .cluster_n = S.along_rows, .major_a = MB,
                                                   .major_b = MA, .layout_c = LayoutEnum::ColMajor}>;
  /// The plan of the swapped tile `Tile`.
  template <GemmTile Tile>
  using swapped_plan = SwappedPlan<swapped_shape(Tile)>;
  using swap16 = swapped_plan<GemmTile::swap16>;
  using swap32 = swapped_plan<GemmTile::swap32>;
  using swap64 = swapped_plan<GemmTile::swap64>;
  using simt = SimtGemmPlan<T, T, MA, MB>;

  /// Whether `tile` is built for this layout (the NOTE above).
  static constexpr bool has(GemmTile tile) {
    switch (tile) {
      case GemmTile::n64:
      case GemmTile::n112cn2: return MB == OperandMajorMode::K;
      case GemmTile::swap16:
      case GemmTile::swap32: return MA == OperandMajorMode::K;
      case GemmTile::n256m64:
      case GemmTile::n256cn2: return MA == OperandMajorMode::K && MB == OperandMajorMode::K;  // a linear layer's
      default:
        return !wide_swapped(tile) || (MA == OperandMajorMode::K && MB == OperandMajorMode::K);
    }
  }
  /// `tile`, or the built tile closest to it.
  static constexpr GemmTile nearest(GemmTile tile) {
    if (has(tile)) return tile;
    switch (tile) {
      case GemmTile::n64: return GemmTile::n64c1;
      case GemmTile::n112cn2: return GemmTile::n128c1;
      case GemmTile::n256m64:
      case GemmTile::n256cn2: return GemmTile::n256;
      default: return wide_swapped(tile) ? GemmTile::n256 : GemmTile::swap64;
    }
  }
};

using Bf16TN128 = TileFamily<bf16, K, K>::n128;
using Bf16TN64 = TileFamily<bf16, K, K>::n64;
using Bf16TN128NoCluster = TileFamily<bf16, K, K>::n128c1;
using Bf16TN64NoCluster = TileFamily<bf16, K, K>::n64c1;
using Bf16TN112NoCluster = GemmPlan<bf16, bf16, bf16, GemmConfig{.block_n = 112, .stages = 7}>;
using Bf16TN112ClusterN = TileFamily<bf16, K, K>::n112cn2;
using Bf16TNSwap16 = TileFamily<bf16, K, K>::swap16;
using Bf16TNSwap32 = TileFamily<bf16, K, K>::swap32;
using Bf16TNSwap64 = TileFamily<bf16, K, K>::swap64;
/// The sweep's comparison for one tile row of 128: 128 x 128 tiles in pairs sharing A.
using Bf16TNSwap128c2 = TileFamily<bf16, K, K>::swapped_plan<GemmTile::swap128c2>;

/// CUDA cores for the smallest problems (choose_gemm_tile), where the tensor-core kernel's fixed
/// costs are most of the time.
using Bf16TNSimt = TileFamily<bf16, K, K>::simt;
using Bf16NTSimt = SimtGemmPlan<bf16, bf16, MN, MN>;  ///< the loads of MN-major operands (checked)
/// f32 C on CUDA cores: a sigmoid MoE router's f32 logits at a token or two, in the skinny GEMV
/// (kernels/moe router_f32_skinny) where the wide f32 tile would stream the router on 6 CTAs.
using Bf16TNf32Simt = SimtGemmPlan<bf16, float, K, K>;

/// PingPong: each consumer warpgroup takes whole 64 x 256 tiles, alternately.
using Bf16TNPingPong = TileFamily<bf16, K, K>::n256m64;

/// The same tile without clusters: the benchmark's measure of what multicast buys.
using Bf16TNNoCluster = TileFamily<bf16, K, K>::n256c1;

using Bf16TN = Wide<bf16, bf16, K, K>;
using Bf16NN = Wide<bf16, bf16, MN, K>;
using Bf16TT = Wide<bf16, bf16, K, MN>;
using Bf16NT = Wide<bf16, bf16, MN, MN>;
using F16TN = Wide<f16, f16, K, K>;
using Bf16TNf32 = Wide<bf16, float, K, K>;
/// fp32 out into a column-major C (the epilogue writes it element by element, in two boxes of
/// 32 rows per 64-row slab).
using Bf16TNf32ColMajor =
    GemmPlan<bf16, bf16, float, GemmConfig{.block_n = 64, .stages = 6, .layout_c = LayoutEnum::ColMajor}>;
/// alpha * A B + beta * S + bias without an activation (cute_cpp_gemm_bf16_epilogue's "none").
using Bf16TNLinear = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16>>;
using Bf16TNRelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::ReLU>>;
using Bf16TNGelu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::GELU>>;
using Bf16TNSilu = Wide<bf16, bf16, K, K, epilogue::LinearCombination<bf16, epilogue::SiLU>>;
/// silu(gate) * up of a B that interleaves gate and up columns (the fused gate-up projection of
/// an FFN): 128 x 128 of C per 128 x 256 tile.
using Bf16TNSwiGLU = Wide<bf16, bf16, K, K, epilogue::SwiGLU>;

using Bf16TNSwiGLUToFp8 = Wide<bf16, e4m3, K, K, epilogue::SwiGLU>;

/// Grouped (MoE experts; run_grouped_gemm): 128 x 256 tiles without clusters (the two tile rows of
/// a cluster along M may belong to different groups, with different B), and the fused gate-up
/// projection of the experts' FFN with the SwiGLU epilogue.
using Bf16Grouped = GemmPlan<bf16, bf16, bf16, GemmConfig{.stages = 4, .grouped = true}>;
using Bf16GroupedSwiGLU = GemmPlan<bf16, bf16, bf16, GemmConfig{.stages = 4, .grouped = true}, epilogue::SwiGLU>;
/// 64-row tiles for groups of few rows (decode, fine-grained experts): half the rows a 128-row
/// tile would waste; PingPong, each consumer warpgroup taking whole tiles in turn.
using Bf16GroupedPingPong =
    GemmPlan<bf16, bf16, bf16, GemmConfig{.block_m = 64, .stages = 4, .schedule = KernelSchedule::PingPong, .grouped = true}>;
using Bf16GroupedPingPongSwiGLU =
    GemmPlan<bf16, bf16, bf16, GemmConfig{.block_m = 64, .stages = 4, .schedule = KernelSchedule::PingPong, .grouped = true},
             epilogue::SwiGLU>;

/// The up projection of non-gated experts with a squared ReLU (Nemotron-H's), in the same two tiles
/// (gemm_grouped_relu2_sm90.cu).
using Bf16GroupedReLU2 =
    GemmPlan<bf16, bf16, bf16, GemmConfig{.stages = 4, .grouped = true}, epilogue::Activated<epilogue::ReLUSquared>>;
using Bf16GroupedPingPongReLU2 =
    GemmPlan<bf16, bf16, bf16, GemmConfig{.block_m = 64, .stages = 4, .schedule = KernelSchedule::PingPong, .grouped = true},
             epilogue::Activated<epilogue::ReLUSquared>>;

/// Every plan the *_sm90.cu files instantiate (keep in step with them).
using Instantiated = GemmPlanList<Bf16TN, Bf16NN, Bf16TT, Bf16NT, Bf16TNNoCluster, Bf16TN128, Bf16TN64, Bf16TN128NoCluster,
                                  Bf16TN64NoCluster, Bf16TNPingPong, Bf16TNLinear, Bf16TNRelu, Bf16TNGelu, Bf16TNSilu, Bf16TNSwiGLU,
                                  Bf16TN112NoCluster, Bf16TN112ClusterN, Bf16TNSwap16, Bf16TNSwap32, Bf16TNSwap64,
                                  Bf16TNSwap128c2, F16TN, Bf16TNf32, Bf16TNf32ColMajor, Bf16TN320>;
/// The grouped plans (gemm_grouped_sm90.cu; tests/gpu/gemm/grouped_gemm_check.cu and bench_gemm run them).
using GroupedInstantiated =
    GemmPlanList<Bf16Grouped, Bf16GroupedSwiGLU, Bf16GroupedPingPong, Bf16GroupedPingPongSwiGLU, Fp8E4M3BlockwiseGrouped,
                 Fp8E4M3BlockwiseGroupedOverlap>;
/// The grouped plans with the squared ReLU (gemm_grouped_relu2_sm90.cu; nemotron_moe_check runs them).
using GroupedReLU2Instantiated = GemmPlanList<Bf16GroupedReLU2, Bf16GroupedPingPongReLU2>;
/// The plans of several GemmPlanLists in one.
template <class... Lists>
struct JoinedPlanLists;
template <class... A>
struct JoinedPlanLists<GemmPlanList<A...>> {
  using type = GemmPlanList<A...>;
};
template <class... A, class... B, class... Rest>
struct JoinedPlanLists<GemmPlanList<A...>, GemmPlanList<B...>, Rest...> {
  using type = typename JoinedPlanLists<GemmPlanList<A..., B...>, Rest...>::type;
};
/// The dense bf16 plans and the grouped ones: what a program running both links (moe_sm90).
using DenseAndGrouped = typename JoinedPlanLists<Instantiated, GroupedInstantiated>::type;
/// The swapped tiles' plans (swapped_tile_shapes) that family F builds.
template <class F, std::size_t... I>
auto built_swapped_plans(std::index_sequence<I...>) ->
    typename JoinedPlanLists<std::conditional_t<F::has(swapped_tile_shapes[I].first),
                                                GemmPlanList<typename F::template swapped_plan<swapped_tile_shapes[I].first>>,
                                                GemmPlanList<>>...>::type;
/// One TileFamily's wgmma plans that are built (TileFamily::has; SIMT is no GemmPlan), as the
/// gemm_auto_*_sm90.cu files instantiate them through run_gemm_choice.
template <class T, OperandMajorMode MA, OperandMajorMode MB, class F = TileFamily<T, MA, MB>>
using FamilyPlans = typename JoinedPlanLists<
    GemmPlanList<typename F::n256, typename F::n128, typename F::n256c1, typename F::n128c1, typename F::n64c1>,
    std::conditional_t<F::has(GemmTile::n64), GemmPlanList<typename F::n64>, GemmPlanList<>>,
    std::conditional_t<F::has(GemmTile::n112cn2), GemmPlanList<typename F::n112cn2>, GemmPlanList<>>,
    std::conditional_t<F::has(GemmTile::n256m64), GemmPlanList<typename F::n256m64, typename F::n256cn2>,
                       GemmPlanList<>>,
    decltype(built_swapped_plans<F>(std::make_index_sequence<std::size(swapped_tile_shapes)>{}))>::type;
/// Every plan the dispatcher (run_gemm_auto, run_gemm_choice) builds: bf16 and fp16, all four
/// operand layouts. What a program that links the GEMM lists for the build report (--kernels).
using AutoInstantiated =
    typename JoinedPlanLists<FamilyPlans<bf16, K, K>, FamilyPlans<bf16, MN, K>, FamilyPlans<bf16, K, MN>,
                             FamilyPlans<bf16, MN, MN>, FamilyPlans<f16, K, K>, FamilyPlans<f16, MN, K>,
                             FamilyPlans<f16, K, MN>, FamilyPlans<f16, MN, MN>>::type;
/// The FP8 plans (gemm_fp8_sm90.cu; tests/gpu/gemm/gemm_fp8_check.cu and bench_gemm run them).
using Fp8Instantiated = GemmPlanList<Fp8E4M3, Fp8E5M2E4M3, Fp8E4M3Blockwise, Fp8E4M3BlockwiseN192, Fp8E4M3BlockwiseToFp8,
                                     Bf16TNSwiGLUToFp8>;

}  // namespace cute_cpp::kernels::plans

namespace cute_cpp::kernels {

/// The arguments of the GEMMs the tile heuristic dispatches: T in and out, the Identity epilogue.
template <class T>
using AutoGemmArguments = GemmProblemArguments<T, T, T, epilogue::Identity>;

namespace detail {
/// on_swapped(std::type_identity<P>{}) for the plan P of the swapped tile `tile`, walking
/// swapped_tile_shapes from entry I at compile time; on_other() where `tile` is none Family builds.
template <class Family, std::size_t I = 0, class OnSwapped, class OnOther>
decltype(auto) with_swapped_plan(GemmTile tile, OnSwapped const& on_swapped, OnOther const& on_other) {
  if constexpr (I == std::size(swapped_tile_shapes)) {
    return on_other();
  } else {
    constexpr GemmTile t = swapped_tile_shapes[I].first;
    if constexpr (Family::has(t)) {
      if (tile == t) return on_swapped(std::type_identity<typename Family::template swapped_plan<t>>{});
    }
    return with_swapped_plan<Family, I + 1>(tile, on_swapped, on_other);
  }
}
}  // namespace detail

/// f(std::type_identity<P>{}, args) for the plan P of `tile` (or the nearest built for the layout:
/// TileFamily::nearest) for T and operand majors MA, MB, or a swapped plan P with the arguments
/// swapped (swap_ab_arguments).
template <OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K, class T, class F>
decltype(auto) with_tile_plan(GemmTile tile, AutoGemmArguments<T> const& args, F&& f) {
  using Family = plans::TileFamily<T, MA, MB>;
  using Home = typename Family::n256;
  auto const on = [&]<class P>(std::type_identity<P> plan) -> decltype(auto) { return f(plan, args); };
  auto const swapped = [&]<class P>(std::type_identity<P> plan) -> decltype(auto) {
    return f(plan, swap_ab_arguments<P, Home>(args));
  };
  GemmTile const built = Family::nearest(tile);
  if (swapped_rows(built) > 0)
    return detail::with_swapped_plan<Family>(built, swapped, [&] { return on(std::type_identity<Home>{}); });
  switch (built) {
    case GemmTile::n128: return on(std::type_identity<typename Family::n128>{});
    case GemmTile::n64:
      if constexpr (Family::has(GemmTile::n64)) return on(std::type_identity<typename Family::n64>{});
      break;
    case GemmTile::n256c1: return on(std::type_identity<typename Family::n256c1>{});
    case GemmTile::n128c1: return on(std::type_identity<typename Family::n128c1>{});
    case GemmTile::n112cn2:
      if constexpr (Family::has(GemmTile::n112cn2)) return on(std::type_identity<typename Family::n112cn2>{});
      break;
    case GemmTile::n64c1: return on(std::type_identity<typename Family::n64c1>{});
    case GemmTile::n256m64:
      if constexpr (Family::has(GemmTile::n256m64)) return on(std::type_identity<typename Family::n256m64>{});
      break;
    case GemmTile::n256cn2:
      if constexpr (Family::has(GemmTile::n256cn2)) return on(std::type_identity<typename Family::n256cn2>{});
      break;
    case GemmTile::simt: return on(std::type_identity<typename Family::simt>{});
    default: break;  // n256, and the swapped tiles above
  }
  return on(std::type_identity<Home>{});
}

/// The mask of gemm_tile_choices choose_from_table may take for an m x n problem (a refit judged against
/// choose_gemm_plan's rules asks it so): all but SIMT's unless the skinny kernel
/// runs it; and where the weights dominate the bytes (17 to 64 rows, n >= 8 m), only a swapped tile
/// that holds every row of C. A narrower one reads the weights once per slice of rows, and a
/// 128-row tile does twice the products or more where the problem is bound by the weights' bytes.
/// NOTE: the table measured no such shape (its nearest are 16-row ones, whose swap16 it then
/// chose: 0.40-0.57x of cuBLAS at 32-64 rows on Qwen3-8B's projections, issue 51); the swapped
/// tile that covers M is what the heuristic alone chose at 8226f06, 0.94-0.97x there.
inline std::uint64_t gemm_table_allowed(bool skinny, std::int64_t m = 0, std::int64_t n = 0) {
  bool const weights_bound = m > 16 && m <= 64 && n >= 8 * m;
  std::uint64_t allowed = ~std::uint64_t{0};
  for (std::size_t c = 0; c < std::size(gemm_tile_choices); ++c) {
    GemmTile const tile = gemm_tile_choices[c].tile;
    bool const covers = swapped_rows(tile) >= m && (m <= 16 || swapped_rows(tile) < 2 * m);
    if ((tile == GemmTile::simt && !skinny) || (weights_bound && !covers)) allowed &= ~(std::uint64_t{1} << c);
  }
  return allowed;
}

/// The most rows of the skinny kernel's short operand (simt_gemv.cuh) for which the dispatch takes
/// it over a swapped tile: on the H100's model-shape probe at cef1614, 3 rows ran at 0.65-0.88 of
/// cuBLASLt in it and 0.91-1.03 in swapped 16-row tiles; 1 row at 1.03 in it (the model-shape sweep).
inline constexpr std::int64_t skinny_dispatch_rows = 2;

/// The tile and cut for an m x n x k problem on `sms` SMs: the skinny kernel (simt_gemv.cuh) where
/// it runs (skinny_short_operand for the operands' major modes) on at most skinny_dispatch_rows
/// rows; with K-major A and B (a linear layer), covering_swapped_tile's (or on small weights
/// small_weights_swapped_tile's), pingpong_wide_tile's, small_weights_paired_tile's,
/// paired_swapped_tile's, small_problem_swapped_tile's or wide_token_tile's tile where one has one
/// (in that order), a pair weighed against 2 x 2 clusters, 256-column pairs and 128 x 256 pairs by
/// fewest_waves_tile (unless the small problem's rule also applies); else choose_gemm_tile's tile
/// with the heuristic's cut.
/// NOTE: the tile table (gemm_tile_table.hpp, fitted on the random shape sweep) is not asked: on
/// the model-shape probe its choices ran at 0.755 of cuBLASLt's geomean, these rules' at 0.846
/// (choose_gemm_tile). It stays as tools/fit_gemm_tiles.py writes it, for a refit to be judged
/// against the rules on held-out shapes.
inline GemmChoice choose_gemm_plan(std::int64_t m, std::int64_t n, std::int64_t k, int sms,
                                   OperandMajorMode major_a = plans::K, OperandMajorMode major_b = plans::K) {
  SkinnyShort const skinny = skinny_short_operand(m, n, k, major_a, major_b);
  std::int64_t const short_rows = skinny == SkinnyShort::a ? m : n;
  if (skinny != SkinnyShort::none && short_rows <= skinny_dispatch_rows)
    return {GemmTile::simt, Decomposition::DataParallel};
  if (major_a == plans::K && major_b == plans::K) {
    if (std::optional<GemmTile> const covering = covering_swapped_tile(m, n, k))
      return {small_weights_swapped_tile(m, n, k, *covering, sms)};
    if (std::optional<GemmTile> const pingpong = pingpong_wide_tile(m, n, k, sms)) return {*pingpong};
    if (std::optional<GemmTile> const narrow = small_weights_paired_tile(m, n, k, sms)) return {*narrow};
    std::optional<GemmTile> const small = small_problem_swapped_tile(m, n, k, sms);
    if (std::optional<GemmTile> const paired = paired_swapped_tile(m, n, k, sms))
      return {small ? *paired : fewest_waves_tile(m, n, *paired, sms)};
    if (small) return {*small};
    if (std::optional<GemmTile> const wide = wide_token_tile(m, n)) return {fewest_waves_tile(m, n, *wide, sms)};
  }
  return {choose_gemm_tile(m, n, k, sms)};
}

/// Plan P's arguments `a` with the cut of `c` where `a` leaves the cut to the heuristic: whole
/// tiles, stream-K, or K splits (at most one per two K blocks; none where K has fewer than four).
template <class P>
GemmArguments<P> cut_as(GemmArguments<P> a, GemmChoice const& c) {
  if (a.decomposition != Decomposition::Heuristic || c.decomposition == Decomposition::Heuristic) return a;
  if constexpr (is_simt_plan_v<P>) return a;  // whole tiles only
  else {
    a.decomposition = c.decomposition;
    if (c.decomposition == Decomposition::SplitK) {
      std::int64_t const half = (a.k + P::block_k - 1) / P::block_k / 2;
      if (half < 2) a.decomposition = Decomposition::Heuristic;
      else a.k_splits = int(std::min<std::int64_t>(c.k_splits, half));
    }
    return a;
  }
}

/// cut_as for a run: the chosen cut only where the workspace holds what it needs (else the
/// heuristic's, which falls back to whole tiles without room).
template <class P>
GemmArguments<P> cut_for_run(GemmArguments<P> const& a, GemmChoice const& c) {
  GemmArguments<P> const cut = cut_as<P>(a, c);
  if (cut.decomposition == a.decomposition) return a;
  std::size_t const need = gemm_workspace_bytes<P>(cut);
  return need == 0 || (cut.workspace != nullptr && need <= cut.workspace_bytes) ? cut : a;
}

/// choose_gemm_plan for args' shape and layout on this device's SMs (asked once); where args ask
/// for stream-K, a tile that has it (stream_k_tile).
template <OperandMajorMode MA, OperandMajorMode MB, class T>
GemmChoice chosen_gemm_plan(AutoGemmArguments<T> const& args) {
  static int const sms = host::multiprocessor_count();
  GemmChoice c = choose_gemm_plan(args.m, args.n, args.k, sms, MA, MB);
  if (args.decomposition == Decomposition::StreamK) c.tile = stream_k_tile(c.tile);
  return c;
}

/// C = A B in T (bf16 or fp16) with A MA-major and B MB-major (C row-major), with the tile
/// choose_gemm_tile picks for the shape, or, with CUTE_CPP_TUNE=1 in the environment, the one
/// the process's GemmTuner measured fastest. Built for bf16 and fp16 and every layout.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_auto(AutoGemmArguments<T> const& args, cudaStream_t stream);
/// The split-K workspace run_gemm_auto needs for `args`.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
std::size_t gemm_auto_workspace_bytes(AutoGemmArguments<T> const& args);
/// run_gemm_auto's GEMM with a given choice: `c`'s tile (TileFamily::nearest for the layout) and,
/// where the arguments leave the cut to the heuristic, its cut (cut_for_run). The tuner's and the
/// benchmarks' way to run any tile of any family.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_choice(GemmChoice const& c, AutoGemmArguments<T> const& args, cudaStream_t stream);
/// The workspace run_gemm_choice needs for `c` and `args`.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
std::size_t gemm_choice_workspace_bytes(GemmChoice const& c, AutoGemmArguments<T> const& args);
/// run_gemm_auto and run_gemm_choice for arguments that passed check_gemm_arguments for MA, MB and
/// a row-major C: for the entry points that check a call's arguments once, before any device query
/// (run_gemm_auto itself, the tuner, the C entry point).
template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_auto_unchecked(AutoGemmArguments<T> const& args, cudaStream_t stream);
template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_choice_unchecked(GemmChoice const& c, AutoGemmArguments<T> const& args, cudaStream_t stream);

// Instantiated in gemm_bf16_sm90.cu alone: without these, every translation unit that sees
// gemm_auto.cuh's definitions would compile the whole bf16 TN tile family again for the two
// inline entry points below (each gemm_auto_*_sm90.cu did, doubling its compile time).
extern template void run_gemm_auto<plans::bf16, plans::K, plans::K>(AutoGemmArguments<plans::bf16> const&,
                                                                     cudaStream_t);
extern template std::size_t gemm_auto_workspace_bytes<plans::bf16, plans::K, plans::K>(
    AutoGemmArguments<plans::bf16> const&);

/// bf16 C = A B with A and B K-major (a linear layer's x W^T): run_gemm_auto's most common case.
inline void run_gemm_bf16_tn(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  run_gemm_auto<plans::bf16, plans::K, plans::K>(args, stream);
}
inline std::size_t gemm_bf16_tn_workspace_bytes(GemmArguments<plans::Bf16TN> const& args) {
  return gemm_auto_workspace_bytes<plans::bf16, plans::K, plans::K>(args);
}

/// Whether a grouped problem takes 64-row tiles: groups of at most 64 rows on average (contiguous)
/// or of that capacity (masked), where a 128-row tile would be mostly empty.
constexpr bool grouped_takes_64_rows(GroupedRows const& rows) {
  return rows.masked() ? rows.capacity <= 64 : rows.rows <= 64 * std::int64_t(rows.groups);
}
/// bf16 grouped C = A B^T (grouped_gemm.hpp), in 64- or 128-row tiles (grouped_takes_64_rows);
/// with `swiglu`, B interleaves gate and up rows and C is silu(gate) * up (epilogue::SwiGLU).
template <bool SwiGLU = false>
using GroupedBf16Arguments = GroupedGemmArguments<std::conditional_t<SwiGLU, plans::Bf16GroupedSwiGLU, plans::Bf16Grouped>>;
template <bool SwiGLU>
void run_grouped_gemm_bf16(GroupedBf16Arguments<SwiGLU> const& args, cudaStream_t stream);
/// The workspace run_grouped_gemm_bf16 needs (that of the 64-row tiles: more tile rows).
template <bool SwiGLU>
std::size_t grouped_gemm_bf16_workspace_bytes(GroupedBf16Arguments<SwiGLU> const& args) {
  return GroupedWorkspaceLayout(args.rows.groups, args.rows.tile_rows(plans::Bf16GroupedPingPong::block_m)).bytes;
}
/// bf16 grouped C = relu(A B^T)^2 (epilogue::ReLUSquared): the up projection of non-gated experts, in
/// 64- or 128-row tiles as run_grouped_gemm_bf16's; its workspace is grouped_gemm_bf16_workspace_bytes'.
using GroupedBf16ReLU2Arguments = GroupedGemmArguments<plans::Bf16GroupedReLU2>;
void run_grouped_gemm_bf16_relu2(GroupedBf16ReLU2Arguments const& args, cudaStream_t stream);
inline std::size_t grouped_gemm_bf16_workspace_bytes(GroupedBf16ReLU2Arguments const& args) {
  return GroupedWorkspaceLayout(args.rows.groups, args.rows.tile_rows(plans::Bf16GroupedPingPongReLU2::block_m)).bytes;
}

}  // namespace cute_cpp::kernels
