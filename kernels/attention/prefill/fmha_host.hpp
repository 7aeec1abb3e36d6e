// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host side every attention forward shares (run_fmha on sm_90a, run_fmha_sm100): the
// arguments' checks, the operands' extents and strides, the kernel's FmhaParams, the scheduler's
// tiles and their order. Host only.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/attention/arguments.hpp>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

namespace detail {

inline void check_offsets(std::int32_t const* cu, int batch, std::int64_t total, char const* name) {
  if (cu == nullptr) return;
  if (cu[0] < 0) host::argument_error("attention.cu-seqlens", std::string(name) + "[0] is negative");
  for (int b = 0; b < batch; ++b) {
    if (cu[b + 1] < cu[b])
      host::argument_error("attention.cu-seqlens", std::string(name) + " is not monotone: entry " +
                                                       std::to_string(b + 1) + " (" + std::to_string(cu[b + 1]) +
                                                       ") is below entry " + std::to_string(b) + " (" +
                                                       std::to_string(cu[b]) + ")");
  }
  if (cu[batch] > total)
    host::argument_error("attention.cu-seqlens", std::string(name) + " ends at " + std::to_string(cu[batch]) +
                                                     ", past the packed extent " + std::to_string(total));
}

/// A paged cache's arguments: the sizes, the key tile within a page, and (when given on the host)
/// every table entry and length.
template <class T, class O>
void check_paged(FmhaArguments<T, O> const& a, int block_n) {
  using host::argument_error;
  if (a.seqlens_k == nullptr || a.cu_seqlens_k != nullptr)
    argument_error("attention.block-table", "a paged cache takes seqlens_k (and no cu_seqlens_k)");
  if (a.page_size < 1 || a.max_pages_per_seq < 1 || a.num_pages < 1)
    argument_error("attention.block-table", "page_size, max_pages_per_seq and num_pages must be at least 1");
  if (a.page_size % block_n != 0)
    argument_error("attention.page-size", "the page size (" + std::to_string(a.page_size) +
                                              ") must be a multiple of the plan's key tile (" + std::to_string(block_n) +
                                              ")");
  std::int64_t const room = std::int64_t(a.max_pages_per_seq) * a.page_size;
  cute_cpp::detail::check_keys_fit("seq_k", a.seq_k, room, a.max_pages_per_seq, a.page_size);
  cute_cpp::detail::check_page_table(a.seqlens_k_host, a.block_table_host, a.batch, a.max_pages_per_seq, a.page_size,
                                     a.num_pages, room);
}

}  // namespace detail

