// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Hopper FP8 attention forward (sm_90a): e4m3 Q, K, V with descale factors, fp32 softmax, bf16 O,
// on the 16-bit forward's structure (fmha_sm90.cuh: persistent, warp-specialised, the same tiles,
// tile order, masks and epilogue). What differs, in reading order:
//   fmha_fp8           the plans (boxes of one swizzle row, Vᵀ tiles, QGMMA), FmhaFp8Arguments,
//                      the descales;
//   fmha_fp8_producer  one thread loads Q, K and V by TMA; three warps of the producer warpgroup
//                      transpose each block's V into Vᵀ (8-bit wgmma reads B K-major only), its
//                      keys in the order P's A fragment holds them;
//   fmha_fp8_consumer  S = Q Kᵀ (QGMMA SS), the softmax with dq dk folded into the scale and P
//                      scaled by 2^8, P to e4m3 in registers, O += P Vᵀ (QGMMA RS), O · dv / sum;
//   fmha_fp8_kernel    the setup and the roles' registers (producer 40, consumers 232);
//   fmha_fp8_launch    run_fmha_fp8 (fmha_e4m3_sm90.cu defines run_attention_fp8).
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_producer.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_consumer.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_kernel.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_launch.cuh>
