// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward's host side (fmha_sm90.cuh): the arguments' checks, the tensor maps, the
// tile order, the launch (run_fmha), and the plan run_attention picks for the arguments' head dims.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_kernel.cuh>
#include <cute_cpp/attention/arguments.hpp>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
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
template <int BlockN, class T>
void check_paged(FmhaArguments<T> const& a) {
  using host::argument_error;
  if (a.seqlens_k == nullptr || a.cu_seqlens_k != nullptr)
    argument_error("attention.block-table", "a paged cache takes seqlens_k (and no cu_seqlens_k)");
  if (a.page_size < 1 || a.max_pages_per_seq < 1 || a.num_pages < 1)
    argument_error("attention.block-table", "page_size, max_pages_per_seq and num_pages must be at least 1");
  if (a.page_size % BlockN != 0)
    argument_error("attention.page-size", "the page size (" + std::to_string(a.page_size) +
                                              ") must be a multiple of the plan's key tile (" + std::to_string(BlockN) +
                                              ")");
  std::int64_t const room = std::int64_t(a.max_pages_per_seq) * a.page_size;
  cute_cpp::detail::check_keys_fit("seq_k", a.seq_k, room, a.max_pages_per_seq, a.page_size);
  cute_cpp::detail::check_page_table(a.seqlens_k_host, a.block_table_host, a.batch, a.max_pages_per_seq, a.page_size,
                                     a.num_pages, room);
}

}  // namespace detail

template <class Plan>
host::LaunchConfig fmha_launch_config(unsigned ctas, cudaStream_t stream = nullptr) {
  host::LaunchConfig config;
  config.grid = dim3(ctas);
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  return config;
}

/// The shortest key sequence whose masked tiles are dealt in one-kv-head sections, every other
/// round reversed (AttentionTileOrder; README 7).
inline constexpr int fmha_dealt_keys = 2048;

