// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The gated RMSNorm after Mamba-2's scan (transformers' MambaRMSNormGated / Zamba2RMSNormGated,
// norm_before_gate=False), grouped: for each token and each of `groups` groups of width/groups
// channels, g = y * silu(z) in f32, n = g / sqrt(mean(g^2) + eps) rounded to T, out = n * weight
// rounded to T (transformers rounds the normalised value to the input's type before the weight).
// Steps: a warp per (token, group): (1) the sum of g^2 over the group's channels, lane-strided;
// (2) a warp reduction; (3) the channels again, normalised, scaled and stored.
#include <cute_cpp/kernels/ssm/ssm_args.hpp>    // GatedRmsNormArguments, checks
#include <cute_cpp/kernels/ssm/ssm_common.cuh>  // to_f32, from_f32, silu

#include <cute_cpp/arch/math.hpp>    // warp_reduction_sum_f32
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cstdint>

namespace cute_cpp::kernels {

/// Warps of a gated-norm block; each takes one (token, group).
inline constexpr int gated_rmsnorm_warps = 8;

/// One warp a (token, group); see the file comment's steps.
template <class T>
__global__ void __launch_bounds__(gated_rmsnorm_warps * 32) gated_rmsnorm_kernel(GatedRmsNormArguments<T> a) {
  ssm_detail::pdl_prologue();
  std::int64_t const item = std::int64_t(blockIdx.x) * gated_rmsnorm_warps + threadIdx.x / 32;
  int const lane = int(threadIdx.x) % 32;
  if (item >= std::int64_t(a.tokens) * a.groups) return;
  std::int64_t const t = item / a.groups;
  int const size = a.width / a.groups, first = int(item % a.groups) * size;
  T const* const y = a.y + t * a.y_stride + first;
  T const* const z = a.z + t * a.z_stride + first;
  auto const gated = [&](int i) { return ssm_detail::to_f32(y[i]) * ssm_detail::silu(ssm_detail::to_f32(z[i])); };
  float sum_sq = 0.0f;
  for (int i = lane; i < size; i += 32) {
    float const v = gated(i);
    sum_sq = fmaf(v, v, sum_sq);
  }
  float const rstd = rsqrtf(arch::warp_reduction_sum_f32(sum_sq) / float(size) + a.eps);
  T* const out = a.out + t * a.width + first;
  for (int i = lane; i < size; i += 32) {
    float const n = ssm_detail::to_f32(ssm_detail::from_f32<T>(gated(i) * rstd));
    out[i] = ssm_detail::from_f32<T>(n * ssm_detail::to_f32(a.weight[first + i]));
  }
}

/// Checks `a` and launches the gated norm on `stream`.
/// @pre [ssm.shape] tokens >= 0, groups divides width; [ssm.stride] y_stride, z_stride >= width;
///      [ssm.pointers] y, z, weight, out device memory; [ssm.aliasing] out overlaps no input.
template <class T>
void run_gated_rmsnorm(GatedRmsNormArguments<T> const& a, cudaStream_t stream = nullptr) {
  check_ssm_count("tokens", a.tokens, 0);
  check_ssm_norm_groups(a.width, a.groups);
  check_ssm_stride("y", a.y_stride, a.width);
  check_ssm_stride("z", a.z_stride, a.width);
  if (a.tokens == 0) return;
  host::PointerArgument const pointers[] = {{"y", a.y}, {"z", a.z}, {"weight", a.weight}, {"out", a.out}};
  ssm_detail::check_ssm_pointers(pointers, stream);
  std::size_t const rows = std::size_t(a.tokens);
  std::size_t const width = std::size_t(a.width);
  host::ByteRange const inputs[] = {{"y", a.y, host::strided_bytes(rows, std::size_t(a.y_stride), width, sizeof(T))},
                                    {"z", a.z, host::strided_bytes(rows, std::size_t(a.z_stride), width, sizeof(T))},
                                    {"weight", a.weight, std::size_t(a.width) * sizeof(T)}};
  host::ByteRange const written{"out", a.out, rows * std::size_t(a.width) * sizeof(T)};
  host::check_disjoint("ssm", written, inputs);
  host::LaunchConfig config;
  std::int64_t const items = std::int64_t(a.tokens) * a.groups;
  config.grid = dim3(unsigned((items + gated_rmsnorm_warps - 1) / gated_rmsnorm_warps));
  config.block = dim3(gated_rmsnorm_warps * 32);
  config.stream = stream;
  host::launch(&gated_rmsnorm_kernel<T>, "gated_rmsnorm_kernel", config, a);
}

}  // namespace cute_cpp::kernels
