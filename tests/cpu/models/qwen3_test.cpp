// SPDX-License-Identifier: Apache-2.0
// models/qwen3: the weight manifest against tiny synthetic Qwen3 checkpoints (2 layers, hidden 64,
// 4 heads, 2 KV heads, head_dim 16, intermediate 96, vocab 300; tied and untied; one file and
// sharded), each of its errors, the fused QKV and gate-up packing against direct definitions, and
// the chat prompt against the tokenizer's encoding of the text Qwen3's chat template renders.
#include <gtest/gtest.h>

#include <cstring>
#include <cute_cpp/epilogue/fusion.hpp>  // gated_gate_row, gated_up_row: the SwiGLU epilogue's interleave
#include <random>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/tokenizer.hpp"
#include "models/qwen3/chat.hpp"
#include "models/qwen3/prompts.hpp"
#include "models/qwen3/weights.hpp"
#include "tests/cpu/models/st_writer.hpp"
#include "tests/cpu/models/tokenizer_json.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::TensorSpec;
using cute_cpp::test::well_formed;
using cute_cpp::test::write_file;
using cute_cpp::test::added;
using cute_cpp::test::bytes_of;
using cute_cpp::test::concat;
using cute_cpp::test::Ids;
using cute_cpp::test::make_json;
using cute_cpp::test::Spec;

namespace {

// ---- tiny checkpoints ----

std::string tiny_config_json(bool tied, const std::string& extra = "") {
  return R"({"model_type": "qwen3", "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 300,
    "max_position_embeddings": 128, "rope_theta": 1000000, "rms_norm_eps": 1e-06, )" +
         extra + R"("tie_word_embeddings": )" + (tied ? "true" : "false") + R"(, "torch_dtype": "bfloat16"})";
}
cm::Qwen3Config tiny_config(bool tied) {
  return cm::parse_qwen3_config(cm::parse_json(tiny_config_json(tied), "config.json"));
}

/// n random bytes from `seed`, so that no two tensors (and no two rows) share their contents.
std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

std::size_t bf16_bytes(const std::vector<std::int64_t>& shape) {
  std::size_t n = 2;
  for (auto const e : shape) n *= static_cast<std::size_t>(e);
  return n;
}

/// One BF16 tensor per expected tensor, with random contents.
std::vector<TensorSpec> specs_for(const cm::Qwen3WeightManifest& m) {
  std::vector<TensorSpec> specs;
  unsigned seed = 1000;
  for (auto const& e : m.tensors())
    specs.push_back({e.name, "BF16", e.shape, random_bytes(bf16_bytes(e.shape), ++seed)});
  return specs;
}

TensorSpec& spec(std::vector<TensorSpec>& specs, const std::string& name) {
  for (auto& s : specs)
    if (s.name == name) return s;
  throw std::logic_error("no spec " + name);
}
void remove_spec(std::vector<TensorSpec>& specs, const std::string& name) {
  std::erase_if(specs, [&](const TensorSpec& s) { return s.name == name; });
}

std::uint16_t element(const cm::TensorInfo& t, std::int64_t row, std::int64_t col) {
  std::uint16_t v;
  std::memcpy(&v, t.data + 2 * (row * t.shape[1] + col), 2);
  return v;
}
std::uint16_t element(const std::vector<std::byte>& out, std::int64_t cols, std::int64_t row, std::int64_t col) {
  std::uint16_t v;
  std::memcpy(&v, out.data() + 2 * (row * cols + col), 2);
  return v;
}

class Qwen3Weights : public cute_cpp::test::ScratchDir {
 protected:
  void write_single(const std::vector<TensorSpec>& specs) {
    write_file(dir_ / "model.safetensors", well_formed(specs));
  }
  // Two shards, split in the middle of the list (layer 0 in the first, layer 1 on in the second), and the index.
  void write_sharded(const std::vector<TensorSpec>& specs) {
    std::size_t const half = specs.size() / 2;
    std::vector<TensorSpec> const a(specs.begin(), specs.begin() + static_cast<std::ptrdiff_t>(half));
    std::vector<TensorSpec> const b(specs.begin() + static_cast<std::ptrdiff_t>(half), specs.end());
    write_file(dir_ / "model-00001-of-00002.safetensors", well_formed(a));
    write_file(dir_ / "model-00002-of-00002.safetensors", well_formed(b));
    std::string index = R"({"metadata": {}, "weight_map": {)";
    for (std::size_t i = 0; i < specs.size(); ++i)
      index +=
          (i ? ", \"" : "\"") + specs[i].name + "\": \"model-0000" + (i < half ? "1" : "2") + "-of-00002.safetensors\"";
    write_file(dir_ / "model.safetensors.index.json", index + "}}");
  }
  void write(const std::vector<TensorSpec>& specs, bool sharded) {
    sharded ? write_sharded(specs) : write_single(specs);
  }
};

// ---- a tokenizer.json in Qwen2/Qwen3's format with Qwen's chat tokens ----

// Ids: the 256 bytes, then "us" 256, "er" 257, "user" 258, then the added tokens from 259 in
// Qwen's order (<|endoftext|>, <|im_start|>, <|im_end|>, ..., <think>, </think>).
constexpr std::int32_t kUser = 258, kEndOfText = 259, kImStart = 260, kImEnd = 261, kThink = 262, kThinkEnd = 263;

