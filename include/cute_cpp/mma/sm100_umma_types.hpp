// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The element types of the sm_100a tiled UMMA and the tcgen05.mma kind they name: f16 x f16 and
// bf16 x bf16 (kind::f16), float as tf32 (kind::tf32), the one-byte 8/6/4-bit floats (kind::f8f6f4;
// 6/4-bit values in the padded forms TMA writes, 16 values per 16 bytes), and with a UmmaBlockScale the
// block-scaled kinds mxf8f6f4, mxf4 and mxf4nvf4 (packed e2m1 pairs, __nv_fp4x2_e2m1).
// CuTeDSL: the ab_dtype / sf_dtype / sf_vec_size arguments of tcgen05.MmaF16BF16Op ... MmaMXF4NVF4Op.
// Host and device: the CUDA type headers compile with g++ (the CPU tests read the kinds).
#include <cute_cpp/config.hpp>         // CUTE_CPP_HD
#include <ctm/sm100/tcgen05_desc.hpp>  // Tcgen05Kind, Tcgen05Type, Tcgen05ScaleType

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <type_traits>

namespace cute_cpp::sm100 {

/// No block scaling: the plain kinds f16, tf32, f8f6f4.
struct UmmaNoBlockScale {};

/// Block scaling: one SfType scale factor (__nv_fp8_e8m0 or, for mxf4nvf4, __nv_fp8_e4m3 read as
/// ue4m3) every VecSize values along K, for A's rows and B's columns, read from tensor memory.
template <class SfType, int VecSize>
struct UmmaBlockScale {
  using sf_type = SfType;
  static constexpr int vec_size = VecSize;
};

namespace detail {

/// What the UMMA needs to know about an element type: its tcgen05 type, its value width, and
/// whether one stored element is a packed pair of e2m1 values.
struct UmmaTypeInfo {
  bool known = false;
  ctm::Tcgen05Type type = ctm::Tcgen05Type::bf16;
  int value_bits = 0;
  bool packed_pair = false;
};
template <class T>
inline constexpr UmmaTypeInfo umma_type_info{};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__half>{true, ctm::Tcgen05Type::f16, 16, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_bfloat16>{true, ctm::Tcgen05Type::bf16, 16, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<float>{true, ctm::Tcgen05Type::tf32, 32, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp8_e4m3>{true, ctm::Tcgen05Type::e4m3, 8, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp8_e5m2>{true, ctm::Tcgen05Type::e5m2, 8, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp6_e2m3>{true, ctm::Tcgen05Type::e2m3, 6, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp6_e3m2>{true, ctm::Tcgen05Type::e3m2, 6, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp4_e2m1>{true, ctm::Tcgen05Type::e2m1, 4, false};
template <>
inline constexpr UmmaTypeInfo umma_type_info<__nv_fp4x2_e2m1>{true, ctm::Tcgen05Type::e2m1, 4, true};

CUTE_CPP_HD constexpr bool umma_f8f6f4_type(UmmaTypeInfo t) {
  return t.known && !t.packed_pair && t.value_bits <= 8;
}

/// The vector size of block scaling Bs (0 without), and whether its factors are of type Sf.
template <class Bs>
inline constexpr int umma_vec_size = 0;
template <class Sf, int V>
inline constexpr int umma_vec_size<UmmaBlockScale<Sf, V>> = V;
template <class Bs, class Sf>
inline constexpr bool umma_sf_is = false;
template <class S, int V, class Sf>
inline constexpr bool umma_sf_is<UmmaBlockScale<S, V>, Sf> = std::is_same_v<S, Sf>;

/// The kind A x B names under block scaling Bs (UmmaNoBlockScale or UmmaBlockScale), or -1.
template <class TA, class TB, class Bs>
CUTE_CPP_HD constexpr int umma_kind_code() {
  constexpr UmmaTypeInfo a = umma_type_info<TA>, b = umma_type_info<TB>;
  if constexpr (std::is_same_v<Bs, UmmaNoBlockScale>) {
    if (!a.known || !b.known) return -1;
    if ((a.type == ctm::Tcgen05Type::f16 || a.type == ctm::Tcgen05Type::bf16) && a.type == b.type)
      return int(ctm::Tcgen05Kind::f16);
    if (a.type == ctm::Tcgen05Type::tf32 && b.type == ctm::Tcgen05Type::tf32) return int(ctm::Tcgen05Kind::tf32);
    if (umma_f8f6f4_type(a) && umma_f8f6f4_type(b)) return int(ctm::Tcgen05Kind::f8f6f4);
    return -1;
  } else {
    if (umma_f8f6f4_type(a) && umma_f8f6f4_type(b)) return int(ctm::Tcgen05Kind::mxf8f6f4);
    if (a.packed_pair && b.packed_pair)
      return int(umma_vec_size<Bs> == 16 ? ctm::Tcgen05Kind::mxf4nvf4 : ctm::Tcgen05Kind::mxf4);
    return -1;
  }
}

/// The scale-factor type of block scaling Bs, as the descriptor field reads it.
template <class Bs>
CUTE_CPP_HD constexpr ctm::Tcgen05ScaleType umma_scale_type() {
  if constexpr (std::is_same_v<Bs, UmmaNoBlockScale>) return ctm::Tcgen05ScaleType::none;
  else if constexpr (umma_sf_is<Bs, __nv_fp8_e4m3>) return ctm::Tcgen05ScaleType::ue4m3;
  else return ctm::Tcgen05ScaleType::ue8m0;
}

/// The scale-vector size (.scale_vec::1X/2X/4X) of a block-scaled kind with VecSize-value blocks:
/// how many scale factors each row of A has per instruction (K = 32 values for mxf8f6f4, 64 for
/// mxf4 and mxf4nvf4).
CUTE_CPP_HD constexpr int umma_scale_vec(ctm::Tcgen05Kind kind, int vec_size) {
  return kind == ctm::Tcgen05Kind::mxf8f6f4 ? 32 / vec_size : 64 / vec_size;
}

}  // namespace detail
}  // namespace cute_cpp::sm100
