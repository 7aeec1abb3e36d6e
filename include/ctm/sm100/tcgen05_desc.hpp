// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_desc.hpp: constexpr encoders for the two tcgen05 descriptors, the 64-bit
// shared-memory matrix descriptor (PTX ISA "tcgen05 Shared Memory Descriptor") and the 32-bit
// instruction descriptor (PTX ISA "tcgen05 Instruction Descriptor", one layout for kind::f16,
// tf32, f8f6f4, i8 and one for the block-scaled kinds mxf8f6f4, mxf4, mxf4nvf4).
// Host and device, no CUDA needed: plain g++ compiles this header (the CPU bit tests do).
// CuTeDSL: cute.nvgpu.tcgen05 SmemDescriptor / make_instr_desc (the encoding underneath).
#include <cstdint>     // std::uint32_t, std::uint64_t
#include <stdexcept>   // std::invalid_argument (host-side rejection)

#include <ctm/common/config.hpp>  // CTM_HD
#include <ctm/common/swizzle_base_offset.hpp>

namespace ctm {

namespace detail {
/// Rejects a bad descriptor field: std::invalid_argument on the host, a trap on the device.
/// Not constexpr on purpose: reaching it during constant evaluation is a compile error.
CTM_HD inline void tcgen05_desc_fail(char const* message) {
#if defined(__CUDA_ARCH__)
  (void)message;
  __trap();
#else
  throw std::invalid_argument(message);
#endif
}
}  // namespace detail

// ---- tensor-memory address --------------------------------------------------------------------

/// A tensor-memory address: lane (row, 0..127) in bits 16-31, column (32-bit cell, 0..511) in
/// bits 0-15, as tcgen05.alloc returns it and tcgen05.ld/st/mma/cp take it.
///   tcgen05_tmem_addr(32, 64) -> 0x0020'0040
/// @pre lane < 128, column < 512 [tcgen05.tmem-addr.range]
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_tmem_addr(std::uint32_t lane, std::uint32_t column) {
  if (lane >= 128 || column >= 512)
    detail::tcgen05_desc_fail("ctm [tcgen05.tmem-addr.range]: tensor memory has 128 lanes and 512 "
                              "columns");
  return lane << 16 | column;
}
/// The lane (bits 16-31) and column (bits 0-15) of a tensor-memory address.
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_tmem_lane(std::uint32_t taddr) { return taddr >> 16; }
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_tmem_column(std::uint32_t taddr) { return taddr & 0xFFFFu; }

// ---- shared-memory matrix descriptor ------------------------------------------------------

/// Swizzle mode, bits 61-63 of the descriptor. The enumerator values are the field values.
enum class Tcgen05Swizzle : std::uint8_t {
  none = 0,          ///< no swizzling (interleaved 8x16-byte core matrices)
  b128_base32b = 1,  ///< 128-byte swizzle with 32-byte atomicity
  b128 = 2,          ///< 128-byte swizzle
  b64 = 4,           ///< 64-byte swizzle
  b32 = 6,           ///< 32-byte swizzle
};

/// Leading-dimension stride mode, bit 52: the LBO field is a byte offset (relative) or an
/// absolute byte address. NOTE: the PTX ISA lists the absolute mode as supported on sm_103a;
/// the encoder sets the bit on request and leaves that choice to the caller.
enum class Tcgen05LboMode : std::uint8_t { relative = 0, absolute = 1 };

/// The fields of a tcgen05 shared-memory matrix descriptor, in bytes as the ISA states them.
struct Tcgen05SmemDescFields {
  std::uint32_t start_address = 0;   ///< shared::cta byte address of the matrix (16-B aligned)
  std::uint32_t lbo_bytes = 0;       ///< leading-dimension byte offset (or address), 16-B aligned
  std::uint32_t sbo_bytes = 0;       ///< stride-dimension byte offset, 16-B aligned
  std::uint8_t base_offset = 0;      ///< 0..7: (pattern start >> 7) & 7 when not pattern-aligned
  Tcgen05LboMode lbo_mode = Tcgen05LboMode::relative;
  Tcgen05Swizzle swizzle = Tcgen05Swizzle::none;
};

namespace detail {
CTM_HD constexpr std::uint64_t tcgen05_matrix_descriptor_encode(std::uint32_t x) {
  return (std::uint64_t{x} & 0x3FFFFu) >> 4;   // PTX: matrix-descriptor-encode(x)
}
CTM_HD constexpr bool tcgen05_swizzle_valid(Tcgen05Swizzle s) {
  auto const v = static_cast<unsigned>(s);
  return v == 0 || v == 1 || v == 2 || v == 4 || v == 6;
}
}  // namespace detail

/// The version field (bits 46-48) every tcgen05 shared-memory descriptor carries: 0b001.
inline constexpr std::uint64_t tcgen05_smem_desc_version_bits = std::uint64_t{1} << 46;

/// The base-offset field for a swizzled matrix whose repeating pattern starts at
/// `pattern_start`: 0 when that address is aligned to the pattern's repeat (1024 B for the
/// 128-byte swizzles, 512 B for 64-byte, 256 B for 32-byte) or without swizzling, otherwise
/// (pattern_start >> 7) & 7 (PTX ISA, "tcgen05 Shared Memory Descriptor").
///   tcgen05_smem_desc_base_offset(0x480, Tcgen05Swizzle::b128) -> 1
[[nodiscard]] CTM_HD constexpr std::uint8_t tcgen05_smem_desc_base_offset(std::uint32_t pattern_start,
                                                                        Tcgen05Swizzle swizzle) {
  std::uint32_t repeat = 0;  // no swizzle
  switch (swizzle) {
    case Tcgen05Swizzle::b128:
    case Tcgen05Swizzle::b128_base32b: repeat = 1024; break;
    case Tcgen05Swizzle::b64: repeat = 512; break;
    case Tcgen05Swizzle::b32: repeat = 256; break;
    default: break;
  }
  return static_cast<std::uint8_t>(swizzle_base_offset(pattern_start, repeat));
}

/// tcgen05 shared-memory matrix descriptor:
///   bits 0-13 start>>4, 16-29 LBO>>4, 32-45 SBO>>4, 46-48 0b001, 49-51 base offset,
///   52 LBO mode, 53-60 zero, 61-63 swizzle.
///   tcgen05_smem_desc({.start_address = 0x400, .lbo_bytes = 16, .sbo_bytes = 1024,
///                      .swizzle = Tcgen05Swizzle::b128})  ->  0x4000'4040'0001'0040
/// @pre start, LBO, SBO multiples of 16      [tcgen05.smem-desc.align-16]
/// @pre start, LBO, SBO below 2^18 (256 KiB) [tcgen05.smem-desc.range]
/// @pre base_offset in 0..7, and 0 without swizzle [tcgen05.smem-desc.base-offset]
/// @pre swizzle one of 0, 1, 2, 4, 6        [tcgen05.smem-desc.swizzle]
/// @pre LBO mode 0 or 1                      [tcgen05.smem-desc.lbo-mode]
/// Violations throw std::invalid_argument on the host, trap on the device, and fail to
/// compile in a constant expression.
[[nodiscard]] CTM_HD constexpr std::uint64_t tcgen05_smem_desc(Tcgen05SmemDescFields f) {
  if (f.start_address % 16 != 0 || f.lbo_bytes % 16 != 0 || f.sbo_bytes % 16 != 0)
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.align-16]: the start address, leading "
                              "byte offset and stride byte offset must be multiples of 16");
  if (f.start_address >= (1u << 18) || f.lbo_bytes >= (1u << 18) || f.sbo_bytes >= (1u << 18))
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.range]: the start address, leading byte "
                              "offset and stride byte offset must be below 2^18 (14 bits of 16-byte units)");
  if (!detail::tcgen05_swizzle_valid(f.swizzle))
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.swizzle]: the swizzle mode must be 0, 1, 2, "
                              "4 or 6 (3, 5 and 7 are invalid)");
  if (f.base_offset > 7 || (f.swizzle == Tcgen05Swizzle::none && f.base_offset != 0))
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.base-offset]: the base offset is 3 bits, "
                              "and must be 0 without swizzling");
  if (static_cast<unsigned>(f.lbo_mode) > 1)
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.lbo-mode]: the leading-dimension mode is 0 "
                              "(relative) or 1 (absolute)");
  return detail::tcgen05_matrix_descriptor_encode(f.start_address)
       | detail::tcgen05_matrix_descriptor_encode(f.lbo_bytes) << 16
       | detail::tcgen05_matrix_descriptor_encode(f.sbo_bytes) << 32
       | tcgen05_smem_desc_version_bits
       | std::uint64_t{f.base_offset} << 49
       | std::uint64_t{static_cast<std::uint8_t>(f.lbo_mode)} << 52
       | std::uint64_t{static_cast<std::uint8_t>(f.swizzle)} << 61;
}

