// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The attention backward's C entry points, in libcute_cpp_fmha.so beside the forward's
// (kernels/attention/prefill/capi.cu): for callers without C++, cute_cpp.ops (Python) and
// bench/attention/bench_sdpa_fmha_backward.py (ctypes).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>


extern "C" {

/// The workspace bytes cute_cpp_fmha_backward needs (256-byte aligned device memory): total_q is
/// the packed extent for varlen (0 otherwise). Returns 0, or 1 with the error in `message`.
int cute_cpp_fmha_backward_workspace_bytes(int batch, int seq_q, int heads_q, int head_dim, long long total_q,
                                           int varlen, int deterministic, unsigned long long* bytes, char* message,
                                           unsigned long message_size) {
  return cute_cpp::kernels::capi_try(message, message_size, [&] {
    *bytes = cute_cpp::kernels::fmha_backward_workspace(batch, seq_q, heads_q, head_dim, total_q, varlen != 0,
                                                        deterministic != 0)
                 .bytes;
  });
}

/// dQ, dK, dV of attention from q, k, v, o (the forward's output), d_o and the forward's LSE;
/// returns 0, or 1 with the error (naming the rule) in `message`. dtype: 0 bf16, 1 f16. strides:
/// element strides (batch, seq, head) of q, k, v, o, d_o, dq, dk, dv (24 values; null: all
/// contiguous). cu_seqlens_*: device offsets for varlen, or null. deterministic: dQ's sums in a
/// fixed order.
int cute_cpp_fmha_backward(int dtype, void const* q, void const* k, void const* v, void const* o, void const* d_o,
                           float const* lse, void* dq, void* dk, void* dv, long long const* strides, int batch,
                           int seq_q, int seq_k, int heads_q, int heads_kv, int head_dim, float softmax_scale,
                           int causal, int deterministic, int const* cu_seqlens_q, int const* cu_seqlens_k,
                           long long total_q, long long total_k, void* workspace, unsigned long long workspace_bytes,
                           void* stream, char* message, unsigned long message_size) {
  auto const run = [&](auto tag) {
    using T = decltype(tag);
    cute_cpp::kernels::FmhaBackwardArguments<T> a;
    a.q = static_cast<T const*>(q);
    a.k = static_cast<T const*>(k);
    a.v = static_cast<T const*>(v);
    a.o = static_cast<T const*>(o);
    a.d_o = static_cast<T const*>(d_o);
    a.lse = lse;
    a.dq = static_cast<T*>(dq);
    a.dk = static_cast<T*>(dk);
    a.dv = static_cast<T*>(dv);
    cute_cpp::AttentionStrides* const s[] = {&a.q_stride, &a.k_stride,  &a.v_stride,  &a.o_stride,
                                             &a.do_stride, &a.dq_stride, &a.dk_stride, &a.dv_stride};
    for (int i = 0; i < 8 && strides != nullptr; ++i) *s[i] = {strides[3 * i], strides[3 * i + 1], strides[3 * i + 2]};
    a.batch = batch;
    a.seq_q = seq_q;
    a.seq_k = seq_k;
    a.heads_q = heads_q;
    a.heads_kv = heads_kv;
    a.head_dim = head_dim;
    a.softmax_scale = softmax_scale;
    a.causal = causal != 0;
    a.deterministic = deterministic != 0;
    a.cu_seqlens_q = cu_seqlens_q;
    a.cu_seqlens_k = cu_seqlens_k;
    a.total_q = total_q;
    a.total_k = total_k;
    a.workspace = workspace;
    a.workspace_bytes = std::size_t(workspace_bytes);
    cute_cpp::kernels::run_attention_backward<T>(a, static_cast<cudaStream_t>(stream));
  };
  return cute_cpp::kernels::capi_call(dtype, message, message_size, run);
}

}  // extern "C"
