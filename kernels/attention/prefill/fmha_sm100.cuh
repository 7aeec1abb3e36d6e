// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Blackwell attention forward (sm_100a), persistent and warp-specialised in FlashAttention-4's
// shape, on the sm_100a surface (UmmaTiledMma, tensor memory, the UMMA pipelines). Per tile of 128
// Q rows of one head of one sequence (FmhaTile, as on sm_90a):
//   fmha_sm100_load      warp 0, one thread: Q once, then K and V of each key block (last first)
//                        by TMA into PipelineTmaUmma rings;
//   fmha_sm100_mma       warp 1, one thread: S = Q Kᵀ into one of two tensor-memory buffers
//                        (PipelineUmmaAsync to the softmax), then O += P V with O in tensor
//                        memory, P read from shared memory (PipelineAsyncUmma from the softmax);
//                        S of the next block is issued before P V of this one;
//   fmha_sm100_softmax   warps 4..7, a thread a row: S read from tensor memory (32x32b), the mask,
//                        the running maximum and sum in exp2 with the scale folded in, O corrected
//                        in tensor memory when a row's maximum grew, P written 16-bit;
//   fmha_sm100_epilogue  the same threads after a tile's last P V: O / sum to global memory (rows
//                        past the sequence not stored), and the LSE.
// Tiles come from StaticPersistentTileScheduler in AttentionTileOrder, as on sm_90a.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>           // the plans
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>            // FmhaTile, fmha_tile
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_load.cuh>      // fmha_sm100_load
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_mma.cuh>       // fmha_sm100_mma
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_softmax.cuh>   // fmha_sm100_softmax_block
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_epilogue.cuh>  // fmha_sm100_epilogue
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_kernel.cuh>    // fmha_sm100_kernel
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_launch.cuh>    // run_fmha_sm100, run_attention_sm100
