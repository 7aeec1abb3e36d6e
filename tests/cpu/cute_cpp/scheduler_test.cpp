// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cc = cute_cpp;

namespace {
// Runs every CTA's scheduler to the end: each valid tile must be visited exactly once, and the
// CTAs of one cluster must see one block of adjacent tiles at each step (rank r at tile row
// r % cluster_m, tile column r / cluster_m of it).
void expect_exact_cover(cc::PersistentTileSchedulerParams p, int sm_count) {
  SCOPED_TRACE(::testing::Message() << "tiles " << p.tiles_m << "x" << p.tiles_n << "x" << p.tiles_l << " cluster "
                                    << p.cluster_m << "x" << p.cluster_n << " raster " << p.raster_cluster_rows
                                    << " sms " << sm_count);
  int const size = p.cluster_size();
  auto const grid = cc::StaticPersistentTileScheduler::get_grid_shape(p, sm_count);
  ASSERT_EQ(grid % size, 0);
  ASSERT_LE(grid, std::max<std::int64_t>(sm_count - sm_count % size, size));
  std::map<std::tuple<int, int, int>, int> seen;
  for (std::int64_t cluster = 0; cluster < grid / size; ++cluster) {
    std::vector<cc::StaticPersistentTileScheduler> ranks;
    for (int r = 0; r < size; ++r) ranks.emplace_back(p, cluster * size + r, grid);
    while (ranks[0].has_work()) {
      auto const first = ranks[0].get_current_work();
      for (int r = 0; r < size; ++r) {
        ASSERT_TRUE(ranks[r].has_work());
        auto const w = ranks[r].get_current_work();
        EXPECT_EQ(w.n, first.n + r / p.cluster_m);
        EXPECT_EQ(w.l, first.l);
        EXPECT_EQ(w.m, first.m + r % p.cluster_m);
        if (w.valid) {
          EXPECT_LT(w.m, p.tiles_m);
          EXPECT_LT(w.n, p.tiles_n);
          ++seen[{w.m, w.n, w.l}];
        } else {
          EXPECT_TRUE(w.m >= p.tiles_m || w.n >= p.tiles_n);
        }
        ranks[r].advance_to_next_work();
      }
    }
  }
  EXPECT_EQ(seen.size(), std::size_t(p.tiles_m) * p.tiles_n * p.tiles_l);
  for (auto const& [tile, count] : seen) EXPECT_EQ(count, 1);
}
}  // namespace

TEST(StaticPersistentTileScheduler, VisitsEveryTileOnce) {
  for (int tm : {1, 3, 8, 64}) {
    for (int tn : {1, 5, 32}) {
      for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}}) {
        for (int sw : {1, 2, 8}) {
          for (int l : {1, 3}) {
            cc::PersistentTileSchedulerParams p{tm, tn, l, cm, sw};
            p.cluster_n = cn;
            expect_exact_cover(p, 132);
          }
        }
      }
    }
  }
  expect_exact_cover({7, 9, 1, 2, 4}, 5);
  cc::PersistentTileSchedulerParams along_n{7, 9, 1, 1, 4};
  along_n.cluster_n = 2;
  expect_exact_cover(along_n, 5);
}

TEST(StaticPersistentTileScheduler, SwizzleWalksGroupsColumnByColumn) {
  cc::PersistentTileSchedulerParams p{8, 4, 1, 1, 2};
  cc::StaticPersistentTileScheduler s(p, 0, 1);
  std::vector<std::pair<int, int>> order;
  for (; s.has_work(); s.advance_to_next_work()) order.emplace_back(s.get_current_work().m, s.get_current_work().n);
  ASSERT_EQ(order.size(), 32u);
  // The first group is tile rows 0-1, walked (0,0) (1,0) (0,1) (1,1) ...
  EXPECT_EQ(order[0], std::make_pair(0, 0));
  EXPECT_EQ(order[1], std::make_pair(1, 0));
  EXPECT_EQ(order[2], std::make_pair(0, 1));
  EXPECT_EQ(order[7], std::make_pair(1, 3));
  EXPECT_EQ(order[8], std::make_pair(2, 0));
}

