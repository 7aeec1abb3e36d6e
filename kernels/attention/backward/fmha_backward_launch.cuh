// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's host side (fmha_backward_sm90.cuh): the argument checks
// (fmha_backward_host.hpp), the tensor maps, and the three launches of run_fmha_backward
// (preprocess, the main kernel, postprocess) on the plan run_attention_backward picks.
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_host.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_kernel.cuh>
#include <cute_cpp/kernels/attention/backward/fmha_backward_rows.cuh>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>

#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

/// Runs the backward with Plan (its head dim must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched.
template <class Plan>
void run_fmha_backward(FmhaBackwardArguments<typename Plan::Element> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  detail::FmhaBackwardOperands s;
  if (!detail::fmha_backward_check_arguments(a, Plan::head_dim, stream, s)) return;
  FmhaBackwardParams const p = detail::fmha_backward_params(a, s);
  // The maps first: their encoding checks (tma.global.*) throw before anything is launched.
  using cute_cpp::detail::attention_map;
  int const d = Plan::head_dim;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, d, s.q_rows, a.heads_q, s.batches, s.qs);
  auto const map_do = attention_map<T, typename Plan::QChunk>(a.d_o, d, s.q_rows, a.heads_q, s.batches, s.dos);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, d, s.k_rows, a.heads_kv, s.batches, s.ks);
  auto const map_v = attention_map<T, typename Plan::KChunk>(a.v, d, s.k_rows, a.heads_kv, s.batches, s.vs);
  char* const ws = static_cast<char*>(a.workspace);
  // dQ's sums and the semaphores start at 0 (they are the workspace's tail).
  host::cuda_check(cudaMemsetAsync(ws + p.ws.dq_offset, 0, p.ws.bytes - p.ws.dq_offset, stream),
                   "cudaMemsetAsync(attention backward workspace)");
  int const seq_q_blocks = (a.seq_q + Plan::block_m - 1) / Plan::block_m;
  host::LaunchConfig rows;
  rows.grid = dim3(unsigned(seq_q_blocks), unsigned(a.heads_q), unsigned(a.batch));
  rows.block = dim3(128);
  rows.stream = stream;
  bool const varlen = a.cu_seqlens_q != nullptr;
  std::int64_t const lse_head = varlen ? a.total_q : a.seq_q;
  std::int64_t const lse_batch = varlen ? 0 : std::int64_t(a.heads_q) * a.seq_q;
  host::launch(&fmha_backward_preprocess<T>, "fmha_backward_preprocess", rows, a.o, a.d_o, a.lse, s.os, s.dos,
               lse_head, lse_batch, p);

  host::LaunchConfig main;
  main.grid = dim3(unsigned((a.seq_k + Plan::block_n - 1) / Plan::block_n), unsigned(a.heads_kv), unsigned(a.batch));
  main.block = dim3(Plan::threads);
  main.smem_bytes = Plan::smem_bytes;
  main.stream = stream;
  host::launch(&fmha_backward_kernel<Plan>, "fmha_backward_sm90", main, map_q, map_k, map_v, map_do, p);

  host::launch(&fmha_backward_postprocess<T>, "fmha_backward_postprocess", rows, a.dq, s.dqs, p);
}

template <class T>
void run_attention_backward(FmhaBackwardArguments<T> const& a, cudaStream_t stream) {
  if (a.head_dim == 64) return run_fmha_backward<fmha_backward_plans::D64<T>>(a, stream);
  if (a.head_dim == 128) return run_fmha_backward<fmha_backward_plans::D128<T>>(a, stream);
  host::argument_error("attention.backward.head-dim", "no backward plan for head dim " + std::to_string(a.head_dim) +
                                                          ": built are 64 and 128 (dK and dV of 256 do not fit a "
                                                          "warpgroup's registers)");
}

}  // namespace cute_cpp::kernels
