// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_90a GEMM epilogue path for one warpgroup: accumulator registers -> epilogue functor ->
// output type -> shared memory (stmatrix for 16-bit outputs) -> TMA store. The warpgroup's
// 64-row slab is written in column chunks of one 128-byte swizzle width, through two shared
// buffers, so filling one chunk overlaps the store of the previous one.
// CuTeDSL: the epilogue of the Hopper dense GEMM (StMatrix8x8x16bOp + TMA store, PipelineTmaStore).
#include <cute_cpp/config.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_tma_store.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/bar.hpp>
#  include <ctm/common/cvt.hpp>
#  include <ctm/common/fence.hpp>
#  include <ctm/common/stmatrix.hpp>
#endif

namespace cute_cpp::sm90 {

/// The shared chunk one warpgroup stores at a time: 64 rows x one 128-byte swizzle width.
template <class TC>
using EpilogueChunk = SmemMNMajor<TC, 128 / int(sizeof(TC)), 64>;

/// Stores warpgroups' 64 x N accumulator slabs through shared memory and TMA (see file comment).
/// BarrierId is the first of the named barriers it uses (one per warpgroup).
template <class TC, int N, int BarrierId>
struct EpilogueTmaStore {
  static constexpr int chunk_cols = 128 / int(sizeof(TC));
  static constexpr int chunks = N / chunk_cols;
  static constexpr int chunk_elems = chunk_cols * 64;
  static_assert(sizeof(TC) == 2 || sizeof(TC) == 4,
                "cute-cpp [epilogue.output-type]: the TMA-store epilogue writes 16-bit or 32-bit outputs");
  static_assert(N % chunk_cols == 0,
                "cute-cpp [epilogue.tile-n]: the tile's N must be a multiple of one 128-byte chunk");
  using Chunk = EpilogueChunk<TC>;
  using Stores = PipelineTmaStore<2>;
  using Map = TensorMap<TC, Chunk>;

  /// Shared memory for one warpgroup: two chunk buffers.
  struct SharedStorage {
    alignas(1024) TC buffer[2][chunk_elems];
  };

#if defined(__CUDACC__)
  /// Applies `op` to the slab's accumulators (atom `atom` of `acc`), converts and stores it at
  /// global (row0, col0). `chunk_counter` runs across tiles so the two buffers keep alternating.
  /// All 128 threads of the warpgroup `wg` call it; thread 0 of the warpgroup issues the stores.
  template <class TiledMma, class Op>
  static __device__ __forceinline__ void store(typename TiledMma::FragmentC const& acc, int atom, Op const& op,
                                               Map const& map, SharedStorage& smem, int wg, int thread,
                                               std::int64_t row0, std::int64_t col0, std::int64_t m, std::int64_t n,
                                               std::uint32_t& chunk_counter) {
    static_assert(TiledMma::n == N);
    static_assert(cute_cpp::diag::named_barrier_plan<BarrierId, 128>::ok && cute_cpp::diag::named_barrier_plan<BarrierId + 1, 128>::ok);
    // NOTE: each warpgroup syncs on its own barrier (BarrierId + wg), so the two never wait on each other.
    std::uint32_t const barrier = std::uint32_t(BarrierId + wg);
    auto const slice = TiledMma::get_slice(thread);
    int const warp = thread / 32, lane = thread % 32;
#pragma unroll
    for (int c = 0; c < chunks; ++c, ++chunk_counter) {
      TC* const buffer = smem.buffer[chunk_counter & 1u];
      if (thread == 0) Stores::producer_acquire();
      ctm::bar_sync(barrier, 128);
      float v[chunk_cols / 2];  // this thread's chunk_cols / 8 n8-blocks, 4 values each
#pragma unroll
      for (int j = 0; j < chunk_cols / 2; ++j) {
        int const jj = c * (chunk_cols / 2) + j;
        std::int64_t const row = row0 + slice.row(0, jj);
        std::int64_t const col = col0 + slice.col(jj);
        float const x = acc.v[atom][jj];
        v[j] = (row < m && col < n) ? op(x, row, col) : x;
      }
      if constexpr (sizeof(TC) == 2) {
        // stmatrix x4 writes two n8-blocks (16 columns) of both 8-row halves of a warp's 16 rows.
        int const q = lane / 8;
        int const r = warp * 16 + (q & 1) * 8 + lane % 8;
#pragma unroll
        for (int b = 0; b < chunk_cols / 8; b += 2) {
          std::uint32_t const regs[4] = {pack(v[4 * b + 0], v[4 * b + 1]), pack(v[4 * b + 2], v[4 * b + 3]),
                                         pack(v[4 * b + 4], v[4 * b + 5]), pack(v[4 * b + 6], v[4 * b + 7])};
          int const unit = (b + (q >> 1)) ^ (r % 8);
          ctm::stmatrix_x4(reinterpret_cast<char*>(buffer) + r * 128 + unit * 16, regs[0], regs[1], regs[2], regs[3]);
        }
      } else {
#pragma unroll
        for (int b = 0; b < chunk_cols / 8; ++b) {
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            int const r = warp * 16 + lane / 4 + half * 8;
            int const col = b * 8 + (lane % 4) * 2;
            int const unit = (col / 4) ^ (r % 8);
            float2* const dst = reinterpret_cast<float2*>(reinterpret_cast<char*>(buffer) + r * 128 + unit * 16 +
                                                          (col % 4) * 4);
            *dst = make_float2(v[4 * b + 2 * half], v[4 * b + 2 * half + 1]);
          }
        }
      }
      ctm::fence_proxy_async_shared_cta();
      ctm::bar_sync(barrier, 128);
      if (thread == 0) {
        TmaCopy::store(map, buffer, std::int32_t(col0 + c * chunk_cols), std::int32_t(row0));
        Stores::producer_commit();
      }
    }
  }

  /// Before the CTA exits: the stores' shared reads must be done.
  static __device__ __forceinline__ void drain(int thread) {
    if (thread == 0) Stores::producer_tail();
  }

 private:
  static __device__ __forceinline__ std::uint32_t pack(float lo, float hi) {
    if constexpr (std::is_same_v<TC, __half>) return ctm::cvt_rn_f16x2_f32(hi, lo);
    else return ctm::cvt_rn_bf16x2_f32(hi, lo);
  }
#endif
};

}  // namespace cute_cpp::sm90
