// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The tcgen05 instruction descriptor, bit for bit, for every kind. Expected values are worked
// by hand from the PTX ISA tables "Instruction descriptor format" (kind::tf32/f16/f8f6f4/i8:
// selector 0-1, sparse 2, saturate 3, D 4-5, A 7-9, B 10-12, negate 13/14, transpose 15/16,
// N>>3 17-22, M>>4 24-28, max shift 30-31; kind::mxf8f6f4/mxf4/mxf4nvf4: sparse 2, SFB id 4-5,
// A 7-9, B 10-12 (10-11 for mxf4*), negate 13/14, transpose 15/16, N>>3 17-22, scale type 23,
// M>>7 27-28, SFA id 29-30) and checked against the valid-shape table.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <ctm/sm100/tcgen05_desc.hpp>

namespace {
using ctm::Tcgen05DType;
using ctm::Tcgen05InstrDesc;
using ctm::Tcgen05Kind;
using ctm::Tcgen05Major;
using ctm::Tcgen05MaxShift;
using ctm::Tcgen05ScaleType;
using ctm::Tcgen05Type;

void expect_rejected(Tcgen05InstrDesc const& d, char const* rule) {
  try {
    (void)ctm::tcgen05_idesc(d);
    ADD_FAILURE() << "accepted a descriptor that breaks " << rule;
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find(rule), std::string::npos) << e.what();
  }
}

// ---- kind::f16 ------------------------------------------------------------------------------

// bf16 x bf16 -> f32, 128 x 256, both K-major: D f32 1<<4 = 0x10, A bf16 1<<7 = 0x80,
// B bf16 1<<10 = 0x400, N>>3 = 32 at 17 = 0x40'0000, M>>4 = 8 at 24 = 0x0800'0000.
TEST(Tcgen05Idesc, F16Bf16F32Tile128x256) {
  constexpr Tcgen05InstrDesc d{.kind = Tcgen05Kind::f16, .a = Tcgen05Type::bf16,
                               .b = Tcgen05Type::bf16, .d = Tcgen05DType::f32, .m = 128, .n = 256};
  EXPECT_EQ(ctm::tcgen05_idesc(d), 0x0840'0490u);
  static_assert(ctm::tcgen05_idesc_v<d> == 0x0840'0490u);
}

// f16 x f16 -> f16, 64 x 8, A and B MN-major, A negated: D f16 0, A/B f16 0, negate A 1<<13 =
// 0x2000, transpose A 1<<15 = 0x8000, transpose B 1<<16 = 0x1'0000, N>>3 = 1 -> 0x2'0000,
// M>>4 = 4 -> 0x0400'0000.
TEST(Tcgen05Idesc, F16F16F16MnMajorNegated) {
  constexpr Tcgen05InstrDesc d{.kind = Tcgen05Kind::f16, .a = Tcgen05Type::f16, .b = Tcgen05Type::f16,
                               .d = Tcgen05DType::f16, .m = 64, .n = 8, .a_major = Tcgen05Major::mn,
                               .b_major = Tcgen05Major::mn, .negate_a = true};
  EXPECT_EQ(ctm::tcgen05_idesc(d), 0x0403'A000u);
  static_assert(ctm::tcgen05_idesc_v<d> == 0x0403'A000u);
}

// Sparse bf16, selector 2: bits 0-1 = 2, bit 2 = 1 (0x6) over the dense 128x128 value 0x0820'0490.
TEST(Tcgen05Idesc, F16SparseWithSelector) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f16, .a = Tcgen05Type::bf16, .b = Tcgen05Type::bf16,
                                .m = 128, .n = 128, .sparse = true, .sparsity_selector = 2}),
            0x0820'0496u);
}

// .ws, M = 32, N = 64, maximum shift 32 (3 at bit 30 = 0xC000'0000): M>>4 = 2 -> 0x0200'0000,
// N>>3 = 8 -> 0x10'0000, plus D/A/B 0x490.
TEST(Tcgen05Idesc, F16WarpSpecialisedMaxShift) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f16, .a = Tcgen05Type::bf16, .b = Tcgen05Type::bf16,
                                .m = 32, .n = 64, .ws = true, .max_shift = Tcgen05MaxShift::shift32}),
            0xC210'0490u);
}

// ---- kind::tf32 -----------------------------------------------------------------------------

