// SPDX-License-Identifier: Apache-2.0
// models/nemotron: the Nemotron-H config reader on the published Nemotron-3 Nano config (every
// field, the layer pattern's counts, the derived Mamba-2 sizes), its other spellings (transformers
// 5's layers_block_type, the older mamba_* names, dtype), and each rejection with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/nemotron/config.hpp"
#include "tests/cpu/models/nemotron_nano_config.hpp"
#include "tests/cpu/models/qwen3_8b_config.hpp"  // with_line
#include "tests/cpu/models/st_writer.hpp"        // expect_load_error

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::nemotron_nano_config;
using cute_cpp::test::with_line;
using Kind = cm::NemotronHLayerKind;

namespace {

cm::NemotronHConfig parse(const std::string& text) {
  return cm::parse_nemotron_h_config(cm::parse_json(text, "config.json"));
}
/// The published config with `key`'s line replaced by `line` (removed when empty).
std::string nano_with(const std::string& key, const std::string& line) {
  return with_line(nemotron_nano_config(), key, line);
}
constexpr char kNanoPattern[] = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";

}  // namespace

TEST(NemotronHConfig, ParsesNemotron3Nano) {
  auto const c = parse(nemotron_nano_config());
  EXPECT_EQ(c.model_type, "nemotron_h");
  EXPECT_EQ(c.hidden_size, 2688);
  EXPECT_EQ(c.vocab_size, 131072);
  EXPECT_EQ(c.num_hidden_layers, 52);
  EXPECT_EQ(c.max_position_embeddings, 262144);
  EXPECT_EQ(c.layer_norm_epsilon, 1e-5);
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_FALSE(c.residual_in_fp32);
  EXPECT_EQ(c.torch_dtype, "bfloat16");
  // Attention: 32 query heads over 2 KV heads of 128.
  EXPECT_EQ(c.num_attention_heads, 32);
  EXPECT_EQ(c.num_key_value_heads, 2);
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.rope_theta, 10000);
  EXPECT_EQ(c.partial_rotary_factor, 1.0);
  // Mamba-2: 64 heads of 64, N = 128, 8 groups.
  EXPECT_EQ(c.mamba.num_heads, 64);
  EXPECT_EQ(c.mamba.head_dim, 64);
  EXPECT_EQ(c.mamba.ssm_state_size, 128);
  EXPECT_EQ(c.mamba.n_groups, 8);
  EXPECT_EQ(c.mamba.conv_kernel, 4);
  EXPECT_EQ(c.mamba.chunk_size, 128);
  EXPECT_EQ(c.mamba.expand, 2);
  EXPECT_TRUE(c.mamba.use_conv_bias);
  EXPECT_EQ(c.mamba.hidden_act, "silu");
  EXPECT_EQ(c.mamba.time_step_min, 0.001);
  EXPECT_EQ(c.mamba.time_step_max, 0.1);
  EXPECT_EQ(c.mamba.time_step_floor, 1e-4);
  // Not in the published config: transformers' default (0, inf), no clamp.
  EXPECT_EQ(c.mamba.time_step_limit[0], 0.0);
  EXPECT_TRUE(std::isinf(c.mamba.time_step_limit[1]));
  // Derived by hand: d_inner = 64 * 64 = 4096; conv_dim = 4096 + 2 * 8 * 128 = 6144;
  // in_proj rows = 4096 (z) + 6144 (x B C) + 64 (dt) = 10304; each gated-norm group 4096 / 8 = 512.
  EXPECT_EQ(c.mamba.intermediate_size(), 4096);
  EXPECT_EQ(c.mamba.conv_dim(), 6144);
  EXPECT_EQ(c.mamba.in_proj_size(), 10304);
  EXPECT_EQ(c.mamba.norm_group_size(), 512);
  // MoE: 128 experts of 1856, top 6 normalized and scaled by 2.5, one shared expert of 3712.
  EXPECT_EQ(c.moe.n_routed_experts, 128);
  EXPECT_EQ(c.moe.num_experts_per_tok, 6);
  EXPECT_EQ(c.moe.moe_intermediate_size, 1856);
  EXPECT_EQ(c.moe.moe_shared_expert_intermediate_size, 3712);
  EXPECT_EQ(c.moe.n_shared_experts, 1);
  EXPECT_TRUE(c.moe.norm_topk_prob);
  EXPECT_EQ(c.moe.routed_scaling_factor, 2.5);
  EXPECT_EQ(c.moe.n_group, 1);
  EXPECT_EQ(c.moe.topk_group, 1);
  // No '-' layer: intermediate_size (1856 in the file) is not read; the experts' activation is.
  EXPECT_EQ(c.intermediate_size, 0);
  EXPECT_EQ(c.mlp_hidden_act, "relu2");
}

