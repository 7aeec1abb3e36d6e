// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_120a block-scaled tiled MMA's thread layouts (mma/sm120_block_scaled_mma.hpp), computed on
// the host: every C element of the block tile belongs to exactly one (thread, register), every A
// (B) element to one (lane, register, nibble) of each warp of its warp row (column); hand-picked
// lanes land where the PTX ISA's m16n8k64 fragment figures put them (groupID = lane / 4, threadID_in_group = lane % 4; A: a0/a2 row groupID, a1/a3 row groupID + 8,
// k = 8 threadID_in_group + i, +32 for a2/a3; B: column groupID, b1 at k + 32); the factor of
// every (row, k) is held by the lane thread-id 0 reads (A rows g, g+8: lanes 4g, 4g+1; B column g:
// lane 4g), in the register and byte the instruction's byte-id selects.
#include <gtest/gtest.h>

#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>

#include <vector>

namespace {
namespace cc = cute_cpp;
using Nv = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 2, 2, 64, 64, 128>;
using Mx = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4Op<>, 2, 2, 64, 64, 128>;
using MxNv = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue8m0>, 1, 4, 16, 64, 256>;

static_assert(Nv::threads == 128 && Nv::atoms_m == 2 && Nv::atoms_n == 4 && Nv::atoms_k == 2);
static_assert(Nv::sf_regs_k == 2 && Nv::sf_k_bytes == 8 && Nv::k_bytes == 64);
static_assert(Mx::sf_regs_k == 1 && Mx::sf_k_bytes == 4);
static_assert(MxNv::atoms_m == 1 && MxNv::atoms_n == 2 && MxNv::atoms_k == 4 && MxNv::sf_regs_k == 2);
// NVFP4: a register per k-atom, byte-id 0. MXFP4: two k-atoms a register, byte-ids 0 and 2.
static_assert(Nv::sf_register_of(1) == 1 && Nv::sf_byte_id_of(1) == 0);
static_assert(Mx::sf_register_of(1) == 0 && Mx::sf_byte_id_of(1) == 2);
static_assert(MxNv::sf_register_of(3) == 1 && MxNv::sf_byte_id_of(3) == 2 && MxNv::sf_byte_id_of(2) == 0);

template <class M>
void check_a_and_b_cover_once() {
  std::vector<int> a(std::size_t(M::tile_m * M::tile_k), 0), b(std::size_t(M::tile_n * M::tile_k), 0);
  for (int t = 0; t < M::threads; ++t) {
    auto const thr = M::get_slice(t);
    for (int ak = 0; ak < M::atoms_k; ++ak)
      for (int nib = 0; nib < 8; ++nib) {
        for (int am = 0; am < M::atoms_m; ++am)
          for (int reg = 0; reg < 4; ++reg) {
            auto const c = thr.a_coord(am, ak, reg, nib);
            ++a[std::size_t(c.mn * M::tile_k + c.k)];
          }
        for (int an = 0; an < M::atoms_n; ++an)
          for (int reg = 0; reg < 2; ++reg) {
            auto const c = thr.b_coord(an, ak, reg, nib);
            ++b[std::size_t(c.mn * M::tile_k + c.k)];
          }
      }
  }
  // The WarpsN warps of a warp row share A's rows, the WarpsM warps of a column B's columns.
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], M::warps_n) << "A element " << i;
  for (std::size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b[i], M::warps_m) << "B element " << i;
}

TEST(Sm120BlockScaledMma, OperandsCoverTheTileOnce) {
  check_a_and_b_cover_once<Nv>();
  check_a_and_b_cover_once<Mx>();
  check_a_and_b_cover_once<MxNv>();
}

