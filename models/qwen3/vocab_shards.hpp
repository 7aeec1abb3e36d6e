// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/vocab_shards.hpp: the vocabulary split over tensor-parallel ranks (tensor_parallel.md):
// rank r holds ids [r vocab_rows, min(vocab, (r + 1) vocab_rows)) of the embedding and the LM head in
// buffers of vocab_rows rows. Its embedding lookup writes zeros for the ids outside (an all-reduce
// then sums the ranks' rows), and its LM head's logits, all-gathered, are rank-major:
// [ranks, rows, vocab_rows]. LogitsLayout says where (row, id) lies in either that or one device's
// row-major [rows, vocab]; the sampler's kernels read through it. Host and device arithmetic.
#include <cstdint>  // std::int64_t
#include <span>     // std::span
#include <string>   // std::string
#include <vector>   // std::vector

#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

namespace cute_cpp::models {

/// The rows of a rank's vocabulary buffers on the device: vocab_rows rounded up to a multiple of 8, so
/// that the LM head's output rows (its GEMM's ldc) stay 16-byte aligned whatever ceil(vocab / N) is
/// (a tiny vocabulary of 1000 over 4 ranks: 250 rows, kept in 256). The extra rows are zeros, and
/// their logits are never read (a shard's ids stop at vocab_rows).
[[nodiscard]] constexpr std::int64_t padded_vocab_rows(std::int64_t vocab_rows) noexcept {
  return (vocab_rows + 7) / 8 * 8;
}

/// Where the logits of a pass lie: the logit of (row, id) is at logit_offset(layout, row, id).
///   one device, [rows, vocab] row-major:          {vocab, vocab, 0}   (shard_cols >= vocab: one shard)
///   N ranks' gather of [rows, ld] each:           {ld, vocab_rows, rows * ld}   (ld: padded_vocab_rows)
/// The ids past the vocabulary in the last shard (padding rows of the LM head, logits 0) are not
/// ids: a reader stops at vocab, so that they can never be drawn.
struct LogitsLayout {
  std::int64_t ld = 0;            ///< elements between rows within a shard
  std::int64_t shard_cols = 0;    ///< ids per shard
  std::int64_t shard_stride = 0;  ///< elements between one shard's row 0 and the next's
  [[nodiscard]] CUTE_CPP_HD constexpr bool sharded(std::int64_t vocab) const noexcept { return shard_cols < vocab; }
};

/// The row-major layout of one device's logits.
[[nodiscard]] constexpr LogitsLayout row_major_logits(std::int64_t vocab) noexcept { return {vocab, vocab, 0}; }
/// The layout of the ranks' all-gathered [rows, ld] logits (ncclAllGather's rank-major output), each
/// rank's ids in its first vocab_rows columns (ld: vocab_rows unless given, padded_vocab_rows on the device).
[[nodiscard]] constexpr LogitsLayout gathered_logits(std::int64_t rows, std::int64_t vocab_rows,
                                                     std::int64_t ld = 0) noexcept {
  std::int64_t const l = ld > 0 ? ld : vocab_rows;
  return {l, vocab_rows, rows * l};
}

/// Elements from the buffer's start to the logit of (row, id).
///   logit_offset(gathered_logits(2, 5), 1, 7) -> shard 1 at 10, row 1 at 15, column 2: 17
[[nodiscard]] CUTE_CPP_HD constexpr std::int64_t logit_offset(LogitsLayout const& l, std::int64_t row,
                                                              std::int64_t id) noexcept {
  std::int64_t const q = id / l.shard_cols;
  return q * l.shard_stride + row * l.ld + (id - q * l.shard_cols);
}

/// The ids [begin, end) that lie in shard q, as {lo, hi} (lo >= hi: none): a reader of [begin, end)
/// walks q = begin / shard_cols .. (end - 1) / shard_cols, each piece contiguous in memory.
///   shard_ids({5, 5, 10}, 1, 3, 12) -> {5, 10}      shard_ids({5, 5, 10}, 2, 3, 12) -> {10, 12}
struct IdRange {
  std::int64_t lo = 0, hi = 0;
};
[[nodiscard]] CUTE_CPP_HD constexpr IdRange shard_ids(LogitsLayout const& l, std::int64_t q, std::int64_t begin,
                                                      std::int64_t end) noexcept {
  std::int64_t const lo = q * l.shard_cols > begin ? q * l.shard_cols : begin;
  std::int64_t const hi = (q + 1) * l.shard_cols < end ? (q + 1) * l.shard_cols : end;
  return {lo, hi};
}

/// "" when `layout` holds `rows` rows of `vocab` ids without two logits at one place, else why not
/// (the sampler's qwen3.sampling message): ld >= shard_cols >= 1, and with several shards a stride of
/// at least rows x ld.
[[nodiscard]] inline std::string check_logits_layout(LogitsLayout const& layout, int rows, std::int64_t vocab) {
  auto const text = [&] {
    return "the logits' layout {ld " + std::to_string(layout.ld) + ", shard_cols " + std::to_string(layout.shard_cols) +
           ", shard_stride " + std::to_string(layout.shard_stride) + "}";
  };
  if (layout.shard_cols < 1 || layout.ld < layout.shard_cols)
    return text() + " needs ld >= shard_cols >= 1";
  if (layout.sharded(vocab) && layout.shard_stride < std::int64_t(rows) * layout.ld)
    return text() + " overlaps its shards: " + std::to_string(rows) + " rows need a stride of at least rows x ld";
  return "";
}

/// Rank r's row in its vocabulary buffer for token `id`, or -1 when another rank holds it (the
/// embedding lookup then writes zeros): rank r holds [begin, end).
///   vocab_local_row(7, 5, 10) -> 2      vocab_local_row(3, 5, 10) -> -1
[[nodiscard]] CUTE_CPP_HD constexpr std::int64_t vocab_local_row(std::int64_t id, std::int64_t begin,
                                                                 std::int64_t end) noexcept {
  return id >= begin && id < end ? id - begin : -1;
}

/// [rows, vocab] row-major from logits in `layout` (the padding columns dropped): what
/// `cute-cpp-qwen3 logits` writes whatever the ranks.
/// @pre check_logits_layout(layout, rows, vocab) is ""; `data` holds every offset it names.
template <class T>
[[nodiscard]] std::vector<T> unshard_logits(std::span<const T> data, LogitsLayout const& layout, int rows,
                                            std::int64_t vocab) {
  std::vector<T> out;
  out.reserve(std::size_t(rows) * std::size_t(vocab));
  for (int r = 0; r < rows; ++r)
    for (std::int64_t id = 0; id < vocab; ++id) out.push_back(data[std::size_t(logit_offset(layout, r, id))]);
  return out;
}

}  // namespace cute_cpp::models
