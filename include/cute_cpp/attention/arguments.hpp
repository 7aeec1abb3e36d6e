// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The argument checks every attention kernel makes alike (the prefill's run_fmha and decode's
// run_decode): a plan's head dims, the four operands, the head grouping, the output's paired
// stores, and a key count within its cache's pages. Each failure is std::invalid_argument naming
// the rule, before anything is launched.
#include <cute_cpp/attention/tensors.hpp>  // AttentionStrides
#include <cute_cpp/host/error.hpp>         // argument_error

#include <cstdint>
#include <string>

namespace cute_cpp::detail {

/// [attention.head-dim]: the plan's head dims (of Q/K and of V/O) are the arguments'.
inline void check_plan_head_dims(int plan_head_dim, int plan_head_dim_v, int head_dim, int head_dim_v) {
  if (head_dim != plan_head_dim || head_dim_v != plan_head_dim_v)
    host::argument_error("attention.head-dim", "the plan is for head dims (" + std::to_string(plan_head_dim) + ", " +
                                                   std::to_string(plan_head_dim_v) + "), the arguments have (" +
                                                   std::to_string(head_dim) + ", " + std::to_string(head_dim_v) +
                                                   ")");
}

/// [attention.pointers]: q, k, v and o are given (whether they are device memory is
/// host::check_device_pointers's question).
inline void check_operands_given(void const* q, void const* k, void const* v, void const* o) {
  if (q == nullptr || k == nullptr || v == nullptr || o == nullptr)
    host::argument_error("attention.pointers", "q, k, v and o must be device pointers (one is null)");
}

/// [attention.gqa]: each kv head serves the same number of q heads.
inline void check_head_groups(int heads_q, int heads_kv) {
  if (heads_q % heads_kv != 0)
    host::argument_error("attention.gqa", "kv heads must divide q heads (got " + std::to_string(heads_q) +
                                              " q heads, " + std::to_string(heads_kv) + " kv heads)");
}

/// [attention.strides]: the output is stored a pair of elements at a time, so its strides are even
/// and its address 4-byte aligned.
inline void check_output_pairs(AttentionStrides const& o_strides, void const* o) {
  if ((o_strides.batch | o_strides.seq | o_strides.head) % 2 != 0 || reinterpret_cast<std::uintptr_t>(o) % 4 != 0)
    host::argument_error("attention.strides", "o's strides must be even (pairs of outputs are stored together)");
}

/// [attention.block-table]: `keys` (named `name`) fit the `room` of a cache of `pages` pages of
/// `page_size` keys, below 2^31 (the kernels' key arithmetic is 32-bit).
inline void check_keys_fit(char const* name, std::int64_t keys, std::int64_t room, int pages, int page_size) {
  if (keys > room || room >= (std::int64_t{1} << 31))
    host::argument_error("attention.block-table", std::string(name) + " (" + std::to_string(keys) +
                                                      ") must fit the table's " + std::to_string(pages) +
                                                      " pages of " + std::to_string(page_size) +
                                                      " keys (below 2^31)");
}

}  // namespace cute_cpp::detail
