// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The state-space kernels' arguments (one struct an entry point, T the activations' type) and the
// host checks on their sizes, strides and sequence offsets, made before any launch. Host only; no
// CUDA header, so tests/cpu/ssm checks every rule with g++. Rules: ssm.shape, ssm.stride,
// ssm.cu-seqlens, ssm.workspace (and ssm.pointers, ssm.stream, ssm.aliasing in the .cuh entries).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

// ---- the arguments ----

/// Causal conv1d over a varlen batch: x (T, channels) with row stride x_stride, weight (channels,
/// width), bias (channels) or null, y (T, channels) dense; conv states (slots, width-1, channels),
/// the oldest input first: initial_states (null: zeros) and final_states (may be the same buffer),
/// sequence s in slot state_slots[s] (null: slot s).
template <class T>
struct ConvPrefillArguments {
  T const* x = nullptr;
  std::int64_t x_stride = 0;
  T const* weight = nullptr;
  T const* bias = nullptr;
  T* y = nullptr;
  int channels = 0;
  int total_tokens = 0;
  int num_seqs = 0;
  int const* cu_seqlens = nullptr;       // device, num_seqs + 1 offsets from 0 to total_tokens
  int const* cu_seqlens_host = nullptr;  // optional host copy: checked when given
  T const* initial_states = nullptr;
  T* final_states = nullptr;
  int const* state_slots = nullptr;
};

/// One decode step of the conv1d: x (batch, channels) with row stride x_stride, y (batch, channels)
/// dense, states (slots, width-1, channels) updated in place; row b uses slot state_slots[b] (null:
/// slot b; negative: the row is padding, nothing is read or written).
template <class T>
struct ConvUpdateArguments {
  T const* x = nullptr;
  std::int64_t x_stride = 0;
  T const* weight = nullptr;
  T const* bias = nullptr;
  T* y = nullptr;
  T* states = nullptr;
  int const* state_slots = nullptr;
  int channels = 0;
  int batch = 0;
};

