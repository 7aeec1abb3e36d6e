// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper attention forward (sm_90a), persistent and warp-specialised. The kernel reads as its stages:
//   fmha_producer   warpgroup 0, one thread: per tile, loads Q once, then K and V of each key
//                   block into their own pipelines (so S = Q Kᵀ starts before V lands);
//   fmha_consumer   warpgroups 1.. , 64 Q rows each, per key block (last first, so the masked
//                   blocks come first and the rest run unmasked; FmhaConsumerSteps):
//     S = Q Kᵀ        wgmma SS over the head dim's 64-column chunks;
//     OnlineSoftmax   the mask, the running row maximum and sum in exp2 with the scale folded in,
//                     O rescaled; P converted to 16 bits in place as wgmma's A registers;
//     O += P V        wgmma RS;
//     epilogue        O / rowsum -> EpilogueTmaStore (the GEMM's TMA-store path), LSE
//                     (fmha_consumer_epilogue).
// Tiles (Q block, head, batch) come from StaticPersistentTileScheduler's walk, heads fastest (the q
// heads of one kv group run together and share K/V in L2) and, under a causal or window mask, the
// longest Q blocks first. Ragged edges: TMA fills zeros past each tensor's extent and the mask
// drops keys past seq_k; rows past seq_q are computed and not stored.
// This header gathers the kernel's parts, one concern a file, in the order they read:
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>           // the plans, arguments, params
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>      // FmhaTile, fmha_tile
#include <cute_cpp/kernels/attention/prefill/fmha_producer.cuh>  // fmha_producer
#include <cute_cpp/kernels/attention/prefill/fmha_consumer.cuh>  // FmhaConsumerSteps, fmha_consumer
#include <cute_cpp/kernels/attention/prefill/fmha_kernel.cuh>    // fmha_kernel
#include <cute_cpp/kernels/attention/prefill/fmha_launch.cuh>    // run_fmha, run_attention
