// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// FP4 block quantization, host and device (the CPU reference and the sm_120a quantizing kernel run
// these same functions): E2M1 elements, UE8M0 and UE4M3 scale factors, and the two block formats
// the sm_120a block-scaled mma.sync reads: MXFP4 (OCP MX: 32 elements share a power-of-two UE8M0
// scale) and NVFP4 (16 elements share a UE4M3 scale, over a per-tensor float scale). Packed E2M1
// holds element 2j in the low nibble of byte j, as the MMA's registers hold K in ascending nibbles.
// CuTeDSL: cutlass.Float4E2M1FN, Float8E8M0FNU, Float8E4M3FN (as a scale).
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

#include <cstdint>
#if !defined(__CUDA_ARCH__)
#  include <bit>
#endif

namespace cute_cpp::quant {

// ---- storage types (one byte each) ----

/// Two E2M1 values in one byte: element 2j in bits 0..3, element 2j+1 in bits 4..7.
struct e2m1x2 { std::uint8_t bits; };
/// An unsigned power of two 2^(bits - 127) (OCP MX's E8M0; 0xFF is NaN).
struct ue8m0 { std::uint8_t bits; };
/// An unsigned E4M3 (bias 7, 3 mantissa bits; 0x7F is NaN; largest 448): NVFP4's block scale.
struct ue4m3 { std::uint8_t bits; };

/// The largest magnitude of E2M1 (1.5 x 2^2) and of UE4M3 (1.75 x 2^8).
inline constexpr float e2m1_max = 6.0f;
inline constexpr float ue4m3_max = 448.0f;
/// E2M1's largest exponent (OCP MX's emax_elem): the MX shared exponent subtracts it.
inline constexpr int e2m1_emax = 2;
/// Elements per scale factor: NVFP4 16, MXFP4 32.
inline constexpr int nvfp4_block = 16;
inline constexpr int mxfp4_block = 32;

// ---- E2M1 ----

/// The value of an E2M1 code (bit 3 sign, bits 2..1 exponent with bias 1, bit 0 mantissa):
/// codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6.
CUTE_CPP_HD constexpr float e2m1_to_float(std::uint8_t code) {
  constexpr float magnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  float const m = magnitude[code & 7u];
  return (code & 8u) ? -m : m;
}

/// x rounded to the nearest E2M1 value, ties to the even code (mantissa bit 0), saturated to
/// +-6 (E2M1 has no infinity); NaN gives +6.
///   float_to_e2m1(0.25f) -> 0 (tie: 0 is even), float_to_e2m1(2.5f) -> 4 (2.0), float_to_e2m1(7.f) -> 7 (6.0)
CUTE_CPP_HD constexpr std::uint8_t float_to_e2m1(float x) {
  if (!(x == x)) return 7;
  std::uint8_t const sign = x < 0.0f ? 8 : 0;
  float const a = x < 0.0f ? -x : x;
  // The midpoints between neighbours; at a midpoint the even code wins, so <= or < alternates.
  std::uint8_t code = 0;
  if (a <= 0.25f) code = 0;
  else if (a < 0.75f) code = 1;
  else if (a <= 1.25f) code = 2;
  else if (a < 1.75f) code = 3;
  else if (a <= 2.5f) code = 4;
  else if (a < 3.5f) code = 5;
  else if (a <= 5.0f) code = 6;
  else code = 7;
  return code == 0 ? 0 : std::uint8_t(code | sign);  // -0 is written as +0
}

// ---- UE8M0 ----

/// The UE8M0 code of 2^e, e clamped to the format's finite range -127..127.
CUTE_CPP_HD constexpr std::uint8_t ue8m0_from_exponent(int e) {
  e = e < -127 ? -127 : (e > 127 ? 127 : e);
  return std::uint8_t(e + 127);
}

namespace detail {
CUTE_CPP_HD inline std::uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  return std::bit_cast<std::uint32_t>(x);
#endif
}
/// floor(log2(x)) for a finite x > 0 (subnormals included).
CUTE_CPP_HD inline int floor_log2(float x) {
  std::uint32_t const bits = float_bits(x);
  int const field = int((bits >> 23) & 0xFF);
  if (field != 0) return field - 127;
  std::uint32_t m = bits & 0x7FFFFF;  // subnormal: 2^-149 times the mantissa
  int e = -150;
  while (m) m >>= 1, ++e;
  return e;
}
/// x rounded to the nearest integer, ties to even, for 0 <= x < 2^23.
CUTE_CPP_HD inline float round_half_even(float x) {
  float const f = float(std::uint32_t(x));
  float const r = x - f;
  if (r > 0.5f || (r == 0.5f && (std::uint32_t(f) & 1u))) return f + 1.0f;
  return f;
}
}  // namespace detail

/// 2^(bits - 127); 0xFF is NaN. Built from the float's bits (code 0, 2^-127, is subnormal).
CUTE_CPP_HD inline float ue8m0_to_float(std::uint8_t bits) {
  std::uint32_t const f = bits == 0xFF ? 0x7FC00000u : (bits == 0 ? 0x00400000u : std::uint32_t(bits) << 23);
#if defined(__CUDA_ARCH__)
  return __uint_as_float(f);
#else
  return std::bit_cast<float>(f);
#endif
}

// ---- UE4M3 ----

