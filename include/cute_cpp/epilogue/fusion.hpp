// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Epilogue functors: what a GEMM applies to each accumulator element before converting it to
// the output type. A functor is called as f(acc, row, col) with the element's global row and
// column (both inside the problem) and returns the value to store. Parameters (scalars,
// pointers) live in the functor, which the kernel receives by value.
// CuTeDSL: the epilogue fusion of the dense GEMM examples (epilogue_op on TensorSSA).
#include <cute_cpp/config.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::epilogue {

/// A read of a parameter array no kernel writes while it runs (scales, biases), through the
/// read-only path on the device: such loads may be merged, so a value each thread reads for many
/// elements (a per-tensor scale, its rows' scales) is loaded once rather than per element.
/// NOTE: with plain loads the FP8 GEMM's epilogue reloaded both scales for every element (ncu:
/// 99.97% L1 hits, the SMs at 46% of their throughput against cuBLAS's 81% at 4096^3).
template <class T>
CUTE_CPP_HD T read_only(T const* p, std::int64_t i) {
#if defined(__CUDA_ARCH__)
  return __ldg(p + i);
#else
  return p[i];
#endif
}

/// D = acc.
struct Identity {
  CUTE_CPP_HD float operator()(float acc, std::int64_t, std::int64_t) const { return acc; }
};

/// Activations, applied after the linear combination.
struct NoActivation {
  CUTE_CPP_HD float operator()(float x) const { return x; }
};
struct ReLU {
  CUTE_CPP_HD float operator()(float x) const { return x > 0.0f ? x : 0.0f; }
};
/// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
struct GELU {
  CUTE_CPP_HD float operator()(float x) const {
    return 0.5f * x * (1.0f + ::tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
  }
};
/// SiLU: x / (1 + e^-x).
struct SiLU {
  CUTE_CPP_HD float operator()(float x) const { return x / (1.0f + ::expf(-x)); }
};
/// Squared ReLU: max(x, 0)^2 (Primer; the non-gated experts of Nemotron-H, transformers' "relu2").
struct ReLUSquared {
  CUTE_CPP_HD float operator()(float x) const {
    float const r = x > 0.0f ? x : 0.0f;
    return r * r;
  }
};

/// D = act(acc): an activation alone, reading neither the element's row nor its column, so a
/// grouped GEMM (whose row is the group's, not C's) may apply it.
template <class Activation>
struct Activated {
  // NOTE: not [[no_unique_address]], as Gated's below.
  Activation activation{};
  CUTE_CPP_HD float operator()(float acc, std::int64_t, std::int64_t) const { return activation(acc); }
};

/// Whether an epilogue functor reads nothing but the accumulator (Identity, Activated).
template <class Op>
inline constexpr bool is_elementwise_v = false;
template <>
inline constexpr bool is_elementwise_v<Identity> = true;
template <class Activation>
inline constexpr bool is_elementwise_v<Activated<Activation>> = true;

/// D = act(alpha * acc + beta * source[row, col] + bias[col]); source and bias may be null.
template <class Source, class Activation = NoActivation>
struct LinearCombination {
  float alpha = 1.0f;
  float beta = 0.0f;
  Source const* source = nullptr;  ///< row-major, ld_source elements between rows
  std::int64_t ld_source = 0;
  float const* bias = nullptr;     ///< one value per column
  [[no_unique_address]] Activation activation{};