/// Runs attention with Plan (its head dims must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched.
template <class Plan>
void run_fmha(FmhaArguments<typename Plan::Element> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  using host::argument_error;
  cute_cpp::detail::check_plan_head_dims(Plan::head_dim, Plan::head_dim_v, a.head_dim, a.head_dim_v);
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
  detail::check_offsets(a.cu_seqlens_q_host, a.batch, a.total_q, "cu_seqlens_q");
  detail::check_offsets(a.cu_seqlens_k_host, a.batch, a.total_k, "cu_seqlens_k");
  if (paged) detail::check_paged<Plan::block_n>(a);
  if (a.seq_q == 0 || a.seq_k == 0) {
    // Nothing to attend to: O of no keys is 0 (and LSE -inf), as the kernel writes for such rows.
    if (a.seq_q > 0) argument_error("attention.shape", "seq_k is 0: there are no keys (pass seq_k >= 1)");
    return;
  }
  // K/V's (seq, batch) extents: a batch of sequences, one packed sequence, or the cache's pages.
  std::int64_t const q_rows = varlen ? a.total_q : a.seq_q;
  std::int64_t const k_rows = paged ? a.page_size : varlen_k ? a.total_k : a.seq_k;
  int const q_batches = varlen ? 1 : a.batch, k_batches = paged ? a.num_pages : varlen_k ? 1 : a.batch;
  auto const qs = cute_cpp::detail::attention_strides(a.q_stride, "q", Plan::head_dim, a.heads_q, q_rows);
  auto const ks = cute_cpp::detail::attention_strides(a.k_stride, "k", Plan::head_dim, a.heads_kv, k_rows);
  auto const vs = cute_cpp::detail::attention_strides(a.v_stride, "v", Plan::head_dim_v, a.heads_kv, k_rows);
  auto const os = cute_cpp::detail::attention_strides(a.o_stride, "o", Plan::head_dim_v, a.heads_q, q_rows);
  using cute_cpp::detail::attention_map;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, Plan::head_dim, q_rows, a.heads_q, q_batches, qs);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, Plan::head_dim, k_rows, a.heads_kv, k_batches, ks);
  auto const map_v =
      attention_map<T, typename Plan::VTile>(a.v, Plan::head_dim_v, k_rows, a.heads_kv, k_batches, vs);
  auto const map_o =
      attention_map<T, typename Plan::OutputStore::Chunk>(a.o, Plan::head_dim_v, q_rows, a.heads_q, q_batches, os);
  cute_cpp::detail::check_output_pairs(os, a.o);
  FmhaParams p;
  p.batch = a.batch;
  p.seq_q = a.seq_q;
  p.seq_k = a.seq_k;
  p.heads_q = a.heads_q;
  p.group = a.heads_q / a.heads_kv;
  p.m_blocks = (a.seq_q + Plan::block_m - 1) / Plan::block_m;
  p.scale_log2 = cute_cpp::detail::softmax_scale_log2(a.softmax_scale, Plan::head_dim);
  p.window_left = a.window_left;
  p.window_right = a.causal ? (a.window_right < 0 ? 0 : std::min(a.window_right, 0)) : a.window_right;
  PersistentTileSchedulerParams tiles;
  std::int64_t const units = std::int64_t(p.m_blocks) * a.heads_q * a.batch;
  if (units >= (std::int64_t{1} << 31))
    argument_error("attention.shape", "too many tiles for the scheduler's 32-bit arithmetic");
  tiles.tiles_m = std::int32_t(units);
  int const resident = host::resident_clusters(&fmha_kernel<Plan>, fmha_launch_config<Plan>(1));
  if (resident < 1) throw std::runtime_error("cute-cpp [attention.occupancy]: the attention kernel cannot be resident");
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(tiles, resident);
  // AttentionTileOrder: one kv head's tiles after another. Masked problems take each section's
  // longest Q blocks first; from fmha_dealt_keys keys, in sections of one kv head, every other
  // round of the grid's CTAs dealt in reverse (so each CTA's work is within a tile of the mean);
  // below, in sections of kv heads whose K/V fit half the L2, dealt in order (measured faster
  // there; README 7).
  static std::int64_t const l2_bytes = host::l2_cache_bytes();
  std::int64_t const kv_bytes = std::int64_t(a.seq_k) * (Plan::head_dim + Plan::head_dim_v) * std::int64_t(sizeof(T));
  bool const dealt = p.masked() && a.seq_k >= fmha_dealt_keys;  // a budget of 0: one kv head a section
  p.order = AttentionTileOrder::make(p.m_blocks, a.heads_q, a.heads_kv, a.batch, p.masked(), kv_bytes,
                                     dealt ? 0 : l2_bytes / 2, dealt ? grid : 1);
  p.cu_seqlens_q = a.cu_seqlens_q;
  p.cu_seqlens_k = a.cu_seqlens_k;
  p.total_q = std::int32_t(q_rows);
  p.total_k = std::int32_t(k_rows);
  if (paged) {
    p.block_table = a.block_table;
    p.seqlens_k = a.seqlens_k;
    p.max_pages_per_seq = a.max_pages_per_seq;
    p.num_pages = a.num_pages;
    p.page_div = FastDivmod(std::uint32_t(a.page_size));
  }
  p.lse = a.lse;
  p.lse_head_stride = varlen ? a.total_q : a.seq_q;
  p.lse_batch_stride = varlen ? 0 : std::int64_t(a.heads_q) * a.seq_q;
  p.o = a.o;
  p.o_seq_stride = os.seq;
  p.o_head_stride = os.head;
  host::launch(&fmha_kernel<Plan>, "fmha_sm90", fmha_launch_config<Plan>(unsigned(grid), stream), map_q, map_k, map_v,
               map_o, p, tiles);
}

template <class T>
void run_attention(FmhaArguments<T> const& a, cudaStream_t stream) {
  if (a.block_table != nullptr) {
    if (a.head_dim == 64 && a.head_dim_v == 64) return run_fmha<fmha_plans::D64Paged<T>>(a, stream);
    if (a.head_dim == 128 && a.head_dim_v == 128) return run_fmha<fmha_plans::D128Short<T>>(a, stream);
    if (a.head_dim == 256 && a.head_dim_v == 256) return run_fmha<fmha_plans::D256<T>>(a, stream);
    host::argument_error("attention.head-dim", "no paged-cache plan for head dims (" + std::to_string(a.head_dim) +
                                                   ", " + std::to_string(a.head_dim_v) +
                                                   "): built are (64, 64), (128, 128) and (256, 256)");
  }
  if (a.head_dim == 64 && a.head_dim_v == 64) return run_fmha<fmha_plans::D64<T>>(a, stream);
  if (a.head_dim == 128 && a.head_dim_v == 128) {
    if (a.seq_k <= fmha_plans::d128_short_keys) return run_fmha<fmha_plans::D128Short<T>>(a, stream);
    return run_fmha<fmha_plans::D128<T>>(a, stream);
  }
  if (a.head_dim == 256 && a.head_dim_v == 256) return run_fmha<fmha_plans::D256<T>>(a, stream);
  if (a.head_dim == 192 && a.head_dim_v == 128) return run_fmha<fmha_plans::D192V128<T>>(a, stream);
  host::argument_error("attention.head-dim", "no plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                 std::to_string(a.head_dim_v) + "): built are (64, 64), (128, 128), "
                                                 "(256, 256) and (192, 128)");
}

}  // namespace cute_cpp::kernels
