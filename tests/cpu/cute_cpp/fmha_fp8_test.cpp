// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The FP8 attention forward's host-computable parts (include/cute_cpp/attention/fp8_scales.hpp),
// since no GPU has run the kernel yet:
//   - where the descales lie (per tensor, per (sequence, kv head));
//   - P's A fragment: byte b of register r of a k-slice is the accumulator value fp8_a_value(r, b),
//     which must hold the row the PTX ISA's 8-bit A fragment gives that byte (m64nNk32:
//     m = 16 warp + lane/4 + 8 (r%2), k = 4 (lane%4) + b + 16 (r/2), CUTLASS's ALayout_64x32) and
//     the key fp8_p_key(k), and each key of a row once;
//   - the raw V tile's addressing (fp8_tile_unit_offset) against SmemKMajor, the layout TMA fills;
//   - V's transpose, modelled lane by lane as the PTX ISA defines ldmatrix.x4.trans (b16),
//     prmt and stmatrix.x4 (b16), for D64 (64-byte rows), D128 and D256 (64-key tiles, Vᵀ in
//     64-byte rows): Vᵀ[d][k] = V[fp8_p_key(k)][d]
//     for every (d, k), each written once, and each ldmatrix / stmatrix matrix's 8 rows in 8
//     different 4-bank groups (conflict-free).
#include <cute_cpp/attention/fp8_scales.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

