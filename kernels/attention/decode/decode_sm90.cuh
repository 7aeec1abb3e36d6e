// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper decode attention (sm_90a). A CTA serves one (sequence, kv head, 64-row block of its
// queries, split of its keys); it reads as its stages:
//   decode_producer   two producer warps, K's and V's: per key block, TMA boxes of
//                     the plan's box_rows keys from the block's pages (a box never straddles one);
//   decode_consumer   the consumer warpgroup (MLA: two, each with half of O's columns, taking
//                     S's blocks in turn, decode_mla_consumer.cuh; an e4m3 cache:
//                     decode_fp8_consumer.cuh, the same steps transposed):
//     Q               the group's q heads x new tokens, loaded once into a swizzled 64-row tile;
//     S = Q Kᵀ        wgmma SS; the causal mask on the block holding the sequence's end;
//     OnlineSoftmax   in exp2 with the scale folded in; P converted in place as wgmma's A;
//     O += P V        wgmma RS, overlapped with the next block's S;
//     epilogue        O / rowsum and LSE: the output in q's type, or a split's partial in float.
//   decode_combine    (splits only) per query row, the splits' O weighted by exp(LSE - max):
//                     by the splits' cluster once all are written (up to 8 splits), or by a
//                     kernel of its own.
// Memory-bound: the consumer's work per block is well under the time its bytes take to arrive, so
// one consumer warpgroup per CTA and the producer's stages are what keep the cache streaming.
// This header gathers the kernel's parts, one concern a file, in the order they read:
#include <cute_cpp/kernels/attention/decode/decode.hpp>                 // the plan, arguments, params
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>            // a CTA's work and query rows
#include <cute_cpp/kernels/attention/decode/decode_producer.cuh>        // PageWindow, decode_producer
#include <cute_cpp/kernels/attention/decode/decode_consumer_parts.cuh>  // load_queries, DecodeBand, decode_store
#include <cute_cpp/kernels/attention/decode/decode_consumer.cuh>        // decode_consumer (16-bit cache)
#include <cute_cpp/kernels/attention/decode/decode_fp8_consumer.cuh>    // decode_fp8_consumer (e4m3 cache)
#include <cute_cpp/kernels/attention/decode/decode_mla_consumer.cuh>    // decode_mla_consumer (the seesaw)
#include <cute_cpp/kernels/attention/decode/decode_combine.cuh>         // decode_combine_row, its kernel
#include <cute_cpp/kernels/attention/decode/decode_kernel.cuh>          // decode_kernel
#include <cute_cpp/kernels/attention/decode/decode_launch.cuh>          // run_decode, run_decode_attention
