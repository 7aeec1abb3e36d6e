// SPDX-License-Identifier: Apache-2.0
// models/qwen3/tensor_parallel: the shard plan at the published configs (Qwen3-0.6B, 8B, 32B,
// 30B-A3B; shared/models) for N = 1, 2, 4, 8 (and 16 where the heads allow): the owned shards
// partition every checkpoint tensor and add up to the manifest's bytes, each rank's buffers are
// written exactly once, each rank's q heads find their kv heads; every tp.* error; the decode step's
// traffic against bench_qwen3.py's arithmetic; and a tiny checkpoint loaded shard by shard with
// read_slice into each rank's buffers (read_rank_buffer, the rank loader's host part), against the packed
// weights cut by their definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "models/qwen3/tensor_parallel.hpp"
#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;

namespace {

// ---- the published configs (shared/models/qwen3-*.json), the fields the plan reads ----

cm::Qwen3Config dense(std::int64_t hidden, std::int64_t inter, std::int64_t layers, std::int64_t heads, std::int64_t kv,
                      bool tied) {
  cm::Qwen3Config c;
  c.model_type = "qwen3", c.torch_dtype = "bfloat16";
  c.hidden_size = hidden, c.intermediate_size = inter, c.num_hidden_layers = layers;
  c.num_attention_heads = heads, c.num_key_value_heads = kv, c.head_dim = 128, c.vocab_size = 151936;
  c.tie_word_embeddings = tied;
  return c;
}
cm::Qwen3Config qwen3_0_6b() { return dense(1024, 3072, 28, 16, 8, true); }
cm::Qwen3Config qwen3_8b() { return dense(4096, 12288, 36, 32, 8, false); }
cm::Qwen3Config qwen3_32b() { return dense(5120, 25600, 64, 64, 8, false); }
cm::Qwen3Config qwen3_30b_a3b() {
  auto c = dense(2048, 6144, 48, 32, 4, false);
  c.model_type = "qwen3_moe";
  c.moe = cm::Qwen3MoeConfig{.num_experts = 128,
                             .num_experts_per_tok = 8,
                             .moe_intermediate_size = 768,
                             .norm_topk_prob = true,
                             .decoder_sparse_step = 1,
                             .mlp_only_layers = {}};
  return c;
}

struct Named {
  const char* name;
  cm::Qwen3Config config;
};
std::vector<Named> published() {
  return {{"Qwen3-0.6B", qwen3_0_6b()},
          {"Qwen3-8B", qwen3_8b()},
          {"Qwen3-32B", qwen3_32b()},
          {"Qwen3-30B-A3B", qwen3_30b_a3b()}};
}

std::vector<cm::ShardPlan> plans(const cm::Qwen3WeightManifest& m, int n) {
  std::vector<cm::ShardPlan> out;
  for (int r = 0; r < n; ++r) out.emplace_back(m, n, r, n);
  return out;
}

/// Rows x columns rectangles of the tensor's matrix view, one per row range of the slice.
struct Rect {
  std::int64_t r0, r1, c0, c1;
};
bool overlap(const Rect& a, const Rect& b) { return a.r0 < b.r1 && b.r0 < a.r1 && a.c0 < b.c1 && b.c0 < a.c1; }

/// Every tensor's owned shards over the ranks are disjoint and inside it, and cover it (their areas
/// add up to its size); replicas are copies of an owned shard; the owned bytes add up to the manifest's.
void expect_partition(const cm::Qwen3WeightManifest& m, const std::vector<cm::ShardPlan>& ranks) {
  std::map<std::string, std::vector<Rect>> owned;
  std::map<std::string, std::vector<cm::TensorSlice>> owned_slices;
  std::uint64_t owned_bytes = 0;
  for (auto const& p : ranks)
    for (auto const& s : p.shards())
      if (s.owner) {
        owned_bytes += s.bytes;
        owned_slices[s.tensor].push_back(s.slice);
        for (auto const& r : s.slice.rows)
          owned[s.tensor].push_back({r.begin, r.end, s.slice.col_begin, s.slice.col_end});
      }
  EXPECT_EQ(owned_bytes, m.total_bytes());
  ASSERT_EQ(owned.size(), m.tensors().size());
  for (auto const& t : m.tensors()) {
    SCOPED_TRACE(t.name);
    auto const [rows, cols] = cm::matrix_extents(t.shape);
    auto const& rects = owned.at(t.name);
    std::int64_t area = 0;
    for (std::size_t i = 0; i < rects.size(); ++i) {
      auto const& a = rects[i];
      ASSERT_TRUE(0 <= a.r0 && a.r0 < a.r1 && a.r1 <= rows && 0 <= a.c0 && a.c0 < a.c1 && a.c1 <= cols);
      area += (a.r1 - a.r0) * (a.c1 - a.c0);
      for (std::size_t j = 0; j < i; ++j) ASSERT_FALSE(overlap(a, rects[j])) << "pieces " << i << " and " << j;
    }
    EXPECT_EQ(area, rows * cols);
  }
  for (auto const& p : ranks)
    for (auto const& s : p.shards())
      if (!s.owner) {
        auto const& o = owned_slices.at(s.tensor);
        EXPECT_NE(std::find(o.begin(), o.end(), s.slice), o.end()) << s.tensor << " on rank " << p.rank();
      }
}

/// Each buffer's bytes [0, filled_bytes) are written exactly once by its shards' blocks, and only a
/// vocabulary buffer has bytes past them (its padding rows).
void expect_buffers_covered(const cm::ShardPlan& p) {
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> spans;
  for (auto const& s : p.shards())
    for (std::uint64_t b = 0; b * s.block < s.bytes; ++b)
      spans[s.buffer].emplace_back(s.dst_offset + b * s.dst_pitch,
                                   s.dst_offset + b * s.dst_pitch + std::min(s.block, s.bytes - b * s.block));
  ASSERT_EQ(spans.size(), p.buffers().size());
  for (auto const& buf : p.buffers()) {
    SCOPED_TRACE(buf.name);
    auto& v = spans.at(buf.name);
    std::sort(v.begin(), v.end());
    std::uint64_t at = 0;
    for (auto const& [b, e] : v) {
      ASSERT_EQ(b, at);
      at = e;
    }
    EXPECT_EQ(at, buf.filled_bytes);
    bool const vocab = buf.name == "embed" || buf.name == "lm_head";
    // A vocabulary buffer's padding: the rows past the rank's vocabulary, zeros.
    auto const padding = vocab ? std::uint64_t(p.vocab_rows() - (p.vocab_end() - p.vocab_begin())) *
                                     std::uint64_t(p.config().hidden_size) * 2
                               : 0;
    EXPECT_EQ(buf.bytes - buf.filled_bytes, padding);
  }
}

}  // namespace