// Split-K: the K ranges of every tile cover its K blocks exactly once; whole tiles come first,
// each split tile's units are adjacent, and each split CTA tile has its own workspace index.
TEST(StaticPersistentTileScheduler, SplitTilesCoverTheirKBlocksOnce) {
  for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}}) {
    for (int splits : {2, 3, 5}) {
      cc::PersistentTileSchedulerParams p{5, 7, 1, cm, 2};
      p.cluster_n = cn;
      p.k_blocks = 11;
      p.splits = splits;
      p.split_tiles = 9;
      SCOPED_TRACE(::testing::Message() << "cluster " << cm << "x" << cn << " splits " << splits);
      std::map<std::tuple<int, int, int>, std::vector<int>> blocks;  // tile -> K blocks seen
      std::set<std::int64_t> split_slots;
      std::int64_t const grid = cc::StaticPersistentTileScheduler::get_grid_shape(p, 10);
      EXPECT_EQ(grid, 10);
      for (std::int64_t b = 0; b < grid; ++b) {
        for (cc::StaticPersistentTileScheduler s(p, b, grid); s.has_work(); s.advance_to_next_work()) {
          auto const w = s.get_current_work();
          bool const split = s.linear_idx() >= p.units() - p.split_tiles;
          EXPECT_EQ(w.splits, split ? splits : 1);
          EXPECT_LT(w.k_block_begin, w.k_block_end);
          if (split) {
            EXPECT_LE(w.k_block_end - w.k_block_begin, 11 / splits + 1);
          }
          if (!w.valid) continue;
          if (split) {
            EXPECT_TRUE(split_slots.insert(w.split_tile * 8 + w.split).second);
          }
          for (int kb = w.k_block_begin; kb < w.k_block_end; ++kb) blocks[{w.m, w.n, w.l}].push_back(kb);
        }
      }
      EXPECT_EQ(blocks.size(), 35u);
      for (auto& [tile, seen] : blocks) {
        std::sort(seen.begin(), seen.end());
        std::vector<int> all(11);
        for (int i = 0; i < 11; ++i) all[std::size_t(i)] = i;
        EXPECT_EQ(seen, all);
      }
      for (auto slot : split_slots) EXPECT_LT(slot / 8, 9 * cm * cn);
    }
  }
}

TEST(StaticPersistentTileScheduler, GridNeverExceedsTilesOrSms) {
  EXPECT_EQ(cc::StaticPersistentTileScheduler::get_grid_shape({2, 2, 1, 1, 1}, 132), 4);
  EXPECT_EQ(cc::StaticPersistentTileScheduler::get_grid_shape({64, 64, 1, 1, 8}, 132), 132);
  EXPECT_EQ(cc::StaticPersistentTileScheduler::get_grid_shape({64, 64, 1, 2, 8}, 131), 130);
  EXPECT_EQ(cc::StaticPersistentTileScheduler::get_grid_shape({3, 1, 1, 2, 1}, 132), 4);
}

TEST(StaticPersistentTileScheduler, ThirtyTwoBitLimit) {
  cc::PersistentTileSchedulerParams p{};
  p.tiles_m = 1 << 16, p.tiles_n = 1 << 14, p.k_blocks = 64;
  EXPECT_TRUE(p.fits_32_bits());  // 2^30 units
  p.tiles_n = 1 << 15;
  EXPECT_FALSE(p.fits_32_bits());  // 2^31 units
  p.tiles_n = 1, p.k_blocks = 1 << 29, p.splits = 3, p.split_tiles = 1;
  EXPECT_FALSE(p.fits_32_bits());  // (splits + 1) * k_blocks = 2^31
  p.splits = 2;
  EXPECT_TRUE(p.fits_32_bits());
}

