// SPDX-License-Identifier: Apache-2.0
// The grouped GEMM's host-side arithmetic (sched/grouped_tiles.hpp, kernels/gemm/grouped_gemm.hpp):
// the walk's tile rows bound every valid description, and the workspace layout.
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <gtest/gtest.h>

#include <random>

namespace kn = cute_cpp::kernels;
using cute_cpp::GroupedRows;

TEST(GroupedRows, TheWalkHoldsEveryContiguousPartition) {
  // Every way of cutting `rows` rows into `groups` groups needs at most tile_rows() tile rows.
  std::mt19937 rng(7);
  for (int block_m : {64, 128})
    for (int trial = 0; trial < 2000; ++trial) {
      int const groups = 1 + int(rng() % 40);
      std::int64_t const rows = 1 + std::int64_t(rng() % 3000);
      std::vector<std::int64_t> cuts{0, rows};
      for (int g = 1; g < groups; ++g) cuts.push_back(std::int64_t(rng() % std::uint32_t(rows + 1)));
      std::sort(cuts.begin(), cuts.end());
      std::int64_t tiles = 0;
      for (std::size_t i = 1; i < cuts.size(); ++i) tiles += (cuts[i] - cuts[i - 1] + block_m - 1) / block_m;
      GroupedRows const d{.groups = groups, .offsets = &groups, .rows = rows};
      ASSERT_LE(tiles, d.tile_rows(block_m)) << rows << " rows in " << groups << " groups";
    }
}

TEST(GroupedRows, MaskedGroupsTakeTheirCapacity) {
  std::int32_t const counts = 0;
  GroupedRows const d{.groups = 5, .counts = &counts, .capacity = 160, .rows = 800};
  EXPECT_TRUE(d.masked());
  EXPECT_EQ(d.tile_rows(64), 5 * 3);
  EXPECT_EQ(d.tile_rows(128), 5 * 2);
  GroupedRows const contiguous{.groups = 8, .offsets = &counts, .rows = 1000};
  EXPECT_FALSE(contiguous.masked());
  EXPECT_EQ(contiguous.tile_rows(128), 1000 / 128 + 8);
}

TEST(GroupedWorkspace, StatusThenMapsThenTable) {
  constexpr kn::GroupedWorkspaceLayout layout(3, 10);
  static_assert(layout.maps_offset % 128 == 0 && layout.table_offset % 128 == 0, "tensor maps are 128-byte aligned");
  EXPECT_EQ(layout.table_offset, 256u + 3u * 3u * 128u);
  EXPECT_EQ(layout.bytes, layout.table_offset + 10u * sizeof(cute_cpp::GroupedTileRow));
  static_assert(sizeof(cute_cpp::GroupedTileRow) == 16, "one 16-byte load a tile row");
  static_assert(sizeof(cute_cpp::GroupedStatus) <= layout.maps_offset);
}

TEST(GroupedGemm, FewRowsAGroupTakeTheNarrowTile) {
  std::int32_t const p = 0;
  EXPECT_TRUE(kn::grouped_takes_64_rows(GroupedRows{.groups = 128, .offsets = &p, .rows = 128 * 64}));
  EXPECT_FALSE(kn::grouped_takes_64_rows(GroupedRows{.groups = 128, .offsets = &p, .rows = 128 * 64 + 1}));
  EXPECT_TRUE(kn::grouped_takes_64_rows(GroupedRows{.groups = 8, .counts = &p, .capacity = 64, .rows = 512}));
  EXPECT_FALSE(kn::grouped_takes_64_rows(GroupedRows{.groups = 8, .counts = &p, .capacity = 65, .rows = 520}));
  // The workspace the choice needs is the narrow tile's (more tile rows).
  kn::GroupedBf16Arguments<false> args;
  args.rows = GroupedRows{.groups = 4, .offsets = &p, .rows = 1000};
  EXPECT_EQ(kn::grouped_gemm_bf16_workspace_bytes<false>(args), kn::GroupedWorkspaceLayout(4, 1000 / 64 + 4).bytes);
}
