// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's host checks and parameters (fmha_backward_launch.cuh): every argument
// rule as std::invalid_argument naming it, before anything is launched. Host only.
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_host.hpp>  // check_offsets
#include <cute_cpp/attention/arguments.hpp>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace cute_cpp::kernels::detail {

/// The operands' extents and strides, as fmha_backward_check_arguments derives them.
struct FmhaBackwardOperands {
  std::int64_t q_rows = 0, k_rows = 0;
  int batches = 1;
  AttentionStrides qs, ks, vs, os, dos, dqs, dks, dvs;
};

/// [attention.backward.strides]: a tensor the row kernels read or write 16 bytes at a time.
inline void check_rows_of_16_bytes(char const* name, void const* ptr, AttentionStrides const& s) {
  if (reinterpret_cast<std::uintptr_t>(ptr) % 16 != 0 || (s.batch | s.seq | s.head) % 8 != 0)
    host::argument_error("attention.backward.strides", std::string(name) +
                                                           " must be 16-byte aligned with strides multiples of 8 "
                                                           "elements (its rows are read 16 bytes at a time)");
}

/// [attention.cu-seqlens]: varlen's seq_q / seq_k are the longest sequence (the launches' grids
/// cover that many rows), checked when the offsets are given on the host.
inline void check_longest(std::int32_t const* cu, int batch, int longest, char const* name, char const* extent) {
  for (int b = 0; cu != nullptr && b < batch; ++b)
    if (cu[b + 1] - cu[b] > longest)
      host::argument_error("attention.cu-seqlens", std::string(name) + ": sequence " + std::to_string(b) + " has " +
                                                       std::to_string(cu[b + 1] - cu[b]) + " rows, more than " +
                                                       extent + " (" + std::to_string(longest) +
                                                       "), which must be the longest");
}

/// Every check of a backward call's arguments for a plan of head dim `head_dim` (the pointers,
/// shapes, varlen offsets, strides and workspace); false when there is nothing to launch.
template <class T>
bool fmha_backward_check_arguments(FmhaBackwardArguments<T> const& a, int head_dim, cudaStream_t stream,
                                   FmhaBackwardOperands& out) {
  using host::argument_error;
  cute_cpp::detail::check_plan_head_dims(head_dim, head_dim, a.head_dim, a.head_dim);
  if (a.q == nullptr || a.k == nullptr || a.v == nullptr || a.o == nullptr || a.d_o == nullptr ||
      a.lse == nullptr || a.dq == nullptr || a.dk == nullptr || a.dv == nullptr)
    argument_error("attention.backward.pointers", "q, k, v, o, d_o, lse, dq, dk and dv must all be given");
  host::PointerArgument const pointers[] = {{"q", a.q},   {"k", a.k},   {"v", a.v},   {"o", a.o},  {"d_o", a.d_o},
                                            {"lse", a.lse}, {"dq", a.dq}, {"dk", a.dk}, {"dv", a.dv}};
  host::check_device_pointers("attention", pointers, stream);
  host::check_stream("attention", stream);
  if (a.batch < 1 || a.heads_q < 1 || a.heads_kv < 1 || a.seq_q < 0 || a.seq_k < 0 || a.batch > 65535 ||
      a.heads_kv > 65535 || a.heads_q > 65535)
    argument_error("attention.shape", "batch and heads must be 1..65535 and lengths at least 0 (got batch " +
                                          std::to_string(a.batch) + ", heads " + std::to_string(a.heads_q) + "/" +
                                          std::to_string(a.heads_kv) + ", lengths " + std::to_string(a.seq_q) + "/" +
                                          std::to_string(a.seq_k) + ")");
  cute_cpp::detail::check_head_groups(a.heads_q, a.heads_kv);
  bool const varlen = a.cu_seqlens_q != nullptr;
  if (varlen != (a.cu_seqlens_k != nullptr))
    argument_error("attention.cu-seqlens", "varlen needs both cu_seqlens_q and cu_seqlens_k");
  auto const in_31_bits = [](std::int64_t x) { return x >= 1 && x < (std::int64_t{1} << 31); };
  if (varlen && (!in_31_bits(a.total_q) || !in_31_bits(a.total_k)))
    argument_error("attention.cu-seqlens", "varlen needs the packed extents total_q and total_k in 1..2^31");
  check_offsets(a.cu_seqlens_q_host, a.batch, a.total_q, "cu_seqlens_q");
  check_offsets(a.cu_seqlens_k_host, a.batch, a.total_k, "cu_seqlens_k");
  check_longest(a.cu_seqlens_q_host, a.batch, a.seq_q, "cu_seqlens_q", "seq_q");
  check_longest(a.cu_seqlens_k_host, a.batch, a.seq_k, "cu_seqlens_k", "seq_k");
  if (a.seq_q == 0 || a.seq_k == 0) {
    if (a.seq_q > 0) argument_error("attention.shape", "seq_k is 0: there are no keys (pass seq_k >= 1)");
    return false;  // no queries: dK and dV are the caller's zeros
  }
  std::size_t const need = attention_backward_workspace_bytes(a);
  if (a.workspace == nullptr || a.workspace_bytes < need || reinterpret_cast<std::uintptr_t>(a.workspace) % 256 != 0)
    argument_error("attention.backward.workspace",
                   "the workspace must be 256-byte aligned device memory of at least " + std::to_string(need) +
                       " bytes (attention_backward_workspace_bytes; got " + std::to_string(a.workspace_bytes) + ")");
  out.q_rows = varlen ? a.total_q : a.seq_q;
  out.k_rows = varlen ? a.total_k : a.seq_k;
  out.batches = varlen ? 1 : a.batch;
  using cute_cpp::detail::attention_strides;
  out.qs = attention_strides(a.q_stride, "q", head_dim, a.heads_q, out.q_rows);
  out.ks = attention_strides(a.k_stride, "k", head_dim, a.heads_kv, out.k_rows);
  out.vs = attention_strides(a.v_stride, "v", head_dim, a.heads_kv, out.k_rows);
  out.os = attention_strides(a.o_stride, "o", head_dim, a.heads_q, out.q_rows);
  out.dos = attention_strides(a.do_stride, "d_o", head_dim, a.heads_q, out.q_rows);
  out.dqs = attention_strides(a.dq_stride, "dq", head_dim, a.heads_q, out.q_rows);
  out.dks = attention_strides(a.dk_stride, "dk", head_dim, a.heads_kv, out.k_rows);
  out.dvs = attention_strides(a.dv_stride, "dv", head_dim, a.heads_kv, out.k_rows);
  check_rows_of_16_bytes("o", a.o, out.os);
  check_rows_of_16_bytes("d_o", a.d_o, out.dos);
  check_rows_of_16_bytes("dq", a.dq, out.dqs);
  cute_cpp::detail::check_output_pairs(out.dks, a.dk);
  cute_cpp::detail::check_output_pairs(out.dvs, a.dv);
  return true;
}

