// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// tests/support/conv_reference.hpp against hand-computed cases: the causal conv1d (zero and
// carried left context, dilation), the transposed conv's scatter and Qwen3-TTS's trim, the
// depthwise conv, GELU and SnakeBeta values, LayerNorm; and streaming (a sequence convolved in
// chunks, each from the state the previous left, equals it convolved whole).
#include <gtest/gtest.h>

#include "support/conv_reference.hpp"

#include <cmath>
#include <random>
#include <vector>

namespace ref = cute_cpp::test::conv;

namespace {

std::vector<double> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& e : v) e = dist(rng);
  return v;
}

ref::Sequences slice(ref::Sequences const& x, int begin, int end) {
  ref::Sequences s{x.batch, end - begin, x.channels, {}};
  for (int b = 0; b < x.batch; ++b)
    for (int t = begin; t < end; ++t)
      for (int c = 0; c < x.channels; ++c) s.x.push_back(x.at(b, t, c));
  return s;
}

}  // namespace

// One channel, K 2, dilation 1: y[t] = w0 x[t-1] + w1 x[t] + bias, x[-1] = 0.
TEST(ConvReference, CausalConvByHand) {
  ref::Sequences const x{1, 3, 1, {1.0, 2.0, 3.0}};
  ref::Epilogue epi;
  epi.bias = {0.5};
  auto const y = ref::causal_conv1d(x, {10.0, 1.0}, 1, 2, 1, epi);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_DOUBLE_EQ(y[0], 1.0 + 0.5);
  EXPECT_DOUBLE_EQ(y[1], 10.0 + 2.0 + 0.5);
  EXPECT_DOUBLE_EQ(y[2], 20.0 + 3.0 + 0.5);
}

// K 3, dilation 2, two input channels, one output: y[t] = sum_k w[k] . x[t - (2-k) 2]; with a state.
TEST(ConvReference, DilatedConvWithStateByHand) {
  ref::Sequences const x{1, 2, 2, {1.0, 2.0, 3.0, 4.0}};  // x[0] = (1, 2), x[1] = (3, 4)
  std::vector<double> const w{1.0, 10.0, 100.0, 2.0, 20.0, 200.0};  // w[0, ci, k]: ci 0 {1, 10, 100}, ci 1 {2, 20, 200}
  std::vector<double> const state{5, 6, 7, 8, 9, 10, 11, 12};       // 4 rows (x[-4] .. x[-1]) of 2
  auto const y = ref::causal_conv1d(x, w, 1, 3, 2, {}, state);
  // t 0: k 0 -> x[-4] = (5, 6), k 1 -> x[-2] = (9, 10), k 2 -> x[0] = (1, 2)
  EXPECT_DOUBLE_EQ(y[0], 5 * 1 + 6 * 2 + 9 * 10 + 10 * 20 + 1 * 100 + 2 * 200);
  // t 1: x[-3] = (7, 8), x[-1] = (11, 12), x[1] = (3, 4)
  EXPECT_DOUBLE_EQ(y[1], 7 * 1 + 8 * 2 + 11 * 10 + 12 * 20 + 3 * 100 + 4 * 200);
  auto const next = ref::state_after(x, 4, state);
  EXPECT_EQ(next, (std::vector<double>{9, 10, 11, 12, 1, 2, 3, 4}));
}

// ConvTranspose1d, 1 channel, s 2, K 4 (2 s): full length (L-1) 2 + 4; Qwen3-TTS keeps the first L s.
TEST(ConvReference, TransposedScatterAndTrimByHand) {
  ref::Sequences const x{1, 2, 1, {1.0, 10.0}};
  std::vector<double> const w{1.0, 2.0, 3.0, 4.0};
  auto const full = ref::conv_transpose1d(x, w, 1, 4, 2, 0, 0, {});
  EXPECT_EQ(full, (std::vector<double>{1, 2, 3 + 10, 4 + 20, 30, 40}));
  auto const causal = ref::conv_transpose1d(x, w, 1, 4, 2, 0, 4 - 2, {});
  EXPECT_EQ(causal, (std::vector<double>{1, 2, 13, 24}));  // 2 frames -> 4 samples
  auto const symmetric = ref::conv_transpose1d(x, w, 1, 4, 2, 2, 2, {});  // an earlier qwen_tts trimmed both sides
  EXPECT_EQ(symmetric, (std::vector<double>{13, 24}));
}

