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
    if (bias != nullptr) v += bias[col];
    return activation(v);
  }
};

}  // namespace cute_cpp::epilogue