TEST(StaticPersistentTileScheduler, LargeGridTilesMatchTheRowMajorWalk) {
  // Far from the small cases above: the last tiles of a 2^20-tile problem in groups of 16 rows.
  cc::PersistentTileSchedulerParams p{};
  p.tiles_m = 1000, p.tiles_n = 1049, p.raster_cluster_rows = 16;
  std::int64_t const units = p.work_units();
  cc::StaticPersistentTileScheduler s(p, units - 1, units);
  auto const last = s.get_current_work();
  // The last group holds rows 992..999 (8 rows), walked column by column: the last unit is
  // row 999 of column 1048.
  EXPECT_EQ(last.m, 999);
  EXPECT_EQ(last.n, 1048);
  EXPECT_TRUE(last.valid);
  cc::StaticPersistentTileScheduler first_of_last_group(p, 992 * 1049, units);
  EXPECT_EQ(first_of_last_group.get_current_work().m, 992);
  EXPECT_EQ(first_of_last_group.get_current_work().n, 0);
}

namespace {
// Stream-K: runs every cluster's walk and checks that each tile's K blocks are covered exactly
// once; that a tile shared by two ranges has one unit leaving its partial sums (the first
// blocks, at the end of the lower cluster's range) and one adding them (the later blocks, the
// next cluster's range's start, walked last), both with the tile's own slot; that whole tiles
// carry no slot; that each cluster's range comes before its whole tiles; and that the range is
// walked K-aligned: the units starting at K block 0 first, in order, and the tail last.
void expect_stream_k_cover(cc::PersistentTileSchedulerParams p, int clusters) {
  SCOPED_TRACE(::testing::Message() << "tiles " << p.tiles_m << "x" << p.tiles_n << " cluster " << p.cluster_m << "x"
                                    << p.cluster_n << " k_blocks " << p.k_blocks << " stream-K tiles "
                                    << p.stream_k_tiles << " clusters " << clusters);
  ASSERT_TRUE(p.stream_k_valid());
  int const size = p.cluster_size();
  std::int64_t const grid = cc::StaticPersistentTileScheduler::get_grid_shape(p, clusters * size);
  ASSERT_EQ(grid, std::int64_t(clusters) * size);
  struct Piece {
    std::int64_t cluster;
    int begin, end;
    std::int64_t slot;
    bool last_of_range;
  };
  std::map<std::tuple<int, int, int>, std::vector<Piece>> pieces;
  for (std::int64_t b = 0; b < grid; ++b) {
    cc::StaticPersistentTileScheduler s(p, b, grid);
    std::vector<cc::WorkTileInfo> walk;
    for (; s.has_work(); s.advance_to_next_work()) walk.push_back(s.get_current_work());
    bool whole_seen = false, tail_seen = false;
    for (std::size_t i = 0; i < walk.size(); ++i) {
      auto const& w = walk[i];
      bool const stream_k = w.linear < p.stream_k_tiles;
      if (!stream_k) whole_seen = true;
      EXPECT_FALSE(stream_k && whole_seen) << "a stream-K unit after a whole tile";
      EXPECT_LT(w.k_block_begin, w.k_block_end);
      bool const shared = w.k_block_begin > 0 || w.k_block_end < p.k_blocks;
      EXPECT_EQ(w.stream_k_slot >= 0, shared);
      EXPECT_TRUE(!shared || stream_k);
      if (shared) {
        EXPECT_EQ(w.stream_k_slot, w.linear * size + b % size);
      }
      EXPECT_EQ(w.leaves_partial(), shared && w.k_block_begin == 0);
      EXPECT_EQ(w.adds_partial(), shared && w.k_block_begin > 0);
      bool const last_of_range = stream_k && (i + 1 == walk.size() || walk[i + 1].linear >= p.stream_k_tiles);
      if (stream_k) {
        EXPECT_FALSE(tail_seen) << "a stream-K unit after the tail";
        if (w.k_block_begin > 0) {
          tail_seen = true;
          EXPECT_TRUE(last_of_range);
        } else if (i > 0 && walk[i - 1].linear < p.stream_k_tiles) {
          EXPECT_EQ(w.linear, walk[i - 1].linear + 1) << "the units from K block 0 are walked in order";
        }
      }
      if (w.valid) pieces[{w.m, w.n, w.l}].push_back({b / size, w.k_block_begin, w.k_block_end, w.stream_k_slot,
                                                      last_of_range});
    }
  }
  EXPECT_EQ(pieces.size(), std::size_t(p.tiles_m) * p.tiles_n * p.tiles_l);
  for (auto& [tile, seen] : pieces) {
    std::sort(seen.begin(), seen.end(), [](Piece const& x, Piece const& y) { return x.begin < y.begin; });
    int next = 0;
    for (auto const& piece : seen) {
      EXPECT_EQ(piece.begin, next);
      next = piece.end;
    }
    EXPECT_EQ(next, p.k_blocks);
    ASSERT_LE(seen.size(), 2u);
    if (seen.size() == 2) {
      // The first blocks close the lower cluster's range; the later ones open the next cluster's
      // and are walked last there.
      EXPECT_EQ(seen[1].cluster, seen[0].cluster + 1);
      EXPECT_TRUE(seen[1].last_of_range);
      EXPECT_EQ(seen[0].slot, seen[1].slot);
    }
  }
}
}  // namespace

