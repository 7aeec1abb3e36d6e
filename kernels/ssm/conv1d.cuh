// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Causal depthwise conv1d with per-channel bias and SiLU, as Mamba-2 applies it to its x, B, C
// channels: y[t, c] = silu(bias[c] + sum_k weight[c, k] * in[t - (W-1) + k, c]), where the inputs
// before a sequence's first token come from its conv state (or are 0).
//   run_causal_conv1d_prefill: a varlen batch (cu_seqlens), optional initial conv states, the final
//     states written (each sequence's last W-1 inputs), states slot-indexed.
//   run_causal_conv1d_update: one token a batch row against its slot's conv state, updated in place.
// Steps (prefill): (1) each block takes 128 channels of one 64-token tile of one sequence (tiles
// never cross a sequence: locate_tile); (an empty sequence has one empty tile, so its state is carried); (2) a thread reads the W-1 inputs before its tile (from
// the state on a first tile) into a register window; (3) a first tile writes the final state,
// read from x's last W-1 tokens (and the window, for a sequence shorter than W-1), after it has
// read the initial state: only first tiles touch a sequence's slot, so the state may be updated in
// place; (4) the thread walks its tile, shifting the window, and stores silu(acc) rounded to T.
#include <cute_cpp/kernels/ssm/ssm_args.hpp>    // ConvPrefillArguments, ConvUpdateArguments, checks
#include <cute_cpp/kernels/ssm/ssm_common.cuh>  // to_f32, from_f32, silu, state_slot

#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cstdint>

