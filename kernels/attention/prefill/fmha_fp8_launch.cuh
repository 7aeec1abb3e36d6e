// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 attention forward's host side (fmha_fp8_sm90.cuh): the FP8 arguments' own checks, the
// tensor maps and the launch (run_fmha_fp8), on the checks, parameters and tile order the 16-bit
// forward's host side shares (fmha_host.hpp).
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_host.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_kernel.cuh>
#include <cute_cpp/attention/tensors.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

#include <span>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

namespace detail {

/// The FP8 call's own rules: no paged cache, a known descale layout, descales in device memory.
inline FmhaFp8Descale fmha_fp8_descale(FmhaFp8Arguments const& a, cudaStream_t stream) {
  if (a.block_table != nullptr)
    host::argument_error("attention.fp8.paged", "the FP8 forward takes no paged cache (block_table must be null)");
  if (a.descale_layout != Fp8DescaleLayout::per_tensor && a.descale_layout != Fp8DescaleLayout::per_kv_head)
    host::argument_error("attention.fp8.descale", "descale_layout is per_tensor (0) or per_kv_head (1), got " +
                                                      std::to_string(int(a.descale_layout)));
  host::PointerArgument given[3];
  int count = 0;
  if (a.q_descale != nullptr) given[count++] = {"q_descale", a.q_descale};
  if (a.k_descale != nullptr) given[count++] = {"k_descale", a.k_descale};
  if (a.v_descale != nullptr) given[count++] = {"v_descale", a.v_descale};
  if (count > 0) host::check_device_pointers("attention.fp8.descale", std::span(given, std::size_t(count)), stream);
  return {a.q_descale, a.k_descale, a.v_descale, a.descale_layout, a.heads_kv};
}

}  // namespace detail

/// Runs the FP8 forward with Plan (its head dims must be the arguments'); bad arguments throw
/// std::invalid_argument naming the rule, before anything is launched.
template <class Plan>
void run_fmha_fp8(FmhaFp8Arguments const& a, cudaStream_t stream) {
  static_assert(verify_plan<Plan>());
  using T = typename Plan::Element;
  using O = typename Plan::OutputElement;
  FmhaFp8Descale const descale = detail::fmha_fp8_descale(a, stream);
  detail::FmhaOperands s;
  if (!detail::fmha_check_arguments(a, Plan::head_dim, Plan::head_dim_v, Plan::block_n, stream, s)) return;
  using cute_cpp::detail::attention_map;
  auto const map_q = attention_map<T, typename Plan::QChunk>(a.q, Plan::head_dim, s.q_rows, a.heads_q, s.q_batches, s.qs);
  auto const map_k = attention_map<T, typename Plan::KChunk>(a.k, Plan::head_dim, s.k_rows, a.heads_kv, s.k_batches, s.ks);
  auto const map_v = attention_map<T, typename Plan::KChunk>(a.v, Plan::head_dim_v, s.k_rows, a.heads_kv, s.k_batches, s.vs);
  auto const map_o = attention_map<O, typename Plan::OutputStore::Chunk>(a.o, Plan::head_dim_v, s.q_rows, a.heads_q,
                                                                         s.q_batches, s.os);
  FmhaParams p = detail::fmha_params(a, s, Plan::block_m, Plan::head_dim);
  PersistentTileSchedulerParams const tiles = detail::fmha_tiles(p);
  int const resident = host::resident_clusters(&fmha_fp8_kernel<Plan>, fmha_launch_config<Plan>(1));
  if (resident < 1)
    throw std::runtime_error("cute-cpp [attention.occupancy]: the FP8 attention kernel cannot be resident");
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(tiles, resident);
  detail::fmha_set_order(p, a, Plan::head_dim, Plan::head_dim_v, grid);
  host::launch(&fmha_fp8_kernel<Plan>, "fmha_fp8_sm90", fmha_launch_config<Plan>(unsigned(grid), stream), map_q, map_k,
               map_v, map_o, p, descale, tiles);
}

}  // namespace cute_cpp::kernels