TEST(NemotronHConfig, PatternCounts) {
  auto const c = parse(nemotron_nano_config());
  ASSERT_EQ(c.layers.size(), 52u);
  EXPECT_EQ(c.count(Kind::mamba), 23);
  EXPECT_EQ(c.count(Kind::moe), 23);
  EXPECT_EQ(c.count(Kind::attention), 6);
  EXPECT_EQ(c.count(Kind::mlp), 0);
  EXPECT_FALSE(c.has(Kind::mlp));
  EXPECT_EQ(c.pattern(), kNanoPattern);
  // The attention layers, counted by hand in the pattern: 5, 12, 19, 26, 33, 42.
  std::vector<std::size_t> attention;
  for (std::size_t i = 0; i < c.layers.size(); ++i)
    if (c.layers[i] == Kind::attention) attention.push_back(i);
  EXPECT_EQ(attention, (std::vector<std::size_t>{5, 12, 19, 26, 33, 42}));
  EXPECT_EQ(c.layers[0], Kind::mamba);
  EXPECT_EQ(c.layers[1], Kind::moe);
  EXPECT_EQ(c.layers[51], Kind::moe);
  EXPECT_EQ(cm::layer_kind_name(Kind::attention), "attention");
}

TEST(NemotronHConfig, LayersBlockTypeAsTransformers5WritesIt) {
  // transformers 5 saves the pattern as layers_block_type, with either generation of names.
  std::string const list = R"("layers_block_type": ["mamba", "moe", "linear_attention", "full_attention", "mlp"])";
  auto const with_pattern = [](const std::string& lines) {
    return with_line(nano_with("hybrid_override_pattern", lines), "num_hidden_layers", "");
  };
  auto const c = parse(with_line(nano_with("hybrid_override_pattern", list), "num_hidden_layers",
                                 R"("num_hidden_layers": 5)"));
  EXPECT_EQ(c.pattern(), "MEM*-");
  EXPECT_EQ(c.num_hidden_layers, 5);
  EXPECT_EQ(c.intermediate_size, 1856);  // read now: the pattern has a dense MLP layer
  // num_hidden_layers may be absent (transformers 5 derives it); both spellings agreeing: fine.
  EXPECT_EQ(parse(with_pattern(R"("hybrid_override_pattern": "MEM*-", )" + list)).pattern(), "MEM*-");
  expect_load_error([&] { (void)parse(with_pattern(R"("hybrid_override_pattern": "MEM**", )" + list)); },
                    "[config.value]",
                    "config.json: \"hybrid_override_pattern\" and \"layers_block_type\" describe different layers");
  expect_load_error([&] { (void)parse(with_pattern(R"("layers_block_type": ["mamba", "ssm"])")); }, "[config.value]",
                    "config.json: \"layers_block_type\" has \"ssm\" at layer 1; expected");
}