/// The same descriptor with its start address replaced (e.g. stepping along K inside a
/// swizzle atom). @pre as tcgen05_smem_desc for the address [tcgen05.smem-desc.align-16].
[[nodiscard]] CTM_HD constexpr std::uint64_t tcgen05_smem_desc_with_start(std::uint64_t desc,
                                                                         std::uint32_t start_address) {
  if (start_address % 16 != 0 || start_address >= (1u << 18))
    detail::tcgen05_desc_fail("ctm [tcgen05.smem-desc.align-16]: the start address must be a "
                              "multiple of 16 below 2^18");
  return (desc & ~std::uint64_t{0x3FFF}) | detail::tcgen05_matrix_descriptor_encode(start_address);
}

/// The descriptor moved by `bytes` (a multiple of 16) along its start address, with no check:
/// the hot-loop form of tcgen05_smem_desc_with_start (the K step inside a swizzle atom).
///   tcgen05_smem_desc_advance_unchecked(0x4000'4040'0001'0040, 32) -> 0x4000'4040'0001'0042
/// @pre bytes % 16 == 0 and the new start stays below 2^18 [tcgen05.smem-desc.range]: not checked
[[nodiscard]] CTM_HD constexpr std::uint64_t tcgen05_smem_desc_advance_unchecked(std::uint64_t desc,
                                                                                std::uint32_t bytes) {
  return desc + (bytes >> 4);
}

