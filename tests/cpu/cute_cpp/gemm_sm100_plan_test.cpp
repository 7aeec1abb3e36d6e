// SPDX-License-Identifier: Apache-2.0
// The sm_100a GEMM's host-computable parts (kernels/gemm/gemm_sm100.hpp, plans_sm100.hpp): each
// plan's stage bytes, shared memory and tensor-memory columns against hand arithmetic; the
// epilogue's TMEM copies against the PTX 32x32b fragment (thread t of warp w: lane 32 w + t, one
// column a register); which B rows each CTA of a pair loads (CTA v: rows v N/2 .. of each UMMA's
// N); the tile walk's parameters and the cluster tiles the CLC scheduler gives each CTA; the
// dispatcher's rule; and the argument checks.
#include <cute_cpp/kernels/gemm/gemm_sm100.hpp>
#include <cute_cpp/kernels/gemm/plans_sm100.hpp>

#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;

namespace {

// ---- plan values, each from the tile's shape by hand ----

TEST(GemmSm100Plan, StageBytesFollowTheTiles) {
  // 16-bit: a row of a K block is 64 x 2 = 128 bytes; 8-bit: 128 x 1.
  EXPECT_EQ(p::Bf16Tile128x128::stage_bytes, 128u * 128 + 128u * 128);
  EXPECT_EQ(p::Bf16Tile128x256::stage_bytes, 128u * 128 + 256u * 128);
  // A pair: each CTA holds 128 rows of A and 128 of B's 256; the leader's barrier counts both CTAs.
  EXPECT_EQ(p::Bf16Pair256x256::stage_bytes, 128u * 128 + 128u * 128);
  EXPECT_EQ(p::Bf16Pair256x256::MainPipeline::tx_bytes, 2u * (128 * 128 + 128 * 128));
  // 352 columns as two atoms of 176, each CTA holding 88 rows of each.
  EXPECT_EQ(p::Bf16Pair256x352::b_atom_bytes, 88u * 128);
  EXPECT_EQ(p::Bf16Pair256x352::stage_bytes, 128u * 128 + 2u * 88 * 128);
  EXPECT_EQ(p::Fp8E4M3Tile128x256::stage_bytes, 128u * 128 + 256u * 128);
  EXPECT_EQ(p::Fp8E4M3Tile128x256::block_k, 128);
}

template <class Plan>
void expect_fits(std::size_t stage_bytes) {
  // The stages (1024-byte aligned) and the barriers, within the 227 KB of a CTA.
  EXPECT_GE(Plan::smem_bytes, Plan::stages * stage_bytes);
  EXPECT_LE(Plan::smem_bytes, std::size_t{232448});
  EXPECT_EQ(sizeof(typename Plan::SharedStorage::Stage) % 1024, 0u);
}

TEST(GemmSm100Plan, SharedMemoryFitsEveryPlan) {
  expect_fits<p::Bf16Tile128x128>(32768);
  expect_fits<p::Bf16Tile128x256>(49152);
  expect_fits<p::Bf16Pair256x256>(32768);
  expect_fits<p::Bf16Pair256x352>(38912);
  expect_fits<p::Bf16MNPair256x256>(32768);
  expect_fits<p::F16ToF32NNTile128x256>(49152);
  expect_fits<p::Fp8E4M3Pair256x256>(32768);
  EXPECT_EQ(p::Bf16Tile128x128::stages, 6);
  EXPECT_EQ(p::Bf16Pair256x352::stages, 5);
}

TEST(GemmSm100Plan, TensorMemoryHoldsTheAccumulatorStages) {
  // fp32 accumulators: one column per output column of the CTA's 128 rows.
  EXPECT_EQ(p::Bf16Tile128x128::tmem_columns, 2 * 128);
  EXPECT_EQ(p::Bf16Tile128x128::TmemAlloc::columns, 256u);
  EXPECT_EQ(p::Bf16Tile128x256::tmem_columns, 2 * 256);
  EXPECT_EQ(p::Bf16Pair256x256::tmem_columns, 2 * 256);
  // 352 columns once (two stages would need 704 of the 512): allocated as 512.
  EXPECT_EQ(p::Bf16Pair256x352::acc_stages, 1);
  EXPECT_EQ(p::Bf16Pair256x352::acc_columns, 352);
  EXPECT_EQ(p::Bf16Pair256x352::TmemAlloc::columns, 512u);
}

TEST(GemmSm100Plan, UmmaAtomsAndSlices) {
  EXPECT_EQ(p::Bf16Pair256x352::Mma::m, 256);
  EXPECT_EQ(p::Bf16Pair256x352::Mma::n, 176);
  EXPECT_EQ(p::Bf16Pair256x352::Mma::cta_group, 2);
  // K blocks of 128 bytes, 32 bytes an instruction: 4 instructions a K block, either width.
  EXPECT_EQ(p::Bf16Tile128x256::Mma::k_slices, 4);
  EXPECT_EQ(p::Fp8E4M3Tile128x256::Mma::k_slices, 4);
  EXPECT_EQ(p::Bf16Tile128x256::threads, 224);
  EXPECT_EQ(p::Bf16Pair256x256::cluster_size, 2);
}

// ---- the epilogue's copies: every (row, column) of a CTA's accumulator once ----

template <class Plan>
void expect_epilogue_covers_the_tile() {
  SCOPED_TRACE(std::to_string(Plan::block_m) + "x" + std::to_string(Plan::block_n));
  using Atom = typename Plan::TmemAtom;
  std::vector<int> seen(std::size_t(128 * Plan::block_n), 0);
  for (int warp = 0; warp < Plan::epilogue_warps; ++warp)
    for (int lane = 0; lane < 32; ++lane) {
      auto const slice = cute_cpp::sm100::get_slice<typename Plan::Accumulator, Atom>(warp, lane);
      ASSERT_EQ(slice.copies, Plan::block_n / 16);
      for (int i = 0; i < slice.copies; ++i) {
        // The copy's address: lane 32 w in bits 16.., column 16 i.
        EXPECT_EQ(slice.tmem_addr(0, i), (std::uint32_t(32 * warp) << 16) + std::uint32_t(16 * i));
        for (int j = 0; j < Atom::registers; ++j) {
          // What the epilogue assumes: one row per thread, 16 consecutive columns.
          ASSERT_EQ(slice.row(i, j), 32 * warp + lane);
          ASSERT_EQ(slice.col(i, j), 16 * i + j);
          ++seen[std::size_t(slice.row(i, j) * Plan::block_n + slice.col(i, j))];
        }
      }
    }
  for (int s : seen) ASSERT_EQ(s, 1);
}

TEST(GemmSm100Plan, EpilogueCopiesCoverTheAccumulatorOnce) {
  expect_epilogue_covers_the_tile<p::Bf16Tile128x128>();
  expect_epilogue_covers_the_tile<p::Bf16Tile128x256>();
  expect_epilogue_covers_the_tile<p::Bf16Pair256x256>();
  expect_epilogue_covers_the_tile<p::Bf16Pair256x352>();
}

// ---- the operands a CTA loads ----

TEST(GemmSm100Plan, PairCtasLoadTheirHalfOfEachAtom) {
  using Plan = p::Bf16Pair256x352;
  cute_cpp::WorkTileInfo t;
  t.n = 2;
  std::vector<int> seen(352, 0);
  for (std::uint32_t rank = 0; rank < 2; ++rank) {
    t.m = 6 + int(rank);  // the pair's two 128-row tiles
    auto const at = kn::GemmSm100Operands<Plan>::of(t, rank);
    EXPECT_EQ(at.a_row, (6 + int(rank)) * 128);
    for (int a = 0; a < Plan::atoms_n; ++a) {
      // CTA v holds rows v * 88 .. of atom a's 176.
      EXPECT_EQ(at.b_row(a), 2 * 352 + a * 176 + int(rank) * 88);
      for (int r = 0; r < Plan::cta_atom_n; ++r) ++seen[std::size_t(at.b_row(a) + r - 2 * 352)];
    }
  }
  for (int s : seen) ASSERT_EQ(s, 1);
  // One CTA: all of B's rows of the tile.
  t.m = 3;
  auto const one = kn::GemmSm100Operands<p::Bf16Tile128x256>::of(t, 0);
  EXPECT_EQ(one.a_row, 384);
  EXPECT_EQ(one.b_row(0), 512);
}

// ---- the tile walk ----

TEST(GemmSm100Tiles, ParametersOfARaggedProblem) {
  auto const q = kn::gemm_sm100_tiles<p::Bf16Pair256x256>(300, 520, 100, 0);
  EXPECT_EQ(q.tiles_m, 3);  // 128-row CTA tiles: 300 rows
  EXPECT_EQ(q.tiles_n, 3);  // 520 columns in 256
  EXPECT_EQ(q.cluster_m, 2);
  EXPECT_EQ(q.k_blocks, 2);  // K = 100 in blocks of 64
  EXPECT_EQ(q.raster_cluster_rows, 8);
  EXPECT_EQ(cute_cpp::ClcDynamicPersistentTileScheduler<2>::get_grid_shape(q), 2 * 2 * 3);
  auto const f = kn::gemm_sm100_tiles<p::Fp8E4M3Tile128x128>(1, 1, 129, 4);
  EXPECT_EQ(f.k_blocks, 2);  // 129 in blocks of 128
  EXPECT_EQ(f.raster_cluster_rows, 4);
}

template <class Plan>
void expect_every_tile_once(std::int64_t m, std::int64_t n) {
  auto const q = kn::gemm_sm100_tiles<Plan>(m, n, 64, 0);
  std::int64_t const ctas = cute_cpp::ClcDynamicPersistentTileScheduler<Plan::cta_group>::get_grid_shape(q);
  std::vector<int> seen(std::size_t(q.tiles_m * q.tiles_n), 0);
  for (std::int64_t b = 0; b < ctas; ++b) {
    cute_cpp::ClcDynamicPersistentTileScheduler<Plan::cta_group> const s(q, b);
    ASSERT_TRUE(s.has_work());
    auto const w = s.get_current_work();
    // A pair's second CTA past M still takes part (its rows are never stored).
    if (w.valid) ++seen[std::size_t(w.m * q.tiles_n + w.n)];
    else EXPECT_GE(w.m, q.tiles_m);
  }
  for (int v : seen) ASSERT_EQ(v, 1);
}

TEST(GemmSm100Tiles, TheFirstWalkTakesEveryTileOnce) {
  expect_every_tile_once<p::Bf16Tile128x256>(1000, 700);
  expect_every_tile_once<p::Bf16Pair256x256>(300, 520);
  expect_every_tile_once<p::Bf16Pair256x352>(4096 + 1, 352 * 5 - 3);
}

// ---- the dispatcher's rule ----

TEST(ChooseGemmSm100Tile, WavesTimesTheWorkOfAWave) {
  using T = kn::GemmSm100Tile;
  // 16 x 16 pair tiles on 74 pairs: 4 waves of 32; 128 x 256: 4 of 32; 128 x 128: 7 of 20.
  static_assert(kn::choose_gemm_sm100_tile(4096, 4096, 148) == T::Pair256x256);
  static_assert(kn::choose_gemm_sm100_tile(8192, 8192, 148) == T::Pair256x256);
  // One tile row of 16 wide tiles: one wave either way, the narrow tile's cheaper.
  static_assert(kn::choose_gemm_sm100_tile(128, 4096, 148) == T::Tile128x128);
  // 98 pair tiles take 2 waves on 74 pairs; 147 wide tiles 1 on 148 SMs; 294 narrow ones 2.
  static_assert(kn::choose_gemm_sm100_tile(384, 12544, 148) == T::Tile128x256);
  // One SM (no pair of them): one tile, one wave either way; the narrow tile's wave is cheapest.
  EXPECT_EQ(kn::choose_gemm_sm100_tile(1, 1, 1), T::Tile128x128);
}

// ---- the argument checks ----

template <class Plan>
kn::GemmArguments<Plan> good_arguments() {
  kn::GemmArguments<Plan> a;
  a.m = 200, a.n = 136, a.k = 96;
  a.a = reinterpret_cast<typename Plan::TA const*>(std::uintptr_t{0x100000});
  a.b = reinterpret_cast<typename Plan::TB const*>(std::uintptr_t{0x200000});
  a.c = reinterpret_cast<typename Plan::TC*>(std::uintptr_t{0x300000});
  a.lda = a.k, a.ldb = a.k, a.ldc = a.n;
  return a;
}

/// The rule id a rejected call names, or "" when the call is accepted.
template <class Plan>
std::string rule_of(kn::GemmArguments<Plan> const& args) {
  try {
    kn::check_gemm_sm100_arguments<Plan>(args);
  } catch (std::invalid_argument const& e) {
    std::string const w = e.what();
    auto const open = w.find('['), close = w.find(']');
    return open == std::string::npos ? w : w.substr(open + 1, close - open - 1);
  }
  return "";
}

TEST(GemmSm100Arguments, AcceptsARaggedProblem) {
  EXPECT_EQ(rule_of<p::Bf16Tile128x256>(good_arguments<p::Bf16Tile128x256>()), "");
  EXPECT_EQ(rule_of<p::Fp8E4M3Pair256x256>(good_arguments<p::Fp8E4M3Pair256x256>()), "");
}

TEST(GemmSm100Arguments, RefusesWhatTheKernelDoesNotDo) {
  using Plan = p::Bf16Pair256x256;
  auto with = [](auto change) {
    auto a = good_arguments<Plan>();
    change(a);
    return rule_of<Plan>(a);
  };
  EXPECT_EQ(with([](auto& a) { a.decomposition = kn::Decomposition::SplitK; }), "gemm.sm100.decomposition");
  EXPECT_EQ(with([](auto& a) { a.decomposition = kn::Decomposition::StreamK; }), "gemm.sm100.decomposition");
  EXPECT_EQ(with([](auto& a) { a.k_splits = 2; }), "gemm.sm100.decomposition");
  EXPECT_EQ(with([](auto& a) { a.decomposition = kn::Decomposition::DataParallel; }), "");
  EXPECT_EQ(with([](auto& a) { a.block_scales.a = reinterpret_cast<float const*>(std::uintptr_t{0x400000}); }),
            "gemm.block-scales");
  EXPECT_EQ(with([](auto& a) { a.output_scales.data = reinterpret_cast<float*>(std::uintptr_t{0x400000}); }),
            "gemm.output-scales");
  EXPECT_EQ(with([](auto& a) { a.k = 100, a.lda = 104, a.ldb = 104; }), "gemm.k-multiple-of-8");
  EXPECT_EQ(with([](auto& a) { a.c = nullptr; }), "gemm.pointers");
  EXPECT_EQ(with([](auto& a) { a.ldc = 128; }), "gemm.leading-dimension");
  EXPECT_EQ(with([](auto& a) { a.m = 0; }), "gemm.shape");
  EXPECT_EQ(with([](auto& a) { a.c = reinterpret_cast<Plan::TC*>(std::uintptr_t{0x100000}); }), "gemm.aliasing");
  // FP8 rows: K a multiple of 16 elements.
  auto f = good_arguments<p::Fp8E4M3Tile128x256>();
  f.k = 40, f.lda = 48, f.ldb = 48;
  EXPECT_EQ(rule_of<p::Fp8E4M3Tile128x256>(f), "gemm.k-multiple-of-16");
}

}  // namespace
