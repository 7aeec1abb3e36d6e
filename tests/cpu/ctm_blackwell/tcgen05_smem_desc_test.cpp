// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The tcgen05 shared-memory matrix descriptor, bit for bit. Each expected value is worked by
// hand from the PTX ISA field table (start>>4 at 0, LBO>>4 at 16, SBO>>4 at 32, 0b001 at 46,
// base offset at 49, LBO mode at 52, swizzle at 61) and the canonical layouts (K-major:
// SBO = stride of 8-row groups, LBO = K stride of core matrices, ignored when swizzled;
// MN-major swizzled: LBO = stride of swizzle atoms along MN, SBO = stride of 8-row K groups;
// MN-major without swizzle: the ISA's table swaps them, SBO along MN and LBO along K).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <ctm/sm100/tcgen05_desc.hpp>

namespace {
using ctm::Tcgen05LboMode;
using ctm::Tcgen05SmemDescFields;
using ctm::Tcgen05Swizzle;

constexpr std::uint64_t version = std::uint64_t{1} << 46;

// Constant evaluation: the encoder is usable in static_assert.
static_assert(ctm::tcgen05_smem_desc({.start_address = 0x400, .lbo_bytes = 16, .sbo_bytes = 1024,
                                      .swizzle = Tcgen05Swizzle::b128}) == 0x4000'4040'0001'0040ull);
static_assert(ctm::tcgen05_smem_desc({}) == version);   // all-zero fields: only the version bits

TEST(Tcgen05SmemDesc, VersionBitsAlone) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({}), 0x0000'4000'0000'0000ull);
  EXPECT_EQ(ctm::tcgen05_smem_desc_version_bits, 0x0000'4000'0000'0000ull);
}

// K-major bf16 A tile, 128 x 64 (one 128-byte row per M), 128B swizzle at 0x400:
// start 0x400>>4 = 0x40; LBO ignored, 16 -> 1 at bit 16; SBO = 8 rows * 128 B = 1024 -> 0x40 at
// bit 32; swizzle 2 at bit 61 = 0x4000'0000'0000'0000.
TEST(Tcgen05SmemDesc, KMajorSwizzle128) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x400, .lbo_bytes = 16, .sbo_bytes = 1024,
                                    .swizzle = Tcgen05Swizzle::b128}),
            0x4000'4040'0001'0040ull);
}

// K-major e4m3 tile with 64-byte rows, 64B swizzle at 0x8200 (512-byte aligned):
// start 0x820; LBO 16 -> 1; SBO = 8 * 64 = 512 -> 0x20; swizzle 4 -> 0x8000'0000'0000'0000.
TEST(Tcgen05SmemDesc, KMajorSwizzle64) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x8200, .lbo_bytes = 16, .sbo_bytes = 512,
                                    .swizzle = Tcgen05Swizzle::b64}),
            0x8000'4020'0001'0820ull);
}

// K-major tf32 tile with 32-byte rows, 32B swizzle at 0x1100 (256-byte aligned):
// start 0x110; LBO 16 -> 1; SBO = 8 * 32 = 256 -> 0x10; swizzle 6 -> 0xC000'0000'0000'0000.
TEST(Tcgen05SmemDesc, KMajorSwizzle32) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x1100, .lbo_bytes = 16, .sbo_bytes = 256,
                                    .swizzle = Tcgen05Swizzle::b32}),
            0xC000'4010'0001'0110ull);
}

// K-major f16 without swizzle: 8x16-byte core matrices (128 B each), two along K stored next
// to each other (LBO = 128 -> 8), 8-row groups 256 B apart (SBO -> 0x10); start 0x2000 -> 0x200.
TEST(Tcgen05SmemDesc, KMajorInterleaved) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x2000, .lbo_bytes = 128, .sbo_bytes = 256,
                                    .swizzle = Tcgen05Swizzle::none}),
            0x0000'4010'0008'0200ull);
}

// K-major, 128-byte swizzle with 32-byte atomicity (mode 1): as the 128B case, swizzle 1 at 61.
TEST(Tcgen05SmemDesc, KMajorSwizzle128Base32B) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x400, .lbo_bytes = 16, .sbo_bytes = 1024,
                                    .swizzle = Tcgen05Swizzle::b128_base32b}),
            0x2000'4040'0001'0040ull);
}