// tf32 code 2: A 2<<7 = 0x100, B 2<<10 = 0x800, D f32 0x10, N 128 -> 16<<17 = 0x20'0000,
// M 128 -> 0x0800'0000.
TEST(Tcgen05Idesc, Tf32Tile128x128) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::tf32, .a = Tcgen05Type::tf32, .b = Tcgen05Type::tf32,
                                .m = 128, .n = 128}),
            0x0820'0910u);
}

// cta_group::2, M = 256 (16<<24 = 0x1000'0000), N = 256 (0x40'0000), B MN-major (0x1'0000).
TEST(Tcgen05Idesc, Tf32PairTile256x256MnMajorB) {
  constexpr Tcgen05InstrDesc d{.kind = Tcgen05Kind::tf32, .a = Tcgen05Type::tf32, .b = Tcgen05Type::tf32,
                               .m = 256, .n = 256, .b_major = Tcgen05Major::mn, .cta_group = 2};
  EXPECT_EQ(ctm::tcgen05_idesc(d), 0x1041'0910u);
  static_assert(ctm::tcgen05_idesc_v<d> == 0x1041'0910u);
}

// ---- kind::f8f6f4 ---------------------------------------------------------------------------

// e4m3 (0) x e2m1 (5 -> 5<<10 = 0x1400), D f16 (0), 128 x 64 (N 8<<17 = 0x10'0000), B negated
// (0x4000).
TEST(Tcgen05Idesc, F8F6F4MixedE4m3E2m1F16Accumulator) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e2m1,
                                .d = Tcgen05DType::f16, .m = 128, .n = 64, .negate_b = true}),
            0x0810'5400u);
}

// e5m2 (1 -> 0x80) x e3m2 (4 -> 0x1000), D f32, 64 x 24 (N 3<<17 = 0x6'0000, M 0x0400'0000).
TEST(Tcgen05Idesc, F8F6F4E5m2E3m2Tile64x24) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f8f6f4, .a = Tcgen05Type::e5m2, .b = Tcgen05Type::e3m2,
                                .m = 64, .n = 24}),
            0x0406'1090u);
}

// e2m3 (3 -> A 0x180, B 0xC00), cta_group::2, 128 x 16 (N 2<<17 = 0x4'0000).
TEST(Tcgen05Idesc, F8F6F4E2m3PairTile128x16) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f8f6f4, .a = Tcgen05Type::e2m3, .b = Tcgen05Type::e2m3,
                                .m = 128, .n = 16, .cta_group = 2}),
            0x0804'0D90u);
}

// 8-bit float may be MN-major in kind::f8f6f4 (A e4m3 transposed: 0x8000 on 128x8 e4m3 f32).
TEST(Tcgen05Idesc, F8F6F4E4m3MnMajor) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::f8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3,
                                .m = 128, .n = 8, .a_major = Tcgen05Major::mn}),
            0x0802'8010u);
}

// ---- kind::i8 -------------------------------------------------------------------------------

// s8 (1 -> 0x80) x u8 (0), D s32 (2<<4 = 0x20), saturate (1<<3 = 8), 128 x 48 (6<<17 = 0xC'0000).
TEST(Tcgen05Idesc, I8SignedUnsignedSaturate) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::i8, .a = Tcgen05Type::s8, .b = Tcgen05Type::u8,
                                .d = Tcgen05DType::s32, .m = 128, .n = 48, .saturate = true}),
            0x080C'00A8u);
}

// u8 x u8, cta_group::2, 256 x 64 (M 0x1000'0000, N 8<<17 = 0x10'0000), A MN-major (0x8000).
TEST(Tcgen05Idesc, I8PairTileMnMajorA) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::i8, .a = Tcgen05Type::u8, .b = Tcgen05Type::u8,
                                .d = Tcgen05DType::s32, .m = 256, .n = 64, .a_major = Tcgen05Major::mn,
                                .cta_group = 2}),
            0x1010'8020u);
}

// ---- block-scaled kinds -------------------------------------------------------------------

