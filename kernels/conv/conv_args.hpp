// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The convolution kernels' arguments (one struct an entry point, T the activations' type) and the
// host checks on their sizes, channels, epilogue and alignment, made before any launch. Host only;
// no CUDA header, so tests/cpu/conv checks every rule with g++. Rules: conv.shape, conv.channels,
// conv.activation, conv.alignment (and conv.pointers, conv.stream, conv.aliasing in the .cuh entries).
// Activations are channels-last: (batch, time, channels), dense.
#include <cute_cpp/kernels/conv/conv_plan.hpp>  // ConvActivation, ConvGeometry

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

// ---- the arguments ----

/// What the implicit GEMM's epilogue does to each output: v = acc + bias[c] (bias f32, or null
/// for none), then the activation (SnakeBeta takes log alpha and log beta, f32 per channel), then
/// + residual (the output's shape, or null).
struct ConvEpilogueArguments {
  float const* bias = nullptr;
  ConvActivation activation = ConvActivation::none;
  float const* alpha_log = nullptr;
  float const* beta_log = nullptr;
};

/// Causal conv1d: out[b, t, co] = epilogue(sum_{k, ci} w[co, ci, k] x[b, t - (K-1-k) d, ci]).
/// x (batch, length, c_in); weight packed (c_out, K * c_in) by run_conv_pack_weight; out and
/// residual (batch, length, c_out). Left context: state_in (batch, (K-1) d, c_in), the previous
/// chunk's last inputs, oldest first (null: zeros); state_out (may be state_in) gets this chunk's
/// continuation state (null: not written).
template <class T>
struct CausalConv1dArguments {
  T const* x = nullptr;
  T const* weight = nullptr;
  T* out = nullptr;
  T const* residual = nullptr;
  T const* state_in = nullptr;
  T* state_out = nullptr;
  ConvEpilogueArguments epilogue;
  int batch = 0;
  int length = 0;
  int c_in = 0;
  int c_out = 0;
  int kernel_size = 1;
  int dilation = 1;
};

/// Causal ConvTranspose1d of the plan's stride s and kernel size (Qwen3-TTS's: the right
/// kernel - s samples trimmed): out[b, s q + r, co] = epilogue(sum_{j < K/s, ci} w[ci, co, r + j s]
/// x[b, q - j, ci]). x (batch, length, c_in); weight packed (s c_out, (K/s) c_in) by
/// run_conv_transpose_pack_weight; out and residual (batch, length s, c_out); states
/// (batch, K/s - 1, c_in) as for the causal conv.
template <class T>
struct ConvTranspose1dArguments {
  T const* x = nullptr;
  T const* weight = nullptr;
  T* out = nullptr;
  T const* residual = nullptr;
  T const* state_in = nullptr;
  T* state_out = nullptr;
  ConvEpilogueArguments epilogue;
  int batch = 0;
  int length = 0;
  int c_in = 0;
  int c_out = 0;
};

/// Depthwise causal conv1d (groups = channels, dilation 1): out[b, t, c] = bias[c] + sum_k
/// w[c, k] x[b, t - (K-1) + k, c]; weight (channels, K) (PyTorch's (C, 1, K)), bias f32 or null;
/// states (batch, K - 1, channels) as for the causal conv.
template <class T>
struct DepthwiseConv1dArguments {
  T const* x = nullptr;
  T const* weight = nullptr;
  float const* bias = nullptr;
  T* out = nullptr;
  T const* state_in = nullptr;
  T* state_out = nullptr;
  int batch = 0;
  int length = 0;
  int channels = 0;
};

// ---- the checks ----

namespace detail {
[[noreturn]] inline void conv_fail(char const* message, std::string const& values) {
  throw std::invalid_argument(std::string(message) + " (" + values + ")");
}
inline std::string conv_value(char const* name, std::int64_t v) { return std::string(name) + "=" + std::to_string(v); }
}  // namespace detail

/// A count (batch, length, channels, kernel size, dilation) within [lo, 2^31).
inline void check_conv_count(char const* name, std::int64_t value, std::int64_t lo) {
  if (value < lo || value > INT32_MAX)
    detail::conv_fail("cute-cpp [conv.shape]: a size is out of range (batch and length >= 0, channels, kernel size "
                      "and dilation >= 1, all below 2^31)",
                      detail::conv_value(name, value));
}

/// The implicit GEMM's grid takes a sequence a z index: at most 65535 sequences a launch.
inline void check_conv_batch(int batch) {
  if (batch > 65535)
    detail::conv_fail("cute-cpp [conv.shape]: at most 65535 sequences a launch (the grid's z extent)",
                      detail::conv_value("batch", batch));
}

/// The implicit GEMM reads x, the state and the weight in 16-byte vectors of 8 elements, which
/// never straddle a tap: c_in a multiple of 8.
inline void check_conv_channels(int c_in) {
  if (c_in < 8 || c_in % 8 != 0)
    detail::conv_fail("cute-cpp [conv.channels]: the input channels must be a multiple of 8 (16-byte vectors)",
                      detail::conv_value("c_in", c_in));
}

/// The activation is one of ConvActivation's; SnakeBeta has its two parameter vectors.
inline void check_conv_epilogue(ConvEpilogueArguments const& e) {
  int const a = int(e.activation);
  if (a < 0 || a > 2)
    detail::conv_fail("cute-cpp [conv.activation]: the activation must be none, gelu or snake_beta",
                      detail::conv_value("activation", a));
  if (e.activation == ConvActivation::snake_beta && (e.alpha_log == nullptr || e.beta_log == nullptr))
    detail::conv_fail("cute-cpp [conv.activation]: snake_beta needs alpha_log and beta_log",
                      std::string("alpha_log ") + (e.alpha_log ? "set" : "null") + ", beta_log " +
                          (e.beta_log ? "set" : "null"));
}

/// A pointer the kernel reads in 16-byte vectors is 16-byte aligned (null passes: optional).
inline void check_conv_aligned(char const* name, void const* p) {
  if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0)
    detail::conv_fail("cute-cpp [conv.alignment]: x, the weight, the states, out and the residual must be 16-byte aligned",
                      std::string(name) + " at byte offset " + std::to_string(reinterpret_cast<std::uintptr_t>(p) % 16));
}

/// The causal conv's sizes: batch, length >= 0; c_in a multiple of 8; c_out, kernel, dilation >= 1;
/// the state ((kernel - 1) dilation rows) below 2^31 elements a sequence.
inline void check_conv_geometry(int batch, std::int64_t length, int c_in, int c_out, int kernel_size, int dilation) {
  check_conv_count("batch", batch, 0);
  check_conv_count("length", length, 0);
  check_conv_count("c_out", c_out, 1);
  check_conv_count("kernel_size", kernel_size, 1);
  check_conv_count("dilation", dilation, 1);
  check_conv_channels(c_in);
  check_conv_count("state elements", std::int64_t(kernel_size - 1) * dilation * c_in, 0);
  check_conv_count("kernel_size * c_in", std::int64_t(kernel_size) * c_in, 1);
}

}  // namespace cute_cpp::kernels
