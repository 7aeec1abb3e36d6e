// SPDX-License-Identifier: Apache-2.0
// models/qwen3/vocab_shards.hpp: the host and device arithmetic of the vocabulary split over
// tensor-parallel ranks. The masked embedding's row of each id on each rank (every id on exactly one
// rank), where the all-gathered logits hold (row, id), the shard pieces the sampler walks (each id
// once, in order, never a padding column), a greedy pick through the layout against the row-major
// one with the padding poisoned, and unshard_logits (what `cute-cpp-qwen3 logits` writes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "models/qwen3/vocab_shards.hpp"

namespace cm = cute_cpp::models;

namespace {

/// A rank's vocabulary as ShardPlan gives it: ceil(vocab / ranks) rows, [r rows, min(vocab, (r + 1) rows)).
struct Split {
  std::int64_t rows, begin, end;
};
Split split(std::int64_t vocab, int ranks, int r) {
  std::int64_t const rows = (vocab + ranks - 1) / ranks;
  return {rows, std::min(vocab, rows * r), std::min(vocab, rows * (r + 1))};
}

/// The gathered logits of `rows` rows of `ld` columns: logit(row, id) = row * 1000 + id, padding
/// columns (past a shard's ids, or past vocab) +1e9: they would win any argmax they were part of.
std::vector<float> gathered(std::int64_t vocab, int ranks, int rows, std::int64_t ld) {
  std::int64_t const cols = split(vocab, ranks, 0).rows;
  std::vector<float> out;
  for (int q = 0; q < ranks; ++q)
    for (int r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < ld; ++c) {
        std::int64_t const id = q * cols + c;
        out.push_back(c < cols && id < vocab ? float(r * 1000 + id) : 1e9f);
      }
  return out;
}

}  // namespace

TEST(VocabShards, EveryIdIsEmbeddedByExactlyOneRank) {
  for (std::int64_t vocab : {1, 7, 64, 151936, 151937})
    for (int ranks : {1, 2, 3, 4, 8}) {
      if (split(vocab, ranks, ranks - 1).begin >= vocab && ranks > 1) continue;  // tp.vocab refuses these
      for (std::int64_t id : {std::int64_t(0), vocab / 2, vocab - 1}) {
        int holders = 0;
        for (int r = 0; r < ranks; ++r) {
          Split const s = split(vocab, ranks, r);
          std::int64_t const row = cm::vocab_local_row(id, s.begin, s.end);
          if (row < 0) continue;
          ++holders;
          EXPECT_EQ(s.begin + row, id);
          EXPECT_LT(row, s.rows);
        }
        EXPECT_EQ(holders, 1) << "vocab " << vocab << " ranks " << ranks << " id " << id;
      }
    }
  EXPECT_EQ(cm::vocab_local_row(7, 5, 10), 2);
  EXPECT_EQ(cm::vocab_local_row(3, 5, 10), -1);
  EXPECT_EQ(cm::vocab_local_row(10, 5, 10), -1);
}

TEST(VocabShards, LogitOffsets) {
  static_assert(cm::logit_offset(cm::gathered_logits(2, 5), 1, 7) == 17);
  static_assert(cm::logit_offset(cm::row_major_logits(9), 2, 4) == 22);
  EXPECT_FALSE(cm::row_major_logits(9).sharded(9));
  EXPECT_TRUE(cm::gathered_logits(3, 5).sharded(9));
  // One rank's gather is row-major: the same offsets as one device's logits.
  for (int r = 0; r < 3; ++r)
    for (int id = 0; id < 9; ++id)
      EXPECT_EQ(cm::logit_offset(cm::gathered_logits(3, 9), r, id), cm::logit_offset(cm::row_major_logits(9), r, id));
  // Every (row, id) at its own place, inside the gathered [ranks, rows, vocab_rows].
  for (int ranks : {2, 3, 4}) {
    std::int64_t const vocab = 10, cols = split(vocab, ranks, 0).rows;
    int const rows = 3;
    cm::LogitsLayout const l = cm::gathered_logits(rows, cols);
    std::set<std::int64_t> seen;
    for (int r = 0; r < rows; ++r)
      for (std::int64_t id = 0; id < vocab; ++id) {
        std::int64_t const at = cm::logit_offset(l, r, id);
        EXPECT_TRUE(seen.insert(at).second);
        EXPECT_LT(at, ranks * rows * cols);
      }
  }
}

TEST(VocabShards, PaddedRowsKeepTheLmHeadsRowsAligned) {
  static_assert(cm::padded_vocab_rows(250) == 256);
  static_assert(cm::padded_vocab_rows(37984) == 37984);  // Qwen3's 151936 over 4
  static_assert(cm::padded_vocab_rows(1) == 8);
  // A padded gather: the ids of shard q in its first vocab_rows columns, rows ld apart, never a padding column.
  cm::LogitsLayout const l = cm::gathered_logits(2, 250, cm::padded_vocab_rows(250));
  EXPECT_EQ(l.ld, 256);
  EXPECT_EQ(l.shard_stride, 512);
  EXPECT_EQ(cm::logit_offset(l, 1, 251), 512 + 256 + 1);
  EXPECT_EQ(cm::check_logits_layout(l, 2, 1000), "");
}

