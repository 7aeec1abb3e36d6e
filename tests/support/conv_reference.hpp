// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// float64 references of the convolution kernels' formulas, written from PyTorch's definitions
// (Conv1d over a left-padded input, ConvTranspose1d as a scatter then a slice) as Qwen3-TTS's
// speech-tokenizer decoder uses them, and not from the kernels: the causal conv1d (zero or carried
// left context), the causal transposed conv1d, the depthwise conv, GELU, SnakeBeta (log-scale
// parameters) and LayerNorm. Activations channels-last (batch, time, channels); weights in
// PyTorch's layouts. tests/cpu/conv proves them on hand cases, tests/gpu/conv checks the kernels.
#include <cmath>
#include <cstddef>
#include <vector>

namespace cute_cpp::test::conv {

// ---- activations ----

/// torch.nn.GELU() (erf form).
inline double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

/// Qwen3-TTS's SnakeBeta: x + sin^2(x e^alpha_log) / (e^beta_log + 1e-9).
inline double snake_beta(double x, double alpha_log, double beta_log) {
  double const s = std::sin(x * std::exp(alpha_log));
  return x + s * s / (std::exp(beta_log) + 1e-9);
}

/// The epilogue every conv kernel applies: act(v + bias[c]) (+ residual), act 0 none, 1 GELU,
/// 2 SnakeBeta; empty vectors mean no bias / no parameters.
struct Epilogue {
  int activation = 0;
  std::vector<double> bias, alpha_log, beta_log;
  [[nodiscard]] double operator()(double v, int c) const {
    if (!bias.empty()) v += bias[c];
    if (activation == 1) return gelu(v);
    if (activation == 2) return snake_beta(v, alpha_log[c], beta_log[c]);
    return v;
  }
};

// ---- causal conv1d ----

/// A batch of channels-last sequences: x (batch, length, channels).
struct Sequences {
  int batch = 0, length = 0, channels = 0;
  std::vector<double> x;
  [[nodiscard]] double at(int b, int t, int c) const { return x[(std::size_t(b) * length + t) * channels + c]; }
};

/// The input left-padded as Qwen3-TTS's CausalConvNet pads it: `pad` rows of the state (batch,
/// pad, channels) when given, else zeros, then x: (batch, pad + length, channels).
inline Sequences left_pad(Sequences const& x, int pad, std::vector<double> const& state) {
  Sequences p{x.batch, pad + x.length, x.channels, {}};
  p.x.assign(std::size_t(p.batch) * p.length * p.channels, 0.0);
  for (int b = 0; b < x.batch; ++b)
    for (int t = 0; t < p.length; ++t)
      for (int c = 0; c < x.channels; ++c) {
        double v = 0.0;
        if (t >= pad) v = x.at(b, t - pad, c);
        else if (!state.empty()) v = state[(std::size_t(b) * pad + t) * x.channels + c];
        p.x[(std::size_t(b) * p.length + t) * p.channels + c] = v;
      }
  return p;
}

/// nn.Conv1d(c_in, c_out, K, dilation=d) over the input left-padded by (K-1) d: w (c_out, c_in, K),
/// y[b, t, co] = epi(sum_{k, ci} w[co, ci, k] xpad[b, t + k d, ci]); (batch, length, c_out).
inline std::vector<double> causal_conv1d(Sequences const& x, std::vector<double> const& w, int c_out, int K, int d,
                                         Epilogue const& epi, std::vector<double> const& state = {},
                                         std::vector<double> const& residual = {}) {
  int const pad = (K - 1) * d;
  Sequences const p = left_pad(x, pad, state);
  std::vector<double> y(std::size_t(x.batch) * x.length * c_out);
  for (int b = 0; b < x.batch; ++b)
    for (int t = 0; t < x.length; ++t)
      for (int co = 0; co < c_out; ++co) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k)
          for (int ci = 0; ci < x.channels; ++ci)
            acc += w[(std::size_t(co) * x.channels + ci) * K + k] * p.at(b, t + k * d, ci);
        std::size_t const o = (std::size_t(b) * x.length + t) * c_out + co;
        y[o] = epi(acc, co) + (residual.empty() ? 0.0 : residual[o]);
      }
  return y;
}

