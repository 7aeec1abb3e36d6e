// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The decode kernel (decode_sm90.cuh): a CTA's setup (shared storage, barriers, its work), then
// its roles: the producer warps, the consumer warpgroup(s) of the plan's cache (16-bit, e4m3 or
// MLA's seesaw) and, for splits combined in their cluster, the combine.
#include <cute_cpp/arch/cluster.hpp>                                  // cluster_sync
#include <cute_cpp/arch/griddepcontrol.hpp>                           // griddepcontrol_wait, _launch_dependents
#include <cute_cpp/arch/registers.hpp>                                // warpgroup_reg_alloc, _dealloc
#include <cute_cpp/copy/tma_copy.hpp>                                 // TmaCopy::prefetch_descriptor
#include <cute_cpp/kernels/attention/decode/decode.hpp>               // DecodeParams, verify_plan
#include <cute_cpp/kernels/attention/decode/decode_combine.cuh>       // decode_combine_in_cluster
#include <cute_cpp/kernels/attention/decode/decode_consumer.cuh>      // decode_consumer (16-bit cache)
#include <cute_cpp/kernels/attention/decode/decode_fp8_consumer.cuh>  // decode_fp8_consumer (e4m3 cache)
#include <cute_cpp/kernels/attention/decode/decode_mla_consumer.cuh>  // decode_mla_consumer (the seesaw)
#include <cute_cpp/kernels/attention/decode/decode_producer.cuh>      // PageWindow, decode_producer
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>          // decode_work, decode_split_keys

#include <cstdint>

namespace cute_cpp::kernels {

/// The decode kernel: one CTA per (sequence, kv head, query-row block, split).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, Plan::ctas_per_sm)
decode_kernel(const __grid_constant__ typename Plan::MapKV map_k, const __grid_constant__ typename Plan::MapKV map_v,
              DecodeParams const p) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  // The length loads while the barriers are set up; beside it, each producer warp's page-table
  // window for the split of a max_seq_k-long sequence (a batch's longest, where the time goes),
  // loaded again once the length shows it wrong. Both are used past the barrier only, so that
  // neither load is waited on before it.
  DecodeWork const guess = decode_work<Plan::block_n>(p, blockIdx.x);
  std::int32_t const seq_k = decode_seq_k(p, guess.batch);
  bool const producer = threadIdx.x >= Plan::producer_thread0 &&
                        threadIdx.x < Plan::producer_thread0 + 32 * Plan::producer_warps;
  PageWindow const pages = producer ? decode_page_window<Plan::block_n>(p, guess, threadIdx.x % 32)
                                    : PageWindow(nullptr, 0, 0, 0);
  // The combine kernel (splits beyond a cluster) may launch now: it waits for this grid's writes.
  arch::griddepcontrol_launch_dependents();
  if (threadIdx.x == 0) {
    Plan::PipelineK::init(smem.k_barriers);
    if constexpr (!Plan::v_in_k) Plan::PipelineV::init(smem.v_barriers);
  }
  if (threadIdx.x == Plan::producer_thread0) {
    TmaCopy::prefetch_descriptor(map_k);
    if constexpr (!Plan::v_in_k) TmaCopy::prefetch_descriptor(map_v);
  }
  __syncthreads();
  DecodeWork const w = decode_split_keys<Plan::block_n>(p, guess, seq_k);
  // Programmatic dependent launch (a no-op for a plain launch): the keys just appended and the
  // queries are the predecessors' writes, so each role waits for them before its loads (the
  // producers once their page-table reads are under way; lengths and tables come from the host).
  // Two producer warps, K's and V's: each issues half the boxes (with small pages, one warp's
  // issue rate is what limits the stream); V in K: one, K's.
  if (threadIdx.x >= Plan::producer_thread0) {
    if constexpr (Plan::producer_warpgroup) arch::warpgroup_reg_dealloc<Plan::producer_registers>();
    int const warp = int(threadIdx.x - Plan::producer_thread0) / 32;
    if (warp == 0) {
      decode_producer<Plan, typename Plan::PipelineK, Plan::head_dim / Plan::box_cols>(
          &smem.k_barriers, smem.k_stage(0), Plan::block_n * Plan::head_dim, map_k, p, w, pages);
    } else if constexpr (!Plan::v_in_k) {
      if (warp == 1)
        decode_producer<Plan, typename Plan::PipelineV, Plan::head_dim_v / Plan::box_cols>(
            &smem.v_barriers, smem.v_stage(0), Plan::block_n * Plan::head_dim_v, map_v, p, w, pages);
    }
    // Every thread of the cluster meets at its barrier (the producers' part is done).
    if (p.combine_in_cluster) arch::cluster_sync();
    return;
  }
  if constexpr (Plan::producer_warpgroup) arch::warpgroup_reg_alloc<Plan::consumer_registers>();
  arch::griddepcontrol_wait();
  if constexpr (Plan::kv_fp8) decode_fp8_consumer<Plan>(smem, p, w);
  else if constexpr (Plan::seesaw) decode_mla_consumer<Plan>(smem, p, w);
  else decode_consumer<Plan>(smem, p, w);
  if (p.combine_in_cluster) {
    arch::cluster_sync();  // release: this split's partials; acquire: the others'
    decode_combine_in_cluster<Plan>(p, w);
  }
}
}  // namespace cute_cpp::kernels