TEST(Sm120BlockScaledMma, AccumulatorsCoverTheTileOnce) {
  std::vector<int> c(std::size_t(Nv::tile_m * Nv::tile_n), 0);
  for (int t = 0; t < Nv::threads; ++t) {
    auto const thr = Nv::get_slice(t);
    for (int am = 0; am < Nv::atoms_m; ++am)
      for (int an = 0; an < Nv::atoms_n; ++an)
        for (int i = 0; i < 4; ++i) ++c[std::size_t(thr.row_of(am, i) * Nv::tile_n + thr.col_of(an, i))];
  }
  for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], 1) << "C element " << i;
}

TEST(Sm120BlockScaledMma, HandPickedLanesOfTheIsaFigures) {
  auto const lane5 = Nv::get_slice(5);  // warp 0: groupID 1, threadID_in_group 1
  EXPECT_EQ(lane5.a_coord(0, 0, 0, 0), (cc::sm120::MmaCoord{1, 8}));
  EXPECT_EQ(lane5.a_coord(0, 0, 1, 3), (cc::sm120::MmaCoord{9, 11}));
  EXPECT_EQ(lane5.a_coord(0, 0, 3, 7), (cc::sm120::MmaCoord{9, 47}));
  EXPECT_EQ(lane5.b_coord(0, 0, 1, 0), (cc::sm120::MmaCoord{1, 40}));
  EXPECT_EQ(lane5.row_of(0, 3), 9);
  EXPECT_EQ(lane5.col_of(0, 3), 3);
  auto const warp3_lane31 = Nv::get_slice(3 * 32 + 31);  // warp (1, 1): rows 32.., columns 32..
  EXPECT_EQ(warp3_lane31.a_coord(1, 1, 2, 0), (cc::sm120::MmaCoord{32 + 16 + 7, 64 + 32 + 24}));
  EXPECT_EQ(warp3_lane31.b_coord(3, 0, 0, 7), (cc::sm120::MmaCoord{32 + 24 + 7, 31}));
}

template <class M>
void check_scale_holders() {
  constexpr int vec = M::sf_vec_size;
  for (int warp = 0; warp < M::threads / 32; ++warp) {
    auto const first = M::get_slice(warp * 32);
    for (int am = 0; am < M::atoms_m; ++am)
      for (int r = 0; r < 16; ++r) {
        // The lane thread-id-a 0 reads for row r of the atom: 4 (r % 8) + r / 8.
        auto const thr = M::get_slice(warp * 32 + 4 * (r % 8) + r / 8);
        ASSERT_TRUE(thr.sfa_read());
        ASSERT_EQ(thr.sfa_row(am), first.a_coord(am, 0, 0, 0).mn + r);
      }
    for (int an = 0; an < M::atoms_n; ++an)
      for (int c = 0; c < 8; ++c) {
        auto const thr = M::get_slice(warp * 32 + 4 * c);
        ASSERT_TRUE(thr.sfb_read());
        ASSERT_EQ(thr.sfb_col(an), first.b_coord(an, 0, 0, 0).mn + c);
      }
  }
  // Every lane of a quad holds its pair's row: lanes 4g+2, 4g+3 copy 4g, 4g+1.
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(M::get_slice(lane).sfa_row(0), M::get_slice(lane - lane % 4 + lane % 2).sfa_row(0));
  // The factor of K element k sits in register k / (4 vec), byte (k / vec) % 4, which is what the
  // atom of k reads: register sf_register_of(k / 64), byte sf_byte_id_of(k / 64) + (k % 64) / vec.
  for (int k = 0; k < M::tile_k; ++k) {
    int const ak = k / 64;
    ASSERT_EQ(M::sf_register_of(ak), k / (4 * vec)) << k;
    ASSERT_EQ(M::sf_byte_id_of(ak) + (k % 64) / vec, (k / vec) % 4) << k;
  }
}

TEST(Sm120BlockScaledMma, ScaleFactorsSitWhereTheSelectorsRead) {
  check_scale_holders<Nv>();
  check_scale_holders<Mx>();
  check_scale_holders<MxNv>();
}

}  // namespace
