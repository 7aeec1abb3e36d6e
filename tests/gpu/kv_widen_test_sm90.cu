// SPDX-License-Identifier: Apache-2.0
// widen_e4m3_tile (attention/kv_widen.hpp) against the exact values, byte for byte: an e4m3 tile
// laid out as TMA writes it (boxes of 128 columns, 128-byte swizzle) holding every byte value,
// widened in shared memory into the 16-bit tile a 16-bit TMA load would have written (64-column
// chunks, 128-byte swizzle), for bf16 and f16. Every finite byte must become its exact value (zero
// and the subnormals included); NaN stays NaN in f16 (bf16 widens it to a finite value,
// documented).
#include <cute_cpp/attention/kv_widen.hpp>
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "gpu/has_device.hpp"

namespace {
constexpr int rows = 64, cols = 256, threads = 128;

/// Byte offset of (row, byte) in a tile of 128-byte rows under the 128-byte swizzle (16-byte unit
/// index XOR the row within its 8-row atom).
int swizzled(int row, int byte) { return row * 128 + ((byte / 16) ^ (row % 8)) * 16 + byte % 16; }

template <class T>
__global__ void widen(std::uint8_t const* in, T* out) {
  __shared__ __align__(1024) std::uint8_t e4m3[rows * cols];
  __shared__ __align__(1024) T wide[rows * cols];
  for (int i = int(threadIdx.x); i < rows * cols; i += threads) e4m3[i] = in[i];
  __syncthreads();
  cute_cpp::widen_e4m3_tile<T, rows, cols, threads>(e4m3, wide, int(threadIdx.x));
  __syncthreads();
  for (int i = int(threadIdx.x); i < rows * cols; i += threads) out[i] = wide[i];
}

template <class T>
void check() {
  // Byte (r, c) of the logical tile: every value 0..255, 64 times, in a scattered order.
  auto const byte_at = [](int r, int c) { return std::uint8_t((r * cols + c) * 37 % 256); };
  std::vector<std::uint8_t> tile(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) tile[std::size_t(c / 128 * rows * 128 + swizzled(r, c % 128))] = byte_at(r, c);
  cute_cpp::host::DeviceBuffer<std::uint8_t> in(tile.size());
  in.upload(std::span<std::uint8_t const>(tile));
  cute_cpp::host::DeviceBuffer<T> out(tile.size());
  out.fill_bytes(0xFF);
  widen<T><<<1, threads>>>(in.data(), out.data());
  cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "widen");
  auto const got = out.download();
  int checked = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      std::uint8_t const byte = byte_at(r, c);
      __nv_fp8_e4m3 e;
      std::memcpy(&e, &byte, 1);
      float const want = float(e);
      std::size_t const at = std::size_t(c / 64 * rows * 128 + swizzled(r, c % 64 * 2)) / 2;
      float const have = float(got[at]);
      if (std::isnan(want)) {
        if constexpr (std::is_same_v<T, __half>) EXPECT_TRUE(std::isnan(have)) << "byte " << int(byte);
        continue;
      }
      ++checked;
      ASSERT_EQ(have, want) << "byte 0x" << std::hex << int(byte) << " at row " << std::dec << r << ", col " << c;
      if (want == 0.0f) ASSERT_EQ(std::signbit(have), std::signbit(want)) << "the sign of zero, byte " << int(byte);
    }
  EXPECT_EQ(checked, rows * cols - 2 * rows);  // all but the two NaN bytes
}

using cute_cpp::test::has_device;
}  // namespace

TEST(KvWiden, E4m3TileToBf16IsExact) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  check<__nv_bfloat16>();
}

TEST(KvWiden, E4m3TileToF16IsExact) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  check<__half>();
}
