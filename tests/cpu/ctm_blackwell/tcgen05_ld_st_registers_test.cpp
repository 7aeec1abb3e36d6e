// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Registers per thread of tcgen05.ld / tcgen05.st, for every shape and .num. The expected table
// is what ptxas 13.0 accepts for sm_100a (each shape and .num probed with 1..128 registers,
// with and without .pack::16b / .unpack::16b, which do not change the count): num registers
// for 32x32b, 16x64b, 16x32bx2 (x1..x128); 2*num for 16x128b (x1..x64); 4*num for 16x256b
// (x1..x32); no other .num.
#include <gtest/gtest.h>

#include <ctm/sm100/tcgen05_ld_st.hpp>

namespace {
using ctm::Tcgen05LdStShape;

static_assert(ctm::tcgen05_ld_st_registers<Tcgen05LdStShape::s32x32b, 128> == 128);
static_assert(ctm::tcgen05_ld_st_registers<Tcgen05LdStShape::s16x256b, 32> == 128);
static_assert(ctm::tcgen05_ld_st_registers<Tcgen05LdStShape::s16x256b, 64> == 0);

int regs(Tcgen05LdStShape s, int num) { return ctm::detail::tcgen05_ld_st_regs(s, num); }

TEST(Tcgen05LdSt, RegistersPerShapeAndNum) {
  struct Row { Tcgen05LdStShape shape; int expected[9]; };   // .num = 1, 2, 4, ..., 256
  Row const rows[] = {
      {Tcgen05LdStShape::s32x32b, {1, 2, 4, 8, 16, 32, 64, 128, 0}},
      {Tcgen05LdStShape::s16x64b, {1, 2, 4, 8, 16, 32, 64, 128, 0}},
      {Tcgen05LdStShape::s16x128b, {2, 4, 8, 16, 32, 64, 128, 0, 0}},
      {Tcgen05LdStShape::s16x256b, {4, 8, 16, 32, 64, 128, 0, 0, 0}},
      {Tcgen05LdStShape::s16x32bx2, {1, 2, 4, 8, 16, 32, 64, 128, 0}},
  };
  for (auto const& row : rows) {
    SCOPED_TRACE(static_cast<int>(row.shape));
    for (int i = 0; i < 9; ++i) EXPECT_EQ(regs(row.shape, 1 << i), row.expected[i]) << ".x" << (1 << i);
  }
}

TEST(Tcgen05LdSt, RejectsNonPowerOfTwoRepetitions) {
  for (int num : {0, -1, 3, 5, 6, 12, 96, 127})
    EXPECT_EQ(regs(Tcgen05LdStShape::s32x32b, num), 0) << ".x" << num;
}

}  // namespace
