// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The f16 attention kernels (every head-dim plan of run_attention), compiled once for the example,
// the C entry point and the models.
#include <cute_cpp/kernels/attention/prefill/fmha_sm90.cuh>

namespace cute_cpp::kernels {
template void run_attention<__half>(FmhaArguments<__half> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
