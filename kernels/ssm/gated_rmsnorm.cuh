// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The gated RMSNorm after Mamba-2's scan (transformers' MambaRMSNormGated / Zamba2RMSNormGated,
// norm_before_gate=False), grouped: for each token and each of `groups` groups of width/groups
// channels, g = y * silu(z) in f32, n = g / sqrt(mean(g^2) + eps) rounded to T, out = n * weight
// rounded to T (transformers rounds the normalised value to the input's type before the weight).
// Steps: a warp per (token, group): (1) the sum of g^2 over the group's channels, lane-strided;
// (2) a warp reduction; (3) the channels again, normalised, scaled and stored. Each lane loads
// gated_rmsnorm_batch of its channels before using any, so a step costs a memory round trip per
// 32 x batch channels: at decode (one token, 8 groups, one CTA) the latency is the whole cost, and
// a load a channel made it 32 round trips for a group of 512.
#include <cute_cpp/kernels/ssm/ssm_args.hpp>    // GatedRmsNormArguments, checks
#include <cute_cpp/kernels/ssm/ssm_common.cuh>  // to_f32, from_f32, silu

#include <cute_cpp/arch/math.hpp>    // warp_reduction_sum_f32
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cstdint>

namespace cute_cpp::kernels {

/// Warps of a gated-norm block; each takes one (token, group).
inline constexpr int gated_rmsnorm_warps = 8;
/// Channels a lane loads together (each of steps 1 and 3).
inline constexpr int gated_rmsnorm_batch = 8;

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
  T const* const weight = a.weight + first;
  constexpr int batch = gated_rmsnorm_batch;
  // Channel `lane + 32 j` of the round at `base`; past the group's end it reads channel 0 (in
  // bounds), which the sum and the stores leave out.
  auto const channel = [&](int base, int j) { return base + 32 * j < size ? base + 32 * j : 0; };
  float sum_sq = 0.0f;
  for (int base = lane; base < size; base += 32 * batch) {
    T ys[batch], zs[batch];
#pragma unroll
    for (int j = 0; j < batch; ++j) ys[j] = y[channel(base, j)], zs[j] = z[channel(base, j)];
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      float const v = ssm_detail::to_f32(ys[j]) * ssm_detail::silu(ssm_detail::to_f32(zs[j]));
      if (base + 32 * j < size) sum_sq = fmaf(v, v, sum_sq);
    }
  }
  float const rstd = rsqrtf(arch::warp_reduction_sum_f32(sum_sq) / float(size) + a.eps);
  T* const out = a.out + t * a.width + first;
  for (int base = lane; base < size; base += 32 * batch) {
    T ys[batch], zs[batch], ws[batch];
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      int const i = channel(base, j);
      ys[j] = y[i], zs[j] = z[i], ws[j] = weight[i];
    }
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      float const g = ssm_detail::to_f32(ys[j]) * ssm_detail::silu(ssm_detail::to_f32(zs[j]));
      float const n = ssm_detail::to_f32(ssm_detail::from_f32<T>(g * rstd));
      if (base + 32 * j < size) out[base + 32 * j] = ssm_detail::from_f32<T>(n * ssm_detail::to_f32(ws[j]));
    }
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
