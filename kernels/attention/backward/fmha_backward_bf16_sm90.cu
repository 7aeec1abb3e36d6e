// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The bf16 attention backward (every head-dim plan of run_attention_backward), compiled once for the
// library, the C entry point and Python.
#include <cute_cpp/kernels/attention/backward/fmha_backward_sm90.cuh>

namespace cute_cpp::kernels {
template void run_attention_backward<__nv_bfloat16>(FmhaBackwardArguments<__nv_bfloat16> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