/// The value of a UE4M3 code: exponent field e (bits 6..3), mantissa m (bits 2..0):
/// e > 0: (1 + m/8) 2^(e-7); e == 0: (m/8) 2^-6; 0x7F is NaN (bit 7 is ignored: unsigned).
CUTE_CPP_HD constexpr float ue4m3_to_float(std::uint8_t bits) {
  bits &= 0x7F;
  if (bits == 0x7F) return __builtin_nanf("");
  int const e = bits >> 3, m = bits & 7;
  float v = e == 0 ? float(m) / 8.0f : 1.0f + float(m) / 8.0f;
  for (int s = (e == 0 ? 1 : e) - 7; s > 0; --s) v *= 2.0f;
  for (int s = (e == 0 ? 1 : e) - 7; s < 0; ++s) v *= 0.5f;
  return v;
}

/// x >= 0 rounded to the nearest UE4M3 value, ties to even, saturated to 448; x <= 0 or NaN gives 0.
///   float_to_ue4m3(1.0f) -> 0x38, float_to_ue4m3(500.f) -> 0x7E (448), float_to_ue4m3(0x1p-9f) -> 0x01
CUTE_CPP_HD inline std::uint8_t float_to_ue4m3(float x) {
  if (!(x > 0.0f)) return 0;
  if (x >= ue4m3_max) return 0x7E;
  int e = detail::floor_log2(x);
  if (e < -6) {  // subnormal: multiples of 2^-9; 8 of them is the smallest normal, code 0x08
    float q = x;
    for (int s = 0; s < 9; ++s) q *= 2.0f;
    return std::uint8_t(detail::round_half_even(q));
  }
  float scaled = x;  // x / 2^e in [1, 2): exact (a power-of-two scaling)
  for (int s = e; s > 0; --s) scaled *= 0.5f;
  for (int s = e; s < 0; ++s) scaled *= 2.0f;
  int m = int(detail::round_half_even((scaled - 1.0f) * 8.0f));
  if (m == 8) m = 0, ++e;
  std::uint8_t const code = std::uint8_t(((e + 7) << 3) | m);
  return code > 0x7E ? 0x7E : code;
}

// ---- block scales ----

/// OCP MX (v1.0, 6.3): a block's shared exponent is floor(log2(amax)) minus the element type's
/// largest exponent (2 for E2M1), so amax / 2^X lands in [4, 8) and rounds or saturates to <= 6.
/// An all-zero block takes the smallest scale, 2^-127. Returns the UE8M0 code.
CUTE_CPP_HD inline std::uint8_t mxfp4_scale(float amax) {
  if (!(amax > 0.0f)) return 0;
  return ue8m0_from_exponent(detail::floor_log2(amax) - e2m1_emax);
}

/// NVFP4's per-tensor encode scale: (448 x 6) / amax of the whole tensor, so every block's
/// scale amax_block / 6 times it stays within UE4M3's range. The tensor's decode (global) scale,
/// which the GEMM multiplies its result by, is its reciprocal. An all-zero tensor gets 1.
CUTE_CPP_HD inline float nvfp4_encode_scale(float tensor_amax) {
  return tensor_amax > 0.0f ? (ue4m3_max * e2m1_max) / tensor_amax : 1.0f;
}

/// NVFP4's block scale: amax_block / 6 times the tensor's encode scale, rounded to UE4M3.
CUTE_CPP_HD inline std::uint8_t nvfp4_scale(float block_amax, float encode_scale) {
  return float_to_ue4m3(block_amax / e2m1_max * encode_scale);
}

// ---- blocks ----

/// Quantizes N elements (N even) with one multiplier: packed[j] = e2m1(x[2j] * inv) | e2m1(x[2j+1] * inv) << 4.
template <int N>
CUTE_CPP_HD constexpr void pack_e2m1(float const (&x)[N], float inv, std::uint8_t (&packed)[N / 2]) {
  static_assert(N % 2 == 0);
  for (int j = 0; j < N / 2; ++j)
    packed[j] = std::uint8_t(float_to_e2m1(x[2 * j] * inv) | (float_to_e2m1(x[2 * j + 1] * inv) << 4));
}

/// The largest magnitude of N values (NaN-free inputs).
template <int N>
CUTE_CPP_HD constexpr float block_amax(float const (&x)[N]) {
  float m = 0.0f;
  for (float v : x) m = (v < 0.0f ? -v : v) > m ? (v < 0.0f ? -v : v) : m;
  return m;
}

/// One MXFP4 block: 32 values -> 16 packed bytes and their UE8M0 scale (returned).
/// Element i is e2m1(x[i] / 2^X) with X the shared exponent (mxfp4_scale).
CUTE_CPP_HD inline std::uint8_t quantize_mxfp4_block(float const (&x)[mxfp4_block], std::uint8_t (&packed)[mxfp4_block / 2]) {
  std::uint8_t const sf = mxfp4_scale(block_amax(x));
  pack_e2m1(x, 1.0f / ue8m0_to_float(sf), packed);  // exact: a power of two within float's range
  return sf;
}

/// One NVFP4 block: 16 values -> 8 packed bytes and their UE4M3 scale (returned). Element i is
/// e2m1(x[i] / (sf x decode)) with decode = 1 / encode_scale; a zero scale gives zeros.
CUTE_CPP_HD inline std::uint8_t quantize_nvfp4_block(float const (&x)[nvfp4_block], float encode_scale,
                                                     std::uint8_t (&packed)[nvfp4_block / 2]) {
  std::uint8_t const sf = nvfp4_scale(block_amax(x), encode_scale);
  float const block_scale = ue4m3_to_float(sf) / encode_scale;
  pack_e2m1(x, block_scale > 0.0f ? 1.0f / block_scale : 0.0f, packed);
  return sf;
}

/// Element i of a packed row.
CUTE_CPP_HD constexpr std::uint8_t e2m1_at(std::uint8_t const* packed, std::int64_t i) {
  return std::uint8_t((packed[i / 2] >> (4 * (i % 2))) & 0xF);
}

}  // namespace cute_cpp::quant
