// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Reductions over the threads of one row of a row kernel: a warp (shuffles), a group of 64 or 128
// threads (the kernel's named barriers, one per group), a block (block_reduce), or the blocks of
// a cluster (each block's partial pushed to every peer with st.async into distributed shared
// memory). RowShared is the shared memory they use; RowKernelPlan is its plan for verify_plan.
// CuTeDSL: the block / cluster reductions of its rmsnorm and softmax examples.
#include <cute_cpp/arch/cluster.hpp>            // cluster_wait, cluster_arrive_relaxed, store_shared_remote
#include <cute_cpp/arch/mbarrier.hpp>           // mbarrier_init, mbarrier_arrive_and_expect_tx, mbarrier_wait
#include <cute_cpp/pipeline/named_barrier.hpp>  // BarrierRequest, NamedBarriers
#include <cute_cpp/smem/allocator.hpp>          // SmemArray
#include <cute_cpp/tensor/reduce.hpp>           // warp_reduce, block_reduce, SumOp, MaxOp
#include <cute_cpp/rows/config.hpp>             // RowConfig, row_block_threads, row_max_cluster
#include <cute_cpp/rows/walk.hpp>               // RowPlace

#include <cstddef>
#include <cstdint>

namespace cute_cpp {

/// The row kernels' shared memory: the block reduction's scratch; for rows split over a cluster,
/// two exchange slots (used in turn) of an mbarrier and the partial result of every block of the
/// cluster, pushed here by each block; for staged rows, the barrier of each stage's bulk copies.
struct RowShared {
  SmemArray<float, 32> warp;
  SmemArray<std::uint64_t, 2> bar;
  SmemArray<float, 2 * row_max_cluster> parts;
  SmemArray<std::uint64_t, row_stages> full;
};

/// The static plan of a row kernel, for verify_plan: 256 threads, RowShared, clusters of up to 8.
struct RowKernelPlan {
  static constexpr int threads = row_block_threads;
  static constexpr std::size_t smem_bytes = sizeof(RowShared);
  static constexpr int cluster_size = row_max_cluster;
};

/// What a row kernel's reductions ask of the kernel's NamedBarrierAllocation: one barrier per
/// row group for groups of 64 or 128 threads, none otherwise.
///   using Barriers = NamedBarrierAllocation<RowBarrierRequest<Config>>;
///   row_reduce<Config, typename Barriers::template user<0>>(...);
template <class Config>
using RowBarrierRequest = BarrierRequest<Config::group_barriers, Config::threads_per_row>;

#if defined(__CUDACC__)

/// Before a row split over a cluster loads anything: thread 0 sets up this block's exchange
/// barriers (and a staged row's copy barriers, which the block's threads may use after the
/// __syncthreads here), and every thread arrives on the cluster barrier that the first exchange
/// waits on (no block may push into a peer before the peer's barriers exist).
template <class Config>
__device__ __forceinline__ void row_start(RowShared& shared, RowPlace const& at) {
  if constexpr (Config::staged) {
    if (threadIdx.x == 0) {
      for (int s = 0; s < row_stages; ++s) arch::mbarrier_init(&shared.full[s], 1);
      if (at.blocks > 1) {
        arch::mbarrier_init(&shared.bar[0], 1);
        arch::mbarrier_init(&shared.bar[1], 1);
      }
      arch::mbarrier_init_fence();
    }
    __syncthreads();
    if (at.blocks > 1) arch::cluster_arrive_relaxed();
  } else if constexpr (Config::split) {
    if (at.blocks > 1) {
      if (threadIdx.x == 0) {
        arch::mbarrier_init(&shared.bar[0], 1);
        arch::mbarrier_init(&shared.bar[1], 1);
        arch::mbarrier_init_fence();
      }
      arch::cluster_arrive_relaxed();
    }
  }
}

/// op over the x of the blocks of this cluster (each already reduced over its block), through
/// distributed shared memory; every thread of every block gets the same bits (each block folds
/// the same partials in rank order). Block b's thread r pushes x into block r's parts with
/// st.async, which signals block r's barrier for the exchange; each block waits for the
/// `blocks` partials on its own barrier. `exchange` (0, 1, 2, ...) numbers the kernel's
/// exchanges: they use the two slots in turn, slot exchange % 2 in phase exchange / 2 % 2.
/// NOTE: two slots suffice: a block pushes exchange n + 2 only after its exchange n + 1, which
/// needs every peer's push n + 1, which a peer makes only after reading exchange n (the block
/// reduction's __syncthreads lies between), so slot n % 2 is free and its phase n complete.
/// NOTE: the pushes need no fence: a release of a shared-memory slot to the cluster
/// (cluster_sync, or fence.acq_rel.cluster) compiles to MEMBAR.ALL.GPU, st.async does not. And
/// since every block waits for all pushes into it before going on, none exits while a peer may
/// still write to it. Plain DSMEM stores and a cluster barrier instead, or every warp pushing its
/// own partial (no block reduction first), measured slower (kernels/rows/rmsnorm.md).
template <class Op>
__device__ __forceinline__ float cluster_reduce(float x, Op op, RowShared& shared, unsigned blocks, int exchange) {
  if (exchange == 0) arch::cluster_wait();  // every block's barriers are initialised (row_start)
  unsigned const slot = unsigned(exchange) & 1u;
  std::uint64_t* const bar = &shared.bar[slot];
  float* const parts = &shared.parts[slot * row_max_cluster];
  if (threadIdx.x == 0) arch::mbarrier_arrive_and_expect_tx(bar, blocks * std::uint32_t(sizeof(float)));
  if (threadIdx.x < blocks) arch::store_shared_remote(x, &parts[arch::block_rank_in_cluster()], bar, threadIdx.x);
  arch::mbarrier_wait(bar, (unsigned(exchange) >> 1) & 1u);
  float y = parts[0];
  for (unsigned b = 1; b < blocks; ++b) y = op(y, parts[b]);
  return y;
}

/// op over the x of the Barriers::threads (64 or 128) threads of this thread's row group; every
/// thread of the group gets the same bits. Group g's warps meet at barrier g of the run, so a
/// group past the last row may leave early; `scratch` holds a float per warp of the block.
template <class Barriers, class Op>
__device__ __forceinline__ float group_reduce(float x, Op op, float* scratch) {
  constexpr unsigned threads = Barriers::threads, warps = threads / 32;
  x = warp_reduce(x, op);
  unsigned const warp = threadIdx.x / 32;
  int const group = int(threadIdx.x / threads);
  if (threadIdx.x % 32 == 0) scratch[warp] = x;
  Barriers::sync(group);
  float const* const mine = scratch + warp / warps * warps;
  float y = mine[0];
#pragma unroll
  for (unsigned w = 1; w < warps; ++w) y = op(y, mine[w]);
  Barriers::sync(group);  // scratch may be written again by the next reduction
  return y;
}

/// The sum / max of x over the threads of one row: a warp, a group of 64 or 128 threads, a
/// block, or the blocks of a cluster; every thread of the row gets the same bits. Barriers is
/// the kernel's run of named barriers for RowBarrierRequest<Config> (used by groups only).
/// `exchange` (0, 1, 2, ...) numbers a kernel's reductions of rows split over a cluster.
///   row_reduce<Config, Barriers>(sum_sq, SumOp{}, 0.f, shared, at, 0)
template <class Config, class Barriers, class Op>
__device__ __forceinline__ float row_reduce(float x, Op op, float identity, RowShared& shared, RowPlace const& at,
                                            int exchange) {
  if constexpr (Config::threads_per_row == 32) {
    return warp_reduce(x, op);
  } else if constexpr (Config::threads_per_row < row_block_threads) {
    static_assert(diag::row_group_barriers<Config::group_barriers, Config::threads_per_row, Barriers::count,
                                           Barriers::threads>::ok);
    return group_reduce<Barriers>(x, op, shared.warp.data);
  } else {
    x = block_reduce<Config::threads_per_row>(x, op, identity, shared.warp.data);
    if constexpr (Config::split) {
      if (at.blocks > 1) x = cluster_reduce(x, op, shared, at.blocks, exchange);
    }
    return x;
  }
}

#endif  // __CUDACC__

}  // namespace cute_cpp
