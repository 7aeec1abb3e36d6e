// SPDX-License-Identifier: Apache-2.0
// ClcDynamicPersistentTileScheduler's host-computable parts: its grid (every cluster tile), the
// tile of each cluster (the static scheduler's walk, checked against hand-computed tiles and
// against StaticPersistentTileScheduler with a grid of every unit), a simulated run in which
// clusters cancel the not yet started ones in an arbitrary order (every tile exactly once), the
// rejected parameters, the launch configuration, and the response pipeline's counts.
#include <cute_cpp/host/clc_launch.hpp>
#include <cute_cpp/pipeline/pipeline_clc_fetch_async.hpp>
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace cc = cute_cpp;

TEST(ClcDynamicPersistentTileScheduler, GridIsEveryClusterTile) {
  // 5 x 7 tiles, 2 batches, clusters of 2 along M: ceil(5/2) = 3 cluster rows, 7 columns, 42
  // cluster tiles, 84 CTAs.
  cc::PersistentTileSchedulerParams p{5, 7, 2, 2, 1};
  EXPECT_EQ(cc::ClcDynamicPersistentTileScheduler<2>::get_grid_shape(p), 84);
  cc::PersistentTileSchedulerParams q{16, 16, 1};
  EXPECT_EQ(cc::ClcDynamicPersistentTileScheduler<1>::get_grid_shape(q), 256);
}

TEST(ClcDynamicPersistentTileScheduler, ClusterTilesByHand) {
  // 4 x 4 tiles, clusters of 2 along M, groups of 2 cluster rows: 2 cluster rows x 4 columns,
  // one group walked column by column, so cluster tile u is cluster row u % 2, column u / 2;
  // rank r takes tile row 2 * (u % 2) + r.
  cc::PersistentTileSchedulerParams p{4, 4, 1, 2, 2};
  int const expect[8][2] = {{0, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}, {0, 3}, {2, 3}};
  for (int u = 0; u < 8; ++u) {
    for (int r = 0; r < 2; ++r) {
      cc::ClcDynamicPersistentTileScheduler<2> const s(p, 2 * u + r);
      auto const w = s.get_current_work();
      SCOPED_TRACE(::testing::Message() << "unit " << u << " rank " << r);
      EXPECT_TRUE(w.valid);
      EXPECT_EQ(w.m, expect[u][0] + r);
      EXPECT_EQ(w.n, expect[u][1]);
      EXPECT_EQ(w.l, 0);
      EXPECT_EQ(w.linear, u);
      EXPECT_EQ(w.k_block_begin, 0);
    }
  }
}

TEST(ClcDynamicPersistentTileScheduler, SameWalkAsTheStaticScheduler) {
  for (auto [tm, tn, l, cm, cn, sw] : {std::tuple{9, 5, 2, 2, 1, 3}, std::tuple{8, 8, 1, 1, 2, 2},
                                       std::tuple{3, 17, 3, 1, 1, 8}, std::tuple{7, 6, 1, 2, 2, 1}}) {
    cc::PersistentTileSchedulerParams p{tm, tn, l, cm, sw};
    p.cluster_n = cn;
    p.k_blocks = 12;
    int const size = cm * cn;
    auto const check = [&](auto scheduler_size) {
      constexpr int S = decltype(scheduler_size)::value;
      std::int64_t const grid = cc::ClcDynamicPersistentTileScheduler<S>::get_grid_shape(p);
      for (std::int64_t b = 0; b < grid; ++b) {
        auto const c = cc::ClcDynamicPersistentTileScheduler<S>(p, b).get_current_work();
        auto const s = cc::StaticPersistentTileScheduler(p, b, grid).get_current_work();
        SCOPED_TRACE(b);
        EXPECT_EQ(c.m, s.m);
        EXPECT_EQ(c.n, s.n);
        EXPECT_EQ(c.l, s.l);
        EXPECT_EQ(c.valid, s.valid);
        EXPECT_EQ(c.linear, s.linear);
        EXPECT_EQ(c.k_block_end, 12);
      }
    };
    if (size == 1) check(std::integral_constant<int, 1>{});
    if (size == 2) check(std::integral_constant<int, 2>{});
    if (size == 4) check(std::integral_constant<int, 4>{});
  }
}

