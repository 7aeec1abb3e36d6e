// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"), as constexpr
// host/device encoders: fields in, 64 bits out, and back. Also the canonical LBO/SBO for dense
// tiles in CuTe's ordering, the base offset, and the start-address advance used to step K.
// Compiles with plain g++ (no CUDA). CuTeDSL: cute.nvgpu.warpgroup.make_smem_desc underneath.
//   bits  0-13  start address >> 4      bits 16-29  leading-dimension byte offset >> 4
//   bits 32-45  stride-dimension byte offset >> 4   bits 49-51  base offset
//   bits 62-63  swizzle: 0 none (interleave), 1 128B, 2 64B, 3 32B; each byte field is (x & 0x3FFFF) >> 4.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_HD
#include <ctm/common/swizzle_base_offset.hpp>

namespace ctm {

/// Which dimension of an operand is contiguous in shared memory: K-major (no transpose; the only
/// form for tf32, fp8 and int8 wgmma) or M/N-major (imm-trans = 1; f16 and bf16 only).
enum class WgmmaMajor : std::uint8_t { k = 0, mn = 1 };

/// The swizzle mode, as the value of descriptor bits 62-63.
enum class WgmmaSwizzle : std::uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

/// The descriptor's fields in bytes (the encoder drops the low 4 bits of each byte field).
struct WgmmaDescFields {
  std::uint32_t start_address = 0;        ///< shared-window byte address of the matrix start
  std::uint32_t leading_byte_offset = 0;  ///< LBO, bytes
  std::uint32_t stride_byte_offset = 0;   ///< SBO, bytes
  std::uint32_t base_offset = 0;          ///< 3 bits; see wgmma_desc_base_offset
  WgmmaSwizzle swizzle = WgmmaSwizzle::none;
  friend constexpr bool operator==(WgmmaDescFields const&, WgmmaDescFields const&) = default;
};

/// The width of one swizzled row in bytes: 128, 64, 32; 16 (one core-matrix row) for none.
CTM_HD constexpr std::uint32_t wgmma_swizzle_bytes(WgmmaSwizzle s) {
  return s == WgmmaSwizzle::b128 ? 128u : s == WgmmaSwizzle::b64 ? 64u : s == WgmmaSwizzle::b32 ? 32u : 16u;
}

/// The swizzle's repeating pattern: 8 rows of wgmma_swizzle_bytes (1024, 512, 256; 128 for none).
CTM_HD constexpr std::uint32_t wgmma_swizzle_repeat_bytes(WgmmaSwizzle s) { return 8u * wgmma_swizzle_bytes(s); }

/// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: a 14-bit field from a byte quantity.
CTM_HD constexpr std::uint64_t wgmma_desc_encode_bytes(std::uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }

/// The base offset for a start address: 0 without swizzle or when the start is aligned to the
/// repeating pattern; otherwise (start >> 7) & 7, as the PTX ISA gives it.
///   wgmma_desc_base_offset(0x1080, WgmmaSwizzle::b128) -> 1
CTM_HD constexpr std::uint32_t wgmma_desc_base_offset(std::uint32_t start_address, WgmmaSwizzle s) {
  return s == WgmmaSwizzle::none ? 0u : swizzle_base_offset(start_address, wgmma_swizzle_repeat_bytes(s));
}

/// Packs the fields into the 64-bit descriptor.
///   {start 0x400, LBO 16, SBO 1024, base 0, b128} -> 0x4000004000010040
/// @pre byte fields are multiples of 16 below 2^18, base_offset < 8  [wgmma.desc.fields]:
///      wgmma_desc_fields_valid says whether they are; the encoder masks as the hardware does.
CTM_HD constexpr std::uint64_t wgmma_desc_encode(WgmmaDescFields const& f) {
  return wgmma_desc_encode_bytes(f.start_address) | (wgmma_desc_encode_bytes(f.leading_byte_offset) << 16) |
         (wgmma_desc_encode_bytes(f.stride_byte_offset) << 32) |
         (static_cast<std::uint64_t>(f.base_offset & 0x7u) << 49) |
         (static_cast<std::uint64_t>(static_cast<std::uint8_t>(f.swizzle) & 0x3u) << 62);
}

/// Unpacks a descriptor. @post wgmma_desc_encode(wgmma_desc_decode(d)) == d for every d whose
/// unused bits (14-15, 30-31, 46-48, 52-61) are 0.
CTM_HD constexpr WgmmaDescFields wgmma_desc_decode(std::uint64_t d) {
  WgmmaDescFields f;
  f.start_address = static_cast<std::uint32_t>(d & 0x3FFFu) << 4;
  f.leading_byte_offset = static_cast<std::uint32_t>((d >> 16) & 0x3FFFu) << 4;
  f.stride_byte_offset = static_cast<std::uint32_t>((d >> 32) & 0x3FFFu) << 4;
  f.base_offset = static_cast<std::uint32_t>((d >> 49) & 0x7u);
  f.swizzle = static_cast<WgmmaSwizzle>((d >> 62) & 0x3u);
  return f;
}

/// Whether the fields fit the descriptor exactly (nothing lost to masking).
CTM_HD constexpr bool wgmma_desc_fields_valid(WgmmaDescFields const& f) {
  auto fits = [](std::uint32_t b) { return b % 16 == 0 && b < (1u << 18); };
  return fits(f.start_address) && fits(f.leading_byte_offset) && fits(f.stride_byte_offset) && f.base_offset < 8;
}

/// Advances the start address of a descriptor by `byte_offset` (a multiple of 16), as a K loop
/// does between wgmma k-slices of one tile: only bits 0-13 change.
/// @pre the new start address stays below 2^18.
CTM_HD constexpr std::uint64_t wgmma_desc_add_start_address(std::uint64_t d, std::uint32_t byte_offset) {
  return (d & ~std::uint64_t{0x3FFFu}) | (((d & 0x3FFFu) + (byte_offset >> 4)) & 0x3FFFu);
}

// ---- canonical dense tiles ----
// A tile of MnExtent rows (M or N) stored as CuTe's canonical wgmma layouts, the swizzle atoms
// tiled M/N-first (CuTe's tile_to_shape order). In units of T = 16 bytes:
//   K-major, none      ((8,m),(T,2k)):((1T,SBO),(1,LBO))    LBO: next core matrix along K
//   K-major, swizzled  ((8,m),(T,2k)):((sT,SBO),(1,T))      LBO unused (encoded as 16 bytes)
//   MN-major, none     ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) SBO: along M/N, LBO: along K
//   MN-major, swizzled ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO)) LBO: along M/N, SBO: along K
// where s = swizzle bytes / 16.


/// LBO and SBO in bytes for a dense canonical tile of `mn_extent` rows of `elem_bytes` elements.
///   K-major b128 (any element, any M/N)   -> LBO 16,            SBO 1024
///   K-major none                          -> LBO mn_extent*16,  SBO 128
///   MN-major b128, bf16, mn_extent 128    -> LBO 1024,          SBO 2048
///   MN-major none, bf16, mn_extent 64     -> LBO 1024,          SBO 128
/// @pre mn_extent is a multiple of 8 (K-major) or of swizzle_bytes / elem_bytes (MN-major)
///      [wgmma.desc.extent]: wgmma_desc_canonical_valid says whether it is.
CTM_HD constexpr WgmmaDescFields wgmma_desc_canonical(std::uint32_t start_address, WgmmaMajor major,
                                                     WgmmaSwizzle s, std::uint32_t elem_bytes,
                                                     std::uint32_t mn_extent) {
  WgmmaDescFields f;
  f.start_address = start_address;
  f.swizzle = s;
  f.base_offset = wgmma_desc_base_offset(start_address, s);
  if (major == WgmmaMajor::k) {
    if (s == WgmmaSwizzle::none) {
      f.leading_byte_offset = mn_extent * 16u;  // (mn_extent / 8) core matrices of 128 B per K step
      f.stride_byte_offset = 128u;
    } else {
      f.leading_byte_offset = 16u;
      f.stride_byte_offset = wgmma_swizzle_repeat_bytes(s);
    }
  } else {
    if (s == WgmmaSwizzle::none) {
      f.leading_byte_offset = mn_extent * elem_bytes * 8u;
      f.stride_byte_offset = 128u;
    } else {
      f.leading_byte_offset = wgmma_swizzle_repeat_bytes(s);
      f.stride_byte_offset = mn_extent * elem_bytes * 8u;
    }
  }
  return f;
}

/// Whether wgmma_desc_canonical's preconditions hold.
CTM_HD constexpr bool wgmma_desc_canonical_valid(WgmmaMajor major, WgmmaSwizzle s, std::uint32_t elem_bytes,
                                                 std::uint32_t mn_extent) {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4) return false;
  if (mn_extent == 0) return false;
  if (major == WgmmaMajor::k) return mn_extent % 8 == 0;
  return mn_extent % (wgmma_swizzle_bytes(s) / elem_bytes) == 0;
}

}  // namespace ctm
