// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Decode attention's host side (decode_sm90.cuh): the split count, the workspace, the arguments'
// checks, the launch of the decode kernel (in a cluster of its splits where they combine there)
// and of the combine kernel, and the plan run_decode_attention picks for the arguments' head dims.
#include <cute_cpp/attention/arguments.hpp>                      // check_plan_head_dims, check_head_groups
#include <cute_cpp/attention/tensors.hpp>                        // attention_strides, attention_map
#include <cute_cpp/host/arguments.hpp>                           // argument_error, check_device_pointers
#include <cute_cpp/host/error.hpp>                               // cuda_check
#include <cute_cpp/host/launch.hpp>                              // LaunchConfig, launch, resident_clusters
#include <cute_cpp/kernels/attention/decode/decode.hpp>          // DecodeArguments, DecodeParams, decode_plans
#include <cute_cpp/kernels/attention/decode/decode_combine.cuh>  // decode_combine_kernel, max_*_splits
#include <cute_cpp/kernels/attention/decode/decode_kernel.cuh>   // decode_kernel

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace cute_cpp::kernels {

namespace detail {

inline int sm_count() {
  int device = 0, sms = 0;
  host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  host::cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return sms;
}

/// The split count (flash-decoding's rule): the CTAs of a launch run in waves over the SMs' slots,
/// and a last wave that is mostly empty wastes its share of the time. Of the split counts that keep
/// every split at least two key blocks, the smallest whose waves are within 5% of the best filled.
template <int BlockM, int BlockN, int CtasPerSm, class T, class KV>
int choose_splits(DecodeArguments<T, KV> const& a) {
  if (a.num_splits > 0) return a.num_splits;
  std::int64_t const m_blocks = (std::int64_t(a.heads_q / std::max(a.heads_kv, 1)) * a.q_tokens + BlockM - 1) / BlockM;
  std::int64_t const ctas = std::int64_t(a.batch) * a.heads_kv * m_blocks;
  std::int64_t const slots = std::int64_t(sm_count()) * CtasPerSm;
  std::int64_t const blocks = (std::int64_t(a.max_seq_k) + BlockN - 1) / BlockN;
  std::int64_t const most = std::max<std::int64_t>(1, std::min<std::int64_t>(blocks / 2, max_decode_splits));
  auto const filled = [&](std::int64_t splits) {  // the waves' mean occupancy
    std::int64_t const n = ctas * splits;
    return double(n) / double((n + slots - 1) / slots * slots);
  };
  double best = 0;
  for (std::int64_t s = 1; s <= most; ++s) best = std::max(best, filled(s));
  std::int64_t chosen = 1;
  for (std::int64_t s = most; s >= 1; --s)
    if (filled(s) >= 0.95 * best) chosen = s;
  // A short sequence in a small launch (B1 KV4k: 16 splits of two blocks) is bound by each CTA's
  // start and the combine, not by bandwidth: as many splits as combine within one cluster.
  if (chosen > max_cluster_splits && blocks <= 8 * max_cluster_splits) chosen = max_cluster_splits;
  return int(chosen);
}

template <class Plan, class T, class KV>
std::size_t workspace_bytes(DecodeArguments<T, KV> const& a, int splits) {
  if (splits <= 1) return 0;
  std::size_t const rows = std::size_t(a.batch) * a.q_tokens * a.heads_q;
  return std::size_t(splits) * rows * (Plan::head_dim_v + 1) * sizeof(float);
}

/// Every check of the arguments that needs no plan but the key tile.
template <class T, class KV>
void check_decode(DecodeArguments<T, KV> const& a, cudaStream_t stream) {
  using host::argument_error;
  cute_cpp::detail::check_operands_given(a.q, a.k, a.v, a.o);
  // The optional tables stand in as q when absent.
  void const* const seqlens = a.seqlens_k != nullptr ? static_cast<void const*>(a.seqlens_k) : a.q;
  void const* const table = a.block_table != nullptr ? static_cast<void const*>(a.block_table) : a.q;
  host::PointerArgument const pointers[] = {
      {"q", a.q}, {"k", a.k}, {"v", a.v}, {"o", a.o}, {"seqlens_k", seqlens}, {"block_table", table}};
  host::check_device_pointers("attention", pointers, stream);
  if (a.batch < 1 || a.heads_q < 1 || a.heads_kv < 1 || a.max_seq_k < 1)
    argument_error("attention.shape", "batch, heads and max_seq_k must be at least 1 (got batch " +
                                          std::to_string(a.batch) + ", heads " + std::to_string(a.heads_q) + "/" +
                                          std::to_string(a.heads_kv) + ", max_seq_k " + std::to_string(a.max_seq_k) +
                                          ")");
  if (a.q_tokens < 1 || a.q_tokens > 8)
    argument_error("attention.q-tokens", "decode takes 1 to 8 query tokens per sequence (got " +
                                             std::to_string(a.q_tokens) + "); longer ones are prefill (fmha_sm90)");
  cute_cpp::detail::check_head_groups(a.heads_q, a.heads_kv);
  bool const paged = a.block_table != nullptr;
  if (paged) {
    if (a.seqlens_k == nullptr) argument_error("attention.block-table", "a paged cache takes seqlens_k");
    if (a.page_size < 16 || a.page_size % 16 != 0)
      argument_error("attention.page-size", "the page size (" + std::to_string(a.page_size) +
                                                ") must be a positive multiple of 16 keys");
    if (a.max_pages_per_seq < 1 || a.num_pages < 1)
      argument_error("attention.block-table", "max_pages_per_seq and num_pages must be at least 1");
  }
  std::int64_t const room = paged ? std::int64_t(a.max_pages_per_seq) * a.page_size : a.max_seq_k;
  cute_cpp::detail::check_keys_fit("max_seq_k", a.max_seq_k, room, a.max_pages_per_seq, a.page_size);
  cute_cpp::detail::check_page_table(a.seqlens_k_host, paged ? a.block_table_host : nullptr, a.batch,
                                     a.max_pages_per_seq, paged ? a.page_size : 0, a.num_pages, room);
}

}  // namespace detail

template <class Plan>
int decode_splits_for(DecodeArguments<typename Plan::Element, typename Plan::KvElement> const& a) {
  return detail::choose_splits<Plan::block_m, Plan::block_n, Plan::ctas_per_sm>(a);
}

/// Runs decode attention with Plan (its head dims must be the arguments').
template <class Plan>
void run_decode(DecodeArguments<typename Plan::Element, typename Plan::KvElement> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  using KV = typename Plan::KvElement;
  using host::argument_error;
  cute_cpp::detail::check_plan_head_dims(Plan::head_dim, Plan::head_dim_v, a.head_dim, a.head_dim_v);
  detail::check_decode(a, stream);
  host::check_stream("attention", stream);
  if (a.block_table != nullptr && a.page_size % Plan::box_rows != 0)
    argument_error("attention.page-size", "the plan loads boxes of " + std::to_string(Plan::box_rows) +
                                              " keys; the page size (" + std::to_string(a.page_size) +
                                              ") must be a multiple");
  int const splits = decode_splits_for<Plan>(a);
  if (splits > max_decode_splits)
    argument_error("attention.splits", "at most " + std::to_string(max_decode_splits) + " splits (got " +
                                           std::to_string(splits) + ")");
  std::size_t const workspace = detail::workspace_bytes<Plan>(a, splits);
  if (workspace > 0 && (a.workspace == nullptr || a.workspace_bytes < workspace))
    argument_error("attention.workspace", std::to_string(splits) + " splits need a workspace of " +
                                              std::to_string(workspace) + " bytes (got " +
                                              std::to_string(a.workspace_bytes) + "; see decode_workspace_bytes)");
  bool const paged = a.block_table != nullptr;
  std::int64_t const k_rows = paged ? a.page_size : a.max_seq_k;
  int const k_outer = paged ? a.num_pages : a.batch;
  auto const qs = cute_cpp::detail::attention_strides(a.q_stride, "q", Plan::head_dim, a.heads_q, a.q_tokens);
  auto const ks = cute_cpp::detail::attention_strides(a.k_stride, "k", Plan::head_dim, a.heads_kv, k_rows);
  if constexpr (Plan::v_in_k) {
    if (a.v != a.k || !(a.v_stride == a.k_stride || a.v_stride == AttentionStrides{}))
      argument_error("attention.mla-value", "the plan reads V as the first " + std::to_string(Plan::head_dim_v) +
                                                " columns of K (MLA's latent cache): v must be k, with k's strides "
                                                "or none");
  }
  auto const vs = Plan::v_in_k ? ks
                               : cute_cpp::detail::attention_strides(a.v_stride, "v", Plan::head_dim_v, a.heads_kv,
                                                                     k_rows);
  auto const os = cute_cpp::detail::attention_strides(a.o_stride, "o", Plan::head_dim_v, a.heads_q, a.q_tokens);
  if ((qs.batch | qs.seq | qs.head) % 8 != 0 || reinterpret_cast<std::uintptr_t>(a.q) % 16 != 0)
    argument_error("attention.strides", "q's address must be 16-byte aligned and its strides multiples of 8 "
                                        "(rows are read 16 bytes at a time)");
  cute_cpp::detail::check_output_pairs(os, a.o);
  using cute_cpp::detail::attention_map;
  auto const map_k = attention_map<KV, typename Plan::Box>(a.k, Plan::head_dim, k_rows, a.heads_kv, k_outer, ks);
  auto const map_v = attention_map<KV, typename Plan::Box>(a.v, Plan::head_dim_v, k_rows, a.heads_kv, k_outer, vs);

  DecodeParams p;
  p.batch = a.batch;
  p.q_tokens = a.q_tokens;
  p.heads_q = a.heads_q;
  p.heads_kv = a.heads_kv;
  p.group = a.heads_q / a.heads_kv;
  p.rows = p.group * a.q_tokens;
  p.m_blocks = (p.rows + Plan::block_m - 1) / Plan::block_m;
  p.splits = splits;
  p.m_blocks_div = FastDivmod(std::uint32_t(p.m_blocks));
  p.splits_div = FastDivmod(std::uint32_t(splits));
  p.heads_kv_div = FastDivmod(std::uint32_t(a.heads_kv));
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, Plan::head_dim);
  p.causal = a.causal;
  p.q = a.q;
  p.q_batch_stride = qs.batch;
  p.q_seq_stride = qs.seq;
  p.q_head_stride = qs.head;
  p.o = a.o;
  p.o_batch_stride = os.batch;
  p.o_seq_stride = os.seq;
  p.o_head_stride = os.head;
  p.lse = a.lse;
  p.k_scale = a.k_scale;
  p.v_scale = a.v_scale;
  std::int64_t const rows = std::int64_t(a.batch) * a.q_tokens * a.heads_q;
  if (splits > 1) {
    p.partial_o = static_cast<float*>(a.workspace);
    p.partial_lse = p.partial_o + std::int64_t(splits) * rows * Plan::head_dim_v;
  }
  p.seqlens_k = a.seqlens_k;
  p.max_seq_k = a.max_seq_k;
  if (paged) {
    p.block_table = a.block_table;
    p.max_pages_per_seq = a.max_pages_per_seq;
    p.num_pages = a.num_pages;
    p.page_div = FastDivmod(std::uint32_t(a.page_size));
  }
  std::int64_t const ctas = std::int64_t(a.batch) * a.heads_kv * p.m_blocks * splits;
  if (ctas >= (std::int64_t{1} << 31)) argument_error("attention.shape", "too many CTAs for one launch");
  host::LaunchConfig config;
  config.grid = dim3(unsigned(ctas));
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  // Up to max_cluster_splits splits combine in their cluster (no second kernel, no wait for the
  // whole grid), where a cluster of them can be resident (it cannot under some MIG slices).
  if (splits > 1 && splits <= max_cluster_splits) {
    host::LaunchConfig clustered = config;
    clustered.cluster = dim3(unsigned(splits));
    if (host::resident_clusters(&decode_kernel<Plan>, clustered) > 0) {
      config = clustered;
      p.combine_in_cluster = true;
    }
  }
  host::launch(&decode_kernel<Plan>, "decode_attention_sm90", config, map_k, map_v, p);
  if (splits > 1 && !p.combine_in_cluster) {
    host::LaunchConfig combine;
    combine.grid = dim3(unsigned((rows + 3) / 4));
    combine.block = dim3(128);
    combine.stream = stream;
    combine.programmatic_dependent_launch = true;
    host::launch(&decode_combine_kernel<T, Plan::head_dim_v>, "decode_attention_sm90 combine", combine, p);
  }
}

