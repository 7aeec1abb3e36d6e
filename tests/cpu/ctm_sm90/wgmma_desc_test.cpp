// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The wgmma shared-memory descriptor, bit for bit. Each expected value is worked out by hand
// from the PTX ISA's field table (start address bits 0-13, LBO 16-29, SBO 32-45, base offset
// 49-51, swizzle 62-63 with 0 none, 1 128B, 2 64B, 3 32B; byte fields encoded (x & 0x3FFFF) >> 4)
// and its canonical layouts (K-major and MN-major, each swizzle mode).
#include <gtest/gtest.h>

#include <cstdint>
#include <ctm/sm90/wgmma_desc.hpp>

namespace {

using ctm::WgmmaDescFields;
using ctm::WgmmaMajor;
using ctm::WgmmaSwizzle;

// ---- the raw encoder ----

TEST(CtmWgmmaDesc, EachFieldLandsInItsBits) {
  // start 0x12340 -> 0x1234 in bits 0-13
  EXPECT_EQ(ctm::wgmma_desc_encode({0x12340, 0, 0, 0, WgmmaSwizzle::none}), 0x0000000000001234ull);
  // LBO 0x20 bytes -> 2 in bits 16-29
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0x20, 0, 0, WgmmaSwizzle::none}), 0x0000000000020000ull);
  // SBO 0x3FFF0 bytes (the largest) -> 0x3FFF in bits 32-45
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0, 0x3FFF0, 0, WgmmaSwizzle::none}), 0x00003FFF00000000ull);
  // base offset 7 -> bits 49-51
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0, 0, 7, WgmmaSwizzle::none}), 0x000E000000000000ull);
  // swizzle codes in bits 62-63
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0, 0, 0, WgmmaSwizzle::b128}), 0x4000000000000000ull);
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0, 0, 0, WgmmaSwizzle::b64}), 0x8000000000000000ull);
  EXPECT_EQ(ctm::wgmma_desc_encode({0, 0, 0, 0, WgmmaSwizzle::b32}), 0xC000000000000000ull);
}

TEST(CtmWgmmaDesc, ByteFieldsAreMaskedTo18BitsAndDropTheLow4) {
  EXPECT_EQ(ctm::wgmma_desc_encode_bytes(0x40010), 0x1u);   // bit 18 and above are dropped
  EXPECT_EQ(ctm::wgmma_desc_encode_bytes(0x3FFFF), 0x3FFFu);  // low 4 bits are dropped
  EXPECT_EQ(ctm::wgmma_desc_encode_bytes(15), 0u);
  EXPECT_FALSE(ctm::wgmma_desc_fields_valid({0x40000, 16, 16, 0, WgmmaSwizzle::none}));
  EXPECT_FALSE(ctm::wgmma_desc_fields_valid({0x400, 24, 16, 0, WgmmaSwizzle::none}));
  EXPECT_FALSE(ctm::wgmma_desc_fields_valid({0x400, 16, 16, 8, WgmmaSwizzle::none}));
  EXPECT_TRUE(ctm::wgmma_desc_fields_valid({0x3FFF0, 0x3FFF0, 0x3FFF0, 7, WgmmaSwizzle::b32}));
}

TEST(CtmWgmmaDesc, DecodeInvertsEncode) {
  WgmmaDescFields const cases[] = {
      {0x400, 16, 1024, 0, WgmmaSwizzle::b128}, {0x1080, 16, 1024, 1, WgmmaSwizzle::b128},
      {0x200, 16, 512, 0, WgmmaSwizzle::b64},   {0x100, 16, 256, 0, WgmmaSwizzle::b32},
      {0x80, 1024, 128, 0, WgmmaSwizzle::none}, {0x3FFF0, 0x3FFF0, 0x3FFF0, 7, WgmmaSwizzle::b64}};
  for (auto const& f : cases) {
    SCOPED_TRACE(f.start_address);
    EXPECT_EQ(ctm::wgmma_desc_decode(ctm::wgmma_desc_encode(f)), f);
  }
  // and encode inverts decode on a descriptor with every used bit set
  std::uint64_t const all_fields = 0xC00E3FFF3FFF3FFFull;
  EXPECT_EQ(ctm::wgmma_desc_encode(ctm::wgmma_desc_decode(all_fields)), all_fields);
}