namespace {

using cute_cpp::Fp8DescaleLayout;

TEST(FmhaFp8, DescaleIndex) {
  EXPECT_EQ(cute_cpp::fp8_descale_index(Fp8DescaleLayout::per_tensor, 3, 5, 8), 0);
  EXPECT_EQ(cute_cpp::fp8_descale_index(Fp8DescaleLayout::per_kv_head, 0, 0, 8), 0);
  EXPECT_EQ(cute_cpp::fp8_descale_index(Fp8DescaleLayout::per_kv_head, 3, 5, 8), 29);
  EXPECT_EQ(cute_cpp::fp8_descale_count(Fp8DescaleLayout::per_tensor, 4, 8), 1);
  EXPECT_EQ(cute_cpp::fp8_descale_count(Fp8DescaleLayout::per_kv_head, 4, 8), 32);
  // Every (sequence, kv head) has its own factor, within the count.
  std::set<long long> seen;
  for (int b = 0; b < 4; ++b)
    for (int h = 0; h < 8; ++h) {
      auto const i = cute_cpp::fp8_descale_index(Fp8DescaleLayout::per_kv_head, b, h, 8);
      EXPECT_LT(i, cute_cpp::fp8_descale_count(Fp8DescaleLayout::per_kv_head, 4, 8));
      seen.insert(i);
    }
  EXPECT_EQ(seen.size(), 32u);
}

TEST(FmhaFp8, PScaleFitsE4m3) {
  EXPECT_LE(1 << cute_cpp::fp8_p_log2_max, 448);  // e4m3's largest finite value
  EXPECT_GT(2 << cute_cpp::fp8_p_log2_max, 448);  // and the largest power of two below it
}

TEST(FmhaFp8, KeyOrderIsAPermutationOfEach16) {
  for (int base = 0; base < 128; base += 16) {
    std::set<int> keys;
    for (int k = base; k < base + 16; ++k) {
      int const key = cute_cpp::fp8_p_key(k);
      EXPECT_GE(key, base);
      EXPECT_LT(key, base + 16);
      keys.insert(key);
    }
    EXPECT_EQ(keys.size(), 16u);
  }
  int const expected[16] = {0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15};
  for (int k = 0; k < 16; ++k) EXPECT_EQ(cute_cpp::fp8_p_key(k), expected[k]) << k;
}

// make_a_fragment's bytes against the PTX ISA's A fragment and the accumulator's coordinates.
TEST(FmhaFp8, AFragmentFromTheAccumulator) {
  for (int t = 0; t < 128; ++t) {
    cute_cpp::sm90::WgmmaThrMma<1, 32> const slice{t};
    int const warp = t / 32, lane = t % 32;
    std::set<int> values;
    for (int r = 0; r < 4; ++r)
      for (int b = 0; b < 4; ++b) {
        int const jj = cute_cpp::fp8_a_value(r, b);
        int const m = 16 * warp + lane / 4 + 8 * (r % 2), k = 4 * (lane % 4) + b + 16 * (r / 2);
        ASSERT_EQ(slice.row(0, jj), m) << "thread " << t << " register " << r << " byte " << b;
        ASSERT_EQ(slice.col(jj), cute_cpp::fp8_p_key(k)) << "thread " << t << " register " << r << " byte " << b;
        values.insert(jj);
      }
    EXPECT_EQ(values.size(), 16u);  // each of the k-slice's 16 values once
  }
}

/// prmt.b32 d, x, y, s (no mode): byte i of d is byte s[4i+2 : 4i] of {y, x} (x bytes 0-3).
std::array<int, 4> byte_perm(std::array<int, 4> const& x, std::array<int, 4> const& y, unsigned s) {
  std::array<int, 4> d{};
  for (int i = 0; i < 4; ++i) {
    unsigned const from = (s >> (4 * i)) & 7u;
    d[i] = from < 4 ? x[from] : y[from - 4];
  }
  return d;
}

// fp8_tile_unit_offset against the swizzled K-major layout TMA writes (SmemKMajor, one box).
template <int Rows, int RowBytes>
void expect_unit_offsets() {
  using Tile = cute_cpp::SmemKMajor<std::uint8_t, Rows, RowBytes, RowBytes>;
  for (int row = 0; row < Rows; ++row)
    for (int col = 0; col < RowBytes; ++col)
      ASSERT_EQ(int(Tile{}(row, col)), (cute_cpp::fp8_tile_unit_offset<Rows, RowBytes>(row, col / 16) + col % 16))
          << "row " << row << " col " << col << " of " << RowBytes << "-byte rows";
  // The next box follows the first.
  EXPECT_EQ((cute_cpp::fp8_tile_unit_offset<Rows, RowBytes>(0, RowBytes / 16)), Rows * RowBytes);
}

TEST(FmhaFp8, TileUnitOffsets) {
  expect_unit_offsets<128, 128>();
  expect_unit_offsets<128, 64>();
  expect_unit_offsets<64, 128>();
  expect_unit_offsets<256, 64>();  // D256's Vᵀ: 256 rows of 64 keys
}

// transpose_e4m3_values<BlockN, HeadDim, RowBytes, 3>, lane by lane: V[key][dim] holds key * 256 + dim.
template <int block_n, int head_dim, int row_bytes>
void expect_value_transpose() {
  constexpr int warps = 3, key_groups = block_n / 16;
  constexpr int pieces = key_groups * (head_dim / 32);
  auto const v = [](int key, int dim) { return key * 256 + dim; };
  std::vector<int> vt(head_dim * block_n, -1);
  int pieces_done = 0;
  for (int w = 0; w < warps; ++w) {
    for (int k = 0; k < (pieces + warps - 1) / warps; ++k) {
      int const piece = w + warps * k;
      if (piece >= pieces) break;
      ++pieces_done;
      int const g = piece % key_groups, u = piece / key_groups;
      // ldmatrix.x4.trans: matrix mi's row j is addressed by lane 8 mi + j; it is 16 bytes (8 b16).
      int row_key[4][8], row_unit[4][8];
      for (int mi = 0; mi < 4; ++mi) {
        std::set<int> banks;
        for (int j = 0; j < 8; ++j) {
          auto const r = cute_cpp::fp8_transpose_lane(8 * mi + j);
          row_key[mi][j] = 16 * g + r.load_key;
          row_unit[mi][j] = 2 * u + r.load_unit;
          // The 4-bank group (16 bytes) the row's address falls in.
          banks.insert(cute_cpp::fp8_tile_unit_offset<block_n, row_bytes>(row_key[mi][j], row_unit[mi][j]) / 16 % 8);
        }
        EXPECT_EQ(banks.size(), 8u) << "ldmatrix matrix " << mi << " of piece " << piece;
      }
      // Lane l receives, per matrix, b16 column l/4 of rows 2(l%4) and 2(l%4) + 1: 4 bytes.
      std::array<std::array<int, 4>, 4> d[32];
      for (int l = 0; l < 32; ++l)
        for (int mi = 0; mi < 4; ++mi)
          for (int half = 0; half < 2; ++half) {
            int const row = 2 * (l % 4) + half;
            for (int byte = 0; byte < 2; ++byte)
              d[l][mi][2 * half + byte] = v(row_key[mi][row], 16 * row_unit[mi][row] + 2 * (l / 4) + byte);
          }
      // prmt, then stmatrix.x4: matrix mi's row j (16 bytes) is addressed by lane 8 mi + j and
      // holds, from lane l = 4 j + c, register mi's 4 bytes at byte 4 c.
      std::array<std::array<int, 4>, 4> regs[32];
      for (int l = 0; l < 32; ++l) {
        auto const r = cute_cpp::fp8_transpose_lane(l);
        regs[l] = {byte_perm(d[l][0], d[l][1], r.sel_a), byte_perm(d[l][0], d[l][1], r.sel_b),
                   byte_perm(d[l][2], d[l][3], r.sel_a), byte_perm(d[l][2], d[l][3], r.sel_b)};
      }
      for (int mi = 0; mi < 4; ++mi) {
        std::set<int> banks;
        for (int j = 0; j < 8; ++j) {
          int const dim = 32 * u + cute_cpp::fp8_transpose_lane(8 * mi + j).store_dim;
          banks.insert(int(cute_cpp::fp8_tile_unit_offset<head_dim, block_n>(dim, g) / 16 % 8));
          for (int c = 0; c < 4; ++c)
            for (int byte = 0; byte < 4; ++byte) {
              int& slot = vt[dim * block_n + 16 * g + 4 * c + byte];  // logical; the swizzle is the bank check's
              EXPECT_EQ(slot, -1) << "Vt[" << dim << "][" << 16 * g + 4 * c + byte << "] written twice";
              slot = regs[4 * j + c][mi][byte];
            }
        }
        EXPECT_EQ(banks.size(), 8u) << "stmatrix matrix " << mi << " of piece " << piece;
      }
    }
  }
  EXPECT_EQ(pieces_done, pieces);
  for (int dim = 0; dim < head_dim; ++dim)
    for (int k = 0; k < block_n; ++k)
      ASSERT_EQ(vt[dim * block_n + k], v(cute_cpp::fp8_p_key(k), dim)) << "Vt[" << dim << "][" << k << "]";
}

TEST(FmhaFp8, ValueTransposeModel) {
  expect_value_transpose<128, 128, 128>();  // D128
  expect_value_transpose<128, 64, 64>();    // D64: V in 64-byte rows
  expect_value_transpose<64, 256, 128>();   // D256: 64-key tiles, Vᵀ in 64-byte rows
}

}  // namespace
