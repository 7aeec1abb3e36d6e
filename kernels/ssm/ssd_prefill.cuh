// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// run_ssd_prefill: the Mamba-2 SSD chunked scan over a varlen batch (mamba_chunk_scan_combined
// with dt_softplus, dt_bias, D, return_final_states; z applied later by the gated norm):
//   dt = clamp(softplus(dt + dt_bias), dt_lo, dt_hi), A = -exp(A_log),
//   per token: S = exp(dt A) S + dt B xᵀ (per head, B and C shared by the heads of a group),
//   y = C . S + D x,   S from the sequence's initial state (or 0), its final value written.
// The five launches of ssd_kernels.cuh (steps 2, 3 and 5 from ssd_tensor_cores.cuh for a plan on the
// tensor cores) on one stream, nothing read back to the host (a CUDA graph
// can hold them). Workspace: ssd_workspace<Plan>(total_tokens, num_seqs, heads, groups).bytes.
#include <cute_cpp/kernels/ssm/ssd_kernels.cuh>       // the five kernels, SsdParams
#include <cute_cpp/kernels/ssm/ssd_tensor_cores.cuh>  // steps 2, 3 and 5 on the tensor cores

#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cstdint>

namespace cute_cpp::kernels {

/// Checks `a` and runs the SSD prefill of Plan (an SsdPlan) on `stream`.
/// @pre [ssm.shape] heads, groups >= 1, groups divides heads, tokens >= 0, sequences >= 1;
///      [ssm.stride] x_stride >= H P, dt_stride >= H, bc_stride >= G N;
///      [ssm.cu-seqlens] the host copy, when given, runs from 0 to total_tokens without decreasing;
///      [ssm.workspace] workspace_bytes >= ssd_workspace<Plan>(...).bytes;
///      [ssm.pointers] every pointer but initial_states and state_slots is device memory;
///      [ssm.aliasing] y overlaps no input; distinct sequences use distinct slots.
/// @post y (T, H, P) and final_states[slot(s)] (H, P, N) for every sequence s.
template <class Plan, class T>
void run_ssd_prefill(SsdPrefillArguments<T> const& a, cudaStream_t stream = nullptr) {
  constexpr int P = Plan::head_dim, N = Plan::state;
  constexpr bool tensor_cores = Plan::products == SsdProducts::tensor_cores;
  check_ssm_heads(a.heads, a.groups);
  check_ssm_count("total_tokens", a.total_tokens, 0);
  check_ssm_count("num_seqs", a.num_seqs, 1);
  check_ssm_stride("x", a.x_stride, std::int64_t(a.heads) * P);
  check_ssm_stride("dt", a.dt_stride, a.heads);
  check_ssm_stride("B and C", a.bc_stride, std::int64_t(a.groups) * N);
  check_ssm_cu_seqlens(a.cu_seqlens_host, a.num_seqs, a.total_tokens);
  SsdWorkspace const ws = ssd_workspace<Plan>(a.total_tokens, a.num_seqs, a.heads, a.groups);
  check_ssm_workspace(a.workspace_bytes, ws.bytes);
  host::PointerArgument const pointers[] = {
      {"x", a.x}, {"dt", a.dt}, {"B", a.B}, {"C", a.C}, {"dt_bias", a.dt_bias}, {"A_log", a.A_log}, {"D", a.D},
      {"y", a.y}, {"cu_seqlens", a.cu_seqlens}, {"final_states", a.final_states}, {"workspace", a.workspace}};
  ssm_detail::check_ssm_pointers(pointers, stream);
  std::size_t const T_ = std::size_t(a.total_tokens);
  std::size_t const y_bytes = T_ * std::size_t(a.heads) * P * sizeof(T);
  std::size_t const bc_width = std::size_t(a.groups) * N;
  host::ByteRange const inputs[] = {
      {"x", a.x, host::strided_bytes(T_, std::size_t(a.x_stride), std::size_t(a.heads) * P, sizeof(T))},
      {"dt", a.dt, host::strided_bytes(T_, std::size_t(a.dt_stride), std::size_t(a.heads), sizeof(T))},
      {"B", a.B, host::strided_bytes(T_, std::size_t(a.bc_stride), bc_width, sizeof(T))},
      {"C", a.C, host::strided_bytes(T_, std::size_t(a.bc_stride), bc_width, sizeof(T))},
      {"workspace", a.workspace, ws.bytes}};
  host::ByteRange const written{"y", a.y, y_bytes};
  host::check_disjoint("ssm", written, inputs);

  auto* const base = static_cast<unsigned char*>(a.workspace);
  SsdParams<T> const params{a, reinterpret_cast<float*>(base + ws.dt), reinterpret_cast<float*>(base + ws.dA_cumsum),
                            reinterpret_cast<float*>(base + ws.cb), reinterpret_cast<float*>(base + ws.states)};
  host::LaunchConfig config;
  config.block = dim3(Plan::threads);
  config.stream = stream;
  unsigned const chunks = unsigned(ws.chunks);
  if (chunks > 0) {
    config.grid = dim3(chunks);
    host::launch(&ssd_dt_kernel<T, Plan>, "ssd_dt_kernel", config, params);
    config.grid = dim3(chunks, unsigned(a.groups));
    if constexpr (tensor_cores) host::launch(&ssd_bmm_tc_kernel<T, Plan>, "ssd_bmm_tc_kernel", config, params);
    else host::launch(&ssd_bmm_kernel<T, Plan>, "ssd_bmm_kernel", config, params);
    config.grid = dim3(chunks, unsigned(a.heads));
    if constexpr (tensor_cores)
      host::launch(&ssd_chunk_state_tc_kernel<T, Plan>, "ssd_chunk_state_tc_kernel", config, params);
    else host::launch(&ssd_chunk_state_kernel<T, Plan>, "ssd_chunk_state_kernel", config, params);
  }
  config.grid = dim3(unsigned(a.num_seqs), unsigned(a.heads));
  host::launch(&ssd_state_pass_kernel<T, Plan>, "ssd_state_pass_kernel", config, params);
  if (chunks > 0) {
    config.grid = dim3(chunks, unsigned(a.heads));
    if constexpr (tensor_cores)
      host::launch(&ssd_chunk_scan_tc_kernel<T, Plan>, "ssd_chunk_scan_tc_kernel", config, params);
    else host::launch(&ssd_chunk_scan_kernel<T, Plan>, "ssd_chunk_scan_kernel", config, params);
  }
}

}  // namespace cute_cpp::kernels
