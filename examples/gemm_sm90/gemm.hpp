// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the Hopper GEMM: the plan type, the arguments, and run_gemm, declared
// here and instantiated in the *_sm90.cu files, so host code includes no kernel.
//   C[m, n] = epilogue(sum_k A[m, k] B[k, n], m, n)
// A is M x K: K-major = row-major (lda >= K), MN-major = column-major (lda >= M).
// B is K x N: K-major = column-major (ldb >= K), MN-major = row-major (ldb >= N).
// C is M x N, row-major (ldc >= N) or, with LayoutEnum::ColMajor, column-major (ldc >= M).
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/epilogue/stream_k_fixup.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>  // offsetof
#include <cstdint>
#include <type_traits>

namespace cute_cpp::examples {

using cute_cpp::OperandMajorMode;

/// How the two consumer warpgroups share the work (CuTeDSL / CUTLASS: the kernel schedule).
/// Cooperative: both take halves of every tile. PingPong: each takes whole tiles, alternately,
/// so one warpgroup's epilogue overlaps the other's main loop.
enum class KernelSchedule { Cooperative, PingPong };

/// Everything static about one GEMM kernel; run_gemm<Plan> launches it.
/// ClusterM CTAs along M share each B tile: each loads 1/ClusterM of it and multicasts it;
/// ClusterN CTAs along N share each A tile the same way (a cluster has at most two CTAs).
template <class TA_, class TB_, class TC_, OperandMajorMode MajorA, OperandMajorMode MajorB, int BM, int BN,
          int BK, int Stages, int ClusterM = 1, class Epilogue_ = epilogue::Identity,
          KernelSchedule Schedule = KernelSchedule::Cooperative, LayoutEnum LayoutC = LayoutEnum::RowMajor,
          int ClusterN = 1>
struct GemmPlan {
  using TA = TA_;
  using TB = TB_;
  using TC = TC_;
  using Epilogue = Epilogue_;
  static constexpr OperandMajorMode major_a = MajorA, major_b = MajorB;
  static constexpr LayoutEnum layout_c = LayoutC;
  static constexpr int block_m = BM, block_n = BN, block_k = BK, stages = Stages;
  static constexpr int cluster_m = ClusterM, cluster_n = ClusterN;
  static_assert(ClusterM >= 1 && ClusterN >= 1 && ClusterM * ClusterN <= 2,
                "cute-cpp [gemm.cluster]: clusters of 1 or 2 CTAs, along M or along N");
  static constexpr int consumer_warpgroups = 2;
  static constexpr bool pingpong = Schedule == KernelSchedule::PingPong;
  static constexpr int threads = 128 * (1 + consumer_warpgroups);
  /// Narrow tiles are fed by memory, not wgmma, and three stages are too few to keep a wgmma
  /// group in flight: their consumers wait for each stage's wgmmas and release it at once, so one
  /// more stage is in flight.
  /// NOTE (H200, 2026-11-30): 128x14336x4096 in 128x112 tiles 42.6 -> 41.3 us; 16x4096x4096 in
  /// swapped 128x16 tiles 17.4 -> 17.6 us (no change); 8192^3 in 128x320 tiles (3 stages)
  /// 0.95x -> 0.98x of cuBLAS (two runs each).
  static constexpr bool release_at_once = !pingpong && (BN <= 112 || Stages <= 3);
  /// Warpgroups that share one tile, and the rows each of them takes.
  static constexpr int tile_warpgroups = pingpong ? 1 : consumer_warpgroups;
  static constexpr int rows_per_warpgroup = BM / tile_warpgroups;
  static_assert(rows_per_warpgroup % 64 == 0,
                "cute-cpp [gemm.tile-m]: each consumer warpgroup takes a multiple of 64 rows of a tile");