// ---- base offset ----

TEST(CtmWgmmaDesc, BaseOffsetFollowsThePtxFormula) {
  // aligned to the repeating pattern (1024 / 512 / 256 bytes): 0
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x2000, WgmmaSwizzle::b128), 0u);
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x600, WgmmaSwizzle::b64), 0u);
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x300, WgmmaSwizzle::b32), 0u);
  // not aligned: (start >> 7) & 7
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x1080, WgmmaSwizzle::b128), 1u);  // 0x1080 >> 7 = 0x21
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x1380, WgmmaSwizzle::b128), 7u);  // 0x27
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x0280, WgmmaSwizzle::b64), 5u);   // 0x5
  // no swizzle: always 0
  EXPECT_EQ(ctm::wgmma_desc_base_offset(0x1080, WgmmaSwizzle::none), 0u);
}

// ---- canonical tiles, one worked example per swizzle mode and major-ness ----

struct Example {
  char const* what;
  WgmmaMajor major;
  WgmmaSwizzle swizzle;
  std::uint32_t elem_bytes, mn_extent, start;
  std::uint32_t lbo, sbo;  // bytes, from the canonical layout
  std::uint64_t bits;      // the descriptor, by hand
};

// K-major, swizzled: 8 rows of (swizzle bytes) per atom; SBO = 8 * swizzle bytes between 8-row
//   groups; LBO unused (16 bytes, field 1).
// K-major, none: 8x16-byte core matrices, M/N-first; SBO = 128 (next 8 rows), LBO = 16 * MN
//   (next core matrix along K).
// MN-major, swizzled: atoms of (swizzle bytes) along M/N x 8 K rows; LBO = 8 * swizzle bytes
//   (next atom along M/N), SBO = MN * elem * 8 (next 8 K rows).
// MN-major, none: 16-byte x 8 core matrices; SBO = 128 (next along M/N), LBO = MN * elem * 8.
Example const kExamples[] = {
    // start 0x400 -> 0x40; LBO 16 -> 1; SBO 1024 -> 0x40; b128 -> 1 << 62
    {"K-major 128B bf16 128 rows", WgmmaMajor::k, WgmmaSwizzle::b128, 2, 128, 0x400, 16, 1024, 0x4000004000010040ull},
    // start 0x200 -> 0x20; SBO 512 -> 0x20; b64 -> 2 << 62
    {"K-major 64B f16 64 rows", WgmmaMajor::k, WgmmaSwizzle::b64, 2, 64, 0x200, 16, 512, 0x8000002000010020ull},
    // start 0x100 -> 0x10; SBO 256 -> 0x10; b32 -> 3 << 62
    {"K-major 32B tf32 64 rows", WgmmaMajor::k, WgmmaSwizzle::b32, 4, 64, 0x100, 16, 256, 0xC000001000010010ull},
    // fp8 K-major 128B: same geometry in bytes as bf16 (SBO 1024), start 0x8000 -> 0x800
    {"K-major 128B e4m3 256 rows", WgmmaMajor::k, WgmmaSwizzle::b128, 1, 256, 0x8000, 16, 1024, 0x4000004000010800ull},
    // start 0x80 -> 8; LBO 64 * 16 = 1024 -> 0x40; SBO 128 -> 8; none -> 0
    {"K-major none bf16 64 rows", WgmmaMajor::k, WgmmaSwizzle::none, 2, 64, 0x80, 1024, 128, 0x0000000800400008ull},
    // LBO 1024 -> 0x40; SBO 128 * 2 * 8 = 2048 -> 0x80; b128
    {"MN-major 128B bf16 128 wide", WgmmaMajor::mn, WgmmaSwizzle::b128, 2, 128, 0x0, 1024, 2048, 0x4000008000400000ull},
    // LBO 512 -> 0x20; SBO 64 * 2 * 8 = 1024 -> 0x40; b64; start 0x1000 -> 0x100
    {"MN-major 64B f16 64 wide", WgmmaMajor::mn, WgmmaSwizzle::b64, 2, 64, 0x1000, 512, 1024, 0x8000004000200100ull},
    // LBO 256 -> 0x10; SBO 32 * 2 * 8 = 512 -> 0x20; b32
    {"MN-major 32B bf16 32 wide", WgmmaMajor::mn, WgmmaSwizzle::b32, 2, 32, 0x0, 256, 512, 0xC000002000100000ull},
    // LBO 64 * 2 * 8 = 1024 -> 0x40; SBO 128 -> 8; none
    {"MN-major none bf16 64 wide", WgmmaMajor::mn, WgmmaSwizzle::none, 2, 64, 0x0, 1024, 128, 0x0000000800400000ull},
    // unaligned start inside a 128B-swizzle pattern: 0x1080 -> 0x108, base offset 1 -> 1 << 49
    {"K-major 128B bf16, start 0x1080", WgmmaMajor::k, WgmmaSwizzle::b128, 2, 64, 0x1080, 16, 1024, 0x4002004000010108ull},
};

