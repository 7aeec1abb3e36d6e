// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The attention forward's kernel (fmha_sm90.cuh): the barriers' setup, then warpgroup 0's producer
// thread and the consumer warpgroups, each with its share of the registers.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_producer.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_consumer.cuh>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/copy/tma_copy.hpp>

namespace cute_cpp::kernels {

/// The kernel (see the file comment).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
fmha_kernel(const __grid_constant__ typename Plan::MapQ map_q, const __grid_constant__ typename Plan::MapK map_k,
            const __grid_constant__ typename Plan::MapV map_v, const __grid_constant__ typename Plan::MapO map_o,
            FmhaParams const p, PersistentTileSchedulerParams const tiles) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  if (threadIdx.x == 0) {
    Plan::PipelineQ::init(smem.q_barriers);
    Plan::PipelineK::init(smem.k_barriers);
    Plan::PipelineV::init(smem.v_barriers);
    TmaCopy::prefetch_descriptor(map_q);
    TmaCopy::prefetch_descriptor(map_k);
    TmaCopy::prefetch_descriptor(map_v);
    TmaCopy::prefetch_descriptor(map_o);
  }
  __syncthreads();
  if (threadIdx.x / 128 == 0) {
    arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    if (threadIdx.x == 0) fmha_producer<Plan>(smem, map_q, map_k, map_v, p, tiles);
    return;
  }
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  fmha_consumer<Plan>(smem, map_o, p, tiles);
}

}  // namespace cute_cpp::kernels
