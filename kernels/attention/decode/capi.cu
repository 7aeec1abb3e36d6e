// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the decode attention kernels and the KV append (libcute_cpp_decode.so), for
// callers without C++: cute_cpp.ops (Python), and ctypes in bench/attention/bench_sdpa_decode.py,
// which times decode against PyTorch's attention in one process. Each takes a cache of the queries'
// type, or (the _fp8kv forms) an e4m3 cache with its per-kv-head scales.
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/common/capi.hpp>

#include <cuda_fp8.h>

namespace {

namespace kn = cute_cpp::kernels;
using e4m3 = __nv_fp8_e4m3;

/// What a decode call passes, as the C entry points take it.
struct DecodeCall {
  void const *q, *k, *v;
  void* o;
  float* lse;
  float const *k_scale, *v_scale;
  long long const* strides;
  int batch, q_tokens, heads_q, heads_kv, head_dim, head_dim_v;
  float softmax_scale;
  int causal;
  int const* seqlens_k;
  int max_seq_k;
  int const* block_table;
  int page_size, max_pages_per_seq, num_pages, num_splits;
  void* workspace;
  unsigned long long workspace_bytes;
  void* stream;
  unsigned long long* workspace_needed;
};

/// The call in queries of T against a cache of KV: its workspace's size (workspace_needed set), or run.
template <class T, class KV>
void decode(DecodeCall const& c) {
  kn::DecodeArguments<T, KV> a;
  a.q = static_cast<T const*>(c.q), a.k = static_cast<KV const*>(c.k), a.v = static_cast<KV const*>(c.v);
  a.o = static_cast<T*>(c.o), a.lse = c.lse, a.k_scale = c.k_scale, a.v_scale = c.v_scale;
  kn::unpack_attention_strides(c.strides, a.q_stride, a.k_stride, a.v_stride, a.o_stride);
  a.batch = c.batch, a.q_tokens = c.q_tokens, a.heads_q = c.heads_q, a.heads_kv = c.heads_kv;
  a.head_dim = c.head_dim, a.head_dim_v = c.head_dim_v, a.softmax_scale = c.softmax_scale, a.causal = c.causal != 0;
  a.seqlens_k = c.seqlens_k, a.max_seq_k = c.max_seq_k, a.block_table = c.block_table;
  a.page_size = c.page_size, a.max_pages_per_seq = c.max_pages_per_seq, a.num_pages = c.num_pages;
  a.num_splits = c.num_splits, a.workspace = c.workspace, a.workspace_bytes = c.workspace_bytes;
  if (c.workspace_needed != nullptr) {
    *c.workspace_needed = kn::decode_workspace_bytes<T>(a);
    return;
  }
  kn::run_decode_attention<T>(a, static_cast<cudaStream_t>(c.stream));
}

/// What an append call passes.
struct AppendCall {
  void const *k_new, *v_new;
  void *k, *v;
  float const *k_scale, *v_scale;
  long long const* strides;
  int batch, q_tokens, heads_kv, head_dim, head_dim_v;
  int const* seqlens_k;
  int max_seq_k;
  int const* block_table;
  int page_size, max_pages_per_seq, num_pages;
  void* stream;
};

template <class T, class KV>
void append(AppendCall const& c) {
  kn::KvAppendArguments<T, KV> a;
  a.k_new = static_cast<T const*>(c.k_new), a.v_new = static_cast<T const*>(c.v_new);
  a.k = static_cast<KV*>(c.k), a.v = static_cast<KV*>(c.v), a.k_scale = c.k_scale, a.v_scale = c.v_scale;
  kn::unpack_attention_strides(c.strides, a.k_new_stride, a.v_new_stride, a.k_stride, a.v_stride);
  a.batch = c.batch, a.q_tokens = c.q_tokens, a.heads_kv = c.heads_kv;
  a.head_dim = c.head_dim, a.head_dim_v = c.head_dim_v;
  a.seqlens_k = c.seqlens_k, a.max_seq_k = c.max_seq_k, a.block_table = c.block_table;
  a.page_size = c.page_size, a.max_pages_per_seq = c.max_pages_per_seq, a.num_pages = c.num_pages;
  kn::run_kv_append<T, KV>(a, static_cast<cudaStream_t>(c.stream));
}

}  // namespace

