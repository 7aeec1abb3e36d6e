// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_100a attention forward's host-computable plan (kernels/attention/prefill/fmha_sm100.hpp):
// which plan run_attention_sm100 takes per head dims; each plan's tensor-memory columns (two S
// buffers of block_n fp32 columns + O's D_v, at most 512; tcgen05.alloc's power of two) and shared
// memory (Q + stages x (K + V) + P, within sm_100a's 227 KB), recomputed here from the shapes; the
// UMMA shapes (instructions per gemm, P V's B N-major with its 64-key block stride); where a
// softmax thread's 32x32b copies land (its row, consecutive columns); and P's swizzled 16-byte
// units against the PChunk layout itself.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace {
namespace kn = cute_cpp::kernels;
namespace plans = kn::fmha_sm100_plans;
using bf16 = __nv_bfloat16;

TEST(FmhaSm100Plans, ChoiceByHeadDims) {
  EXPECT_EQ(plans::choose(64, 64), plans::Choice::d64);
  EXPECT_EQ(plans::choose(128, 128), plans::Choice::d128);
  EXPECT_EQ(plans::choose(192, 128), plans::Choice::d192v128);
  EXPECT_EQ(plans::choose(256, 256), plans::Choice::d256);
  EXPECT_EQ(plans::choose(96, 96), plans::Choice::none);
  EXPECT_EQ(plans::choose(128, 64), plans::Choice::none);
  EXPECT_EQ(plans::choose(192, 192), plans::Choice::none);
  EXPECT_EQ(plans::choose(0, 0), plans::Choice::none);
}

// The budget, from the shapes alone: 2 x block_n + D_v columns; Q (128 x D), per stage K
// (block_n x D) and V (block_n x D_v), P (128 x block_n), 16-bit each.
template <class Plan>
void expect_budgets(int block_n, int stages, int d, int dv, int columns, unsigned alloc) {
  EXPECT_EQ(Plan::block_m, 128);
  EXPECT_EQ(Plan::block_n, block_n);
  EXPECT_EQ(Plan::stages, stages);
  EXPECT_EQ(Plan::tmem_columns, 2 * block_n + dv);
  EXPECT_EQ(Plan::tmem_columns, columns);
  EXPECT_LE(Plan::tmem_columns, 512);
  EXPECT_EQ(Plan::tmem_o, 2 * block_n);  // O after S's two buffers
  EXPECT_EQ(Plan::tmem_alloc_columns, alloc);
  EXPECT_GE(Plan::tmem_alloc_columns, unsigned(Plan::tmem_columns));
  std::size_t const tiles = 2u * (128u * d + std::size_t(stages) * block_n * (d + dv) + 128u * block_n);
  EXPECT_GE(Plan::smem_bytes, tiles);
  EXPECT_LT(Plan::smem_bytes, tiles + 2048);  // barriers, the TMEM slot, alignment
  EXPECT_LE(Plan::smem_bytes, std::size_t{232448});
  EXPECT_EQ(Plan::threads, 256);
}

TEST(FmhaSm100Plans, TensorMemoryAndSharedMemoryBudgets) {
  expect_budgets<plans::D64<bf16>>(128, 4, 64, 64, 320, 512u);
  expect_budgets<plans::D128<bf16>>(128, 2, 128, 128, 384, 512u);
  expect_budgets<plans::D192V128<bf16>>(64, 3, 192, 128, 256, 256u);
  expect_budgets<plans::D256<bf16>>(64, 2, 256, 256, 384, 512u);
  expect_budgets<plans::D128<__half>>(128, 2, 128, 128, 384, 512u);
}

