// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/rows/plan.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cc = cute_cpp;
namespace host = cute_cpp::host;

namespace {
struct Bf16 {
  std::uint16_t bits;
};

/// The RowConfig that dispatch_rows picks, as "vec/threads/cached/slots".
template <class T>
std::string dispatched(host::RowPlan const& plan) {
  std::string got;
  host::dispatch_rows<T>(plan, [&]<class Config>() {
    got = std::to_string(Config::vec) + "/" + std::to_string(Config::threads_per_row) + "/" +
          (Config::cached ? "cached" : "streamed") + "/" + std::to_string(Config::slots);
  });
  return got;
}

/// The same for a kernel that takes staged rows, with "/staged" when it gets them.
template <class T>
std::string dispatched_staged(host::RowPlan const& plan) {
  std::string got;
  host::dispatch_rows<T, true>(plan, [&]<class Config>() {
    got = std::to_string(Config::vec) + "/" + std::to_string(Config::threads_per_row) + "/" +
          (Config::cached ? "cached" : "streamed") + "/" + std::to_string(Config::slots) +
          (Config::staged ? "/staged" : "");
  });
  return got;
}

template <class T>
std::string error_of(std::size_t width) {
  try {
    (void)host::plan_rows<T>(width, true);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// Static in, static out: a RowConfig's derived members.
static_assert(cc::RowConfig<8, 64, true>::rows_per_block == 4 && cc::RowConfig<8, 64, true>::group_barriers == 4);
static_assert(cc::RowConfig<8, 128, true>::group_barriers == 2);
static_assert(cc::RowConfig<8, 32, true>::group_barriers == 0 && cc::RowConfig<8, 256, true>::group_barriers == 0);
static_assert(cc::RowConfig<8, 256, true>::split && !cc::RowConfig<8, 256, false>::split &&
              !cc::RowConfig<8, 128, true>::split);
static_assert(cc::RowConfig<8, 256, true>::slots == cc::row_slots);
static_assert(cc::RowConfig<8, 256, true, 4, true>::staged && cc::RowConfig<8, 256, true, 4, true>::split &&
              !cc::RowConfig<8, 256, true>::staged && cc::RowConfig<8, 256, true>::segment == 8 * 256 * 4);

TEST(RowPlan, NarrowRowsTakeTheSmallestGroupThatHoldsThem) {
  // bf16: 8 elements a vector, 4 vectors a thread, so 32 threads hold 1024 elements.
  auto const warp = host::plan_rows<Bf16>(1024, true);
  EXPECT_EQ(warp.vec, 8);
  EXPECT_EQ(warp.threads_per_row, 32);
  EXPECT_TRUE(warp.cached);
  EXPECT_EQ(warp.cluster, 1u);
  EXPECT_EQ(host::plan_rows<Bf16>(2048, true).threads_per_row, 64);
  EXPECT_EQ(host::plan_rows<Bf16>(4096, true).threads_per_row, 128);
  EXPECT_EQ(host::plan_rows<float>(512, true).threads_per_row, 32);    // f32: 4 elements a vector
  EXPECT_EQ(host::plan_rows<float>(2048, true).threads_per_row, 128);
  EXPECT_EQ(dispatched<Bf16>(host::plan_rows<Bf16>(2048, true)), "8/64/cached/4");
}

TEST(RowPlan, WideRowsSpreadOverAClusterHeldInRegisters) {
  auto const one = host::plan_rows<Bf16>(8192, true);
  EXPECT_EQ(one.threads_per_row, 256);
  EXPECT_TRUE(one.cached);
  EXPECT_EQ(one.cluster, 1u);
  EXPECT_EQ(host::plan_rows<Bf16>(8200, true).cluster, 2u);   // one vector past a block: a power of two
  EXPECT_EQ(host::plan_rows<Bf16>(16384, true).cluster, 2u);
  auto const eight = host::plan_rows<Bf16>(65536, true);
  EXPECT_EQ(eight.cluster, 8u);
  EXPECT_TRUE(eight.cached);
  EXPECT_EQ(dispatched<Bf16>(eight), "8/256/cached/4");
}

TEST(RowPlan, RowsWiderThanAClusterStreamThroughOneBlock) {
  auto const p = host::plan_rows<Bf16>(65537 * 8, true);
  EXPECT_FALSE(p.cached);
  EXPECT_EQ(p.cluster, 1u);
  EXPECT_EQ(dispatched<Bf16>(p), "8/256/streamed/4");
  auto const once = host::plan_rows<Bf16>(65536, true, /*hold_block_rows=*/false);
  EXPECT_FALSE(once.cached);
  EXPECT_EQ(once.cluster, 1u);
}

TEST(RowPlan, ScalarRowsTakeWarpsOrBlocks) {
  auto const odd = host::plan_rows<Bf16>(1001, true);  // not a multiple of 8
  EXPECT_EQ(odd.vec, 1);
  EXPECT_EQ(odd.threads_per_row, 256);
  EXPECT_EQ(dispatched<Bf16>(odd), "1/256/cached/4");
  auto const misaligned = host::plan_rows<Bf16>(64, false);
  EXPECT_EQ(misaligned.vec, 1);
  EXPECT_EQ(misaligned.threads_per_row, 32);  // 4 scalars a thread: a warp holds 128
  EXPECT_EQ(dispatched<Bf16>(misaligned), "1/32/cached/4");
}

TEST(RowPlan, LaunchConfigCountsBlocksPerRowAndRowsPerBlock) {
  auto const groups = host::plan_rows<Bf16>(2048, true);  // 4 rows a block
  EXPECT_EQ(groups.blocks(9), 3u);
  auto const eight = host::plan_rows<Bf16>(65536, true);
  auto const config = eight.launch_config(3, nullptr);
  EXPECT_EQ(config.grid.x, 24u);
  EXPECT_EQ(config.block.x, unsigned(cc::row_block_threads));
  EXPECT_EQ(config.cluster.x, 8u);
}

TEST(RowPlan, RejectsWidthsAndRowCountsPastTheLimits) {
  EXPECT_NE(error_of<Bf16>(std::size_t(1) << 31).find("cute-cpp [rows.width]"), std::string::npos);
  EXPECT_EQ(error_of<Bf16>(0x7fffffffu), "");
  auto const eight = host::plan_rows<Bf16>(65536, true);
  EXPECT_THROW((void)eight.blocks(std::size_t(1) << 28), std::invalid_argument);
  try {
    (void)eight.blocks(std::size_t(1) << 28);
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("cute-cpp [rows.count]"), std::string::npos);
  }
}

TEST(RowPlan, StagesRowsOfAClusterOfEightOnlyWhenAsked) {
  auto const regs = host::plan_rows<Bf16>(65536, true);
  EXPECT_FALSE(regs.staged);
  EXPECT_EQ(regs.launch_config(3, nullptr).smem_bytes, 0u);
  auto const staged = host::plan_rows<Bf16>(65536, true, true, true);
  EXPECT_TRUE(staged.staged);
  EXPECT_EQ(staged.cluster, 8u);
  EXPECT_EQ(staged.segment_bytes, 8u * 256 * 4 * 2);
  EXPECT_EQ(staged.launch_config(3, nullptr).smem_bytes, std::size_t(cc::row_stages) * 16384);
  EXPECT_EQ(staged.launch_config(3, nullptr, 2).smem_bytes, std::size_t(cc::row_stages) * 2 * 16384);
  EXPECT_EQ(dispatched_staged<Bf16>(staged), "8/256/cached/4/staged");
  EXPECT_EQ(dispatched<Bf16>(staged), "8/256/cached/4");  // a kernel that does not take them
  EXPECT_TRUE(host::plan_rows<Bf16>(65528, true, true, true).staged);     // the last segment short
  EXPECT_TRUE(host::plan_rows<float>(20000, true, true, true).staged);    // 5 blocks' worth: 8
  EXPECT_FALSE(host::plan_rows<Bf16>(20000, true, true, true).staged);    // a cluster of 4: registers
  EXPECT_FALSE(host::plan_rows<Bf16>(8192, true, true, true).staged);     // one block
  EXPECT_FALSE(host::plan_rows<Bf16>(65537 * 8, true, true, true).staged);  // streamed
  auto const scalar = host::plan_rows<Bf16>(5001, true, true, true);  // not a multiple of 8: scalars
  EXPECT_FALSE(scalar.staged);
  EXPECT_EQ(dispatched_staged<Bf16>(scalar), "1/256/cached/4");
}