/// The Mamba-2 SSD prefill: x (T, H, P), dt (T, H) raw, B and C (T, G, N), each with its token
/// stride; dt_bias, A_log, D (H) f32; y (T, H, P) dense (before the gate). SSM states (slots, H, P,
/// N) f32: initial_states (null: zeros), final_states (may be the same buffer), sequence s in slot
/// state_slots[s] (null: slot s). workspace: ssd_workspace<Plan>(...).bytes, 256-byte aligned.
template <class T>
struct SsdPrefillArguments {
  T const* x = nullptr;
  std::int64_t x_stride = 0;
  T const* dt = nullptr;
  std::int64_t dt_stride = 0;
  T const* B = nullptr;
  T const* C = nullptr;
  std::int64_t bc_stride = 0;
  float const* dt_bias = nullptr;
  float const* A_log = nullptr;
  float const* D = nullptr;
  T* y = nullptr;
  int heads = 0;
  int groups = 0;
  int total_tokens = 0;
  int num_seqs = 0;
  int const* cu_seqlens = nullptr;
  int const* cu_seqlens_host = nullptr;
  float const* initial_states = nullptr;
  float* final_states = nullptr;
  int const* state_slots = nullptr;
  float dt_lo = 0.0f;
  float dt_hi = INFINITY;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

/// The decode step: x (batch, H, P), dt (batch, H), B and C (batch, G, N) with token strides;
/// states (slots, H, P, N) f32 updated in place, row b in slot state_slots[b] (null: slot b;
/// negative: padding, skipped); y (batch, H, P) dense.
template <class T>
struct StateUpdateArguments {
  T const* x = nullptr;
  std::int64_t x_stride = 0;
  T const* dt = nullptr;
  std::int64_t dt_stride = 0;
  T const* B = nullptr;
  T const* C = nullptr;
  std::int64_t bc_stride = 0;
  float const* dt_bias = nullptr;
  float const* A_log = nullptr;
  float const* D = nullptr;
  float* states = nullptr;
  int const* state_slots = nullptr;
  T* y = nullptr;
  int heads = 0;
  int groups = 0;
  int batch = 0;
  float dt_lo = 0.0f;
  float dt_hi = INFINITY;
};

/// out = rmsnorm_group(y * silu(z)) * weight over `groups` groups of each row's `width` channels:
/// y (tokens, width) with row stride y_stride, z with z_stride, weight (width), out dense.
template <class T>
struct GatedRmsNormArguments {
  T const* y = nullptr;
  std::int64_t y_stride = 0;
  T const* z = nullptr;
  std::int64_t z_stride = 0;
  T const* weight = nullptr;
  T* out = nullptr;
  int tokens = 0;
  int width = 0;
  int groups = 1;
  float eps = 1e-5f;
};

// ---- the checks ----

namespace detail {
[[noreturn]] inline void ssm_fail(char const* message, std::string const& values) {
  throw std::invalid_argument(std::string(message) + " (" + values + ")");
}
inline std::string ssm_value(char const* name, std::int64_t v) { return std::string(name) + "=" + std::to_string(v); }
}  // namespace detail

/// heads >= 1, groups >= 1, groups divides heads (each group's B and C serve heads / groups heads).
inline void check_ssm_heads(int heads, int groups) {
  if (heads < 1 || groups < 1 || heads % groups != 0)
    detail::ssm_fail("cute-cpp [ssm.shape]: heads and groups must be positive and groups must divide heads",
                     detail::ssm_value("heads", heads) + ", " + detail::ssm_value("groups", groups));
}

/// A count (tokens, sequences, channels, batch rows) within its bounds.
inline void check_ssm_count(char const* name, std::int64_t value, std::int64_t lo) {
  if (value < lo || value > INT32_MAX)
    detail::ssm_fail("cute-cpp [ssm.shape]: a size is out of range (tokens and rows >= 0, sequences, channels "
                     "and widths >= 1, all below 2^31)",
                     detail::ssm_value(name, value));
}

/// A token (row) stride covers the row: stride >= the row's elements.
inline void check_ssm_stride(char const* name, std::int64_t stride, std::int64_t row) {
  if (stride < row)
    detail::ssm_fail("cute-cpp [ssm.stride]: a row stride is shorter than the row it steps over",
                     std::string(name) + ": stride=" + std::to_string(stride) + ", row=" + std::to_string(row));
}

/// A host copy of cu_seqlens: 0 first, non-decreasing, total_tokens last (null: not checked).
inline void check_ssm_cu_seqlens(int const* cu, int num_seqs, std::int64_t total_tokens) {
  if (cu == nullptr) return;
  if (cu[0] != 0)
    detail::ssm_fail("cute-cpp [ssm.cu-seqlens]: cu_seqlens must start at 0", detail::ssm_value("cu_seqlens[0]", cu[0]));
  for (int s = 0; s < num_seqs; ++s) {
    if (cu[s + 1] < cu[s])
      detail::ssm_fail("cute-cpp [ssm.cu-seqlens]: cu_seqlens must not decrease",
                       "entry " + std::to_string(s + 1) + " is " + std::to_string(cu[s + 1]) + ", below " +
                           std::to_string(cu[s]));
  }
  if (cu[num_seqs] != total_tokens)
    detail::ssm_fail("cute-cpp [ssm.cu-seqlens]: cu_seqlens must end at the total token count",
                     detail::ssm_value("last", cu[num_seqs]) + ", " + detail::ssm_value("total_tokens", total_tokens));
}

/// The caller's workspace holds what the plan needs.
inline void check_ssm_workspace(std::size_t given, std::size_t needed) {
  if (given < needed)
    detail::ssm_fail("cute-cpp [ssm.workspace]: the workspace is too small; size it with ssd_workspace<Plan>(...).bytes",
                     "given " + std::to_string(given) + " bytes, needed " + std::to_string(needed));
}

/// The gated norm's groups split the row evenly.
inline void check_ssm_norm_groups(int width, int groups) {
  if (groups < 1 || width < 1 || width % groups != 0)
    detail::ssm_fail("cute-cpp [ssm.shape]: the norm's groups must divide the row width",
                     detail::ssm_value("width", width) + ", " + detail::ssm_value("groups", groups));
}

}  // namespace cute_cpp::kernels
