// SPDX-License-Identifier: Apache-2.0
// The GEMM example's tile heuristic (kernels/gemm/gemm.hpp), on the H200's 132 SMs.
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/epilogue/stream_k_fixup.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace kn = cute_cpp::kernels;

TEST(ChooseGemmTile, LargeProblemsTakeTheWideTile) {
  static_assert(kn::choose_gemm_tile(8192, 8192, 8192, 132) == kn::GemmTile::n256);
  static_assert(kn::choose_gemm_tile(4096, 14336, 4096, 132) == kn::GemmTile::n256);
  static_assert(kn::choose_gemm_tile(8192, 1536, 8192, 132) == kn::GemmTile::n256);
  static_assert(kn::choose_gemm_tile(2048, 2048, 2048, 132) == kn::GemmTile::n256);
  // A full wave of 128 x 256 tiles (8 x 40 = 320) takes them, whatever the last wave leaves.
  static_assert(kn::choose_gemm_tile(1024, 10240, 8192, 132) == kn::GemmTile::n256);
  // More than one tile row, less than a wave: the same tile (split-K fills the wave); the
  // fullest-waves rule took 128 x 64 tiles here, 0.42-0.56x of cuBLASLt at 138-154 rows.
  static_assert(kn::choose_gemm_tile(129, 4096, 4096, 132) == kn::GemmTile::n256);
  static_assert(kn::choose_gemm_tile(138, 4096, 14336, 132) == kn::GemmTile::n256);
  static_assert(kn::choose_gemm_tile(272, 128256, 4096, 132) == kn::GemmTile::n256);
}

TEST(ChooseGemmTile, OneTileRowTakesTilesWithoutClusters) {
  // One tile row: no clusters along M (a 2-CTA cluster's second CTA would have no rows).
  // A width whose tiles fill 90% of a wave: 14336 / 112 = 128 tiles (in pairs along N that share
  // A), 16384 / 128 = 128 tiles, on 132 SMs.
  static_assert(kn::choose_gemm_tile(128, 14336, 4096, 132) == kn::GemmTile::n112cn2);
  static_assert(kn::choose_gemm_tile(100, 16384, 1024, 132) == kn::GemmTile::n128c1);
  // Else the widest tile that gives a fifth of the CTAs a tile (split-K fills the rest).
  static_assert(kn::choose_gemm_tile(128, 4096, 2048, 132) == kn::GemmTile::n128c1);
  // Long K no longer takes 112-column pairs below a wave (0.71-0.87x of cuBLASLt at 4096 columns,
  // 0.77-0.78x at 8192 x 28672; 128 x 128 or 128 x 256 tiles alone 0.75-0.94x).
  static_assert(kn::choose_gemm_tile(128, 4096, 4096, 132) == kn::GemmTile::n128c1);
  static_assert(kn::choose_gemm_tile(65, 4096, 4096, 132) == kn::GemmTile::n128c1);
  static_assert(kn::choose_gemm_tile(98, 8192, 28672, 132) == kn::GemmTile::n256c1);
  static_assert(kn::choose_gemm_tile(65, 8192, 2048, 132) == kn::GemmTile::n256c1);
  static_assert(kn::choose_gemm_tile(128, 1024, 4096, 132) == kn::GemmTile::n64c1);
  // At most 128 columns too: swapped, in 16-row tiles of M.
  static_assert(kn::choose_gemm_tile(111, 75, 10752, 132) == kn::GemmTile::swap16);
}

TEST(ChooseGemmTile, AtMost64RowsSwapAAndB) {
  static_assert(kn::choose_gemm_tile(1, 4096, 4096, 132) == kn::GemmTile::swap16);
  static_assert(kn::choose_gemm_tile(16, 4096, 4096, 132) == kn::GemmTile::swap16);
  static_assert(kn::choose_gemm_tile(17, 1024, 4096, 132) == kn::GemmTile::swap32);
  static_assert(kn::choose_gemm_tile(32, 14336, 4096, 132) == kn::GemmTile::swap32);
  static_assert(kn::choose_gemm_tile(33, 4096, 4096, 132) == kn::GemmTile::swap64);
  static_assert(kn::choose_gemm_tile(64, 4096, 4096, 132) == kn::GemmTile::swap64);
}

TEST(ChooseGemmTile, AtMost64ColumnsTakeNarrowTiles) {
  // Up to 1536 rows and K 8192: swapped, 32 rows of M a tile.
  static_assert(kn::choose_gemm_tile(437, 10, 904, 132) == kn::GemmTile::swap32);
  static_assert(kn::choose_gemm_tile(1536, 64, 8192, 132) == kn::GemmTile::swap32);
  // Longer K or more rows: 128 x 64 tiles alone, split-K where the wave is partial.
  static_assert(kn::choose_gemm_tile(448, 1, 32320, 132) == kn::GemmTile::n64c1);
  static_assert(kn::choose_gemm_tile(20680, 1, 224, 132) == kn::GemmTile::n64c1);
  // 65 columns are not narrow.
  static_assert(kn::choose_gemm_tile(4096, 65, 4096, 132) != kn::GemmTile::n64c1);
}

namespace {
using T16 = std::uint16_t;
using RowPlan = kn::GemmPlan<T16, T16, T16, kn::GemmConfig{.block_n = 128}>;
using SwappedPlan =
    kn::GemmPlan<T16, T16, T16, kn::GemmConfig{.block_n = 16, .layout_c = cute_cpp::LayoutEnum::ColMajor}>;
}  // namespace

TEST(SwapAbArguments, SwapsOperandsAndSizes) {
  T16 a[1], b[1], c[1], workspace[8];
  kn::GemmArguments<RowPlan> args;
  args.a = a, args.lda = 40, args.b = b, args.ldb = 24, args.c = c, args.ldc = 56;
  args.m = 16, args.n = 50, args.k = 24;
  args.decomposition = kn::Decomposition::SplitK;
  args.k_splits = 3, args.workspace = workspace, args.workspace_bytes = sizeof(workspace);
  args.independent = kn::IndependentOperand::B;
  auto const s = kn::swap_ab_arguments<SwappedPlan, RowPlan>(args);
  EXPECT_EQ(s.a, b);
  EXPECT_EQ(s.lda, 24);
  EXPECT_EQ(s.b, a);
  EXPECT_EQ(s.ldb, 40);
  EXPECT_EQ(s.c, c);
  EXPECT_EQ(s.ldc, 56);
  EXPECT_EQ(s.m, 50);
  EXPECT_EQ(s.n, 16);
  EXPECT_EQ(s.k, 24);
  EXPECT_EQ(s.decomposition, kn::Decomposition::SplitK);
  EXPECT_EQ(s.k_splits, 3);
  EXPECT_EQ(s.workspace, workspace);
  EXPECT_EQ(s.workspace_bytes, sizeof(workspace));
  // The weights were B; swapped they are A.
  EXPECT_EQ(s.independent, kn::IndependentOperand::A);
  args.independent = kn::IndependentOperand::None;
  EXPECT_EQ((kn::swap_ab_arguments<SwappedPlan, RowPlan>(args).independent), kn::IndependentOperand::None);
}