// mxf8f6f4, e4m3 x e2m1 (B 5<<10 = 0x1400), ue8m0 (1<<23 = 0x80'0000), 128 x 256
// (N 0x40'0000; M>>7 = 1 at 27 = 0x0800'0000), SFA id 3 (3<<29 = 0x6000'0000), SFB id 1 (0x10).
TEST(Tcgen05Idesc, Mxf8f6f4ScaleIds) {
  constexpr Tcgen05InstrDesc d{.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3,
                               .b = Tcgen05Type::e2m1, .m = 128, .n = 256,
                               .scale = Tcgen05ScaleType::ue8m0, .sfa_id = 3, .sfb_id = 1};
  EXPECT_EQ(ctm::tcgen05_idesc(d), 0x68C0'1410u);
  static_assert(ctm::tcgen05_idesc_v<d> == 0x68C0'1410u);
}

// mxf8f6f4 e5m2 x e5m2 (0x80 + 0x400), both MN-major (0x1'8000), A negated (0x2000),
// cta_group::2, 256 x 128 (M>>7 = 2 at 27 = 0x1000'0000; N 0x20'0000), ue8m0 (0x80'0000).
TEST(Tcgen05Idesc, Mxf8f6f4PairMnMajorNegated) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e5m2, .b = Tcgen05Type::e5m2,
                                .m = 256, .n = 128, .a_major = Tcgen05Major::mn, .b_major = Tcgen05Major::mn,
                                .negate_a = true, .cta_group = 2, .scale = Tcgen05ScaleType::ue8m0}),
            0x10A1'A480u);
}

// mxf4 e2m1 (1: A 0x80, B 0x400), cta_group::2, 256 x 256, ue8m0, SFA id 2 (0x4000'0000),
// SFB id 2 (0x20).
TEST(Tcgen05Idesc, Mxf4PairTileScaleIds) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                                .m = 256, .n = 256, .cta_group = 2, .scale = Tcgen05ScaleType::ue8m0,
                                .sfa_id = 2, .sfb_id = 2}),
            0x50C0'04A0u);
}

// mxf4nvf4 with ue4m3 scales (bit 23 clear), 128 x 8 (N 0x2'0000).
TEST(Tcgen05Idesc, Mxf4nvf4Ue4m3) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::mxf4nvf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                                .m = 128, .n = 8, .scale = Tcgen05ScaleType::ue4m3}),
            0x0802'0480u);
}

// mxf4nvf4 ue8m0, sparse (bit 2), cta_group::2 M = 256 (the only sparse pair M), N = 32
// (4<<17 = 0x8'0000), SFB id 2 (0x20).
TEST(Tcgen05Idesc, Mxf4nvf4SparsePair) {
  EXPECT_EQ(ctm::tcgen05_idesc({.kind = Tcgen05Kind::mxf4nvf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                                .m = 256, .n = 32, .cta_group = 2, .sparse = true,
                                .scale = Tcgen05ScaleType::ue8m0, .sfb_id = 2}),
            0x1088'04A4u);
}

// The scale-factor ids come from bits 30-31 of the scale TMEM addresses: 0x4000'0010 -> 1,
// 0xC000'0020 -> 3. mxf8f6f4 e4m3 x e4m3 128 x 128: SFA 1<<29 = 0x2000'0000, SFB 3<<4 = 0x30.
TEST(Tcgen05Idesc, ScaleIdsFromTmemAddresses) {
  Tcgen05InstrDesc const d{.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3,
                           .m = 128, .n = 128, .scale = Tcgen05ScaleType::ue8m0};
  EXPECT_EQ(ctm::tcgen05_idesc_with_sf_ids(d, 0x4000'0010u, 0xC000'0020u), 0x28A0'0030u);
  Tcgen05InstrDesc const f4{.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                            .m = 128, .n = 128, .scale = Tcgen05ScaleType::ue8m0};
  EXPECT_THROW((void)ctm::tcgen05_idesc_with_sf_ids(f4, 0x4000'0000u, 0), std::invalid_argument);
}

// The unchecked form only rewrites bits 4-5 and 29-30: ids 1 and 3 into 0x68C0'1410 (SFA 3,
// SFB 1) give SFA 1 (0x2000'0000) and SFB 3 (0x30): 0x28C0'1430.
TEST(Tcgen05Idesc, SetScaleIdsUnchecked) {
  static_assert(ctm::tcgen05_idesc_set_sf_ids_unchecked(0x68C0'1410u, 0x4000'0000u, 0xC000'0000u) ==
                0x28C0'1430u);
  EXPECT_EQ(ctm::tcgen05_idesc_set_sf_ids_unchecked(0x68C0'1410u, 0, 0), 0x08C0'1400u);
  EXPECT_EQ(ctm::tcgen05_idesc_set_sf_ids_unchecked(0x0802'0480u, 0x8000'0040u, 0x8000'0080u), 0x4802'04A0u);
}

TEST(Tcgen05Idesc, TypeCodesPerKind) {
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::f16, Tcgen05Type::f16), 0);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::f16, Tcgen05Type::bf16), 1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::tf32, Tcgen05Type::tf32), 2);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::f8f6f4, Tcgen05Type::e4m3), 0);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::f8f6f4, Tcgen05Type::e5m2), 1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::f8f6f4, Tcgen05Type::e2m3), 3);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::mxf8f6f4, Tcgen05Type::e3m2), 4);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::mxf8f6f4, Tcgen05Type::e2m1), 5);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::i8, Tcgen05Type::u8), 0);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::i8, Tcgen05Type::s8), 1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::mxf4, Tcgen05Type::e2m1), 1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::mxf4nvf4, Tcgen05Type::e2m1), 1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::mxf4, Tcgen05Type::e4m3), -1);
  EXPECT_EQ(ctm::tcgen05_idesc_type_code(Tcgen05Kind::tf32, Tcgen05Type::f16), -1);
}

