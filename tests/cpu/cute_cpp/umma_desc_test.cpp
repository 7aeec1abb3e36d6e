// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// sm100::UmmaTiledMma's derived descriptors, bit for bit. Every expected value is worked by hand
// from the PTX ISA's tables, not from the encoder:
//   instruction descriptor (dense kinds): D type at bit 4 (f16 0, f32 1), A type at 7, B type at
//     10 (kind::f16: f16 0, bf16 1; tf32 2; f8f6f4: e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5),
//     A / B MN-major at 15 / 16, N >> 3 at 17, M >> 4 at 24;
//   block-scaled: SFB id at 4, types at 7 / 10 (mxf4, mxf4nvf4: e2m1 1), N >> 3 at 17, scale type
//     at 23 (ue4m3 0, ue8m0 1), M >> 4 at 24, SFA id at 29;
//   shared-memory descriptor: start >> 4 at 0, LBO >> 4 at 16, SBO >> 4 at 32, 0b001 at 46, base
//     offset at 49, swizzle at 61 (none 0, 128 B 2, 64 B 4, 32 B 6); the canonical layouts: K-major
//     swizzled SBO = 8 rows, LBO unused (16); MN-major swizzled LBO = one swizzle-wide block along
//     MN, SBO = 8 K rows; MN-major interleaved LBO = 8 K rows (128 B), SBO = one 16-byte block.
#include <cute_cpp/mma/sm100_umma.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace {
namespace cc = cute_cpp;
using cc::sm100::UmmaBlockScale;
using cc::sm100::UmmaTiledMma;
using bf16 = __nv_bfloat16;
using e4m3 = __nv_fp8_e4m3;
using e8m0 = __nv_fp8_e8m0;
using fp4 = __nv_fp4_e2m1;
using fp4x2 = __nv_fp4x2_e2m1;

constexpr std::uint64_t version = std::uint64_t{1} << 46;
constexpr std::uint64_t sw128 = std::uint64_t{2} << 61, sw64 = std::uint64_t{4} << 61;
constexpr std::uint64_t lbo(std::uint64_t bytes) { return (bytes >> 4) << 16; }
constexpr std::uint64_t sbo(std::uint64_t bytes) { return (bytes >> 4) << 32; }

// bf16 128 x 256, both K-major with 128-byte swizzle, K = 64 (four k16 instructions).
using Bf16KK = UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 256, 64>, 128, 256>;

