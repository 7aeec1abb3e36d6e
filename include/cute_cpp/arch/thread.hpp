// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch thread and warp queries: thread_idx, block_idx, block_dim, grid_dim, warp_idx
// (warp-uniform), lane_idx, elect_one_sync, sync_threads, sync_warp.
#include <cstdint>
#include <cute_cpp/config.hpp>    // CUTE_CPP_DEVICE
#include <ctm/common/bar.hpp>     // bar_sync, bar_warp_sync
#include <ctm/common/elect.hpp>   // elect_sync
#include <ctm/common/shfl.hpp>    // shfl_sync_idx_b32
#include <ctm/common/sreg.hpp>    // laneid

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// threadIdx: this thread's (x, y, z) in its block.
__device__ __forceinline__ uint3 thread_idx() { return threadIdx; }
/// blockIdx: this block's (x, y, z) in the grid.
__device__ __forceinline__ uint3 block_idx() { return blockIdx; }
/// blockDim: the block's extent in threads.
__device__ __forceinline__ dim3 block_dim() { return blockDim; }
/// gridDim: the grid's extent in blocks.
__device__ __forceinline__ dim3 grid_dim() { return gridDim; }

/// The warp's index in its block, from the linear thread index, made warp-uniform with a
/// shuffle from lane 0 (so the compiler may keep it in a uniform register).
///   384-thread block: threads 0-31 -> 0, ..., 352-383 -> 11
__device__ __forceinline__ std::uint32_t warp_idx() {
  std::uint32_t const linear = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return ctm::shfl_sync_idx_b32(linear / 32u, 0u);
}
/// %laneid: 0..31.
__device__ __forceinline__ std::uint32_t lane_idx() { return ctm::laneid(); }

/// elect.sync over the full warp: true in exactly one lane (CuTeDSL's elect_one).
__device__ __forceinline__ bool elect_one_sync() { return ctm::elect_sync(0xffffffffu); }

/// bar.sync 0 (__syncthreads).
__device__ __forceinline__ void sync_threads() { ctm::bar_sync(0); }
/// bar.warp.sync over the full warp (__syncwarp).
__device__ __forceinline__ void sync_warp(std::uint32_t mask = 0xffffffffu) { ctm::bar_warp_sync(mask); }

}  // namespace cute_cpp::arch
#endif