TEST(TensorParallel, ShardsPartitionEveryTensorOfThePublishedConfigs) {
  for (auto const& [name, config] : published()) {
    cm::Qwen3WeightManifest const m(config);
    for (int n : {1, 2, 4, 8}) {
      SCOPED_TRACE(std::string(name) + " N=" + std::to_string(n));
      auto const ranks = plans(m, n);
      expect_partition(m, ranks);
      for (auto const& p : ranks) expect_buffers_covered(p);
    }
  }
}

TEST(TensorParallel, EachRanksQHeadsFindTheirKvHeads) {
  // A rank's attention runs the single-device kernel on its heads: local kv head = local q head /
  // (q_heads / kv_heads) must be global q head / (heads / kv_heads), less kv_head_begin.
  for (auto const& [name, config] : published())
    for (int n : {1, 2, 4, 8, 16}) {
      if (config.num_attention_heads % n != 0) continue;
      SCOPED_TRACE(std::string(name) + " N=" + std::to_string(n));
      cm::Qwen3WeightManifest const m(config);
      auto const group = config.num_attention_heads / config.num_key_value_heads;
      for (auto const& p : plans(m, n)) {
        ASSERT_EQ(p.q_heads() % p.kv_heads(), 0);
        for (std::int64_t h = 0; h < p.q_heads(); ++h)
          EXPECT_EQ(h / (p.q_heads() / p.kv_heads()), (p.q_head_begin() + h) / group - p.kv_head_begin());
      }
    }
}