TEST(NemotronHConfig, OlderSpellings) {
  // transformers reads mamba_n_groups, mamba_d_conv, ... and lets them win over the current names.
  std::string text = nano_with("n_groups", R"("n_groups": 8, "mamba_n_groups": 4)");
  text = with_line(text, "conv_kernel", R"("mamba_d_conv": 3)");
  text = with_line(text, "chunk_size", R"("mamba_chunk_size": 64)");
  text = with_line(text, "time_step_min", R"("mamba_dt_min": 0.002, "mamba_dt_limit": [0.0, 5.0])");
  text = with_line(text, "use_conv_bias", R"("mamba_conv_bias": false)");
  text = with_line(text, "torch_dtype", R"("dtype": "float16")");
  auto const c = parse(text);
  EXPECT_EQ(c.mamba.n_groups, 4);
  EXPECT_EQ(c.mamba.conv_kernel, 3);
  EXPECT_EQ(c.mamba.chunk_size, 64);
  EXPECT_EQ(c.mamba.time_step_min, 0.002);
  EXPECT_EQ(c.mamba.time_step_limit[0], 0.0);
  EXPECT_EQ(c.mamba.time_step_limit[1], 5.0);
  EXPECT_FALSE(c.mamba.use_conv_bias);
  EXPECT_EQ(c.torch_dtype, "float16");
}

TEST(NemotronHConfig, FieldsOfAbsentKindsAreNotRequired) {
  // Attention and dense MLP layers only: no Mamba or MoE field is needed.
  auto const c = parse(R"({"model_type": "nemotron_h", "hidden_size": 64, "vocab_size": 100,
    "hybrid_override_pattern": "*-*-", "max_position_embeddings": 512, "layer_norm_epsilon": 1e-5,
    "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 16, "intermediate_size": 128,
    "mlp_hidden_act": "relu2", "torch_dtype": "bfloat16"})");
  EXPECT_EQ(c.pattern(), "*-*-");
  EXPECT_EQ(c.mamba.num_heads, 0);
  EXPECT_EQ(c.moe.n_routed_experts, 0);
  EXPECT_EQ(c.intermediate_size, 128);
}

TEST(NemotronHConfig, MissingFieldsAreNamed) {
  expect_load_error([] { (void)parse(nano_with("hybrid_override_pattern", "")); }, "[json.missing]",
                    "hybrid_override_pattern");
  expect_load_error([] { (void)parse(nano_with("mamba_num_heads", "")); }, "[json.missing]", "mamba_num_heads");
  expect_load_error([] { (void)parse(nano_with("n_routed_experts", "")); }, "[json.missing]", "n_routed_experts");
  expect_load_error([] { (void)parse(nano_with("head_dim", "")); }, "[json.missing]", "head_dim");
  expect_load_error([] { (void)parse(nano_with("mlp_hidden_act", "")); }, "[json.missing]", "mlp_hidden_act");
  expect_load_error([] { (void)parse(nano_with("mamba_head_dim", R"("mamba_head_dim": "64")")); }, "[json.type]",
                    "mamba_head_dim");
}

