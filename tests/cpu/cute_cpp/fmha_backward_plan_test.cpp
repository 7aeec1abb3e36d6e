// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The attention backward's host-computable parts (kernels/attention/backward): the workspace's
// sizes and padded row starts (every sequence's 64-row blocks apart and inside the workspace), the
// query blocks a key block meets under a causal mask against a brute force (and that they only
// grow with the key block, which the deterministic mode's ordering relies on), the plans' shared
// memory, and the shared-memory layout identities the kernel reads operands through: dSᵀ's stores
// against DsTile, K's chunks as dQ's M/N-major B, Q's chunks side by side as the M/N-major B of
// dK and dV.
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_workspace.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {
namespace kn = cute_cpp::kernels;
namespace cc = cute_cpp;
using bf16 = __nv_bfloat16;

TEST(FmhaBackwardWorkspace, FixedLengthSizes) {
  auto const w = kn::fmha_backward_workspace(2, 100, 4, 128, 0, false, false);
  EXPECT_EQ(w.seq_q_padded, 128);
  EXPECT_EQ(w.rows, 256);
  EXPECT_EQ(w.lse_offset, 0u);
  EXPECT_EQ(w.delta_offset, 4u * 256 * 4);
  EXPECT_EQ(w.dq_offset, 2u * 4 * 256 * 4);
  EXPECT_EQ(w.sem_offset, w.dq_offset + 4u * 256 * 128 * 4);
  EXPECT_EQ(w.bytes, w.sem_offset);  // no semaphores unless deterministic
  auto const d = kn::fmha_backward_workspace(2, 100, 4, 128, 0, false, true);
  EXPECT_EQ(d.bytes, d.sem_offset + 256u);  // 4 heads x 4 blocks x 4 bytes, 256-byte aligned
  EXPECT_EQ(w.padded_start(1, 0), 128);
  EXPECT_EQ(kn::fmha_backward_workspace(1, 64, 1, 64, 0, false, false).rows, 64);
  EXPECT_EQ(kn::fmha_backward_workspace(1, 65, 1, 64, 0, false, false).rows, 128);
}

TEST(FmhaBackwardWorkspace, VarlenSequencesKeepTheirBlocksApartAndInside) {
  std::mt19937_64 rng(20261205);
  for (int trial = 0; trial < 2000; ++trial) {
    int const batch = 1 + int(rng() % 6);
    std::vector<std::int32_t> cu{0};
    for (int b = 0; b < batch; ++b) cu.push_back(cu.back() + int(rng() % 300));
    if (cu.back() == 0) continue;
    auto const w = kn::fmha_backward_workspace(batch, 300, 2, 64, cu.back(), true, true);
    std::int64_t end = 0;
    for (int b = 0; b < batch; ++b) {
      std::int64_t const start = w.padded_start(b, cu[b]);
      std::int64_t const len = cu[b + 1] - cu[b];
      SCOPED_TRACE("trial " + std::to_string(trial) + " sequence " + std::to_string(b));
      EXPECT_EQ(start % kn::fmha_backward_block_m, 0);
      EXPECT_GE(start, end);
      end = start + (len + 63) / 64 * 64;
      EXPECT_LE(end, w.rows);
    }
    EXPECT_EQ(w.rows % 64, 0);
    EXPECT_EQ(w.sem_offset % 256, 0u);
    EXPECT_EQ(w.bytes - w.sem_offset, (std::size_t(2) * w.rows / 64 * 4 + 255) / 256 * 256);
  }
}

TEST(FmhaBackwardQueryBlocks, CausalAgreesWithBruteForce) {
  for (int seq_q : {1, 5, 63, 64, 65, 200, 300}) {
    for (int seq_k : {1, 7, 64, 127, 128, 129, 300}) {
      for (int n = 0; n * 128 < seq_k; ++n) {
        auto const got = kn::fmha_backward_query_blocks(n, 128, seq_q, seq_k, true);
        // Brute force: the query blocks holding a row that sees a key of the block.
        int first = -1, last = (seq_q + 63) / 64;
        for (int i = 0; i < seq_q && first < 0; ++i)
          for (int j = n * 128; j < std::min(seq_k, n * 128 + 128); ++j)
            if (j <= i + seq_k - seq_q) {
              first = i / 64;
              break;
            }
        SCOPED_TRACE(std::to_string(seq_q) + " x " + std::to_string(seq_k) + " block " + std::to_string(n));
        EXPECT_EQ(got.first, first < 0 ? last : first);
        EXPECT_EQ(got.last, last);
        if (n > 0) {
          EXPECT_GE(got.first, kn::fmha_backward_query_blocks(n - 1, 128, seq_q, seq_k, true).first);
        }
      }
      auto const all = kn::fmha_backward_query_blocks(0, 128, seq_q, seq_k, false);
      EXPECT_EQ(all.first, 0);
      EXPECT_EQ(all.last, (seq_q + 63) / 64);
    }
  }
}

TEST(FmhaBackwardPlans, SharedMemoryAndSplits) {
  using D64 = kn::fmha_backward_plans::D64<bf16>;
  using D128 = kn::fmha_backward_plans::D128<bf16>;
  static_assert(D64::threads == 384 && D128::threads == 384);
  static_assert(D64::dq_split_keys && !D128::dq_split_keys);
  // K, V once + two stages of Q and dO + two dSᵀ buffers, plus the rows' floats and barriers.
  EXPECT_GE(D128::smem_bytes, std::size_t(2 * 128 * 128 * 2 + 4 * 64 * 128 * 2 + 2 * 128 * 64 * 2));
  EXPECT_LE(D128::smem_bytes, std::size_t(232448));
  EXPECT_GE(D64::smem_bytes, std::size_t(2 * 128 * 64 * 2 + 4 * 64 * 64 * 2 + 2 * 128 * 64 * 2));
  EXPECT_EQ(D128::PipelineQ::tx_bytes, 64u * 128 * 2 + 64 * 4);
}

TEST(FmhaBackwardLayouts, DsStoresMatchTheOperandLayout) {
  using P = kn::fmha_backward_plans::D128<bf16>;
  typename P::DsTile const ds{};
  for (int r = 0; r < P::block_n; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(std::int64_t(ds(c, r)), P::ds_offset(r, c)) << r << ", " << c;
}

TEST(FmhaBackwardLayouts, KChunksAreDqsMNMajorB) {
  using P = kn::fmha_backward_plans::D128<bf16>;
  typename P::KChunk const k{};
  typename P::KOperandMN const b{};  // (N = 64 columns of D, K = keys)
  for (int r = 0; r < P::block_n; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(std::int64_t(k(r, c)), std::int64_t(b(c, r))) << r << ", " << c;
}

TEST(FmhaBackwardLayouts, QChunksSideBySideAreTheMNMajorB) {
  using P = kn::fmha_backward_plans::D128<bf16>;
  typename P::QChunk const chunk{};
  typename P::QTileMN const whole{};  // (N = D, K = queries)
  int const chunk_elems = cc::size_in_bytes<bf16, typename P::QChunk>() / 2;
  for (int q = 0; q < P::block_m; ++q)
    for (int d = 0; d < P::head_dim; ++d)
      ASSERT_EQ(std::int64_t(d / 64) * chunk_elems + std::int64_t(chunk(q, d % 64)), std::int64_t(whole(d, q)))
          << q << ", " << d;
}

}  // namespace
