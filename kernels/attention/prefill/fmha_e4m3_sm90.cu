// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The FP8 attention kernels (every plan of run_attention_fp8), compiled once for the library and
// its C entry point.
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_sm90.cuh>

namespace cute_cpp::kernels {

void run_attention_fp8(FmhaFp8Arguments const& a, cudaStream_t stream) {
  if (a.head_dim == 64 && a.head_dim_v == 64) return run_fmha_fp8<fmha_fp8_plans::D64>(a, stream);
  if (a.head_dim == 128 && a.head_dim_v == 128) return run_fmha_fp8<fmha_fp8_plans::D128>(a, stream);
  if (a.head_dim == 256 && a.head_dim_v == 256) return run_fmha_fp8<fmha_fp8_plans::D256>(a, stream);
  host::argument_error("attention.fp8.head-dim", "no FP8 plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                     std::to_string(a.head_dim_v) +
                                                     "): built are (64, 64), (128, 128) and (256, 256)");
}

}  // namespace cute_cpp::kernels