namespace detail {

/// The operands' extents and strides, as fmha_check_arguments derives them: K/V's (seq, batch)
/// extents are a batch of sequences, one packed sequence, or the cache's pages.
struct FmhaOperands {
  std::int64_t q_rows = 0, k_rows = 0;
  int q_batches = 1, k_batches = 1;
  AttentionStrides qs, ks, vs, os;
};

/// Every check of an attention call's arguments for a plan of head dims (head_dim, head_dim_v)
/// and key tile block_n (std::invalid_argument naming the rule); false when there is nothing to
/// launch (no queries). Shared by run_fmha (sm_90a) and run_fmha_sm100.
template <class T, class O>
bool fmha_check_arguments(FmhaArguments<T, O> const& a, int head_dim, int head_dim_v, int block_n, cudaStream_t stream,
                          FmhaOperands& out) {
  using host::argument_error;
  cute_cpp::detail::check_plan_head_dims(head_dim, head_dim_v, a.head_dim, a.head_dim_v);
  cute_cpp::detail::check_operands_given(a.q, a.k, a.v, a.o);
  host::PointerArgument const pointers[] = {{"q", a.q}, {"k", a.k}, {"v", a.v}, {"o", a.o}};
  host::check_device_pointers("attention", pointers, stream);
  host::check_stream("attention", stream);
  if (a.batch < 1 || a.heads_q < 1 || a.heads_kv < 1 || a.seq_q < 0 || a.seq_k < 0)
    argument_error("attention.shape", "batch and heads must be at least 1 and lengths at least 0 (got batch " +
                                          std::to_string(a.batch) + ", heads " + std::to_string(a.heads_q) + "/" +
                                          std::to_string(a.heads_kv) + ", lengths " + std::to_string(a.seq_q) + "/" +
                                          std::to_string(a.seq_k) + ")");
  cute_cpp::detail::check_head_groups(a.heads_q, a.heads_kv);
  if (a.window_left < -1 || a.window_right < -1)
    argument_error("attention.window", "window sizes are -1 (unbounded) or at least 0");
  bool const varlen = a.cu_seqlens_q != nullptr, varlen_k = a.cu_seqlens_k != nullptr;
  bool const paged = a.block_table != nullptr;
  if (!paged && varlen != varlen_k)
    argument_error("attention.cu-seqlens", "varlen needs both cu_seqlens_q and cu_seqlens_k");
  auto const in_31_bits = [](std::int64_t x) { return x >= 1 && x < (std::int64_t{1} << 31); };
  if ((varlen && !in_31_bits(a.total_q)) || (varlen_k && !in_31_bits(a.total_k)))
    argument_error("attention.cu-seqlens", "varlen needs the packed extents total_q and total_k in 1..2^31");
  check_offsets(a.cu_seqlens_q_host, a.batch, a.total_q, "cu_seqlens_q");
  check_offsets(a.cu_seqlens_k_host, a.batch, a.total_k, "cu_seqlens_k");
  if (paged) check_paged(a, block_n);
  if (a.seq_q == 0 || a.seq_k == 0) {
    // Nothing to attend to: O of no keys is 0 (and LSE -inf), as the kernel writes for such rows.
    if (a.seq_q > 0) argument_error("attention.shape", "seq_k is 0: there are no keys (pass seq_k >= 1)");
    return false;
  }
  out.q_rows = varlen ? a.total_q : a.seq_q;
  out.k_rows = paged ? a.page_size : varlen_k ? a.total_k : a.seq_k;
  out.q_batches = varlen ? 1 : a.batch;
  out.k_batches = paged ? a.num_pages : varlen_k ? 1 : a.batch;
  out.qs = cute_cpp::detail::attention_strides(a.q_stride, "q", head_dim, a.heads_q, out.q_rows);
  out.ks = cute_cpp::detail::attention_strides(a.k_stride, "k", head_dim, a.heads_kv, out.k_rows);
  out.vs = cute_cpp::detail::attention_strides(a.v_stride, "v", head_dim_v, a.heads_kv, out.k_rows);
  out.os = cute_cpp::detail::attention_strides(a.o_stride, "o", head_dim_v, a.heads_q, out.q_rows);
  cute_cpp::detail::check_output_pairs(out.os, a.o);
  return true;
}

/// The kernel's parameters for checked arguments, but for the tile order (fmha_set_order, which
/// needs the grid).
template <class T, class O>
FmhaParams fmha_params(FmhaArguments<T, O> const& a, FmhaOperands const& s, int block_m, int head_dim) {
  FmhaParams p;
  p.batch = a.batch;
  p.seq_q = a.seq_q;
  p.seq_k = a.seq_k;
  p.heads_q = a.heads_q;
  p.group = a.heads_q / a.heads_kv;
  p.m_blocks = (a.seq_q + block_m - 1) / block_m;
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, head_dim);
  p.window_left = a.window_left;
  p.window_right = a.causal ? (a.window_right < 0 ? 0 : std::min(a.window_right, 0)) : a.window_right;
  p.cu_seqlens_q = a.cu_seqlens_q;
  p.cu_seqlens_k = a.cu_seqlens_k;
  p.total_q = std::int32_t(s.q_rows);
  p.total_k = std::int32_t(s.k_rows);
  if (a.block_table != nullptr) {
    p.block_table = a.block_table;
    p.seqlens_k = a.seqlens_k;
    p.max_pages_per_seq = a.max_pages_per_seq;
    p.num_pages = a.num_pages;
    p.page_div = FastDivmod(std::uint32_t(a.page_size));
  }
  bool const varlen = a.cu_seqlens_q != nullptr;
  p.lse = a.lse;
  p.lse_head_stride = varlen ? a.total_q : a.seq_q;
  p.lse_batch_stride = varlen ? 0 : std::int64_t(a.heads_q) * a.seq_q;
  p.o = a.o;
  p.o_seq_stride = s.os.seq;
  p.o_head_stride = s.os.head;
  return p;
}

/// The scheduler's tiles: one per (Q block, q head, sequence), within its 32-bit arithmetic.
inline PersistentTileSchedulerParams fmha_tiles(FmhaParams const& p) {
  PersistentTileSchedulerParams tiles;
  std::int64_t const units = std::int64_t(p.m_blocks) * p.heads_q * p.batch;
  if (units >= (std::int64_t{1} << 31))
    host::argument_error("attention.shape", "too many tiles for the scheduler's 32-bit arithmetic");
  tiles.tiles_m = std::int32_t(units);
  return tiles;
}

}  // namespace detail

/// The shortest key sequence whose masked tiles are dealt in one-kv-head sections, every other
/// round reversed (AttentionTileOrder; README 7).
inline constexpr int fmha_dealt_keys = 2048;

namespace detail {

/// AttentionTileOrder: one kv head's tiles after another. Masked problems take each section's
/// longest Q blocks first; from fmha_dealt_keys keys, in sections of one kv head, every other
/// round of the grid's CTAs dealt in reverse (so each CTA's work is within a tile of the mean);
/// below, in sections of kv heads whose K/V fit half the L2, dealt in order (measured faster
/// there; README 7).
template <class T, class O>
void fmha_set_order(FmhaParams& p, FmhaArguments<T, O> const& a, int head_dim, int head_dim_v, std::int64_t grid) {
  static std::int64_t const l2_bytes = host::l2_cache_bytes();
  std::int64_t const kv_bytes = std::int64_t(a.seq_k) * (head_dim + head_dim_v) * std::int64_t(sizeof(T));
  bool const dealt = p.masked() && a.seq_k >= fmha_dealt_keys;  // a budget of 0: one kv head a section
  p.order = AttentionTileOrder::make(p.m_blocks, a.heads_q, a.heads_kv, a.batch, p.masked(), kv_bytes,
                                     dealt ? 0 : l2_bytes / 2, dealt ? grid : 1);
}

}  // namespace detail

/// The launch of an attention kernel of Plan on `ctas` CTAs (one a persistent worker).
template <class Plan>
host::LaunchConfig fmha_launch_config(unsigned ctas, cudaStream_t stream = nullptr) {
  host::LaunchConfig config;
  config.grid = dim3(ctas);
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  return config;
}

}  // namespace cute_cpp::kernels
