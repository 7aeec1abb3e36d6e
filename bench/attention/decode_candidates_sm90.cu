// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Other D128 decode plans for bf16 queries than run_decode_attention's, over a bf16 and an e4m3
// cache, for bench_attention's --sweep: the measurements that chose decode_plans::D128 and Fp8Plan
// (kernels/attention/decode/README.md) are rerun from here.
#include "decode_candidates.hpp"
#include <cute_cpp/kernels/attention/decode/decode_sm90.cuh>

#include <cstddef>
#include <type_traits>

namespace cute_cpp::kernels {
namespace decode_candidate_plans {
using T = __nv_bfloat16;
template <DecodeConfig C>
using Candidate = DecodePlan<T, 128, 128, C>;
using C0 = Candidate<DecodeConfig{.block_n = 64, .stages = 4, .ctas_per_sm = 1, .box_rows = 16}>;
using C1 = Candidate<DecodeConfig{.block_n = 64, .stages = 3, .ctas_per_sm = 2, .box_rows = 16}>;
using C2 = Candidate<DecodeConfig{.block_n = 128, .stages = 3, .ctas_per_sm = 1, .box_rows = 16}>;
using C3 = Candidate<DecodeConfig{.block_n = 64, .stages = 4, .ctas_per_sm = 1, .box_rows = 64}>;
using C4 = Candidate<DecodeConfig{.block_n = 128, .stages = 3, .ctas_per_sm = 1, .box_rows = 64}>;

/// Over an e4m3 cache: key tiles, stages (each ring 192 KB), consumer warpgroups and boxes.
template <DecodeConfig C>
using Fp8Candidate = DecodePlan<T, 128, 128, C, __nv_fp8_e4m3>;
using E0 = Fp8Candidate<DecodeConfig{.block_n = 128, .stages = 6, .box_rows = 16, .consumer_warpgroups = 1}>;
using E1 = Fp8Candidate<DecodeConfig{.block_n = 128, .stages = 6, .box_rows = 16, .consumer_warpgroups = 2}>;
using E2 = Fp8Candidate<DecodeConfig{.block_n = 64, .stages = 12, .box_rows = 16, .consumer_warpgroups = 2}>;
using E3 = Fp8Candidate<DecodeConfig{.block_n = 64, .stages = 12, .box_rows = 16, .consumer_warpgroups = 1}>;
using E4 = Fp8Candidate<DecodeConfig{.block_n = 128, .stages = 6, .box_rows = 64, .consumer_warpgroups = 2}>;
using E5 = Fp8Candidate<DecodeConfig{.block_n = 64, .stages = 12, .box_rows = 64, .consumer_warpgroups = 2}>;
using E6 = Fp8Candidate<DecodeConfig{.block_n = 128, .stages = 6, .box_rows = 64, .consumer_warpgroups = 1}>;

/// A template, so that nvcc's host pass names the plans' configurations (a plain function's
/// switch over them does not compile with nvcc 13.0).
template <class KV, class F>
decltype(auto) with(int index, F&& f) {
  if constexpr (std::is_same_v<KV, __nv_fp8_e4m3>) {
    switch (index) {
      case 0: return f(E0{});
      case 1: return f(E1{});
      case 2: return f(E2{});
      case 3: return f(E3{});
      case 4: return f(E4{});
      case 5: return f(E5{});
      default: return f(E6{});
    }
  } else {
    switch (index) {
      case 0: return f(C0{});
      case 1: return f(C1{});
      case 2: return f(C2{});
      case 3: return f(C3{});
      default: return f(C4{});
    }
  }
}

template <class KV>
std::size_t workspace(int index, DecodeArguments<T, KV> const& a) {
  return with<KV>(index, [&](auto plan) {
    using Plan = decltype(plan);
    return detail::workspace_bytes<Plan>(a, decode_splits_for<Plan>(a));
  });
}
}  // namespace decode_candidate_plans

template <>
int decode_candidates<__nv_bfloat16>() {
  return 5;
}
template <>
int decode_candidates<__nv_fp8_e4m3>() {
  return 7;
}

template <>
char const* decode_candidate_name<__nv_bfloat16>(int index) {
  static char const* const names[] = {"64x4 box16", "64x3 2cta box16", "128x3 box16", "64x4 box64", "128x3 box64"};
  return names[index];
}
template <>
char const* decode_candidate_name<__nv_fp8_e4m3>(int index) {
  static char const* const names[] = {"128x6 1wg box16", "128x6 2wg box16", "64x12 2wg box16", "64x12 1wg box16",
                                      "128x6 2wg box64", "64x12 2wg box64", "128x6 1wg box64"};
  return names[index];
}

std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16> const& a) {
  return decode_candidate_plans::workspace(index, a);
}
std::size_t decode_candidate_workspace_bytes(int index, DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const& a) {
  return decode_candidate_plans::workspace(index, a);
}

void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16> const& a, cudaStream_t stream) {
  decode_candidate_plans::with<__nv_bfloat16>(index, [&](auto plan) { run_decode<decltype(plan)>(a, stream); });
}
void run_decode_candidate(int index, DecodeArguments<__nv_bfloat16, __nv_fp8_e4m3> const& a, cudaStream_t stream) {
  decode_candidate_plans::with<__nv_fp8_e4m3>(index, [&](auto plan) { run_decode<decltype(plan)>(a, stream); });
}

}  // namespace cute_cpp::kernels
