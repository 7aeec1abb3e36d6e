// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the attention forward (libcute_cpp_fmha.so: 16-bit and FP8), for callers
// without C++: Python's ctypes in bench/attention/bench_sdpa_fmha.py, which times them against
// PyTorch's cuDNN attention in one process.
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>

namespace {

/// The problem's fields the 16-bit and FP8 forwards' arguments share, from the C call's.
template <class Args>
void set_problem(Args& a, long long const* strides, int batch, int seq_q, int seq_k, int heads_q, int heads_kv,
                 int head_dim, int head_dim_v, float softmax_scale, int causal, int window_left, int window_right,
                 int const* cu_seqlens_q, int const* cu_seqlens_k, long long total_q, long long total_k) {
  cute_cpp::kernels::unpack_attention_strides(strides, a.q_stride, a.k_stride, a.v_stride, a.o_stride);
  a.batch = batch;
  a.seq_q = seq_q;
  a.seq_k = seq_k;
  a.heads_q = heads_q;
  a.heads_kv = heads_kv;
  a.head_dim = head_dim;
  a.head_dim_v = head_dim_v;
  a.softmax_scale = softmax_scale;
  a.causal = causal != 0;
  a.window_left = window_left;
  a.window_right = window_right;
  a.cu_seqlens_q = cu_seqlens_q;
  a.cu_seqlens_k = cu_seqlens_k;
  a.total_q = total_q;
  a.total_k = total_k;
}

}  // namespace

extern "C" {

/// O = attention(Q, K, V); returns 0, or 1 with the error (naming the rule) in `message`.
/// dtype: 0 bf16, 1 f16. strides: element strides (batch, seq, head) of q, k, v, o (12 values;
/// all 0 for contiguous). cu_seqlens_*: device offsets for varlen, or null.
int cute_cpp_fmha_forward(int dtype, void const* q, void const* k, void const* v, void* o, float* lse,
                          long long const* strides, int batch, int seq_q, int seq_k, int heads_q, int heads_kv,
                          int head_dim, int head_dim_v, float softmax_scale, int causal, int window_left,
                          int window_right, int const* cu_seqlens_q, int const* cu_seqlens_k, long long total_q,
                          long long total_k, void* stream, char* message, unsigned long message_size) {
  auto const run = [&](auto tag) {
    using T = decltype(tag);
    cute_cpp::kernels::FmhaArguments<T> a;
    a.q = static_cast<T const*>(q);
    a.k = static_cast<T const*>(k);
    a.v = static_cast<T const*>(v);
    a.o = static_cast<T*>(o);
    a.lse = lse;
    set_problem(a, strides, batch, seq_q, seq_k, heads_q, heads_kv, head_dim, head_dim_v, softmax_scale, causal,
                window_left, window_right, cu_seqlens_q, cu_seqlens_k, total_q, total_k);
    cute_cpp::kernels::run_attention<T>(a, static_cast<cudaStream_t>(stream));
  };
  return cute_cpp::kernels::capi_call(dtype, message, message_size, run);
}

/// The FP8 forward: O (bf16) = attention(Q, K, V) with Q, K, V e4m3 (bytes) and their descale
/// factors (device floats, each null for 1): descale_layout 0, one float per tensor; 1, one per
/// (sequence, kv head), [batch, heads_kv]. The rest as cute_cpp_fmha_forward (no dtype: the inputs
/// are e4m3, O bf16); returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_fmha_fp8_forward(void const* q, void const* k, void const* v, void* o, float* lse,
                              float const* q_descale, float const* k_descale, float const* v_descale,
                              int descale_layout, long long const* strides, int batch, int seq_q, int seq_k,
                              int heads_q, int heads_kv, int head_dim, int head_dim_v, float softmax_scale, int causal,
                              int window_left, int window_right, int const* cu_seqlens_q, int const* cu_seqlens_k,
                              long long total_q, long long total_k, void* stream, char* message,
                              unsigned long message_size) {
  return cute_cpp::kernels::capi_try(message, message_size, [&] {
    cute_cpp::kernels::FmhaFp8Arguments a;
    a.q = static_cast<__nv_fp8_e4m3 const*>(q);
    a.k = static_cast<__nv_fp8_e4m3 const*>(k);
    a.v = static_cast<__nv_fp8_e4m3 const*>(v);
    a.o = static_cast<__nv_bfloat16*>(o);
    a.lse = lse;
    a.q_descale = q_descale;
    a.k_descale = k_descale;
    a.v_descale = v_descale;
    a.descale_layout = static_cast<cute_cpp::Fp8DescaleLayout>(descale_layout);
    set_problem(a, strides, batch, seq_q, seq_k, heads_q, heads_kv, head_dim, head_dim_v, softmax_scale, causal,
                window_left, window_right, cu_seqlens_q, cu_seqlens_k, total_q, total_k);
    cute_cpp::kernels::run_attention_fp8(a, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