/// `with_im_start` false leaves <|im_start|> out of the added tokens (the chat-token error).
std::string tokenizer_json(bool with_im_start = true) {
  Spec spec;
  spec.tokens = {"us", "er", "user"};
  spec.merges = {{"u", "s"}, {"e", "r"}, {"us", "er"}};
  spec.added_tokens = "[" + added(kEndOfText, "<|endoftext|>", true);
  int next = kEndOfText + 1;
  if (with_im_start) spec.added_tokens += ", " + added(next++, "<|im_start|>", true);
  spec.added_tokens += ", " + added(next, "<|im_end|>", true) + ", " + added(next + 1, "<think>", false) + ", " +
                       added(next + 2, "</think>", false) + "]";
  return make_json(spec);
}

}  // namespace

// ---- the manifest ----

TEST(Qwen3Manifest, ListsEveryTensorWithItsShape) {
  cm::Qwen3WeightManifest const m(tiny_config(/*tied=*/false));
  EXPECT_EQ(m.dtype(), cm::Dtype::BF16);
  ASSERT_EQ(m.tensors().size(), 1u + 2 * 11 + 1 + 1);
  EXPECT_EQ(m.tensors().front().name, "model.embed_tokens.weight");
  EXPECT_EQ(m.tensors().front().shape, (std::vector<std::int64_t>{300, 64}));
  EXPECT_EQ(m.tensors()[m.tensors().size() - 2].name, "model.norm.weight");
  EXPECT_EQ(m.tensors().back().name, "lm_head.weight");
  EXPECT_EQ(m.tensors().back().shape, (std::vector<std::int64_t>{300, 64}));

  auto shape = [&](const std::string& name) {
    auto const* e = m.find(name);
    EXPECT_NE(e, nullptr) << name;
    return e ? e->shape : std::vector<std::int64_t>{};
  };
  using S = std::vector<std::int64_t>;
  EXPECT_EQ(shape("model.layers.1.input_layernorm.weight"), (S{64}));
  EXPECT_EQ(shape("model.layers.1.self_attn.q_proj.weight"), (S{64, 64}));  // heads * head_dim = 4 * 16
  EXPECT_EQ(shape("model.layers.1.self_attn.k_proj.weight"), (S{32, 64}));  // kv_heads * head_dim = 2 * 16
  EXPECT_EQ(shape("model.layers.1.self_attn.v_proj.weight"), (S{32, 64}));
  EXPECT_EQ(shape("model.layers.1.self_attn.o_proj.weight"), (S{64, 64}));
  EXPECT_EQ(shape("model.layers.1.self_attn.q_norm.weight"), (S{16}));
  EXPECT_EQ(shape("model.layers.1.self_attn.k_norm.weight"), (S{16}));
  EXPECT_EQ(shape("model.layers.1.post_attention_layernorm.weight"), (S{64}));
  EXPECT_EQ(shape("model.layers.1.mlp.gate_proj.weight"), (S{96, 64}));
  EXPECT_EQ(shape("model.layers.1.mlp.up_proj.weight"), (S{96, 64}));
  EXPECT_EQ(shape("model.layers.1.mlp.down_proj.weight"), (S{64, 96}));
  EXPECT_EQ(m.find("model.layers.2.input_layernorm.weight"), nullptr);
  EXPECT_EQ(m.find("model.layers.0.self_attn.rotary_emb.inv_freq"), nullptr);

  ASSERT_EQ(m.layers().size(), 2u);
  EXPECT_EQ(m.layers()[1].q_proj, "model.layers.1.self_attn.q_proj.weight");
  EXPECT_EQ(m.layers()[1].gate_proj, "model.layers.1.mlp.gate_proj.weight");
  EXPECT_EQ(m.layers()[0].down_proj, "model.layers.0.mlp.down_proj.weight");
  for (auto const& l : m.layers())
    for (auto const* name : {&l.input_layernorm, &l.q_proj, &l.k_proj, &l.v_proj, &l.o_proj, &l.q_norm, &l.k_norm,
                             &l.post_attention_layernorm, &l.gate_proj, &l.up_proj, &l.down_proj})
      EXPECT_NE(m.find(*name), nullptr) << *name;

  EXPECT_EQ(m.qkv_shape(), (std::array<std::int64_t, 2>{(4 + 2 * 2) * 16, 64}));
  EXPECT_EQ(m.gate_up_shape(), (std::array<std::int64_t, 2>{2 * 96, 64}));
  EXPECT_EQ(m.qkv_bytes(), 128u * 64 * 2);
  EXPECT_EQ(m.gate_up_bytes(), 192u * 64 * 2);
}

