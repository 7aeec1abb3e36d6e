// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The f16 decode attention kernels (every head-dim plan of run_decode_attention), compiled once for
// the example and the models.
#include <cute_cpp/kernels/attention/decode/decode_sm90.cuh>
#include <cute_cpp/kernels/attention/decode/kv_append.cuh>

namespace cute_cpp::kernels {
template void run_decode_attention<__half>(DecodeArguments<__half> const&, cudaStream_t);
template int decode_num_splits<__half>(DecodeArguments<__half> const&);
template std::size_t decode_workspace_bytes<__half>(DecodeArguments<__half> const&);
template void run_kv_append<__half>(KvAppendArguments<__half> const&, cudaStream_t);
}  // namespace cute_cpp::kernels
