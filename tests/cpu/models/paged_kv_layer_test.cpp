// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/common/paged_kv_layer.hpp: the append and decode arguments a decoder's paged KV cache layer
// gives the attention kernels, field by field (the values the three decoders filled by hand before).
#include "models/common/paged_kv_layer.hpp"

#include <gtest/gtest.h>

namespace {

using cute_cpp::models::PagedKvLayer;
using bf16 = __nv_bfloat16;

TEST(PagedKvLayer, AppendAndDecodeArgumentsFromOneLayer) {
  bf16 k[1], v[1], q[1], o[1];
  std::int32_t lengths[1], table[1];
  // Qwen3-8B's layer: 8 kv heads of 128, pages of 64 tokens, 40 a sequence, 1025 in the pool; the new
  // rows are the fused QKV activation's (32 + 2 x 8 heads of 128 = 6144 elements apart).
  PagedKvLayer const cache{k, v, 8, 128, 64, 40, 1025};
  auto const page = cache.stride();
  EXPECT_EQ(page.batch, 64 * 8 * 128);
  EXPECT_EQ(page.seq, 8 * 128);
  EXPECT_EQ(page.head, 128);

  auto const a = cache.append(6144);
  EXPECT_EQ(a.k, k);
  EXPECT_EQ(a.v, v);
  EXPECT_EQ(a.k_new_stride.seq, 6144);
  EXPECT_EQ(a.v_new_stride.batch, 6144);
  EXPECT_EQ(a.k_new_stride.head, 128);
  EXPECT_EQ(a.k_stride.batch, page.batch);
  EXPECT_EQ(a.v_stride.seq, page.seq);
  EXPECT_EQ(a.heads_kv, 8);
  EXPECT_EQ(a.head_dim, 128);
  EXPECT_EQ(a.head_dim_v, 128);
  EXPECT_EQ(a.page_size, 64);
  EXPECT_EQ(a.max_pages_per_seq, 40);
  EXPECT_EQ(a.num_pages, 1025);

  auto const d = cache.decode(q, 6144, o, 32, 3, lengths, 500, table);
  EXPECT_EQ(d.q, q);
  EXPECT_EQ(d.o, o);
  EXPECT_EQ(d.k, k);
  EXPECT_EQ(d.v, v);
  EXPECT_EQ(d.q_stride.batch, 6144);
  EXPECT_EQ(d.q_stride.seq, 6144);
  EXPECT_EQ(d.q_stride.head, 128);
  EXPECT_EQ(d.o_stride.batch, 32 * 128);  // o packed: heads_q x head_dim a row
  EXPECT_EQ(d.o_stride.seq, 32 * 128);
  EXPECT_EQ(d.k_stride.batch, page.batch);
  EXPECT_EQ(d.batch, 3);
  EXPECT_EQ(d.q_tokens, 1);
  EXPECT_EQ(d.heads_q, 32);
  EXPECT_EQ(d.heads_kv, 8);
  EXPECT_EQ(d.head_dim_v, 128);
  EXPECT_TRUE(d.causal);
  EXPECT_EQ(d.seqlens_k, lengths);
  EXPECT_EQ(d.max_seq_k, 500);
  EXPECT_EQ(d.block_table, table);
  EXPECT_EQ(d.page_size, 64);
  EXPECT_EQ(d.num_pages, 1025);
  EXPECT_EQ(d.seqlens_k_host, nullptr);  // the caller's, where it has them
  EXPECT_EQ(d.workspace, nullptr);
}

}  // namespace