TEST(FmhaSm100Plans, UmmaShapes) {
  using P = plans::D128<bf16>;
  // S = Q K^T: M 128, N block_n, each 64-column chunk four k16 instructions; O += P V: N = D_v.
  EXPECT_EQ(P::MmaS::m, 128);
  EXPECT_EQ(P::MmaS::n, 128);
  EXPECT_EQ(P::MmaS::k_slices, 4);
  EXPECT_EQ(P::MmaO::n, 128);
  EXPECT_EQ(P::MmaO::k_slices, 4);
  EXPECT_EQ(P::qk_chunks, 2);
  EXPECT_EQ(P::pv_chunks, 2);
  // K is K-major (B of S); V is N-major (B of O): blocks of 64 D_v columns x 64 keys, LBO one
  // block (64 x 128 B), SBO 8 key rows of 128 B; each k16 slice 16 key rows (2048 B) further.
  EXPECT_EQ(P::MmaS::OpB::major, ctm::Tcgen05Major::k);
  EXPECT_EQ(P::MmaO::OpA::major, ctm::Tcgen05Major::k);
  EXPECT_EQ(P::MmaO::OpB::major, ctm::Tcgen05Major::mn);
  EXPECT_EQ(P::MmaO::OpB::lbo, 8192u);
  EXPECT_EQ(P::MmaO::OpB::sbo, 1024u);
  EXPECT_EQ(P::MmaO::OpB::k_offset_bytes(1), 2048u);
  // Instruction descriptors: f32 D, bf16 A and B, N >> 3 at 17, M >> 4 at 24; O's B transposed.
  EXPECT_EQ(P::MmaS::idesc, 0x10u | 0x80u | 0x400u | (16u << 17) | (8u << 24));
  EXPECT_EQ(P::MmaO::idesc, 0x10u | 0x80u | 0x400u | (1u << 16) | (16u << 17) | (8u << 24));
  // The stage bytes the loads complete: Q 128 x 128, K and V 128 x 128, 16-bit.
  EXPECT_EQ(P::q_bytes, 32768u);
  EXPECT_EQ(P::k_bytes, 32768u);
  EXPECT_EQ(P::v_bytes, 32768u);
}

// Softmax thread `lane` of warp w (4..7) reads row 32 (w % 4) + lane, columns 32 i + j of copy i.
TEST(FmhaSm100Plans, RowCopiesReadOneRowEach) {
  using P = plans::D128<bf16>;
  using Acc = P::MmaS::Accumulator;
  for (int warp = P::softmax_warp; warp < P::softmax_warp + P::softmax_warps; ++warp)
    for (int lane = 0; lane < 32; ++lane) {
      auto const slice = cute_cpp::sm100::get_slice<Acc, P::RowAtom>(warp, lane);
      ASSERT_EQ(slice.copies, P::block_n / 32);
      for (int i = 0; i < slice.copies; ++i) {
        // Lane field (bits 16..) is the warp's quarter; the column field steps 32 a copy.
        EXPECT_EQ(slice.tmem_addr(0x40, i), (std::uint32_t(32 * (warp % 4)) << 16) + 0x40u + 32u * i);
        for (int j = 0; j < P::RowAtom::registers; ++j) {
          ASSERT_EQ(slice.row(i, j), 32 * (warp % 4) + lane);
          ASSERT_EQ(slice.col(i, j), 32 * i + j);
        }
      }
    }
}

// P's 16-byte unit u of row r holds keys 8 u .. 8 u + 7 of the chunk, at the PChunk layout's
// offsets (a 128-byte swizzle: the unit XOR r % 8).
TEST(FmhaSm100Plans, PUnitsFollowTheChunkLayout) {
  using L = plans::D128<bf16>::PChunk;
  for (int r = 0; r < 128; ++r)
    for (int u = 0; u < 8; ++u)
      for (int e = 0; e < 8; ++e)
        ASSERT_EQ(kn::fmha_p_unit_offset(r, u) + e, int(L{}(r, 8 * u + e))) << "row " << r << " unit " << u;
  EXPECT_EQ(kn::fmha_p_unit_offset(1, 0), 72);  // row 1's unit 0 lands in unit 1
  EXPECT_EQ(kn::fmha_p_unit_offset(9, 3), 64 * 9 + 8 * 2);
}

}  // namespace
