// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's host side (fmha_sm100.cuh): the checks, parameters and tile
// order shared with sm_90a (fmha_host.hpp), the tensor maps, the launch (run_fmha_sm100), and the
// plan run_attention_sm100 picks for the arguments' head dims.
#include <cute_cpp/kernels/attention/prefill/fmha_host.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_kernel.cuh>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

namespace detail {

/// [attention.sm100.o-alignment]: each softmax thread stores its O row 16 bytes at a time, so O's
/// address and strides are whole 16-byte units.
inline void check_sm100_output(AttentionStrides const& o_strides, void const* o, std::size_t elem_bytes) {
  std::int64_t const unit = std::int64_t(16 / elem_bytes);
  if (o_strides.batch % unit != 0 || o_strides.seq % unit != 0 || o_strides.head % unit != 0 ||
      reinterpret_cast<std::uintptr_t>(o) % 16 != 0)
    host::argument_error("attention.sm100.o-alignment",
                         "o's address must be 16-byte aligned and its strides multiples of " + std::to_string(unit) +
                             " elements (rows are stored 16 bytes at a time)");
}

}  // namespace detail

template <class Plan>
void run_fmha_sm100(FmhaArguments<typename Plan::Element> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  if (a.block_table != nullptr)
    host::argument_error("attention.sm100.paged", "the sm_100a attention does not read a paged K/V cache yet");
  detail::FmhaOperands s;
  if (!detail::fmha_check_arguments(a, Plan::head_dim, Plan::head_dim_v, Plan::block_n, stream, s)) return;
  detail::check_sm100_output(s.os, a.o, sizeof(T));
  using cute_cpp::detail::attention_map;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, Plan::head_dim, s.q_rows, a.heads_q, s.q_batches, s.qs);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, Plan::head_dim, s.k_rows, a.heads_kv, s.k_batches, s.ks);
  auto const map_v =
      attention_map<T, typename Plan::VChunk>(a.v, Plan::head_dim_v, s.k_rows, a.heads_kv, s.k_batches, s.vs);
  FmhaParams p = detail::fmha_params(a, s, Plan::block_m, Plan::head_dim);
  PersistentTileSchedulerParams const tiles = detail::fmha_tiles(p);
  int const resident = host::resident_clusters(&fmha_sm100_kernel<Plan>, fmha_launch_config<Plan>(1));
  if (resident < 1) throw std::runtime_error("cute-cpp [attention.occupancy]: the attention kernel cannot be resident");
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(tiles, resident);
  detail::fmha_set_order(p, a, Plan::head_dim, Plan::head_dim_v, grid);
  std::int64_t const o_batch_stride = s.os.batch;
  host::launch(&fmha_sm100_kernel<Plan>, "fmha_sm100", fmha_launch_config<Plan>(unsigned(grid), stream), map_q, map_k,
               map_v, p, tiles, o_batch_stride);
}

template <class T>
void run_attention_sm100(FmhaArguments<T> const& a, cudaStream_t stream) {
  namespace plans = fmha_sm100_plans;
  switch (plans::choose(a.head_dim, a.head_dim_v)) {
    case plans::Choice::d64: return run_fmha_sm100<plans::D64<T>>(a, stream);
    case plans::Choice::d128: return run_fmha_sm100<plans::D128<T>>(a, stream);
    case plans::Choice::d192v128: return run_fmha_sm100<plans::D192V128<T>>(a, stream);
    case plans::Choice::d256: return run_fmha_sm100<plans::D256<T>>(a, stream);
    case plans::Choice::none: break;
  }
  host::argument_error("attention.head-dim", "no sm_100a plan for head dims (" + std::to_string(a.head_dim) + ", " +
                                                 std::to_string(a.head_dim_v) + "): built are (64, 64), (128, 128), "
                                                 "(256, 256) and (192, 128)");
}

}  // namespace cute_cpp::kernels