// ---- instruction descriptor -----------------------------------------------------------------

/// The .kind of a tcgen05.mma.
enum class Tcgen05Kind : std::uint8_t { f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4 };

/// True for the block-scaled kinds (their descriptor has scale-factor ids and a scale type).
CTM_HD constexpr bool tcgen05_kind_is_block_scaled(Tcgen05Kind k) {
  return k == Tcgen05Kind::mxf8f6f4 || k == Tcgen05Kind::mxf4 || k == Tcgen05Kind::mxf4nvf4;
}

/// A and B element types. The field value depends on the kind (see tcgen05_idesc_type_code).
enum class Tcgen05Type : std::uint8_t { f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, u8, s8 };
/// Accumulator (D) type, bits 4-5 of the non-block-scaled layout; the values are the field's.
enum class Tcgen05DType : std::uint8_t { f16 = 0, f32 = 1, s32 = 2 };
/// Operand major-ness: the transpose bit (15 for A, 16 for B). K-major is "no transpose".
enum class Tcgen05Major : std::uint8_t { k = 0, mn = 1 };
/// Scale-factor type of the block-scaled kinds, bit 23. `none` for the other kinds.
enum class Tcgen05ScaleType : std::uint8_t { ue4m3 = 0, ue8m0 = 1, none = 0xFF };
/// Maximum shift for B-matrix reuse in tcgen05.mma.ws, bits 30-31.
enum class Tcgen05MaxShift : std::uint8_t { none = 0, shift8 = 1, shift16 = 2, shift32 = 3 };

