// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// One CTA's work in the attention backward (fmha_backward_sm90.cuh): a key block of one kv head of
// one sequence, and the query blocks it meets, derived alike by the producer and the consumers.
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>

#include <cstdint>
#include <cstdio>

namespace cute_cpp::kernels {

/// A CTA's key block (blockIdx.x) of kv head blockIdx.y of sequence blockIdx.z, and its query
/// blocks [m_begin, m_end) for each q head of the group.
struct FmhaBackwardTile {
  std::int32_t n_block = 0, kv_head = 0, batch = 0;
  std::int32_t q_offset = 0, k_offset = 0;  ///< varlen: the sequence's first row in the packed tensors
  std::int32_t seq_q = 0, seq_k = 0;
  std::int64_t pad_q = 0;  ///< the sequence's first row in the workspace
  std::int32_t m_begin = 0, m_end = 0;
  bool valid = false;  ///< the key block starts inside its sequence
};

template <int BlockN>
__device__ __forceinline__ FmhaBackwardTile fmha_backward_tile(FmhaBackwardParams const& p) {
  FmhaBackwardTile t;
  t.n_block = std::int32_t(blockIdx.x);
  t.kv_head = std::int32_t(blockIdx.y);
  t.batch = std::int32_t(blockIdx.z);
  t.seq_q = p.seq_q;
  t.seq_k = p.seq_k;
  std::int32_t cu_q = 0;
  if (p.varlen()) {
    // Offsets from device arrays are clamped so that bad ones read nothing outside the tensors
    // (release builds); debug builds trap, naming them.
    std::int32_t const q0 = p.cu_seqlens_q[t.batch], q_end = p.cu_seqlens_q[t.batch + 1];
    std::int32_t const k0 = p.cu_seqlens_k[t.batch], k_end = p.cu_seqlens_k[t.batch + 1];
#if !defined(NDEBUG)
    if (q0 < 0 || q_end < q0 || q_end > p.total_q || k0 < 0 || k_end < k0 || k_end > p.total_k) {
      printf("cute-cpp [attention.cu-seqlens]: sequence %d: q [%d, %d) of %d, k [%d, %d) of %d\n", t.batch, q0, q_end,
             p.total_q, k0, k_end, p.total_k);
      __trap();
    }
#endif
    t.q_offset = max(0, min(q0, p.total_q));
    t.seq_q = max(0, min(q_end, p.total_q) - t.q_offset);
    t.k_offset = max(0, min(k0, p.total_k));
    t.seq_k = max(0, min(k_end, p.total_k) - t.k_offset);
    cu_q = t.q_offset;
  }
  t.pad_q = p.ws.padded_start(t.batch, cu_q);
  t.valid = t.n_block * BlockN < t.seq_k;
  FmhaBackwardQueryBlocks const m = fmha_backward_query_blocks(t.n_block, BlockN, t.seq_q, t.seq_k, p.causal);
  t.m_begin = m.first;
  t.m_end = m.last;
  return t;
}

}  // namespace cute_cpp::kernels
