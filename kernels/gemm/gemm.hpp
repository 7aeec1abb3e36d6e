// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the Hopper GEMM: the plan type, the arguments, and run_gemm, declared
// here and instantiated in the *_sm90.cu files, so host code includes no kernel.
//   C[m, n] = epilogue_op(sum_k A[m, k] B[k, n], m, n)
// A is M x K: K-major = row-major (lda >= K), MN-major = column-major (lda >= M).
// B is K x N: K-major = column-major (ldb >= K), MN-major = row-major (ldb >= N).
// C is M x N, row-major (ldc >= N) or, with layout_c = LayoutEnum::ColMajor, column-major (ldc >= M).
// A gated epilogue_op (epilogue::SwiGLU) writes C[m, j] = act(gate) * up of the gate and up
// columns that B interleaves in blocks of 8 (epilogue/fusion.hpp): C is then M x N/2.
// An FP8 C (TC e4m3 or e5m2) is quantized by 1 x 128 blocks of a row, each block's scale computed
// from its outputs and written to output_scales (epilogue/block_quantize.hpp).
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/epilogue/stream_k_fixup.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/operand_modes.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>
#include <cute_cpp/smem/allocator.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cuda_runtime_api.h>

#include <cute_cpp/host/error.hpp>  // argument_error

#include <algorithm>
#include <cmath>
#include <cstddef>  // offsetof
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace cute_cpp::kernels {

/// How the two consumer warpgroups share the work (CuTeDSL / CUTLASS: the kernel schedule).
/// Cooperative: both take halves of every tile. PingPong: each takes whole tiles, alternately,
/// so one warpgroup's epilogue overlaps the other's main loop.
enum class KernelSchedule { Cooperative, PingPong };

/// The static configuration of one GEMM kernel besides its element types, named field by field
/// (C++20 designated initializers, in the order declared here):
///   GemmPlan<bf16, bf16, bf16, GemmConfig{.block_n = 128, .stages = 6, .cluster_m = 2}>
/// A cluster has at most two CTAs: cluster_m CTAs along M share each B tile (each loads
/// 1/cluster_m of it and multicasts it to both), cluster_n CTAs along N share each A tile.
struct GemmConfig {
  int block_m = 128, block_n = 256, block_k = 64;  ///< the CTA tile
  int stages = 4;                                  ///< A and B tiles in flight in shared memory
  int cluster_m = 1, cluster_n = 1;
  OperandMajorMode major_a = OperandMajorMode::K, major_b = OperandMajorMode::K;
  LayoutEnum layout_c = LayoutEnum::RowMajor;
  KernelSchedule schedule = KernelSchedule::Cooperative;
  /// FP8 operands scaled per block (BlockScales): each K block's products are promoted into the
  /// fp32 accumulator with their scales (DeepSeek-V3's recipe, CUTLASS's "2xAcc").
  bool block_scaled = false;
  /// Groups of rows with their own B (MoE experts; run_grouped_gemm): each tile row belongs to
  /// one group, found in a table the device writes (sched/grouped_tiles.hpp).
  bool grouped = false;
};

/// Everything static about one GEMM kernel: element types, the configuration, and the epilogue
/// functor applied to each output (epilogue/fusion.hpp). run_gemm<Plan> launches it.
template <class TA_, class TB_, class TC_, GemmConfig Config, class EpilogueOp_ = epilogue::Identity>
struct GemmPlan {
  using TA = TA_;
  using TB = TB_;
  using TC = TC_;
  using EpilogueOp = EpilogueOp_;
  static constexpr GemmConfig config = Config;
  static constexpr OperandMajorMode major_a = Config.major_a, major_b = Config.major_b;
  static constexpr LayoutEnum layout_c = Config.layout_c;
  static constexpr int block_m = Config.block_m, block_n = Config.block_n, block_k = Config.block_k;
  static constexpr int stages = Config.stages;
  static constexpr int cluster_m = Config.cluster_m, cluster_n = Config.cluster_n;
  static_assert(cluster_m >= 1 && cluster_n >= 1 && cluster_m * cluster_n <= 2,
                "cute-cpp [gemm.cluster]: clusters of 1 or 2 CTAs, along M or along N");
  static_assert((sizeof(TA) != 1 || major_a == OperandMajorMode::K) && (sizeof(TB) != 1 || major_b == OperandMajorMode::K),
                "cute-cpp [gemm.fp8-k-major]: wgmma reads 8-bit operands K-major only: A row-major, B as a weight "
                "(N x K, rows contiguous)");
  static constexpr bool block_scaled = Config.block_scaled;
  static_assert(!block_scaled || (sizeof(TA) == 1 && sizeof(TB) == 1 && Config.block_k == 128 &&
                                  (Config.block_n == 128 || Config.block_n == 192) &&
                                  Config.schedule == KernelSchedule::Cooperative),
                "cute-cpp [gemm.block-scaled]: block scaling takes FP8 operands in 128 x 128 x 128 or 128 x 192 x 128 "
                "tiles (a tile's columns meet at most two scale blocks of B; the promoted accumulator beside the K "
                "block's own fits no wider tile), cooperative");
  static constexpr bool grouped = Config.grouped;
  static_assert(!grouped || (Config.cluster_m == 1 &&
                             major_a == OperandMajorMode::K && major_b == OperandMajorMode::K &&
                             Config.layout_c == LayoutEnum::RowMajor && !epilogue::is_fp8_v<TC_> &&
                             (std::is_same_v<EpilogueOp_, epilogue::Identity> || epilogue::is_gated_v<EpilogueOp_>)),
                "cute-cpp [gemm.grouped]: a grouped plan has K-major A and B, a 16- or 32-bit row-major C, no "
                "clusters along M (the two CTAs' tile rows may lie in different groups, with different B), and an "
                "Identity or gated epilogue (a functor's row is the group's, not C's)");
  static constexpr int consumer_warpgroups = 2;
  static constexpr bool pingpong = Config.schedule == KernelSchedule::PingPong;
  static constexpr int threads = 128 * (1 + consumer_warpgroups);
  /// Narrow tiles are fed by memory, not wgmma, and three stages are too few to keep a wgmma
  /// group in flight: their consumers wait for each stage's wgmmas and release it at once, so one
  /// more stage is in flight (README: measurements).
  static constexpr bool release_at_once = !pingpong && (block_n <= 112 || stages <= 3);
  /// Warpgroups that share one tile, and the rows each of them takes.
  static constexpr int tile_warpgroups = pingpong ? 1 : consumer_warpgroups;
  static constexpr int rows_per_warpgroup = block_m / tile_warpgroups;
  static_assert(rows_per_warpgroup % 64 == 0,
                "cute-cpp [gemm.tile-m]: each consumer warpgroup takes a multiple of 64 rows of a tile");

  /// K-major rows are block_k elements: the widest swizzle they fill (128 bytes, or 64 / 32 for short K).
  static constexpr int k_swizzle_a = block_k * int(sizeof(TA)) >= 128 ? 128 : block_k * int(sizeof(TA));
  static constexpr int k_swizzle_b = block_k * int(sizeof(TB)) >= 128 ? 128 : block_k * int(sizeof(TB));
  /// A Rows x block_k operand tile as TMA writes it and wgmma reads it.
  template <class T, OperandMajorMode Major, int Rows, int KSwizzle>
  using OperandSmem = std::conditional_t<Major == OperandMajorMode::K, SmemKMajor<T, Rows, block_k, KSwizzle>,
                                         SmemMNMajor<T, Rows, block_k>>;
  using ASmem = OperandSmem<TA, major_a, block_m, k_swizzle_a>;
  using BSmem = OperandSmem<TB, major_b, block_n, k_swizzle_b>;
  /// The parts of the A and B tiles one CTA of the cluster loads (and multicasts to all of them).
  using ASmemLoad = OperandSmem<TA, major_a, block_m / cluster_n, k_swizzle_a>;
  using BSmemLoad = OperandSmem<TB, major_b, block_n / cluster_m, k_swizzle_b>;
  using Mma = sm90::WgmmaTiledMma<TA, TB, float, sm90::AOperand<ASmem>, sm90::BOperand<BSmem>, rows_per_warpgroup / 64,
                                  block_n>;
  /// The kernel's named barriers, one run per user, one barrier of each run per consumer warpgroup:
  /// the output stores, split-K's and stream-K's meeting in the workspace, and PingPong's turns
  /// (which hand the main loop from one warpgroup to the other, so all 256 consumer threads).
  using Barriers = NamedBarrierAllocation<BarrierRequest<consumer_warpgroups, 128>,
                                          BarrierRequest<consumer_warpgroups, 128>,
                                          BarrierRequest<consumer_warpgroups, 256>>;
  using StoreBarriers = typename Barriers::template user<0>;
  using FixupBarriers = typename Barriers::template user<1>;
  using TurnBarriers = typename Barriers::template user<2>;
  /// A gated functor (epilogue::Gated) pairs each gate column with its up column: a tile then
  /// writes half as many columns of C as it multiplies, from an accumulator of that width.
  static constexpr bool gated = epilogue::is_gated_v<EpilogueOp>;
  static_assert(!gated || block_n % (2 * epilogue::SwiGLU::block) == 0,
                "cute-cpp [gemm.gated]: a gated epilogue pairs blocks of 8 gate and 8 up columns: the tile's N must be "
                "a multiple of 16");
  static constexpr int output_n = gated ? block_n / 2 : block_n;  ///< columns of C a tile writes
  using OutputAccumulator = sm90::WgmmaAccumulator<Mma::atoms_m, output_n>;
  /// The TMA-store machinery that writes C (the functor is EpilogueOp).
  using OutputStore = sm90::EpilogueTmaStore<TC, output_n, StoreBarriers, layout_c>;
  /// An FP8 C, quantized by 1 x 128 blocks with the scales the epilogue computes.
  static constexpr bool quantized_output = OutputStore::quantized;
  /// fp32 accumulators a consumer thread holds.
  static constexpr int accumulators = Mma::atoms_m * Mma::acc_per_atom;
  /// The epilogue of a whole tile (no split) stores the first chunks of its 16-bit row-major
  /// slab at once and keeps the rest packed in registers, stored a chunk per K block of the next
  /// tile while its wgmmas run.
  static constexpr bool overlap_epilogue = !pingpong && layout_c == LayoutEnum::RowMajor && sizeof(TC) == 2 &&
                                           rows_per_warpgroup == 64 && output_n == 256;
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
  /// accumulators (8 spill there); 32 beside at most 32 (the skinny tiles, whose last split
  /// otherwise sums a long split-K's partials in as many L2 round trips as it has rounds of 8).
  static constexpr int split_k_in_flight = accumulators > 128 ? 4 : accumulators <= 32 ? 32 : 8;
  static constexpr std::uint32_t a_bytes = size_in_bytes<TA, ASmem>();
  static constexpr std::uint32_t b_bytes = size_in_bytes<TB, BSmem>();
  // NOTE: a stage is released by the consumer warps (of the warpgroups sharing its tile) of every
  // CTA its A or B part was multicast to.
  using Pipeline = PipelineTmaAsync<stages, tile_warpgroups * 4 * cluster_m * cluster_n, a_bytes + b_bytes>;
  using MapA = TensorMap<TA, ASmemLoad>;
  using MapB = TensorMap<TB, BSmemLoad>;
  using MapC = typename OutputStore::Map;

  struct SharedStorage {
    struct alignas(1024) Stage {
      TA a[a_bytes / sizeof(TA)];
      TB b[b_bytes / sizeof(TB)];
    };
    Stage stage[stages];
    typename OutputStore::SharedStorage epilogue[consumer_warpgroups];
    typename Pipeline::SharedStorage barriers;
    std::uint32_t split_k_flag[consumer_warpgroups];
  };
  /// Dynamic shared memory to ask for: the storage, carved from the dynamic block by SmemAllocator
  /// at the alignment of its swizzled tiles (and so with that much slack).
  static constexpr std::size_t smem_bytes = smem_bytes_for<SharedStorage>();
  static_assert(diag::smem_tma_buffer_alignment<offsetof(SharedStorage, stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<a_bytes, MapB::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<sizeof(typename SharedStorage::Stage), MapA::tile::swizzle_bytes>::ok &&
                diag::smem_tma_buffer_alignment<offsetof(SharedStorage, epilogue), MapC::tile::swizzle_bytes>::ok);
  static_assert(cluster_n * MapA::tile_bytes + cluster_m * MapB::tile_bytes == Pipeline::tx_bytes,
                "cute-cpp [pipeline.tx-bytes]: a stage's expected bytes must equal its TMA boxes");

  // What verify_plan checks across the plan.
  static constexpr int consumer_warps = tile_warpgroups * 4;
  static constexpr int cluster_size = cluster_m * cluster_n;
  static constexpr int cluster_reach = cluster_m * cluster_n;  ///< CTAs each stage's A or B part is multicast to
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

/// The operand of a GEMM that no kernel before it in the stream writes (a layer's weights). Under
/// programmatic dependent launch the kernel starts while the kernel before it still runs and
/// waits for it before touching memory that kernel may write; this operand's part of the first
/// stages is loaded before that wait, so its DRAM latency overlaps the kernel before.
enum class IndependentOperand : std::uint8_t { None, A, B };

/// Blockwise FP8 scales (DeepSeek-V3's): one float per row of A and 128 of K (1 x 128, an
/// activation's), one per 128 rows of the weight B and 128 of K (128 x 128). The real operands are
/// A[m, k] * a(m, k / 128) and B[n, k] * b(n / 128, k / 128). Scale (i, kb) is at
/// i * row_stride + kb * k_stride: row-major (M, K/128) is {K/128, 1}; the K-block-major
/// (K/128, M) of DeepGEMM is {1, M}. Only a plan with GemmConfig::block_scaled reads them.
struct BlockScales {
  float const* a = nullptr;
  std::int64_t a_row_stride = 0, a_k_stride = 0;
  float const* b = nullptr;
  std::int64_t b_row_stride = 0, b_k_stride = 0;
  std::int64_t b_group_stride = 0;  ///< a grouped GEMM's: floats from one group's B scales to the next
};

/// The run-time half of a GEMM: pointers, leading dimensions, sizes, the epilogue functor's
/// parameters, how the work is cut. It depends on the element types and the functor only, so one
/// set of arguments runs on any plan of those types (the heuristic's choice among tiles).
template <class TA, class TB, class TC, class EpilogueOp>
struct GemmProblemArguments {
  TA const* a = nullptr;
  std::int64_t lda = 0;
  TB const* b = nullptr;
  std::int64_t ldb = 0;
  TC* c = nullptr;
  std::int64_t ldc = 0;
  std::int64_t m = 0, n = 0, k = 0;  ///< n: B's columns (C's too, but twice C's for a gated epilogue)
  EpilogueOp epilogue_op{};
  /// Tile rows per rasterization group (0: the default); CuTeDSL's max_swizzle_size.
  int raster_group_rows = 0;
  /// How the work is cut; split-K and stream-K take the workspace.
  Decomposition decomposition = Decomposition::Heuristic;
  /// SplitK's K ranges per tile of the last, partial wave (n > 1; 0 chooses). 0 otherwise.
  int k_splits = 0;
  /// Split-K's or stream-K's workspace, at least gemm_workspace_bytes(args) bytes, 16-byte
  /// aligned, zeroed once when allocated: the kernels leave its counters zeroed, so one workspace
  /// serves any later sequence of GEMMs of any shapes and plans, one GEMM at a time (a stream's).
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  /// The operand whose first stages may load before the previous kernel ends (weights).
  IndependentOperand independent = IndependentOperand::None;
  /// The operands' block scales (a plan with GemmConfig::block_scaled needs them; others refuse them).
  BlockScales block_scales{};
  /// Where an FP8 C's 1 x 128 block scales go ((M, ceil(C's columns / 128)) at these strides); an
  /// FP8 C needs them, others refuse them.
  epilogue::OutputBlockScales output_scales{};
};

/// The checks of a GEMM's arguments that need no device, made by every entry point before it
/// touches one (so a bad call fails the same way with or without a GPU, and writes nothing):
/// pointers set [gemm.pointers], sizes at least 1 [gemm.shape], leading dimensions that cover a
/// row or column [gemm.leading-dimension], 16-byte aligned operands and leading dimensions (TMA's
/// [tma.global.address], [tma.global.stride]), and C overlapping neither A nor B [gemm.aliasing].
template <class TA, class TB, class TC, class Op>
void check_gemm_arguments(GemmProblemArguments<TA, TB, TC, Op> const& a, OperandMajorMode major_a,
                          OperandMajorMode major_b, LayoutEnum layout_c, bool gated) {
  using host::argument_error;
  if (a.a == nullptr || a.b == nullptr || a.c == nullptr)
    argument_error("gemm.pointers", std::string("A, B and C must be device pointers (") +
                                        (a.a == nullptr ? "A" : a.b == nullptr ? "B" : "C") + " is null)");
  if (a.m < 1 || a.n < 1 || a.k < 1)
    argument_error("gemm.shape", "M, N and K must be at least 1 (got " + std::to_string(a.m) + ", " +
                                     std::to_string(a.n) + ", " + std::to_string(a.k) + ")");
  std::int64_t const c_cols = gated ? a.n / 2 : a.n;
  struct Operand {
    char const* name;
    void const* p;
    std::int64_t ld, rows, cols;  // cols: the contiguous extent a row must hold (ld >= cols)
    std::size_t bytes;
  };
  bool const a_k = major_a == OperandMajorMode::K, b_k = major_b == OperandMajorMode::K;
  bool const c_row = layout_c == LayoutEnum::RowMajor;
  Operand const ops[] = {{"A", a.a, a.lda, a_k ? a.m : a.k, a_k ? a.k : a.m, sizeof(TA)},
                         {"B", a.b, a.ldb, b_k ? a.n : a.k, b_k ? a.k : a.n, sizeof(TB)},
                         {"C", a.c, a.ldc, c_row ? a.m : c_cols, c_row ? c_cols : a.m, sizeof(TC)}};
  for (Operand const& o : ops) {
    if (o.ld < o.cols)
      argument_error("gemm.leading-dimension", std::string(o.name) + "'s leading dimension (" + std::to_string(o.ld) +
                                                   ") is below its contiguous extent (" + std::to_string(o.cols) + ")");
    if (reinterpret_cast<std::uintptr_t>(o.p) % 16 != 0)
      argument_error("tma.global.address", std::string(o.name) + "'s address must be 16-byte aligned (got address % 16 = " +
                                               std::to_string(reinterpret_cast<std::uintptr_t>(o.p) % 16) + ")");
    if (o.rows > 1 && (std::uint64_t(o.ld) * o.bytes) % 16 != 0)
      argument_error("tma.global.stride", std::string(o.name) + "'s leading dimension (" + std::to_string(o.ld) +
                                              " elements) must be a multiple of 16 bytes");
  }
  // The byte ranges each operand spans: C must not share a byte with A or B.
  auto const span = [](Operand const& o) {
    auto const begin = reinterpret_cast<std::uintptr_t>(o.p);
    return std::pair{begin, begin + (std::uint64_t(o.rows - 1) * std::uint64_t(o.ld) + std::uint64_t(o.cols)) * o.bytes};
  };
  auto const [c_begin, c_end] = span(ops[2]);
  for (int i = 0; i < 2; ++i) {
    auto const [begin, end] = span(ops[i]);
    if (begin < c_end && c_begin < end)
      argument_error("gemm.aliasing", std::string("C overlaps ") + ops[i].name +
                                          ": the kernel reads its inputs while it writes C; pass separate buffers");
  }
}

/// A list of plans (what a set of translation units instantiates).
template <class... Plans>
struct GemmPlanList {};

/// The arguments of a plan's GEMM.
template <class Plan>
using GemmArguments =
    GemmProblemArguments<typename Plan::TA, typename Plan::TB, typename Plan::TC, typename Plan::EpilogueOp>;

/// C = A B computed as C^T = B^T A^T: the same arguments for a plan `To` whose A is From's B and
/// whose B is From's A, writing C in the other layout. The epilogue must not depend on the
/// coordinates (it would see them swapped).
template <class To, class From>
GemmArguments<To> swap_ab_arguments(GemmArguments<From> const& args) {
  static_assert(std::is_same_v<typename To::TA, typename From::TB> && std::is_same_v<typename To::TB, typename From::TA> &&
                std::is_same_v<typename To::TC, typename From::TC> && To::major_a == From::major_b &&
                To::major_b == From::major_a && To::layout_c != From::layout_c,
                "cute-cpp [gemm.swap-ab]: the swapped plan's A, B and C must be the original's B, A and C transposed");
  static_assert(std::is_same_v<typename To::EpilogueOp, epilogue::Identity> &&
                std::is_same_v<typename From::EpilogueOp, epilogue::Identity>,
                "cute-cpp [gemm.swap-ab]: swapping A and B transposes the epilogue's coordinates; only Identity is swapped");
  static_assert(std::is_same_v<GemmArguments<To>, GemmArguments<From>>,
                "cute-cpp [gemm.swap-ab]: A and B are swapped between operands of one element type");
  GemmArguments<To> r = args;  // C, K, the decomposition and the workspace stay
  r.a = args.b, r.lda = args.ldb, r.m = args.n;
  r.b = args.a, r.ldb = args.lda, r.n = args.m;
  using enum IndependentOperand;
  r.independent = args.independent == A ? B : args.independent == B ? A : None;
  return r;
}

/// The SIMT GEMM's tile (simt_gemm.cuh): 32 x 64 of C per CTA of 256 threads, K in chunks of 32.
struct SimtGemmTile {
  static constexpr int block_m = 32, block_n = 64, block_k = 32, threads = 256;
  /// M or N at most this beside a K-major other operand: the skinny kernel (simt_gemv.cuh) instead.
  static constexpr int skinny_rows = 8;
};

/// The most element loads an M/N-major short operand may cost the skinny kernel: long rows x K x
/// short rows. Such an operand is read element by element (a k's short rows are contiguous, the k's
/// a leading dimension apart), so a warp's load scatters over as many sectors as lanes. Measured
/// (H200 shape sweep, 2026-12-03): it beat the tiles up to 134k (1 x 1121 x 120, 808 x 6 x 16) and
/// lost from 807k (5 x 961 x 168: 0.80x of cuBLASLt against the tiles' 0.97x; 448 x 1 x 32320 KMN:
/// 0.22x against 0.79x).
inline constexpr std::int64_t skinny_scattered_loads = std::int64_t(1) << 19;

/// Which operand the skinny kernel (simt_gemv.cuh) takes as its short one for an m x n x k
/// problem: at most SimtGemmTile::skinny_rows rows (M for A, N for B) beside a K-major other
/// operand, the one it streams, and if M/N-major within skinny_scattered_loads; the shorter where
/// both qualify; neither where neither does.
enum class SkinnyShort { none, a, b };
constexpr SkinnyShort skinny_short_operand(std::int64_t m, std::int64_t n, std::int64_t k, OperandMajorMode major_a,
                                           OperandMajorMode major_b) {
  auto const takes = [&](std::int64_t rows, OperandMajorMode major, std::int64_t long_rows, OperandMajorMode long_major) {
    return rows <= SimtGemmTile::skinny_rows && long_major == OperandMajorMode::K &&
           (major == OperandMajorMode::K || long_rows * k * rows <= skinny_scattered_loads);
  };
  bool const a = takes(m, major_a, n, major_b), b = takes(n, major_b, m, major_a);
  if (a && b) return m <= n ? SkinnyShort::a : SkinnyShort::b;
  return a ? SkinnyShort::a : b ? SkinnyShort::b : SkinnyShort::none;
}

/// Whether the SIMT GEMM runs an m x n x k problem in its skinny kernel (simt_gemv.cuh); the
/// dispatch's table takes SIMT only there.
constexpr bool simt_skinny(std::int64_t m, std::int64_t n, std::int64_t k, OperandMajorMode major_a,
                           OperandMajorMode major_b) {
  return skinny_short_operand(m, n, k, major_a, major_b) != SkinnyShort::none;
}

/// A plan for the SIMT GEMM (simt_gemm.cuh): fp32 FMAs on CUDA cores for problems too small for
/// the tensor-core kernel's fixed costs; the element types and layouts of a GemmPlan, whose
/// GemmArguments it takes (whole tiles, no workspace, the Identity epilogue).
template <class TA_, class TC_, OperandMajorMode MA, OperandMajorMode MB, LayoutEnum LC = LayoutEnum::RowMajor>
struct SimtGemmPlan : SimtGemmTile {
  using TA = TA_;
  using TB = TA_;
  using TC = TC_;
  using EpilogueOp = epilogue::Identity;
  static constexpr OperandMajorMode major_a = MA, major_b = MB;
  static constexpr LayoutEnum layout_c = LC;
  static_assert(sizeof(TA_) == 2 && (sizeof(TC_) == 2 || sizeof(TC_) == 4),
                "cute-cpp [gemm.simt-types]: the SIMT GEMM takes 16-bit operands and a 16- or 32-bit C");
};

template <class Plan>
inline constexpr bool is_simt_plan_v = false;
template <class TA, class TC, OperandMajorMode MA, OperandMajorMode MB, LayoutEnum LC>
inline constexpr bool is_simt_plan_v<SimtGemmPlan<TA, TC, MA, MB, LC>> = true;

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
/// The thresholds come from --decomposition-sweep (README: measurements).
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
/// rows, alone; simt: the SIMT GEMM (SimtGemmPlan).
enum class GemmTile { n256, n128, n64, n256c1, n128c1, n112cn2, n64c1, swap16, swap32, swap64, simt };

/// Every GemmTile, with the name a tuning cache stores it under.
inline constexpr std::pair<GemmTile, std::string_view> gemm_tile_names[] = {
    {GemmTile::n256, "n256"},     {GemmTile::n128, "n128"},     {GemmTile::n64, "n64"},
    {GemmTile::n256c1, "n256c1"}, {GemmTile::n128c1, "n128c1"}, {GemmTile::n112cn2, "n112cn2"},
    {GemmTile::n64c1, "n64c1"},   {GemmTile::swap16, "swap16"}, {GemmTile::swap32, "swap32"},
    {GemmTile::swap64, "swap64"}, {GemmTile::simt, "simt"}};

constexpr std::string_view gemm_tile_name(GemmTile tile) {
  for (auto const& [t, name] : gemm_tile_names)
    if (t == tile) return name;
  return "";
}

/// The tile a name stands for; none for a name no tile has (a cache from another build).
constexpr std::optional<GemmTile> parse_gemm_tile(std::string_view name) {
  for (auto const& [t, n] : gemm_tile_names)
    if (n == name) return t;
  return std::nullopt;
}

/// A tile and how its work is cut: what the tile table chooses for a shape.
struct GemmChoice {
  GemmTile tile = GemmTile::n256;
  Decomposition decomposition = Decomposition::Heuristic;
  int k_splits = 0;
};

/// A choice's name in a tuning cache: the tile's, then " whole", " split N" or " stream-K" for a
/// cut other than the heuristic's ("n128 split 4", "swap16").
inline std::string gemm_choice_name(GemmChoice const& c) {
  std::string name(gemm_tile_name(c.tile));
  switch (c.decomposition) {
    case Decomposition::Heuristic: break;
    case Decomposition::DataParallel: name += " whole"; break;
    case Decomposition::SplitK: name += " split " + std::to_string(c.k_splits); break;
    case Decomposition::StreamK: name += " stream-K"; break;
  }
  return name;
}

/// The choice a name stands for; none for a name no choice has (a cache from another build).
inline std::optional<GemmChoice> parse_gemm_choice(std::string_view name) {
  std::size_t const space = name.find(' ');
  std::optional<GemmTile> const tile = parse_gemm_tile(name.substr(0, space));
  if (!tile) return std::nullopt;
  if (space == std::string_view::npos) return GemmChoice{*tile};
  std::string_view const cut = name.substr(space + 1);
  if (cut == "whole") return GemmChoice{*tile, Decomposition::DataParallel};
  if (cut == "stream-K") return GemmChoice{*tile, Decomposition::StreamK};
  if (cut.starts_with("split ") && cut.size() > 6) {
    int splits = 0;
    for (char const ch : cut.substr(6)) {
      if (ch < '0' || ch > '9' || splits > 100000) return std::nullopt;
      splits = splits * 10 + (ch - '0');
    }
    if (splits >= 2) return GemmChoice{*tile, Decomposition::SplitK, splits};
  }
  return std::nullopt;
}

/// One measured shape of a tile table (gemm_tile_table.hpp): log2 of M, N and K, and the mask of
/// the table's choices that ran within a few percent of its fastest.
struct GemmTableShape {
  float log2_m = 0, log2_n = 0, log2_k = 0;
  std::uint64_t good = 0;
};

/// A shape off a tile table and the index of the choice its fitting tool predicts (-1: none).
struct GemmTableProbe {
  std::int64_t m = 0, n = 0, k = 0;
  int choice = -1;
};

/// The choice good on the most of the `neighbours` measured shapes nearest m x n x k (distance in
/// log2 of M, N and K), each counted by 1 / (distance + 0.5), the nearer first among equals, the
/// earlier choice among equal counts (tools/fit_gemm_tiles.py's predict, which fits the table),
/// among the choices whose bit is set in `allowed`; none where no allowed choice was good on any
/// of the nearest shapes.
inline std::optional<GemmChoice> choose_from_table(std::int64_t m, std::int64_t n, std::int64_t k,
                                                   std::span<GemmTableShape const> table,
                                                   std::span<GemmChoice const> choices, int neighbours,
                                                   std::uint64_t allowed = ~std::uint64_t{0}) {
  double const here[3] = {std::log2(double(m)), std::log2(double(n)), std::log2(double(k))};
  constexpr int most = 8;
  neighbours = std::min(neighbours, most);
  struct Near {
    double distance = 0;
    std::size_t shape = 0;
  };
  Near near[most];
  int found = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    double const dm = here[0] - table[i].log2_m, dn = here[1] - table[i].log2_n, dk = here[2] - table[i].log2_k;
    Near candidate{std::sqrt(dm * dm + dn * dn + dk * dk), i};
    // Insertion into the sorted `near`, keeping the first `neighbours`.
    int at = found < neighbours ? found++ : neighbours;
    if (at == neighbours && candidate.distance >= near[neighbours - 1].distance) continue;
    if (at == neighbours) at = neighbours - 1;
    while (at > 0 && near[at - 1].distance > candidate.distance) {
      near[at] = near[at - 1];
      --at;
    }
    near[at] = candidate;
  }
  double votes[64] = {};
  for (int r = 0; r < found; ++r) {
    double const weight = 1.0 / (near[r].distance + 0.5) + 1e-6 * double(neighbours - r);
    for (std::size_t c = 0; c < choices.size() && c < 64; ++c)
      if (table[near[r].shape].good >> c & 1u) votes[c] += weight;
  }
  std::size_t best = 64;
  for (std::size_t c = 0; c < choices.size() && c < 64; ++c)
    if ((allowed >> c & 1u) && votes[c] > 0 && (best == 64 || votes[c] > votes[best])) best = c;
  if (best == 64) return std::nullopt;
  return choices[best];
}

/// The tile for an m x n x k problem on `ctas` resident CTAs. The rules, each fitted to
/// --shape-sweep (README: measurements; sweep of 2026-12-02 at 24ba451, 290 shapes, where the
/// tuner's pick beat this heuristic's by 10% or more):
/// - at most 64 rows: A and B swapped, so that N fills wgmma's 64-row side and M (rounded up to
///   16, 32 or 64) its N side: a 128-row tile would multiply mostly zeros;
/// - at most 64 columns (and more rows): the mirror image. Up to 1536 rows and 8192 of K, swapped
///   tiles of 32 rows of M give more CTAs than 128-row ones; beyond, 128 x 64 tiles alone, with
///   split-K (the sweep: 0.33-0.55x of cuBLAS in 128 x 256 tiles, 0.72-1.3x so);
/// - one tile row (at most 128 rows): no cluster along M (its second CTA would have no rows).
///   At most 128 columns: swapped 16-row tiles. K and N of 4096 or more: 112 columns in pairs
///   along N that share A (0.86-0.89x alone in 128 or 256 columns, 0.93-1.01x so). Else a width
///   whose tiles fill at least 90% of one wave if there is one, else the widest tile without a
///   cluster that still gives every fifth CTA a tile, since there the A tile is re-read for
///   every tile, so wide tiles pay, and split-K fills the GPU;
/// - a full wave of 128 x 256 tiles or more: that tile (stream-K evens out the last wave; in
///   128 x 128 tiles, 1024 x 10240 x 8192 ran at 0.77x of cuBLAS, 0.97x in 128 x 256);
/// - else the one whose waves are fullest, weighted by how efficiently a tile of that width uses
///   L2 and shared-memory bandwidth.
/// NOTE: the weights are rough: wide tiles without multicast are bound by L2, so narrower ones,
/// which read more per output, lose more (README: measurements, with the one-tile-row sweep).
constexpr GemmTile choose_gemm_tile(std::int64_t m, std::int64_t n, std::int64_t k, int ctas) {
  if (m <= 64) return m <= 16 ? GemmTile::swap16 : m <= 32 ? GemmTile::swap32 : GemmTile::swap64;
  if (n <= 64) return m <= 1536 && k <= 8192 ? GemmTile::swap32 : GemmTile::n64c1;
  if (m <= 128) {
    if (n <= 128) return GemmTile::swap16;
    if (n >= 4096 && k >= 4096) return GemmTile::n112cn2;
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
  if ((m + 127) / 128 * ((n + 255) / 256) >= ctas) return GemmTile::n256;
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

}  // namespace cute_cpp::kernels