TEST(ChooseSplitK, SplitsOnlyThePartialLastWave) {
  // Full waves: nothing to split, whatever was asked.
  EXPECT_EQ(kn::choose_split_k(132, 132, 64, 64, 0).splits, 1);
  EXPECT_EQ(kn::choose_split_k(264, 132, 64, 64, 4).splits, 1);
  // Off.
  EXPECT_EQ(kn::choose_split_k(64, 132, 64, 64, 1).splits, 1);
  // Asked: the tail (all tiles in a partial first wave; the remainder after full waves) is split.
  auto const asked = kn::choose_split_k(64, 132, 64, 64, 3);
  EXPECT_EQ(asked.splits, 3);
  EXPECT_EQ(asked.split_tiles, 64);
  auto const tail = kn::choose_split_k(140, 132, 64, 64, 2);
  EXPECT_EQ(tail.splits, 2);
  EXPECT_EQ(tail.split_tiles, 8);
}

TEST(ChooseSplitK, ChoosesByTheWaveModel) {
  // 16 x 4096 x 4096 in 128 x 128 tiles: 32 tiles on 132 SMs, 64 K blocks: four splits fill the GPU.
  auto const skinny = kn::choose_split_k(32, 132, 64, 64, 0);
  EXPECT_EQ(skinny.splits, 4);
  EXPECT_EQ(skinny.split_tiles, 32);
  // 2048^3 in 128 x 256 tiles and 2-CTA clusters: 64 cluster tiles on 66 clusters: not split
  // (measured: 30 us whole, 48 us in two splits).
  EXPECT_EQ(kn::choose_split_k(64, 66, 32, 64, 0).splits, 1);
  // Short K: the partials cost more than the fuller wave gains.
  EXPECT_EQ(kn::choose_split_k(64, 132, 4, 64, 0).splits, 1);
  // Each split keeps at least two K blocks.
  EXPECT_EQ(kn::choose_split_k(8, 132, 3, 64, 0).splits, 1);
  // The pieces fit one wave: 537 x 4096 x 14336 in 128 x 256 tiles is 48 cluster tiles on 66
  // clusters: four splits (three waves, modelled 0.84 of whole tiles) ran at 191 us against 158
  // whole, so none; 16 cluster tiles (138 rows) take four (one wave, 0.34 modelled).
  EXPECT_EQ(kn::choose_split_k(48, 66, 224, 64, 0).splits, 1);
  EXPECT_EQ(kn::choose_split_k(16, 66, 224, 64, 0).splits, 4);
}

TEST(ChooseDecomposition, StreamKWhereTheLastWaveIsPartialAndKIsLong) {
  using D = kn::Decomposition;
  auto const heuristic = [](std::int64_t units, int k_blocks) {
    return kn::choose_decomposition(units, 66, k_blocks, 64, D::Heuristic, 0);
  };
  // 4096 x 14336 x 4096 in 128 x 256 tiles, 2-CTA clusters: 896 cluster tiles on 66 clusters,
  // 38 in the last wave: stream-K (0.58 + 2/16 + 0.1 tile times).
  auto const llm = heuristic(896, 64);
  EXPECT_EQ(llm.mode, D::StreamK);
  EXPECT_EQ(llm.stream_k_tiles, 38 + 66);
  EXPECT_EQ(llm.split.splits, 1);
  // A plan without stream-K's fixup (more than 128 accumulators a thread): whole tiles, as
  // split-K is never chosen after whole waves.
  EXPECT_EQ(kn::choose_decomposition(896, 66, 64, 64, D::Heuristic, 0, false).mode, D::DataParallel);
  // 8192^3: 1024 cluster tiles, 34 in the last wave.
  EXPECT_EQ(heuristic(1024, 128).mode, D::StreamK);
  EXPECT_EQ(heuristic(1024, 128).stream_k_tiles, 34 + 66);
  // 6144^3: 576 cluster tiles, 48 in the last wave (0.73 + 2/24 + 0.1).
  EXPECT_EQ(kn::choose_decomposition(576, 66, 96, 64, D::Heuristic, 0).mode, D::StreamK);
  // 4096^3 (58 of 66 in the last wave) and 8192 x 1536 x 8192 (60): whole tiles.
  EXPECT_EQ(heuristic(256, 64).mode, D::DataParallel);
  EXPECT_EQ(heuristic(192, 128).mode, D::DataParallel);
  // One partial wave: never stream-K; full waves: nothing to share out.
  EXPECT_EQ(heuristic(64, 32).mode, D::DataParallel);
  EXPECT_EQ(kn::choose_decomposition(32, 132, 64, 64, D::Heuristic, 0).mode, D::SplitK);
  EXPECT_EQ(heuristic(132, 64).mode, D::DataParallel);
  // Short K: the partial passes cost more than the balance gains.
  EXPECT_EQ(heuristic(100, 2).mode, D::DataParallel);
  // Asked for: whole tiles, split-K, stream-K.
  EXPECT_EQ(kn::choose_decomposition(896, 66, 64, 64, D::DataParallel, 0).mode, D::DataParallel);
  auto const split = kn::choose_decomposition(896, 66, 64, 64, D::SplitK, 4);
  EXPECT_EQ(split.mode, D::SplitK);
  EXPECT_EQ(split.split.splits, 4);
  EXPECT_EQ(split.split.split_tiles, 38);
  auto const stream_k = kn::choose_decomposition(132, 66, 64, 64, D::StreamK, 0);
  EXPECT_EQ(stream_k.mode, D::StreamK);
  EXPECT_EQ(stream_k.stream_k_tiles, 66);  // full waves: one tile per cluster, none shared
}

