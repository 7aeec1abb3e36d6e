// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The causal conv1d and the causal transposed conv1d entry points (Qwen3-TTS's CausalConvNet and
// CausalTransConvNet, channels-last), both on the implicit GEMM (implicit_gemm.cuh):
//   run_causal_conv1d<GemmPlan>: any kernel size and dilation, zero or carried left context.
//   run_causal_conv_transpose1d<ConvTransposePlan<s, K, GemmPlan>>: the s output phases as columns.
//   run_conv_pack_weight / run_conv_transpose_pack_weight: PyTorch's weights to the packed
//     (columns, taps * c_in) operand, once at load time.
// Streaming: state_in holds the previous chunk's last state_len inputs; after the conv a small
// kernel writes this chunk's (state_out, which may be state_in: one thread a (sequence, channel)
// walks the rows upwards, reading each row ahead of the one it writes).
#include <cute_cpp/kernels/conv/conv_args.hpp>      // the arguments and host checks
#include <cute_cpp/kernels/conv/implicit_gemm.cuh>  // conv_implicit_gemm_kernel, ConvGemmParams

#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/host/launch.hpp>     // launch, LaunchConfig

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cute_cpp::kernels {

// ---- the carried state ----

/// state_out[b, j, c] = [state_in (or zeros), x][b, length + j, c] for j < state_len: the inputs
/// the next chunk sees before its first. One thread a (sequence, channel), rows in ascending order.
template <class T>
__global__ void __launch_bounds__(128)
conv_state_update_kernel(T const* x, T const* state_in, T* state_out, int length, int channels, int state_len) {
  int const c = int(blockIdx.x) * 128 + int(threadIdx.x), b = int(blockIdx.y);
  if (c >= channels) return;
  T const* const xb = x + std::int64_t(b) * length * channels + c;
  std::int64_t const base = std::int64_t(b) * state_len * channels + c;
  for (int j = 0; j < state_len; ++j) {
    int const src = length + j;  // a row of [state (state_len rows), x (length rows)]
    T v = T(0.0f);
    if (src >= state_len) v = xb[std::int64_t(src - state_len) * channels];
    else if (state_in != nullptr) v = state_in[base + std::int64_t(src) * channels];
    state_out[base + std::int64_t(j) * channels] = v;
  }
}

// ---- weight packing ----

/// packed[n, kk] = w[source(n, kk)]: the GEMM's B operand (n_cols, taps * c_in) from PyTorch's Conv1d
/// (c_out, c_in, K) or ConvTranspose1d (c_in, c_out, K) weight.
template <class T, bool Transposed>
__global__ void __launch_bounds__(256)
conv_pack_weight_kernel(T const* w, T* packed, int n_cols, int c_in, int c_out, int stride, int kernel) {
  int const taps = Transposed ? kernel / stride : kernel;
  std::int64_t const K = std::int64_t(taps) * c_in, total = std::int64_t(n_cols) * K;
  for (std::int64_t i = std::int64_t(blockIdx.x) * 256 + threadIdx.x; i < total; i += std::int64_t(gridDim.x) * 256) {
    int const n = int(i / K);
    std::int64_t const kk = i - std::int64_t(n) * K;
    packed[i] = w[Transposed ? conv_transpose_weight_source(c_in, c_out, stride, kernel, n, kk)
                             : conv_weight_source(c_in, taps, n, kk)];
  }
}

namespace conv_detail {

inline void check_pointers(std::span<host::PointerArgument const> pointers, cudaStream_t stream) {
  host::check_device_pointers("conv", pointers, stream);
  host::check_stream("conv", stream);
}

template <class T>
void launch_pack(T const* w, T* packed, int n_cols, int c_in, int c_out, int stride, int kernel, bool transposed,
                 cudaStream_t stream) {
  host::PointerArgument const pointers[] = {{"weight", w}, {"packed", packed}};
  check_pointers(pointers, stream);
  std::size_t const bytes = std::size_t(n_cols) * std::size_t(kernel / stride) * std::size_t(c_in) * sizeof(T);
  host::ByteRange const inputs[] = {{"weight", w, bytes}};
  host::ByteRange const written{"packed", packed, bytes};
  host::check_disjoint("conv", written, inputs);
  host::LaunchConfig config;
  config.grid = dim3(unsigned(std::min<std::size_t>((bytes / sizeof(T) + 255) / 256, 4096)));
  config.block = dim3(256);
  config.stream = stream;
  if (transposed)
    host::launch(&conv_pack_weight_kernel<T, true>, "conv_pack_weight_kernel", config, w, packed, n_cols, c_in, c_out,
                 stride, kernel);
  else
    host::launch(&conv_pack_weight_kernel<T, false>, "conv_pack_weight_kernel", config, w, packed, n_cols, c_in, c_out,
                 1, kernel);
}

/// Checks what both convs share, launches the implicit GEMM (its activation chosen at run time),
/// then the state update; x has p.length rows of c_in a sequence, the output p.length rows of n_cols.
template <class Plan, class T>
void run_gemm(ConvGemmParams<T> const& p, int batch, ConvEpilogueArguments const& epi, T* state_out,
              cudaStream_t stream) {
  check_conv_epilogue(epi);
  check_conv_aligned("x", p.x);
  check_conv_aligned("weight", p.w);
  check_conv_aligned("state_in", p.state);
  check_conv_aligned("out", p.out);
  check_conv_aligned("residual", p.residual);
  int const P = p.g.state_len();
  host::PointerArgument const pointers[] = {{"x", p.x}, {"weight", p.w}, {"out", p.out}};
  check_pointers(pointers, stream);
  std::size_t const x_bytes = std::size_t(batch) * std::size_t(p.length) * std::size_t(p.g.c_in) * sizeof(T);
  std::size_t const w_bytes = std::size_t(p.n_cols) * std::size_t(p.g.k_total()) * sizeof(T);
  std::size_t const state_bytes = std::size_t(batch) * std::size_t(P) * std::size_t(p.g.c_in) * sizeof(T);
  std::size_t const out_bytes = std::size_t(batch) * std::size_t(p.length) * std::size_t(p.n_cols) * sizeof(T);
  host::ByteRange const inputs[] = {{"x", p.x, x_bytes}, {"weight", p.w, w_bytes}, {"state_in", p.state, state_bytes}};
  host::ByteRange const written{"out", p.out, out_bytes};
  host::check_disjoint("conv", written, inputs);
  if (state_out != nullptr && state_out != p.state) {
    host::ByteRange const read[] = {{"x", p.x, x_bytes}, {"state_in", p.state, state_bytes}, {"out", p.out, out_bytes}};
    host::ByteRange const state_written{"state_out", state_out, state_bytes};
    host::check_disjoint("conv", state_written, read);
  }
  check_conv_batch(batch);
  if (batch == 0) return;
  if (p.length > 0) {
    host::LaunchConfig config;
    config.grid = dim3(unsigned((p.length + Plan::tile_m - 1) / Plan::tile_m),
                       unsigned((p.n_cols + Plan::tile_n - 1) / Plan::tile_n), unsigned(batch));
    config.block = dim3(Plan::threads);
    config.smem_bytes = Plan::smem_bytes;
    config.stream = stream;
    auto const launch = [&]<ConvActivation Act>() {
      host::launch(&conv_implicit_gemm_kernel<T, Plan, Act>, "conv_implicit_gemm_kernel", config, p);
    };
    if (epi.activation == ConvActivation::gelu) launch.template operator()<ConvActivation::gelu>();
    else if (epi.activation == ConvActivation::snake_beta) launch.template operator()<ConvActivation::snake_beta>();
    else launch.template operator()<ConvActivation::none>();
  }
  if (state_out != nullptr && P > 0 && p.length > 0) {
    host::LaunchConfig config;
    config.grid = dim3(unsigned((p.g.c_in + 127) / 128), unsigned(batch));
    config.block = dim3(128);
    config.stream = stream;
    host::launch(&conv_state_update_kernel<T>, "conv_state_update_kernel", config, p.x, p.state, state_out, p.length,
                 p.g.c_in, P);
  }
}

}  // namespace conv_detail

// ---- the entry points ----

/// Packs a Conv1d weight (c_out, c_in, kernel_size) into the implicit GEMM's (c_out, kernel_size *
/// c_in) operand. @pre [conv.shape], [conv.channels]; [conv.pointers] device memory.
template <class T>
void run_conv_pack_weight(T const* weight, T* packed, int c_out, int c_in, int kernel_size, cudaStream_t stream = nullptr) {
  check_conv_geometry(1, 0, c_in, c_out, kernel_size, 1);
  conv_detail::launch_pack(weight, packed, c_out, c_in, c_out, 1, kernel_size, false, stream);
}

/// Packs a ConvTranspose1d weight (c_in, c_out, Plan::kernel_size) into (Plan::stride * c_out,
/// Plan::taps * c_in). @pre [conv.shape], [conv.channels]; [conv.pointers] device memory.
template <class Plan, class T>
void run_conv_transpose_pack_weight(T const* weight, T* packed, int c_in, int c_out, cudaStream_t stream = nullptr) {
  check_conv_geometry(1, 0, c_in, c_out, Plan::taps, 1);
  check_conv_count("stride * c_out", std::int64_t(Plan::stride) * c_out, 1);
  conv_detail::launch_pack(weight, packed, Plan::stride * c_out, c_in, c_out, Plan::stride, Plan::kernel_size, true,
                           stream);
}

/// The causal conv1d of CausalConv1dArguments on the implicit GEMM of Plan (ConvWidePlan,
/// ConvNarrowPlan), then the state update when state_out is set.
/// @pre [conv.shape] sizes in range; [conv.channels] c_in a multiple of 8; [conv.activation];
///      [conv.alignment] x, weight, states, out, residual 16-byte aligned; [conv.pointers] x,
///      weight, out device memory; [conv.aliasing] out apart from x, weight, state_in; state_out
///      equal to state_in or apart from it, x and out.
template <class Plan, class T>
void run_causal_conv1d(CausalConv1dArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_conv_geometry(a.batch, a.length, a.c_in, a.c_out, a.kernel_size, a.dilation);
  check_conv_aligned("state_out", a.state_out);
  ConvGemmParams<T> p;
  p.x = a.x, p.w = a.weight, p.out = a.out, p.residual = a.residual, p.state = a.state_in;
  p.bias = a.epilogue.bias, p.alpha_log = a.epilogue.alpha_log, p.beta_log = a.epilogue.beta_log;
  p.g = ConvGeometry{a.c_in, a.kernel_size, a.dilation};
  p.length = a.length, p.n_cols = a.c_out, p.c_out = a.c_out;
  conv_detail::run_gemm<Plan>(p, a.batch, a.epilogue, a.state_out, stream);
}

/// The causal transposed conv1d of Plan (ConvTransposePlan<stride, kernel, GemmPlan>): the output
/// (batch, length * stride, c_out) as (batch, length, stride * c_out) of the GEMM; states of
/// Plan::taps - 1 inputs. @pre as run_causal_conv1d; [conv.shape] length * stride below 2^31.
template <class Plan, class T>
void run_causal_conv_transpose1d(ConvTranspose1dArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_conv_geometry(a.batch, a.length, a.c_in, a.c_out, Plan::taps, 1);
  check_conv_count("length * stride", conv_transpose_output_length(a.length, Plan::stride), 0);
  check_conv_count("stride * c_out", std::int64_t(Plan::stride) * a.c_out, 1);
  check_conv_aligned("state_out", a.state_out);
  ConvGemmParams<T> p;
  p.x = a.x, p.w = a.weight, p.out = a.out, p.residual = a.residual, p.state = a.state_in;
  p.bias = a.epilogue.bias, p.alpha_log = a.epilogue.alpha_log, p.beta_log = a.epilogue.beta_log;
  p.g = ConvGeometry{a.c_in, Plan::taps, 1};
  p.length = a.length, p.n_cols = Plan::stride * a.c_out, p.c_out = a.c_out;
  conv_detail::run_gemm<typename Plan::gemm>(p, a.batch, a.epilogue, a.state_out, stream);
}

}  // namespace cute_cpp::kernels