TEST(NemotronHConfig, ValuesAreChecked) {
  struct Case {
    std::string key, line, rule, text;
  };
  std::vector<Case> const cases = {
      {"model_type", R"("model_type": "nemotron")", "[config.model-type]",
       "config.json: \"model_type\" is \"nemotron\", expected \"nemotron_h\""},
      {"hybrid_override_pattern", R"("hybrid_override_pattern": "MEM*X")", "[config.value]",
       "config.json: \"hybrid_override_pattern\" has \"X\" at layer 4; expected 'M' (Mamba-2), 'E' (MoE), "
       "'*' (attention) or '-' (MLP)"},
      {"hybrid_override_pattern", R"("hybrid_override_pattern": "")", "[config.value]",
       "config.json: the layer pattern is empty"},
      {"num_hidden_layers", R"("num_hidden_layers": 50)", "[config.value]",
       "config.json: \"num_hidden_layers\" is 50 but the layer pattern has 52 layers"},
      {"hidden_size", R"("hidden_size": 0)", "[config.value]",
       "config.json: \"hidden_size\" is 0, expected a positive integer"},
      {"num_key_value_heads", R"("num_key_value_heads": 3)", "[config.value]",
       "config.json: \"num_attention_heads\" (32) is not a multiple of \"num_key_value_heads\" (3)"},
      {"n_groups", R"("n_groups": 6)", "[config.value]",
       "config.json: \"n_groups\" (6) does not divide \"mamba_num_heads\" (64)"},
      {"ssm_state_size", R"("ssm_state_size": -1)", "[config.value]",
       "config.json: \"ssm_state_size\" is -1, expected a positive integer"},
      {"time_step_max", R"("time_step_max": 0.0001)", "[config.value]",
       "expected 0 < min <= max and floor >= 0"},
      {"time_step_min", R"("time_step_min": 0.001, "time_step_limit": [0.5, 0.1])", "[config.value]",
       "config.json: \"time_step_limit\" is [0.500000, 0.100000], expected 0 <= low <= high"},
      {"time_step_min", R"("time_step_min": 0.001, "time_step_limit": [0.1])", "[config.value]",
       "config.json: \"time_step_limit\" has 1 elements, expected two: [low, high]"},
      {"num_experts_per_tok", R"("num_experts_per_tok": 129)", "[config.value]",
       "config.json: \"num_experts_per_tok\" is 129, expected 1 to \"n_routed_experts\" (128)"},
      {"n_group", R"("n_group": 3)", "[config.value]",
       "config.json: \"n_group\" (3) does not divide \"n_routed_experts\" (128)"},
      {"n_group", R"("n_group": 128)", "[config.value]",
       "config.json: \"n_group\" is 128, expected 1 to half of \"n_routed_experts\" (64)"},
      {"topk_group", R"("topk_group": 2)", "[config.value]",
       "config.json: \"topk_group\" is 2, expected 1 to \"n_group\" (1)"},
      {"n_group", R"("n_group": 32)", "[config.value]",
       "config.json: \"topk_group\" (1) groups of 4 experts hold fewer than \"num_experts_per_tok\" (6)"},
      {"routed_scaling_factor", R"("routed_scaling_factor": 0)", "[config.value]",
       "config.json: \"routed_scaling_factor\" is 0.000000, expected a positive number"},
      {"layer_norm_epsilon", R"("layer_norm_epsilon": 0.0)", "[config.value]",
       "config.json: \"layer_norm_epsilon\" is 0.000000, expected a positive number"},
      {"norm_eps", R"("norm_eps": 1e-06)", "[config.value]",
       "config.json: \"norm_eps\" is 0.000001 but \"layer_norm_epsilon\" is 0.000010"},
      {"partial_rotary_factor", R"("partial_rotary_factor": 1.5)", "[config.value]",
       "config.json: \"partial_rotary_factor\" is 1.500000, expected a number in (0, 1]"},
      {"torch_dtype", R"("torch_dtype": "int8")", "[config.value]",
       "config.json: \"torch_dtype\" is \"int8\", expected \"bfloat16\", \"float16\" or \"float32\""},
      {"mamba_hidden_act", R"("mamba_hidden_act": "gelu")", "[config.unsupported]",
       "config.json: \"mamba_hidden_act\" is \"gelu\"; the Mamba-2 layers implement \"silu\""},
      {"mlp_hidden_act", R"("mlp_hidden_act": "silu")", "[config.unsupported]",
       "config.json: \"mlp_hidden_act\" is \"silu\"; the MLP and expert layers implement \"relu2\""},
      {"n_shared_experts", R"("n_shared_experts": 2)", "[config.unsupported]",
       "config.json: \"n_shared_experts\" is 2; the MoE layers implement one shared expert"},
      {"n_shared_experts", R"("n_shared_experts": 1, "moe_latent_size": 1024)", "[config.unsupported]",
       "config.json: \"moe_latent_size\" is set"},
      {"attention_bias", R"("attention_bias": true)", "[config.unsupported]",
       "config.json: \"attention_bias\" is true; the attention layers have no projection biases"},
      {"mamba_proj_bias", R"("mamba_proj_bias": true)", "[config.unsupported]",
       "\"mamba_proj_bias\" or \"use_bias\" is true"},
      {"use_bias", R"("use_bias": true)", "[config.unsupported]", "\"mamba_proj_bias\" or \"use_bias\" is true"},
      {"mlp_bias", R"("mlp_bias": true)", "[config.unsupported]",
       "config.json: \"mlp_bias\" is true; the MLP and expert layers have no biases"},
  };
  for (auto const& c : cases) {
    SCOPED_TRACE(c.line);
    expect_load_error([&] { (void)parse(nano_with(c.key, c.line)); }, c.rule, c.text);
  }
}