TEST(StaticPersistentTileScheduler, StreamKRangesCoverEveryTileOnce) {
  for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}}) {
    for (int k_blocks : {1, 3, 64, 65}) {
      for (int clusters : {1, 5, 66}) {
        cc::PersistentTileSchedulerParams p{17, 16, 1, cm, 4};
        p.cluster_n = cn;
        p.k_blocks = k_blocks;
        std::int64_t const units = p.units();
        if (units <= clusters) continue;
        p.set_stream_k(units % clusters + clusters, clusters);
        expect_stream_k_cover(p, clusters);
      }
    }
  }
  // A batch of three, and every tile in stream-K (ranges of exactly whole tiles when they divide).
  cc::PersistentTileSchedulerParams p{5, 7, 3, 1, 2};
  p.k_blocks = 9;
  p.set_stream_k(105, 10);
  expect_stream_k_cover(p, 10);
  p.set_stream_k(100, 10);
  expect_stream_k_cover(p, 10);
}

TEST(StaticPersistentTileScheduler, StreamKValidity) {
  cc::PersistentTileSchedulerParams p{4, 4, 1, 1, 1};
  EXPECT_TRUE(p.stream_k_valid());
  p.k_blocks = 5;
  p.set_stream_k(6, 8);  // ranges shorter than a tile
  EXPECT_FALSE(p.stream_k_valid());
  p.set_stream_k(6, 4);
  EXPECT_TRUE(p.stream_k_valid());
  EXPECT_EQ(p.stream_k_blocks, 7);  // 30 blocks in ranges of 8, 8, 7, 7
  EXPECT_EQ(p.stream_k_extra, 2);
  p.stream_k_extra = 1;  // not the run's remainder
  EXPECT_FALSE(p.stream_k_valid());
  p.set_stream_k(17, 4);  // more than the tiles
  EXPECT_FALSE(p.stream_k_valid());
  p.set_stream_k(8, 4);
  p.splits = 2, p.split_tiles = 2;  // with split-K
  EXPECT_FALSE(p.stream_k_valid());
  p.splits = 1, p.split_tiles = 0, p.k_blocks = 1 << 28;
  p.set_stream_k(8, 4);
  EXPECT_FALSE(p.fits_32_bits());  // 8 tiles of 2^28 blocks in one run
}
