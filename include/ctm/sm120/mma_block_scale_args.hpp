// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm120/mma_block_scale_args.hpp: the scale-factor operands of the sm_120a block-scaled
// mma.sync, as typed, checked constexpr values. Each of A and B takes a 32-bit register of
// scale factors and a {byte-id, thread-id} selector (immediates) that picks which byte of
// which thread's register holds the factors. Host and device; plain g++ compiles this header.
#include <cstdint>   // std::uint8_t

namespace ctm {

/// .scale_vec::1X / 2X / 4X: scale factors per row of A (column of B) in one MMA-K.
enum class MmaScaleVec : int { x1 = 1, x2 = 2, x4 = 4 };
/// Which operand a selector is for: thread-id ranges differ (A: 0..1, B: 0..3).
enum class MmaScaleOperand : std::uint8_t { a, b };

/// The byte-ids that `vec` allows: 0..3 for 1X (one byte each), 0 or 2 for 2X (a byte pair),
/// 0 for 4X (all four bytes). Checked against ptxas 13.0 for sm_120a.
constexpr bool mma_block_scale_byte_id_valid(MmaScaleVec vec, int byte_id) {
  switch (vec) {
    case MmaScaleVec::x1: return byte_id >= 0 && byte_id <= 3;
    case MmaScaleVec::x2: return byte_id == 0 || byte_id == 2;
    case MmaScaleVec::x4: return byte_id == 0;
  }
  return false;
}

/// The thread-ids allowed for an operand: 0..1 for A (a pair of threads of each quad holds
/// the 16 rows' factors), 0..3 for B. Checked against ptxas 13.0 for sm_120a.
constexpr bool mma_block_scale_thread_id_valid(MmaScaleOperand op, int thread_id) {
  return thread_id >= 0 && thread_id <= (op == MmaScaleOperand::a ? 1 : 3);
}

/// Scale factors per byte-id step: the number of consecutive bytes one selector covers.
constexpr int mma_block_scale_bytes_per_selector(MmaScaleVec vec) { return static_cast<int>(vec); }

/// A {byte-id, thread-id} selector for operand A, checked where it is formed and again
/// against the instruction's scale-vector size where it is used:
///   MmaScaleSelectorA<0, 1>{}  ok;  MmaScaleSelectorA<0, 2>{}  compile error
/// [mma.block-scale.thread-id]
template <int ByteId, int ThreadId>
struct MmaScaleSelectorA {
  static_assert(ByteId >= 0 && ByteId <= 3,
                "ctm [mma.block-scale.byte-id]: the byte-id selects a byte of a 32-bit register: 0..3");
  static_assert(mma_block_scale_thread_id_valid(MmaScaleOperand::a, ThreadId),
                "ctm [mma.block-scale.thread-id]: thread-id-a is 0 or 1");
  static constexpr int byte_id = ByteId;
  static constexpr int thread_id = ThreadId;
};

/// The same for operand B: thread-id-b is 0..3 [mma.block-scale.thread-id].
template <int ByteId, int ThreadId>
struct MmaScaleSelectorB {
  static_assert(ByteId >= 0 && ByteId <= 3,
                "ctm [mma.block-scale.byte-id]: the byte-id selects a byte of a 32-bit register: 0..3");
  static_assert(mma_block_scale_thread_id_valid(MmaScaleOperand::b, ThreadId),
                "ctm [mma.block-scale.thread-id]: thread-id-b is 0..3");
  static constexpr int byte_id = ByteId;
  static constexpr int thread_id = ThreadId;
};

namespace diag {
/// Rule mma.block-scale.byte-id: the selector's byte-id fits the instruction's scale_vec.
template <MmaScaleVec Vec, int ByteIdA, int ByteIdB>
struct mma_block_scale_byte_ids {
  static_assert(mma_block_scale_byte_id_valid(Vec, ByteIdA) && mma_block_scale_byte_id_valid(Vec, ByteIdB),
                "ctm [mma.block-scale.byte-id]: byte-id must be 0..3 with scale_vec::1X, 0 or 2 "
                "with scale_vec::2X, and 0 with scale_vec::4X");
  static constexpr bool ok = true;
};
}  // namespace diag

}  // namespace ctm
