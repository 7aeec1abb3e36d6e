// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3/fused_step_plan.hpp: every row of every projection belongs to exactly one CTA and one
// chunk of it (whole gate/up blocks for the gated weight), chunks fit the ring, the key splits cover
// the keys with none empty and fit the grid, shared memory holds what the kernel puts there, and the
// refusals name what they need; over the published Qwen3 and Qwen3-TTS widths and odd ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/qwen3/fused_step_plan.hpp"

namespace {

namespace fs = cute_cpp::models::fused_step;
using cute_cpp::models::FusedStepShape;

std::vector<FusedStepShape> shapes() {
  return {
      {5, 1024, 16, 8, 128, 3072},   // Qwen3-TTS 1.7B's code predictor
      {28, 2048, 16, 8, 128, 6144},  // its talker
      {28, 1024, 16, 8, 128, 3072},  // Qwen3-0.6B
      {28, 2048, 16, 8, 128, 6144},  // Qwen3-1.7B
      {36, 2560, 32, 8, 128, 9728},  // Qwen3-4B
      {36, 4096, 32, 8, 128, 12288}, // Qwen3-8B
      {2, 264, 6, 2, 64, 712},       // odd widths, 3 q heads a kv head
      {2, 512, 8, 1, 256, 1032},     // head_dim 256, 8 q heads a kv head
      {48, 2048, 32, 4, 128, 6144, 128, 8, 768, true},  // Qwen3-30B-A3B (sparse layers)
      {2, 264, 6, 2, 64, 712, 64, 4, 200, false},       // a MoE toy: 64 experts, top 4, odd widths
  };
}

TEST(FusedStepPlan, EveryRowOnceInWholeChunks) {
  for (int grid : {1, 7, 114, 132}) {
    for (FusedStepShape const& s : shapes()) {
      for (int p = 0; p < fs::projections; ++p) {
        fs::Matrix const m = fs::matrix(s, fs::Projection(p));
        if (m.n == 0 || m.runs == 0) continue;  // a dense model's sparse projections
        ASSERT_EQ(m.n % m.unit, 0) << "projection " << p;
        std::vector<int> owner(std::size_t(m.n), -1);
        for (int cta = 0; cta < grid; ++cta) {
          fs::Rows const r = fs::slice(m, cta, grid);
          ASSERT_LE(r.begin, r.end);
          EXPECT_EQ(r.begin % m.unit, 0);
          for (int row = r.begin; row < r.end; ++row) {
            EXPECT_EQ(owner[std::size_t(row)], -1) << "row " << row << " twice";
            owner[std::size_t(row)] = cta;
          }
          int const per = fs::chunk_rows(m.k);
          ASSERT_GE(per, 1);
          EXPECT_LE(std::int64_t(per) * m.k * 2, fs::chunk_bytes);
          EXPECT_LE(per, fs::max_chunk_rows);
          // Chunks tile the slice, each within the ring's chunk and within one segment (one expert).
          int count = 0, row = r.begin;
          for (; row < r.end; ++count) {
            int const end = fs::chunk_end(m, row, r.end);
            ASSERT_GT(end, row);
            EXPECT_LE(end - row, per);
            EXPECT_EQ(row / m.segment, (end - 1) / m.segment) << "a chunk across two experts";
            row = end;
          }
          EXPECT_EQ(row, std::max(r.begin, r.end));
          EXPECT_EQ(fs::chunks(m, r), count);
        }
        for (int row = 0; row < m.n; ++row) EXPECT_NE(owner[std::size_t(row)], -1) << "row " << row << " unowned";
      }
    }
  }
}

TEST(FusedStepPlan, SparseLayersStreamTheirExperts) {
  FusedStepShape const s{48, 2048, 32, 4, 128, 6144, 128, 8, 768, true};
  EXPECT_EQ(fs::layer_projections(false), 4);
  EXPECT_EQ(fs::layer_projections(true), 5);
  fs::Projection const dense[] = {fs::Projection::qkv, fs::Projection::o, fs::Projection::gate_up,
                                  fs::Projection::down};
  fs::Projection const sparse[] = {fs::Projection::qkv, fs::Projection::o, fs::Projection::router,
                                   fs::Projection::expert_gate_up, fs::Projection::expert_down};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(fs::layer_projection(false, i), dense[i]);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(fs::layer_projection(true, i), sparse[i]);
  fs::Matrix const up = fs::matrix(s, fs::Projection::expert_gate_up);
  EXPECT_EQ(up.n, 8 * 2 * 768);
  EXPECT_EQ(up.segment, 2 * 768);
  EXPECT_EQ(up.segment % up.unit, 0);  // whole gate/up blocks in each expert's part
  fs::Matrix const down = fs::matrix(s, fs::Projection::expert_down);
  EXPECT_EQ(down.runs, 8);
  EXPECT_EQ(down.n, 2048);
  EXPECT_EQ(down.k, 768);
  EXPECT_EQ(fs::matrix(s, fs::Projection::router).n, 128);
  // The choices' h rows fit the activation buffer.
  fs::SmemLayout const l = fs::smem_layout(s, 132);
  EXPECT_GE(l.row_out - l.activation, 2 * 8 * 768);
  EXPECT_EQ(fs::refusal(s, 132, 227 << 10), "");
}

TEST(FusedStepPlan, KeySplitsCoverTheKeys) {
  for (int max_splits : {1, 2, 16, 66, 132})
    for (int length = 1; length < 5000; length += length < 100 ? 1 : 37) {
      fs::KeySplit const k = fs::key_split(length, max_splits);
      ASSERT_GE(k.count, 1);
      EXPECT_LE(k.count, max_splits);
      EXPECT_GE(k.count * k.keys, length);
      EXPECT_LT((k.count - 1) * k.keys, length) << "an empty split at length " << length;
      if (length >= fs::min_split_keys) {
        EXPECT_GE(k.keys, fs::min_split_keys) << length;
      }
    }
}

TEST(FusedStepPlan, SharedMemoryHoldsThePhases) {
  for (FusedStepShape const& s : shapes()) {
    fs::SmemLayout const l = fs::smem_layout(s, 132);
    EXPECT_GE(l.activation, std::int64_t(fs::stages) * fs::chunk_bytes);
    EXPECT_GE(l.row_out - l.activation, 2 * std::int64_t(std::max({s.hidden, s.ffn, s.heads_q * s.head_dim})));
    for (int p = 0; p < fs::projections; ++p)
      EXPECT_GE(l.attention - l.row_out, 4 * fs::slice(fs::matrix(s, fs::Projection(p)), 0, 132).size());
    int const group = s.heads_q / s.heads_kv;
    EXPECT_GE(l.total - l.attention, 4 * fs::key_block * s.head_dim + 4 * (2 * group * s.head_dim + 2 * s.head_dim +
                                                                           group * fs::key_block + 3 * fs::max_group));
    // A kv head's combine: a weight and a sum for each (split, q head of the group), a denominator for
    // each q head of the group.
    EXPECT_GE(l.total - l.attention, 4 * (2 * fs::max_splits(s, 132) * group + group));
    EXPECT_EQ(l.total % 128, 0);
  }
  // The code predictor fits an H100's or H200's 227 KB a CTA (less the kernel's static 4 KB) with room
  // for another ring stage.
  EXPECT_LT(fs::smem_layout({5, 1024, 16, 8, 128, 3072}, 132).total + fs::chunk_bytes, (227 << 10) - 4096);
}

TEST(FusedStepPlan, RefusalsNameWhatTheyNeed) {
  std::int64_t const limit = 227 << 10;
  for (FusedStepShape const& s : shapes()) EXPECT_EQ(fs::refusal(s, 132, limit), "");
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 96, 3072}, 132, limit).find("head_dim"), std::string::npos);
  EXPECT_NE(fs::refusal({2, 1020, 16, 8, 128, 3072}, 132, limit).find("multiples of 8"), std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 16, 5, 128, 3072}, 132, limit).find("whole groups"), std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 32, 2, 128, 3072}, 132, limit).find("q heads a kv head"), std::string::npos);
  EXPECT_NE(fs::refusal({64, 5120, 64, 8, 128, 25600}, 132, limit).find("16384"), std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 128, 3072}, 4, limit).find("one CTA a kv head"), std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 128, 3072}, 132, 100 << 10).find("shared memory"), std::string::npos);
  EXPECT_NE(fs::refusal({0, 1024, 16, 8, 128, 3072}, 132, limit), "");
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 128, 3072, 512, 8, 768, true}, 132, limit).find("experts"),
            std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 128, 3072, 128, 10, 768, true}, 132, limit).find("choices"),
            std::string::npos);
  EXPECT_NE(fs::refusal({2, 1024, 16, 8, 128, 3072, 128, 8, 764, true}, 132, limit).find("multiples of 8"),
            std::string::npos);
}

}  // namespace