TEST(ChooseGemmTile, PlansFitTheSharedMemoryBudget) {
  using T = std::uint16_t;
  EXPECT_LE((kn::GemmPlan<T, T, T, kn::GemmConfig{.block_n = 128, .stages = 6, .cluster_m = 2}>::smem_bytes), 232448u);
}

TEST(GemmTileNames, EveryTileHasANameThatParsesBack) {
  for (auto const& [tile, name] : kn::gemm_tile_names) {
    EXPECT_EQ(kn::gemm_tile_name(tile), name);
    EXPECT_EQ(kn::parse_gemm_tile(name), tile) << name;
  }
  // A cache written by another build may name a tile this one lacks.
  EXPECT_EQ(kn::parse_gemm_tile("n512"), std::nullopt);
  EXPECT_EQ(kn::parse_gemm_tile(""), std::nullopt);
  static_assert(kn::gemm_tile_name(kn::GemmTile::swap16) == "swap16");
}

TEST(GemmChoiceNames, EveryCutHasANameThatParsesBack) {
  using kn::Decomposition;
  for (kn::GemmChoice const c : {kn::GemmChoice{kn::GemmTile::n128}, kn::GemmChoice{kn::GemmTile::swap16, Decomposition::SplitK, 12},
                                 kn::GemmChoice{kn::GemmTile::n256, Decomposition::StreamK},
                                 kn::GemmChoice{kn::GemmTile::simt, Decomposition::DataParallel}}) {
    auto const back = kn::parse_gemm_choice(kn::gemm_choice_name(c));
    ASSERT_TRUE(back.has_value()) << kn::gemm_choice_name(c);
    EXPECT_EQ(back->tile, c.tile);
    EXPECT_EQ(back->decomposition, c.decomposition);
    EXPECT_EQ(back->k_splits, c.k_splits);
  }
  EXPECT_EQ(kn::gemm_choice_name({kn::GemmTile::swap16, Decomposition::SplitK, 12}), "swap16 split 12");
  // A cache's tile alone (written before cuts were kept) is the heuristic's cut.
  EXPECT_EQ(kn::parse_gemm_choice("n64c1")->decomposition, Decomposition::Heuristic);
  for (char const* bad : {"n512", "n128 split", "n128 split 1", "n128 split x", "n128 halves", ""})
    EXPECT_EQ(kn::parse_gemm_choice(bad), std::nullopt) << bad;
}

TEST(ChooseFromTable, TakesTheChoiceGoodOnMostOfTheNearestShapes) {
  using kn::Decomposition;
  constexpr kn::GemmChoice choices[] = {{kn::GemmTile::n256, Decomposition::Heuristic, 0},
                                        {kn::GemmTile::swap16, Decomposition::SplitK, 8},
                                        {kn::GemmTile::simt, Decomposition::DataParallel, 0}};
  // Three shapes near 16 x 4096 x 4096 where swap16 split 8 was good, one far one where only
  // n256 was, and two tiny ones good with simt and n256.
  constexpr kn::GemmTableShape table[] = {{4.0f, 12.0f, 12.0f, 0b010},  {4.0f, 12.5f, 12.0f, 0b011},
                                          {3.5f, 12.0f, 12.5f, 0b010},  {13.0f, 13.0f, 13.0f, 0b001},
                                          {2.0f, 3.0f, 3.0f, 0b101},    {2.5f, 3.5f, 3.0f, 0b100}};
  auto const pick = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
    return kn::choose_from_table(m, n, k, table, choices, 3);
  };
  EXPECT_EQ(pick(16, 4096, 4096)->tile, kn::GemmTile::swap16);
  EXPECT_EQ(pick(16, 4096, 4096)->k_splits, 8);
  EXPECT_EQ(pick(6, 10, 8)->tile, kn::GemmTile::simt);
  EXPECT_EQ(pick(6, 10, 8)->decomposition, Decomposition::DataParallel);
  // Two of the large shape's three neighbours vote for swap16 split 8, but from far away: the
  // measured shape itself (distance 0) outweighs them.
  EXPECT_EQ(pick(8192, 8192, 8192)->tile, kn::GemmTile::n256);
  // Equal counts go to the earlier choice: both of (2, 3, 3)'s are good there.
  EXPECT_EQ(kn::choose_from_table(4, 8, 8, table, choices, 1)->tile, kn::GemmTile::n256);
  // A choice left out of `allowed` is not taken; with none of the good ones allowed, no choice.
  std::uint64_t const no_simt = ~std::uint64_t{0b100};
  EXPECT_EQ(kn::choose_from_table(6, 10, 8, table, choices, 3, no_simt)->tile, kn::GemmTile::n256);
  EXPECT_EQ(kn::choose_from_table(6, 12, 8, table, choices, 1, no_simt), std::nullopt);
}

// The fitting tool wrote, beside the table, its own prediction for shapes off it: the C++ lookup
// on the stored table must agree, choice for choice.
TEST(ChooseFromTable, AgreesWithTheFittingToolOnTheCommittedTable) {
  ASSERT_GT(std::size(kn::gemm_table_probes), 0u);
  for (kn::GemmTableProbe const& p : kn::gemm_table_probes) {
    bool const skinny = std::min(p.m, p.n) <= kn::SimtGemmTile::skinny_rows;
    auto const got = kn::choose_from_table(p.m, p.n, p.k, kn::gemm_tile_table, kn::gemm_tile_choices,
                                           kn::gemm_table_neighbours, kn::gemm_table_allowed(skinny));
    std::string const shape = std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
    ASSERT_EQ(got.has_value(), p.choice >= 0) << shape;
    if (!got) continue;
    kn::GemmChoice const want = kn::gemm_tile_choices[p.choice];
    EXPECT_EQ(kn::gemm_choice_name(*got), kn::gemm_choice_name(want)) << shape;
  }
}

