// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the decode attention kernels and the KV append (libcute_cpp_decode.so), for
// callers without C++: cute_cpp.ops (Python), and ctypes in bench/attention/bench_sdpa_decode.py,
// which times decode against PyTorch's attention in one process.
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/common/capi.hpp>


extern "C" {

/// O = decode attention of q against a paged (block_table set) or contiguous K/V cache; returns 0,
/// or 1 with the error (naming the rule) in `message`. dtype: 0 bf16, 1 f16. strides: element
/// strides (batch or page, seq, head) of q, k, v, o (12 values; all 0 for contiguous). The
/// workspace (decode_workspace_bytes; the caller sizes it with cute_cpp_decode_workspace_bytes).
int cute_cpp_decode_attention(int dtype, void const* q, void const* k, void const* v, void* o, float* lse,
                              long long const* strides, int batch, int q_tokens, int heads_q, int heads_kv,
                              int head_dim, int head_dim_v, float softmax_scale, int causal, int const* seqlens_k,
                              int max_seq_k, int const* block_table, int page_size, int max_pages_per_seq,
                              int num_pages, int num_splits, void* workspace, unsigned long long workspace_bytes,
                              void* stream, unsigned long long* workspace_needed, char* message,
                              unsigned long message_size) {
  auto const run = [&](auto tag) {
    using T = decltype(tag);
    cute_cpp::kernels::DecodeArguments<T> a;
    a.q = static_cast<T const*>(q);
    a.k = static_cast<T const*>(k);
    a.v = static_cast<T const*>(v);
    a.o = static_cast<T*>(o);
    a.lse = lse;
    cute_cpp::kernels::unpack_attention_strides(strides, a.q_stride, a.k_stride, a.v_stride, a.o_stride);
    a.batch = batch;
    a.q_tokens = q_tokens;
    a.heads_q = heads_q;
    a.heads_kv = heads_kv;
    a.head_dim = head_dim;
    a.head_dim_v = head_dim_v;
    a.softmax_scale = softmax_scale;
    a.causal = causal != 0;
    a.seqlens_k = seqlens_k;
    a.max_seq_k = max_seq_k;
    a.block_table = block_table;
    a.page_size = page_size;
    a.max_pages_per_seq = max_pages_per_seq;
    a.num_pages = num_pages;
    a.num_splits = num_splits;
    a.workspace = workspace;
    a.workspace_bytes = workspace_bytes;
    if (workspace_needed != nullptr) {
      *workspace_needed = cute_cpp::kernels::decode_workspace_bytes<T>(a);
      return;
    }
    cute_cpp::kernels::run_decode_attention<T>(a, static_cast<cudaStream_t>(stream));
  };
  return cute_cpp::kernels::capi_call(dtype, message, message_size, run);
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
  auto const run = [&](auto tag) {
    using T = decltype(tag);
    cute_cpp::kernels::KvAppendArguments<T, T> a;
    a.k_new = static_cast<T const*>(k_new);
    a.v_new = static_cast<T const*>(v_new);
    a.k = static_cast<T*>(k);
    a.v = static_cast<T*>(v);
    cute_cpp::kernels::unpack_attention_strides(strides, a.k_new_stride, a.v_new_stride, a.k_stride, a.v_stride);
    a.batch = batch;
    a.q_tokens = q_tokens;
    a.heads_kv = heads_kv;
    a.head_dim = head_dim;
    a.head_dim_v = head_dim_v;
    a.seqlens_k = seqlens_k;
    a.max_seq_k = max_seq_k;
    a.block_table = block_table;
    a.page_size = page_size;
    a.max_pages_per_seq = max_pages_per_seq;
    a.num_pages = num_pages;
    cute_cpp::kernels::run_kv_append<T, T>(a, static_cast<cudaStream_t>(stream));
  };
  return cute_cpp::kernels::capi_call(dtype, message, message_size, run);
}

}  // extern "C"
