// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// GridBarrier: every CTA of a grid waits until all have arrived, for persistent kernels whose
// phases read what the whole grid wrote in the phase before (a decode step's layers in one
// launch). The grid must be resident at once (launched cooperatively, host::LaunchConfig's
// `cooperative`), else the CTAs that wait hold the SMs the others need.
// The count lives in global memory and only grows: arrival n of the count belongs to barrier
// generation n / grid, so a CTA's arrival ticket says which total to wait for, and no launch has
// to reset the count (a memset node would end a CUDA graph's programmatic chain). It must start
// at 0 and serve one grid size; 64 bits do not wrap in any run.
// CuTeDSL: none (cooperative_groups::this_grid().sync() in CUDA C++; CUTLASS's GenericBarrier
// is the same arrive-then-spin on a counter).
#include <cute_cpp/arch/memory.hpp>  // fetch_add_release_gpu, load_acquire_gpu, sleep_ns

#include <cstdint>

namespace cute_cpp {

/// A barrier across all CTAs of a resident grid, on a 64-bit count in global memory that starts
/// at 0 and is used by one grid size only.
struct GridBarrier {
  std::uint64_t* count = nullptr;

#if defined(__CUDACC__)
  /// Returns once every CTA of the grid has called it as often as this CTA; the writes any thread
  /// of the grid made before its call are visible to every thread after.
  __device__ __forceinline__ void sync() const {
    __syncthreads();  // the CTA's writes happen before thread 0's release
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      std::uint64_t const grid = std::uint64_t(gridDim.x) * gridDim.y * gridDim.z;
      std::uint64_t const ticket = arch::fetch_add_release_gpu(count, 1);
      std::uint64_t const target = (ticket / grid + 1) * grid;
      while (arch::load_acquire_gpu(count) < target) arch::sleep_ns(32);
    }
    __syncthreads();  // thread 0's acquire happens before the CTA's later reads
  }
#endif
};

}  // namespace cute_cpp