extern "C" {

/// O = decode attention of q against a paged (block_table set) or contiguous K/V cache; returns 0,
/// or 1 with the error (naming the rule) in `message`. dtype: 0 bf16, 1 f16. strides: element
/// strides (batch or page, seq, head) of q, k, v, o (12 values; all 0 for contiguous). The
/// workspace (decode_workspace_bytes): with workspace_needed set, its size is written there and
/// nothing runs.
int cute_cpp_decode_attention(int dtype, void const* q, void const* k, void const* v, void* o, float* lse,
                              long long const* strides, int batch, int q_tokens, int heads_q, int heads_kv,
                              int head_dim, int head_dim_v, float softmax_scale, int causal, int const* seqlens_k,
                              int max_seq_k, int const* block_table, int page_size, int max_pages_per_seq,
                              int num_pages, int num_splits, void* workspace, unsigned long long workspace_bytes,
                              void* stream, unsigned long long* workspace_needed, char* message,
                              unsigned long message_size) {
  DecodeCall const c{q, k, v, o, lse, nullptr, nullptr, strides, batch, q_tokens, heads_q, heads_kv, head_dim,
                     head_dim_v, softmax_scale, causal, seqlens_k, max_seq_k, block_table, page_size,
                     max_pages_per_seq, num_pages, num_splits, workspace, workspace_bytes, stream, workspace_needed};
  return kn::capi_call(dtype, message, message_size, [&](auto tag) { decode<decltype(tag), decltype(tag)>(c); });
}

/// cute_cpp_decode_attention against an e4m3 cache (K / k_scale and V / v_scale, as
/// cute_cpp_kv_append_fp8kv writes it): k_scale and v_scale per kv head (device, [heads_kv] f32, or
/// null for 1); q and o bf16 or f16 (dtype 0 or 1). The rest as there.
int cute_cpp_decode_attention_fp8kv(int dtype, void const* q, void const* k, void const* v, void* o, float* lse,
                                    float const* k_scale, float const* v_scale, long long const* strides, int batch,
                                    int q_tokens, int heads_q, int heads_kv, int head_dim, int head_dim_v,
                                    float softmax_scale, int causal, int const* seqlens_k, int max_seq_k,
                                    int const* block_table, int page_size, int max_pages_per_seq, int num_pages,
                                    int num_splits, void* workspace, unsigned long long workspace_bytes, void* stream,
                                    unsigned long long* workspace_needed, char* message, unsigned long message_size) {
  DecodeCall const c{q, k, v, o, lse, k_scale, v_scale, strides, batch, q_tokens, heads_q, heads_kv, head_dim,
                     head_dim_v, softmax_scale, causal, seqlens_k, max_seq_k, block_table, page_size,
                     max_pages_per_seq, num_pages, num_splits, workspace, workspace_bytes, stream, workspace_needed};
  return kn::capi_call(dtype, message, message_size, [&](auto tag) { decode<decltype(tag), e4m3>(c); });
}

/// Writes a step's new keys and values into the cache cute_cpp_decode_attention then reads (a cache
/// of their own type): k_new [batch, q_tokens, heads_kv, head_dim] and v_new (head_dim_v) go to key
/// positions seqlens_k[b] - q_tokens + t of sequence b (seqlens_k: the lengths after the append,
/// device). The cache paged (block_table [batch, max_pages_per_seq], device) or contiguous
/// (block_table null: [batch, max_seq_k, heads_kv, head_dim]). strides: element strides (batch or
/// page, seq, head) of k_new, v_new, k, v (12 values; all 0 for contiguous). dtype: 0 bf16, 1 f16.
/// Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_kv_append(int dtype, void const* k_new, void const* v_new, void* k, void* v, long long const* strides,
                       int batch, int q_tokens, int heads_kv, int head_dim, int head_dim_v, int const* seqlens_k,
                       int max_seq_k, int const* block_table, int page_size, int max_pages_per_seq, int num_pages,
                       void* stream, char* message, unsigned long message_size) {
  AppendCall const c{k_new, v_new, k, v, nullptr, nullptr, strides, batch, q_tokens, heads_kv, head_dim, head_dim_v,
                     seqlens_k, max_seq_k, block_table, page_size, max_pages_per_seq, num_pages, stream};
  return kn::capi_call(dtype, message, message_size, [&](auto tag) { append<decltype(tag), decltype(tag)>(c); });
}

/// cute_cpp_kv_append into an e4m3 cache: each value divided by its kv head's scale (k_scale and
/// v_scale, device [heads_kv] f32, required), rounded to nearest and saturated to ±448.
int cute_cpp_kv_append_fp8kv(int dtype, void const* k_new, void const* v_new, void* k, void* v, float const* k_scale,
                             float const* v_scale, long long const* strides, int batch, int q_tokens, int heads_kv,
                             int head_dim, int head_dim_v, int const* seqlens_k, int max_seq_k,
                             int const* block_table, int page_size, int max_pages_per_seq, int num_pages, void* stream,
                             char* message, unsigned long message_size) {
  AppendCall const c{k_new, v_new, k, v, k_scale, v_scale, strides, batch, q_tokens, heads_kv, head_dim, head_dim_v,
                     seqlens_k, max_seq_k, block_table, page_size, max_pages_per_seq, num_pages, stream};
  return kn::capi_call(dtype, message, message_size, [&](auto tag) { append<decltype(tag), e4m3>(c); });
}

}  // extern "C"