  /// K-major rows are BK elements: the widest swizzle they fill (128 bytes, or 64 / 32 for short K).
  static constexpr int k_swizzle_a = BK * int(sizeof(TA)) >= 128 ? 128 : BK * int(sizeof(TA));
  static constexpr int k_swizzle_b = BK * int(sizeof(TB)) >= 128 ? 128 : BK * int(sizeof(TB));
  using ASmem = std::conditional_t<MajorA == OperandMajorMode::K, SmemKMajor<TA, BM, BK, k_swizzle_a>,
                                   SmemMNMajor<TA, BM, BK>>;
  using BSmem = std::conditional_t<MajorB == OperandMajorMode::K, SmemKMajor<TB, BN, BK, k_swizzle_b>,
                                   SmemMNMajor<TB, BN, BK>>;
  /// The parts of the A and B tiles one CTA of the cluster loads (and multicasts to all of them).
  using ASmemLoad = std::conditional_t<MajorA == OperandMajorMode::K, SmemKMajor<TA, BM / ClusterN, BK, k_swizzle_a>,
                                       SmemMNMajor<TA, BM / ClusterN, BK>>;
  using BSmemLoad = std::conditional_t<MajorB == OperandMajorMode::K, SmemKMajor<TB, BN / ClusterM, BK, k_swizzle_b>,
                                       SmemMNMajor<TB, BN / ClusterM, BK>>;
  using Mma = sm90::WgmmaTiledMma<TA, TB, float, sm90::AOperand<ASmem>, sm90::BOperand<BSmem>, rows_per_warpgroup / 64, BN>;
  using Epi = sm90::EpilogueTmaStore<TC, BN, /*BarrierId=*/1, LayoutC>;
  /// fp32 accumulators a consumer thread holds.
  static constexpr int accumulators = Mma::atoms_m * Mma::acc_per_atom;
  /// The epilogue of a whole tile (no split) stores the first chunks of its 16-bit row-major
  /// slab at once and keeps the rest packed in registers, stored a chunk per K block of the next
  /// tile while its wgmmas run.
  static constexpr bool overlap_epilogue = !pingpong && LayoutC == LayoutEnum::RowMajor && sizeof(TC) == 2 &&
                                           rows_per_warpgroup == 64 && BN == 256;
  /// The chunks stored at once. NOTE: with 3 or 4 kept packed beside the next tile's 128
  /// accumulators, the consumers spill (40 or 104 bytes at 232 registers).
  static constexpr int overlap_first_chunk = 2;
  /// Per-thread registers (setmaxnreg) of the producer and consumer warpgroups. The overlapped
  /// epilogue's packed chunks, or more than 128 accumulators, need the consumers' extra 8.
  static constexpr bool wide_consumers = overlap_epilogue || accumulators > 128;
  static constexpr int producer_registers = wide_consumers ? 24 : 40;
  static constexpr int consumer_registers = wide_consumers ? 240 : 232;
  static_assert(producer_registers + consumer_warpgroups * consumer_registers == 3 * 168,
                "cute-cpp [gemm.registers]: the warpgroups' setmaxnreg budgets must share the 3 x 168 registers a "
                "thread that one 384-thread CTA per SM has");
  /// Whether the kernel has stream-K's fixup. NOTE: beside more than 128 accumulators (the
  /// 128x320 plan) its code leaves the consumers short of registers (ptxas spilled 8 bytes).
  static constexpr bool stream_k = accumulators <= 128;
  /// float4 loads in flight per thread in split-K's reduction: 4 beside more than 128
  /// accumulators (8 spill there).
  static constexpr int split_k_in_flight = accumulators > 128 ? 4 : 8;
  /// Named barriers of split-K's reduction, one per consumer warpgroup (after the epilogue's).
  static constexpr int split_k_barrier = 1 + consumer_warpgroups;
  static_assert(diag::named_barrier_plan<split_k_barrier + consumer_warpgroups - 1, 128>::ok);
  /// PingPong: the named barriers that hand the main loop from one warpgroup to the other.
  static constexpr int turn_barrier = split_k_barrier + consumer_warpgroups;
  static_assert(diag::named_barrier_plan<turn_barrier + 1, 256>::ok);
  static constexpr std::uint32_t a_bytes = size_in_bytes<TA, ASmem>();
  static constexpr std::uint32_t b_bytes = size_in_bytes<TB, BSmem>();
  // NOTE: a stage is released by the consumer warps (of the warpgroups sharing its tile) of every
  // CTA its A or B part was multicast to.
  using Pipeline = PipelineTmaAsync<Stages, tile_warpgroups * 4 * ClusterM * ClusterN, a_bytes + b_bytes>;
  using MapA = TensorMap<TA, ASmemLoad>;
  using MapB = TensorMap<TB, BSmemLoad>;
  using MapC = typename Epi::Map;

