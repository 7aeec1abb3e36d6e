// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// One tile of the attention forward's work (fmha_sm90.cuh): a Q block of one head of one sequence
// and the key blocks its mask lets it see, derived alike by the producer and the consumers.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>

#include <cstdint>
#include <cstdio>

namespace cute_cpp::kernels {

/// One tile of attention work: a block of Q rows of one head of one sequence, and the key blocks
/// [n_begin, n_end) its mask lets it see. Producer and consumers derive it alike from the linear index.
struct FmhaTile {
  std::int32_t m_block = 0, head = 0, batch = 0;
  std::int32_t q_offset = 0, k_offset = 0;  ///< varlen: the sequence's first row in the packed tensors
  std::int32_t seq_q = 0, seq_k = 0;
  std::int32_t n_begin = 0, n_end = 0;
  bool valid = false;  ///< the Q block starts inside its sequence
  /// The keys [first, last) that query i sees (the causal / window band, within the sequence).
  CUTE_CPP_HD constexpr int2 visible_keys(FmhaParams const& p, std::int32_t i) const {
    std::int32_t const diagonal = i + seq_k - seq_q;
    std::int32_t const first = p.window_left >= 0 ? diagonal - p.window_left : 0;
    std::int32_t const last = p.window_right >= 0 ? min(seq_k, diagonal + p.window_right + 1) : seq_k;
    return {first, last};
  }
};

template <int BlockM, int BlockN>
__device__ __forceinline__ FmhaTile fmha_tile(FmhaParams const& p, std::int64_t linear) {
  FmhaTile t;
  AttentionTileCoord const c = p.order(std::uint32_t(linear));
  t.batch = c.batch;
  t.head = c.head;
  t.m_block = c.m_block;
  t.seq_q = p.seq_q;
  t.seq_k = p.seq_k;
  // Offsets and lengths from device arrays are clamped so that bad ones read nothing outside the
  // tensors (release builds); debug builds trap, naming them.
  [[maybe_unused]] auto const bad = [&](char const* what, std::int32_t lo, std::int32_t hi, std::int32_t of) {
#if !defined(NDEBUG)
    printf("cute-cpp [attention.cu-seqlens]: sequence %d: %s [%d, %d) of %d\n", t.batch, what, lo, hi, of);
    __trap();
#endif
  };
  if (p.varlen()) {
    std::int32_t const q0 = p.cu_seqlens_q[t.batch], q_end = p.cu_seqlens_q[t.batch + 1];
    if (q0 < 0 || q_end < q0 || q_end > p.total_q) bad("q offsets", q0, q_end, p.total_q);
    t.q_offset = max(0, min(q0, p.total_q));
    t.seq_q = max(0, min(q_end, p.total_q) - t.q_offset);
  }
  if (p.paged()) {
    std::int32_t const len = p.seqlens_k[t.batch], room = p.max_pages_per_seq * std::int32_t(p.page_div.divisor);
    if (len < 0 || len > room) bad("k length", 0, len, room);
    t.seq_k = max(0, min(len, room));
  } else if (p.cu_seqlens_k != nullptr) {
    std::int32_t const k0 = p.cu_seqlens_k[t.batch], k_end = p.cu_seqlens_k[t.batch + 1];
    if (k0 < 0 || k_end < k0 || k_end > p.total_k) bad("k offsets", k0, k_end, p.total_k);
    t.k_offset = max(0, min(k0, p.total_k));
    t.seq_k = max(0, min(k_end, p.total_k) - t.k_offset);
  }
  std::int32_t const m0 = t.m_block * BlockM;
  t.valid = m0 < t.seq_q;
  std::int32_t const last_row = min(m0 + BlockM, t.seq_q) - 1, shift = t.seq_k - t.seq_q;
  std::int32_t key_lo = 0, key_hi = t.seq_k;  // keys [key_lo, key_hi) any row of the block sees
  if (p.window_left >= 0) key_lo = max(0, m0 + shift - p.window_left);
  if (p.window_right >= 0) key_hi = min(key_hi, last_row + shift + p.window_right + 1);
  t.n_begin = key_lo / BlockN;
  t.n_end = key_hi > key_lo ? (key_hi + BlockN - 1) / BlockN : t.n_begin;
  return t;
}

}  // namespace cute_cpp::kernels
