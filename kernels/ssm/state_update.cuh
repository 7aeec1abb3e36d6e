// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Mamba-2's decode step (mamba_ssm's selective_state_update with dt_softplus, dt_bias, D, no z):
// one token a batch row against its slot's SSM state (H, P, N) f32, updated in place:
//   dt = clamp(softplus(dt + dt_bias)), dA = exp(dt A), S = S dA + dt B xᵀ, y = C . S + D x.
// Steps: (1) a block of 8 warps takes one (row, head); (2) each lane holds N/32 of the group's B
// and C (lane + 32 v: a warp's loads are coalesced); (3) a warp takes head rows p = warp, warp + 8,
// ...: it loads all of them, then per row updates the N state entries, stores them, and reduces
// C . S over its lanes.
#include <cute_cpp/kernels/ssm/ssm_args.hpp>    // StateUpdateArguments, checks
#include <cute_cpp/kernels/ssm/ssm_common.cuh>  // to_f32, from_f32, state_slot

#include <cute_cpp/arch/math.hpp>    // warp_reduction_sum_f32
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cstdint>

namespace cute_cpp::kernels {

/// One block a (batch row, head); see the file comment's steps. A padding row (negative slot)
/// reads and writes nothing.
template <class T, class Plan>
__global__ void __launch_bounds__(256) selective_state_update_kernel(StateUpdateArguments<T> a) {
  ssm_detail::pdl_prologue();
  // rows: each warp's head rows (P is a multiple of 16: ssm.plan.head-dim).
  constexpr int P = Plan::head_dim, N = Plan::state, V = N / 32, warps = 8, rows = P / warps;
  int const b = int(blockIdx.x), h = int(blockIdx.y), H = a.heads, g = h / (H / a.groups);
  int const slot = ssm_detail::state_slot(a.state_slots, b);
  if (slot < 0) return;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  float const dt = softplus_dt(ssm_detail::to_f32(a.dt[std::int64_t(b) * a.dt_stride + h]), a.dt_bias[h], a.dt_lo,
                               a.dt_hi);
  float const dA = expf(dt * -expf(a.A_log[h]));
  float bv[V], cv[V];
  std::int64_t const bc = std::int64_t(b) * a.bc_stride + g * N;
#pragma unroll
  for (int v = 0; v < V; ++v) {
    bv[v] = dt * ssm_detail::to_f32(a.B[bc + lane + 32 * v]);
    cv[v] = ssm_detail::to_f32(a.C[bc + lane + 32 * v]);
  }
  float const D = a.D[h];
  // NOTE: all of the warp's head rows are loaded before the first is stored: the stores may alias
  // the next row's loads as far as the compiler knows, so row by row a warp paid one memory round
  // trip per row (8), with 64 of the 132 SMs busy at batch 1; the arithmetic is unchanged.
  float x[rows], state[rows][V];  // (row), (row, n / 32)
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    int const q = warp + r * warps;
    x[r] = ssm_detail::to_f32(a.x[std::int64_t(b) * a.x_stride + h * P + q]);
    float const* const row = a.states + ((std::int64_t(slot) * H + h) * P + q) * N;  // (n)
#pragma unroll
    for (int v = 0; v < V; ++v) state[r][v] = row[lane + 32 * v];
  }
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    int const q = warp + r * warps;
    float* const row = a.states + ((std::int64_t(slot) * H + h) * P + q) * N;  // (n)
    float dot = 0.0f;
#pragma unroll
    for (int v = 0; v < V; ++v) {
      float const s = fmaf(state[r][v], dA, bv[v] * x[r]);
      row[lane + 32 * v] = s;
      dot = fmaf(cv[v], s, dot);
    }
    dot = arch::warp_reduction_sum_f32(dot);
    if (lane == 0) a.y[(std::int64_t(b) * H + h) * P + q] = ssm_detail::from_f32<T>(fmaf(D, x[r], dot));
  }
}

/// Checks `a` and launches the decode step of Plan (an SsdPlan: P and N) on `stream`.
/// @pre [ssm.shape] heads, groups >= 1, groups divides heads, batch >= 0; [ssm.stride] x_stride
///      >= H P, dt_stride >= H, bc_stride >= G N; [ssm.pointers] every pointer but state_slots is
///      device memory; the rows' slots distinct (or negative: padding).
template <class Plan, class T>
void run_selective_state_update(StateUpdateArguments<T> const& a, cudaStream_t stream = nullptr) {
  constexpr int P = Plan::head_dim, N = Plan::state;
  check_ssm_heads(a.heads, a.groups);
  check_ssm_count("batch", a.batch, 0);
  check_ssm_stride("x", a.x_stride, std::int64_t(a.heads) * P);
  check_ssm_stride("dt", a.dt_stride, a.heads);
  check_ssm_stride("B and C", a.bc_stride, std::int64_t(a.groups) * N);
  if (a.batch == 0) return;
  host::PointerArgument const pointers[] = {{"x", a.x},           {"dt", a.dt},       {"B", a.B}, {"C", a.C},
                                            {"dt_bias", a.dt_bias}, {"A_log", a.A_log}, {"D", a.D}, {"states", a.states},
                                            {"y", a.y}};
  ssm_detail::check_ssm_pointers(pointers, stream);
  std::size_t const rows = std::size_t(a.batch);
  std::size_t const bc_width = std::size_t(a.groups) * N;
  host::ByteRange const inputs[] = {
      {"x", a.x, host::strided_bytes(rows, std::size_t(a.x_stride), std::size_t(a.heads) * P, sizeof(T))},
      {"B", a.B, host::strided_bytes(rows, std::size_t(a.bc_stride), bc_width, sizeof(T))},
      {"C", a.C, host::strided_bytes(rows, std::size_t(a.bc_stride), bc_width, sizeof(T))}};
  host::ByteRange const written{"y", a.y, rows * std::size_t(a.heads) * P * sizeof(T)};
  host::check_disjoint("ssm", written, inputs);
  host::LaunchConfig config;
  config.grid = dim3(unsigned(a.batch), unsigned(a.heads));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&selective_state_update_kernel<T, Plan>, "selective_state_update_kernel", config, a);
}

}  // namespace cute_cpp::kernels
