// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_100a attention's P and V are read in 64-key chunks: a 96-key tile is not whole chunks.
// cute-cpp-arch: 100a
// expected-error {{"attention\.sm100\.tile[^@]*BlockN=96, Stages=2"}}
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaSm100Plan<__nv_bfloat16, 128, 128, kn::FmhaSm100Config{.block_n = 96, .stages = 2}>;
static_assert(Bad::threads == 256);
