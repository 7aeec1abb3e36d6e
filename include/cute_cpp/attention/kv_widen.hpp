// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Widening an FP8 (e4m3) K or V tile to 16 bits in shared memory. An FP8 KV cache is streamed at
// half the bytes, but wgmma cannot read it as it is: its FP8 forms take both operands in FP8 and
// K-major, and V in O += P V is M/N-major. So TMA lands the e4m3 tile in one ring of stages and
// a warpgroup of its own widens it into a 16-bit ring that the wgmmas read.
// CuTeDSL: no library counterpart (its FP8 attention examples quantize Q and P instead).
#include <ctm/common/config.hpp>  // cvta_to_shared_u32
#include <ctm/common/cvt.hpp>
#include <ctm/common/ld_st.hpp>
#include <cute_cpp/config.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp {

#if defined(__CUDACC__)
/// Four e4m3 bytes (the first in the low byte) as two pairs of T (bf16 or f16), exactly; every
/// byte widens to a finite value or zero except NaN (0x7F, 0xFF), which is a NaN in f16 and
/// finite in bf16. f16 holds every e4m3 value as a normal number, so cvt widens to f16 and bf16
/// takes f16's bits with the exponent rebased (a multiply by 2^112, exact: no operand is subnormal).
template <class T>
__device__ __forceinline__ uint2 widen_e4m3x4(std::uint32_t bytes) {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "cute-cpp [attention.fp8-kv]: e4m3 widens to bf16 or f16");
  std::uint32_t const lo = ctm::cvt_rn_f16x2_e4m3x2(std::uint16_t(bytes));
  std::uint32_t const hi = ctm::cvt_rn_f16x2_e4m3x2(std::uint16_t(bytes >> 16));
  if constexpr (std::is_same_v<T, __half>) {
    return make_uint2(lo, hi);
  } else {
    auto const rebase = [](std::uint32_t h) {
      std::uint32_t const bits = ((h >> 3) & 0x0FFF0FFFu) | (h & 0x80008000u);
      __nv_bfloat162 const x = *reinterpret_cast<__nv_bfloat162 const*>(&bits);
      __nv_bfloat162 const y = __hmul2(x, __nv_bfloat162(__ushort_as_bfloat16(0x7780), __ushort_as_bfloat16(0x7780)));
      return *reinterpret_cast<std::uint32_t const*>(&y);
    };
    return make_uint2(rebase(lo), rebase(hi));
  }
}

/// Widens a Rows x Cols e4m3 tile into a 16-bit one. TMA wrote `from` as Cols / 128 boxes of
/// Rows rows of 128 bytes (128-byte swizzle); `to` becomes what a 16-bit TMA load would have
/// written: Cols / 64 chunks of Rows rows of 64 elements (128-byte swizzle). Shared among Threads
/// threads (`thread`: 0 .. Threads), each streaming its 16-byte units; the caller fences the
/// writes for the async proxy (wgmma) and announces them.
template <class T, int Rows, int Cols, int Threads>
__device__ __forceinline__ void widen_e4m3_tile(void const* from, T* to, int thread) {
  static_assert(Cols % 128 == 0 && Rows % 8 == 0,
                "cute-cpp [attention.fp8-kv]: an e4m3 tile is whole 128-column boxes of whole 8-row swizzle atoms");
  constexpr int units = Rows * Cols / 16;  // 16-byte units of the e4m3 tile
  static_assert(units % Threads == 0, "cute-cpp [attention.fp8-kv]: the tile's 16-byte units spread evenly");
  constexpr int per_thread = units / Threads;
  std::uint32_t const in = ctm::cvta_to_shared_u32(from), out = ctm::cvta_to_shared_u32(to);
  // Every load first, so they are in flight together (a generic-pointer loop serialised each load
  // behind the previous unit's stores, which might alias it: 0.32-0.39x of a device copy).
  uint4 held[per_thread];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) held[i] = ctm::ld_shared_v4_b32(in + 16 * (thread + i * Threads));
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    int const u = thread + i * Threads, box = u / (Rows * 8), row = u / 8 % Rows;
    int const logical = u % 8 ^ row % 8;  // the unit's 16 columns start at 16 logical of its box
    int const col = box * 128 + 16 * logical, chunk = col / 64, first = col % 64 / 8;
    std::uint32_t const line = out + 16 * (chunk * Rows + row) * 8;
    uint2 const a = widen_e4m3x4<T>(held[i].x), b = widen_e4m3x4<T>(held[i].y);
    uint2 const c = widen_e4m3x4<T>(held[i].z), d = widen_e4m3x4<T>(held[i].w);
    ctm::st_shared_v4_b32(line + 16 * (first ^ row % 8), make_uint4(a.x, a.y, b.x, b.y));
    ctm::st_shared_v4_b32(line + 16 * ((first + 1) ^ row % 8), make_uint4(c.x, c.y, d.x, d.y));
  }
}
#endif

}  // namespace cute_cpp
