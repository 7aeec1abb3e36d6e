// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Decode attention over an e4m3 (FP8) cache, for bf16 and f16 queries: the plans of
// decode_plans::Fp8Plan and the quantizing append, compiled once for the example and the models.
#include <cute_cpp/kernels/attention/decode/decode_sm90.cuh>
#include <cute_cpp/kernels/attention/decode/kv_append.cuh>

namespace cute_cpp::kernels {
template void run_decode_attention<__nv_bfloat16>(DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const&,
                                                  cudaStream_t);
template int decode_num_splits<__nv_bfloat16>(DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const&);
template std::size_t decode_workspace_bytes<__nv_bfloat16>(DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const&);
template void run_kv_append<__nv_bfloat16>(KvAppendArguments<__nv_bfloat16, __nv_fp8_e4m3> const&, cudaStream_t);
template void run_decode_attention<__half>(DecodeArguments<__half, __nv_fp8_e4m3> const&, cudaStream_t);
template int decode_num_splits<__half>(DecodeArguments<__half, __nv_fp8_e4m3> const&);
template std::size_t decode_workspace_bytes<__half>(DecodeArguments<__half, __nv_fp8_e4m3> const&);
template void run_kv_append<__half>(KvAppendArguments<__half, __nv_fp8_e4m3> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
