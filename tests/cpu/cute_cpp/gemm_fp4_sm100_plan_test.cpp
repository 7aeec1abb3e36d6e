// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_100a block-scaled FP4 GEMM's host-computable parts (kernels/gemm/gemm_fp4_sm100.hpp,
// plans_fp4_sm100.hpp): the global scale layout against hand-worked offsets and as a bijection;
// the TMA box of each K block, cut from fp4_scales_to_sm100's output as a 2-D box of 32-bit words
// is defined to be, against the shared layout tcgen05.cp reads (UmmaScaleFactorLayout::smem_offset)
// and the row-major factors; each plan's stage bytes, shared memory, tensor-memory columns and
// UMMA kind by hand; and the argument checks.
#include <cute_cpp/kernels/gemm/gemm_fp4_sm100.hpp>
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
using kn::Fp4Format;

namespace {

// ---- the global scale layout ----

TEST(Fp4Sm100Scales, OffsetsWorkedByHand) {
  // 300 rows: 3 blocks of 128 rows a group of 4 factors.
  EXPECT_EQ(kn::fp4_sm100_scale_offset(0, 0, 300), 0);
  EXPECT_EQ(kn::fp4_sm100_scale_offset(0, 3, 300), 3);
  EXPECT_EQ(kn::fp4_sm100_scale_offset(1, 0, 300), 16);             // row 1: the next 16-byte line
  EXPECT_EQ(kn::fp4_sm100_scale_offset(32, 0, 300), 4);             // row 32: lane quarter 1, same line
  EXPECT_EQ(kn::fp4_sm100_scale_offset(128, 0, 300), 512);          // the next 128 rows: the next block
  EXPECT_EQ(kn::fp4_sm100_scale_offset(0, 4, 300), 3 * 512);        // the next group: after all 3 row blocks
  EXPECT_EQ(kn::fp4_sm100_scale_offset(33, 5, 300), 3 * 512 + 16 + 4 + 1);
  EXPECT_EQ(kn::fp4_sm100_scale_offset(299, 7, 300), 3 * 512 + 2 * 512 + 11 * 16 + 1 * 4 + 3);  // 299 = 256 + 32 + 11
  EXPECT_EQ(kn::fp4_sm100_scale_bytes(Fp4Format::nvfp4, 300, 512), 384 * 32);
  EXPECT_EQ(kn::fp4_sm100_scale_bytes(Fp4Format::mxfp4, 300, 512), 384 * 16);
  EXPECT_EQ(kn::fp4_sm100_scale_bytes(Fp4Format::mxfp4, 128, 256), 128 * 8);
}

TEST(Fp4Sm100Scales, EveryFactorHasItsOwnByte) {
  for (Fp4Format f : {Fp4Format::nvfp4, Fp4Format::mxfp4}) {
    std::int64_t const rows = 300, k = 768, factors = k / kn::fp4_scale_block(f);
    std::int64_t const bytes = kn::fp4_sm100_scale_bytes(f, rows, k);
    std::set<std::int64_t> seen;
    for (std::int64_t r = 0; r < (rows + 127) / 128 * 128; ++r)
      for (std::int64_t j = 0; j < factors; ++j) {
        std::int64_t const o = kn::fp4_sm100_scale_offset(r, j, rows);
        ASSERT_GE(o, 0);
        ASSERT_LT(o, bytes);
        ASSERT_TRUE(seen.insert(o).second) << "row " << r << " factor " << j;
      }
    EXPECT_EQ(std::int64_t(seen.size()), bytes);
  }
}

/// The shared bytes TMA writes for one K block `kb` of the tile whose first row is `row0`: the box
/// of SfLayout::k_blocks map rows by row_blocks x 128 words at (word row0, map row kb x k_blocks),
/// zero outside the map, as create_tensor_map_tiled's descriptor reads fp4_scales_to_sm100's output.
template <class SfLayout>
std::vector<std::uint8_t> tma_box(std::vector<std::uint8_t> const& global, std::int64_t rows, std::int64_t row0,
                                  std::int64_t kb, std::int64_t map_rows) {
  std::int64_t const words = (rows + 127) / 128 * 128, box_words = SfLayout::row_blocks * 128;
  std::vector<std::uint8_t> smem(std::size_t(SfLayout::bytes), 0xEE);
  for (std::int64_t y = 0; y < SfLayout::k_blocks; ++y)
    for (std::int64_t x = 0; x < box_words; ++x)
      for (int byte = 0; byte < 4; ++byte) {
        std::int64_t const gy = kb * SfLayout::k_blocks + y, gx = row0 + x;
        bool const inside = gy < map_rows && gx < words;
        smem[std::size_t((y * box_words + x) * 4 + byte)] =
            inside ? global[std::size_t((gy * words + gx) * 4 + byte)] : 0;
      }
  return smem;
}

/// Every factor of every tile's K block lands where the plan's UMMA reads it.
template <class Plan, class SfLayout>
void check_boxes(Fp4Format format, std::int64_t rows, std::int64_t tile_rows) {
  std::int64_t const k = 1024, block = kn::fp4_scale_block(format), factors = k / block;
  std::mt19937 rng(7);
  std::vector<std::uint8_t> row_major(std::size_t(rows * factors));
  for (auto& v : row_major) v = std::uint8_t(1 + rng() % 255);  // never 0, so padding is told apart
  std::vector<std::uint8_t> global(std::size_t(kn::fp4_sm100_scale_bytes(format, rows, k)), 0xCD);
  kn::fp4_scales_to_sm100(format, row_major.data(), rows, k, global.data());
  std::int64_t const per_k_block = Plan::block_k * 2 / block;  // factors a row a K block
  ASSERT_EQ(per_k_block, SfLayout::factors_per_row);
  for (std::int64_t row0 = 0; row0 < rows; row0 += tile_rows)
    for (std::int64_t kb = 0; kb < k / (Plan::block_k * 2); ++kb) {
      auto const smem = tma_box<SfLayout>(global, rows, row0, kb, factors / 4);
      for (int r = 0; r < tile_rows; ++r)
        for (int f = 0; f < per_k_block; ++f) {
          std::int64_t const row = row0 + r;
          std::uint8_t const want = row < rows ? row_major[std::size_t(row * factors + kb * per_k_block + f)] : 0;
          ASSERT_EQ(smem[std::size_t(SfLayout::smem_offset(r, f))], want)
              << "tile row " << row0 << ", K block " << kb << ", row " << r << ", factor " << f;
        }
    }
}

TEST(Fp4Sm100Scales, TmaBoxesLandInTheLayoutTcgen05CpReads) {
  // 300 rows: the last 128-row tile and the last 256-row tile are ragged.
  check_boxes<p::Nvfp4Tile128x128, p::Nvfp4Tile128x128::Mma::SfaLayout>(Fp4Format::nvfp4, 300, 128);
  check_boxes<p::Nvfp4Tile128x256, p::Nvfp4Tile128x256::Mma::SfbLayout>(Fp4Format::nvfp4, 300, 256);
  check_boxes<p::Mxfp4Tile128x128, p::Mxfp4Tile128x128::Mma::SfbLayout>(Fp4Format::mxfp4, 300, 128);
  check_boxes<p::Mxfp4Tile128x256, p::Mxfp4Tile128x256::Mma::SfbLayout>(Fp4Format::mxfp4, 300, 256);
}

// ---- plan values, by hand ----

TEST(Fp4Sm100Plan, KindsAndScaleVectors) {
  using Nv = p::Nvfp4Tile128x128::Mma;
  using Mx = p::Mxfp4Tile128x256::Mma;
  EXPECT_EQ(Nv::kind, ctm::Tcgen05Kind::mxf4nvf4);
  EXPECT_EQ(Mx::kind, ctm::Tcgen05Kind::mxf4);
  EXPECT_EQ(Nv::sf_per_instr, 4);  // 64 values an instruction, a factor every 16
  EXPECT_EQ(Mx::sf_per_instr, 2);  // every 32
  EXPECT_EQ(Nv::k_slices, 4);      // 128 bytes of K over 32 an instruction
  EXPECT_EQ(Nv::k_values, 256);
  EXPECT_EQ(p::Nvfp4Tile128x128::block_k, 128);
}

TEST(Fp4Sm100Plan, StageBytesHoldTilesAndFactors) {
  // A: 128 rows x 128 bytes; B: block_n rows x 128 bytes; factors: a byte a row per 16 or 32 values of 256.
  EXPECT_EQ(p::Nvfp4Tile128x128::stage_bytes, 128u * 128 + 128u * 128 + 128u * 16 + 128u * 16);
  EXPECT_EQ(p::Nvfp4Tile128x256::stage_bytes, 128u * 128 + 256u * 128 + 128u * 16 + 256u * 16);
  EXPECT_EQ(p::Mxfp4Tile128x128::stage_bytes, 128u * 128 + 128u * 128 + 128u * 8 + 128u * 8);
  EXPECT_EQ(p::Mxfp4Tile128x256::stage_bytes, 128u * 128 + 256u * 128 + 128u * 8 + 256u * 8);
  EXPECT_EQ(p::Nvfp4Tile128x128::MainPipeline::tx_bytes, p::Nvfp4Tile128x128::stage_bytes);
  EXPECT_EQ(sizeof(p::Nvfp4Tile128x256::SharedStorage::Stage), 55296u);  // 54 x 1024: no padding
  EXPECT_LE(p::Nvfp4Tile128x128::smem_bytes, 232448u);
  EXPECT_LE(p::Nvfp4Tile128x256::smem_bytes, 232448u);
  EXPECT_GE(p::Nvfp4Tile128x128::smem_bytes, 6u * 36864);
  EXPECT_GE(p::Nvfp4Tile128x256::smem_bytes, 4u * 55296);
}

TEST(Fp4Sm100Plan, TensorMemoryHoldsAccumulatorsAndAFactorRegionAStage) {
  // NVFP4 128x128: 2 x 128 accumulator columns, then 6 stages x (4 blocks of A + 4 of B) x 4 columns.
  EXPECT_EQ(p::Nvfp4Tile128x128::sf_tmem_column, 256);
  EXPECT_EQ(p::Nvfp4Tile128x128::sf_stage_columns, 32);
  EXPECT_EQ(p::Nvfp4Tile128x128::tmem_columns, 256 + 6 * 32);
  // NVFP4 128x256: one accumulator of 256, 4 stages x (4 + 8 blocks) x 4.
  EXPECT_EQ(p::Nvfp4Tile128x256::sf_stage_columns, 48);
  EXPECT_EQ(p::Nvfp4Tile128x256::tmem_columns, 256 + 4 * 48);
  // MXFP4: half the factors.
  EXPECT_EQ(p::Mxfp4Tile128x128::tmem_columns, 256 + 6 * 16);
  EXPECT_EQ(p::Mxfp4Tile128x256::tmem_columns, 256 + 4 * 24);
  EXPECT_EQ(p::Nvfp4Tile128x256::tmem_alloc_columns, 512u);
  EXPECT_EQ(p::Mxfp4Tile128x128::tmem_alloc_columns, 512u);
  // A's factors come first in a stage's region: 4 blocks of 4 columns, then B's.
  EXPECT_EQ(p::Nvfp4Tile128x128::Mma::SfaLayout::columns, 16);
  EXPECT_EQ(p::Nvfp4Tile128x256::Mma::SfbLayout::columns, 32);
}

// ---- the argument checks ----

kn::Fp4GemmArguments good_arguments() {
  kn::Fp4GemmArguments g;
  g.m = 300, g.n = 200, g.k = 512, g.ldd = 200;
  g.a.data = reinterpret_cast<std::uint8_t const*>(std::uintptr_t{0x100000});
  g.a.scales = reinterpret_cast<std::uint8_t const*>(std::uintptr_t{0x200000});
  g.b.data = reinterpret_cast<std::uint8_t const*>(std::uintptr_t{0x300000});
  g.b.scales = reinterpret_cast<std::uint8_t const*>(std::uintptr_t{0x400000});
  g.d = reinterpret_cast<__nv_bfloat16*>(std::uintptr_t{0x500000});
  return g;
}

std::string check(void (*change)(kn::Fp4GemmArguments&)) {
  kn::Fp4GemmArguments g = good_arguments();
  change(g);
  try {
    kn::detail::check_gemm_fp4_sm100(g, nullptr);
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

TEST(Fp4Sm100Arguments, AcceptsARaggedProblem) { EXPECT_EQ(check([](kn::Fp4GemmArguments&) {}), ""); }

TEST(Fp4Sm100Arguments, RefusesWhatTheKernelCannotRead) {
  auto const refused = [](void (*change)(kn::Fp4GemmArguments&), char const* why,
                          char const* rule = "[gemm.fp4.arguments]") {
    std::string const w = check(change);
    EXPECT_NE(w.find(rule), std::string::npos) << w;
    EXPECT_NE(w.find(why), std::string::npos) << w;
  };
  refused([](kn::Fp4GemmArguments& g) { g.k = 384; }, "multiple of 256");  // a whole scale group, not a K tile
  refused([](kn::Fp4GemmArguments& g) { g.k = 0; }, "multiple of 256");
  refused([](kn::Fp4GemmArguments& g) { g.a.scales += 8; }, "16-byte aligned");
  refused([](kn::Fp4GemmArguments& g) { g.d += 4; }, "ldd a multiple of 8");
  refused([](kn::Fp4GemmArguments& g) { g.ldd = 204; }, "ldd a multiple of 8");
  refused([](kn::Fp4GemmArguments& g) { g.ldd = 192; }, "ldd must be even and >= N");
  refused([](kn::Fp4GemmArguments& g) { g.b.data = nullptr; }, "b.data is null", "[gemm.fp4.pointers]");
  refused([](kn::Fp4GemmArguments& g) { g.a.data += 8; }, "16-byte aligned");
}

}  // namespace