/// What a tcgen05.mma computes. `cta_group` and `ws` are not encoded; they decide which M, N
/// are valid. The block-scaled fields (scale, sfa_id, sfb_id) are used by the block-scaled
/// kinds only; `saturate` by kind::i8 only; `max_shift` by the .ws form only.
struct Tcgen05InstrDesc {
  Tcgen05Kind kind = Tcgen05Kind::f16;
  Tcgen05Type a = Tcgen05Type::bf16;
  Tcgen05Type b = Tcgen05Type::bf16;
  Tcgen05DType d = Tcgen05DType::f32;
  int m = 128;
  int n = 128;
  Tcgen05Major a_major = Tcgen05Major::k;
  Tcgen05Major b_major = Tcgen05Major::k;
  bool negate_a = false;
  bool negate_b = false;
  int cta_group = 1;
  bool sparse = false;
  int sparsity_selector = 0;
  bool saturate = false;
  bool ws = false;
  Tcgen05MaxShift max_shift = Tcgen05MaxShift::none;
  Tcgen05ScaleType scale = Tcgen05ScaleType::none;
  int sfa_id = 0;
  int sfb_id = 0;
};

/// The atype/btype field value of `t` under `kind`, or -1 when the kind does not take `t`.
///   kind::f16: f16 0, bf16 1 · kind::tf32: tf32 2 · kind::f8f6f4 and mxf8f6f4: e4m3 0, e5m2 1,
///   e2m3 3, e3m2 4, e2m1 5 · kind::i8: u8 0, s8 1 · kind::mxf4 and mxf4nvf4: e2m1 1.
CTM_HD constexpr int tcgen05_idesc_type_code(Tcgen05Kind kind, Tcgen05Type t) {
  switch (kind) {
    case Tcgen05Kind::f16:
      return t == Tcgen05Type::f16 ? 0 : t == Tcgen05Type::bf16 ? 1 : -1;
    case Tcgen05Kind::tf32:
      return t == Tcgen05Type::tf32 ? 2 : -1;
    case Tcgen05Kind::f8f6f4:
    case Tcgen05Kind::mxf8f6f4:
      switch (t) {
        case Tcgen05Type::e4m3: return 0;
        case Tcgen05Type::e5m2: return 1;
        case Tcgen05Type::e2m3: return 3;
        case Tcgen05Type::e3m2: return 4;
        case Tcgen05Type::e2m1: return 5;
        default: return -1;
      }
    case Tcgen05Kind::i8:
      return t == Tcgen05Type::u8 ? 0 : t == Tcgen05Type::s8 ? 1 : -1;
    case Tcgen05Kind::mxf4:
    case Tcgen05Kind::mxf4nvf4:
      return t == Tcgen05Type::e2m1 ? 1 : -1;
  }
  return -1;
}