TEST(Qwen3Manifest, TotalBytes) {
  // Per layer 64 + 4096 + 2048 + 2048 + 4096 + 16 + 16 + 64 + 3 * 6144 = 30880 parameters.
  EXPECT_EQ(cm::Qwen3WeightManifest(tiny_config(false)).total_bytes(), 2u * (19200 + 2 * 30880 + 64 + 19200));
  cm::Qwen3WeightManifest const tied(tiny_config(true));
  EXPECT_EQ(tied.tensors().size(), 24u);
  EXPECT_EQ(tied.find("lm_head.weight"), nullptr);
  EXPECT_EQ(tied.total_bytes(), 2u * (19200 + 2 * 30880 + 64));
  auto f32 = tiny_config(false);
  f32.torch_dtype = "float32";
  EXPECT_EQ(cm::Qwen3WeightManifest(f32).dtype(), cm::Dtype::F32);
  EXPECT_EQ(cm::Qwen3WeightManifest(f32).total_bytes(), 4u * (19200 + 2 * 30880 + 64 + 19200));
}

TEST(Qwen3Manifest, PublishedCheckpointSizes) {
  // The total_size of the published model.safetensors.index.json files: Qwen3-8B (untied, 399
  // tensors) and Qwen3-4B (tied, no lm_head.weight).
  cm::Qwen3Config c;
  c.model_type = "qwen3", c.torch_dtype = "bfloat16";
  c.hidden_size = 4096, c.intermediate_size = 12288, c.num_hidden_layers = 36, c.num_attention_heads = 32;
  c.num_key_value_heads = 8, c.head_dim = 128, c.vocab_size = 151936, c.tie_word_embeddings = false;
  cm::Qwen3WeightManifest const m8(c);
  EXPECT_EQ(m8.tensors().size(), 399u);
  EXPECT_EQ(m8.total_bytes(), 16381470720u);
  EXPECT_EQ(m8.qkv_shape(), (std::array<std::int64_t, 2>{6144, 4096}));
  EXPECT_EQ(m8.gate_up_shape(), (std::array<std::int64_t, 2>{24576, 4096}));
  c.hidden_size = 2560, c.intermediate_size = 9728, c.tie_word_embeddings = true;
  EXPECT_EQ(cm::Qwen3WeightManifest(c).total_bytes(), 8044936192u);
}

TEST(Qwen3Manifest, MoeCheckpointHasARouterAndItsExperts) {
  // Qwen3-30B-A3B: per layer the attention's 8 tensors, the router and 128 x 3 expert weights; the
  // total_size of its published index (61,064,245,248 bytes: 30.5 billion bf16 parameters).
  cm::Qwen3Config c;
  c.model_type = "qwen3_moe", c.torch_dtype = "bfloat16";
  c.hidden_size = 2048, c.intermediate_size = 6144, c.num_hidden_layers = 48, c.num_attention_heads = 32;
  c.num_key_value_heads = 4, c.head_dim = 128, c.vocab_size = 151936, c.tie_word_embeddings = false;
  c.moe = cm::Qwen3MoeConfig{.num_experts = 128, .num_experts_per_tok = 8, .moe_intermediate_size = 768,
                             .norm_topk_prob = true, .decoder_sparse_step = 1, .mlp_only_layers = {}};
  cm::Qwen3WeightManifest const m(c);
  EXPECT_EQ(m.tensors().size(), 1u + 48u * (8u + 1u + 128u * 3u) + 2u);
  EXPECT_EQ(m.total_bytes(), 61064245248u);
  auto const& layer = m.layers()[47];
  EXPECT_EQ(layer.router, "model.layers.47.mlp.gate.weight");
  ASSERT_EQ(layer.experts.size(), 128u);
  EXPECT_EQ(layer.experts[127].down_proj, "model.layers.47.mlp.experts.127.down_proj.weight");
  EXPECT_TRUE(layer.gate_proj.empty() && layer.up_proj.empty() && layer.down_proj.empty());
  EXPECT_EQ(m.find("model.layers.0.mlp.gate.weight")->shape, (std::vector<std::int64_t>{128, 2048}));
  EXPECT_EQ(m.find("model.layers.0.mlp.experts.5.up_proj.weight")->shape, (std::vector<std::int64_t>{768, 2048}));
  EXPECT_EQ(m.find("model.layers.0.mlp.experts.5.down_proj.weight")->shape, (std::vector<std::int64_t>{2048, 768}));
  EXPECT_EQ(m.find("model.layers.0.mlp.gate_proj.weight"), nullptr);
  // A layer in mlp_only_layers (and every other one, with decoder_sparse_step 2) keeps the dense MLP.
  c.moe->decoder_sparse_step = 2, c.moe->mlp_only_layers = {3};
  cm::Qwen3WeightManifest const mixed(c);
  for (std::int64_t i : {0, 2, 3}) {
    SCOPED_TRACE(i);
    EXPECT_EQ(mixed.layers()[std::size_t(i)].down_proj, "model.layers." + std::to_string(i) + ".mlp.down_proj.weight");
    EXPECT_TRUE(mixed.layers()[std::size_t(i)].experts.empty());
  }
  EXPECT_EQ(mixed.find("model.layers.0.mlp.gate_proj.weight")->shape, (std::vector<std::int64_t>{6144, 2048}));
  EXPECT_EQ(mixed.layers()[1].experts.size(), 128u);
}

TEST(Qwen3Manifest, AttentionBiasIsRefused) {
  auto const c = cm::parse_qwen3_config(cm::parse_json(tiny_config_json(false, R"("attention_bias": true, )"), "c"));
  ASSERT_TRUE(c.attention_bias);
  expect_load_error([&] { cm::Qwen3WeightManifest const m(c); }, "[config.unsupported]",
                    "config.json: \"attention_bias\" is true; the Qwen3 decoder has no attention projection biases");
}

