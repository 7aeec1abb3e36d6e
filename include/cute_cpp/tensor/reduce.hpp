// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Reductions across threads: warp_reduce (butterfly shuffles, every lane gets the result) and
// block_reduce (warps, then one warp over the warp results, through 32 floats of shared memory).
// CuTeDSL: cute.arch.warp_reduction_sum / warp_reduction_max and the block-reduce helpers of the
// CuTeDSL examples (rmsnorm, softmax). Reductions within a thread: RegisterTile::reduce_*.
#include <cute_cpp/arch/math.hpp>       // warp_reduction_sum_f32
#include <cute_cpp/config.hpp>          // CUTE_CPP_DEVICE
#include <cute_cpp/diag/tensor.hpp>     // block_reduce_threads
#include <cute_cpp/tensor/register_tile.hpp>  // detail::Plus
#include <ctm/common/shfl.hpp>          // shfl_sync_bfly_b32

#include <cstdint>

#if defined(__CUDACC__)
namespace cute_cpp {

/// The larger of two values (NaN in b wins, as fmaxf does not).
using MaxOp = detail::Max;
/// The sum of two values.
using SumOp = detail::Plus;

/// warp_reduce<Width>(x, op): op over the x of Width consecutive lanes (a power of two, 2..32);
/// every lane of the group gets the result.
template <int Width = 32, class Op>
__device__ __forceinline__ float warp_reduce(float x, Op op) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0,
                "cute-cpp [tensor.warp-reduce.width]: a warp reduction spans a power of two of lanes, at most 32");
#pragma unroll
  for (int m = Width / 2; m > 0; m /= 2) x = op(x, ctm::shfl_sync_bfly_b32(x, std::uint32_t(m)));
  return x;
}
/// warp_reduction_sum(x): the sum over the warp, in every lane (arch::warp_reduction_sum_f32).
__device__ __forceinline__ float warp_reduction_sum(float x) { return arch::warp_reduction_sum_f32(x); }
/// warp_reduction_max(x): the maximum over the warp, in every lane, by MaxOp (a > b ? a : b).
/// NOTE: a NaN lane may or may not win, depending on where it meets the others in the
/// butterfly; arch::warp_reduction_max_f32 (fmaxf, or redux.sync on sm_100a) ignores NaN lanes.
__device__ __forceinline__ float warp_reduction_max(float x) { return warp_reduce(x, MaxOp{}); }

/// block_reduce<Threads>(x, op, identity, scratch): op over the x of all Threads threads of the
/// block, returned to every thread. `scratch` is 32 floats of shared memory; the call has two
/// __syncthreads, so every thread of the block must make it, and scratch is reusable after it.
template <int Threads, class Op>
__device__ __forceinline__ float block_reduce(float x, Op op, float identity, float* scratch) {
  static_assert(diag::block_reduce_threads<Threads>::ok);
  constexpr int warps = Threads / 32;
  x = warp_reduce(x, op);
  if constexpr (warps == 1) {
    return x;
  } else {
    int const lane = int(threadIdx.x % 32);
    int const warp = int(threadIdx.x / 32);
    if (lane == 0) scratch[warp] = x;
    __syncthreads();
    // NOTE: the second stage spans the whole warp (lanes past the warp count hold the identity),
    // so every lane, not only the first `warps`, ends with the block's result.
    float y = lane < warps ? scratch[lane] : identity;
    y = warp_reduce<32>(y, op);
    __syncthreads();  // NOTE: scratch may be written again by the caller's next reduction.
    return y;
  }
}
/// block_reduction_sum<Threads>(x, scratch) / block_reduction_max: the sum / maximum over the block.
template <int Threads>
__device__ __forceinline__ float block_reduction_sum(float x, float* scratch) {
  return block_reduce<Threads>(x, SumOp{}, 0.0f, scratch);
}
template <int Threads>
__device__ __forceinline__ float block_reduction_max(float x, float* scratch) {
  return block_reduce<Threads>(x, MaxOp{}, -__int_as_float(0x7f800000), scratch);
}

}  // namespace cute_cpp
#endif