// MN-major bf16 B tile, N = 256, K = 64, 128B swizzle: an atom is 64 N-elements x 8 K-rows =
// 1024 B; the 8 K-groups of one atom column are contiguous (SBO = 1024 -> 0x40) and the 4 atoms
// along N are 8 * 1024 = 8192 B apart (LBO -> 0x200); start 0x10000 -> 0x1000.
TEST(Tcgen05SmemDesc, MnMajorSwizzle128) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x10000, .lbo_bytes = 8192, .sbo_bytes = 1024,
                                    .swizzle = Tcgen05Swizzle::b128}),
            0x4000'4040'0200'1000ull);
}

// MN-major tf32, 64B swizzle: atom 16 elements x 8 K-rows = 512 B; K = 32 gives 4 K-groups per
// atom column (SBO = 512 -> 0x20, LBO = 4 * 512 = 2048 -> 0x80); start 0xA00 -> 0xA0.
TEST(Tcgen05SmemDesc, MnMajorSwizzle64) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x0A00, .lbo_bytes = 2048, .sbo_bytes = 512,
                                    .swizzle = Tcgen05Swizzle::b64}),
            0x8000'4020'0080'00A0ull);
}

// MN-major e4m3, 32B swizzle: atom 32 elements x 8 K-rows = 256 B; K = 128 gives 16 K-groups
// (SBO = 256 -> 0x10, LBO = 16 * 256 = 4096 -> 0x100); start 0x3000 -> 0x300.
TEST(Tcgen05SmemDesc, MnMajorSwizzle32) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x3000, .lbo_bytes = 4096, .sbo_bytes = 256,
                                    .swizzle = Tcgen05Swizzle::b32}),
            0xC000'4010'0100'0300ull);
}

// MN-major f16 without swizzle, N = 64, K = 16: core matrices of 8 N-elements x 8 K-rows
// (128 B), contiguous along N (SBO = 128 -> 8, the ISA's MN stride here) and 8 * 128 = 1024 B
// apart along K (LBO -> 0x40); start 0x80 -> 8.
TEST(Tcgen05SmemDesc, MnMajorInterleaved) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x0080, .lbo_bytes = 1024, .sbo_bytes = 128,
                                    .swizzle = Tcgen05Swizzle::none}),
            0x0000'4008'0040'0008ull);
}

// A 128B-swizzled matrix starting 0x80 past a 1024-byte boundary: base offset
// (0x480 >> 7) & 7 = 1 at bit 49 (0x0002'0000'0000'0000); start 0x480 -> 0x48.
TEST(Tcgen05SmemDesc, BaseOffset) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x480, .lbo_bytes = 16, .sbo_bytes = 1024,
                                    .base_offset = 1, .swizzle = Tcgen05Swizzle::b128}),
            0x4002'4040'0001'0048ull);
}

// Base offsets by the ISA formula: 0 on the pattern's repeat boundary, else (addr >> 7) & 7.
TEST(Tcgen05SmemDesc, BaseOffsetFormula) {
  using ctm::tcgen05_smem_desc_base_offset;
  static_assert(tcgen05_smem_desc_base_offset(0x480, Tcgen05Swizzle::b128) == 1);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x400, Tcgen05Swizzle::b128), 0);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x780, Tcgen05Swizzle::b128), 7);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x500, Tcgen05Swizzle::b128_base32b), 2);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x200, Tcgen05Swizzle::b64), 0);   // 512-aligned
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x280, Tcgen05Swizzle::b64), 5);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x100, Tcgen05Swizzle::b32), 0);   // 256-aligned
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x180, Tcgen05Swizzle::b32), 3);
  EXPECT_EQ(tcgen05_smem_desc_base_offset(0x480, Tcgen05Swizzle::none), 0);
}

// Absolute leading-dimension mode: bit 52 (0x0010'0000'0000'0000), LBO field = address 0x3000>>4.
TEST(Tcgen05SmemDesc, LboModeAbsolute) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x1000, .lbo_bytes = 0x3000, .sbo_bytes = 128,
                                    .lbo_mode = Tcgen05LboMode::absolute}),
            0x0010'4008'0300'0100ull);
}

