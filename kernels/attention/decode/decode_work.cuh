// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Decode attention's work split (decode_sm90.cuh): which (sequence, kv head, query-row block,
// split) a CTA serves, its split's key blocks for the sequence's length, and the query rows of a
// kv head's block (token and q head), which every role of the kernel shares.
#include <cute_cpp/kernels/attention/decode/decode.hpp>  // DecodeParams

#include <cstdint>

namespace cute_cpp::kernels {

/// One CTA's work: its sequence, kv head, query-row block and split, the sequence's length and
/// the key blocks [n_begin, n_end) of its split.
struct DecodeWork {
  std::int32_t batch = 0, kv_head = 0, m_block = 0, split = 0;
  std::int32_t seq_k = 0, n_begin = 0, n_end = 0;
};

/// `w`'s split's key blocks for its sequence's w.seq_k keys. Each sequence's own blocks are cut
/// into p.splits runs of one length (the last ones shorter or empty): a short sequence in a launch
/// sized for max_seq_k (a CUDA graph's, recorded for the longest sequence it may meet) still
/// spreads over every split instead of filling the first.
template <int BlockN>
__device__ __forceinline__ void decode_split_range(DecodeParams const& p, DecodeWork& w) {
  std::int32_t const blocks = (w.seq_k + BlockN - 1) / BlockN;
  std::int32_t const per_split = (blocks + p.splits - 1) / p.splits;
  w.n_begin = min(blocks, w.split * per_split);
  w.n_end = min(blocks, w.n_begin + per_split);
}

/// Sets `w`'s sequence length (`seq_k`, as loaded: checked against the cache's room here, after
/// the kernel's barriers, so that its load is not waited on before them) and its split's blocks.
template <int BlockN>
__device__ __forceinline__ DecodeWork decode_split_keys(DecodeParams const& p, DecodeWork w, std::int32_t loaded) {
  std::int32_t const seq_k = p.seqlens_k != nullptr ? loaded : p.max_seq_k;
  std::int32_t const room = p.paged() ? p.max_pages_per_seq * std::int32_t(p.page_div.divisor) : p.max_seq_k;
  if (seq_k < 0 || seq_k > room) {
#if !defined(NDEBUG)
    printf("cute-cpp [attention.block-table]: sequence %d: k length %d outside 0..%d\n", w.batch, seq_k, room);
    __trap();
#endif
  }
  // Release builds clamp a bad length, so that it reads nothing outside the cache.
  w.seq_k = max(0, min(seq_k, room));
  decode_split_range<BlockN>(p, w);
  return w;
}

/// A CTA's coordinates from its index, and its split's keys as if the sequence were max_seq_k
/// keys long (decode_split_keys sets the real ones).
template <int BlockN>
__device__ __forceinline__ DecodeWork decode_work(DecodeParams const& p, std::uint32_t cta) {
  DecodeWork w;
  std::uint32_t rest = 0, m_block = 0, split = 0, batch = 0, kv_head = 0;
  // The splits are the fastest index: a cluster's CTAs (combine_in_cluster) are consecutive.
  p.splits_div.divmod(cta, rest, split);
  p.m_blocks_div.divmod(rest, rest, m_block);
  p.heads_kv_div.divmod(rest, batch, kv_head);
  w.batch = std::int32_t(batch);
  w.kv_head = std::int32_t(kv_head);
  w.m_block = std::int32_t(m_block);
  w.split = std::int32_t(split);
  w.seq_k = p.max_seq_k;  // checked on the host: max_seq_k fits the cache
  decode_split_range<BlockN>(p, w);
  return w;
}

/// Sequence `batch`'s key length as loaded (0 without seqlens_k: decode_split_keys takes max_seq_k
/// then, and checks it; selected there, a load in flight is not waited on before the barriers).
__device__ __forceinline__ std::int32_t decode_seq_k(DecodeParams const& p, std::int32_t batch) {
  std::int32_t len = 0;
  if (p.seqlens_k != nullptr) len = p.seqlens_k[batch];
  return len;
}
/// The query row `row` (0 .. rows) of a kv head's block: its token and q head.
struct DecodeRow {
  std::int32_t token, head;
};
__device__ __forceinline__ DecodeRow decode_row(DecodeParams const& p, DecodeWork const& w, std::int32_t row) {
  return {row / p.group, w.kv_head * p.group + row % p.group};
}
}  // namespace cute_cpp::kernels
