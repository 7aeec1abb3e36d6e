// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention backward's main kernel (fmha_backward_sm90.cuh): the barriers' setup, then
// warpgroup 0's producer thread and the consumer warpgroups, each with its share of the registers.
// One CTA per (key block, kv head, sequence), the key block fastest: in deterministic mode a CTA
// waits only for CTAs of lower index (the key blocks before it), which are dispatched before it.
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cute_cpp/kernels/attention/backward/fmha_backward_tile.cuh>
#include <cute_cpp/kernels/attention/backward/fmha_backward_producer.cuh>
#include <cute_cpp/kernels/attention/backward/fmha_backward_consumer.cuh>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/copy/tma_copy.hpp>

namespace cute_cpp::kernels {

template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
fmha_backward_kernel(const __grid_constant__ typename Plan::MapQ map_q,
                     const __grid_constant__ typename Plan::MapK map_k,
                     const __grid_constant__ typename Plan::MapK map_v,
                     const __grid_constant__ typename Plan::MapQ map_do, FmhaBackwardParams const p) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  FmhaBackwardTile const t = fmha_backward_tile<Plan::block_n>(p);
  if (!t.valid) return;  // the whole CTA: the key block lies past its sequence
  if (threadIdx.x == 0) {
    Plan::PipelineKV::init(smem.kv_barriers);
    Plan::PipelineQ::init(smem.q_barriers);
    Plan::PipelineQ::init(smem.do_barriers);
    TmaCopy::prefetch_descriptor(map_q);
    TmaCopy::prefetch_descriptor(map_k);
    TmaCopy::prefetch_descriptor(map_v);
    TmaCopy::prefetch_descriptor(map_do);
  }
  __syncthreads();
  if (threadIdx.x / 128 == 0) {
    arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    if (threadIdx.x == 0) fmha_backward_producer<Plan>(smem, map_q, map_k, map_v, map_do, p, t);
    return;
  }
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  fmha_backward_consumer<Plan>(smem, p, t);
}

}  // namespace cute_cpp::kernels
