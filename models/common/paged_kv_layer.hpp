// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/paged_kv_layer.hpp: one layer's paged KV cache as kernels/attention's append and
// decode kernels take it, so that each decoder (Qwen3, Nemotron-H's attention layers, Qwen3-TTS's
// talker and code predictor) fills their argument blocks the same way: a cache of pages of
// `page_size` token slots, each slot heads_kv x head_dim values, K and V in separate pools, and new
// K and V read from the rows of a fused QKV activation.
#include <cute_cpp/kernels/attention/decode/decode.hpp>  // DecodeArguments, KvAppendArguments

#include <cuda_bf16.h>

#include <cstdint>

namespace cute_cpp::models {

/// One layer's K and V pages and their shape (the block table and lengths are the caller's).
struct PagedKvLayer {
  __nv_bfloat16* k = nullptr;  ///< [num_pages, page_size, heads_kv, head_dim]
  __nv_bfloat16* v = nullptr;
  int heads_kv = 0, head_dim = 0;
  int page_size = 0, max_pages_per_seq = 0, num_pages = 0;

  /// A page, a token slot and a head apart.
  [[nodiscard]] AttentionStrides stride() const noexcept {
    return {std::int64_t(page_size) * heads_kv * head_dim, std::int64_t(heads_kv) * head_dim, head_dim};
  }

  /// The append's arguments for new K and V rows `row_stride` elements apart (a QKV activation's
  /// row); the caller sets k_new, v_new, batch, q_tokens, seqlens_k and block_table.
  [[nodiscard]] kernels::KvAppendArguments<__nv_bfloat16> append(std::int64_t row_stride) const noexcept {
    kernels::KvAppendArguments<__nv_bfloat16> a;
    a.k_new_stride = a.v_new_stride = {row_stride, row_stride, head_dim};
    a.k = k, a.v = v, a.k_stride = a.v_stride = stride();
    a.heads_kv = heads_kv, a.head_dim = a.head_dim_v = head_dim;
    a.page_size = page_size, a.max_pages_per_seq = max_pages_per_seq, a.num_pages = num_pages;
    return a;
  }

  /// Causal decode attention of one new token a sequence: q and o rows of `heads_q` heads, q's rows
  /// `q_row_stride` elements apart (a QKV activation's), o's packed; the caller adds the host copies
  /// of lengths and table where it has them, and the workspace.
  [[nodiscard]] kernels::DecodeArguments<__nv_bfloat16> decode(__nv_bfloat16 const* q, std::int64_t q_row_stride,
                                                               __nv_bfloat16* o, int heads_q, int batch,
                                                               std::int32_t const* seqlens, int max_seq_k,
                                                               std::int32_t const* block_table) const noexcept {
    std::int64_t const o_row = std::int64_t(heads_q) * head_dim;
    kernels::DecodeArguments<__nv_bfloat16> a;
    a.q = q, a.k = k, a.v = v, a.o = o;
    a.q_stride = {q_row_stride, q_row_stride, head_dim}, a.o_stride = {o_row, o_row, head_dim};
    a.k_stride = a.v_stride = stride();
    a.batch = batch, a.q_tokens = 1, a.heads_q = heads_q, a.heads_kv = heads_kv;
    a.head_dim = a.head_dim_v = head_dim, a.causal = true;
    a.seqlens_k = seqlens, a.max_seq_k = max_seq_k, a.block_table = block_table;
    a.page_size = page_size, a.max_pages_per_seq = max_pages_per_seq, a.num_pages = num_pages;
    return a;
  }
};

}  // namespace cute_cpp::models