// The hardware model: clusters start in launch order while "slots" are free; a running cluster
// that finishes a tile cancels the next not yet started cluster (whose first CTA is
// ClusterSize * index) or, if none is left, learns that nothing was canceled.
TEST(ClcDynamicPersistentTileScheduler, CancellingRunCoversEveryTileOnce) {
  constexpr int S = 2;
  cc::PersistentTileSchedulerParams p{11, 6, 2, 2, 2};
  std::int64_t const clusters = cc::ClcDynamicPersistentTileScheduler<S>::get_grid_shape(p) / S;
  std::mt19937 rng(20261130);
  std::map<std::tuple<int, int, int>, int> seen;
  std::int64_t next_to_start = 0;
  std::vector<std::vector<cc::ClcDynamicPersistentTileScheduler<S>>> running;
  for (int slot = 0; slot < 5; ++slot, ++next_to_start) {
    running.emplace_back();
    for (int r = 0; r < S; ++r) running.back().emplace_back(p, next_to_start * S + r);
  }
  while (!running.empty()) {
    std::size_t const i = rng() % running.size();
    auto& cluster = running[i];
    for (auto const& cta : cluster) {
      auto const w = cta.get_current_work();
      if (w.valid) ++seen[{w.m, w.n, w.l}];
    }
    bool const canceled = next_to_start < clusters;
    auto const first_ctaid_x = std::uint32_t(next_to_start * S);
    if (canceled) ++next_to_start;
    for (auto& cta : cluster) cta.set_from_response(canceled, first_ctaid_x);  // the multicast response
    if (!cluster[0].has_work()) running.erase(running.begin() + std::ptrdiff_t(i));
  }
  EXPECT_EQ(seen.size(), std::size_t(11 * 6 * 2));
  for (auto const& [tile, count] : seen) EXPECT_EQ(count, 1);
}

TEST(ClcDynamicPersistentTileScheduler, ANotCanceledResponseEndsTheWalk) {
  cc::PersistentTileSchedulerParams p{4, 4, 1};
  cc::ClcDynamicPersistentTileScheduler<1> s(p, 3);
  EXPECT_TRUE(s.has_work());
  s.set_from_response(true, 9);
  EXPECT_EQ(s.linear_idx(), 9);
  EXPECT_TRUE(s.get_current_work().valid);
  s.set_from_response(false, 0);
  EXPECT_FALSE(s.has_work());
  EXPECT_FALSE(s.get_current_work().valid);
}

TEST(ClcDynamicPersistentTileScheduler, RejectsSplitsStreamKAndAnotherClusterSize) {
  auto const expect_rule = [](cc::PersistentTileSchedulerParams const& p) {
    try {
      (void)cc::ClcDynamicPersistentTileScheduler<2>::get_grid_shape(p);
      ADD_FAILURE() << "accepted";
    } catch (std::invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find("sched.clc.params"), std::string::npos);
    }
  };
  cc::PersistentTileSchedulerParams p{8, 8, 1, 2, 1};
  p.k_blocks = 8;
  auto split = p;
  split.splits = 2;
  split.split_tiles = 3;
  expect_rule(split);
  auto stream_k = p;
  stream_k.set_stream_k(4, 2);
  expect_rule(stream_k);
  auto one = p;
  one.cluster_m = 1;
  expect_rule(one);
}

TEST(ClcLaunchConfig, OneDimensionalGridOfClusters) {
  cc::PersistentTileSchedulerParams p{5, 7, 2, 2, 1};
  auto const config = cc::host::clc_launch_config<2>(p, dim3(192), 200 * 1024);
  EXPECT_EQ(config.grid.x, 84u);
  EXPECT_EQ(config.grid.y, 1u);
  EXPECT_EQ(config.cluster.x, 2u);
  EXPECT_EQ(config.cluster.y, 1u);
  EXPECT_EQ(config.block.x, 192u);
  EXPECT_EQ(config.smem_bytes, std::size_t(200 * 1024));
  cc::PersistentTileSchedulerParams huge{1 << 16, 1 << 15, 1, 2, 1};
  try {
    (void)cc::host::clc_launch_config<2>(huge, dim3(192), 0);  // 2^30 cluster tiles: 2^31 CTAs
    ADD_FAILURE() << "accepted";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("sched.clc.grid"), std::string::npos);
  }
}

TEST(PipelineClcFetchAsync, CountsAndBytes) {
  // A 2-CTA cluster: each CTA's 4 epilogue + 1 MMA + 1 TMA warps read every response, and the
  // scheduler warp of rank 0 too: 2 * 6 + 1 warp arrivals release a slot.
  using Clc = cc::PipelineClcFetchAsync<1, 2 * 6 + 1, 2>;
  static_assert(Clc::tx_bytes == 16 && Clc::full_arrivals == 1 && Clc::empty_arrivals == 13);
  static_assert(Clc::producer_rank == 0 && Clc::cluster_size == 2);
}
