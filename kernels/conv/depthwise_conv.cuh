// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The depthwise causal conv1d of ConvNeXt's block in Qwen3-TTS's decoder (kernel 7, groups =
// channels, with bias), channels-last: out[b, t, c] = bias[c] + sum_k w[c, k] x[b, t - (K-1) + k, c],
// the inputs before the chunk from the carried state (or zero); the state for the next chunk is
// written by the causal conv's state kernel. Memory-bound: each input is read once per tile.
// Steps: (1) a block takes 128 channels of one 64-step time tile of one sequence; (2) a thread
// reads the K-1 inputs before its tile (x, the state, or zero) into a register window and its K
// weights; (3) it walks the tile, shifting the window, and stores bias + w . window rounded to T.
#include <cute_cpp/kernels/conv/causal_conv.cuh>  // conv_state_update_kernel, conv_detail::check_pointers
#include <cute_cpp/kernels/conv/conv_args.hpp>    // DepthwiseConv1dArguments, checks
#include <cute_cpp/kernels/conv/conv_plan.hpp>    // DepthwiseConvPlan

#include <cute_cpp/host/arguments.hpp>  // check_disjoint
#include <cute_cpp/host/launch.hpp>     // launch, LaunchConfig

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// One (channel block, time tile, sequence); see the file comment's steps.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::channels_per_block)
depthwise_conv1d_kernel(DepthwiseConv1dArguments<T> const a) {
  constexpr int K = Plan::kernel, P = Plan::state_len;
  int const c = int(blockIdx.x) * Plan::channels_per_block + int(threadIdx.x);
  int const t0 = int(blockIdx.y) * Plan::tile, b = int(blockIdx.z);
  if (c >= a.channels) return;
  T const* const xb = a.x + std::int64_t(b) * a.length * a.channels + c;   // (length,channels), column c
  T* const ob = a.out + std::int64_t(b) * a.length * a.channels + c;       // (length,channels), column c
  float w[K];
#pragma unroll
  for (int k = 0; k < K; ++k) w[k] = float(a.weight[std::int64_t(c) * K + k]);
  float const bias = a.bias != nullptr ? a.bias[c] : 0.0f;
  float win[K];  // win[k]: the input at t - (K-1) + k for the step t about to be computed
#pragma unroll
  for (int j = 0; j < P; ++j) {
    int const t = t0 - P + j;
    float v = 0.0f;
    if (t >= 0) v = float(xb[std::int64_t(t) * a.channels]);
    else if (a.state_in != nullptr) v = float(a.state_in[(std::int64_t(b) * P + P + t) * a.channels + c]);
    win[j] = v;
  }
  int const t1 = t0 + Plan::tile < a.length ? t0 + Plan::tile : a.length;
  for (int t = t0; t < t1; ++t) {
    win[K - 1] = float(xb[std::int64_t(t) * a.channels]);
    float acc = bias;
#pragma unroll
    for (int k = 0; k < K; ++k) acc = fmaf(w[k], win[k], acc);
    ob[std::int64_t(t) * a.channels] = T(acc);
#pragma unroll
    for (int k = 0; k < K - 1; ++k) win[k] = win[k + 1];
  }
}

/// Checks `a` and launches the depthwise conv of Plan (DepthwiseConvPlan<K>), then the state update
/// when state_out is set. @pre [conv.shape] batch, length >= 0, channels >= 1; [conv.pointers] x,
/// weight, out device memory; [conv.aliasing] out apart from x, weight and state_in, state_out
/// equal to state_in or apart from it, x and out.
template <class Plan, class T>
void run_depthwise_conv1d(DepthwiseConv1dArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_conv_count("batch", a.batch, 0);
  check_conv_count("length", a.length, 0);
  check_conv_count("channels", a.channels, 1);
  check_conv_batch(a.batch);
  host::PointerArgument const pointers[] = {{"x", a.x}, {"weight", a.weight}, {"out", a.out}};
  conv_detail::check_pointers(pointers, stream);
  std::size_t const x_bytes = std::size_t(a.batch) * std::size_t(a.length) * std::size_t(a.channels) * sizeof(T);
  std::size_t const state_bytes = std::size_t(a.batch) * Plan::state_len * std::size_t(a.channels) * sizeof(T);
  host::ByteRange const inputs[] = {{"x", a.x, x_bytes},
                                    {"weight", a.weight, std::size_t(a.channels) * Plan::kernel * sizeof(T)},
                                    {"state_in", a.state_in, state_bytes}};
  host::ByteRange const written{"out", a.out, x_bytes};
  host::check_disjoint("conv", written, inputs);
  if (a.state_out != nullptr && a.state_out != a.state_in) {
    host::ByteRange const read[] = {{"x", a.x, x_bytes}, {"state_in", a.state_in, state_bytes}, {"out", a.out, x_bytes}};
    host::ByteRange const state_written{"state_out", a.state_out, state_bytes};
    host::check_disjoint("conv", state_written, read);
  }
  if (a.batch == 0 || a.length == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((a.channels + Plan::channels_per_block - 1) / Plan::channels_per_block),
                     unsigned((a.length + Plan::tile - 1) / Plan::tile), unsigned(a.batch));
  config.block = dim3(Plan::channels_per_block);
  config.stream = stream;
  host::launch(&depthwise_conv1d_kernel<T, Plan>, "depthwise_conv1d_kernel", config, a);
  if (a.state_out != nullptr && Plan::state_len > 0) {
    host::LaunchConfig update;
    update.grid = dim3(unsigned((a.channels + 127) / 128), unsigned(a.batch));
    update.block = dim3(128);
    update.stream = stream;
    host::launch(&conv_state_update_kernel<T>, "conv_state_update_kernel", update, a.x, static_cast<T const*>(a.state_in),
                 a.state_out, a.length, a.channels, int(Plan::state_len));
  }
}

}  // namespace cute_cpp::kernels