TEST(Qwen3Manifest, DtypeMustBeAFloatType) {
  auto c = tiny_config(false);
  c.torch_dtype = "int8";  // parse_qwen3_config refuses it too; a config built in code reaches the manifest
  expect_load_error([&] { cm::Qwen3WeightManifest const m(c); }, "[config.value]",
                    "config.json: \"torch_dtype\" is \"int8\", expected \"bfloat16\", \"float16\" or \"float32\"");
}

// ---- validate ----

TEST_F(Qwen3Weights, ValidCheckpointsPass) {
  for (bool const tied : {false, true})
    for (bool const sharded : {false, true}) {
      SCOPED_TRACE(std::string(tied ? "tied" : "untied") + (sharded ? ", sharded" : ", one file"));
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
      cm::Qwen3WeightManifest const m(tiny_config(tied));
      write(specs_for(m), sharded);
      auto const ckpt = cm::Checkpoint::open(dir_);
      EXPECT_EQ(ckpt.shards().size(), sharded ? 2u : 1u);
      EXPECT_NO_THROW(m.validate(ckpt));
      std::uint64_t bytes = 0;
      for (auto const* t : ckpt.tensors()) bytes += t->bytes();
      EXPECT_EQ(bytes, m.total_bytes());
      EXPECT_EQ(m.output_weight(ckpt).name, tied ? "model.embed_tokens.weight" : "lm_head.weight");
    }
}

TEST_F(Qwen3Weights, MoeCheckpointValidates) {
  // A tiny Qwen3-MoE checkpoint (4 experts, top 2, layer 1 dense): whole, then one expert short.
  auto const c = cm::parse_qwen3_config(cm::parse_json(
      tiny_config_json(false, R"("model_type": "qwen3_moe", "num_experts": 4, "num_experts_per_tok": 2,
        "moe_intermediate_size": 32, "mlp_only_layers": [1], )").replace(0, 24, "{"),
      "config.json"));
  cm::Qwen3WeightManifest const m(c);
  auto specs = specs_for(m);
  write_single(specs);
  {
    auto const ckpt = cm::Checkpoint::open(dir_);
    EXPECT_NO_THROW(m.validate(ckpt));
    // The experts' buffers as the grouped GEMMs read them: each expert's pack_gate_up, and each
    // down weight, one expert after another.
    auto const& layer = m.layers()[0];
    ASSERT_EQ(layer.experts.size(), 4u);
    EXPECT_TRUE(m.layers()[1].experts.empty());  // mlp_only_layers [1]
    EXPECT_EQ(m.experts_gate_up_shape(), (std::array<std::int64_t, 3>{4, 64, 64}));
    EXPECT_EQ(m.experts_down_shape(), (std::array<std::int64_t, 3>{4, 64, 32}));
    auto const apply = [](std::vector<cm::PackPiece> const& pieces, std::uint64_t bytes) {
      std::vector<std::byte> out(bytes, std::byte{0x5A});
      for (cm::PackPiece const& p : pieces)
        for (std::uint64_t b = 0; b * p.block < p.src.size(); ++b)
          std::memcpy(out.data() + p.dst_offset + b * p.dst_pitch, p.src.data() + b * p.block,
                      std::min<std::uint64_t>(p.block, p.src.size() - b * p.block));
      return out;
    };
    std::vector<std::byte> want_gate_up, want_down;
    for (auto const& e : layer.experts) {
      std::vector<std::byte> one(2 * ckpt.at(e.gate_proj).bytes());
      cm::pack_gate_up(ckpt.at(e.gate_proj), ckpt.at(e.up_proj), one);
      want_gate_up.insert(want_gate_up.end(), one.begin(), one.end());
      auto const& down = ckpt.at(e.down_proj);
      want_down.insert(want_down.end(), down.data, down.data + down.bytes());
    }
    EXPECT_EQ(want_gate_up.size(), m.experts_gate_up_bytes());
    EXPECT_EQ(want_down.size(), m.experts_down_bytes());
    EXPECT_TRUE(apply(cm::experts_gate_up_pieces(ckpt, layer), m.experts_gate_up_bytes()) == want_gate_up);
    EXPECT_TRUE(apply(cm::experts_down_pieces(ckpt, layer), m.experts_down_bytes()) == want_down);
  }
  remove_spec(specs, "model.layers.0.mlp.experts.3.gate_proj.weight");
  std::filesystem::remove(dir_ / "model.safetensors");
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-missing]",
                    ": tensor \"model.layers.0.mlp.experts.3.gate_proj.weight\" [32, 64] BF16 is not in model.safetensors");
}

TEST_F(Qwen3Weights, RotaryBuffersAreIgnored) {
  cm::Qwen3WeightManifest const m(tiny_config(false));
  auto specs = specs_for(m);
  specs.push_back({"model.layers.0.self_attn.rotary_emb.inv_freq", "F32", {8}, random_bytes(32, 1)});
  specs.push_back({"model.rotary_emb.inv_freq", "F32", {8}, random_bytes(32, 2)});
  write_single(specs);
  EXPECT_NO_THROW(m.validate(cm::Checkpoint::open(dir_)));
}

