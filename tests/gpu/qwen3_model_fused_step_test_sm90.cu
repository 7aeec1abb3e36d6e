// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute-cpp-qwen3's batch-1 decode with --fused-steps (Qwen3Options::fused_steps, models/qwen3/
// fused_step.hpp) against the layered step: two models of one config.json with the same seeded
// random weights, the same prompt prefilled, then the same ids decoded; each step's logits row must
// agree (cosine; the two sum in other orders, so bf16 roundings differ). Configs: Qwen3-0.6B's widths
// (3 layers, tied), Qwen3-30B-A3B's (2 sparse layers: 128 experts, top 8, renormalized) and a MoE toy
// with a dense layer among sparse ones (64 experts, top 4, not renormalized, head_dim 64, odd widths),
// decode steps through the model's CUDA graphs as a user runs them.
#include "models/qwen3/model.hpp"

#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gpu/has_device.hpp"

namespace {

using cute_cpp::host::cuda_check;
using cute_cpp::models::LogitsRows;
using cute_cpp::models::Qwen3Model;
using cute_cpp::models::Qwen3Options;
using cute_cpp::test::has_device;

struct Case {
  char const* name;
  char const* config;  // config.json
  int vocab;
};

constexpr char kDense[] = R"({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 1024,
  "intermediate_size": 3072, "num_hidden_layers": 3, "num_attention_heads": 16, "num_key_value_heads": 8,
  "head_dim": 128, "vocab_size": 151936, "max_position_embeddings": 40960, "rope_theta": 1000000,
  "rms_norm_eps": 1e-06, "hidden_act": "silu", "attention_bias": false, "tie_word_embeddings": true,
  "torch_dtype": "bfloat16"})";
constexpr char kMoe[] = R"({"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
  "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 2, "num_attention_heads": 32,
  "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128, "num_experts_per_tok": 8, "norm_topk_prob": true,
  "decoder_sparse_step": 1, "mlp_only_layers": [], "vocab_size": 151936, "max_position_embeddings": 40960,
  "rope_theta": 1000000, "rms_norm_eps": 1e-06, "hidden_act": "silu", "attention_bias": false,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";
constexpr char kMoeToy[] = R"({"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 264,
  "intermediate_size": 712, "moe_intermediate_size": 200, "num_hidden_layers": 3, "num_attention_heads": 6,
  "num_key_value_heads": 2, "head_dim": 64, "num_experts": 64, "num_experts_per_tok": 4, "norm_topk_prob": false,
  "decoder_sparse_step": 1, "mlp_only_layers": [1], "vocab_size": 1000, "max_position_embeddings": 4096,
  "rope_theta": 1000000, "rms_norm_eps": 1e-06, "hidden_act": "silu", "attention_bias": false,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

std::filesystem::path config_folder(Case const& c) {
  std::filesystem::path const folder =
      std::filesystem::temp_directory_path() / ("cute_cpp_fused_step_" + std::string(c.name));
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "config.json") << c.config;
  return folder;
}

std::vector<float> logits_row(Qwen3Model const& m, int vocab) {
  cuda_check(cudaStreamSynchronize(m.stream()), "step");
  std::vector<__nv_bfloat16> h(static_cast<std::size_t>(vocab));
  cuda_check(cudaMemcpy(h.data(), m.logits(), h.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost), "logits");
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = __bfloat162float(h[i]);
  return f;
}

double cosine(std::vector<float> const& a, std::vector<float> const& b) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ab += double(a[i]) * b[i], aa += double(a[i]) * a[i], bb += double(b[i]) * b[i];
  return ab / std::sqrt(aa * bb);
}

class ModelFusedStepTest : public ::testing::TestWithParam<Case> {};

TEST_P(ModelFusedStepTest, DecodeMatchesTheLayeredStep) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  Case const c = GetParam();
  std::filesystem::path const folder = config_folder(c);
  Qwen3Options options;
  options.max_batch = 1, options.max_seq = 256, options.max_prefill_tokens = 256;
  auto layered = Qwen3Model::with_random_weights(folder, 21, options);
  options.fused_steps = true;
  auto fused = Qwen3Model::with_random_weights(folder, 21, options);
  ASSERT_TRUE(fused->fused_decode()) << c.name << ": the fused step refused the model";
  ASSERT_FALSE(layered->fused_decode());
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> id(0, c.vocab - 1);
  std::vector<std::vector<std::int32_t>> prompt(1);
  for (int i = 0; i < 70; ++i) prompt[0].push_back(id(rng));  // past a 64-token cache page
  std::vector<int> const a = fused->prefill(prompt, LogitsRows::Last), b = layered->prefill(prompt, LogitsRows::Last);
  for (int s = 0; s < 6; ++s) {
    std::int32_t const next = id(rng);
    fused->decode(a, {&next, 1});
    layered->decode(b, {&next, 1});
    std::vector<float> const x = logits_row(*fused, c.vocab), y = logits_row(*layered, c.vocab);
    for (float v : x) ASSERT_TRUE(std::isfinite(v)) << c.name << ", step " << s;
    EXPECT_GE(cosine(x, y), 0.999) << c.name << ", step " << s;
  }
  std::filesystem::remove_all(folder);
}

INSTANTIATE_TEST_SUITE_P(Configs, ModelFusedStepTest,
                         ::testing::Values(Case{"qwen3_0_6b_3_layers", kDense, 151936},
                                           Case{"qwen3_30b_a3b_2_layers", kMoe, 151936},
                                           Case{"moe_toy_dense_layer", kMoeToy, 1000}),
                         [](auto const& info) { return std::string(info.param.name); });

}  // namespace