// ---- rejections -----------------------------------------------------------------------------

TEST(Tcgen05Idesc, RejectsTypesOutsideTheKind) {
  expect_rejected({.kind = Tcgen05Kind::f16, .a = Tcgen05Type::f16, .b = Tcgen05Type::bf16},
                  "tcgen05.idesc.type-for-kind");
  expect_rejected({.kind = Tcgen05Kind::tf32, .a = Tcgen05Type::f16, .b = Tcgen05Type::f16},
                  "tcgen05.idesc.type-for-kind");
  expect_rejected({.kind = Tcgen05Kind::i8, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::s8,
                   .d = Tcgen05DType::s32}, "tcgen05.idesc.type-for-kind");
  expect_rejected({.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e2m1,
                   .scale = Tcgen05ScaleType::ue8m0}, "tcgen05.idesc.type-for-kind");
}

TEST(Tcgen05Idesc, RejectsAccumulatorTypes) {
  expect_rejected({.kind = Tcgen05Kind::f16, .a = Tcgen05Type::bf16, .b = Tcgen05Type::bf16,
                   .d = Tcgen05DType::f16}, "tcgen05.idesc.d-type");
  expect_rejected({.kind = Tcgen05Kind::tf32, .a = Tcgen05Type::tf32, .b = Tcgen05Type::tf32,
                   .d = Tcgen05DType::f16}, "tcgen05.idesc.d-type");
  expect_rejected({.kind = Tcgen05Kind::i8, .a = Tcgen05Type::s8, .b = Tcgen05Type::s8,
                   .d = Tcgen05DType::f32}, "tcgen05.idesc.d-type");
  expect_rejected({.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                   .d = Tcgen05DType::f16, .scale = Tcgen05ScaleType::ue8m0}, "tcgen05.idesc.d-type");
}

