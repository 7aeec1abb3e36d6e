// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The f16 sm_100a attention kernels (every head-dim plan of run_attention_sm100); built only when
// CUTE_CPP_ARCHS holds 100a.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.cuh>

namespace cute_cpp::kernels {
template void run_attention_sm100<__half>(FmhaArguments<__half> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