TEST_F(Qwen3Weights, TiedCheckpointMayHoldAnLmHead) {
  cm::Qwen3WeightManifest const m(tiny_config(true));
  auto specs = specs_for(m);
  // A redundant copy (as in Qwen3-0.6B): valid, and the logits use the embedding.
  specs.push_back({"lm_head.weight", "BF16", {300, 64}, spec(specs, "model.embed_tokens.weight").bytes});
  write_single(specs);
  {
    auto const ckpt = cm::Checkpoint::open(dir_);
    EXPECT_NO_THROW(m.validate(ckpt));
    EXPECT_EQ(m.output_weight(ckpt).name, "model.embed_tokens.weight");
  }
  // Different values: transformers 5 warns and does not tie, so the stored lm_head is used.
  spec(specs, "lm_head.weight").bytes = random_bytes(300 * 64 * 2, 7);
  write_single(specs);
  {
    auto const ckpt = cm::Checkpoint::open(dir_);
    EXPECT_NO_THROW(m.validate(ckpt));
    EXPECT_EQ(m.output_weight(ckpt).name, "lm_head.weight");
  }
  // It must still have the embedding's shape and the dtype.
  spec(specs, "lm_head.weight").shape = {150, 128};
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-shape]",
                    "model.safetensors: tensor \"lm_head.weight\" has shape [150, 128], expected [300, 64] = "
                    "[vocab_size, hidden_size] (tie_word_embeddings is true;");
  spec(specs, "lm_head.weight") = {"lm_head.weight", "F16", {300, 64}, random_bytes(300 * 64 * 2, 7)};
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-dtype]",
                    "tensor \"lm_head.weight\" is F16, expected BF16 (torch_dtype \"bfloat16\")");
}

TEST_F(Qwen3Weights, MissingTensor) {
  cm::Qwen3WeightManifest const m(tiny_config(false));
  auto specs = specs_for(m);
  remove_spec(specs, "model.layers.1.mlp.up_proj.weight");
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-missing]",
                    ": tensor \"model.layers.1.mlp.up_proj.weight\" [96, 64] BF16 is not in model.safetensors");
  std::filesystem::remove(dir_ / "model.safetensors");
  write_sharded(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-missing]",
                    ": tensor \"model.layers.1.mlp.up_proj.weight\" [96, 64] BF16 is not in any of the 2 shards of "
                    "model.safetensors.index.json");
  // An untied config needs lm_head.weight.
  specs = specs_for(m);
  remove_spec(specs, "lm_head.weight");
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-missing]",
                    "tensor \"lm_head.weight\" [300, 64] BF16 is not in model.safetensors");
}

TEST_F(Qwen3Weights, WrongShape) {
  cm::Qwen3WeightManifest const m(tiny_config(false));
  auto specs = specs_for(m);
  spec(specs, "model.layers.0.self_attn.k_proj.weight").shape = {64, 32};  // transposed: the same bytes
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-shape]",
                    "model.safetensors: tensor \"model.layers.0.self_attn.k_proj.weight\" has shape [64, 32], "
                    "expected [32, 64] = [num_key_value_heads * head_dim, hidden_size]");
  specs = specs_for(m);
  spec(specs, "model.layers.1.self_attn.q_norm.weight") = {
      "model.layers.1.self_attn.q_norm.weight", "BF16", {64}, random_bytes(128, 3)};
  std::filesystem::remove(dir_ / "model.safetensors");
  write_sharded(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-shape]",
                    "model-00002-of-00002.safetensors: tensor \"model.layers.1.self_attn.q_norm.weight\" has shape "
                    "[64], expected [16] = [head_dim]");
}

TEST_F(Qwen3Weights, WrongDtype) {
  cm::Qwen3WeightManifest const m(tiny_config(true));
  auto specs = specs_for(m);
  spec(specs, "model.layers.0.mlp.down_proj.weight").dtype = "F16";
  write_sharded(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-dtype]",
                    "model-00001-of-00002.safetensors: tensor \"model.layers.0.mlp.down_proj.weight\" is F16, "
                    "expected BF16 (torch_dtype \"bfloat16\")");
}

TEST_F(Qwen3Weights, UnexpectedTensor) {
  cm::Qwen3WeightManifest const m(tiny_config(false));
  auto specs = specs_for(m);
  specs.push_back({"model.layers.0.self_attn.q_proj.bias", "BF16", {64}, random_bytes(128, 4)});
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-unexpected]",
                    "model.safetensors: tensor \"model.layers.0.self_attn.q_proj.bias\" [64] BF16 is not a Qwen3 "
                    "weight for this config (2 layers, untied embeddings); config.json has attention_bias false");
  specs.pop_back();
  specs.push_back({"model.layers.2.input_layernorm.weight", "BF16", {64}, random_bytes(128, 5)});
  write_single(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-unexpected]",
                    "tensor \"model.layers.2.input_layernorm.weight\" [64] BF16 is not a Qwen3 weight for this config "
                    "(2 layers, untied embeddings); layer 2 is past num_hidden_layers (2)");
  specs.pop_back();
  specs.push_back({"model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", {1}, random_bytes(4, 6)});
  std::filesystem::remove(dir_ / "model.safetensors");
  write_sharded(specs);
  expect_load_error([&] { m.validate(cm::Checkpoint::open(dir_)); }, "[qwen3.tensor-unexpected]",
                    "model-00002-of-00002.safetensors: tensor \"model.layers.0.self_attn.q_proj.weight_scale_inv\" [1] "
                    "F32 is not a Qwen3 weight for this config (2 layers, untied embeddings)");
}