// Every field at its maximum: 0x3FFF in each 14-bit field, base offset 7 (0xE at bits 48-51
// with the version bit 46 -> 0x..0E7FFF..), swizzle 6.
TEST(Tcgen05SmemDesc, AllFieldsAtMaximum) {
  EXPECT_EQ(ctm::tcgen05_smem_desc({.start_address = 0x3FFF0, .lbo_bytes = 0x3FFF0, .sbo_bytes = 0x3FFF0,
                                    .base_offset = 7, .swizzle = Tcgen05Swizzle::b32}),
            0xC00E'7FFF'3FFF'3FFFull);
}

// Stepping the start address inside a 128B atom (K += 16 bf16 = 32 B): only bits 0-13 change.
TEST(Tcgen05SmemDesc, WithStart) {
  std::uint64_t const d = ctm::tcgen05_smem_desc({.start_address = 0x400, .lbo_bytes = 16,
                                                  .sbo_bytes = 1024, .swizzle = Tcgen05Swizzle::b128});
  EXPECT_EQ(ctm::tcgen05_smem_desc_with_start(d, 0x420), 0x4000'4040'0001'0042ull);
  EXPECT_EQ(ctm::tcgen05_smem_desc_with_start(d, 0x3FFF0) & 0x3FFF, 0x3FFFu);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc_with_start(d, 0x428), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc_with_start(d, 1u << 18), std::invalid_argument);
}

// The unchecked advance adds bytes/16 to the start field: 32 B -> +2.
TEST(Tcgen05SmemDesc, AdvanceUnchecked) {
  static_assert(ctm::tcgen05_smem_desc_advance_unchecked(0x4000'4040'0001'0040ull, 32) ==
                0x4000'4040'0001'0042ull);
  EXPECT_EQ(ctm::tcgen05_smem_desc_advance_unchecked(0xC000'4010'0001'0110ull, 0x100), 0xC000'4010'0001'0120ull);
}

TEST(Tcgen05SmemDesc, RejectsUnalignedFields) {
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.start_address = 0x408}), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.lbo_bytes = 8}), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.sbo_bytes = 1000}), std::invalid_argument);
  try {
    (void)ctm::tcgen05_smem_desc({.sbo_bytes = 1000});
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("ctm [tcgen05.smem-desc.align-16]"), std::string::npos);
  }
}

TEST(Tcgen05SmemDesc, RejectsOutOfRangeFields) {
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.start_address = 1u << 18}), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.lbo_bytes = 1u << 18}), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.sbo_bytes = 0x40000}), std::invalid_argument);
}

TEST(Tcgen05SmemDesc, RejectsInvalidSwizzleCodes) {
  for (int code : {3, 5, 7}) {
    SCOPED_TRACE(code);
    EXPECT_THROW((void)ctm::tcgen05_smem_desc({.swizzle = static_cast<Tcgen05Swizzle>(code)}),
                 std::invalid_argument);
  }
}

TEST(Tcgen05SmemDesc, RejectsBadBaseOffset) {
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.base_offset = 8, .swizzle = Tcgen05Swizzle::b128}),
               std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.base_offset = 1, .swizzle = Tcgen05Swizzle::none}),
               std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_smem_desc({.lbo_mode = static_cast<Tcgen05LboMode>(2)}),
               std::invalid_argument);
}

// Tensor-memory addresses: lane in bits 16-31, column in bits 0-15.
TEST(Tcgen05TmemAddr, LaneAndColumn) {
  static_assert(ctm::tcgen05_tmem_addr(32, 64) == 0x0020'0040u);
  EXPECT_EQ(ctm::tcgen05_tmem_addr(0, 0), 0u);
  EXPECT_EQ(ctm::tcgen05_tmem_addr(127, 511), 0x007F'01FFu);
  EXPECT_EQ(ctm::tcgen05_tmem_lane(0x0060'0100u), 0x60u);
  EXPECT_EQ(ctm::tcgen05_tmem_column(0x0060'0100u), 0x100u);
  EXPECT_THROW((void)ctm::tcgen05_tmem_addr(128, 0), std::invalid_argument);
  EXPECT_THROW((void)ctm::tcgen05_tmem_addr(0, 512), std::invalid_argument);
}

}  // namespace