namespace detail {
CTM_HD constexpr bool tcgen05_type_8bit_or_wider(Tcgen05Type t) {
  return t != Tcgen05Type::e2m3 && t != Tcgen05Type::e3m2 && t != Tcgen05Type::e2m1;
}
CTM_HD constexpr bool tcgen05_idesc_types_ok(Tcgen05InstrDesc const& x) {
  if (tcgen05_idesc_type_code(x.kind, x.a) < 0 || tcgen05_idesc_type_code(x.kind, x.b) < 0) return false;
  if (x.kind == Tcgen05Kind::f16 && x.a != x.b) return false;   // f16 x f16 or bf16 x bf16
  return true;
}
CTM_HD constexpr bool tcgen05_idesc_dtype_ok(Tcgen05InstrDesc const& x) {
  switch (x.kind) {
    case Tcgen05Kind::f16:
      return x.d == Tcgen05DType::f32 || (x.d == Tcgen05DType::f16 && x.a == Tcgen05Type::f16);
    case Tcgen05Kind::f8f6f4:
      return x.d == Tcgen05DType::f32 || x.d == Tcgen05DType::f16;
    case Tcgen05Kind::i8:
      return x.d == Tcgen05DType::s32;
    default:
      return x.d == Tcgen05DType::f32;
  }
}
/// PTX ISA table "Various combinations of .kind and shapes".
CTM_HD constexpr bool tcgen05_idesc_shape_ok(Tcgen05InstrDesc const& x) {
  int const m = x.m, n = x.n;
  if (x.cta_group != 1 && x.cta_group != 2) return false;
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  if (x.ws) {
    if (x.cta_group != 1 || tcgen05_kind_is_block_scaled(x.kind)) return false;
    if (m != 32 && m != 64 && m != 128) return false;
    return n == 64 || n == 128 || (n == 256 && !x.sparse);
  }
  if (tcgen05_kind_is_block_scaled(x.kind)) {
    if (x.cta_group == 1) return m == 128;                               // N steps of 8
    if (x.sparse) return m == 256 && n % 16 == 0;
    return (m == 128 || m == 256) && n % 16 == 0;
  }
  if (x.kind == Tcgen05Kind::i8) {
    if (x.cta_group == 1)
      return (m == 64 || m == 128) && (n <= 32 || n % 16 == 0);         // 8,16,24,32,48,...
    return (m == 128 || m == 256) && n % 32 == 0;
  }
  if (x.cta_group == 1) return m == 64 || m == 128;                      // N steps of 8
  return (m == 128 || m == 256) && n % 16 == 0;
}
CTM_HD constexpr bool tcgen05_idesc_major_ok(Tcgen05InstrDesc const& x) {
  if (x.kind == Tcgen05Kind::mxf4 || x.kind == Tcgen05Kind::mxf4nvf4)
    return x.a_major == Tcgen05Major::k && x.b_major == Tcgen05Major::k;
  if (x.a_major == Tcgen05Major::mn && !tcgen05_type_8bit_or_wider(x.a)) return false;
  if (x.b_major == Tcgen05Major::mn && !tcgen05_type_8bit_or_wider(x.b)) return false;
  return true;
}
CTM_HD constexpr bool tcgen05_idesc_negate_ok(Tcgen05InstrDesc const& x) {
  return x.kind != Tcgen05Kind::i8 || (!x.negate_a && !x.negate_b);
}
CTM_HD constexpr bool tcgen05_idesc_saturate_ok(Tcgen05InstrDesc const& x) {
  return !x.saturate || x.kind == Tcgen05Kind::i8;
}
CTM_HD constexpr bool tcgen05_idesc_sparsity_ok(Tcgen05InstrDesc const& x) {
  if (x.sparsity_selector < 0 || x.sparsity_selector > 3) return false;
  if (!x.sparse || tcgen05_kind_is_block_scaled(x.kind)) return x.sparsity_selector == 0;
  return true;
}
CTM_HD constexpr bool tcgen05_idesc_max_shift_ok(Tcgen05InstrDesc const& x) {
  return x.max_shift == Tcgen05MaxShift::none || x.ws;
}
CTM_HD constexpr bool tcgen05_idesc_scale_type_ok(Tcgen05InstrDesc const& x) {
  switch (x.kind) {
    case Tcgen05Kind::mxf8f6f4:
    case Tcgen05Kind::mxf4: return x.scale == Tcgen05ScaleType::ue8m0;
    case Tcgen05Kind::mxf4nvf4: return x.scale == Tcgen05ScaleType::ue8m0 || x.scale == Tcgen05ScaleType::ue4m3;
    default: return x.scale == Tcgen05ScaleType::none;
  }
}
CTM_HD constexpr bool tcgen05_idesc_sf_id_ok(Tcgen05InstrDesc const& x) {
  auto const in = [](int v, bool only_0_or_2) {
    return only_0_or_2 ? (v == 0 || v == 2) : (v >= 0 && v <= 3);
  };
  switch (x.kind) {
    case Tcgen05Kind::mxf8f6f4: return in(x.sfa_id, false) && in(x.sfb_id, false);
    case Tcgen05Kind::mxf4:
    case Tcgen05Kind::mxf4nvf4: return in(x.sfa_id, true) && in(x.sfb_id, true);
    default: return x.sfa_id == 0 && x.sfb_id == 0;
  }
}
CTM_HD constexpr std::uint32_t tcgen05_idesc_bits(Tcgen05InstrDesc const& x) {
  std::uint32_t const a = static_cast<std::uint32_t>(tcgen05_idesc_type_code(x.kind, x.a));
  std::uint32_t const b = static_cast<std::uint32_t>(tcgen05_idesc_type_code(x.kind, x.b));
  std::uint32_t const common =
      std::uint32_t{x.sparse} << 2 | a << 7 | b << 10 | std::uint32_t{x.negate_a} << 13 |
      std::uint32_t{x.negate_b} << 14 | std::uint32_t{static_cast<std::uint8_t>(x.a_major)} << 15 |
      std::uint32_t{static_cast<std::uint8_t>(x.b_major)} << 16 |
      static_cast<std::uint32_t>(x.n >> 3) << 17 | static_cast<std::uint32_t>(x.m >> 4) << 24;
  if (tcgen05_kind_is_block_scaled(x.kind))
    return common | static_cast<std::uint32_t>(x.sfb_id) << 4 |
           std::uint32_t{static_cast<std::uint8_t>(x.scale)} << 23 |
           static_cast<std::uint32_t>(x.sfa_id) << 29;
  return common | static_cast<std::uint32_t>(x.sparsity_selector) |
         std::uint32_t{x.saturate} << 3 | std::uint32_t{static_cast<std::uint8_t>(x.d)} << 4 |
         std::uint32_t{static_cast<std::uint8_t>(x.max_shift)} << 30;
}
}  // namespace detail