// ---- packing ----

TEST_F(Qwen3Weights, FusedQkvStacksQThenKThenV) {
  cm::Qwen3WeightManifest const m(tiny_config(false));
  write_sharded(specs_for(m));
  auto const ckpt = cm::Checkpoint::open(dir_);
  m.validate(ckpt);
  for (auto const& l : m.layers()) {
    SCOPED_TRACE(l.q_proj);
    auto const& q = ckpt.at(l.q_proj);
    auto const& k = ckpt.at(l.k_proj);
    auto const& v = ckpt.at(l.v_proj);
    std::vector<std::byte> out(m.qkv_bytes(), std::byte{0xAB});
    cm::pack_qkv(q, k, v, out);
    auto const [rows, cols] = m.qkv_shape();
    // Direct definition: rows [0, H*D) are q's, [H*D, (H+Hkv)*D) k's, the rest v's.
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t c = 0; c < cols; ++c) {
        auto const want = r < 64 ? element(q, r, c) : r < 96 ? element(k, r - 64, c) : element(v, r - 96, c);
        ASSERT_EQ(element(out, cols, r, c), want) << "row " << r << ", column " << c;
      }
  }
}

TEST_F(Qwen3Weights, GateUpInterleavesBlocksOfEightRows) {
  cm::Qwen3WeightManifest const m(tiny_config(true));
  write_single(specs_for(m));
  auto const ckpt = cm::Checkpoint::open(dir_);
  for (auto const& l : m.layers()) {
    SCOPED_TRACE(l.gate_proj);
    auto const& gate = ckpt.at(l.gate_proj);
    auto const& up = ckpt.at(l.up_proj);
    std::vector<std::byte> out(m.gate_up_bytes(), std::byte{0xAB});
    cm::pack_gate_up(gate, up, out);
    auto const [rows, cols] = m.gate_up_shape();
    // The epilogue's definition (what the SwiGLU GEMM reads) ...
    for (std::int64_t r = 0; r < rows / 2; ++r)
      for (std::int64_t c = 0; c < cols; ++c) {
        ASSERT_EQ(element(out, cols, cute_cpp::epilogue::gated_gate_row(r), c), element(gate, r, c)) << r << ", " << c;
        ASSERT_EQ(element(out, cols, cute_cpp::epilogue::gated_up_row(r), c), element(up, r, c)) << r << ", " << c;
      }
    // ... and, row by row of the output: 16-row block b holds gate rows 8b..8b+7, then up rows 8b..8b+7.
    for (std::int64_t o = 0; o < rows; ++o) {
      std::int64_t const b = o / 16, i = o % 16;
      auto const& from = i < 8 ? gate : up;
      for (std::int64_t c = 0; c < cols; ++c)
        ASSERT_EQ(element(out, cols, o, c), element(from, 8 * b + i % 8, c)) << "output row " << o << ", column " << c;
    }
  }
}

TEST_F(Qwen3Weights, PackingErrors) {
  write_single({{"g", "BF16", {12, 4}, random_bytes(96, 1)},
                {"u", "BF16", {12, 4}, random_bytes(96, 2)},
                {"g16", "BF16", {16, 4}, random_bytes(128, 3)},
                {"u16", "F16", {16, 4}, random_bytes(128, 4)},
                {"k", "BF16", {8, 8}, random_bytes(128, 5)},
                {"v1", "BF16", {8}, random_bytes(16, 6)}});
  auto const f = cm::Checkpoint::open(dir_);
  std::vector<std::byte> out(4096);
  expect_load_error([&] { cm::pack_gate_up(f.at("g"), f.at("u"), std::span(out).first(192)); }, "[qwen3.pack]",
                    "pack_gate_up: tensor \"g\" has 12 rows, not a multiple of 8");
  expect_load_error([&] { cm::pack_gate_up(f.at("g16"), f.at("u16"), std::span(out).first(256)); }, "[qwen3.pack]",
                    "pack_gate_up: tensor \"u16\" is F16 [16, 4] but \"g16\" is BF16 [16, 4]; gate and up must agree");
  expect_load_error([&] { cm::pack_gate_up(f.at("g16"), f.at("g16"), std::span(out).first(255)); }, "[qwen3.pack]",
                    "pack_gate_up: the output buffer holds 255 bytes, the packed weight 256");
  expect_load_error([&] { cm::pack_qkv(f.at("g16"), f.at("k"), f.at("k"), std::span(out).first(384)); }, "[qwen3.pack]",
                    "pack_qkv: tensor \"k\" is BF16 [8, 8] but \"g16\" is BF16 [16, 4]");
  expect_load_error([&] { cm::pack_qkv(f.at("g16"), f.at("v1"), f.at("g16"), out); }, "[qwen3.pack]",
                    "pack_qkv: tensor \"v1\" has shape [8], expected two positive extents");
  expect_load_error([&] { cm::pack_qkv(f.at("g16"), f.at("g16"), f.at("g16"), out); }, "[qwen3.pack]",
                    "pack_qkv: the output buffer holds 4096 bytes, the packed weight 384");
}