TEST(VocabShards, LayoutChecks) {
  EXPECT_EQ(cm::check_logits_layout(cm::row_major_logits(100), 4, 100), "");
  EXPECT_EQ(cm::check_logits_layout(cm::gathered_logits(4, 25), 4, 100), "");
  EXPECT_NE(cm::check_logits_layout({10, 20, 0}, 1, 100).find("ld >= shard_cols"), std::string::npos);
  EXPECT_NE(cm::check_logits_layout({25, 25, 50}, 4, 100).find("overlaps its shards"), std::string::npos);
  EXPECT_NE(cm::check_logits_layout({0, 0, 0}, 1, 1), "");
}

/// The sampler's walk (sampling.cu's ShardedRowPart::for_each): each block's [begin, end) cut into
/// shard pieces, each piece read from logit_offset(lo) on; ids in order, each once, padding never.
TEST(VocabShards, TheSamplersPiecesVisitEachIdOnceAndNoPadding) {
  for (std::int64_t vocab : {10, 11, 151936 / 64 + 3})
    for (int ranks : {1, 2, 3, 4})
      for (int blocks : {1, 2, 3, 8}) {
        int const rows = 3;
        std::int64_t const cols = split(vocab, ranks, 0).rows;
        std::int64_t const ld = cm::padded_vocab_rows(cols);  // as the model's LM head writes them
        cm::LogitsLayout const l = cm::gathered_logits(rows, cols, ld);
        std::vector<float> const data = gathered(vocab, ranks, rows, ld);
        std::int64_t const chunk = ((vocab + blocks - 1) / blocks + 7) / 8 * 8;  // row_part's split
        for (int row = 0; row < rows; ++row) {
          std::vector<std::int64_t> ids;
          for (int b = 0; b < blocks; ++b) {
            std::int64_t const begin = std::min(vocab, b * chunk), end = std::min(vocab, (b + 1) * chunk);
            if (begin >= end) continue;
            for (std::int64_t q = begin / cols; q <= (end - 1) / cols; ++q) {
              cm::IdRange const piece = cm::shard_ids(l, q, begin, end);
              std::int64_t const base = cm::logit_offset(l, row, piece.lo) - piece.lo;
              for (std::int64_t id = piece.lo; id < piece.hi; ++id) {
                ids.push_back(id);
                EXPECT_EQ(data[std::size_t(base + id)], float(row * 1000 + id));  // contiguous, never padding
              }
            }
          }
          std::vector<std::int64_t> all(static_cast<std::size_t>(vocab));
          for (std::int64_t i = 0; i < vocab; ++i) all[std::size_t(i)] = i;
          EXPECT_EQ(ids, all) << "vocab " << vocab << " ranks " << ranks << " blocks " << blocks;
        }
      }
  EXPECT_EQ(cm::shard_ids({5, 5, 10}, 1, 3, 12).lo, 5);
  EXPECT_EQ(cm::shard_ids({5, 5, 10}, 2, 3, 12).hi, 12);
}

TEST(VocabShards, GreedyThroughTheLayoutIgnoresPadding) {
  std::mt19937 gen(3);
  std::int64_t const vocab = 13;  // 4 ranks: 4 columns each, the last rank 1 id and 3 padding columns
  int const ranks = 4, rows = 5;
  std::int64_t const cols = split(vocab, ranks, 0).rows;
  cm::LogitsLayout const l = cm::gathered_logits(rows, cols);
  std::vector<float> row_major(std::size_t(rows * vocab)), sharded(std::size_t(ranks * rows * cols), 1e9f);
  std::uniform_real_distribution<float> u(-5.0f, -1.0f);  // all negative: a padding 0 would win
  for (int r = 0; r < rows; ++r)
    for (std::int64_t id = 0; id < vocab; ++id)
      sharded[std::size_t(cm::logit_offset(l, r, id))] = row_major[std::size_t(r * vocab + id)] = u(gen);
  for (int r = 0; r < rows; ++r) {
    auto const best = [&](cm::LogitsLayout const& layout, std::vector<float> const& d) {
      std::int64_t arg = 0;
      for (std::int64_t id = 1; id < vocab; ++id)
        if (d[std::size_t(cm::logit_offset(layout, r, id))] > d[std::size_t(cm::logit_offset(layout, r, arg))])
          arg = id;
      return arg;
    };
    EXPECT_EQ(best(l, sharded), best(cm::row_major_logits(vocab), row_major));
  }
  EXPECT_EQ(cm::unshard_logits(std::span<const float>(sharded), l, rows, vocab), row_major);
  EXPECT_EQ(cm::unshard_logits(std::span<const float>(row_major), cm::row_major_logits(vocab), rows, vocab),
            row_major);
}