TEST(SkinnyShortOperand, TakesTheShortSideBesideAKMajorLongOne) {
  using kn::SkinnyShort;
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  EXPECT_EQ(kn::skinny_short_operand(1, 4096, 64, K, K), SkinnyShort::a);
  EXPECT_EQ(kn::skinny_short_operand(4096, 8, 64, K, K), SkinnyShort::b);
  EXPECT_EQ(kn::skinny_short_operand(4096, 9, 64, K, K), SkinnyShort::none);
  EXPECT_EQ(kn::skinny_short_operand(3, 5, 64, K, K), SkinnyShort::a);  // the shorter of two
  // The long operand must be K-major; the short one may be either.
  EXPECT_EQ(kn::skinny_short_operand(1, 4096, 64, MN, K), SkinnyShort::a);
  EXPECT_EQ(kn::skinny_short_operand(1, 4096, 64, K, MN), SkinnyShort::none);
  EXPECT_EQ(kn::skinny_short_operand(3, 5, 64, K, MN), SkinnyShort::b);
  EXPECT_EQ(kn::skinny_short_operand(4096, 2, 64, MN, MN), SkinnyShort::none);
  // An M/N-major short operand only within its budget of scattered loads (long rows x K x rows).
  EXPECT_EQ(kn::skinny_short_operand(1, 4096, 128, MN, K), SkinnyShort::a);
  EXPECT_EQ(kn::skinny_short_operand(1, 4096, 129, MN, K), SkinnyShort::none);
  EXPECT_EQ(kn::skinny_short_operand(448, 1, 32320, K, MN), SkinnyShort::none);
  EXPECT_EQ(kn::skinny_short_operand(448, 1, 32320, K, K), SkinnyShort::b);
  // The dispatch takes SIMT only there, on at most skinny_dispatch_rows rows; beyond, swapped tiles.
  EXPECT_EQ(kn::choose_gemm_plan(23, 1, 11488, kn::gemm_table_sms, K, K).tile, kn::GemmTile::simt);
  EXPECT_EQ(kn::choose_gemm_plan(23, 1, 11488, kn::gemm_table_sms, K, MN).tile, kn::GemmTile::simt);
  EXPECT_NE(kn::choose_gemm_plan(23, 1, 11488, kn::gemm_table_sms, MN, MN).tile, kn::GemmTile::simt);
  EXPECT_EQ(kn::choose_gemm_plan(2, 4096, 4096, 132).tile, kn::GemmTile::simt);
  EXPECT_EQ(kn::choose_gemm_plan(3, 4096, 4096, 132).tile, kn::GemmTile::swap16);
  EXPECT_EQ(kn::choose_gemm_plan(8, 4096, 4096, 132).tile, kn::GemmTile::swap16);
}

// The workspace contract (issue 51): every launch's counters lie in one fixed region at the head
// and its partial sums after it, so one workspace serves any sequence of shapes: a launch's
// counters never lie where another's partial sums were.
TEST(GemmWorkspace, CountersLieInOneFixedRegionForEveryDecomposition) {
  alignas(16) static unsigned char base[64];
  auto const ws = cute_cpp::split_k_workspace(base);
  EXPECT_EQ(static_cast<void*>(ws.counters), static_cast<void*>(base));
  EXPECT_EQ(reinterpret_cast<unsigned char*>(ws.partials) - base, std::ptrdiff_t(cute_cpp::split_k_counter_bytes));
  EXPECT_EQ(cute_cpp::split_k_counter_bytes % 256, 0u);  // partials stay aligned for float4 stores
  // Every decomposition the heuristic or a caller can ask for, on up to 1024 CTAs in clusters of
  // 1 or 2 with two consumer warpgroups: its shared CTA tiles' counters fit the region.
  using D = kn::Decomposition;
  for (std::int64_t ctas : {66, 132, 264, 1024})
    for (int cluster : {1, 2})
      for (std::int64_t units : {std::int64_t{1}, ctas / cluster - 1, ctas / cluster + 7, 3 * ctas + 5})
        for (D asked : {D::Heuristic, D::SplitK, D::StreamK}) {
          std::int64_t const clusters = ctas / cluster;
          if (asked == D::StreamK && units <= clusters) continue;
          auto const d = kn::choose_decomposition(units, clusters, 64, 64, asked, asked == D::SplitK ? 8 : 0);
          std::int64_t const shared = (d.split.splits > 1 ? d.split.split_tiles : 0) + d.stream_k_tiles;
          EXPECT_TRUE(cute_cpp::split_k_counters_fit(shared * cluster, 2))
              << units << " cluster tiles on " << clusters << " clusters of " << cluster;
        }
  // The bytes a launch asks for are the fixed region and its own partial sums.
  EXPECT_EQ(cute_cpp::split_k_workspace_bytes(3, 4, 128 * 256),
            cute_cpp::split_k_counter_bytes + 3u * 4u * 128u * 256u * sizeof(float));
  EXPECT_EQ(cute_cpp::stream_k_workspace_bytes(5, 128 * 256), cute_cpp::split_k_counter_bytes + 5u * 128u * 256u * sizeof(float));
  EXPECT_EQ(cute_cpp::split_k_workspace_bytes(3, 1, 128 * 256), 0u);
}

// Issue 51: at 17-64 rows the weights' bytes bound a model's projections; the table, which
// measured no such shape, chose its 16-row neighbours' swap16 (the weights read once per 16 rows).
// Every published Qwen3 projection at those rows takes a swapped tile holding all of them, on the
// H200's 132 SMs.
TEST(ChooseGemmPlan, WeightsBoundRowsTakeASwappedTileHoldingEveryRow) {
  struct Projection {
    std::int64_t n, k;
  };
  // Qwen3-0.6B, 4B, 8B, 32B: QKV, output, gate-up, down; the LM head.
  Projection const projections[] = {{4096, 1024}, {1024, 2048}, {6144, 1024},   {1024, 3072},  {6144, 2560},
                                    {2560, 4096}, {19456, 2560}, {2560, 9728},  {6144, 4096},  {4096, 4096},
                                    {24576, 4096}, {4096, 12288}, {10240, 5120}, {5120, 8192}, {51200, 5120},
                                    {5120, 25600}, {151936, 4096}};
  for (std::int64_t m : {17, 24, 32, 33, 40, 48, 56, 64})
    for (auto const& p : projections) {
      auto const choice = kn::choose_gemm_plan(m, p.n, p.k, 132);
      std::int64_t const rows = kn::swapped_rows(choice.tile);
      EXPECT_TRUE(rows >= m && rows < 2 * m) << m << " x " << p.n << " x " << p.k << ": " << kn::gemm_choice_name(choice);
    }
}

