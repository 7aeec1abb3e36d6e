// SPDX-License-Identifier: Apache-2.0
// models/nemotron: the Nemotron-H weight manifest: its tensor counts and bytes for the published
// Nemotron-3 Nano config and for a tiny one (pattern "ME*-", one layer of each kind), each counted
// by hand, the per-layer groupings, and validate() on tiny checkpoints written here (one file and
// sharded): whole, with a tensor missing, of the wrong shape or dtype, and with an unexpected one.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "models/common/checkpoint.hpp"
#include "models/common/error.hpp"
#include "models/nemotron/weights.hpp"
#include "tests/cpu/models/nemotron_nano_config.hpp"
#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::TensorSpec;
using cute_cpp::test::well_formed;
using cute_cpp::test::write_file;
using Kind = cm::NemotronHLayerKind;

namespace {

// hidden 32, vocab 50; attention 4 heads / 2 KV heads of 8; Mamba-2 4 heads of 8 (d_inner 32),
// N 4, 2 groups (conv_dim 32 + 2 * 2 * 4 = 48), kernel 3; 4 experts of 16, top 2, shared 24; MLP 40.
std::string tiny_config_json(const std::string& extra = "") {
  return R"({"model_type": "nemotron_h", "hidden_size": 32, "vocab_size": 50, "hybrid_override_pattern": "ME*-",
    "max_position_embeddings": 256, "layer_norm_epsilon": 1e-5, "num_attention_heads": 4,
    "num_key_value_heads": 2, "head_dim": 8, "mamba_num_heads": 4, "mamba_head_dim": 8, "ssm_state_size": 4,
    "n_groups": 2, "conv_kernel": 3, "chunk_size": 8, "expand": 2, "mamba_hidden_act": "silu",
    "n_routed_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16,
    "moe_shared_expert_intermediate_size": 24, "n_shared_experts": 1, "routed_scaling_factor": 2.5, "n_group": 1,
    "topk_group": 1, "intermediate_size": 40, "mlp_hidden_act": "relu2", )" +
         extra + R"("torch_dtype": "bfloat16"})";
}
cm::NemotronHConfig tiny_config(const std::string& extra = "") {
  return cm::parse_nemotron_h_config(cm::parse_json(tiny_config_json(extra), "config.json"));
}

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

