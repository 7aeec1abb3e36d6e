// SPDX-License-Identifier: Apache-2.0
// The block-scaled GEMM's plans (kernels/gemm: issue 44's main loops): the rule that a tile's
// columns meet at most two of B's 128-column scale blocks, against every tile of every width, and
// what the plans derive from their options (scale blocks, registers, barrier arrivals, memory),
// and the two-level accumulation plans that share their promotion.
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace kn = cute_cpp::kernels;
namespace plans = kn::plans;

namespace {
/// The most of B's 128-column scale blocks any tile of `n` columns meets, and whether every
/// tile's boundary between two blocks falls on a multiple of 8 columns, over the first 256 tiles
/// (the start offsets repeat with period 128 / gcd(n, 128) <= 16).
struct Straddle {
  int most_blocks = 0;
  bool boundaries_on_8 = true;
};
Straddle straddle(int n) {
  Straddle s;
  for (int t = 0; t < 256; ++t) {
    int const first = t * n, last = t * n + n - 1;
    s.most_blocks = std::max(s.most_blocks, last / 128 - first / 128 + 1);
    s.boundaries_on_8 = s.boundaries_on_8 && (128 - first % 128) % 8 == 0;
  }
  return s;
}
}  // namespace

// Rule gemm.block-scaled.tile-n: N <= 128 + gcd(N, 128) holds exactly for the widths whose tiles
// meet at most two scale blocks.
TEST(BlockScaledPlan, TileNRuleMatchesEveryTile) {
  for (int n = 8; n <= 256; n += 8) {
    SCOPED_TRACE(n);
    Straddle const s = straddle(n);
    EXPECT_EQ(n <= 128 + cute_cpp::diag::gemm_block_scaled_gcd128(n), s.most_blocks <= 2);
    EXPECT_TRUE(s.boundaries_on_8);
  }
  EXPECT_EQ(straddle(144).most_blocks, 2);
  EXPECT_EQ(straddle(176).most_blocks, 3);  // tile 3 starts 16 into a block: 16 + 176 > 256
}

TEST(BlockScaledPlan, ScaleBlocksPerTile) {
  static_assert(plans::Fp8E4M3Blockwise::scale_blocks_b == 1);
  static_assert(plans::Fp8E4M3BlockwiseN192::scale_blocks_b == 2);
  static_assert(plans::Fp8E4M3BlockwiseN112::scale_blocks_b == 2);
  static_assert(plans::Fp8E4M3BlockwiseN144::scale_blocks_b == 2);
  static_assert(plans::Fp8E4M3BlockwiseN160::scale_blocks_b == 2);
  static_assert(plans::Fp8E4M3BlockwiseOverlapStaged::scale_blocks_b == 1);
}

// The staged plans' full barriers count the scale warp's 32 arrivals beside the producer's; the
// others keep one. The overlapped plan without the scale warp gives its consumers 240 registers.
TEST(BlockScaledPlan, OptionsDeriveArrivalsAndRegisters) {
  static_assert(plans::Fp8E4M3Blockwise::Pipeline::producer_arrivals == 1);
  static_assert(plans::Fp8E4M3BlockwiseOverlap::Pipeline::producer_arrivals == 1);
  static_assert(plans::Fp8E4M3BlockwiseStaged::Pipeline::producer_arrivals == 33);
  static_assert(plans::Fp8E4M3BlockwiseN144::Pipeline::producer_arrivals == 33);
  static_assert(plans::Fp8E4M3Blockwise::consumer_registers == 232);
  static_assert(plans::Fp8E4M3BlockwiseOverlap::consumer_registers == 240);
  static_assert(plans::Fp8E4M3BlockwiseOverlapStaged::consumer_registers == 232);
  static_assert(plans::Fp8E4M3BlockwiseOverlapStaged::producer_registers == 40);
  static_assert(plans::Fp8E4M3BlockwiseGroupedOverlap::consumer_registers == 240);
}

// Every new plan fits the 227 KB of shared memory (what verify_plan checks where it is built); the
// baseline's storage has no scale slots.
TEST(BlockScaledPlan, SharedMemory) {
  auto const fits = []<class... P>(kn::GemmPlanList<P...>) { return ((P::smem_bytes <= 232448) && ...); };
  EXPECT_TRUE(fits(plans::Fp8BlockwiseMainLoops{}));
  EXPECT_TRUE(plans::Fp8E4M3BlockwiseGroupedOverlap::smem_bytes <= 232448);
  static_assert(sizeof(plans::Fp8E4M3Blockwise::SharedStorage{}.scales) == 1);  // empty, no unique address
  static_assert(sizeof(plans::Fp8E4M3BlockwiseStaged::SharedStorage{}.scales) == 5 * (128 * 4 + 8));
}

// Two-level accumulation (GemmConfig::two_level_accumulation) promotes without block scales: the
// main loop's promotion is on, block scaling off, and the overlapped plan holds two product sets
// beside the accumulator in 240 registers; the fast plans keep wgmma's accumulator.
TEST(BlockScaledPlan, TwoLevelAccumulation) {
  static_assert(plans::Fp8E4M3TwoLevel::promoted && plans::Fp8E4M3TwoLevel::two_level);
  static_assert(!plans::Fp8E4M3TwoLevel::block_scaled && plans::Fp8E4M3TwoLevel::overlap_promotion);
  static_assert(plans::Fp8E4M3TwoLevel::consumer_registers == 240);
  static_assert(plans::Fp8E4M3TwoLevel::Pipeline::producer_arrivals == 1);
  static_assert(plans::Fp8E4M3TwoLevelN192::promoted && !plans::Fp8E4M3TwoLevelN192::overlap_promotion);
  static_assert(plans::Fp8E4M3Blockwise::promoted && !plans::Fp8E4M3Blockwise::two_level);
  static_assert(!plans::Fp8E4M3::promoted && !plans::Bf16TN::promoted);
  auto const fits = []<class... P>(kn::GemmPlanList<P...>) { return ((P::smem_bytes <= 232448) && ...); };
  EXPECT_TRUE(fits(plans::Fp8VariantsInstantiated{}));
  // cuBLASLt's 256 x 128 tile: two 64-row atoms a consumer warpgroup, 128 accumulators a thread.
  static_assert(plans::Fp8E4M3Tile256x128::Mma::atoms_m == 2 && plans::Fp8E4M3Tile256x128::accumulators == 128);
}