namespace {
/// A row count of C and the tile the dispatch should take for it.
struct Want {
  std::int64_t m;
  kn::GemmTile tile;
};

/// A problem m x n x k and the tile choose_gemm_plan takes for it on 132 SMs.
struct ShapeTile {
  std::int64_t m, n, k;
  kn::GemmTile tile;
};

void expect_plans(std::initializer_list<ShapeTile> cases) {
  for (ShapeTile const c : cases)
    EXPECT_EQ(kn::choose_gemm_plan(c.m, c.n, c.k, 132).tile, c.tile) << c.m << " x " << c.n << " x " << c.k;
}
}  // namespace

// Issue 43: where 128-row tiles would multiply 1.6 times C's rows or more (65-80, 129-160), a
// linear layer's GEMM takes the narrowest wide swapped tile holding every row, and at 161-320 rows
// the narrowest pair of them; elsewhere, other layouts and narrow weights (at most 128 columns)
// keep choose_gemm_tile's tile.
TEST(ChooseGemmPlan, RowsThatPad128RowTilesTakeASwappedTileHoldingThem) {
  using kn::GemmTile;
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  for (Want const w : {Want{65, GemmTile::swap80}, {70, GemmTile::swap80}, {80, GemmTile::swap80},
                       {129, GemmTile::swap144}, {144, GemmTile::swap144}, {145, GemmTile::swap160},
                       {160, GemmTile::swap160}}) {
    EXPECT_EQ(kn::choose_gemm_plan(w.m, 4096, 4096, 132).tile, w.tile) << w.m;
    EXPECT_LT(kn::swapped_rows(w.tile) - w.m, 16) << w.m;
    EXPECT_EQ(kn::choose_gemm_plan(w.m, 4096, 4096, 132, K, MN).tile, kn::choose_gemm_tile(w.m, 4096, 4096, 132));
    EXPECT_EQ(kn::choose_gemm_plan(w.m, 128, 4096, 132).tile, kn::choose_gemm_tile(w.m, 128, 4096, 132));
  }
  for (std::int64_t m : {64, 81, 100, 128, 2048, 2561})
    EXPECT_EQ(kn::choose_gemm_plan(m, 4096, 4096, 132).tile, kn::choose_gemm_tile(m, 4096, 4096, 132)) << m;
  // Pairs of swapped tiles sharing the weights where 128-row tiles would take two or three.
  for (Want const w : {Want{161, GemmTile::swap96cn2}, {192, GemmTile::swap96cn2}, {193, GemmTile::swap112cn2},
                       {224, GemmTile::swap112cn2}, {225, GemmTile::swap128cn2}, {256, GemmTile::swap128cn2},
                       {257, GemmTile::swap144cn2}, {288, GemmTile::swap144cn2}, {289, GemmTile::swap160cn2},
                       {320, GemmTile::swap160cn2}}) {
    EXPECT_EQ(kn::paired_swapped_tile(w.m, 4096, 4096, 132), w.tile) << w.m;
    EXPECT_EQ(kn::choose_gemm_plan(w.m, 4096, 4096, 132, MN, K).tile, kn::choose_gemm_tile(w.m, 4096, 4096, 132));
  }
  // At 161-256 rows, not where the pairs (two CTAs for each 128 columns) would take a second wave.
  EXPECT_EQ(kn::paired_swapped_tile(194, 8448, 2048, 132), GemmTile::swap112cn2);  // 132 CTAs
  EXPECT_EQ(kn::paired_swapped_tile(194, 8704, 2048, 132), std::nullopt);         // 136: wide_token_tile's
  EXPECT_EQ(kn::wide_token_tile(194, 8704), GemmTile::swap208c2);
  EXPECT_EQ(kn::paired_swapped_tile(272, 151936, 4096, 132), GemmTile::swap144cn2);
  // The wide swapped tiles are built for K-major A and B; other layouts run their nearest, n256.
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::has(GemmTile::swap144));
  static_assert(!kn::plans::TileFamily<kn::plans::bf16, MN, K>::has(GemmTile::swap144));
  static_assert(kn::plans::TileFamily<kn::plans::f16, K, MN>::nearest(GemmTile::swap80) == GemmTile::n256);
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::wide_swapped_stages(80) == 8);
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::wide_swapped_stages(160) == 5);
}

TEST(ChooseGemmPlan, NarrowProjectionsPastOneTileRowTakeSmallerSwappedTilesWhereTheyLoadLess) {
  using kn::GemmTile;
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  // 537 x 1024 x 2048: 20 tiles of 128 x 256; swap112 pads 537 rows to 560 (swap80 too; the wider).
  EXPECT_EQ(kn::choose_gemm_plan(537, 1024, 2048, 132).tile, GemmTile::swap112);
  EXPECT_EQ(kn::choose_gemm_plan(500, 1024, 1024, 132).tile, GemmTile::swap128);  // 4 x 128 rows pad 500 least
  // Long K: four splits of the 128 x 256 tiles fill the SMs and load less than 60 swap112 tiles, so
  // not these (wide_token_tile's instead).
  EXPECT_EQ(kn::small_problem_swapped_tile(537, 1536, 7168, 132), std::nullopt);
  EXPECT_EQ(kn::wide_token_tile(537, 1536), GemmTile::swap192c2);
  // Enough 128 x 256 tiles (a quarter of the SMs or more), at most 128 columns, another layout: no.
  EXPECT_EQ(kn::small_problem_swapped_tile(537, 4096, 2048, 132), std::nullopt);
  EXPECT_EQ(kn::choose_gemm_plan(537, 128, 2048, 132).tile, kn::choose_gemm_tile(537, 128, 2048, 132));
  EXPECT_EQ(kn::choose_gemm_plan(537, 1024, 2048, 132, K, MN).tile,
            kn::choose_gemm_tile(537, 1024, 2048, 132));
  // 3 splits: 120 CTAs of 11 K blocks and a partial tile; 4 splits: 80 CTAs of 8 and a partial tile.
  static_assert(kn::tile_load_cost(537, 1024, 2048, 112, 128, 132) == 11 * 240 + 112 * 128 / 16);
  static_assert(kn::tile_load_cost(537, 1024, 2048, 128, 256, 132) == 8 * 384 + 128 * 256 / 16);
}

