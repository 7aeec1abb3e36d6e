// SPDX-License-Identifier: Apache-2.0
// e4m3_keys_a and e4m3_values_a (attention/kv_widen.hpp) against the exact values, register by
// register: an e4m3 tile laid out as TMA writes it (boxes of 128 columns, 128-byte swizzle)
// holding every byte value, loaded as wgmma A fragments by a warpgroup. Each register's two
// 16-bit values must be the exact widening of the bytes that the fragment's (row, k) names under
// the documented orders (e4m3_key_column for K, e4m3_value_column for V): zero and the
// subnormals included; NaN stays NaN in f16 (bf16 widens it to a finite value, documented).
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
constexpr int rows = 128, cols = 256, threads = 128;
constexpr int key_slices = cols / 16, value_slices = rows / 16;
constexpr int key_atoms = rows / 64, value_atoms = cols / 64;
/// Registers per thread: K's (atom, slice) and V's (atom, slice), four each.
constexpr int key_regs = key_atoms * key_slices * 4, value_regs = value_atoms * value_slices * 4;

/// Byte offset of (row, byte) in a tile of 128-byte rows under the 128-byte swizzle (16-byte unit
/// index XOR the row within its 8-row atom).
int swizzled(int row, int byte) { return row * 128 + ((byte / 16) ^ (row % 8)) * 16 + byte % 16; }

template <class T>
__global__ void load_fragments(std::uint8_t const* in, std::uint32_t* keys, std::uint32_t* values) {
  __shared__ __align__(1024) std::uint8_t e4m3[rows * cols];
  for (int i = int(threadIdx.x); i < rows * cols; i += threads) e4m3[i] = in[i];
  __syncthreads();
  int const t = int(threadIdx.x);
  for (int a = 0; a < key_atoms; ++a)
    for (int s = 0; s < key_slices; s += 2) {
      std::uint32_t r[2][4];
      cute_cpp::e4m3_keys_a<T, rows>(e4m3, 64 * a, s, t, r);
      for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 4; ++i) keys[(((a * key_slices + s + h) * 4 + i) * threads) + t] = r[h][i];
    }
  for (int a = 0; a < value_atoms; ++a)
    for (int s = 0; s < value_slices; s += 2) {
      std::uint32_t r[2][4];
      cute_cpp::e4m3_values_a<T, rows>(e4m3, a, s, t, r);
      for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 4; ++i) values[(((a * value_slices + s + h) * 4 + i) * threads) + t] = r[h][i];
    }
}

/// wgmma's A fragment (16-bit): register i of thread t holds row 16 warp + lane / 4 (+ 8 for odd
/// i) and columns 2 (lane % 4) (+ 8 for i >= 2), low then high half.
int fragment_row(int t, int i) { return 16 * (t / 32) + t % 32 / 4 + 8 * (i % 2); }
int fragment_col(int t, int i, int half) { return 2 * (t % 4) + 8 * (i / 2) + half; }

template <class T>
float half_value(std::uint32_t reg, int half) {
  std::uint16_t const bits = std::uint16_t(half ? reg >> 16 : reg);
  T v;
  std::memcpy(&v, &bits, 2);
  return float(v);
}

template <class T>
void expect_exact(float have, std::uint8_t byte, char const* what, int row, int k, int& checked) {
  __nv_fp8_e4m3 e;
  std::memcpy(&e, &byte, 1);
  float const want = float(e);
  if (std::isnan(want)) {
    if constexpr (std::is_same_v<T, __half>) EXPECT_TRUE(std::isnan(have)) << what << " byte " << int(byte);
    return;
  }
  ++checked;
  ASSERT_EQ(have, want) << what << " byte 0x" << std::hex << int(byte) << std::dec << " at row " << row << ", k " << k;
  if (want == 0.0f) ASSERT_EQ(std::signbit(have), std::signbit(want)) << "the sign of zero, byte " << int(byte);
}

template <class T>
void check() {
  // Byte (key, column) of the logical tile: every value 0..255, 128 times, in a scattered order.
  auto const byte_at = [](int r, int c) { return std::uint8_t((r * cols + c) * 37 % 256); };
  std::vector<std::uint8_t> tile(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) tile[std::size_t(c / 128 * rows * 128 + swizzled(r, c % 128))] = byte_at(r, c);
  cute_cpp::host::DeviceBuffer<std::uint8_t> in(tile.size());
  in.upload(std::span<std::uint8_t const>(tile));
  cute_cpp::host::DeviceBuffer<std::uint32_t> keys(std::size_t(key_regs) * threads), values(std::size_t(value_regs) * threads);
  keys.fill_bytes(0xFF);
  values.fill_bytes(0xFF);
  load_fragments<T><<<1, threads>>>(in.data(), keys.data(), values.data());
  cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "load_fragments");
  auto const k_got = keys.download(), v_got = values.download();
  int checked = 0;
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < 4; ++i)
      for (int half = 0; half < 2; ++half) {
        // K: rows are keys, k the logical head-dim column, read from e4m3_key_column(k).
        for (int a = 0; a < key_atoms; ++a)
          for (int s = 0; s < key_slices; ++s) {
            int const key = 64 * a + fragment_row(t, i), k = 16 * s + fragment_col(t, i, half);
            std::uint32_t const reg = k_got[std::size_t(((a * key_slices + s) * 4 + i) * threads + t)];
            expect_exact<T>(half_value<T>(reg, half), byte_at(key, cute_cpp::e4m3_key_column(k)), "K", key, k,
                            checked);
          }
        // V: rows are head-dim columns (e4m3_value_column of the row), k the key.
        for (int a = 0; a < value_atoms; ++a)
          for (int s = 0; s < value_slices; ++s) {
            int const m = 64 * a + fragment_row(t, i), key = 16 * s + fragment_col(t, i, half);
            std::uint32_t const reg = v_got[std::size_t(((a * value_slices + s) * 4 + i) * threads + t)];
            expect_exact<T>(half_value<T>(reg, half), byte_at(key, cute_cpp::e4m3_value_column(m)), "V", m, key,
                            checked);
          }
      }
  // Every register's two halves, K's and V's, all but the two NaN bytes' places.
  EXPECT_EQ(checked, 2 * rows * cols * 254 / 256);
}

using cute_cpp::test::has_device;
}  // namespace

TEST(KvWiden, E4m3FragmentsToBf16AreExact) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  check<__nv_bfloat16>();
}

TEST(KvWiden, E4m3FragmentsToF16AreExact) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  check<__half>();
}

// The documented orders are permutations of each 16 columns.
TEST(KvWiden, FragmentOrdersArePermutations) {
  for (int base = 0; base < 64; base += 16) {
    std::vector<int> key_seen(16, 0), value_seen(16, 0);
    for (int k = base; k < base + 16; ++k) {
      int const kc = cute_cpp::e4m3_key_column(k), vc = cute_cpp::e4m3_value_column(k);
      ASSERT_TRUE(kc >= base && kc < base + 16 && vc >= base && vc < base + 16) << k;
      ++key_seen[std::size_t(kc - base)];
      ++value_seen[std::size_t(vc - base)];
    }
    for (int j = 0; j < 16; ++j) EXPECT_TRUE(key_seen[std::size_t(j)] == 1 && value_seen[std::size_t(j)] == 1) << j;
  }
  EXPECT_EQ(cute_cpp::e4m3_key_column(9), 3);    // logical 2q + 9 of q = 0: the thread's fourth byte
  EXPECT_EQ(cute_cpp::e4m3_value_column(9), 3);  // row 1 + 8: the second column of pair 1
}