  struct SharedStorage {
    struct alignas(1024) Stage {
      TA a[a_bytes / sizeof(TA)];
      TB b[b_bytes / sizeof(TB)];
    };
    Stage stage[Stages];
    typename Epi::SharedStorage epilogue[consumer_warpgroups];
    typename Pipeline::SharedStorage barriers;
    std::uint32_t split_k_flag[consumer_warpgroups];
  };
  /// Dynamic shared memory to ask for: the storage plus slack to align it to 1024 bytes.
  static constexpr std::size_t smem_bytes = sizeof(SharedStorage) + 1024;
  static_assert(diag::smem_tma_buffer_alignment<offsetof(SharedStorage, stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<a_bytes, MapB::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<sizeof(typename SharedStorage::Stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<offsetof(SharedStorage, epilogue), MapC::tile::swizzle_bytes>::ok);
  static_assert(ClusterN * MapA::tile_bytes + ClusterM * MapB::tile_bytes == Pipeline::tx_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  // What verify_plan checks across the plan.
  static constexpr int consumer_warps = tile_warpgroups * 4;
  static constexpr int cluster_size = ClusterM * ClusterN;
  static constexpr int cluster_reach = ClusterM * ClusterN;  ///< CTAs each stage's A or B part is multicast to
};

/// How the work is cut into units (CUTLASS: DecompositionMode). A last wave of whole tiles that
/// only part of the GPU takes leaves the rest idle: SplitK cuts that wave's tiles into K ranges
/// taken by more CTAs; StreamK lays that wave's tiles and one wave more end to end in K and gives
/// every cluster an equal range (epilogue/stream_k_fixup.hpp). Both need a workspace.
enum class Decomposition {
  Heuristic,     ///< with a workspace, what choose_decomposition models fastest; else DataParallel
  DataParallel,  ///< whole tiles
  SplitK,        ///< the last wave's tiles in k_splits K ranges (0: choose_split_k's count)
  StreamK,       ///< needs more cluster tiles than resident clusters
};

/// The run-time half of a GEMM: pointers, leading dimensions, sizes, the epilogue's parameters.
template <class Plan>
struct GemmArguments {
  using plan_type = Plan;
  typename Plan::TA const* a = nullptr;
  std::int64_t lda = 0;
  typename Plan::TB const* b = nullptr;
  std::int64_t ldb = 0;
  typename Plan::TC* c = nullptr;
  std::int64_t ldc = 0;
  std::int64_t m = 0, n = 0, k = 0;
  typename Plan::Epilogue epilogue{};
  /// Tile rows per rasterization group (0: the default); CuTeDSL's max_swizzle_size.
  int raster_group_rows = 0;
  /// How the work is cut; split-K and stream-K take the workspace.
  Decomposition decomposition = Decomposition::Heuristic;
  /// SplitK's K ranges per tile of the last, partial wave (n > 1; 0 chooses). 0 otherwise.
  int k_splits = 0;
  /// Split-K's or stream-K's workspace, at least gemm_workspace_bytes(args) bytes, zeroed once
  /// before its first use (the kernel leaves it zeroed); one GEMM at a time may use it.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

/// The same arguments for another plan of the same element types and epilogue.
template <class To, class From>
GemmArguments<To> rebind_arguments(GemmArguments<From> const& a) {
  static_assert(std::is_same_v<typename To::TA, typename From::TA> && std::is_same_v<typename To::TB, typename From::TB> &&
                std::is_same_v<typename To::TC, typename From::TC> &&
                std::is_same_v<typename To::Epilogue, typename From::Epilogue>);
  GemmArguments<To> r;
  r.a = a.a, r.lda = a.lda, r.b = a.b, r.ldb = a.ldb, r.c = a.c, r.ldc = a.ldc;
  r.m = a.m, r.n = a.n, r.k = a.k;
  r.epilogue = a.epilogue;
  r.raster_group_rows = a.raster_group_rows;
  r.decomposition = a.decomposition;
  r.k_splits = a.k_splits;
  r.workspace = a.workspace, r.workspace_bytes = a.workspace_bytes;
  return r;
}

/// C = A B computed as C^T = B^T A^T: the same arguments for a plan `To` whose A is From's B and
/// whose B is From's A, writing C in the other layout. The epilogue must not depend on the
/// coordinates (it would see them swapped).
template <class To, class From>
GemmArguments<To> swap_ab_arguments(GemmArguments<From> const& a) {
  static_assert(std::is_same_v<typename To::TA, typename From::TB> && std::is_same_v<typename To::TB, typename From::TA> &&
                std::is_same_v<typename To::TC, typename From::TC> && To::major_a == From::major_b &&
                To::major_b == From::major_a && To::layout_c != From::layout_c,
                "cute-cpp [gemm.swap-ab]: the swapped plan's A, B and C must be the original's B, A and C transposed");
  static_assert(std::is_same_v<typename To::Epilogue, epilogue::Identity> &&
                std::is_same_v<typename From::Epilogue, epilogue::Identity>,
                "cute-cpp [gemm.swap-ab]: swapping A and B transposes the epilogue's coordinates; only Identity is swapped");
  GemmArguments<To> r;
  r.a = a.b, r.lda = a.ldb, r.b = a.a, r.ldb = a.lda, r.c = a.c, r.ldc = a.ldc;
  r.m = a.n, r.n = a.m, r.k = a.k;
  r.raster_group_rows = a.raster_group_rows;
  r.decomposition = a.decomposition;
  r.k_splits = a.k_splits;
  r.workspace = a.workspace, r.workspace_bytes = a.workspace_bytes;
  return r;
}

/// The split of the work: `splits` K ranges for each of the last `split_tiles` cluster tiles.
struct SplitKChoice {
  int splits = 1;
  std::int64_t split_tiles = 0;
};

/// The time to write or read one tile's fp32 partial sums, in tile times: about 256 / K, since
/// they move at the L2 rate per SM while the tile's products need 2K flops per output at the
/// wgmma rate.
constexpr double partial_pass(int k_blocks, int block_k) { return 256.0 / double(std::int64_t(k_blocks) * block_k); }

/// Split-K for `units` cluster tiles of `k_blocks` K blocks (of `block_k` elements) on
/// `clusters` resident clusters; `requested` as GemmArguments::k_splits. Only the tiles of the
/// last, partial wave are split: into the number of ranges that minimises the modelled time of
/// that wave (waves of the shorter units, plus writing one partial and reading `splits`).
constexpr SplitKChoice choose_split_k(std::int64_t units, std::int64_t clusters, int k_blocks, int block_k,
                                      int requested) {
  std::int64_t const tail = units <= clusters ? units : units % clusters;
  if (requested == 1 || tail == 0) return {};
  if (requested > 1) return {requested, tail};
  double const pass = partial_pass(k_blocks, block_k);
  SplitKChoice best;
  double best_time = 1.0;
  for (int s = 2; s <= 8 && k_blocks / s >= 2; ++s) {
    double const waves = double((tail * s + clusters - 1) / clusters);
    double const time = waves / s + double(1 + s) * pass;
    if (time < best_time - 0.02) {
      best = {s, tail};
      best_time = time;
    }
  }
  return best;
}

/// The decomposition of the work: SplitK's `splits` K ranges for each of the last `split_tiles`
/// cluster tiles, or StreamK's first `stream_k_tiles` cluster tiles shared out in K.
struct WorkDecomposition {
  Decomposition mode = Decomposition::DataParallel;
  SplitKChoice split;
  std::int64_t stream_k_tiles = 0;
};

/// Stream-K for `units` cluster tiles on `clusters` resident clusters (units > clusters): the
/// tiles of the last, partial wave and of one whole wave before it, so that every cluster's
/// range is at least one tile long (a tile then meets at most two ranges).
constexpr std::int64_t stream_k_tiles(std::int64_t units, std::int64_t clusters) {
  return units % clusters + clusters;
}

/// The decomposition for `units` cluster tiles of `k_blocks` K blocks (of `block_k` elements) on
/// `clusters` resident clusters, as asked (`stream_k`: whether the plan has it). Heuristic:
/// - one partial wave (units <= clusters): split-K as choose_split_k models it;
/// - a partial last wave after whole ones: stream-K, where its time for that wave (the wave's
///   share per cluster, two partial passes and 0.1 of a tile for the rest) beats the whole
///   wave's 1 by 0.02; else whole tiles. Never split-K there: its tail ran slower than whole
///   tiles.
/// NOTE (H200, 2026-11-30, --decomposition-sweep at 1a4fc0f, two rounds, ratio to cuBLAS,
/// 128x256 tiles in pairs; the gemm_sm90 README has a later run): whole / split-K / stream-K:
/// 4096x14336x4096 0.988, 0.984 / 0.973, 0.974 / 1.013, 1.002; 8192^3 1.022, 1.018 / 1.021,
/// 1.026 / 1.044, 1.050; 6144^3 0.989, 0.994 / 0.931, 0.928 / 1.000, 1.018; 8192x1536x8192
/// 0.980, 0.977 / 0.980, 0.978 / 0.957, 0.963; 4096^3 0.987, 0.991 / 0.987, 0.992 / 0.966, 0.970.
constexpr WorkDecomposition choose_decomposition(std::int64_t units, std::int64_t clusters, int k_blocks, int block_k,
                                                 Decomposition asked, int k_splits, bool stream_k = true) {
  WorkDecomposition d;
  switch (asked) {
    case Decomposition::DataParallel: return d;
    case Decomposition::SplitK:
      d.split = choose_split_k(units, clusters, k_blocks, block_k, k_splits);
      if (d.split.splits > 1) d.mode = Decomposition::SplitK;
      return d;
    case Decomposition::StreamK:
      d.mode = Decomposition::StreamK;
      d.stream_k_tiles = stream_k_tiles(units, clusters);
      return d;
    case Decomposition::Heuristic: break;
  }
  if (units <= clusters) return choose_decomposition(units, clusters, k_blocks, block_k, Decomposition::SplitK, 0);
  std::int64_t const tail = units % clusters;
  double const time = double(tail) / double(clusters) + 2 * partial_pass(k_blocks, block_k) + 0.1;
  if (stream_k && tail > 0 && time < 0.98)
    return choose_decomposition(units, clusters, k_blocks, block_k, Decomposition::StreamK, 0);
  return d;
}

/// Checks the arguments (std::invalid_argument naming the rule), encodes the TMA descriptors
/// and launches the persistent kernel on `stream`. Defined in gemm_sm90.cuh.
template <class Plan>
void run_gemm(GemmArguments<Plan> const& args, cudaStream_t stream);

/// The workspace bytes split-K needs for these arguments (0 when it splits nothing).
template <class Plan>
std::size_t gemm_workspace_bytes(GemmArguments<Plan> const& args);

/// The tiles the heuristic chooses among: 128 rows, N columns, in 2-CTA clusters along M (c2),
/// along N (cn2) or alone (c1); swapN: A and B swapped (C^T = B^T A^T), 128 columns of C by N
/// rows, alone.
enum class GemmTile { n256, n128, n64, n256c1, n128c1, n112cn2, n64c1, swap16, swap32, swap64 };

/// The tile for an m x n problem on `ctas` resident CTAs: the one whose waves are fullest,
/// weighted by how efficiently a tile of that width uses L2 and shared-memory bandwidth.
/// A problem of at most 64 rows swaps A and B, so that N fills wgmma's 64-row side and M
/// (rounded up to 16, 32 or 64) its N side: a 128-row tile would multiply mostly zeros.
/// A problem of one tile row takes no cluster along M (its second CTA would have no rows): a
/// width whose tiles fill at least 90% of one wave if there is one (no split-K then; 112
/// columns go in pairs along N that share A), else the widest tile without a cluster that
/// still gives every fifth CTA a tile, since there the A tile is re-read for every tile, so
/// wide tiles pay, and split-K fills the GPU.
/// NOTE: the weights are rough (per-tile efficiency of 128 x N tiles, H200, 2026-11-30:
/// wide tiles are L2-bound at 473 TFLOP/s without multicast, so narrower ones lose more).
/// One tile row (H200, 2026-11-30, --split-sweep, 256-byte L2 promotion): 128x14336x4096:
/// 128x256 tiles 49-53 us, 128x128 57-58 us, 128x64 80 us, 128x112 alone 61 us, 128x112 in
/// pairs along N 46.6 us (41.3 us with today's promotion and stage release).
constexpr GemmTile choose_gemm_tile(std::int64_t m, std::int64_t n, int ctas) {
  if (m <= 64) return m <= 16 ? GemmTile::swap16 : m <= 32 ? GemmTile::swap32 : GemmTile::swap64;
  if (m <= 128) {
    struct Width {
      GemmTile tile;
      std::int64_t width;
    };
    for (Width const w : {Width{GemmTile::n256c1, 256}, Width{GemmTile::n128c1, 128}, Width{GemmTile::n112cn2, 112}}) {
      std::int64_t const tiles = (n + w.width - 1) / w.width;
      if (tiles <= ctas && tiles * 10 >= std::int64_t(ctas) * 9) return w.tile;
    }
    if ((n + 255) / 256 * 5 >= ctas) return GemmTile::n256c1;
    if ((n + 127) / 128 * 5 >= ctas) return GemmTile::n128c1;
    return GemmTile::n64c1;
  }
  struct Candidate {
    GemmTile tile;
    std::int64_t width;
    double efficiency;
  };
  Candidate const candidates[] = {{GemmTile::n256, 256, 1.0}, {GemmTile::n128, 128, 0.85}, {GemmTile::n64, 64, 0.6}};
  GemmTile best = candidates[0].tile;
  double best_score = -1.0;
  for (auto const& c : candidates) {
    std::int64_t const tiles = ((m + 127) / 128) * ((n + c.width - 1) / c.width);
    std::int64_t const waves = (tiles + ctas - 1) / ctas;
    double const score = double(tiles) / double(waves * ctas) * c.efficiency;
    if (score > best_score + 1e-9) {
      best = c.tile;
      best_score = score;
    }
  }
  return best;
}

}  // namespace cute_cpp::examples