  CUTE_CPP_HD float operator()(float acc, std::int64_t row, std::int64_t col) const {
    float v = alpha * acc;
    if (source != nullptr && beta != 0.0f) v += beta * static_cast<float>(source[row * ld_source + col]);
    if (bias != nullptr) v += read_only(bias, col);
    return activation(v);
  }
};

/// D = act(acc * scale_a * scale_b + bias[col]) for operands stored scaled (FP8: A = A_real /
/// scale_a, B = B_real / scale_b): scale_a is one float for all of A, or with a_per_row one per
/// row of A (C's rows); scale_b one float, or with b_per_column one per column of B (C's
/// columns: a weight's rows). The scales and the bias live in device memory, as torch._scaled_mm
/// takes its scale tensors; a null scale is 1. A kernel applies prepared() (epilogue::prepared),
/// which reads the per-tensor scales once. CuTeDSL: the dense FP8 GEMM's scale_a / scale_b.
template <class Activation = NoActivation>
struct Dequantize {
  float const* scale_a = nullptr;
  float const* scale_b = nullptr;
  float const* bias = nullptr;  ///< one value per column, or null
  bool a_per_row = false;
  bool b_per_column = false;
  // NOTE: not [[no_unique_address]], as Gated's.
  Activation activation{};
  /// The per-tensor scales, read once by prepared() (1 where a scale is per row or column).
  float a_value = 1.0f, b_value = 1.0f;

  /// A copy with the per-tensor scales in registers (epilogue::prepared calls it once a CTA).
  CUTE_CPP_HD Dequantize prepared() const {
    Dequantize p = *this;
    p.a_per_row = a_per_row && scale_a != nullptr;  // a null scale is 1, whatever the flag says
    p.b_per_column = b_per_column && scale_b != nullptr;
    if (scale_a != nullptr && !a_per_row) p.a_value = read_only(scale_a, 0);
    if (scale_b != nullptr && !b_per_column) p.b_value = read_only(scale_b, 0);
    return p;
  }
  CUTE_CPP_HD float operator()(float acc, std::int64_t row, std::int64_t col) const {
    float v = acc * (a_per_row ? read_only(scale_a, row) : a_value) * (b_per_column ? read_only(scale_b, col) : b_value);
    if (bias != nullptr) v += read_only(bias, col);
    return activation(v);
  }
};

/// What a kernel applies: op.prepared() where the functor has it (values it would otherwise read
/// for every element, loaded once), else op.
template <class Op>
CUTE_CPP_HD Op prepared(Op const& op) {
  if constexpr (requires { op.prepared(); }) return op.prepared();
  else return op;
}

/// A gated epilogue (the GLU family): out = act(gate) * up. The GEMM's B interleaves gate and up
/// columns in blocks of 8: GEMM columns 16b .. 16b + 7 are gate columns 8b .. 8b + 7 and GEMM
/// columns 16b + 8 .. 16b + 15 the up columns 8b .. 8b + 7 (gated_gate_row / gated_up_row say
/// where each weight row goes), and C has half the GEMM's columns. Blocks of 8 are the width of a
/// wgmma accumulator's column block, so each thread holds every gate value beside its up value
/// and the outputs form an accumulator of half the width. (CuTeDSL: no fusion of its own; the
/// interleaving is what serving engines do with a fused gate-up weight.)
template <class Activation>
struct Gated {
  static constexpr int block = 8;
  // NOTE: not [[no_unique_address]]: a kernel parameter whose only member takes no space is an
  // empty parameter type to nvcc, which it rejects.
  Activation activation{};
  CUTE_CPP_HD float operator()(float gate, float up) const { return activation(gate) * up; }
};
/// SwiGLU: silu(gate) * up (Llama, Qwen); GeGLU: gelu(gate) * up.
using SwiGLU = Gated<SiLU>;
using GeGLU = Gated<GELU>;

template <class Op>
inline constexpr bool is_gated_v = false;
template <class Activation>
inline constexpr bool is_gated_v<Gated<Activation>> = true;

/// The row of the interleaved (2F, K) gate-up weight that holds row r of the gate weight (F, K).
CUTE_CPP_HD constexpr std::int64_t gated_gate_row(std::int64_t r) { return r / 8 * 16 + r % 8; }
/// The row of the interleaved weight that holds row r of the up weight (F, K).
CUTE_CPP_HD constexpr std::int64_t gated_up_row(std::int64_t r) { return r / 8 * 16 + 8 + r % 8; }

}  // namespace cute_cpp::epilogue
