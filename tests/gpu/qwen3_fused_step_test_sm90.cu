// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The fused decode step (models/qwen3/fused_step.hpp) against the layered step it replaces: two
// Qwen3-TTS Decoders with the same seeded weights, the same prompt prefilled (layered in both), then
// the same steps, one fused and one layered; each step's final-normed row must agree (cosine and
// relative rms error: the two sum in different orders, so bf16 roundings differ). Widths: the code
// predictor's and Qwen3-0.6B's (head_dim 128, 2 q heads a kv head), head_dim 64 with 3 q heads a kv
// head and widths that are not multiples of the CTAs' row runs, head_dim 256 with 8, multimodal
// RoPE with three different position ids; prompts that cross cache pages and split the keys over
// many CTAs (several blocks of keys a split), and short ones whose heads take one split (no
// combine). Then the fused step recorded in a CUDA graph and replayed at later positions gives the
// eager step's bits, and the refusals name their rule.
#include "models/qwen3_tts/decoder.hpp"
#include "models/qwen3_tts/mrope.hpp"  // mrope_components
#include "models/qwen3_tts/tts_config.hpp"  // MropeConfig

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/has_device.hpp"

namespace {

using cute_cpp::host::cuda_check;
using cute_cpp::host::DeviceBuffer;
using cute_cpp::models::bf16;
using cute_cpp::models::FusedStep;
using cute_cpp::models::FusedStepShape;
using cute_cpp::models::LayerWeights;
using cute_cpp::models::Qwen3Config;
using cute_cpp::models::RandomFiller;
using cute_cpp::models::qwen3_tts::Decoder;
using cute_cpp::test::has_device;

struct Case {
  char const* name;
  int layers, hidden, heads_q, heads_kv, head_dim, ffn;
  int prompt, steps;
  bool multimodal = false;
};

Qwen3Config config_of(Case const& c) {
  Qwen3Config q;
  q.hidden_size = c.hidden, q.intermediate_size = c.ffn, q.num_hidden_layers = c.layers;
  q.num_attention_heads = c.heads_q, q.num_key_value_heads = c.heads_kv, q.head_dim = c.head_dim;
  q.vocab_size = 1024, q.max_position_embeddings = 4096;
  q.rms_norm_eps = 1e-6, q.rope_theta = 1000000.0;
  q.torch_dtype = "bfloat16";
  return q;
}

Decoder make_decoder(Case const& c, cudaStream_t stream, bool fused) {
  Qwen3Config const config = config_of(c);
  RandomFiller filler{7, 0};
  std::vector<LayerWeights> layers;
  for (int l = 0; l < c.layers; ++l) layers.push_back(random_layer(filler, config, {}));
  DeviceBuffer<bf16> final_norm = filler.norm(std::array<std::int64_t, 1>{c.hidden});
  std::vector<std::int8_t> components;
  if (c.multimodal) components = cute_cpp::models::qwen3_tts::mrope_components({{24, 20, 20}, true});
  cuda_check(cudaDeviceSynchronize(), "random weights");
  return Decoder(config, std::move(layers), std::move(final_norm), c.prompt + c.steps + 8, c.prompt, components, stream,
                 fused);
}

std::vector<bf16> random_rows(int rows, int width, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<bf16> v(std::size_t(rows) * width);
  for (bf16& x : v) x = __float2bfloat16(normal(rng));
  return v;
}

/// [4, tokens] position planes from `first`: plane 0 the places; planes 1-3 the places, or (multimodal)
/// three different ids a token.
std::vector<std::int32_t> planes(int first, int tokens, bool multimodal) {
  std::vector<std::int32_t> p(std::size_t(4) * tokens);
  for (int t = 0; t < tokens; ++t)
    for (int plane = 0; plane < 4; ++plane)
      p[std::size_t(plane) * tokens + t] = first + t + (multimodal && plane > 0 ? 3 * plane + t % 5 : 0);
  return p;
}

std::vector<float> row_of(Decoder const& d, cudaStream_t stream) {
  cuda_check(cudaStreamSynchronize(stream), "step");
  std::vector<bf16> h(std::size_t(d.hidden_size()));
  cuda_check(cudaMemcpy(h.data(), d.hidden(), h.size() * sizeof(bf16), cudaMemcpyDeviceToHost), "hidden");
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = __bfloat162float(h[i]);
  return f;
}

void expect_close(std::vector<float> const& fused, std::vector<float> const& layered, std::string const& where) {
  double dot = 0, ff = 0, ll = 0, diff = 0;
  for (std::size_t i = 0; i < fused.size(); ++i) {
    ASSERT_TRUE(std::isfinite(fused[i])) << where << ": element " << i;
    dot += double(fused[i]) * layered[i], ff += double(fused[i]) * fused[i], ll += double(layered[i]) * layered[i];
    diff += (double(fused[i]) - layered[i]) * (double(fused[i]) - layered[i]);
  }
  EXPECT_GE(dot / std::sqrt(ff * ll), 0.9995) << where;
  EXPECT_LE(std::sqrt(diff / ll), 0.02) << where;
}

/// One step's device inputs: the row, its position planes and the length after it.
struct StepInputs {
  DeviceBuffer<bf16> row;
  DeviceBuffer<std::int32_t> positions{4}, length{1};
  explicit StepInputs(int hidden) : row(std::size_t(hidden)) {}
  void set(std::vector<bf16> const& r, int place, bool multimodal) {
    row.upload(std::span<bf16 const>(r));
    positions.upload(std::span<std::int32_t const>(planes(place, 1, multimodal)));
    std::int32_t const n = place + 1;
    length.upload(std::span<std::int32_t const>(&n, 1));
  }
};

class FusedStepTest : public ::testing::TestWithParam<Case> {};

TEST_P(FusedStepTest, MatchesTheLayeredStep) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  Case const c = GetParam();
  FusedStepShape const shape{c.layers, c.hidden, c.heads_q, c.heads_kv, c.head_dim, c.ffn};
  ASSERT_EQ(FusedStep::refusal(shape), "");
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
  Decoder fused = make_decoder(c, stream, true), layered = make_decoder(c, stream, false);
  ASSERT_TRUE(fused.fused());
  ASSERT_FALSE(layered.fused());
  std::mt19937 rng(11);
  DeviceBuffer<bf16> prompt(std::size_t(c.prompt) * c.hidden);
  prompt.upload(std::span<bf16 const>(random_rows(c.prompt, c.hidden, rng)));
  DeviceBuffer<std::int32_t> prompt_positions(std::size_t(4) * c.prompt);
  prompt_positions.upload(std::span<std::int32_t const>(planes(0, c.prompt, c.multimodal)));
  fused.prefill(prompt.data(), c.prompt, prompt_positions.data());
  layered.prefill(prompt.data(), c.prompt, prompt_positions.data());
  StepInputs in(c.hidden);
  for (int s = 0; s < c.steps; ++s) {
    in.set(random_rows(1, c.hidden, rng), c.prompt + s, c.multimodal);
    fused.step(in.row.data(), in.positions.data(), in.length.data());
    std::vector<float> const a = row_of(fused, stream);
    layered.step(in.row.data(), in.positions.data(), in.length.data());
    expect_close(a, row_of(layered, stream), std::string(c.name) + ", step " + std::to_string(s));
  }
  cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

INSTANTIATE_TEST_SUITE_P(
    Widths, FusedStepTest,
    ::testing::Values(Case{"code predictor", 5, 1024, 16, 8, 128, 3072, 2, 15},
                      Case{"qwen3-0.6b, 3 layers", 3, 1024, 16, 8, 128, 3072, 300, 4},
                      Case{"d64, group 3, long prompt", 2, 264, 6, 2, 64, 712, 700, 3},
                      Case{"d256, group 8", 2, 512, 8, 1, 256, 1032, 40, 3},
                      Case{"multimodal rope", 2, 1024, 16, 8, 128, 2048, 30, 3, true}),
    [](auto const& info) { return "case" + std::to_string(info.index); });

// Recorded once in a CUDA graph (a cooperative launch among the graph's nodes) and replayed at later
// places with the inputs rewritten between replays: each replay gives the eager fused step's bits.
TEST(FusedStepGraph, ReplaysGiveTheEagerBits) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  Case const c{"graph", 3, 1024, 16, 8, 128, 3072, 20, 4};
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  Decoder eager = make_decoder(c, stream, true), graphed = make_decoder(c, stream, true);
  std::mt19937 rng(5);
  DeviceBuffer<bf16> prompt(std::size_t(c.prompt) * c.hidden);
  prompt.upload(std::span<bf16 const>(random_rows(c.prompt, c.hidden, rng)));
  DeviceBuffer<std::int32_t> prompt_positions(std::size_t(4) * c.prompt);
  prompt_positions.upload(std::span<std::int32_t const>(planes(0, c.prompt, false)));
  eager.prefill(prompt.data(), c.prompt, prompt_positions.data());
  graphed.prefill(prompt.data(), c.prompt, prompt_positions.data());
  StepInputs in(c.hidden);
  in.set(random_rows(1, c.hidden, rng), c.prompt, false);
  cuda_check(cudaStreamSynchronize(stream), "prefill");
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  graphed.step(in.row.data(), in.positions.data(), in.length.data());
  cuda_check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  cuda_check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int s = 0; s < c.steps; ++s) {
    in.set(random_rows(1, c.hidden, rng), c.prompt + s, false);
    eager.step(in.row.data(), in.positions.data(), in.length.data());
    std::vector<float> const want = row_of(eager, stream);
    cuda_check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    EXPECT_EQ(row_of(graphed, stream), want) << "replay " << s;
  }
  cuda_check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  cuda_check(cudaGraphDestroy(graph), "cudaGraphDestroy");
  cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

TEST(FusedStepRefusal, NamesTheRule) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  EXPECT_NE(FusedStep::refusal({2, 1024, 16, 8, 96, 3072}).find("head_dim"), std::string::npos);
  EXPECT_NE(FusedStep::refusal({2, 1024, 32, 2, 128, 3072}).find("q heads a kv head"), std::string::npos);
  EXPECT_NE(FusedStep::refusal({2, 5120, 64, 8, 128, 25600}).find("at most"), std::string::npos);
  // A decoder it refuses keeps the layered step.
  Case const c{"refused", 1, 1024, 16, 8, 128, 20480, 2, 1};
  EXPECT_NE(FusedStep::refusal({1, 1024, 16, 8, 128, 20480}), "");
  EXPECT_FALSE(make_decoder(c, nullptr, true).fused());
  // Built anyway, it throws with the rule.
  try {
    FusedStep step({1, 1024, 16, 8, 96, 3072}, {}, {}, 1e-6f);
    ADD_FAILURE() << "a refused shape was built";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("[qwen3.fused-step]"), std::string::npos) << e.what();
  }
}

}  // namespace
