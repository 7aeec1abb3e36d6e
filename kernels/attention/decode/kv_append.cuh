// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Appending the new tokens' K and V to a decode cache (paged or contiguous), so that a model
// keeps its cache on the device: one warp per (sequence, token, kv head) copies K's and V's rows
// 16 bytes per lane. Memory-bound and small (a few KB per step); no tensor cores, any target.
#include <cute_cpp/kernels/attention/decode/decode.hpp>

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/arch/math.hpp>  // cvt_e4m3x2_f32
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>

#include <string>

namespace cute_cpp::kernels {

/// What the append kernel reads, fixed for a launch (strides in elements).
struct KvAppendParams {
  std::int32_t batch = 1, q_tokens = 1, heads_kv = 1, head_dim = 0, head_dim_v = 0;
  AttentionStrides k_new, v_new, k, v;
  std::int32_t const* seqlens_k = nullptr;
  std::int32_t max_seq_k = 0;
  std::int32_t const* block_table = nullptr;
  std::int32_t page_size = 0, max_pages_per_seq = 0, num_pages = 0;
  float const* k_scale = nullptr;  ///< an e4m3 cache's, per kv head
  float const* v_scale = nullptr;
};

/// A row of `dim` elements, 8 per lane at a time; into an e4m3 cache each divided by `scale` and
/// rounded (saturating), 8 bytes per lane.
template <class T, class KV>
__device__ __forceinline__ void copy_row(KV* dst, T const* src, int dim, int lane, float scale = 1.0f) {
  float const inverse = 1.0f / scale;
  for (int i = lane * 8; i < dim; i += 32 * 8) {
    int4 const in = *reinterpret_cast<int4 const*>(src + i);
    if constexpr (sizeof(KV) == sizeof(T)) {
      *reinterpret_cast<int4*>(dst + i) = in;
    } else {
      T const* const x = reinterpret_cast<T const*>(&in);
      std::uint16_t pairs[4];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        pairs[j] = arch::cvt_e4m3x2_f32(float(x[2 * j]) * inverse, float(x[2 * j + 1]) * inverse);
      *reinterpret_cast<uint2*>(dst + i) =
          make_uint2(pairs[0] | std::uint32_t(pairs[1]) << 16, pairs[2] | std::uint32_t(pairs[3]) << 16);
    }
  }
}

/// The page holding key `position` of a sequence whose block-table row is `table_row`, or -1 when
/// the position lies past the row or its entry names no page in [0, num_pages).
__device__ __forceinline__ std::int32_t page_of(std::int32_t const* table_row, std::int32_t max_pages_per_seq,
                                                std::int32_t page_size, std::int32_t num_pages, std::int32_t position) {
  if (position < 0 || position >= max_pages_per_seq * page_size) return -1;
  std::int32_t const page = table_row[position / page_size];
  return page >= 0 && page < num_pages ? page : -1;
}

template <class T, class KV>
__global__ void __launch_bounds__(128) kv_append_kernel(T const* k_new, T const* v_new, KV* k, KV* v,
                                                        KvAppendParams const p) {
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // this one waits for its predecessor's memory before touching global memory.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const item = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;  // (b, t, head)
  if (item >= std::int64_t(p.batch) * p.q_tokens * p.heads_kv) return;
  int const lane = int(threadIdx.x % 32);
  std::int32_t const head = std::int32_t(item % p.heads_kv), t = std::int32_t(item / p.heads_kv % p.q_tokens);
  std::int32_t const b = std::int32_t(item / (std::int64_t(p.heads_kv) * p.q_tokens));
  std::int32_t const position = p.seqlens_k[b] - p.q_tokens + t;
  std::int64_t outer = b, row = position;
  bool ok = position >= 0 && position < p.max_seq_k;
  if (p.block_table != nullptr) {
    outer = page_of(p.block_table + std::int64_t(b) * p.max_pages_per_seq, p.max_pages_per_seq, p.page_size,
                    p.num_pages, position);
    ok = outer >= 0;
    row = position % p.page_size;
  }
  if (!ok) {
#if !defined(NDEBUG)
    if (lane == 0) {
      printf("cute-cpp [attention.kv-slot]: sequence %d, token %d: key position %d has no slot in the cache\n", b, t,
             position);
      __trap();
    }
#endif
    return;
  }
  float const k_scale = p.k_scale != nullptr ? p.k_scale[head] : 1.0f;
  float const v_scale = p.v_scale != nullptr ? p.v_scale[head] : 1.0f;
  copy_row(k + outer * p.k.batch + row * p.k.seq + head * p.k.head,
           k_new + b * p.k_new.batch + t * p.k_new.seq + head * p.k_new.head, p.head_dim, lane, k_scale);
  copy_row(v + outer * p.v.batch + row * p.v.seq + head * p.v.head,
           v_new + b * p.v_new.batch + t * p.v_new.seq + head * p.v_new.head, p.head_dim_v, lane, v_scale);
}

template <class T, class KV>
void run_kv_append(KvAppendArguments<T, KV> const& args, cudaStream_t stream) {
  using host::argument_error;
  // v_new and v both null: the cache is K alone (MLA's latent cache, V read from K's columns);
  // V's checks then see K's tensors and nothing of V is written (head_dim_v 0).
  bool const k_only = args.v_new == nullptr && args.v == nullptr;
  KvAppendArguments<T, KV> a = args;
  if (k_only) {
    a.v_new = a.k_new, a.v = a.k, a.head_dim_v = a.head_dim;
    a.v_new_stride = a.k_new_stride, a.v_stride = a.k_stride;
  }
  if (a.k_new == nullptr || a.v_new == nullptr || a.k == nullptr || a.v == nullptr || a.seqlens_k == nullptr)
    argument_error("attention.pointers", "k_new, v_new, k, v and seqlens_k must be device pointers (one is null; "
                                         "v_new and v both null: a K-only cache)");
  host::PointerArgument const pointers[] = {
      {"k_new", a.k_new}, {"v_new", a.v_new}, {"k", a.k}, {"v", a.v}, {"seqlens_k", a.seqlens_k}};
  host::check_device_pointers("attention", pointers, stream);
  host::check_stream("attention", stream);
  if (a.batch < 1 || a.q_tokens < 1 || a.heads_kv < 1)
    argument_error("attention.shape", "batch, q_tokens and heads_kv must be at least 1");
  if (a.head_dim < 8 || a.head_dim % 8 != 0 || a.head_dim_v < 8 || a.head_dim_v % 8 != 0)
    argument_error("attention.head-dim", "the head dims must be multiples of 8 (rows move 16 bytes at a time; got " +
                                             std::to_string(a.head_dim) + ", " + std::to_string(a.head_dim_v) + ")");
  bool const paged = a.block_table != nullptr;
  if (paged && (a.page_size < 1 || a.max_pages_per_seq < 1 || a.num_pages < 1))
    argument_error("attention.block-table", "page_size, max_pages_per_seq and num_pages must be at least 1");
  if (!paged && a.max_seq_k < 1) argument_error("attention.shape", "a contiguous cache needs max_seq_k >= 1");
  std::int64_t const k_rows = paged ? a.page_size : a.max_seq_k;
  KvAppendParams p;
  p.batch = a.batch;
  p.q_tokens = a.q_tokens;
  p.heads_kv = a.heads_kv;
  p.head_dim = a.head_dim;
  p.head_dim_v = k_only ? 0 : a.head_dim_v;
  using cute_cpp::detail::attention_strides;
  p.k_new = attention_strides(a.k_new_stride, "k_new", a.head_dim, a.heads_kv, a.q_tokens);
  p.v_new = attention_strides(a.v_new_stride, "v_new", a.head_dim_v, a.heads_kv, a.q_tokens);
  p.k = attention_strides(a.k_stride, "k", a.head_dim, a.heads_kv, k_rows);
  p.v = attention_strides(a.v_stride, "v", a.head_dim_v, a.heads_kv, k_rows);
  for (auto const* s : {&p.k_new, &p.v_new, &p.k, &p.v}) {
    if ((s->batch | s->seq | s->head) % 8 != 0)
      argument_error("attention.strides", "the append's strides must be multiples of 8 elements (16-byte rows)");
  }
  if constexpr (sizeof(KV) != sizeof(T)) {
    if (a.k_scale == nullptr || (!k_only && a.v_scale == nullptr))
      argument_error("attention.kv-scale", "an e4m3 cache takes k_scale and v_scale (per kv head, device)");
    p.k_scale = a.k_scale;
    p.v_scale = a.v_scale;
  }
  for (void const* ptr : {static_cast<void const*>(a.k_new), static_cast<void const*>(a.v_new),
                          static_cast<void const*>(a.k), static_cast<void const*>(a.v)}) {
    if (reinterpret_cast<std::uintptr_t>(ptr) % 16 != 0)
      argument_error("attention.strides", "the append's tensors must be 16-byte aligned");
  }
  p.seqlens_k = a.seqlens_k;
  p.max_seq_k = a.max_seq_k;
  p.block_table = a.block_table;
  p.page_size = a.page_size;
  p.max_pages_per_seq = a.max_pages_per_seq;
  p.num_pages = a.num_pages;
  std::int64_t const items = std::int64_t(a.batch) * a.q_tokens * a.heads_kv;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((items + 3) / 4));
  config.block = dim3(128);
  config.stream = stream;
  host::launch(&kv_append_kernel<T, KV>, "kv_append", config, a.k_new, a.v_new, a.k, a.v, p);
}

}  // namespace cute_cpp::kernels