/// The 32-bit tcgen05 instruction descriptor.
///   kind::f16 etc.: bits 0-1 sparsity selector, 2 sparse, 3 saturate, 4-5 D type, 7-9 A type,
///     10-12 B type, 13/14 negate A/B, 15/16 transpose (MN-major) A/B, 17-22 N>>3, 24-28 M>>4,
///     30-31 max shift (.ws).
///   block-scaled kinds: 2 sparse, 4-5 SFB id, 7-9 A type, 10-12 B type, 13-16 as above,
///     17-22 N>>3, 23 scale type (UE4M3 0, UE8M0 1), 24-28 M>>4 (the ISA writes M>>7 at 27-28,
///     the same bits for M = 128, 256), 29-30 SFA id. Bit 31 (mxf4/mxf4nvf4 K = 96) is left 0:
///     that K is not exposed.
///   tcgen05_idesc({.kind = f16, .a = bf16, .b = bf16, .d = f32, .m = 128, .n = 256})
///     -> 0x0840'0490
/// @pre A/B types belong to the kind; f16 needs A == B         [tcgen05.idesc.type-for-kind]
/// @pre D type allowed for the kind (f16: f16/f32, f16 D with f16 inputs; f8f6f4: f16/f32;
///      i8: s32; others f32)                                    [tcgen05.idesc.d-type]
/// @pre M, N valid for kind, cta_group, sparsity and .ws        [tcgen05.idesc.shape]
/// @pre MN-major only for 8-bit-or-wider types; mxf4/mxf4nvf4 K-major only [tcgen05.idesc.major]
/// @pre no negation for kind::i8                                [tcgen05.idesc.negate]
/// @pre saturate only for kind::i8                              [tcgen05.idesc.saturate]
/// @pre sparsity selector 0..3, and 0 when dense or block-scaled [tcgen05.idesc.sparsity]
/// @pre max shift only with .ws                                 [tcgen05.idesc.max-shift]
/// @pre scale type: ue8m0 for mxf8f6f4/mxf4, ue8m0 or ue4m3 for mxf4nvf4, none otherwise
///                                                              [tcgen05.idesc.scale-type]
/// @pre scale-factor ids 0..3 (mxf8f6f4), 0 or 2 (mxf4, mxf4nvf4), 0 otherwise
///                                                              [tcgen05.idesc.sf-id]
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_idesc(Tcgen05InstrDesc const& x) {
  if (!detail::tcgen05_idesc_types_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.type-for-kind]: the A/B element type is not one "
                              "this tcgen05.mma kind takes");
  if (!detail::tcgen05_idesc_dtype_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.d-type]: the accumulator type is not one this "
                              "tcgen05.mma kind produces");
  if (!detail::tcgen05_idesc_shape_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.shape]: M and N are not a tcgen05.mma shape for "
                              "this kind, cta_group, sparsity and .ws");
  if (!detail::tcgen05_idesc_major_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.major]: MN-major operands need 8-bit or wider "
                              "types, and mxf4/mxf4nvf4 are K-major only");
  if (!detail::tcgen05_idesc_negate_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.negate]: kind::i8 cannot negate A or B");
  if (!detail::tcgen05_idesc_saturate_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.saturate]: saturation exists for kind::i8 only");
  if (!detail::tcgen05_idesc_sparsity_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.sparsity]: the sparsity selector is 0..3, and 0 "
                              "for dense or block-scaled descriptors");
  if (!detail::tcgen05_idesc_max_shift_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.max-shift]: a maximum shift exists for "
                              "tcgen05.mma.ws only");
  if (!detail::tcgen05_idesc_scale_type_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.scale-type]: mxf8f6f4 and mxf4 take ue8m0 "
                              "scales, mxf4nvf4 ue8m0 or ue4m3, other kinds none");
  if (!detail::tcgen05_idesc_sf_id_ok(x))
    detail::tcgen05_desc_fail("ctm [tcgen05.idesc.sf-id]: scale-factor ids are 0..3 for mxf8f6f4, "
                              "0 or 2 for mxf4 and mxf4nvf4, and 0 for other kinds");
  return detail::tcgen05_idesc_bits(x);
}

