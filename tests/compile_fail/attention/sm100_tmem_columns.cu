// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// D_v 256 with 192-key tiles: two S buffers of 192 columns and O's 256 need 640 of tensor
// memory's 512 columns.
// cute-cpp-arch: 100a
// expected-error {{"attention\.sm100\.tmem-columns[^@]*SColumns=192, SBuffers=2, OColumns=256"}}
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaSm100Plan<__nv_bfloat16, 256, 256, kn::FmhaSm100Config{.block_n = 192, .stages = 1}>;
static_assert(Bad::threads == 256);