TEST(TensorParallel, Qwen3_8bShapes) {
  cm::Qwen3WeightManifest const m(qwen3_8b());
  cm::ShardPlan const p(m, 4, 1, 8);
  EXPECT_EQ(p.q_heads(), 8);
  EXPECT_EQ(p.q_head_begin(), 8);
  EXPECT_EQ(p.kv_heads(), 2);
  EXPECT_EQ(p.kv_head_begin(), 2);
  EXPECT_EQ(p.kv_replicas(), 1);
  EXPECT_EQ(p.intermediate(), 3072);
  EXPECT_EQ(p.find_buffer("layers.0.qkv")->shape, (std::vector<std::int64_t>{(8 + 2 * 2) * 128, 4096}));
  EXPECT_EQ(p.find_buffer("layers.35.o")->shape, (std::vector<std::int64_t>{4096, 1024}));
  EXPECT_EQ(p.find_buffer("layers.0.gate_up")->shape, (std::vector<std::int64_t>{6144, 4096}));
  EXPECT_EQ(p.find_buffer("layers.0.down")->shape, (std::vector<std::int64_t>{4096, 3072}));
  EXPECT_EQ(p.find_buffer("lm_head")->shape, (std::vector<std::int64_t>{37984, 4096}));
  EXPECT_EQ(p.vocab_begin(), 37984);
  EXPECT_EQ(p.find_buffer("layers.0.router"), nullptr);
  // N = 8: one kv head each, split; N = 16: two q heads each, every kv head on two devices.
  cm::ShardPlan const p8(m, 8, 5, 8);
  EXPECT_EQ(p8.kv_heads(), 1);
  EXPECT_EQ(p8.kv_head_begin(), 5);
  EXPECT_EQ(p8.kv_replicas(), 1);
  cm::ShardPlan const p16(m, 16, 5, 16);
  EXPECT_EQ(p16.q_heads(), 2);
  EXPECT_EQ(p16.kv_heads(), 1);
  EXPECT_EQ(p16.kv_head_begin(), 2);  // q heads 10, 11 use kv head 10 / 4
  EXPECT_EQ(p16.kv_replicas(), 2);
  auto const ranks = plans(m, 16);
  expect_partition(m, ranks);
  for (auto const& r : ranks) expect_buffers_covered(r);
}

TEST(TensorParallel, Qwen3_30bA3bExpertsAndReplicatedKvHeads) {
  cm::Qwen3WeightManifest const m(qwen3_30b_a3b());
  cm::ShardPlan const p(m, 8, 3, 8);
  EXPECT_EQ(p.experts(), 16);
  EXPECT_EQ(p.expert_begin(), 48);
  EXPECT_EQ(p.kv_heads(), 1);
  EXPECT_EQ(p.kv_replicas(), 2);  // 4 kv heads over 8 devices
  EXPECT_EQ(p.kv_head_begin(), 1);
  EXPECT_EQ(p.find_buffer("layers.7.experts_gate_up")->shape, (std::vector<std::int64_t>{16, 1536, 2048}));
  EXPECT_EQ(p.find_buffer("layers.7.experts_down")->shape, (std::vector<std::int64_t>{16, 2048, 768}));
  EXPECT_EQ(p.find_buffer("layers.7.router")->shape, (std::vector<std::int64_t>{128, 2048}));
  EXPECT_EQ(p.find_buffer("layers.7.gate_up"), nullptr);
  std::int64_t experts = 0;
  for (auto const& s : p.shards())
    if (s.tensor.starts_with("model.layers.7.mlp.experts.") && s.tensor.ends_with("down_proj.weight")) ++experts;
  EXPECT_EQ(experts, 16);
  EXPECT_NE(std::find_if(p.shards().begin(), p.shards().end(),
                         [](auto const& s) { return s.tensor == "model.layers.7.mlp.experts.63.up_proj.weight"; }),
            p.shards().end());
  // Qwen3-0.6B (tied): the embedding serves as the LM head, split by vocabulary; no lm_head buffer.
  cm::ShardPlan const tied(cm::Qwen3WeightManifest(qwen3_0_6b()), 16, 15, 16);
  EXPECT_EQ(tied.find_buffer("lm_head"), nullptr);
  EXPECT_EQ(tied.find_buffer("embed")->shape, (std::vector<std::int64_t>{9496, 1024}));
  EXPECT_EQ(tied.kv_replicas(), 2);
}

