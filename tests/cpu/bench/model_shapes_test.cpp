// SPDX-License-Identifier: Apache-2.0
// Issue 43's model-shape sweep as data (bench/gemm/model_shapes.hpp): each model's projections
// with their N and K, deduplication keeping every name, the M grid, the held-out split and the
// thinning that fits a part in one command.
#include "bench/gemm/model_shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace ms = cute_cpp::test::model_shapes;

namespace {
/// The (N, K) whose names include `name`; {0, 0} if none does.
std::pair<std::int64_t, std::int64_t> find(std::string const& name) {
  for (auto const& p : ms::projections())
    if (std::find(p.names.begin(), p.names.end(), name) != p.names.end()) return {p.n, p.k};
  return {0, 0};
}
using NK = std::pair<std::int64_t, std::int64_t>;
}  // namespace

TEST(ModelShapes, EachModelsProjectionsHaveTheirShapes) {
  EXPECT_EQ(find("Llama-3-8B qkv"), NK(6144, 4096));
  EXPECT_EQ(find("Llama-3-8B o"), NK(4096, 4096));
  EXPECT_EQ(find("Llama-3-8B gate-up"), NK(28672, 4096));
  EXPECT_EQ(find("Llama-3-8B down"), NK(4096, 14336));
  EXPECT_EQ(find("Llama-3-8B lm-head"), NK(128256, 4096));
  EXPECT_EQ(find("Llama-3-70B qkv"), NK(10240, 8192));
  EXPECT_EQ(find("Llama-3-70B gate-up"), NK(57344, 8192));
  EXPECT_EQ(find("Llama-3-70B down"), NK(8192, 28672));
  EXPECT_EQ(find("Mistral-7B lm-head"), NK(32000, 4096));
  EXPECT_EQ(find("Mixtral-8x7B expert gate-up"), NK(28672, 4096));
  EXPECT_EQ(find("Mixtral-8x7B expert down"), NK(4096, 14336));
  EXPECT_EQ(find("Qwen3-0.6B qkv"), NK(4096, 1024));
  EXPECT_EQ(find("Qwen3-0.6B o"), NK(1024, 2048));
  EXPECT_EQ(find("Qwen3-4B qkv"), NK(6144, 2560));
  EXPECT_EQ(find("Qwen3-8B gate-up"), NK(24576, 4096));
  EXPECT_EQ(find("Qwen3-14B qkv"), NK(7168, 5120));
  EXPECT_EQ(find("Qwen3-32B o"), NK(5120, 8192));
  EXPECT_EQ(find("Qwen3-32B down"), NK(5120, 25600));
  EXPECT_EQ(find("Qwen3-30B-A3B qkv"), NK(5120, 2048));
  EXPECT_EQ(find("Qwen3-30B-A3B expert gate-up"), NK(1536, 2048));
  EXPECT_EQ(find("Qwen3-30B-A3B expert down"), NK(2048, 768));
  EXPECT_EQ(find("Qwen3-30B-A3B lm-head"), NK(151936, 2048));
  EXPECT_EQ(find("DeepSeek-V3 q_a"), NK(1536, 7168));
  EXPECT_EQ(find("DeepSeek-V3 kv_a"), NK(576, 7168));
  EXPECT_EQ(find("DeepSeek-V3 q_b"), NK(24576, 1536));
  EXPECT_EQ(find("DeepSeek-V3 kv_b"), NK(32768, 512));
  EXPECT_EQ(find("DeepSeek-V3 o"), NK(7168, 16384));
  EXPECT_EQ(find("DeepSeek-V3 gate-up"), NK(36864, 7168));
  EXPECT_EQ(find("DeepSeek-V3 down"), NK(7168, 18432));
  EXPECT_EQ(find("DeepSeek-V3 expert gate-up"), NK(4096, 7168));
  EXPECT_EQ(find("DeepSeek-V3 shared down"), NK(7168, 2048));
  EXPECT_EQ(find("DeepSeek-V3 lm-head"), NK(129280, 7168));
  // Qwen3-30B-A3B's layers are all MoE: no dense gate-up.
  EXPECT_EQ(find("Qwen3-30B-A3B gate-up"), NK(0, 0));
}

TEST(ModelShapes, DeduplicationKeepsEveryName) {
  auto const ps = ms::projections();
  std::set<NK> seen;
  std::size_t names = 0;
  for (auto const& p : ps) {
    EXPECT_TRUE(seen.insert({p.n, p.k}).second) << p.label();
    EXPECT_EQ(p.k % 8, 0) << p.label();  // the GEMM's [gemm.k-multiple-of-8]
    names += p.names.size();
  }
  std::vector<ms::Projection> raw;
  for (auto const& f : ms::models) ms::append_projections(f, raw);
  EXPECT_EQ(names, raw.size());
  EXPECT_LT(ps.size(), raw.size());
  // Four models share the fused QKV of 32 q and 8 kv heads of 128 on a 4096 hidden size.
  EXPECT_EQ(ms::projections()[0].label(), "Llama-3-8B qkv, Mistral-7B qkv, Mixtral-8x7B qkv, Qwen3-8B qkv");
}