/// The scale-factor id of a block-scaled operand is the byte lane (bits 30-31) of its TMEM
/// address; this returns the descriptor with both ids taken from the two addresses.
///   tcgen05_idesc_with_sf_ids(d, 0x4000'0010, 0x8000'0020) sets SFA id 1, SFB id 2.
/// @pre the ids are valid for the kind [tcgen05.idesc.sf-id]
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_idesc_with_sf_ids(Tcgen05InstrDesc x,
                                                                      std::uint32_t sfa_tmem,
                                                                      std::uint32_t sfb_tmem) {
  x.sfa_id = static_cast<int>(sfa_tmem >> 30);
  x.sfb_id = static_cast<int>(sfb_tmem >> 30);
  return tcgen05_idesc(x);
}

/// The descriptor `idesc` with its scale-factor ids replaced by bits 30-31 of the two scale
/// tensor-memory addresses, with no check: the hot-loop form of tcgen05_idesc_with_sf_ids
/// for a descriptor built (and checked) once.
/// @pre idesc is block-scaled and the ids are valid for its kind [tcgen05.idesc.sf-id]: not checked
[[nodiscard]] CTM_HD constexpr std::uint32_t tcgen05_idesc_set_sf_ids_unchecked(std::uint32_t idesc,
                                                                               std::uint32_t sfa_tmem,
                                                                               std::uint32_t sfb_tmem) {
  return (idesc & ~((3u << 29) | (3u << 4))) | (sfa_tmem >> 30) << 29 | (sfb_tmem >> 30) << 4;
}