/// One tensor per expected tensor, in its expected dtype, with random contents.
std::vector<TensorSpec> specs_for(const cm::NemotronHWeightManifest& m) {
  std::vector<TensorSpec> specs;
  unsigned seed = 2000;
  for (auto const& e : m.tensors())
    specs.push_back({e.name, std::string(cm::dtype_name(e.dtype)), e.shape,
                     random_bytes(cm::tensor_bytes(e.shape, e.dtype), ++seed)});
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

class NemotronHWeights : public cute_cpp::test::ScratchDir {
 protected:
  void write_single(const std::vector<TensorSpec>& specs) {
    std::filesystem::remove(dir_ / "model.safetensors.index.json");
    write_file(dir_ / "model.safetensors", well_formed(specs));
  }
  // Two shards split in the middle of the list, and the index.
  void write_sharded(const std::vector<TensorSpec>& specs) {
    std::filesystem::remove(dir_ / "model.safetensors");
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
  void validate(const cm::NemotronHWeightManifest& m) { m.validate(cm::Checkpoint::open(dir_)); }
};

}  // namespace

// ---- counts and bytes ----

TEST(NemotronHManifest, Nemotron3NanoCountsAndBytes) {
  cm::NemotronHWeightManifest const m(
      cm::parse_nemotron_h_config(cm::parse_json(cute_cpp::test::nemotron_nano_config(), "config.json")));
  // Tensors: embedding, 52 layer norms, final norm, lm_head (untied) = 55; per Mamba layer 8 (in_proj,
  // conv1d weight and bias, A_log, D, dt_bias, norm, out_proj); per attention layer 4; per MoE layer
  // gate, its bias, 128 x (up, down), shared up and down = 260. 55 + 23 x 8 + 6 x 4 + 23 x 260 = 6243.
  EXPECT_EQ(m.tensors().size(), 6243u);
  // Parameters, by hand: embedding and lm_head 2 x 131072 x 2688 = 704,643,072; norms 53 x 2688 = 142,464;
  // a Mamba layer 10304 x 2688 + 6144 x 4 + 6144 + 3 x 64 + 4096 + 2688 x 4096 = 38,742,208; a MoE layer
  // 128 x 2688 + 128 + 128 x 2 x 1856 x 2688 + 2 x 3712 x 2688 = 1,297,465,472; an attention layer
  // 2 x 4096 x 2688 + 2 x 256 x 2688 = 23,396,352. Total 31,577,940,288, the n_params llama.cpp reports
  // for this model. In bytes: 2 each, and 2 more for each F32 element (A_log and D: 23 x 2 x 64; the
  // score correction bias: 23 x 128): 63,155,880,576 + 11,776 = 63,155,892,352.
  EXPECT_EQ(m.total_bytes(), 63'155'892'352u);
  EXPECT_EQ(m.dtype(), cm::Dtype::BF16);

  auto const* in_proj = m.find("backbone.layers.0.mixer.in_proj.weight");
  ASSERT_NE(in_proj, nullptr);
  EXPECT_EQ(in_proj->shape, (std::vector<std::int64_t>{10304, 2688}));
  EXPECT_EQ(m.find("backbone.layers.0.mixer.conv1d.weight")->shape, (std::vector<std::int64_t>{6144, 1, 4}));
  EXPECT_EQ(m.find("backbone.layers.0.mixer.norm.weight")->shape, (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(m.find("backbone.layers.0.mixer.out_proj.weight")->shape, (std::vector<std::int64_t>{2688, 4096}));
  EXPECT_EQ(m.find("backbone.layers.5.mixer.k_proj.weight")->shape, (std::vector<std::int64_t>{256, 2688}));
  EXPECT_EQ(m.find("backbone.layers.1.mixer.experts.127.up_proj.weight")->shape,
            (std::vector<std::int64_t>{1856, 2688}));
  EXPECT_EQ(m.find("backbone.layers.1.mixer.shared_experts.down_proj.weight")->shape,
            (std::vector<std::int64_t>{2688, 3712}));
  EXPECT_EQ(m.find("backbone.layers.51.mixer.gate.weight")->shape, (std::vector<std::int64_t>{128, 2688}));
  EXPECT_EQ(m.find("backbone.layers.1.mixer.experts.128.up_proj.weight"), nullptr);
  EXPECT_EQ(m.find("backbone.layers.0.mixer.q_proj.weight"), nullptr);  // layer 0 is a Mamba layer
  EXPECT_NE(m.find("lm_head.weight"), nullptr);

  // Dtypes: F32 for A_log, D (BF16 allowed) and the score correction bias (only F32); dt_bias BF16 or F32.
  auto const* a_log = m.find("backbone.layers.0.mixer.A_log");
  EXPECT_EQ(a_log->dtype, cm::Dtype::F32);
  EXPECT_EQ(a_log->also_dtype, cm::Dtype::BF16);
  auto const* bias = m.find("backbone.layers.1.mixer.gate.e_score_correction_bias");
  EXPECT_EQ(bias->dtype, cm::Dtype::F32);
  EXPECT_FALSE(bias->also_dtype.has_value());
  auto const* dt_bias = m.find("backbone.layers.0.mixer.dt_bias");
  EXPECT_EQ(dt_bias->dtype, cm::Dtype::BF16);
  EXPECT_EQ(dt_bias->also_dtype, cm::Dtype::F32);
  EXPECT_EQ(m.find("backbone.layers.1.mixer.gate.weight")->dtype, cm::Dtype::BF16);

  // Groupings: layer 5 is the first attention layer, layer 1 a MoE layer with 128 experts.
  ASSERT_EQ(m.layers().size(), 52u);
  EXPECT_EQ(m.layers()[5].kind, Kind::attention);
  EXPECT_EQ(m.layers()[5].attention.o_proj, "backbone.layers.5.mixer.o_proj.weight");
  EXPECT_EQ(m.layers()[5].norm, "backbone.layers.5.norm.weight");
  EXPECT_EQ(m.layers()[1].moe.experts.size(), 128u);
  EXPECT_EQ(m.layers()[1].moe.experts[7].down_proj, "backbone.layers.1.mixer.experts.7.down_proj.weight");
  EXPECT_EQ(m.layers()[1].moe.shared.up_proj, "backbone.layers.1.mixer.shared_experts.up_proj.weight");
  EXPECT_EQ(m.layers()[2].mamba.conv1d_bias, "backbone.layers.2.mixer.conv1d.bias");
  EXPECT_EQ(m.embedding(), "backbone.embeddings.weight");
  EXPECT_EQ(m.final_norm(), "backbone.norm_f.weight");
  EXPECT_EQ(m.output_weight(), "lm_head.weight");
}

TEST(NemotronHManifest, TinyCountsAndBytes) {
  cm::NemotronHWeightManifest const m(tiny_config());
  // 1 embedding + 4 norms + Mamba 8 + MoE (gate, bias, 4 x 2, shared 2) 12 + attention 4 + MLP 2
  // + final norm + lm_head = 33.
  EXPECT_EQ(m.tensors().size(), 33u);
  // BF16 elements: embedding 1600, norms 4 x 32; Mamba in_proj (32 + 48 + 4) x 32 = 2688, conv1d
  // 48 x 3 + 48, dt_bias 4, norm 32, out_proj 1024 (3940); MoE gate 128, experts 4 x 2 x 16 x 32 = 4096,
  // shared 2 x 24 x 32 = 1536 (5760); attention 1024 + 2 x 512 + 1024 = 3072; MLP 2 x 40 x 32 = 2560;
  // final norm 32; lm_head 1600: 18692 x 2 bytes. F32: A_log, D, bias 12 x 4 bytes. 37384 + 48 = 37432.
  EXPECT_EQ(m.total_bytes(), 37'432u);
  EXPECT_EQ(m.find("backbone.layers.0.mixer.in_proj.weight")->shape, (std::vector<std::int64_t>{84, 32}));
  EXPECT_EQ(m.find("backbone.layers.0.mixer.conv1d.weight")->shape, (std::vector<std::int64_t>{48, 1, 3}));
  EXPECT_EQ(m.layers()[3].kind, Kind::mlp);
  EXPECT_EQ(m.layers()[3].mlp.up_proj, "backbone.layers.3.mixer.up_proj.weight");
  EXPECT_TRUE(m.layers()[3].mamba.in_proj.empty());

  // Tied: no lm_head (1600 x 2 bytes less), the logits from the embedding.
  cm::NemotronHWeightManifest const tied(tiny_config(R"("tie_word_embeddings": true, )"));
  EXPECT_EQ(tied.tensors().size(), 32u);
  EXPECT_EQ(tied.total_bytes(), 37'432u - 3'200u);
  EXPECT_EQ(tied.output_weight(), "backbone.embeddings.weight");
  // No conv bias: 48 BF16 elements fewer.
  cm::NemotronHWeightManifest const no_bias(tiny_config(R"("use_conv_bias": false, )"));
  EXPECT_EQ(no_bias.tensors().size(), 32u);
  EXPECT_EQ(no_bias.total_bytes(), 37'432u - 96u);
  EXPECT_TRUE(no_bias.layers()[0].mamba.conv1d_bias.empty());
  // float32 throughout: every element 4 bytes, (18692 + 12) x 4.
  std::string text = tiny_config_json();
  text.replace(text.find("bfloat16"), 8, "float32");
  cm::NemotronHWeightManifest const f32(cm::parse_nemotron_h_config(cm::parse_json(text, "config.json")));
  EXPECT_EQ(f32.total_bytes(), 74'816u);
  EXPECT_FALSE(f32.find("backbone.layers.0.mixer.A_log")->also_dtype.has_value());
}

// ---- validate ----

TEST_F(NemotronHWeights, WholeCheckpointsValidate) {
  cm::NemotronHWeightManifest const m(tiny_config());
  auto specs = specs_for(m);
  write_single(specs);
  EXPECT_NO_THROW(validate(m));
  write_sharded(specs);
  EXPECT_NO_THROW(validate(m));
  // A_log and D in the config's dtype (as transformers' save_pretrained writes them), dt_bias in
  // F32, and multi-token-prediction tensors, which transformers ignores: still valid.
  spec(specs, "backbone.layers.0.mixer.A_log") = {"backbone.layers.0.mixer.A_log", "BF16", {4}, random_bytes(8, 1)};
  spec(specs, "backbone.layers.0.mixer.D") = {"backbone.layers.0.mixer.D", "BF16", {4}, random_bytes(8, 2)};
  spec(specs, "backbone.layers.0.mixer.dt_bias") = {"backbone.layers.0.mixer.dt_bias", "F32", {4}, random_bytes(16, 3)};
  specs.push_back({"mtp.layers.0.mixer.gate.weight", "BF16", {4, 32}, random_bytes(256, 4)});
  write_single(specs);
  EXPECT_NO_THROW(validate(m));
}

TEST_F(NemotronHWeights, MissingTensor) {
  cm::NemotronHWeightManifest const m(tiny_config());
  auto specs = specs_for(m);
  remove_spec(specs, "backbone.layers.1.mixer.experts.3.down_proj.weight");
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-missing]",
                    ": tensor \"backbone.layers.1.mixer.experts.3.down_proj.weight\" [32, 16] BF16 is not in "
                    "model.safetensors");
  specs = specs_for(m);
  remove_spec(specs, "backbone.layers.0.mixer.A_log");
  write_sharded(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-missing]",
                    ": tensor \"backbone.layers.0.mixer.A_log\" [4] F32 is not in any of the 2 shards of "
                    "model.safetensors.index.json");
}

TEST_F(NemotronHWeights, WrongShape) {
  cm::NemotronHWeightManifest const m(tiny_config());
  auto specs = specs_for(m);
  spec(specs, "backbone.layers.0.mixer.conv1d.weight").shape = {48, 3, 1};  // the same bytes
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-shape]",
                    "model.safetensors: tensor \"backbone.layers.0.mixer.conv1d.weight\" has shape [48, 3, 1], "
                    "expected [48, 1, 3] = [mamba_num_heads mamba_head_dim + 2 n_groups ssm_state_size, 1, "
                    "conv_kernel]");
  specs = specs_for(m);
  spec(specs, "backbone.layers.2.mixer.k_proj.weight").shape = {32, 16};
  write_sharded(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-shape]",
                    "model-00002-of-00002.safetensors: tensor \"backbone.layers.2.mixer.k_proj.weight\" has shape "
                    "[32, 16], expected [16, 32] = [num_key_value_heads * head_dim, hidden_size]");
}

TEST_F(NemotronHWeights, WrongDtype) {
  cm::NemotronHWeightManifest const m(tiny_config());
  auto specs = specs_for(m);
  spec(specs, "backbone.layers.3.mixer.up_proj.weight").dtype = "F16";
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-dtype]",
                    "model.safetensors: tensor \"backbone.layers.3.mixer.up_proj.weight\" is F16, expected BF16 "
                    "(torch_dtype \"bfloat16\")");
  specs = specs_for(m);
  spec(specs, "backbone.layers.1.mixer.gate.e_score_correction_bias") = {
      "backbone.layers.1.mixer.gate.e_score_correction_bias", "BF16", {4}, random_bytes(8, 5)};
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-dtype]",
                    "tensor \"backbone.layers.1.mixer.gate.e_score_correction_bias\" is BF16, expected F32 "
                    "(transformers keeps e_score_correction_bias in float32)");
  specs = specs_for(m);
  spec(specs, "backbone.layers.0.mixer.D").dtype = "I32";
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-dtype]",
                    "tensor \"backbone.layers.0.mixer.D\" is I32, expected F32 or BF16 (the published checkpoint "
                    "stores it in float32");
}