TEST(TensorParallel, BadDeviceCountsAreRefusedWithTheValues) {
  cm::Qwen3WeightManifest const m8(qwen3_8b());
  auto const plan = [](cm::Qwen3Config c, int n, int rank, int gpus) {
    return [c, n, rank, gpus] { cm::ShardPlan(cm::Qwen3WeightManifest(c), n, rank, gpus); };
  };
  expect_load_error(plan(qwen3_8b(), 0, 0, 8), "[tp.ranks]", "--tensor-parallel 0: expected 1 or more");
  expect_load_error(plan(qwen3_8b(), 4, 4, 8), "[tp.rank]", "rank 4 is outside 0 .. 3");
  expect_load_error(plan(qwen3_8b(), 8, 0, 4), "[tp.gpus]",
                    "--tensor-parallel 8: 4 GPUs present (counts that split this model here: 1, 2, 4)");
  expect_load_error(plan(qwen3_8b(), 3, 0, 8), "[tp.q-heads]",
                    "--tensor-parallel 3: num_attention_heads 32 is not a multiple of 3 (counts that split this model "
                    "on the 8 GPUs present: 1, 2, 4, 8)");
  expect_load_error(plan(qwen3_8b(), 64, 0, 64), "[tp.q-heads]", "num_attention_heads 32 is not a multiple of 64");
  auto odd = dense(1536, 96, 2, 12, 4, false);  // 12 heads over 6 devices: 2 each, but 4 kv heads
  expect_load_error(plan(odd, 6, 0, 8), "[tp.kv-heads]",
                    "num_key_value_heads 4 and 6 devices: neither divides the other");
  auto narrow = qwen3_8b();
  narrow.intermediate_size = 12296;  // 6148 per device: not a multiple of 8
  expect_load_error(plan(narrow, 2, 0, 8), "[tp.intermediate]",
                    "intermediate_size 12296 over 2 devices is not a whole multiple of 8 each");
  auto moe = qwen3_30b_a3b();
  moe.intermediate_size = 6145;  // no dense layer: intermediate_size is not split
  EXPECT_NO_THROW(cm::ShardPlan(cm::Qwen3WeightManifest(moe), 2, 0, 2));
  moe.moe->num_experts = 12;
  expect_load_error(plan(moe, 8, 0, 8), "[tp.experts]", "num_experts 12 is not a multiple of 8");
  auto tiny_vocab = qwen3_8b();
  tiny_vocab.vocab_size = 9;
  expect_load_error(plan(tiny_vocab, 4, 0, 4), "[tp.vocab]",
                    "vocab_size 9 in rows of 3 leaves the last of 4 devices none");
  expect_load_error([&] { (void)cm::decode_step_traffic(cm::ShardPlan(m8, 1, 0, 1), 0); }, "[tp.batch]", "batch 0");
}

// cute-cpp-qwen3's --tensor-parallel checks: the split rules on any machine (listing the counts of up to
// 8 GPUs), then the GPUs present; the same rules ShardPlan applies.
TEST(TensorParallel, TheOptionsRulesBeforeAnyGpuWork) {
  for (std::int64_t n : {1, 2, 4, 8, 16}) EXPECT_NO_THROW(cm::check_tensor_parallel(qwen3_8b(), n)) << n;
  expect_load_error([] { cm::check_tensor_parallel(qwen3_8b(), 0); }, "[tp.ranks]",
                    "--tensor-parallel 0: expected 1 or more");
  expect_load_error([] { cm::check_tensor_parallel(qwen3_8b(), 3); }, "[tp.q-heads]",
                    "--tensor-parallel 3: num_attention_heads 32 is not a multiple of 3 (counts of up to 8 GPUs that "
                    "split this model: 1, 2, 4, 8)");
  expect_load_error([] { cm::check_tensor_parallel(qwen3_8b(), std::int64_t{1} << 40); }, "[tp.q-heads]",
                    "num_attention_heads 32 is not a multiple of 1099511627776");
  auto odd = dense(1536, 96, 2, 12, 4, false);
  expect_load_error([&] { cm::check_tensor_parallel(odd, 6); }, "[tp.kv-heads]",
                    "(counts of up to 8 GPUs that split this model: 1, 2, 4)");
  auto moe = qwen3_30b_a3b();
  moe.moe->num_experts = 12;
  expect_load_error([&] { cm::check_tensor_parallel(moe, 8); }, "[tp.experts]",
                    "num_experts 12 is not a multiple of 8");
  EXPECT_NO_THROW(cm::check_tensor_parallel_gpus(qwen3_8b(), 8, 8));
  expect_load_error([] { cm::check_tensor_parallel_gpus(qwen3_8b(), 2, 1); }, "[tp.gpus]",
                    "--tensor-parallel 2: 1 GPU present (counts that split this model here: 1)");
  expect_load_error([] { cm::check_tensor_parallel_gpus(qwen3_8b(), 2, 0); }, "[tp.gpus]",
                    "0 GPUs present (counts that split this model here: none)");
}

