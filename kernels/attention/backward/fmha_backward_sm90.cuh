// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper attention backward (sm_90a): dQ, dK, dV from Q, K, V, O, dO and the forward's LSE; causal,
// GQA (dK and dV summed over the group's q heads inside the CTA), varlen, a deterministic mode.
// Three launches (run_fmha_backward):
//   fmha_backward_preprocess    D = rowsum(dO ∘ O), the LSE in log2 units, padded per 64-row block
//   fmha_backward_kernel        one CTA per (key block, kv head, sequence), warp-specialised:
//     fmha_backward_producer    one thread: K, V once; per query block Q + LSE, dO + D by TMA
//     fmha_backward_consumer    warpgroups of 64 keys: Sᵀ, dPᵀ, Pᵀ, dSᵀ, dV, dK, dQ's share
//   fmha_backward_postprocess   dQ = scale x the float workspace sum, as the input type
// This header gathers the parts, one concern a file, in the order they read:
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>           // plans, arguments, params
#include <cute_cpp/kernels/attention/backward/fmha_backward_tile.cuh>      // FmhaBackwardTile
#include <cute_cpp/kernels/attention/backward/fmha_backward_rows.cuh>      // pre- and postprocess
#include <cute_cpp/kernels/attention/backward/fmha_backward_producer.cuh>  // fmha_backward_producer
#include <cute_cpp/kernels/attention/backward/fmha_backward_consumer.cuh>  // FmhaBackwardConsumer
#include <cute_cpp/kernels/attention/backward/fmha_backward_kernel.cuh>    // fmha_backward_kernel
#include <cute_cpp/kernels/attention/backward/fmha_backward_launch.cuh>    // run_attention_backward
