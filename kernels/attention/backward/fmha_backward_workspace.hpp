// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's float workspace, host and device arithmetic only (no CUDA needed, so
// the CPU tests check it): each sequence's query rows padded to whole 64-row blocks, per q head:
//   lse_log2 [heads_q, rows]   the forward's LSE times log2(e); +inf in a block's rows past the sequence
//   delta    [heads_q, rows]   D = rowsum(dO ∘ O); 0 past the sequence
//   dq       [heads_q, rows, head_dim]   dQ summed over the key blocks in float
//   sem      [heads_q, rows / 64]        deterministic mode: the key blocks done with each query block
// Sequence b's rows start at padded_start(b): b * round_up(seq_q, 64), or varlen
// 64 * (cu_seqlens_q[b] / 64 + b), which keeps every sequence's blocks apart and 64-row aligned.
#include <cute_cpp/config.hpp>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// Query rows a step of the backward takes (and the padding unit of the workspace).
inline constexpr int fmha_backward_block_m = 64;

/// Where each part of the workspace lies (bytes from its start; each part 256-byte aligned).
struct FmhaBackwardWorkspace {
  std::int64_t rows = 0;  ///< padded query rows per q head
  int head_dim = 0;
  bool varlen = false;
  std::int32_t seq_q_padded = 0;  ///< fixed length: round_up(seq_q, 64)
  std::size_t lse_offset = 0, delta_offset = 0, dq_offset = 0, sem_offset = 0, bytes = 0;

  /// The first padded row of sequence b (varlen: from its first packed row cu_q_b).
  [[nodiscard]] CUTE_CPP_HD constexpr std::int64_t padded_start(std::int32_t b, std::int32_t cu_q_b) const {
    return varlen ? std::int64_t(fmha_backward_block_m) * (cu_q_b / fmha_backward_block_m + b)
                  : std::int64_t(b) * seq_q_padded;
  }
};

/// The workspace of a backward call: batch sequences of seq_q rows (varlen: total_q packed rows),
/// heads_q heads of head_dim; semaphores only in deterministic mode.
///   fmha_backward_workspace(2, 100, 4, 128, 0, false, false): rows 256, bytes 4 x 256 x 4 x 2 + 4 x 256 x 128 x 4
[[nodiscard]] CUTE_CPP_HD constexpr FmhaBackwardWorkspace fmha_backward_workspace(int batch, int seq_q, int heads_q,
                                                                               int head_dim, std::int64_t total_q,
                                                                               bool varlen, bool deterministic) {
  constexpr std::int64_t bm = fmha_backward_block_m;
  auto const align = [](std::size_t x) { return (x + 255) / 256 * 256; };
  FmhaBackwardWorkspace w;
  w.head_dim = head_dim;
  w.varlen = varlen;
  w.seq_q_padded = std::int32_t((seq_q + bm - 1) / bm * bm);
  w.rows = varlen ? bm * ((total_q + bm - 1) / bm + batch) : std::int64_t(batch) * w.seq_q_padded;
  std::size_t const per_head = std::size_t(heads_q) * std::size_t(w.rows);
  w.lse_offset = 0;
  w.delta_offset = align(per_head * sizeof(float));
  w.dq_offset = w.delta_offset + align(per_head * sizeof(float));
  w.sem_offset = w.dq_offset + align(per_head * std::size_t(head_dim) * sizeof(float));
  w.bytes = w.sem_offset + (deterministic ? align(per_head / bm * sizeof(std::uint32_t)) : 0);
  return w;
}

/// The query blocks [first, last) that key block n_block (of block_n keys) meets: all of the
/// sequence's, or under a causal mask (bottom-right aligned) those with a row at or after the
/// block's first key's diagonal.
struct FmhaBackwardQueryBlocks {
  std::int32_t first = 0, last = 0;
};
[[nodiscard]] CUTE_CPP_HD constexpr FmhaBackwardQueryBlocks fmha_backward_query_blocks(std::int32_t n_block,
                                                                                     int block_n, std::int32_t seq_q,
                                                                                     std::int32_t seq_k, bool causal) {
  std::int32_t const bm = fmha_backward_block_m;
  std::int32_t const last = (seq_q + bm - 1) / bm;
  std::int32_t first = 0;
  if (causal) {
    std::int32_t const row = n_block * block_n - (seq_k - seq_q);  // the first query that sees the block's first key
    first = row > 0 ? row / bm : 0;
  }
  return {first < last ? first : last, last};
}

}  // namespace cute_cpp::kernels
