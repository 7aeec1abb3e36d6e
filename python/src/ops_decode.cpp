// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp._ops' decode attention: a serving step's new keys and values into a paged or contiguous
// KV cache (kv_append), and its queries against it (flash-decoding splits, GQA, 1-8 query tokens a
// sequence), through libcute_cpp_decode's C entry points (kernels/attention/decode/capi.cu). The
// checks here are what those cannot see (dtypes, ranks, strides, devices: ops_checks.hpp); the
// cache's own rules (attention.*) are theirs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "ops_checks.hpp"
#include "workspace.hpp"

#include <cute_cpp_decode.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::python::ops {
namespace {

/// Whether the cache is e4m3 (else of `dtype`, the queries' or new tokens' type) [ops.dtype], with
/// its scales float32 (kv_heads,), contiguous, given only for an e4m3 cache (and there required
/// when `required`).
bool check_cache(AnyArray const& k_cache, AnyArray const& v_cache, Dtype dtype,
                 std::optional<AnyArray> const& k_scale, std::optional<AnyArray> const& v_scale, bool required) {
  Dtype const cache = check_dtypes({{"k_cache", &k_cache}, {"v_cache", &v_cache}}, {dtype, Dtype::e4m3});
  bool const fp8 = cache == Dtype::e4m3;
  if (!fp8 && (k_scale || v_scale)) fail("ops.dtype", "k_scale and v_scale go with a float8_e4m3fn cache");
  if (fp8 && required && !(k_scale && v_scale))
    fail("ops.dtype", "a float8_e4m3fn cache is written with k_scale and v_scale");
  for (auto const& [name, scale] : {std::pair{"k_scale", &k_scale}, {"v_scale", &v_scale}}) {
    if (!*scale) continue;
    check_dtypes({{name, &**scale}}, {Dtype::f32});
    check_shape(name, **scale, {k_cache.shape(2)}, "one a kv head");
    if (!packed_vector(**scale)) fail("ops.layout", std::string(name) + " must be contiguous");
  }
  return fp8;
}

float const* scale_data(std::optional<AnyArray> const& s) { return s ? static_cast<float const*>(s->data()) : nullptr; }

/// o (batch, q_tokens, heads, head_dim_v), and with return_lse (o, lse (batch, q_tokens, heads)
/// float32): decode attention of q against the cache (see ops.py's decode_attention).
nb::object decode_attention(AnyArray q, AnyArray k_cache, AnyArray v_cache, AnyArray cache_seqlens,
                            std::optional<AnyArray> block_table, std::optional<AnyArray> k_scale,
                            std::optional<AnyArray> v_scale, int max_seqlen, bool causal, float scale, int num_splits,
                            std::optional<AnyArray> out, bool return_lse, std::string const& framework,
                            std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"q", &q}};
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16});
  arrays.push_back({"k_cache", &k_cache});
  arrays.push_back({"v_cache", &v_cache});
  check_rank("q", q, 4, "(batch, q_tokens, heads, head_dim)");
  char const* const cache_dims =
      block_table ? "(pages, page_size, kv_heads, head_dim)" : "(batch, seq, kv_heads, head_dim)";
  check_rank("k_cache", k_cache, 4, cache_dims);
  check_rank("v_cache", v_cache, 4, cache_dims);
  std::size_t const batch = q.shape(0), q_tokens = q.shape(1), heads = q.shape(2);
  check_extent("k_cache", k_cache, 3, q.shape(3), "q's head_dim");
  for (std::size_t d = 0; d < 3; ++d) check_extent("v_cache", v_cache, d, k_cache.shape(d), "k_cache's");
  if (!block_table) check_extent("k_cache", k_cache, 0, batch, "q's batch");
  bool const fp8 = check_cache(k_cache, v_cache, dtype, k_scale, v_scale, false);
  check_dtypes({{"cache_seqlens", &cache_seqlens}}, {Dtype::i32});
  check_shape("cache_seqlens", cache_seqlens, {batch}, "a length a sequence, the new tokens counted");
  if (!packed_vector(cache_seqlens)) fail("ops.layout", "cache_seqlens must be contiguous");
  int page_size = 0, max_pages = 0, num_pages = 0;
  if (block_table) {
    check_dtypes({{"block_table", &*block_table}}, {Dtype::i32});
    check_rank("block_table", *block_table, 2, "(batch, max_pages_per_seq)");
    check_extent("block_table", *block_table, 0, batch, "q's batch");
    if (!row_major(*block_table)) fail("ops.layout", "block_table must be contiguous");
    page_size = int(k_cache.shape(1)), max_pages = int(block_table->shape(1)), num_pages = int(k_cache.shape(0));
  }
  // A contiguous cache's seq extent is the kernel's K/V map: always the array's. A paged cache's
  // longest sequence plans the splits; a length above it would be cut short.
  int const capacity = block_table ? page_size * max_pages : int(k_cache.shape(1));
  if (max_seqlen > capacity)
    fail("ops.shape", "max_seqlen " + std::to_string(max_seqlen) + " is more than the cache holds (" +
                          std::to_string(capacity) + ")");
  int const longest = block_table && max_seqlen > 0 ? max_seqlen : capacity;
  std::vector<std::size_t> const o_shape{batch, q_tokens, heads, v_cache.shape(3)};
  if (out) {
    check_shape("out", *out, o_shape, "q's (batch, q_tokens, heads), v_cache's head_dim");
    if (!row_major(*out)) fail("ops.layout", "out must be contiguous");
  }
  for (auto const& [name, a] : arrays) check_inner_contiguous(name, *a);
  arrays.push_back({"cache_seqlens", &cache_seqlens});
  if (block_table) arrays.push_back({"block_table", &*block_table});
  if (k_scale) arrays.push_back({"k_scale", &*k_scale});
  if (v_scale) arrays.push_back({"v_scale", &*v_scale});
  int const device = check_devices(arrays);
  // The call as it will be made, first asking for its workspace (workspace_needed set: nothing runs).
  auto const call = [&](void* o, float* lse, void* workspace, unsigned long long workspace_bytes,
                        unsigned long long* needed, char* message, unsigned long size) {
    long long strides[12];
    AnyArray const* const ops[] = {&q, &k_cache, &v_cache};
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 3; ++d) strides[3 * i + d] = stride_of(*ops[i], std::size_t(d));
    strides[9] = std::int64_t(q_tokens * heads * o_shape[3]), strides[10] = std::int64_t(heads * o_shape[3]);
    strides[11] = std::int64_t(o_shape[3]);
    int const* const table = block_table ? static_cast<int const*>(block_table->data()) : nullptr;
    auto const* const lengths = static_cast<int const*>(cache_seqlens.data());
    if (fp8)
      return cute_cpp_decode_attention_fp8kv(
          dtype_code(dtype), q.data(), k_cache.data(), v_cache.data(), o, lse, scale_data(k_scale),
          scale_data(v_scale), strides, int(batch), int(q_tokens), int(heads), int(k_cache.shape(2)), int(q.shape(3)),
          int(o_shape[3]), scale, causal ? 1 : 0, lengths, longest, table, page_size, max_pages, num_pages,
          num_splits, workspace, workspace_bytes, reinterpret_cast<void*>(stream), needed, message, size);
    return cute_cpp_decode_attention(dtype_code(dtype), q.data(), k_cache.data(), v_cache.data(), o, lse, strides,
                                     int(batch), int(q_tokens), int(heads), int(k_cache.shape(2)), int(q.shape(3)),
                                     int(o_shape[3]), scale, causal ? 1 : 0, lengths, longest, table, page_size,
                                     max_pages, num_pages, num_splits, workspace, workspace_bytes,
                                     reinterpret_cast<void*>(stream), needed, message, size);
  };
  unsigned long long bytes = 0;
  char message[1024] = "";
  check_status(call(nullptr, nullptr, nullptr, 0, &bytes, message, sizeof message), message);
  // use 4: the splits' partial results, written and combined by every call.
  auto const [workspace, workspace_bytes] = StreamWorkspaces::process().get(device, stream, std::size_t(bytes), 4);
  nb::object const lse = return_lse ? new_array({batch, q_tokens, heads}, nb::dtype<float>(), device, framework)
                                    : nb::none();
  float* const lse_data = return_lse ? static_cast<float*>(nb::cast<AnyArray>(lse).data()) : nullptr;
  nb::object result = write_output(out, o_shape, q.dtype(), device, framework,
                                   [&](AnyArray const& o, char* text, unsigned long size) {
                                     return call(o.data(), lse_data, workspace, workspace_bytes, nullptr, text, size);
                                   });
  return return_lse ? nb::object(nb::make_tuple(result, lse)) : result;
}