namespace diag {
// Rule templates: their arguments are the values under test, so the compiler prints them.
template <Tcgen05Kind Kind, Tcgen05Type A, Tcgen05Type B>
struct tcgen05_idesc_type_for_kind {
  static_assert(detail::tcgen05_idesc_types_ok(Tcgen05InstrDesc{.kind = Kind, .a = A, .b = B}),
                "ctm [tcgen05.idesc.type-for-kind]: the A/B element type is not one this "
                "tcgen05.mma kind takes");
  static constexpr bool ok = true;
};
template <Tcgen05Kind Kind, Tcgen05Type A, Tcgen05DType D>
struct tcgen05_idesc_d_type {
  static_assert(detail::tcgen05_idesc_dtype_ok(Tcgen05InstrDesc{.kind = Kind, .a = A, .b = A, .d = D}),
                "ctm [tcgen05.idesc.d-type]: the accumulator type is not one this tcgen05.mma kind produces");
  static constexpr bool ok = true;
};
template <Tcgen05Kind Kind, int CtaGroup, int M, int N, bool Sparse, bool Ws>
struct tcgen05_idesc_shape {
  static_assert(detail::tcgen05_idesc_shape_ok(Tcgen05InstrDesc{
                    .kind = Kind, .m = M, .n = N, .cta_group = CtaGroup, .sparse = Sparse, .ws = Ws}),
                "ctm [tcgen05.idesc.shape]: M and N are not a tcgen05.mma shape for this kind, "
                "cta_group, sparsity and .ws");
  static constexpr bool ok = true;
};
template <Tcgen05InstrDesc D>
struct tcgen05_idesc_fields {
  static_assert(detail::tcgen05_idesc_major_ok(D),
                "ctm [tcgen05.idesc.major]: MN-major operands need 8-bit or wider types, and "
                "mxf4/mxf4nvf4 are K-major only");
  static_assert(detail::tcgen05_idesc_negate_ok(D), "ctm [tcgen05.idesc.negate]: kind::i8 cannot negate A or B");
  static_assert(detail::tcgen05_idesc_saturate_ok(D), "ctm [tcgen05.idesc.saturate]: saturation exists for kind::i8 only");
  static_assert(detail::tcgen05_idesc_sparsity_ok(D),
                "ctm [tcgen05.idesc.sparsity]: the sparsity selector is 0..3, and 0 for dense or "
                "block-scaled descriptors");
  static_assert(detail::tcgen05_idesc_max_shift_ok(D),
                "ctm [tcgen05.idesc.max-shift]: a maximum shift exists for tcgen05.mma.ws only");
  static_assert(detail::tcgen05_idesc_scale_type_ok(D),
                "ctm [tcgen05.idesc.scale-type]: mxf8f6f4 and mxf4 take ue8m0 scales, mxf4nvf4 "
                "ue8m0 or ue4m3, other kinds none");
  static_assert(detail::tcgen05_idesc_sf_id_ok(D),
                "ctm [tcgen05.idesc.sf-id]: scale-factor ids are 0..3 for mxf8f6f4, 0 or 2 for "
                "mxf4 and mxf4nvf4, and 0 for other kinds");
  static constexpr bool ok = true;
};
}  // namespace diag

namespace detail {
template <Tcgen05InstrDesc D>
consteval std::uint32_t tcgen05_idesc_checked() {
  static_assert(diag::tcgen05_idesc_type_for_kind<D.kind, D.a, D.b>::ok);
  static_assert(diag::tcgen05_idesc_d_type<D.kind, D.a, D.d>::ok);
  static_assert(diag::tcgen05_idesc_shape<D.kind, D.cta_group, D.m, D.n, D.sparse, D.ws>::ok);
  static_assert(diag::tcgen05_idesc_fields<D>::ok);
  return tcgen05_idesc_bits(D);
}
}  // namespace detail

/// The instruction descriptor of a static description, every rule checked at compile time
/// with the offending values in the error:
///   constexpr std::uint32_t id = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.m = 128, .n = 256}>;
template <Tcgen05InstrDesc D>
inline constexpr std::uint32_t tcgen05_idesc_v = detail::tcgen05_idesc_checked<D>();

}  // namespace ctm
