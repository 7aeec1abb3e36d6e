// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The TMA rules (tma.*): each a rule template whose arguments are the values under test, so the
// compiler prints them on the first context line; the host encoder throws the same texts.
#include <cstddef>

namespace cute_cpp::diag {

template <std::size_t ElemBytes>
struct tma_element_type {
  static_assert(ElemBytes == 1 || ElemBytes == 2 || ElemBytes == 4 || ElemBytes == 8,
                "cute-cpp [tma.element-type]: TMA moves elements of 1, 2, 4 or 8 bytes");
  static constexpr bool ok = true;
};

template <int Inner, int Outer>
struct tma_box_extent {
  static_assert(Inner >= 1 && Inner <= 256 && Outer >= 1 && Outer <= 256,
                "cute-cpp [tma.box.extent]: every TMA box extent must be in 1..256");
  static constexpr bool ok = true;
};

template <int InnerBytes, int ElemBytes, int InnerElems>
struct tma_box_inner_bytes {
  static_assert(InnerBytes % 16 == 0,
                "cute-cpp [tma.box.inner-bytes]: the TMA box's inner extent must be a multiple of 16 bytes");
  static constexpr bool ok = true;
};

template <int InnerBytes, int SwizzleBytes>
struct tma_box_within_swizzle {
  static_assert(SwizzleBytes == 0 || InnerBytes == SwizzleBytes,
                "cute-cpp [tma.box.swizzle-span]: a swizzled TMA box's inner extent must span exactly the "
                "swizzle width (32, 64 or 128 bytes); tile wider operands as blocks of that width");
  static constexpr bool ok = true;
};

template <bool Swizzled, int Base, int ElemBytes>
struct tma_swizzle_unit {
  static_assert(!Swizzled || (1 << Base) * ElemBytes == 16,
                "cute-cpp [tma.swizzle.unit]: the shared layout's Swizzle<B,M,S> must move 16-byte units: "
                "2^M * sizeof(T) == 16 (Sw<3,3,3> for 16-bit, Sw<3,2,3> for 32-bit, Sw<3,4,3> for 8-bit)");
  static constexpr bool ok = true;
};

template <bool Swizzled, int Bits, int Shift>
struct tma_swizzle_mode {
  static_assert(!Swizzled || (Bits >= 1 && Bits <= 3 && Shift == 3),
                "cute-cpp [tma.swizzle.mode]: TMA swizzles are Swizzle<1|2|3, M, 3> (32, 64, 128 bytes)");
  static constexpr bool ok = true;
};

template <bool Known, class SmemLayout>
struct tma_smem_layout_form {
  static_assert(Known,
                "cute-cpp [tma.smem-layout.form]: a TMA shared layout must be (Outer,Inner):(Inner,_1) or "
                "((W,Blocks),Outer):((_1,W*Outer),W), optionally composed with a swizzle; use "
                "SmemKMajor / SmemMNMajor");
  static constexpr bool ok = Known;
};

/// Rule smem.tma-buffer-alignment: a TMA buffer starts on a 128-byte boundary, and on a
/// 1024-byte one when 128-byte swizzled (the swizzle pattern repeats every 8 rows of 128 bytes).
template <std::size_t OffsetBytes, int SwizzleBytes>
struct smem_tma_buffer_alignment {
  static constexpr std::size_t required = SwizzleBytes == 0 ? 128 : std::size_t(8 * SwizzleBytes);
  static_assert(OffsetBytes % required == 0,
                "cute-cpp [smem.tma-buffer-alignment]: a TMA shared buffer must start on a 128-byte boundary, "
                "and on 8 x its swizzle width (1024 bytes for 128-byte swizzle) when swizzled");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