TEST(ConvReference, DepthwiseByHand) {
  ref::Sequences const x{1, 3, 2, {1, 2, 3, 4, 5, 6}};
  std::vector<double> const w{1, 10, 2, 20};  // channel 0 {1, 10}, channel 1 {2, 20}
  auto const y = ref::depthwise_conv1d(x, w, 2, {0.5, -0.5});
  EXPECT_EQ(y, (std::vector<double>{10 + 0.5, 40 - 0.5, 1 + 30 + 0.5, 2 * 2 + 80 - 0.5, 3 + 50 + 0.5,
                                    2 * 4 + 120 - 0.5}));
}

TEST(ConvReference, ActivationValues) {
  EXPECT_NEAR(ref::gelu(1.0), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(ref::gelu(-1.0), -0.15865525393145707, 1e-15);
  EXPECT_DOUBLE_EQ(ref::gelu(0.0), 0.0);
  // alpha = beta = e^0 = 1: 1 + sin^2(1) / (1 + 1e-9)
  EXPECT_NEAR(ref::snake_beta(1.0, 0.0, 0.0), 1.0 + 0.7080734182735712 / (1.0 + 1e-9), 1e-15);
  // alpha = 2, beta = 0.5: -0.3 + sin^2(-0.6) / (0.5 + 1e-9)
  EXPECT_NEAR(ref::snake_beta(-0.3, std::log(2.0), std::log(0.5)), -0.3 + 0.31882112276166324 / (0.5 + 1e-9), 1e-14);
  ref::Epilogue epi{2, {0.25}, {0.0}, {0.0}};
  EXPECT_NEAR(epi(0.75, 0), ref::snake_beta(1.0, 0.0, 0.0), 1e-15);
}

TEST(ConvReference, LayerNormByHand) {
  std::vector<double> const x{1, 2, 3, 4};
  auto const y = ref::layernorm(x, 1, 4, {1, 1, 2, 1}, {0, 0, 0, 1}, 1e-6);
  double const rstd = 1.0 / std::sqrt(1.25 + 1e-6);
  EXPECT_NEAR(y[0], -1.5 * rstd, 1e-15);
  EXPECT_NEAR(y[1], -0.5 * rstd, 1e-15);
  EXPECT_NEAR(y[2], 2 * 0.5 * rstd, 1e-15);
  EXPECT_NEAR(y[3], 1.5 * rstd + 1, 1e-15);
}

// Convolved in chunks (ragged: 1, 7, 0, 13, 19 frames), each from the state the last left,
// a sequence gives what it gives whole, for every kernel size and dilation of the decoder.
TEST(ConvReference, StreamingEqualsWhole) {
  std::mt19937_64 rng(47);
  for (auto [K, d] : {std::pair{7, 1}, std::pair{7, 3}, std::pair{7, 9}, std::pair{3, 1}, std::pair{1, 1}}) {
    SCOPED_TRACE("K " + std::to_string(K) + " d " + std::to_string(d));
    int const c_in = 3, c_out = 2, pad = (K - 1) * d;
    ref::Sequences x{2, 40, c_in, random_vector(2 * 40 * c_in, rng)};
    auto const w = random_vector(std::size_t(c_out) * c_in * K, rng);
    ref::Epilogue const epi{1, random_vector(c_out, rng), {}, {}};
    auto const whole = ref::causal_conv1d(x, w, c_out, K, d, epi);
    std::vector<double> state(std::size_t(2) * pad * c_in, 0.0);
    std::vector<std::vector<double>> parts;
    int begin = 0;
    for (int len : {1, 7, 0, 13, 19}) {
      auto const chunk = slice(x, begin, begin + len);
      parts.push_back(ref::causal_conv1d(chunk, w, c_out, K, d, epi, state));
      state = ref::state_after(chunk, pad, state);
      begin += len;
    }
    for (int b = 0; b < 2; ++b) {
      int t = 0;
      std::size_t p = 0;
      for (int len : {1, 7, 0, 13, 19}) {
        for (int i = 0; i < len; ++i, ++t)
          for (int co = 0; co < c_out; ++co)
            ASSERT_NEAR(parts[p][(std::size_t(b) * len + i) * c_out + co], whole[(std::size_t(b) * 40 + t) * c_out + co],
                        1e-12);
        ++p;
      }
    }
  }
}