TEST(ChooseGemmPlan, AFewHundredRowsTakeTheFewestSwappedTilesOfAtMost256RowsHoldingThem) {
  using kn::GemmTile;
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  // Two tiles at 321-512 rows, three at 513-768, ... five at 1025-1280, each as wide as it needs
  // in steps of 16 from 176: 537 rows as 3 x 192 (576), 845 as 4 x 224 (896).
  for (Want const w : {Want{321, GemmTile::swap176c2}, {352, GemmTile::swap176c2}, {353, GemmTile::swap192c2},
                       {512, GemmTile::swap256c2}, {513, GemmTile::swap176c2}, {537, GemmTile::swap192c2},
                       {681, GemmTile::swap240c2}, {768, GemmTile::swap256c2}, {845, GemmTile::swap224c2},
                       {1070, GemmTile::swap224c2}, {1280, GemmTile::swap256c2}}) {
    EXPECT_EQ(kn::wide_token_tile(w.m, 5120), w.tile) << w.m;
    std::int64_t const tiles = (w.m + 255) / 256;
    EXPECT_GE(tiles * kn::swapped_rows(w.tile), w.m) << w.m;
    if (w.tile != GemmTile::swap176c2) {
      EXPECT_LT(tiles * (kn::swapped_rows(w.tile) - 16), w.m) << w.m;
    }
    EXPECT_EQ(kn::choose_gemm_plan(w.m, 5120, 5120, 132, MN, K).tile, kn::choose_gemm_tile(w.m, 5120, 5120, 132));
  }
  // One tile at 161-256 rows, where the pairs would take a second wave.
  EXPECT_EQ(kn::wide_token_tile(161, 10304), GemmTile::swap176c2);
  EXPECT_EQ(kn::wide_token_tile(242, 24576), GemmTile::swap256c2);
  EXPECT_EQ(kn::paired_swapped_tile(242, 24576, 4096, 132), std::nullopt);
  // Up to ten tiles (2560 rows); past them, or at most 128 columns: no.
  EXPECT_EQ(kn::wide_token_tile(1329, 5120), GemmTile::swap224c2);
  EXPECT_EQ(kn::wide_token_tile(2560, 5120), GemmTile::swap256c2);
  EXPECT_EQ(kn::wide_token_tile(2561, 5120), std::nullopt);
  EXPECT_EQ(kn::choose_gemm_plan(2561, 5120, 5120, 132).tile, kn::choose_gemm_tile(2561, 5120, 5120, 132));
  EXPECT_EQ(kn::choose_gemm_plan(537, 128, 5120, 132).tile, kn::choose_gemm_tile(537, 128, 5120, 132));
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::wide_swapped_stages(192) == 4);
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::wide_swapped_stages(208) == 5);
  static_assert(kn::plans::TileFamily<kn::plans::bf16, K, K>::wide_swapped_stages(256) == 4);
}

TEST(ChooseGemmPlan, PairsGiveWayToClustersOfFourOrWiderTilesWhereTheyLeaveLessWorkAWave) {
  using kn::GemmTile;
  // 272 x 4096: 64 CTAs either way, the pairs' 144 x 128 tiles the smallest (the 2 x 2 clusters
  // fill under 70% of the SMs); 272 x 6144: 96 CTAs, the clusters' 160 x 128 tiles weigh 20480 / 1.2.
  EXPECT_EQ(kn::choose_gemm_plan(272, 4096, 4096, 132).tile, GemmTile::swap144cn2);
  EXPECT_EQ(kn::choose_gemm_plan(272, 6144, 4096, 132).tile, GemmTile::swap160c2cn2);
  // 537 x 8192: 3 x 192 rows in 192 CTAs (two waves), 4 x 160 in 256 (two), 4 x 144 by 256 columns
  // in 128 (one): the 256-column pairs.
  EXPECT_EQ(kn::wide_token_tile(537, 8192), GemmTile::swap192c2);
  EXPECT_EQ(kn::choose_gemm_plan(537, 8192, 28672, 132).tile, GemmTile::swap144x256cn2);
  // 845 x 8192: 4 x 224 rows in 256 CTAs, two waves of pairs (132 a wave) but three of 2 x 2
  // clusters (120); 6 x 144 by 256 columns in 192, two waves of 36864 / 1.15: the pairs. 845 x 14336:
  // 448 CTAs, four waves either way, 28672 against 28672 / 1.2: the clusters (three waves of the
  // 256-column pairs, 336 CTAs, weigh 96165 against their 95573).
  EXPECT_EQ(kn::choose_gemm_plan(845, 8192, 28672, 132).tile, GemmTile::swap224c2);
  EXPECT_EQ(kn::choose_gemm_plan(845, 14336, 4096, 132).tile, GemmTile::swap224c2cn2);
  // Where the small problem's rule also applies, the pair stays (its narrow projections), unless
  // the weights are small (small_weights_paired_tile).
  EXPECT_EQ(kn::choose_gemm_plan(272, 2048, 4096, 132).tile, kn::paired_swapped_tile(272, 2048, 4096, 132));
  EXPECT_EQ(kn::choose_gemm_plan(272, 1024, 2048, 132).tile, kn::load_ranked_swapped_tile(272, 1024, 2048, 132));
  // Every choice holds m rows of C (the clusters and pairs in whole pairs).
  for (std::int64_t m = 161; m <= 1280; m += 7)
    for (std::int64_t n : {2560, 4096, 6144, 14336, 128256}) {
      GemmTile const t = kn::choose_gemm_plan(m, n, 4096, 132).tile;
      EXPECT_TRUE(kn::swapped_rows(t) > 0 || t == GemmTile::n256) << m << " x " << n;
      std::int64_t const rows = kn::swapped_rows(t) > 0 ? kn::swapped_rows(t) : 128;
      EXPECT_GE(2 * ((m + 2 * rows - 1) / (2 * rows)) * rows, m) << m << " x " << n;
    }
}

// The pairing tables agree with the names' suffixes (cn2: pairs along C's rows; c2cn2: 2 x 2).
TEST(GemmTileNames, SwappedPairingMatchesTheName) {
  for (auto const& [tile, name] : kn::gemm_tile_names) {
    bool const swapped = kn::swapped_rows(tile) > 0;
    EXPECT_EQ(kn::swapped_in_quads(tile), swapped && name.ends_with("c2cn2")) << name;
    EXPECT_EQ(kn::swapped_pairs_along_rows(tile), swapped && name.ends_with("cn2")) << name;
  }
}