/// The plan run_decode_attention uses for `a`'s head dims, as a callable on it.
template <class T, class KV, class F>
decltype(auto) with_decode_plan(DecodeArguments<T, KV> const& a, F&& f) {
  using namespace decode_plans;
  bool const small_pages = a.block_table != nullptr && a.page_size % 64 != 0;
  if constexpr (!std::is_same_v<KV, T>) {
    if (a.head_dim == 128 && a.head_dim_v == 128) return small_pages ? f(Fp8D128Page16<T>{}) : f(Fp8D128<T>{});
    if (a.head_dim == 256 && a.head_dim_v == 256) return small_pages ? f(Fp8D256Page16<T>{}) : f(Fp8D256<T>{});
    host::argument_error("attention.head-dim", "no decode plan for an e4m3 cache of head dims (" +
                                                   std::to_string(a.head_dim) + ", " + std::to_string(a.head_dim_v) +
                                                   "): built are (128, 128) and (256, 256)");
  } else {
    if (a.head_dim == 64 && a.head_dim_v == 64) return small_pages ? f(D64Page16<T>{}) : f(D64<T>{});
    if (a.head_dim == 128 && a.head_dim_v == 128) return small_pages ? f(D128Page16<T>{}) : f(D128<T>{});
    if (a.head_dim == 256 && a.head_dim_v == 256) return small_pages ? f(D256Page16<T>{}) : f(D256<T>{});
    if (a.head_dim == 576 && a.head_dim_v == 512) return f(Mla<T>{});
    host::argument_error("attention.head-dim", "no decode plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                   std::to_string(a.head_dim_v) +
                                                   "): built are (64, 64), (128, 128), (256, 256) and MLA's (576, 512)");
  }
}

template <class T, class KV>
int decode_num_splits(DecodeArguments<T, KV> const& a) {
  return with_decode_plan(a, [&](auto plan) { return decode_splits_for<decltype(plan)>(a); });
}

template <class T, class KV>
std::size_t decode_workspace_bytes(DecodeArguments<T, KV> const& a) {
  return with_decode_plan(a, [&](auto plan) {
    using Plan = decltype(plan);
    return detail::workspace_bytes<Plan>(a, decode_splits_for<Plan>(a));
  });
}

template <class T, class KV>
void run_decode_attention(DecodeArguments<T, KV> const& a, cudaStream_t stream) {
  with_decode_plan(a, [&](auto plan) { run_decode<decltype(plan)>(a, stream); });
}
}  // namespace cute_cpp::kernels