TEST(UmmaTiledMma, Bf16KMajorInstructionDescriptor) {
  // D f32 (1 << 4) | A bf16 (1 << 7) | B bf16 (1 << 10) | N 256 >> 3 = 32 at 17 | M 128 >> 4 = 8 at 24.
  EXPECT_EQ(Bf16KK::idesc, 0x10u | 0x80u | 0x400u | (32u << 17) | (8u << 24));
  EXPECT_EQ(Bf16KK::idesc, 0x0840'0490u);
  EXPECT_EQ(Bf16KK::k_slices, 4);
  EXPECT_EQ(Bf16KK::kind, ctm::Tcgen05Kind::f16);
}

TEST(UmmaTiledMma, Bf16KMajorSmemDescriptorsStepK) {
  // SBO = 8 rows x 128 B = 1024; K slice kk starts 16 bf16 = 32 B further along the row.
  for (int kk = 0; kk < 4; ++kk) {
    std::uint64_t const want = sw128 | version | sbo(1024) | lbo(16) | std::uint64_t(32 * kk) >> 4;
    EXPECT_EQ(Bf16KK::OpA::descriptor(0, kk), want) << "kk " << kk;
    EXPECT_EQ(Bf16KK::OpB::descriptor(0, kk), want) << "kk " << kk;
  }
  EXPECT_EQ(Bf16KK::OpA::descriptor(0, 1), 0x4000'4040'0001'0002ull);
  // A tile at 0x8000 (1024-aligned): the start field is 0x8000 >> 4 = 0x800 (+2 for kk = 1).
  EXPECT_EQ(Bf16KK::OpA::descriptor(0x8000, 1), 0x4000'4040'0001'0802ull);
  EXPECT_EQ(cc::sm100::detail::umma_desc_at(Bf16KK::OpA::descriptor(0, 1), 0x8000 >> 4),
            Bf16KK::OpA::descriptor(0x8000, 1));
  EXPECT_EQ(Bf16KK::OpA::repeat_bytes, 1024u);
}

TEST(UmmaTiledMma, TensorMemoryColumns) {
  EXPECT_EQ(Bf16KK::Accumulator::columns, 256);
  EXPECT_EQ(Bf16KK::tmem_columns<2>(), 512);
  EXPECT_EQ(Bf16KK::tmem_alloc_columns<1>(), 256u);
  using Small = UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 24, 64>, 128, 24>;
  EXPECT_EQ(Small::tmem_columns<1>(), 24);
  EXPECT_EQ(Small::tmem_alloc_columns<1>(), 32u);  // tcgen05.alloc takes powers of two from 32
  EXPECT_EQ(Small::tmem_alloc_columns<3>(), 128u);  // 72 -> 128
}

// B N-major (128 N x 64 K, 128-byte swizzle): blocks of 64 N x 64 K rows = 8192 B.
using Bf16KN = UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemMNMajor<bf16, 128, 64>, 128, 128>;

TEST(UmmaTiledMma, MNMajorSwizzledB) {
  // ... | B transpose (1 << 16) | N 128 >> 3 = 16 at 17.
  EXPECT_EQ(Bf16KN::idesc, 0x490u | (1u << 16) | (16u << 17) | (8u << 24));
  EXPECT_EQ(Bf16KN::idesc, 0x0821'0490u);
  // LBO = 8192 (next 64-wide N block), SBO = 1024 (8 K rows of 128 B); slice kk moves 16 K rows.
  EXPECT_EQ(Bf16KN::OpB::descriptor(0, 0), sw128 | version | sbo(1024) | lbo(8192));
  EXPECT_EQ(Bf16KN::OpB::descriptor(0, 1), 0x4000'4040'0200'0080ull);
  EXPECT_EQ(Bf16KN::OpB::descriptor(0, 3), sw128 | version | sbo(1024) | lbo(8192) | (3 * 2048) >> 4);
}

// M = 64: A M-major interleaved (16-byte blocks, no swizzle), B K-major with 64-byte swizzle.
using Bf16Interleaved =
    UmmaTiledMma<bf16, bf16, float, cc::SmemMNMajor<bf16, 64, 32, 16>, cc::SmemKMajor<bf16, 64, 32, 64>, 64, 64>;

TEST(UmmaTiledMma, MNMajorInterleavedA) {
  // A transpose (1 << 15) | N 64 >> 3 = 8 at 17 | M 64 >> 4 = 4 at 24.
  EXPECT_EQ(Bf16Interleaved::idesc, 0x490u | (1u << 15) | (8u << 17) | (4u << 24));
  EXPECT_EQ(Bf16Interleaved::idesc, 0x0410'8490u);
  // Core matrices of 8 K rows x 16 B: LBO = 128 (next 8 K rows), SBO = 8 M x 32 K x 2 B = 512 (next
  // 8-wide M block); slice kk starts 16 K rows x 16 B = 256 B further.
  EXPECT_EQ(Bf16Interleaved::OpA::descriptor(0, 0), version | sbo(512) | lbo(128));
  EXPECT_EQ(Bf16Interleaved::OpA::descriptor(0, 1), 0x0000'4020'0008'0010ull);
  // B: 64-byte rows, SBO = 512, swizzle 4.
  EXPECT_EQ(Bf16Interleaved::OpB::descriptor(0, 1), 0x8000'4020'0001'0002ull);
  EXPECT_EQ(Bf16Interleaved::OpB::descriptor(0, 1), sw64 | version | sbo(512) | lbo(16) | 2);
  EXPECT_EQ(Bf16Interleaved::k_slices, 2);
}

TEST(UmmaTiledMma, Tf32) {
  using Tf32 = UmmaTiledMma<float, float, float, cc::SmemKMajor<float, 128, 32>, cc::SmemKMajor<float, 64, 32>, 128, 64>;
  // A / B tf32 (2 << 7, 2 << 10) | D f32 | N 8 at 17 | M 8 at 24.
  EXPECT_EQ(Tf32::idesc, 0x10u | 0x100u | 0x800u | (8u << 17) | (8u << 24));
  EXPECT_EQ(Tf32::k_slices, 4);  // 32 floats per row, 8 per instruction
  EXPECT_EQ(Tf32::OpA::descriptor(0, 3), sw128 | version | sbo(1024) | lbo(16) | 96 >> 4);
}

TEST(UmmaTiledMma, F8F6F4MixedTypes) {
  using A = cc::SmemKMajor<e4m3, 128, 128>;
  using B = cc::SmemKMajor<fp4, 128, 128>;
  using F32 = UmmaTiledMma<e4m3, fp4, float, A, B, 128, 128>;
  using F16 = UmmaTiledMma<e4m3, fp4, __half, A, B, 128, 128>;
  // kind::f8f6f4: A e4m3 0, B e2m1 5 at 10, N 16 at 17, M 8 at 24; D f32 1 or f16 0 at 4.
  EXPECT_EQ(F32::idesc, 0x10u | (5u << 10) | (16u << 17) | (8u << 24));
  EXPECT_EQ(F16::idesc, (5u << 10) | (16u << 17) | (8u << 24));
  EXPECT_EQ(F32::kind, ctm::Tcgen05Kind::f8f6f4);
  EXPECT_EQ(F32::k_slices, 4);  // 128 one-byte elements, 32 per instruction
}

TEST(UmmaTiledMma, Pair) {
  using M256 = UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 128, 64>, 256, 256, 2>;
  EXPECT_EQ(M256::idesc, 0x490u | (32u << 17) | (16u << 24));  // M 256 >> 4 = 16
  EXPECT_EQ(M256::Accumulator::columns, 256);
  EXPECT_EQ(M256::Accumulator::rows, 128);
  using M128 = UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 64, 64>, cc::SmemKMajor<bf16, 128, 64>, 128, 256, 2>;
  EXPECT_EQ(M128::idesc, 0x0840'0490u);
  EXPECT_EQ(M128::Accumulator::columns, 128);  // layout B folds N in two
}

TEST(UmmaTiledMma, Mxf8f6f4) {
  using Mx = UmmaTiledMma<e4m3, e4m3, float, cc::SmemKMajor<e4m3, 128, 128>, cc::SmemKMajor<e4m3, 256, 128>, 128, 256,
                          1, UmmaBlockScale<e8m0, 32>>;
  EXPECT_EQ(Mx::kind, ctm::Tcgen05Kind::mxf8f6f4);
  // A, B e4m3 0 | N 32 at 17 | ue8m0 1 at 23 | M 8 at 24.
  EXPECT_EQ(Mx::idesc, (32u << 17) | (1u << 23) | (8u << 24));
  EXPECT_EQ(Mx::idesc, 0x08C0'0000u);
  EXPECT_EQ(Mx::sf_per_instr, 1);  // scale_vec::1X
  // 128 K values / 32 = 4 factors per row: one 512-byte block for A, two (256 rows) for B.
  EXPECT_EQ(Mx::SfaLayout::columns, 4);
  EXPECT_EQ(Mx::SfbLayout::columns, 8);
  EXPECT_EQ(Mx::tmem_columns<1>(), 256 + 12);
  EXPECT_EQ(Mx::tmem_alloc_columns<1>(), 512u);
  // Slice kk reads factor kk: byte kk of the same columns (id in bits 30-31).
  EXPECT_EQ(Mx::SfaLayout::tmem_for_slice(0x0000'0100, 2), 0x8000'0100u);
  EXPECT_EQ(Mx::SfaLayout::tmem_for_slice(0x0000'0100, 3), 0xC000'0100u);
  std::uint32_t const s3 = Mx::SfaLayout::tmem_for_slice(0x100, 3);
  EXPECT_EQ(ctm::tcgen05_idesc_set_sf_ids_unchecked(Mx::idesc, s3, s3), 0x08C0'0000u | (3u << 29) | (3u << 4));
}

TEST(UmmaTiledMma, Mxf4AndMxf4Nvf4) {
  using A = cc::SmemKMajor<fp4x2, 128, 128>;  // 128 bytes = 256 e2m1 values per row
  using Mx4 = UmmaTiledMma<fp4x2, fp4x2, float, A, A, 128, 128, 1, UmmaBlockScale<e8m0, 32>>;
  using Nv4 = UmmaTiledMma<fp4x2, fp4x2, float, A, A, 128, 128, 1, UmmaBlockScale<e4m3, 16>>;
  EXPECT_EQ(Mx4::kind, ctm::Tcgen05Kind::mxf4);
  EXPECT_EQ(Nv4::kind, ctm::Tcgen05Kind::mxf4nvf4);
  // e2m1 1 at 7 and 10 | N 16 at 17 | scale type (ue8m0 1, ue4m3 0) at 23 | M 8 at 24.
  EXPECT_EQ(Mx4::idesc, 0x80u | 0x400u | (16u << 17) | (1u << 23) | (8u << 24));
  EXPECT_EQ(Nv4::idesc, 0x0820'0480u);
  EXPECT_EQ(Mx4::k_slices, 4);  // 64 values = 32 bytes per instruction
  EXPECT_EQ(Mx4::k_values, 256);
  EXPECT_EQ(Mx4::sf_per_instr, 2);  // scale_vec::2X: half-words 0 and 2
  EXPECT_EQ(Nv4::sf_per_instr, 4);  // scale_vec::4X: whole words
  EXPECT_EQ(Mx4::SfaLayout::tmem_for_slice(0x40, 1), 0x8000'0040u);
  EXPECT_EQ(Mx4::SfaLayout::tmem_for_slice(0x40, 2), 0x0000'0044u);
  EXPECT_EQ(Nv4::SfaLayout::columns, 16);  // 256 / 16 = 16 factors per row: 4 blocks
  EXPECT_EQ(Nv4::SfaLayout::tmem_for_slice(0x40, 3), 0x0000'004Cu);
}

TEST(UmmaScaleFactorLayout, SharedMemoryBlocks) {
  using L = cc::sm100::UmmaScaleFactorLayout<256, 128, 32, 1>;
  EXPECT_EQ(L::row_blocks, 2);
  EXPECT_EQ(L::bytes, 1024);
  // Row 170, factor 2: block 1 (rows 128..255), row 170 % 32 = 10 -> 160, (170 / 32) % 4 = 1 -> 4.
  EXPECT_EQ(L::smem_offset(170, 2), 512 + 160 + 4 + 2);
  // tcgen05.cp source of block 1 at 0x2000: start 0x2200, LBO = SBO = 128 (8 rows of 16 B), no swizzle.
  EXPECT_EQ(L::block_descriptor(0x2000, 1), version | sbo(128) | lbo(128) | (0x2200 >> 4));
  EXPECT_EQ(L::block_descriptor(0x2000, 1), 0x0000'4008'0008'0220ull);
}

}  // namespace