TEST(ModelShapes, MGridIsDenseThenGeometric) {
  auto const grid = ms::m_grid();
  ASSERT_GE(grid.size(), 17u);
  for (std::int64_t m = 1; m <= 16; ++m) EXPECT_EQ(grid[std::size_t(m - 1)], m);
  EXPECT_EQ(grid.back(), 16384);
  EXPECT_TRUE(std::is_sorted(grid.begin(), grid.end()));
  EXPECT_EQ(std::set<std::int64_t>(grid.begin(), grid.end()).size(), grid.size());
  bool odd = false;
  for (std::size_t i = 16; i < grid.size(); ++i) {
    double const ratio = double(grid[i]) / double(grid[i - 1]);
    SCOPED_TRACE(std::to_string(grid[i - 1]) + " -> " + std::to_string(grid[i]));
    EXPECT_GT(ratio, 1.0);
    if (i + 1 < grid.size()) EXPECT_NEAR(ratio, 1.12, 0.04);  // rounding, largest at small M
    else EXPECT_LE(ratio, 1.12 + 0.04);                       // 16384 may follow closer
    odd = odd || grid[i] % 2 == 1;
  }
  EXPECT_TRUE(odd);
}

TEST(ModelShapes, SplitIsDeterministicAboutHalfAndCoversEveryProjection) {
  auto const ps = ms::projections();
  auto const grid = ms::m_grid();
  std::size_t held = 0, total = 0;
  for (auto const& p : ps) {
    std::size_t mine = 0;
    for (std::int64_t m : grid) {
      bool const h = ms::held_out(m, p.n, p.k);
      EXPECT_EQ(h, ms::held_out(m, p.n, p.k));
      mine += h;
    }
    EXPECT_GT(mine, 0u) << p.label();
    EXPECT_LT(mine, grid.size()) << p.label();
    held += mine;
    total += grid.size();
  }
  EXPECT_NEAR(double(held) / double(total), 0.5, 0.05);
  // Fixed values: the split must not move between builds (the fit would see held-out points).
  static_assert(ms::held_out(1, 6144, 4096) == ms::held_out(1, 6144, 4096));
  EXPECT_STREQ(ms::half_name(1, 6144, 4096), ms::held_out(1, 6144, 4096) ? "held-out" : "fit");
}

TEST(ModelShapes, ThinningKeepsEveryShapeAndBothEnds) {
  auto const grid = ms::m_grid();
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(20), grid.size(),
                        grid.size() + 5}) {
    auto const kept = ms::thin(grid, n);
    EXPECT_EQ(kept.size(), std::min(n, grid.size()));
    EXPECT_EQ(kept.back(), 16384);
    if (n > 1) {
      EXPECT_EQ(kept.front(), 1);
    }
    EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  }
  auto const pts = ms::points(6);
  std::set<std::size_t> shapes;
  for (auto const& p : pts) shapes.insert(p.projection);
  EXPECT_EQ(shapes.size(), ms::projections().size());
  EXPECT_EQ(pts.size(), 6 * ms::projections().size());
}

TEST(ModelShapes, PartsSplitThePointsAndFitTheirBudget) {
  std::size_t sum = 0;
  for (int part = 0; part < 3; ++part) sum += ms::points(10, ms::Half::all, part, 3).size();
  EXPECT_EQ(sum, ms::points(10).size());
  std::size_t const held = ms::points(10, ms::Half::held_out).size(), fit = ms::points(10, ms::Half::fit).size();
  for (auto const& p : ms::points(10, ms::Half::held_out)) EXPECT_TRUE(ms::held_out(p.m, p.n, p.k));
  for (auto const& p : ms::points(10, ms::Half::fit)) EXPECT_FALSE(ms::held_out(p.m, p.n, p.k));
  EXPECT_EQ(held + fit, ms::points(10).size());
  for (ms::Sweep sweep : {ms::Sweep::cold, ms::Sweep::warm, ms::Sweep::candidates}) {
    ms::Half const half = sweep == ms::Sweep::candidates ? ms::Half::fit : ms::Half::all;
    std::size_t const m_points = ms::m_points_within(480.0, sweep, half, 0, 2);
    EXPECT_GE(m_points, 2u);
    EXPECT_LE(ms::estimated_seconds(ms::points(m_points, half, 0, 2), sweep), 480.0);
    if (m_points < ms::m_grid().size()) {
      EXPECT_GT(ms::estimated_seconds(ms::points(m_points + 1, half, 0, 2), sweep), 480.0);
    }
  }
  // A candidate point times every tile and cut: far dearer than a model-sweep point.
  EXPECT_GT(ms::point_seconds(64, 4096, 4096, ms::Sweep::candidates), 3 * ms::point_seconds(64, 4096, 4096, ms::Sweep::cold));
}
