// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm's attribute macros (ctm includes nothing from cute_cpp/), the 32-bit shared-window address
// of a generic pointer, and the element kinds that name instruction types (DataType).
#include <cstdint>
#include <ctm/target.hpp>  // ctm::Target, the device-pass gate, detail::always_false

#if defined(__CUDACC__)
#  define CTM_HD __host__ __device__
#  define CTM_DEVICE __device__ __forceinline__
#else
#  define CTM_HD
#  define CTM_DEVICE inline
#endif

namespace ctm {

/// The PTX element types that instruction templates take as parameters. The enumerator is the
/// PTX type suffix: DataType::bf16 is `.bf16`, DataType::e4m3 is `.e4m3`.
enum class DataType : std::uint8_t { f16, bf16, tf32, e4m3, e5m2, s8, u8, f32, s32 };

/// The PTX spelling of a DataType, as in the instruction (`"bf16"`).
CTM_HD constexpr char const* to_ptx(DataType t) {
  switch (t) {
    case DataType::f16: return "f16";
    case DataType::bf16: return "bf16";
    case DataType::tf32: return "tf32";
    case DataType::e4m3: return "e4m3";
    case DataType::e5m2: return "e5m2";
    case DataType::s8: return "s8";
    case DataType::u8: return "u8";
    case DataType::f32: return "f32";
    case DataType::s32: return "s32";
  }
  return "?";
}

#if defined(__CUDACC__)
/// cvta.to.shared.u32: the 32-bit shared-window address of a generic pointer into shared
/// memory, the form every `.shared` operand below takes.
/// @pre p points into this CTA's shared memory.
CTM_DEVICE std::uint32_t cvta_to_shared_u32(void const* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
#endif

}  // namespace ctm