namespace {
/// bench_qwen3.py's weight_bytes_per_token and moe_weight_bytes_per_step, divided by N where the
/// plan splits (every extent here divides): the limit a benchmark prints.
double expected_weight_bytes(const cm::Qwen3Config& c, int n, std::int64_t batch, std::int64_t kv_heads_per_rank) {
  double const hidden = double(c.hidden_size), d = double(c.head_dim);
  double const q = double(c.num_attention_heads) * d / n, kv = double(kv_heads_per_rank) * d;
  double total = 0;
  for (std::int64_t l = 0; l < c.num_hidden_layers; ++l) {
    total += hidden * (q + 2 * kv) + q * hidden + 2 * hidden + 2 * d;
    if (c.moe && c.moe->sparse_layer(l)) {
      double const e = double(c.moe->num_experts), k = double(c.moe->num_experts_per_tok);
      total += e * hidden +
               e / n * (1 - std::pow(1 - k / e, double(batch))) * 3 * double(c.moe->moe_intermediate_size) * hidden;
    } else {
      total += 3 * double(c.intermediate_size) / n * hidden;
    }
  }
  return 2 * (total + hidden + double(c.vocab_size) / n * hidden + double(batch) * hidden);
}
}  // namespace

TEST(TensorParallel, DecodeStepTraffic) {
  cm::Qwen3WeightManifest const m8(qwen3_8b());
  auto const one = cm::decode_step_traffic(cm::ShardPlan(m8, 1, 0, 1), 1);
  EXPECT_NEAR(one.weight_bytes, expected_weight_bytes(qwen3_8b(), 1, 1, 8), 1e-9 * one.weight_bytes);
  // The checkpoint's bytes (the index's total_size) less the embedding's rows but the token's.
  EXPECT_DOUBLE_EQ(one.weight_bytes, 16381470720.0 - 151936.0 * 4096 * 2 + 4096 * 2);
  EXPECT_EQ(one.allreduces, 0);
  EXPECT_EQ(one.gather_wire_bytes, 0u);

  auto const four = cm::decode_step_traffic(cm::ShardPlan(m8, 4, 0, 4), 1);
  EXPECT_NEAR(four.weight_bytes, expected_weight_bytes(qwen3_8b(), 4, 1, 2), 1e-9 * four.weight_bytes);
  EXPECT_EQ(four.allreduces, 2 * 36 + 1);
  EXPECT_EQ(four.allreduce_bytes, 4096u * 2u);
  EXPECT_DOUBLE_EQ(four.allreduce_wire_bytes, 73.0 * 8192 * 2 * 3 / 4);
  EXPECT_EQ(four.gather_wire_bytes, 3u * 37984u * 2u);

  auto const moe = qwen3_30b_a3b();
  cm::Qwen3WeightManifest const m30(moe);
  auto const m1 = cm::decode_step_traffic(cm::ShardPlan(m30, 1, 0, 1), 8);
  EXPECT_NEAR(m1.weight_bytes, expected_weight_bytes(moe, 1, 8, 4), 1e-9 * m1.weight_bytes);
  EXPECT_NEAR(m1.weight_bytes / 1e9, 25.8, 0.05);  // the README's 25.8 GB a step at batch 8
  auto const m8r = cm::decode_step_traffic(cm::ShardPlan(m30, 8, 0, 8), 8);
  EXPECT_NEAR(m8r.weight_bytes, expected_weight_bytes(moe, 8, 8, 1), 1e-9 * m8r.weight_bytes);
  EXPECT_EQ(m8r.allreduce_bytes, 8u * 2048u * 2u);

  cm::DecodeStepTraffic t;
  t.weight_bytes = 1e9, t.allreduces = 2, t.allreduce_wire_bytes = 1e6, t.gather_wire_bytes = 1000000;
  EXPECT_DOUBLE_EQ(cm::decode_step_seconds_bound(t, 1e12, 1e11, 1e-5), 1e-3 + 2e-5 + 3e-5);
}