/// The state a chunk leaves for the next: the last `pad` rows of [state_in (or zeros), x], per sequence.
inline std::vector<double> state_after(Sequences const& x, int pad, std::vector<double> const& state_in) {
  Sequences const p = left_pad(x, pad, state_in);
  std::vector<double> s(std::size_t(x.batch) * pad * x.channels);
  for (int b = 0; b < x.batch; ++b)
    for (int j = 0; j < pad; ++j)
      for (int c = 0; c < x.channels; ++c)
        s[(std::size_t(b) * pad + j) * x.channels + c] = p.at(b, x.length + j, c);
  return s;
}

/// The depthwise causal conv (groups = channels, dilation 1): w (channels, K), y[b, t, c] =
/// bias[c] + sum_k w[c, k] xpad[b, t + k, c].
inline std::vector<double> depthwise_conv1d(Sequences const& x, std::vector<double> const& w, int K,
                                            std::vector<double> const& bias, std::vector<double> const& state = {}) {
  Sequences const p = left_pad(x, K - 1, state);
  std::vector<double> y(std::size_t(x.batch) * x.length * x.channels);
  for (int b = 0; b < x.batch; ++b)
    for (int t = 0; t < x.length; ++t)
      for (int c = 0; c < x.channels; ++c) {
        double acc = bias.empty() ? 0.0 : bias[c];
        for (int k = 0; k < K; ++k) acc += w[std::size_t(c) * K + k] * p.at(b, t + k, c);
        y[(std::size_t(b) * x.length + t) * x.channels + c] = acc;
      }
  return y;
}

// ---- causal transposed conv1d ----

/// nn.ConvTranspose1d(c_in, c_out, K, stride=s) as a scatter, then the slice [trim_left, full -
/// trim_right) of its (length - 1) s + K samples: w (c_in, c_out, K); each input frame i adds
/// w[ci, co, k] x[i, ci] to sample i s + k. Qwen3-TTS's CausalTransConvNet: trim_left 0,
/// trim_right K - s. (batch, full - trims, c_out), the epilogue applied after the slice.
inline std::vector<double> conv_transpose1d(Sequences const& x, std::vector<double> const& w, int c_out, int K, int s,
                                            int trim_left, int trim_right, Epilogue const& epi,
                                            std::vector<double> const& residual = {}) {
  int const full = x.length == 0 ? 0 : (x.length - 1) * s + K;
  int const out_len = full - trim_left - trim_right > 0 ? full - trim_left - trim_right : 0;
  std::vector<double> acc(std::size_t(x.batch) * (full > 0 ? full : 0) * c_out, 0.0);
  for (int b = 0; b < x.batch; ++b)
    for (int i = 0; i < x.length; ++i)
      for (int k = 0; k < K; ++k)
        for (int co = 0; co < c_out; ++co) {
          double sum = 0.0;
          for (int ci = 0; ci < x.channels; ++ci) sum += w[(std::size_t(ci) * c_out + co) * K + k] * x.at(b, i, ci);
          acc[(std::size_t(b) * full + i * s + k) * c_out + co] += sum;
        }
  std::vector<double> y(std::size_t(x.batch) * out_len * c_out);
  for (int b = 0; b < x.batch; ++b)
    for (int t = 0; t < out_len; ++t)
      for (int co = 0; co < c_out; ++co) {
        std::size_t const o = (std::size_t(b) * out_len + t) * c_out + co;
        y[o] = epi(acc[(std::size_t(b) * full + t + trim_left) * c_out + co], co) + (residual.empty() ? 0.0 : residual[o]);
      }
  return y;
}

// ---- LayerNorm ----

/// nn.LayerNorm(width, eps) over each row of (rows, width): (x - mean) / sqrt(var + eps) w + b,
/// var the biased (population) variance.
inline std::vector<double> layernorm(std::vector<double> const& x, int rows, int width, std::vector<double> const& w,
                                     std::vector<double> const& b, double eps) {
  std::vector<double> y(x.size());
  for (int r = 0; r < rows; ++r) {
    double mean = 0.0, var = 0.0;
    for (int j = 0; j < width; ++j) mean += x[std::size_t(r) * width + j];
    mean /= width;
    for (int j = 0; j < width; ++j) {
      double const e = x[std::size_t(r) * width + j] - mean;
      var += e * e;
    }
    double const rstd = 1.0 / std::sqrt(var / width + eps);
    for (int j = 0; j < width; ++j)
      y[std::size_t(r) * width + j] = (x[std::size_t(r) * width + j] - mean) * rstd * w[j] + b[j];
  }
  return y;
}

}  // namespace cute_cpp::test::conv
