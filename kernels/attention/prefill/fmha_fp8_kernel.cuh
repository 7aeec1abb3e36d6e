// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FP8 attention forward's kernel (fmha_fp8_sm90.cuh): the barriers' setup, then warpgroup 0
// (warp 0 loads, warps 1-3 transpose V) and the consumer warpgroups, each with its share of the registers.
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_producer.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_fp8_consumer.cuh>
#include <cute_cpp/arch/registers.hpp>
#include <cute_cpp/copy/tma_copy.hpp>

namespace cute_cpp::kernels {

/// The kernel (see the file comment).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
fmha_fp8_kernel(const __grid_constant__ typename Plan::MapQ map_q, const __grid_constant__ typename Plan::MapK map_k,
                const __grid_constant__ typename Plan::MapV map_v, const __grid_constant__ typename Plan::MapO map_o,
                FmhaParams const p, FmhaFp8Descale const d, PersistentTileSchedulerParams const tiles) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  if (threadIdx.x == 0) {
    Plan::PipelineQ::init(smem.q_barriers);
    Plan::PipelineK::init(smem.k_barriers);
    Plan::PipelineVLoad::init(smem.v_load_barriers);
    Plan::PipelineV::init(smem.v_barriers);
    TmaCopy::prefetch_descriptor(map_q);
    TmaCopy::prefetch_descriptor(map_k);
    TmaCopy::prefetch_descriptor(map_v);
    TmaCopy::prefetch_descriptor(map_o);
  }
  __syncthreads();
  if (threadIdx.x / 128 == 0) {
    arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    int const warp = int(threadIdx.x) / 32;
    if (warp == 0) {
      if (threadIdx.x == 0) fmha_fp8_loader<Plan>(smem, map_q, map_k, map_v, p, tiles);
    } else {
      fmha_fp8_transposer<Plan>(smem, p, tiles, warp - 1);
    }
    return;
  }
  arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  fmha_fp8_consumer<Plan>(smem, map_o, p, d, tiles);
}

}  // namespace cute_cpp::kernels
