// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host side of attention operands: [batch, seq, heads, dim] tensors (or a cache's [pages,
// page_size, heads, dim]) with any element strides whose innermost is 1, and their rank-4 TMA maps
// (dim, seq, heads, batch), shared by the prefill and decode kernels.
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace cute_cpp {

/// Element strides of a [batch, seq, heads, dim] tensor (dim's is 1); 0 everywhere: contiguous.
struct AttentionStrides {
  std::int64_t batch = 0, seq = 0, head = 0;
  friend bool operator==(AttentionStrides const&, AttentionStrides const&) = default;
};

namespace detail {

/// The softmax scale (0: 1 / sqrt(head_dim)) times log2 e: exp(scale x) = 2^(that x), the form the
/// kernels' exp2 takes.
inline float softmax_scale_log2(float softmax_scale, int head_dim) {
  float const scale = softmax_scale != 0.0f ? softmax_scale : 1.0f / std::sqrt(float(head_dim));
  return scale * float(M_LOG2E);
}

/// Fills in contiguous strides where all three are 0; checks the rest.
inline AttentionStrides attention_strides(AttentionStrides s, char const* name, int dim, int heads, std::int64_t seq) {
  if (s.batch == 0 && s.seq == 0 && s.head == 0) return {seq * heads * dim, std::int64_t(heads) * dim, dim};
  if (s.seq <= 0 || s.head <= 0 || s.batch < 0)
    host::argument_error("attention.strides", std::string(name) + "'s seq and head strides must be positive (got seq " +
                                                  std::to_string(s.seq) + ", head " + std::to_string(s.head) + ")");
  return s;
}

/// The rank-4 tensor map (dim, seq, heads, batch) of one attention operand.
template <class T, class Smem>
TensorMap<T, Smem> attention_map(T const* ptr, int dim, std::int64_t seq, int heads, int batch,
                                 AttentionStrides const& s) {
  return host::create_tensor_map_tiled<T, Smem, 4>(
      ptr, {std::uint64_t(dim), std::uint64_t(seq), std::uint64_t(heads), std::uint64_t(batch)},
      {std::uint64_t(s.seq) * sizeof(T), std::uint64_t(s.head) * sizeof(T), std::uint64_t(s.batch) * sizeof(T)});
}

/// The host copies of a paged cache's lengths and table (either may be null): every length within
/// 0..room and every entry a sequence uses (page_size > 0) a page of the cache; the first bad one
/// is std::invalid_argument [attention.block-table] naming it.
inline void check_page_table(std::int32_t const* seqlens_host, std::int32_t const* table_host, int batch,
                             int max_pages_per_seq, int page_size, int num_pages, std::int64_t room) {
  for (int b = 0; seqlens_host != nullptr && b < batch; ++b) {
    std::int32_t const len = seqlens_host[b];
    if (len < 0 || len > room)
      host::argument_error("attention.block-table", "seqlens_k[" + std::to_string(b) + "] = " + std::to_string(len) +
                                                        " is outside 0.." + std::to_string(room));
    int const used = page_size > 0 ? int((len + page_size - 1) / page_size) : 0;
    for (int j = 0; table_host != nullptr && j < used; ++j) {
      std::int32_t const page = table_host[std::int64_t(b) * max_pages_per_seq + j];
      if (page < 0 || page >= num_pages)
        host::argument_error("attention.block-table", "sequence " + std::to_string(b) + ", slot " +
                                                          std::to_string(j) + ": page " + std::to_string(page) +
                                                          " is outside the cache's " + std::to_string(num_pages) +
                                                          " pages");
    }
  }
}

}  // namespace detail

}  // namespace cute_cpp