// ---- the chat prompt ----

TEST(Qwen3ChatText, GenerationPrompt) {
  std::vector<cm::ChatMessage> const hi = {{cm::ChatRole::user, "Hi"}};
  EXPECT_EQ(cm::render_qwen3_chat(hi), "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(cm::render_qwen3_chat(hi, {.enable_thinking = false}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
  EXPECT_EQ(cm::render_qwen3_chat(hi, {.add_generation_prompt = false}), "<|im_start|>user\nHi<|im_end|>\n");
  std::vector<cm::ChatMessage> const sys = {{cm::ChatRole::system, "You are terse."}, {cm::ChatRole::user, "2+2?"}};
  EXPECT_EQ(cm::render_qwen3_chat(sys, {.enable_thinking = false}),
            "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\n2+2?<|im_end|>\n"
            "<|im_start|>assistant\n<think>\n\n</think>\n\n");
  EXPECT_EQ(cm::render_qwen3_chat({}), "<|im_start|>assistant\n");
}

TEST(Qwen3ChatText, HistoryDropsReasoningTheLastReplyKeepsIt) {
  // An earlier assistant turn keeps only its answer.
  std::vector<cm::ChatMessage> const history = {{cm::ChatRole::user, "Hi"},
                                                {cm::ChatRole::assistant, "<think>\nGreet back.\n</think>\n\nHello!"},
                                                {cm::ChatRole::user, "Bye"}};
  EXPECT_EQ(cm::render_qwen3_chat(history),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n"
            "<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n");
  // A final assistant turn after the last query gets a think block, empty when it has no reasoning
  // (the output transformers gives for [user "Hi", assistant "Hello"] with Qwen3's template).
  std::vector<cm::ChatMessage> const reply = {{cm::ChatRole::user, "Hi"}, {cm::ChatRole::assistant, "Hello"}};
  EXPECT_EQ(cm::render_qwen3_chat(reply, {.add_generation_prompt = false}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHello<|im_end|>\n");
  std::vector<cm::ChatMessage> const reasoned = {{cm::ChatRole::user, "Hi"},
                                                 {cm::ChatRole::assistant, "<think>\n\nGreet.\n\n</think>\n\n\nHello"}};
  EXPECT_EQ(cm::render_qwen3_chat(reasoned, {.add_generation_prompt = false}),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\nGreet.\n</think>\n\nHello<|im_end|>\n");
  // A user turn that is a tool's output is not a query: the assistant turn before it, after the
  // real query, keeps its reasoning; one without reasoning stays as it is.
  std::vector<cm::ChatMessage> const tool = {{cm::ChatRole::user, "Weather?"},
                                             {cm::ChatRole::assistant, "<think>look it up</think>Checking."},
                                             {cm::ChatRole::assistant, "Still checking."},
                                             {cm::ChatRole::user, "<tool_response>sunny</tool_response>"}};
  EXPECT_EQ(cm::render_qwen3_chat(tool, {.add_generation_prompt = false}),
            "<|im_start|>user\nWeather?<|im_end|>\n<|im_start|>assistant\n<think>\nlook it up\n</think>\n\nChecking."
            "<|im_end|>\n<|im_start|>assistant\nStill checking.<|im_end|>\n"
            "<|im_start|>user\n<tool_response>sunny</tool_response><|im_end|>\n");
}

TEST(Qwen3ChatText, Roles) {
  EXPECT_EQ(cm::parse_chat_role("system"), cm::ChatRole::system);
  EXPECT_EQ(cm::parse_chat_role("user"), cm::ChatRole::user);
  EXPECT_EQ(cm::parse_chat_role("assistant"), cm::ChatRole::assistant);
  EXPECT_EQ(cm::chat_role_name(cm::ChatRole::assistant), "assistant");
  expect_load_error([] { (void)cm::parse_chat_role("tool"); }, "[qwen3.chat-role]",
                    "role \"tool\", expected \"system\", \"user\" or \"assistant\"");
}

TEST(Qwen3Chat, IdsAreTheTokenizersEncodingOfThePrompt) {
  auto const tok = cm::Tokenizer::from_json(tokenizer_json(), "tokenizer.json");
  cm::Qwen3Chat const chat(tok);
  EXPECT_EQ(chat.im_start_id(), kImStart);
  EXPECT_EQ(chat.im_end_id(), kImEnd);
  EXPECT_EQ(chat.endoftext_id(), kEndOfText);

  // Each special token is one id; the text between them is encoded on its own ("user" merges).
  std::vector<cm::ChatMessage> const hi = {{cm::ChatRole::user, "Hi"}};
  EXPECT_EQ(chat.encode(hi),
            concat({{kImStart, kUser, '\n', 'H', 'i', kImEnd, '\n', kImStart}, bytes_of("assistant\n")}));
  EXPECT_EQ(chat.encode(hi, {.enable_thinking = false}),
            concat({{kImStart, kUser, '\n', 'H', 'i', kImEnd, '\n', kImStart},
                    bytes_of("assistant\n"),
                    {kThink, '\n', '\n', kThinkEnd, '\n', '\n'}}));

  std::vector<cm::ChatMessage> const conversation = {{cm::ChatRole::system, "Be brief."},
                                                     {cm::ChatRole::user, "Who are you?"},
                                                     {cm::ChatRole::assistant, "<think>\nintro\n</think>\n\nA model."},
                                                     {cm::ChatRole::user, "ok, users?"}};
  for (bool const thinking : {true, false}) {
    cm::ChatOptions const options{.enable_thinking = thinking};
    std::string const text =
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nWho are you?<|im_end|>\n"
        "<|im_start|>assistant\nA model.<|im_end|>\n<|im_start|>user\nok, users?<|im_end|>\n<|im_start|>assistant\n" +
        std::string(thinking ? "" : "<think>\n\n</think>\n\n");
    EXPECT_EQ(cm::render_qwen3_chat(conversation, options), text);
    EXPECT_EQ(chat.encode(conversation, options), tok.encode(text));
    EXPECT_EQ(tok.decode(chat.encode(conversation, options)), text);
  }
}

TEST(Qwen3Chat, StopIdsComeFromTheTokenizer) {
  auto const tok = cm::Tokenizer::from_json(tokenizer_json(), "tokenizer.json");
  cm::Qwen3Chat const chat(tok);
  EXPECT_EQ(Ids(chat.stop_ids().begin(), chat.stop_ids().end()), (Ids{kImEnd, kEndOfText}));
  EXPECT_EQ(chat.stop_ids()[0], *tok.token_to_id("<|im_end|>"));
  EXPECT_TRUE(chat.is_stop(kImEnd));
  EXPECT_TRUE(chat.is_stop(kEndOfText));
  EXPECT_FALSE(chat.is_stop(kImStart));
  EXPECT_FALSE(chat.is_stop('a'));
}

TEST(Qwen3Chat, TokenizerWithoutTheChatTokensIsRefused) {
  auto const tok = cm::Tokenizer::from_json(tokenizer_json(/*with_im_start=*/false), "tokenizer.json");
  expect_load_error([&] { cm::Qwen3Chat const chat(tok); }, "[qwen3.chat-token]",
                    "the tokenizer has no added token \"<|im_start|>\"");
}

// The checks every prompt passes before anything loads: empty, an id outside the vocabulary, a
// sequence (prompt and new tokens) past max_seq or max_position_embeddings, each naming the prompt.
TEST(Qwen3Prompts, RefusedWithTheRuleThePromptAndTheValue) {
  cm::Qwen3Config c;
  c.vocab_size = 1000;
  c.max_position_embeddings = 64;
  std::vector<std::vector<std::int32_t>> const fine{{1, 2, 3}, {999}};
  EXPECT_NO_THROW(cm::check_prompts(c, 0, fine, 60));
  auto const check = [&](std::vector<std::vector<std::int32_t>> const& prompts, int max_seq, int new_tokens) {
    cm::check_prompts(c, max_seq, prompts, new_tokens);
  };
  expect_load_error([&] { check({{1}, {}}, 0, 0); }, "[qwen3.input]", "prompt 1 is empty");
  expect_load_error([&] { check({{1, 1000}}, 0, 0); }, "[qwen3.input]", "prompt 0: id 1000 at position 1 is outside [0, 1000)");
  expect_load_error([&] { check({{-1}}, 0, 0); }, "[qwen3.input]", "prompt 0: id -1 at position 0 is outside [0, 1000)");
  expect_load_error([&] { check({{1, 2, 3}}, 0, 62); }, "[qwen3.input]",
                    "prompt 0: 3 tokens and 62 new ones exceed the sequence limit 64 (max_seq 0, max_position_embeddings 64)");
  expect_load_error([&] { check({{1, 2, 3}}, 16, 14); }, "[qwen3.input]", "the sequence limit 16 (max_seq 16");
  EXPECT_NO_THROW(check({{1, 2, 3}}, 16, 13));
}

// With YaRN the limit is factor x original_max_position_embeddings where that is longer than
// max_position_embeddings: Qwen's setting on Qwen3-8B (40960) reaches 131072 positions.
TEST(Qwen3Prompts, YarnExtendsThePositions) {
  cm::Qwen3Config c;
  c.vocab_size = 1000;
  c.max_position_embeddings = 40960;
  c.yarn.emplace();
  c.yarn->factor = 4.0;
  c.yarn->original_max_position_embeddings = 32768;
  EXPECT_EQ(c.max_positions(), 131072);
  EXPECT_EQ(cm::positions_text(c), "max_position_embeddings 40960, YaRN 131072 positions");
  std::vector<std::vector<std::int32_t>> const prompt{{1, 2, 3}};
  EXPECT_NO_THROW(cm::check_prompts(c, 0, prompt, 131069));
  expect_load_error([&] { cm::check_prompts(c, 0, prompt, 131070); }, "[qwen3.input]",
                    "exceed the sequence limit 131072 (max_seq 0, max_position_embeddings 40960, YaRN 131072 positions)");
  c.yarn->factor = 1.0;  // a YaRN shorter than max_position_embeddings leaves the limit alone
  EXPECT_EQ(c.max_positions(), 40960);
  EXPECT_EQ(cm::positions_text(c), "max_position_embeddings 40960");
}