TEST(CtmWgmmaDesc, CanonicalTilesMatchWorkedExamples) {
  for (auto const& e : kExamples) {
    SCOPED_TRACE(e.what);
    ASSERT_TRUE(ctm::wgmma_desc_canonical_valid(e.major, e.swizzle, e.elem_bytes, e.mn_extent));
    WgmmaDescFields const f = ctm::wgmma_desc_canonical(e.start, e.major, e.swizzle, e.elem_bytes, e.mn_extent);
    EXPECT_EQ(f.leading_byte_offset, e.lbo);
    EXPECT_EQ(f.stride_byte_offset, e.sbo);
    EXPECT_TRUE(ctm::wgmma_desc_fields_valid(f));
    EXPECT_EQ(ctm::wgmma_desc_encode(f), e.bits) << std::hex << ctm::wgmma_desc_encode(f);
  }
}

TEST(CtmWgmmaDesc, CanonicalExtentRule) {
  EXPECT_FALSE(ctm::wgmma_desc_canonical_valid(WgmmaMajor::k, WgmmaSwizzle::b128, 2, 12));   // not 8 rows
  EXPECT_FALSE(ctm::wgmma_desc_canonical_valid(WgmmaMajor::mn, WgmmaSwizzle::b128, 2, 32));  // atom is 64 wide
  EXPECT_TRUE(ctm::wgmma_desc_canonical_valid(WgmmaMajor::mn, WgmmaSwizzle::b128, 1, 128));  // fp8 atom: 128
  EXPECT_FALSE(ctm::wgmma_desc_canonical_valid(WgmmaMajor::mn, WgmmaSwizzle::b32, 4, 4));    // tf32 atom: 8
  EXPECT_FALSE(ctm::wgmma_desc_canonical_valid(WgmmaMajor::k, WgmmaSwizzle::b64, 3, 64));    // element size
}

// ---- stepping K ----

TEST(CtmWgmmaDesc, AddStartAddressChangesOnlyBits0To13) {
  std::uint64_t const d = 0x4000004000010040ull;  // K-major 128B at 0x400
  // the next k-slice of a bf16 128B-swizzled tile is 32 bytes further: field 0x40 -> 0x42
  EXPECT_EQ(ctm::wgmma_desc_add_start_address(d, 32), 0x4000004000010042ull);
  // wraps inside the 14-bit field instead of spilling into bit 14
  EXPECT_EQ(ctm::wgmma_desc_add_start_address(0x4000004000013FFFull, 16), 0x4000004000010000ull);
}

// Everything above is constexpr: the same worked example holds at compile time.
static_assert(ctm::wgmma_desc_encode(ctm::wgmma_desc_canonical(0x400, WgmmaMajor::k, WgmmaSwizzle::b128, 2, 128)) ==
              0x4000004000010040ull);
static_assert(ctm::wgmma_swizzle_repeat_bytes(WgmmaSwizzle::b64) == 512);

}  // namespace
