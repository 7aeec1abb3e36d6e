// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's kernel (fmha_sm100.cuh): the barriers and tensor memory set
// up, then the warp roles (FmhaSm100Plan): the load warp, the MMA warp, the softmax warpgroup;
// tensor memory freed by the MMA warp once every role is done.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_epilogue.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_load.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_mma.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_softmax.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/arch/tmem.hpp>
#include <cute_cpp/copy/tma_copy.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>
#include <cute_cpp/smem/allocator.hpp>

#include <cstdint>

namespace cute_cpp::kernels {

/// A softmax thread (one row of each tile): per tile with keys to see, its row's key blocks (last
/// first, as the MMA warp issues them), then the epilogue; rows of a tile with no key get 0.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_softmax_warpgroup(typename Plan::SharedStorage& smem, std::uint32_t tmem,
                                                             FmhaParams const& p,
                                                             PersistentTileSchedulerParams const& tiles,
                                                             std::int64_t o_batch_stride) {
  using T = typename Plan::Element;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  int const row = 32 * (warp % 4) + lane;  // the tensor-memory lane this thread reaches
  FmhaSm100SoftmaxRings<Plan> r{{&smem.s_barriers}, {&smem.p_barriers}, {&smem.o_barriers}};
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    FmhaTile const t = fmha_tile<Plan::block_m, Plan::block_n>(p, scheduler.linear_idx());
    if (!t.valid) continue;
    std::int32_t const query = t.m_block * Plan::block_m + row;
    FmhaSm100RowOutput<T> const out = fmha_sm100_row_output<T>(p, t, query, o_batch_stride);
    if (t.n_begin >= t.n_end) {
      fmha_sm100_empty_row<Plan>(out);
      continue;
    }
    int2 const keys = t.visible_keys(p, query);
    FmhaSm100RowState st;
    for (std::int32_t n = t.n_end - 1; n >= t.n_begin; --n)
      fmha_sm100_softmax_block<Plan>(smem, r, st, tmem, warp, lane, row, keys, n, n == t.n_end - 1, p.scale_log2);
    fmha_sm100_epilogue<Plan>(r, st, tmem, warp, lane, p.scale_log2, out);
  }
}

/// The kernel (see the file comment).
template <class Plan>
__global__ void __launch_bounds__(Plan::threads, 1)
fmha_sm100_kernel(const __grid_constant__ typename Plan::MapQ map_q, const __grid_constant__ typename Plan::MapK map_k,
                  const __grid_constant__ typename Plan::MapV map_v, FmhaParams const p,
                  PersistentTileSchedulerParams const tiles, std::int64_t const o_batch_stride) {
  static_assert(verify_plan<Plan>());
  extern __shared__ char smem_raw[];
  SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<typename Plan::SharedStorage>();
  int const warp = int(threadIdx.x) / 32;
  typename Plan::Tmem const tmem_alloc{&smem.tmem_slot};
  if (threadIdx.x == 0) {
    Plan::PipelineQ::init(smem.q_barriers);
    Plan::PipelineK::init(smem.k_barriers);
    Plan::PipelineV::init(smem.v_barriers);
    Plan::PipelineS::init(smem.s_barriers);
    Plan::PipelineO::init(smem.o_barriers);
    Plan::PipelineP::init(smem.p_barriers);
    TmaCopy::prefetch_descriptor(map_q);
    TmaCopy::prefetch_descriptor(map_k);
    TmaCopy::prefetch_descriptor(map_v);
  }
  if (warp == Plan::mma_warp) {
    tmem_alloc.allocate();
    tmem_alloc.relinquish_alloc_permit();
  }
  __syncthreads();
  std::uint32_t const tmem = tmem_alloc.retrieve_ptr();
  if (warp == Plan::load_warp) {
    if (threadIdx.x % 32 == 0) fmha_sm100_load<Plan>(smem, map_q, map_k, map_v, p, tiles);
  } else if (warp == Plan::mma_warp) {
    if (threadIdx.x % 32 == 0) fmha_sm100_mma<Plan>(smem, tmem, p, tiles);
  } else if (warp >= Plan::softmax_warp) {
    fmha_sm100_softmax_warpgroup<Plan>(smem, tmem, p, tiles, o_batch_stride);
  }
  // Every tensor-memory access is done (the softmax's last loads waited on, the MMAs complete
  // before the O commit the epilogue waited on) before the allocating warp frees it.
  arch::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (warp == Plan::mma_warp) tmem_alloc.free(tmem);
}

}  // namespace cute_cpp::kernels
