// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell GEMM kernel (sm_100a), persistent and warp-specialised: gemm_sm100_kernel sets up
// shared memory, the barriers and tensor memory, then each warp takes its role over the tiles
// the cluster launch control walk gives its cluster (gemm_mainloop_sm100.cuh):
//   warps 0-3  the epilogue (gemm_sm100_epilogue): per tile, wait for the accumulator stage, read
//              it from tensor memory 16 columns at a time (warp w its lane quarter w), apply the
//              functor, convert and store C with 16-byte stores, bounds-checked at M and N
//   warp 4     the MMA warp (allocates tensor memory, with relinquish; frees it at the end)
//   warp 5     the TMA warp
//   warp 6     the scheduler warp
// With two accumulator stages the epilogue of tile i overlaps the MMAs of tile i + 1.
#include <cute_cpp/kernels/gemm/gemm_mainloop_sm100.cuh>  // the walk, producer, MMA warp
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>      // GemmSm100Plan

#include <cute_cpp/arch/cluster.hpp>         // cluster_arrive, cluster_wait, block_rank_in_cluster
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/arch/tmem.hpp>            // fence_view_async_tmem_load
#include <cute_cpp/copy/tma_copy.hpp>        // TmaCopy::prefetch_descriptor
#include <cute_cpp/epilogue/fusion.hpp>      // epilogue::prepared
#include <cute_cpp/smem/allocator.hpp>       // SmemAllocator
#include <ctm/common/cvt.hpp>                // cvt_rn_bf16x2_f32, cvt_rn_f16x2_f32

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace cute_cpp::kernels {

namespace detail {

/// One output value of type TC.
template <class TC>
__device__ __forceinline__ TC to_output(float v) {
  if constexpr (std::is_same_v<TC, __nv_bfloat16>) return __float2bfloat16_rn(v);
  else if constexpr (std::is_same_v<TC, __half>) return __float2half_rn(v);
  else return v;
}

/// Two outputs packed in a 32-bit word (lo first in memory); one for fp32.
template <class TC>
__device__ __forceinline__ std::uint32_t pack_outputs(float lo, float hi) {
  if constexpr (std::is_same_v<TC, __nv_bfloat16>) return ctm::cvt_rn_bf16x2_f32(hi, lo);
  else return ctm::cvt_rn_f16x2_f32(hi, lo);
}

/// Stores one copy's 16 accumulators of a thread (row `row`, columns col .. col + 15 of C) after
/// the functor, in 16-byte stores where the 16 bytes lie inside N, element by element at N's edge.
/// NOTE: each thread writes 32 (16-bit C) or 64 (fp32) contiguous bytes of its row: whole 32-byte
/// sectors, so the stores waste no bandwidth without a staging tile in shared memory.
template <class TC, class Op>
__device__ __forceinline__ void store_outputs(std::uint32_t const (&r)[16], Op const& op, TC* c, std::int64_t ldc,
                                              std::int64_t row, std::int64_t col, std::int64_t m, std::int64_t n) {
  constexpr int per_store = 16 / int(sizeof(TC));
  if (row >= m) return;
  TC* const out = c + row * ldc + col;
#pragma unroll
  for (int g = 0; g < 16 / per_store; ++g) {
    std::int64_t const c0 = col + g * per_store;
    if (c0 + per_store <= n) {
      std::uint32_t words[4];
#pragma unroll
      for (int w = 0; w < 4; ++w) {
        if constexpr (sizeof(TC) == 4) {
          words[w] = __float_as_uint(op(__uint_as_float(r[g * 4 + w]), row, c0 + w));
        } else {
          int const e = g * per_store + 2 * w;
          words[w] = pack_outputs<TC>(op(__uint_as_float(r[e]), row, c0 + 2 * w),
                                      op(__uint_as_float(r[e + 1]), row, c0 + 2 * w + 1));
        }
      }
      *reinterpret_cast<uint4*>(out + g * per_store) = make_uint4(words[0], words[1], words[2], words[3]);
    } else {
#pragma unroll
      for (int e = 0; e < per_store; ++e)
        if (c0 + e < n) out[g * per_store + e] = to_output<TC>(op(__uint_as_float(r[g * per_store + e]), row, c0 + e));
    }
  }
}

}  // namespace detail

/// The epilogue warps (0-3, both CTAs of a pair): per tile, wait for its accumulator stage, copy it
/// out of tensor memory (a thread: one row, 16 columns a copy), apply the functor, store C, then
/// release the stage to the MMA warp.
template <class Plan>
__device__ __forceinline__ void gemm_sm100_epilogue(typename Plan::SharedStorage& smem, GemmSm100Walk<Plan>& walk,
                                                    std::uint32_t tmem_base, std::uint32_t rank, int warp,
                                                    typename Plan::EpilogueOp const& parameters, typename Plan::TC* c,
                                                    std::int64_t ldc, std::int64_t m, std::int64_t n) {
  using Atom = typename Plan::TmemAtom;
  static_assert(Atom::registers == 16 && Atom::lanes == 32,
                "the epilogue reads a row's 16 consecutive columns a copy (32x32b.x16)");
  typename Plan::EpilogueOp const op = epilogue::prepared(parameters);
  typename Plan::AccPipeline const accumulators{&smem.acc_barriers, rank};
  auto state = make_pipeline_state<Plan::acc_stages>(PipelineUserType::Consumer);
  auto const slice = sm100::get_slice<typename Plan::Accumulator, Atom>(warp, int(walk.lane));
  while (walk.has_work()) {
    WorkTileInfo const t = walk.tile();
    accumulators.consumer_wait(state);
    std::uint32_t const tmem_acc = tmem_base + std::uint32_t(state.index() * Plan::acc_columns);
    std::int64_t const row = std::int64_t(t.m) * Plan::cta_m + slice.row(0, 0);
    std::int64_t const col0 = std::int64_t(t.n) * Plan::block_n;
    for (int i = 0; i < slice.copies; ++i) {
      std::uint32_t r[Atom::registers];
      // NOTE: tcgen05.ld is .sync.aligned: the warp reconverges after the last copy's ragged stores.
      __syncwarp();
      Atom::load(r, slice.tmem_addr(tmem_acc, i));
      arch::fence_view_async_tmem_load();
      detail::store_outputs(r, op, c, ldc, row, col0 + slice.col(i, 0), m, n);
    }
    accumulators.consumer_release(state, walk.lane);
    state.advance();
    walk.advance();
  }
}

/// The kernel: persistent, warp-specialised, one cluster (a CTA, or a pair) per tile at launch,
/// more by cluster launch control (see the file comment). m x n is C's extent.
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
gemm_sm100_kernel(const __grid_constant__ typename Plan::MapA tma_a, const __grid_constant__ typename Plan::MapB tma_b,
                  const __grid_constant__ typename Plan::ScaleMaps tma_sf, typename Plan::TC* const c,
                  std::int64_t const ldc, typename Plan::EpilogueOp const epilogue_op,
                  std::int64_t const m, std::int64_t const n, PersistentTileSchedulerParams const tiles) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  int const warp = int(threadIdx.x / 32);
  std::uint32_t const lane = threadIdx.x % 32;
  std::uint32_t const rank = Plan::cta_group > 1 ? arch::block_rank_in_cluster() : 0u;
  if (threadIdx.x == 0) {
    Plan::MainPipeline::init(smem.main_barriers);
    Plan::AccPipeline::init(smem.acc_barriers);
    Plan::ClcPipeline::init(smem.clc_barriers);
    TmaCopy::prefetch_descriptor(tma_a);
    TmaCopy::prefetch_descriptor(tma_b);
    if constexpr (Plan::block_scaled) {
      TmaCopy::prefetch_descriptor(tma_sf.sfa);
      TmaCopy::prefetch_descriptor(tma_sf.sfb);
    }
  }
  typename Plan::TmemAlloc const tmem{&smem.tmem_slot};
  if (warp == Plan::mma_warp) {
    tmem.allocate();
    tmem.relinquish_alloc_permit();
  }
  // Every barrier of the cluster is initialised (and tensor memory allocated) before any CTA
  // arrives remotely or reads the allocation.
  if constexpr (Plan::cta_group > 1) {
    arch::cluster_arrive();
    arch::cluster_wait();
  } else {
    __syncthreads();
  }
  std::uint32_t const tmem_base = tmem.retrieve_ptr();
  // Programmatic dependent launch (no-ops for a plain launch): the roles that touch global
  // memory the previous kernel may write wait for it.
  arch::griddepcontrol_launch_dependents();
  GemmSm100Walk<Plan> walk(smem, tiles, rank, lane);
  if (warp < Plan::epilogue_warps) {
    arch::griddepcontrol_wait();
    gemm_sm100_epilogue<Plan>(smem, walk, tmem_base, rank, warp, epilogue_op, c, ldc, m, n);
  } else if (warp == Plan::mma_warp) {
    gemm_sm100_mma<Plan>(smem, walk, tmem_base, rank);
  } else if (warp == Plan::tma_warp) {
    arch::griddepcontrol_wait();
    gemm_sm100_producer<Plan>(smem, tma_a, tma_b, tma_sf, walk, rank);
  } else {
    gemm_sm100_scheduler<Plan>(walk, rank);
  }
  // No CTA of a pair exits (or frees tensor memory) while the other may still arrive on its
  // barriers or its epilogue still reads the accumulators.
  arch::tcgen05_fence_before_thread_sync();
  if constexpr (Plan::cta_group > 1) {
    arch::cluster_arrive();
    arch::cluster_wait();
  } else {
    __syncthreads();
  }
  if (warp == Plan::mma_warp) tmem.free(tmem_base);
}

}  // namespace cute_cpp::kernels
