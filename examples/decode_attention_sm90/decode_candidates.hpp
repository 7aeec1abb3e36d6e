// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The benchmark's --sweep: D128 bf16 decode plans other than run_decode_attention's.
#include "decode.hpp"

namespace cute_cpp::examples {
int decode_candidates();
char const* decode_candidate_name(int index);
/// Decode attention with candidate plan `index` (0 .. decode_candidates()); its own split choice.
/// The workspace candidate `index` needs for `a` (its split choice is its own).
std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16> const& a);
void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16> const& a, cudaStream_t stream);
}  // namespace cute_cpp::examples