// A call that asks for stream-K runs a tile with its fixup, of the same rows and pairing (the
// 256-column swapped tiles have none: 1100 x 3900 x 136 took swap144x256cn2 and threw).
TEST(ChooseGemmPlan, StreamKTakesATileWithItsFixup) {
  using kn::GemmTile;
  kn::AutoGemmArguments<kn::plans::bf16> args{};
  args.m = 1100, args.n = 3900, args.k = 136;
  for (auto const& [tile, name] : kn::gemm_tile_names) {
    GemmTile const t = kn::stream_k_tile(tile);
    bool const fixup = kn::with_tile_plan(t, args, []<class P>(std::type_identity<P>, auto const&) {
      if constexpr (kn::is_simt_plan_v<P>) return true;
      else return P::stream_k;
    });
    EXPECT_TRUE(fixup) << name;
    EXPECT_EQ(kn::swapped_rows(t), kn::swapped_rows(tile)) << name;
    EXPECT_EQ(kn::swapped_pairs_along_rows(t), kn::swapped_pairs_along_rows(tile)) << name;
  }
  EXPECT_EQ(kn::choose_gemm_plan(1100, 3900, 136, 132).tile, GemmTile::swap144x256cn2);
  EXPECT_EQ(kn::stream_k_tile(GemmTile::swap144x256cn2), GemmTile::swap144cn2);
  EXPECT_EQ(kn::stream_k_tile(GemmTile::swap160x256c2), GemmTile::swap160c2);
}

TEST(ChooseGemmPlan, WideWeightsAtAFewScoreRowsTakePingPongPairsOrWideTokenTiles) {
  using kn::GemmTile;
  // 98 x 128256 (an LM head): choose_gemm_tile's one row of 128 x 256 tiles gives way to 64 x 256
  // PingPong tiles in pairs along M; where it takes narrower tiles (98 x 4096), they stay.
  ASSERT_EQ(kn::choose_gemm_tile(98, 128256, 4096, 132), GemmTile::n256c1);
  EXPECT_EQ(kn::choose_gemm_plan(98, 128256, 4096, 132).tile, GemmTile::n256m64);
  EXPECT_EQ(kn::choose_gemm_plan(98, 4096, 4096, 132).tile, kn::choose_gemm_tile(98, 4096, 4096, 132));
  EXPECT_NE(kn::choose_gemm_tile(98, 4096, 4096, 132), GemmTile::n256c1);
  EXPECT_EQ(kn::pingpong_wide_tile(64, 128256, 4096, 132), std::nullopt);   // the swapped 64-row tiles'
  EXPECT_EQ(kn::pingpong_wide_tile(129, 128256, 4096, 132), std::nullopt);  // past one 128-row tile
  // Other operand layouts keep choose_gemm_tile's tile.
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  EXPECT_EQ(kn::choose_gemm_plan(98, 128256, 4096, 132, MN, K).tile, GemmTile::n256c1);
  // 129-160 rows: the covering tile alone below 5120 columns while the weights fit L2 (4096 x
  // 4096, 2^24 elements); in pairs along C's columns from 5120 columns or 2^25 (4096 x 8192) on.
  EXPECT_EQ(kn::choose_gemm_plan(138, 4096, 4096, 132).tile, GemmTile::swap144);
  EXPECT_EQ(kn::choose_gemm_plan(138, 4096, 8191, 132).tile, GemmTile::swap144);
  EXPECT_EQ(kn::choose_gemm_plan(138, 4096, 8192, 132).tile, GemmTile::swap144c2);
  EXPECT_EQ(kn::choose_gemm_plan(138, 5119, 2048, 132).tile, GemmTile::swap144);
  EXPECT_EQ(kn::choose_gemm_plan(145, 5120, 2048, 132).tile, GemmTile::swap160c2);
  EXPECT_EQ(kn::choose_gemm_plan(154, 151936, 4096, 132).tile, GemmTile::swap160c2);
  EXPECT_EQ(kn::choose_gemm_plan(128, 151936, 4096, 132).tile, kn::pingpong_wide_tile(128, 151936, 4096, 132));
  // At 65-80 rows the covering tile stays whatever the weights.
  EXPECT_EQ(kn::choose_gemm_plan(70, 151936, 4096, 132).tile, GemmTile::swap80);
}

// Issue 43: where the covering tile is one tile alone on weights of at most 2^22 elements, the
// swapped tile of 32-160 rows that tile_load_cost ranks first (more tiles of C's rows, the weights
// read again from L2); pairs and larger weights keep the covering tile. Values as
// tools/judge_gemm_rules.py's mirror computes them.
TEST(ChooseGemmPlan, SmallWeightsTakeTheSwappedTileThatLoadsLeast) {
  using kn::GemmTile;
  // 80 x 4096 x 2048: the covering tile ranked first itself; 1024 x 4096 weights are small, one
  // more column is not; pairs along C's columns (5120 columns and more) are left alone.
  expect_plans({{138, 1024, 2048, GemmTile::swap32}, {70, 1024, 2048, GemmTile::swap32},
                {154, 2048, 2048, GemmTile::swap80}, {70, 2048, 2048, GemmTile::swap64},
                {80, 4096, 2048, GemmTile::swap80}, {150, 1024, 4096, GemmTile::swap64},
                {150, 1024, 4097, GemmTile::swap160}, {145, 6144, 1024, GemmTile::swap160c2}});
  EXPECT_EQ(kn::small_weights_swapped_tile(145, 6144, 1024, GemmTile::swap160c2, 132), GemmTile::swap160c2);
  constexpr auto K = cute_cpp::OperandMajorMode::K, MN = cute_cpp::OperandMajorMode::MN;
  EXPECT_EQ(kn::choose_gemm_plan(138, 1024, 2048, 132, MN, K).tile, kn::choose_gemm_tile(138, 1024, 2048, 132));
  // Every choice holds C's rows in tiles of at most 160 and is built for a linear layer.
  for (std::int64_t m : {65, 72, 80, 129, 140, 160})
    for (std::int64_t n : {256, 576, 1024, 2048, 4096})
      for (std::int64_t k : {64, 1000, 2048}) {
        GemmTile const t = kn::choose_gemm_plan(m, n, k, 132).tile;
        EXPECT_GT(kn::swapped_rows(t), 0) << m << " x " << n << " x " << k;
        EXPECT_TRUE((kn::plans::TileFamily<kn::plans::bf16, K, K>::has(t))) << m << " x " << n << " x " << k;
      }
}