TEST_F(NemotronHWeights, UnexpectedTensor) {
  cm::NemotronHWeightManifest const m(tiny_config());
  auto specs = specs_for(m);
  specs.push_back({"backbone.layers.2.mixer.in_proj.weight", "BF16", {84, 32}, random_bytes(84 * 32 * 2, 6)});
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-unexpected]",
                    "model.safetensors: tensor \"backbone.layers.2.mixer.in_proj.weight\" [84, 32] BF16 is not a "
                    "Nemotron-H weight for this config (4 layers \"ME*-\", untied embeddings); layer 2 is attention "
                    "('*' in \"ME*-\")");
  specs.back() = {"backbone.layers.4.norm.weight", "BF16", {32}, random_bytes(64, 7)};
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-unexpected]",
                    "tensor \"backbone.layers.4.norm.weight\" [32] BF16 is not a Nemotron-H weight for this config "
                    "(4 layers \"ME*-\", untied embeddings); layer 4 is past the pattern's 4 layers");
  specs.back() = {"model.layers.0.norm.weight", "BF16", {32}, random_bytes(64, 8)};
  write_sharded(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-unexpected]",
                    "model-00002-of-00002.safetensors: tensor \"model.layers.0.norm.weight\" [32] BF16 is not a "
                    "Nemotron-H weight for this config (4 layers \"ME*-\", untied embeddings); the published names "
                    "start with backbone.");
}

TEST_F(NemotronHWeights, TiedCheckpointMayHoldAnLmHead) {
  cm::NemotronHWeightManifest const m(tiny_config(R"("tie_word_embeddings": true, )"));
  auto specs = specs_for(m);
  write_single(specs);
  EXPECT_NO_THROW(validate(m));
  specs.push_back({"lm_head.weight", "BF16", {50, 32}, random_bytes(3200, 9)});
  write_single(specs);
  EXPECT_NO_THROW(validate(m));
  specs.back().shape = {32, 50};
  write_single(specs);
  expect_load_error([&] { validate(m); }, "[nemotron.tensor-shape]",
                    "tensor \"lm_head.weight\" has shape [32, 50], expected [50, 32] = [vocab_size, hidden_size] "
                    "(tie_word_embeddings is true;");
}