/// The kernels' parameters for checked arguments.
template <class T>
FmhaBackwardParams fmha_backward_params(FmhaBackwardArguments<T> const& a, FmhaBackwardOperands const& s) {
  FmhaBackwardParams p;
  bool const varlen = a.cu_seqlens_q != nullptr;
  p.batch = a.batch;
  p.seq_q = a.seq_q;
  p.seq_k = a.seq_k;
  p.heads_q = a.heads_q;
  p.group = a.heads_q / a.heads_kv;
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, a.head_dim);
  p.scale = a.softmax_scale != 0.0f ? a.softmax_scale : 1.0f / std::sqrt(float(a.head_dim));
  p.causal = a.causal;
  p.deterministic = a.deterministic;
  p.cu_seqlens_q = a.cu_seqlens_q;
  p.cu_seqlens_k = a.cu_seqlens_k;
  p.total_q = std::int32_t(s.q_rows);
  p.total_k = std::int32_t(s.k_rows);
  p.ws = fmha_backward_workspace(a.batch, a.seq_q, a.heads_q, a.head_dim, varlen ? a.total_q : 0, varlen,
                                 a.deterministic);
  char* const ws = static_cast<char*>(a.workspace);
  p.lse_log2 = reinterpret_cast<float*>(ws + p.ws.lse_offset);
  p.delta = reinterpret_cast<float*>(ws + p.ws.delta_offset);
  p.dq_accum = reinterpret_cast<float*>(ws + p.ws.dq_offset);
  p.semaphores = a.deterministic ? reinterpret_cast<std::uint32_t*>(ws + p.ws.sem_offset) : nullptr;
  p.dk = a.dk;
  p.dv = a.dv;
  p.dk_stride = s.dks;
  p.dv_stride = s.dvs;
  return p;
}

}  // namespace cute_cpp::kernels::detail
