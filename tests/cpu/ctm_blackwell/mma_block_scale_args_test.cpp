// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The scale-factor selector rules of the sm_120a block-scaled mma.sync, value by value. The
// expected sets are what ptxas 13.0 accepts for sm_120a (probed for every value 0..4 of each
// selector, on each scale_vec and operand): byte-id 0..3 (1X), {0, 2} (2X), {0} (4X);
// thread-id-a 0..1, thread-id-b 0..3.
#include <gtest/gtest.h>

#include <ctm/sm120/mma_block_scale_args.hpp>

namespace {
using ctm::MmaScaleOperand;
using ctm::MmaScaleVec;

// Selectors are usable as constant expressions and carry their values.
static_assert(ctm::MmaScaleSelectorA<3, 1>::byte_id == 3 && ctm::MmaScaleSelectorA<3, 1>::thread_id == 1);
static_assert(ctm::MmaScaleSelectorB<2, 3>::byte_id == 2 && ctm::MmaScaleSelectorB<2, 3>::thread_id == 3);
static_assert(ctm::diag::mma_block_scale_byte_ids<MmaScaleVec::x2, 2, 0>::ok);

unsigned byte_id_mask(MmaScaleVec vec) {
  unsigned mask = 0;
  for (int v = -1; v <= 8; ++v)
    if (ctm::mma_block_scale_byte_id_valid(vec, v)) mask |= 1u << (v + 1);
  return mask >> 1;   // bit i: byte-id i valid (v = -1 never is)
}
unsigned thread_id_mask(MmaScaleOperand op) {
  unsigned mask = 0;
  for (int v = -1; v <= 8; ++v)
    if (ctm::mma_block_scale_thread_id_valid(op, v)) mask |= 1u << (v + 1);
  return mask >> 1;
}

TEST(MmaBlockScaleArgs, ByteIdsPerScaleVec) {
  EXPECT_EQ(byte_id_mask(MmaScaleVec::x1), 0b1111u);   // mxf8f6f4: 0, 1, 2, 3
  EXPECT_EQ(byte_id_mask(MmaScaleVec::x2), 0b0101u);   // mxf4, mxf4nvf4 2X: 0, 2
  EXPECT_EQ(byte_id_mask(MmaScaleVec::x4), 0b0001u);   // mxf4nvf4 4X: 0
}

TEST(MmaBlockScaleArgs, ThreadIdsPerOperand) {
  EXPECT_EQ(thread_id_mask(MmaScaleOperand::a), 0b0011u);
  EXPECT_EQ(thread_id_mask(MmaScaleOperand::b), 0b1111u);
}

TEST(MmaBlockScaleArgs, BytesPerSelector) {
  EXPECT_EQ(ctm::mma_block_scale_bytes_per_selector(MmaScaleVec::x1), 1);
  EXPECT_EQ(ctm::mma_block_scale_bytes_per_selector(MmaScaleVec::x2), 2);
  EXPECT_EQ(ctm::mma_block_scale_bytes_per_selector(MmaScaleVec::x4), 4);
  // A selector never reaches past the register: byte-id + bytes <= 4 for every valid pair.
  for (auto vec : {MmaScaleVec::x1, MmaScaleVec::x2, MmaScaleVec::x4})
    for (int b = 0; b < 4; ++b)
      if (ctm::mma_block_scale_byte_id_valid(vec, b)) {
        EXPECT_LE(b + ctm::mma_block_scale_bytes_per_selector(vec), 4);
      }
}

}  // namespace