// ---- a tiny checkpoint loaded shard by shard ----

namespace {

/// 2 layers (layer 1 dense, layer 0 MoE when `moe`), hidden 16, 4 heads of 8, 2 kv heads,
/// intermediate 32, vocab 10 (4 devices: 3, 3, 3 and 1 rows), 4 experts of width 8.
cm::Qwen3Config tiny(bool moe, bool tied) {
  cm::Qwen3Config c;
  c.model_type = moe ? "qwen3_moe" : "qwen3", c.torch_dtype = "bfloat16";
  c.hidden_size = 16, c.intermediate_size = 32, c.num_hidden_layers = 2, c.num_attention_heads = 4;
  c.num_key_value_heads = 2, c.head_dim = 8, c.vocab_size = 10, c.tie_word_embeddings = tied;
  if (moe)
    c.moe = cm::Qwen3MoeConfig{.num_experts = 4,
                               .num_experts_per_tok = 2,
                               .moe_intermediate_size = 8,
                               .norm_topk_prob = true,
                               .decoder_sparse_step = 1,
                               .mlp_only_layers = {1}};
  return c;
}

using Bytes = std::vector<std::byte>;

/// Row i of `t`'s matrix view, columns [c0, c1).
Bytes row(const cm::TensorInfo& t, std::int64_t i, std::int64_t c0, std::int64_t c1) {
  auto const cols = cm::matrix_extents(t.shape)[1];
  auto const* p = t.data + 2 * (i * cols + c0);
  return Bytes(p, p + 2 * (c1 - c0));
}
Bytes rows(const cm::TensorInfo& t, std::int64_t r0, std::int64_t r1) {
  return Bytes(t.data + t.bytes() / std::uint64_t(t.shape[0]) * std::uint64_t(r0),
               t.data + t.bytes() / std::uint64_t(t.shape[0]) * std::uint64_t(r1));
}
void append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }

/// Gate rows [f0, f0 + f) and up's, interleaved as the SwiGLU epilogue reads them: packed row j is
/// gate's (j < 8 within its block of 16) or up's row f0 + j / 16 * 8 + j % 8.
Bytes interleaved(const cm::TensorInfo& gate, const cm::TensorInfo& up, std::int64_t f0, std::int64_t f) {
  Bytes out;
  for (std::int64_t j = 0; j < 2 * f; ++j) {
    auto const r = f0 + j / 16 * 8 + j % 8;
    append(out, rows(j % 16 < 8 ? gate : up, r, r + 1));
  }
  return out;
}