// Issue 43: at 161-320 rows, small weights (at most 2^22 elements) take the swapped tile that
// loads least rather than the pairs, and at 161-256 rows weights past L2 (2^25) take one wide tile
// (wide_token_tile, weighed by fewest_waves_tile) rather than the pairs. Values as
// tools/judge_gemm_rules.py's mirror computes them.
TEST(ChooseGemmPlan, AFewHundredRowsOfSmallOrLargeWeightsLeaveThePairs) {
  using kn::GemmTile;
  expect_plans({{201, 1024, 1536, GemmTile::swap64}, {300, 768, 2048, GemmTile::swap64},
                {320, 4096, 1024, GemmTile::swap80}, {272, 1024, 2048, GemmTile::swap80},
                {272, 2048, 4096, GemmTile::swap144cn2},  // 2^23 elements: the pair
                {230, 5120, 17408, GemmTile::n256}, {189, 5120, 17408, GemmTile::swap192c2},
                {256, 4096, 8192, GemmTile::n256},  // 2^25: past L2
                {256, 4096, 8191, GemmTile::swap128cn2}, {257, 4096, 8192, GemmTile::swap144cn2},
                {270, 5120, 17408, GemmTile::swap144cn2}});  // past 256 rows the pairs stay
  EXPECT_EQ(kn::small_weights_paired_tile(201, 1024, 1536, 132), GemmTile::swap64);
  EXPECT_EQ(kn::small_weights_paired_tile(160, 1024, 1536, 132), std::nullopt);  // covering_swapped_tile's rows
  EXPECT_EQ(kn::small_weights_paired_tile(321, 1024, 1536, 132), std::nullopt);
  EXPECT_EQ(kn::small_weights_paired_tile(201, 128, 1536, 132), std::nullopt);
  EXPECT_EQ(kn::paired_swapped_tile(230, 5120, 17408, 132), std::nullopt);
  EXPECT_EQ(kn::paired_swapped_tile(270, 5120, 17408, 132), GemmTile::swap144cn2);
  // Every choice at 161-320 rows is built for a linear layer and holds C's rows.
  constexpr auto K = cute_cpp::OperandMajorMode::K;
  for (std::int64_t m = 161; m <= 320; m += 13)
    for (std::int64_t n : {256, 768, 1024, 4096, 14336})
      for (std::int64_t k : {512, 1536, 4096, 17408}) {
        GemmTile const t = kn::choose_gemm_plan(m, n, k, 132).tile;
        EXPECT_TRUE((kn::plans::TileFamily<kn::plans::bf16, K, K>::has(t))) << m << " x " << n << " x " << k;
        std::int64_t const rows = kn::swapped_rows(t) > 0 ? kn::swapped_rows(t) : 128;
        EXPECT_GE(2 * ((m + 2 * rows - 1) / (2 * rows)) * rows, m) << m << " x " << n << " x " << k;
      }
}

TEST(ChooseGemmPlan, The128x256PairsAlongMWeighInWhereTheyPadLittle) {
  using kn::GemmTile;
  // 1281 x 4096: the pairs along M pad to 1536 rows (12 x 16 CTAs, two waves of 32768 / 1.1); six
  // tiles of 224 rows in 2 x 2 clusters, 192 CTAs (two waves of 120, 28672 / 1.2): the clusters.
  EXPECT_EQ(kn::choose_gemm_plan(1281, 4096, 4096, 132).tile, GemmTile::swap224c2cn2);
  EXPECT_EQ(kn::choose_gemm_plan(1332, 1536, 2048, 132).tile, GemmTile::swap224c2);
  // 2048 and 505 rows pad to 2048 and 512 in them, and they are the lighter: 505 x 10304 takes
  // 4 x 41 of them, two waves of 32768 / 1.1, where 4 x 144 rows by 256 columns weigh 36864 / 1.15.
  EXPECT_EQ(kn::choose_gemm_plan(2048, 4096, 4096, 132).tile, GemmTile::n256);
  EXPECT_EQ(kn::choose_gemm_plan(505, 10304, 2688, 132).tile, GemmTile::n256);
  // Every choice at 1281-2560 rows holds m rows of C.
  for (std::int64_t m = 1281; m <= 2560; m += 37)
    for (std::int64_t n : {1536, 2560, 4096, 14336, 151936}) {
      GemmTile const t = kn::choose_gemm_plan(m, n, 4096, 132).tile;
      std::int64_t const rows = kn::swapped_rows(t) > 0 ? kn::swapped_rows(t) : 128;
      EXPECT_GE(2 * ((m + 2 * rows - 1) / (2 * rows)) * rows, m) << m << " x " << n;
    }
}

TEST(GatedSkinnyKernel, TakesAFewRowsOfAGatedPlanCutWhole) {
  kn::GemmArguments<kn::plans::Bf16TNSwiGLU> a;
  a.m = 1, a.n = 2 * 12288, a.k = 4096;  // a decode step's gate-up projection
  EXPECT_TRUE(kn::gated_gemv_takes<kn::plans::Bf16TNSwiGLU>(a));
  a.m = 8;
  EXPECT_TRUE(kn::gated_gemv_takes<kn::plans::Bf16TNSwiGLU>(a));
  a.decomposition = kn::Decomposition::DataParallel;
  EXPECT_TRUE(kn::gated_gemv_takes<kn::plans::Bf16TNSwiGLU>(a));
  // More rows than the skinny kernel holds, or a cut it does not make: the tensor-core kernel.
  a.m = 9, a.decomposition = kn::Decomposition::Heuristic;
  EXPECT_FALSE(kn::gated_gemv_takes<kn::plans::Bf16TNSwiGLU>(a));
  a.m = 1, a.decomposition = kn::Decomposition::SplitK, a.k_splits = 2;
  EXPECT_FALSE(kn::gated_gemv_takes<kn::plans::Bf16TNSwiGLU>(a));
  // Not gated: the plain dispatch decides (the skinny kernel through the SIMT plan).
  kn::GemmArguments<kn::plans::Bf16TN> plain;
  plain.m = 1, plain.n = 4096, plain.k = 4096;
  EXPECT_FALSE(kn::gated_gemv_takes<kn::plans::Bf16TN>(plain));
}
