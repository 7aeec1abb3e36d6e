// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch thread and warp queries: thread_idx, block_idx, block_dim, grid_dim, warp_idx
// (warp-uniform), lane_idx, elect_one_sync, make_warp_uniform, shuffle_sync(_up/_down/_bfly),
// vote_ballot_sync / vote_any_sync / vote_all_sync, sync_threads, sync_warp.
#include <cstdint>
#include <cstdio>
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
/// Debug builds (no NDEBUG) check that the whole warp takes part, as elect.sync requires, and
/// trap with [arch.elect.full-warp] otherwise.
__device__ __forceinline__ bool elect_one_sync() {
#if !defined(NDEBUG)
  if (__activemask() != 0xffffffffu) {
    printf("cute-cpp [arch.elect.full-warp]: elect_one_sync needs all 32 lanes; active mask %08x (block %d, thread %d)\n",
           __activemask(), int(blockIdx.x), int(threadIdx.x));
    __trap();
  }
#endif
  return ctm::elect_sync(0xffffffffu);
}

/// A value every lane of the warp agrees on: lane 0's (shfl.sync.idx), so the compiler may keep
/// it in a uniform register.
__device__ __forceinline__ std::uint32_t make_warp_uniform(std::uint32_t v) { return ctm::shfl_sync_idx_b32(v, 0u); }

/// shfl.sync.idx: value from lane `offset` (CuTeDSL's shuffle_sync); also up/down/bfly.
__device__ __forceinline__ std::uint32_t shuffle_sync(std::uint32_t value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_idx_b32(value, offset, 0x1f, mask);
}
__device__ __forceinline__ float shuffle_sync(float value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_idx_b32(value, offset, 0x1f, mask);
}
__device__ __forceinline__ std::uint32_t shuffle_sync_up(std::uint32_t value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_up_b32(value, offset, 0, mask);
}
__device__ __forceinline__ float shuffle_sync_up(float value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_up_b32(value, offset, 0, mask);
}
__device__ __forceinline__ std::uint32_t shuffle_sync_down(std::uint32_t value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_down_b32(value, offset, 0x1f, mask);
}
__device__ __forceinline__ float shuffle_sync_down(float value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_down_b32(value, offset, 0x1f, mask);
}
__device__ __forceinline__ std::uint32_t shuffle_sync_bfly(std::uint32_t value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_bfly_b32(value, offset, 0x1f, mask);
}
__device__ __forceinline__ float shuffle_sync_bfly(float value, std::uint32_t offset, std::uint32_t mask = 0xffffffffu) {
  return ctm::shfl_sync_bfly_b32(value, offset, 0x1f, mask);
}

/// vote.sync.ballot: bit i set when lane i's predicate holds.
__device__ __forceinline__ std::uint32_t vote_ballot_sync(bool pred, std::uint32_t mask = 0xffffffffu) {
  return ctm::vote_sync_ballot_b32(pred, mask);
}
/// vote.sync.any / vote.sync.all.
__device__ __forceinline__ bool vote_any_sync(bool pred, std::uint32_t mask = 0xffffffffu) { return ctm::vote_sync_any_pred(pred, mask); }
__device__ __forceinline__ bool vote_all_sync(bool pred, std::uint32_t mask = 0xffffffffu) { return ctm::vote_sync_all_pred(pred, mask); }

/// bar.sync 0 (__syncthreads).
__device__ __forceinline__ void sync_threads() { ctm::bar_sync(0); }
/// bar.warp.sync over the full warp (__syncwarp).
__device__ __forceinline__ void sync_warp(std::uint32_t mask = 0xffffffffu) { ctm::bar_warp_sync(mask); }

}  // namespace cute_cpp::arch
#endif