/// What rank `p` must hold in buffer `name`, cut from the full tensors by the splits' definitions.
Bytes expected_buffer(const cm::Checkpoint& ck, const cm::Qwen3WeightManifest& m, const cm::ShardPlan& p,
                      const std::string& name) {
  auto const& c = p.config();
  Bytes out;
  if (name == "embed" || name == "lm_head") {
    out = rows(ck.at(name == "embed" ? "model.embed_tokens.weight" : "lm_head.weight"), p.vocab_begin(), p.vocab_end());
    out.resize(std::size_t(p.vocab_rows() * c.hidden_size * 2), std::byte{0});
    return out;
  }
  if (name == "final_norm") return rows(ck.at("model.norm.weight"), 0, c.hidden_size);
  auto const dot = name.find('.', 7);
  auto const& l = m.layers()[std::stoul(name.substr(7, dot - 7))];
  auto const field = name.substr(dot + 1);
  auto const d = c.head_dim, q0 = p.q_head_begin() * d, kv0 = p.kv_head_begin() * d;
  auto const f0 = p.intermediate_begin(), f = p.intermediate();
  if (field == "qkv") {
    append(out, rows(ck.at(l.q_proj), q0, q0 + p.q_heads() * d));
    append(out, rows(ck.at(l.k_proj), kv0, kv0 + p.kv_heads() * d));
    append(out, rows(ck.at(l.v_proj), kv0, kv0 + p.kv_heads() * d));
  } else if (field == "o" || field == "down") {
    auto const& t = ck.at(field == "o" ? l.o_proj : l.down_proj);
    auto const [b, e] = field == "o" ? std::pair{q0, q0 + p.q_heads() * d} : std::pair{f0, f0 + f};
    for (std::int64_t i = 0; i < c.hidden_size; ++i) append(out, row(t, i, b, e));
  } else if (field == "gate_up") {
    out = interleaved(ck.at(l.gate_proj), ck.at(l.up_proj), f0, f);
  } else if (field == "experts_gate_up" || field == "experts_down") {
    for (std::int64_t e = p.expert_begin(); e < p.expert_begin() + p.experts(); ++e) {
      auto const& x = l.experts[std::size_t(e)];
      auto const w = c.moe->moe_intermediate_size;
      append(out, field == "experts_down" ? rows(ck.at(x.down_proj), 0, c.hidden_size)
                                          : interleaved(ck.at(x.gate_proj), ck.at(x.up_proj), 0, w));
    }
  } else {
    std::string const& t = field == "input_norm"  ? l.input_layernorm
                           : field == "post_norm" ? l.post_attention_layernorm
                           : field == "q_norm"    ? l.q_norm
                           : field == "k_norm"    ? l.k_norm
                                                  : l.router;
    out = rows(ck.at(t), 0, ck.at(t).shape[0]);
  }
  return out;
}

/// Rank `p`'s buffers as its loader fills them (read_rank_buffer: read_slice of each shard, its blocks placed).
std::map<std::string, Bytes> load(const cm::Checkpoint& ck, const cm::ShardPlan& p) {
  std::map<std::string, Bytes> buffers;
  for (auto const& b : p.buffers()) {
    buffers[b.name] = cm::read_rank_buffer(ck, p, b);
    EXPECT_EQ(buffers[b.name].size(), b.bytes) << b.name;
  }
  return buffers;
}

class TensorParallelLoad : public cute_cpp::test::ScratchDir {};

}  // namespace

TEST_F(TensorParallelLoad, EachRanksBuffersAreTheSplitsOfThePackedWeights) {
  for (bool moe : {false, true})
    for (bool tied : {false, true}) {
      cm::Qwen3WeightManifest const m(tiny(moe, tied));
      std::vector<cute_cpp::test::TensorSpec> specs;
      std::mt19937 gen(moe * 2 + tied);
      for (auto const& t : m.tensors()) {
        std::string bytes(cm::tensor_bytes(t.shape, m.dtype()), '\0');
        for (auto& b : bytes) b = static_cast<char>(gen() & 0xff);
        specs.push_back({t.name, "BF16", t.shape, bytes});
      }
      auto const folder = dir_ / (std::to_string(moe) + std::to_string(tied));
      std::filesystem::create_directories(folder);
      cute_cpp::test::write_file(folder / "model.safetensors", cute_cpp::test::well_formed(specs));
      auto const ck = cm::Checkpoint::open(folder);
      m.validate(ck);
      for (int n : {1, 2, 4})
        for (int r = 0; r < n; ++r) {
          SCOPED_TRACE("moe " + std::to_string(moe) + " tied " + std::to_string(tied) + " rank " + std::to_string(r) +
                       " of " + std::to_string(n));
          cm::ShardPlan const p(m, n, r, 4);
          auto const got = load(ck, p);
          for (auto const& [name, bytes] : got) EXPECT_EQ(bytes, expected_buffer(ck, m, p, name)) << name;
          if (n != 1) continue;
          // One device: the single-device packers' output.
          auto const& l = m.layers()[1];
          Bytes qkv(got.at("layers.1.qkv").size()), gate_up(got.at("layers.1.gate_up").size());
          cm::pack_qkv(ck.at(l.q_proj), ck.at(l.k_proj), ck.at(l.v_proj), qkv);
          cm::pack_gate_up(ck.at(l.gate_proj), ck.at(l.up_proj), gate_up);
          EXPECT_EQ(got.at("layers.1.qkv"), qkv);
          EXPECT_EQ(got.at("layers.1.gate_up"), gate_up);
        }
    }
}
