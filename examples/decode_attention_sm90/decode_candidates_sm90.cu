// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Other D128 bf16 decode plans than run_decode_attention's, for the benchmark's --sweep: the
// measurements that chose decode_plans::D128 (README) are rerun from here.
#include "decode_candidates.hpp"
#include "decode_sm90.cuh"

#include <cstddef>

namespace cute_cpp::examples {
namespace decode_candidate_plans {
using T = __nv_bfloat16;
template <DecodeConfig C>
using Candidate = DecodePlan<T, 128, 128, C>;
using C0 = Candidate<DecodeConfig{.block_n = 64, .stages = 4, .ctas_per_sm = 1, .box_rows = 16}>;
using C1 = Candidate<DecodeConfig{.block_n = 64, .stages = 3, .ctas_per_sm = 2, .box_rows = 16}>;
using C2 = Candidate<DecodeConfig{.block_n = 128, .stages = 3, .ctas_per_sm = 1, .box_rows = 16}>;
using C3 = Candidate<DecodeConfig{.block_n = 64, .stages = 4, .ctas_per_sm = 1, .box_rows = 64}>;
using C4 = Candidate<DecodeConfig{.block_n = 128, .stages = 3, .ctas_per_sm = 1, .box_rows = 64}>;
}  // namespace decode_candidate_plans

int decode_candidates() { return 5; }

char const* decode_candidate_name(int index) {
  static char const* const names[] = {"64x4 box16", "64x3 2cta box16", "128x3 box16", "64x4 box64", "128x3 box64"};
  return names[index];
}

namespace decode_candidate_plans {
/// A template, so that nvcc's host pass names the plans' configurations (a plain function's
/// switch over them does not compile with nvcc 13.0).
template <class U, class F>
decltype(auto) with(int index, F&& f) {
  switch (index) {
    case 0: return f(C0{});
    case 1: return f(C1{});
    case 2: return f(C2{});
    case 3: return f(C3{});
    default: return f(C4{});
  }
}
}  // namespace decode_candidate_plans

std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16> const& a) {
  return decode_candidate_plans::with<__nv_bfloat16>(index, [&](auto plan) {
    using Plan = decltype(plan);
    return detail::workspace_bytes<Plan>(a, decode_splits_for<Plan>(a));
  });
}

void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16> const& a, cudaStream_t stream) {
  decode_candidate_plans::with<__nv_bfloat16>(index, [&](auto plan) { run_decode<decltype(plan)>(a, stream); });
}

}  // namespace cute_cpp::examples