namespace cute_cpp::kernels {

// ---- prefill ----

/// The prefill conv over one (channel block, sequence tile); see the file comment's steps.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::channels_per_block)
causal_conv1d_prefill_kernel(ConvPrefillArguments<T> a) {
  constexpr int W = Plan::width;
  int const c = int(blockIdx.x) * Plan::channels_per_block + int(threadIdx.x);
  SeqTile const tile = locate_tile(a.cu_seqlens, a.num_seqs, Plan::tile, int(blockIdx.y), /*empty_tile=*/true);
  if (!tile.valid() || c >= a.channels) return;
  int const seq_begin = a.cu_seqlens[tile.seq], seq_end = a.cu_seqlens[tile.seq + 1];
  int const slot = ssm_detail::state_slot(a.state_slots, tile.seq);
  std::int64_t const state_base = std::int64_t(slot) * (W - 1) * a.channels + c;  // (slots, W-1, channels)
  auto const input = [&](int t) { return ssm_detail::to_f32(a.x[std::int64_t(t) * a.x_stride + c]); };

  float w[W];
#pragma unroll
  for (int k = 0; k < W; ++k) w[k] = ssm_detail::to_f32(a.weight[std::int64_t(c) * W + k]);
  float const bias = a.bias != nullptr ? ssm_detail::to_f32(a.bias[c]) : 0.0f;

  float win[W];  // win[k]: the input at t - (W-1) + k for the token t about to be computed
#pragma unroll
  for (int j = 0; j < W - 1; ++j) {
    int const t = tile.begin - (W - 1) + j;
    float v = 0.0f;
    if (t >= seq_begin) v = input(t);
    else if (a.initial_states != nullptr)
      v = ssm_detail::to_f32(a.initial_states[state_base + std::int64_t(W - 1 + t - seq_begin) * a.channels]);
    win[j] = v;
  }
  if (tile.index == 0) {
    // The final state: inputs seq_end-(W-1) .. seq_end-1; those before seq_begin are in win.
#pragma unroll
    for (int j = 0; j < W - 1; ++j) {
      int const t = seq_end - (W - 1) + j;
      float const v = t >= seq_begin ? input(t) : win[t - (seq_begin - (W - 1))];
      a.final_states[state_base + std::int64_t(j) * a.channels] = ssm_detail::from_f32<T>(v);
    }
  }
  for (int t = tile.begin; t < tile.end; ++t) {
    win[W - 1] = input(t);
    float acc = bias;
#pragma unroll
    for (int k = 0; k < W; ++k) acc = fmaf(w[k], win[k], acc);
    a.y[std::int64_t(t) * a.channels + c] = ssm_detail::from_f32<T>(ssm_detail::silu(acc));
#pragma unroll
    for (int k = 0; k < W - 1; ++k) win[k] = win[k + 1];
  }
}

/// Checks `a` and launches the prefill conv (Plan: ConvPlan<width>) on `stream`.
/// @pre [ssm.shape] channels >= 1, tokens >= 0, sequences >= 1; [ssm.stride] x_stride >= channels;
///      [ssm.cu-seqlens] the host copy, when given, is 0 .. total_tokens and non-decreasing;
///      [ssm.pointers] x, weight, y, cu_seqlens, final_states device memory; distinct slots.
template <class Plan, class T>
void run_causal_conv1d_prefill(ConvPrefillArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_ssm_count("channels", a.channels, 1);
  check_ssm_count("total_tokens", a.total_tokens, 0);
  check_ssm_count("num_seqs", a.num_seqs, 1);
  check_ssm_stride("x", a.x_stride, a.channels);
  check_ssm_cu_seqlens(a.cu_seqlens_host, a.num_seqs, a.total_tokens);
  host::PointerArgument const pointers[] = {{"x", a.x}, {"weight", a.weight}, {"y", a.y},
                                            {"cu_seqlens", a.cu_seqlens}, {"final_states", a.final_states}};
  ssm_detail::check_ssm_pointers(pointers, stream);
  std::size_t const x_bytes =
      host::strided_bytes(std::size_t(a.total_tokens), std::size_t(a.x_stride), std::size_t(a.channels), sizeof(T));
  host::ByteRange const inputs[] = {{"x", a.x, x_bytes}, {"weight", a.weight, std::size_t(a.channels) * Plan::width * sizeof(T)}};
  host::ByteRange const written{"y", a.y, std::size_t(a.total_tokens) * std::size_t(a.channels) * sizeof(T)};
  host::check_disjoint("ssm", written, inputs);
  host::LaunchConfig config;
  config.grid = dim3(unsigned((a.channels + Plan::channels_per_block - 1) / Plan::channels_per_block),
                     unsigned(max_tiles(a.total_tokens, a.num_seqs, Plan::tile, /*empty_tile=*/true)));
  config.block = dim3(Plan::channels_per_block);
  config.stream = stream;
  host::launch(&causal_conv1d_prefill_kernel<T, Plan>, "causal_conv1d_prefill_kernel", config, a);
}

// ---- decode update ----

/// One token a batch row: y = silu(bias + w . [state, x]); the state shifts left by one with x
/// appended. A thread owns one (row, channel), so the in-place update needs no synchronisation.
template <class T, class Plan>
__global__ void __launch_bounds__(Plan::channels_per_block)
causal_conv1d_update_kernel(ConvUpdateArguments<T> a) {
  ssm_detail::pdl_prologue();
  constexpr int W = Plan::width;
  int const c = int(blockIdx.x) * Plan::channels_per_block + int(threadIdx.x);
  int const b = int(blockIdx.y);
  if (c >= a.channels) return;
  int const slot = ssm_detail::state_slot(a.state_slots, b);
  if (slot < 0) return;
  T* const state = a.states + std::int64_t(slot) * (W - 1) * a.channels + c;  // (W-1) inputs, oldest first
  float win[W];
#pragma unroll
  for (int j = 0; j < W - 1; ++j) win[j] = ssm_detail::to_f32(state[std::int64_t(j) * a.channels]);
  T const x = a.x[std::int64_t(b) * a.x_stride + c];
  win[W - 1] = ssm_detail::to_f32(x);
  float acc = a.bias != nullptr ? ssm_detail::to_f32(a.bias[c]) : 0.0f;
#pragma unroll
  for (int k = 0; k < W; ++k) acc = fmaf(ssm_detail::to_f32(a.weight[std::int64_t(c) * W + k]), win[k], acc);
  a.y[std::int64_t(b) * a.channels + c] = ssm_detail::from_f32<T>(ssm_detail::silu(acc));
#pragma unroll
  for (int j = 0; j < W - 2; ++j) state[std::int64_t(j) * a.channels] = state[std::int64_t(j + 1) * a.channels];
  state[std::int64_t(W - 2) * a.channels] = x;
}

/// Checks `a` and launches one decode step of the conv (Plan: ConvPlan<width>) on `stream`.
/// @pre [ssm.shape] channels >= 1, batch >= 0; [ssm.stride] x_stride >= channels; [ssm.pointers]
///      x, weight, y, states device memory; the rows' slots distinct (or negative: padding).
template <class Plan, class T>
void run_causal_conv1d_update(ConvUpdateArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_ssm_count("channels", a.channels, 1);
  check_ssm_count("batch", a.batch, 0);
  check_ssm_stride("x", a.x_stride, a.channels);
  if (a.batch == 0) return;
  host::PointerArgument const pointers[] = {{"x", a.x}, {"weight", a.weight}, {"y", a.y}, {"states", a.states}};
  ssm_detail::check_ssm_pointers(pointers, stream);
  host::ByteRange const inputs[] = {
      {"x", a.x, host::strided_bytes(std::size_t(a.batch), std::size_t(a.x_stride), std::size_t(a.channels), sizeof(T))}};
  host::ByteRange const written{"y", a.y, std::size_t(a.batch) * std::size_t(a.channels) * sizeof(T)};
  host::check_disjoint("ssm", written, inputs);
  host::LaunchConfig config;
  config.grid = dim3(unsigned((a.channels + Plan::channels_per_block - 1) / Plan::channels_per_block), unsigned(a.batch));
  config.block = dim3(Plan::channels_per_block);
  config.stream = stream;
  host::launch(&causal_conv1d_update_kernel<T, Plan>, "causal_conv1d_update_kernel", config, a);
}

}  // namespace cute_cpp::kernels