/// Writes k_new, v_new (batch, q_tokens, kv_heads, d) into the cache at each sequence's last
/// q_tokens positions (see ops.py's kv_append); returns None.
void kv_append(AnyArray k_new, AnyArray v_new, AnyArray k_cache, AnyArray v_cache, AnyArray cache_seqlens,
               std::optional<AnyArray> block_table, std::optional<AnyArray> k_scale, std::optional<AnyArray> v_scale,
               std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"k_new", &k_new}, {"v_new", &v_new}};
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16});
  arrays.push_back({"k_cache", &k_cache});
  arrays.push_back({"v_cache", &v_cache});
  check_rank("k_new", k_new, 4, "(batch, q_tokens, kv_heads, head_dim)");
  check_rank("v_new", v_new, 4, "(batch, q_tokens, kv_heads, head_dim_v)");
  char const* const cache_dims =
      block_table ? "(pages, page_size, kv_heads, head_dim)" : "(batch, seq, kv_heads, head_dim)";
  check_rank("k_cache", k_cache, 4, cache_dims);
  check_rank("v_cache", v_cache, 4, cache_dims);
  std::size_t const batch = k_new.shape(0), q_tokens = k_new.shape(1);
  for (std::size_t d = 0; d < 3; ++d) check_extent("v_new", v_new, d, k_new.shape(d), "k_new's");
  check_extent("k_cache", k_cache, 2, k_new.shape(2), "k_new's kv_heads");
  check_extent("k_cache", k_cache, 3, k_new.shape(3), "k_new's head_dim");
  for (std::size_t d = 0; d < 3; ++d) check_extent("v_cache", v_cache, d, k_cache.shape(d), "k_cache's");
  check_extent("v_cache", v_cache, 3, v_new.shape(3), "v_new's head_dim");
  if (!block_table) check_extent("k_cache", k_cache, 0, batch, "k_new's batch");
  bool const fp8 = check_cache(k_cache, v_cache, dtype, k_scale, v_scale, true);
  check_dtypes({{"cache_seqlens", &cache_seqlens}}, {Dtype::i32});
  check_shape("cache_seqlens", cache_seqlens, {batch}, "a length a sequence, after the append");
  if (!packed_vector(cache_seqlens)) fail("ops.layout", "cache_seqlens must be contiguous");
  int page_size = 0, max_pages = 0, num_pages = 0;
  if (block_table) {
    check_dtypes({{"block_table", &*block_table}}, {Dtype::i32});
    check_rank("block_table", *block_table, 2, "(batch, max_pages_per_seq)");
    check_extent("block_table", *block_table, 0, batch, "k_new's batch");
    if (!row_major(*block_table)) fail("ops.layout", "block_table must be contiguous");
    page_size = int(k_cache.shape(1)), max_pages = int(block_table->shape(1)), num_pages = int(k_cache.shape(0));
  }
  for (auto const& [name, a] : arrays) check_inner_contiguous(name, *a);
  arrays.push_back({"cache_seqlens", &cache_seqlens});
  if (block_table) arrays.push_back({"block_table", &*block_table});
  if (k_scale) arrays.push_back({"k_scale", &*k_scale});
  if (v_scale) arrays.push_back({"v_scale", &*v_scale});
  (void)check_devices(arrays);
  long long strides[12];
  AnyArray const* const parts[] = {&k_new, &v_new, &k_cache, &v_cache};
  for (int i = 0; i < 4; ++i)
    for (int d = 0; d < 3; ++d) strides[3 * i + d] = stride_of(*parts[i], std::size_t(d));
  char message[1024] = "";
  int const* const table = block_table ? static_cast<int const*>(block_table->data()) : nullptr;
  auto const* const lengths = static_cast<int const*>(cache_seqlens.data());
  int const seq = block_table ? 0 : int(k_cache.shape(1));
  int const heads_kv = int(k_new.shape(2)), d = int(k_new.shape(3)), dv = int(v_new.shape(3));
  auto* const s = reinterpret_cast<void*>(stream);
  int const status =
      fp8 ? cute_cpp_kv_append_fp8kv(dtype_code(dtype), k_new.data(), v_new.data(), k_cache.data(), v_cache.data(),
                                     scale_data(k_scale), scale_data(v_scale), strides, int(batch), int(q_tokens),
                                     heads_kv, d, dv, lengths, seq, table, page_size, max_pages, num_pages, s, message,
                                     sizeof message)
          : cute_cpp_kv_append(dtype_code(dtype), k_new.data(), v_new.data(), k_cache.data(), v_cache.data(), strides,
                               int(batch), int(q_tokens), heads_kv, d, dv, lengths, seq, table, page_size, max_pages,
                               num_pages, s, message, sizeof message);
  check_status(status, message);
}

}  // namespace

void add_decode_ops(nb::module_& m) {
  m.def("kv_append", &kv_append, "k_new"_a, "v_new"_a, "k_cache"_a, "v_cache"_a, "cache_seqlens"_a,
        "block_table"_a.none(), "k_scale"_a.none(), "v_scale"_a.none(), "stream"_a,
        "Writes a step's new keys and values into a paged or contiguous KV cache (bf16, f16; e4m3 with scales).");
  m.def("decode_attention", &decode_attention, "q"_a, "k_cache"_a, "v_cache"_a, "cache_seqlens"_a,
        "block_table"_a.none(), "k_scale"_a.none(), "v_scale"_a.none(), "max_seqlen"_a, "causal"_a, "scale"_a,
        "num_splits"_a, "out"_a.none(), "return_lse"_a, "framework"_a, "stream"_a,
        "O = attention of a step's queries against a paged or contiguous KV cache (bf16 or f16; an e4m3 "
        "cache with scales; GQA).");
}

}  // namespace cute_cpp::python::ops
