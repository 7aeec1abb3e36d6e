// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the Hopper GEMM: the plan type, the arguments, and run_gemm, declared
// here and instantiated in the *_sm90.cu files, so host code includes no kernel.
//   C[m, n] = epilogue(sum_k A[m, k] B[k, n], m, n)
// A is M x K: K-major = row-major (lda >= K), MN-major = column-major (lda >= M).
// B is K x N: K-major = column-major (ldb >= K), MN-major = row-major (ldb >= N).
// C is row-major M x N (ldc >= N).
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/plan/verify_plan.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>  // offsetof
#include <cstdint>
#include <type_traits>

namespace cute_cpp::examples {

using sm90::OperandMajorMode;

/// Everything static about one GEMM kernel; run_gemm<Plan> launches it.
/// ClusterM CTAs along M share each B tile: each loads 1/ClusterM of it and multicasts it.
template <class TA_, class TB_, class TC_, OperandMajorMode MajorA, OperandMajorMode MajorB, int BM, int BN,
          int BK, int Stages, int ClusterM = 1, class Epilogue_ = epilogue::Identity>
struct GemmPlan {
  using TA = TA_;
  using TB = TB_;
  using TC = TC_;
  using Epilogue = Epilogue_;
  static constexpr OperandMajorMode major_a = MajorA, major_b = MajorB;
  static constexpr int block_m = BM, block_n = BN, block_k = BK, stages = Stages, cluster_m = ClusterM;
  static_assert(ClusterM == 1 || ClusterM == 2, "cute-cpp [gemm.cluster]: clusters of 1 or 2 CTAs along M");
  static constexpr int consumer_warpgroups = 2;
  static constexpr int threads = 128 * (1 + consumer_warpgroups);
  static constexpr int rows_per_warpgroup = BM / consumer_warpgroups;
  static_assert(rows_per_warpgroup % 64 == 0,
                "cute-cpp [gemm.tile-m]: each consumer warpgroup takes a multiple of 64 rows: BM % 128 == 0");

  /// K-major rows are BK elements: the widest swizzle they fill (128 bytes, or 64 / 32 for short K).
  static constexpr int k_swizzle_a = BK * int(sizeof(TA)) >= 128 ? 128 : BK * int(sizeof(TA));
  static constexpr int k_swizzle_b = BK * int(sizeof(TB)) >= 128 ? 128 : BK * int(sizeof(TB));
  using ASmem = std::conditional_t<MajorA == OperandMajorMode::K, SmemKMajor<TA, BM, BK, k_swizzle_a>,
                                   SmemMNMajor<TA, BM, BK>>;
  using BSmem = std::conditional_t<MajorB == OperandMajorMode::K, SmemKMajor<TB, BN, BK, k_swizzle_b>,
                                   SmemMNMajor<TB, BN, BK>>;
  /// The part of the B tile one CTA of the cluster loads (and multicasts to all of them).
  using BSmemLoad = std::conditional_t<MajorB == OperandMajorMode::K, SmemKMajor<TB, BN / ClusterM, BK, k_swizzle_b>,
                                       SmemMNMajor<TB, BN / ClusterM, BK>>;
  using Mma = sm90::WgmmaTiledMma<TA, TB, float, sm90::AOperand<ASmem>, sm90::BOperand<BSmem>, rows_per_warpgroup / 64, BN>;
  using Epi = sm90::EpilogueTmaStore<TC, BN, /*BarrierId=*/1>;
  static constexpr std::uint32_t a_bytes = size_in_bytes<TA, ASmem>();
  static constexpr std::uint32_t b_bytes = size_in_bytes<TB, BSmem>();
  // NOTE: a stage is released by the consumer warps of every CTA its B part was multicast to.
  using Pipeline = PipelineTmaAsync<Stages, consumer_warpgroups * 4 * ClusterM, a_bytes + b_bytes>;
  using MapA = TensorMap<TA, ASmem>;
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
  };
  /// Dynamic shared memory to ask for: the storage plus slack to align it to 1024 bytes.
  static constexpr std::size_t smem_bytes = sizeof(SharedStorage) + 1024;
  static_assert(diag::smem_tma_buffer_alignment<offsetof(SharedStorage, stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<a_bytes, MapB::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<sizeof(typename SharedStorage::Stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<offsetof(SharedStorage, epilogue), MapC::tile::swizzle_bytes>::ok);
  static_assert(MapA::tile_bytes + ClusterM * MapB::tile_bytes == Pipeline::tx_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  // What verify_plan checks across the plan.
  static constexpr int consumer_warps = consumer_warpgroups * 4;
  static constexpr int cluster_size = ClusterM;
  static constexpr int cluster_reach = ClusterM;  ///< CTAs each stage's B part is multicast to
};

/// The run-time half of a GEMM: pointers, leading dimensions, sizes, the epilogue's parameters.
template <class Plan>
struct GemmArguments {
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
};

/// Checks the arguments (std::invalid_argument naming the rule), encodes the TMA descriptors
/// and launches the persistent kernel on `stream`. Defined in gemm_sm90.cuh.
template <class Plan>
void run_gemm(GemmArguments<Plan> const& args, cudaStream_t stream);

/// The tile widths the heuristic chooses among (all 128 rows, 2-CTA clusters).
enum class GemmTile { n256, n128, n64 };

/// The tile for an m x n problem on `ctas` resident CTAs: the one whose waves are fullest,
/// weighted by how efficiently a tile of that width uses L2 and shared-memory bandwidth.
/// NOTE: the weights are rough (per-tile efficiency of 128 x N tiles, H200, 2026-11-30:
/// wide tiles are L2-bound at 473 TFLOP/s without multicast, so narrower ones lose more).
constexpr GemmTile choose_gemm_tile(std::int64_t m, std::int64_t n, int ctas) {
  struct Candidate {
    GemmTile tile;
    std::int64_t width;
    double efficiency;
  };
  constexpr Candidate candidates[] = {{GemmTile::n256, 256, 1.0}, {GemmTile::n128, 128, 0.85}, {GemmTile::n64, 64, 0.6}};
  GemmTile best = GemmTile::n256;
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