TEST(Tcgen05Idesc, RejectsShapes) {
  auto f16 = [](int m, int n, int cta_group) {
    return Tcgen05InstrDesc{.kind = Tcgen05Kind::f16, .m = m, .n = n, .cta_group = cta_group};
  };
  expect_rejected(f16(256, 128, 1), "tcgen05.idesc.shape");   // M = 256 needs cta_group::2
  expect_rejected(f16(64, 128, 2), "tcgen05.idesc.shape");    // M = 64 is cta_group::1 only
  expect_rejected(f16(128, 0, 1), "tcgen05.idesc.shape");
  expect_rejected(f16(128, 12, 1), "tcgen05.idesc.shape");    // N steps of 8
  expect_rejected(f16(128, 264, 1), "tcgen05.idesc.shape");
  expect_rejected(f16(128, 24, 2), "tcgen05.idesc.shape");    // cta_group::2: N steps of 16
  expect_rejected(f16(96, 128, 1), "tcgen05.idesc.shape");
  expect_rejected(f16(128, 128, 3), "tcgen05.idesc.shape");
  auto i8 = [](int m, int n, int cta_group) {
    return Tcgen05InstrDesc{.kind = Tcgen05Kind::i8, .a = Tcgen05Type::s8, .b = Tcgen05Type::s8,
                            .d = Tcgen05DType::s32, .m = m, .n = n, .cta_group = cta_group};
  };
  EXPECT_NO_THROW((void)ctm::tcgen05_idesc(i8(128, 24, 1)));
  expect_rejected(i8(128, 40, 1), "tcgen05.idesc.shape");     // above 32: steps of 16
  EXPECT_NO_THROW((void)ctm::tcgen05_idesc(i8(256, 96, 2)));
  expect_rejected(i8(256, 48, 2), "tcgen05.idesc.shape");     // cta_group::2: steps of 32
  auto mx = [](int m, int n, int cta_group, bool sparse) {
    return Tcgen05InstrDesc{.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3,
                            .m = m, .n = n, .cta_group = cta_group, .sparse = sparse,
                            .scale = Tcgen05ScaleType::ue8m0};
  };
  expect_rejected(mx(64, 128, 1, false), "tcgen05.idesc.shape");   // block-scaled: M = 128 only
  EXPECT_NO_THROW((void)ctm::tcgen05_idesc(mx(128, 8, 1, false)));
  expect_rejected(mx(128, 128, 2, true), "tcgen05.idesc.shape");   // sparse pair: M = 256 only
  auto ws = [](int m, int n, bool sparse) {
    return Tcgen05InstrDesc{.kind = Tcgen05Kind::f16, .m = m, .n = n, .sparse = sparse, .ws = true};
  };
  EXPECT_NO_THROW((void)ctm::tcgen05_idesc(ws(32, 256, false)));
  expect_rejected(ws(32, 256, true), "tcgen05.idesc.shape");      // sparse .ws: N = 64, 128
  expect_rejected(ws(128, 192, false), "tcgen05.idesc.shape");
  expect_rejected({.kind = Tcgen05Kind::f16, .m = 128, .n = 128, .cta_group = 2, .ws = true},
                  "tcgen05.idesc.shape");
}

TEST(Tcgen05Idesc, RejectsMnMajorSubByteAndFp4Kinds) {
  expect_rejected({.kind = Tcgen05Kind::f8f6f4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e4m3,
                   .a_major = Tcgen05Major::mn}, "tcgen05.idesc.major");
  expect_rejected({.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e3m2,
                   .b_major = Tcgen05Major::mn, .scale = Tcgen05ScaleType::ue8m0}, "tcgen05.idesc.major");
  expect_rejected({.kind = Tcgen05Kind::mxf4nvf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                   .a_major = Tcgen05Major::mn, .scale = Tcgen05ScaleType::ue4m3}, "tcgen05.idesc.major");
}

TEST(Tcgen05Idesc, RejectsFieldsOutsideTheirKind) {
  expect_rejected({.kind = Tcgen05Kind::i8, .a = Tcgen05Type::s8, .b = Tcgen05Type::s8,
                   .d = Tcgen05DType::s32, .negate_a = true}, "tcgen05.idesc.negate");
  expect_rejected({.kind = Tcgen05Kind::f16, .saturate = true}, "tcgen05.idesc.saturate");
  expect_rejected({.kind = Tcgen05Kind::f16, .sparsity_selector = 1}, "tcgen05.idesc.sparsity");
  expect_rejected({.kind = Tcgen05Kind::f16, .sparse = true, .sparsity_selector = 4}, "tcgen05.idesc.sparsity");
  expect_rejected({.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1, .sparse = true,
                   .sparsity_selector = 1, .scale = Tcgen05ScaleType::ue8m0}, "tcgen05.idesc.sparsity");
  expect_rejected({.kind = Tcgen05Kind::f16, .max_shift = Tcgen05MaxShift::shift8}, "tcgen05.idesc.max-shift");
  expect_rejected({.kind = Tcgen05Kind::f16, .scale = Tcgen05ScaleType::ue8m0}, "tcgen05.idesc.scale-type");
  expect_rejected({.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3},
                  "tcgen05.idesc.scale-type");                     // block-scaled needs a scale type
  expect_rejected({.kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                   .scale = Tcgen05ScaleType::ue4m3}, "tcgen05.idesc.scale-type");
  expect_rejected({.kind = Tcgen05Kind::f16, .sfa_id = 1}, "tcgen05.idesc.sf-id");
  expect_rejected({.kind = Tcgen05Kind::mxf4nvf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1,
                   .scale = Tcgen05ScaleType::ue4m3, .sfb_id = 1}, "tcgen05.idesc.sf-id");
  expect_rejected({.kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3,
                   .scale = Tcgen05ScaleType::ue8m0, .sfa_id = 4}, "tcgen05.idesc.sf-id");
}

}  // namespace
