// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// bench_attention's --sweep: D128 decode plans for bf16 queries other than run_decode_attention's,
// over a bf16 cache and over an e4m3 one.
#include <cute_cpp/kernels/attention/decode/decode.hpp>

namespace cute_cpp::kernels {
/// The candidates over a cache of KV (bf16 or e4m3), and their names.
template <class KV>
int decode_candidates();
template <class KV>
char const* decode_candidate_name(int index);
/// The workspace candidate `index` needs for `a` (its split choice is its own).
std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16> const& a);
std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const& a);
/// Decode attention with candidate plan `index` (0 .. decode_candidates<KV>()).
void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16> const& a, cudaStream_t stream);
void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const& a, cudaStream_t stream);
}  // namespace cute_cpp::kernels
