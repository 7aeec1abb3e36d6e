// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward's host side (fmha_sm90.cuh): the tensor maps and the launch (run_fmha), on
// the checks, parameters and tile order fmha_host.hpp shares with sm_100a, and the plan
// run_attention picks for the arguments' head dims.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_host.hpp>
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

/// Runs attention with Plan (its head dims must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched.
template <class Plan>
void run_fmha(FmhaArguments<typename Plan::Element> const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  detail::FmhaOperands s;
  if (!detail::fmha_check_arguments(a, Plan::head_dim, Plan::head_dim_v, Plan::block_n, stream, s)) return;
  using cute_cpp::detail::attention_map;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, Plan::head_dim, s.q_rows, a.heads_q, s.q_batches, s.qs);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, Plan::head_dim, s.k_rows, a.heads_kv, s.k_batches, s.ks);
  auto const map_v =
      attention_map<T, typename Plan::VTile>(a.v, Plan::head_dim_v, s.k_rows, a.heads_kv, s.k_batches, s.vs);
  auto const map_o = attention_map<T, typename Plan::OutputStore::Chunk>(a.o, Plan::head_dim_v, s.q_rows, a.heads_q,
                                                                         s.q_batches, s.os);
  FmhaParams p = detail::fmha_params(a, s, Plan::block_m, Plan::head_dim);
  PersistentTileSchedulerParams const tiles = detail::fmha_tiles(p);
  int const resident = host::resident_clusters(&fmha_kernel<Plan>, fmha_launch_config<Plan>(1));
  if (resident < 1) throw std::runtime_error("cute-cpp [attention.occupancy]: the attention kernel cannot be resident");
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(tiles, resident);
  detail::fmha_set_order(p, a, Plan::head_dim, Plan::head_dim_v, grid);
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
