// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Staged rows: a block's segment of a row split over a cluster, brought into shared memory by
// 1D bulk copies (TMA without a tensor map) row_stages rows deep, for kernels whose clusters
// loop over rows (a persistent grid, host::persistent_rows): the next row streams in while
// this row is reduced over the cluster, the latency in which a block holding its row in
// registers has no load in flight. CuTeDSL: cpasync.CopyBulkG2SOp with an mbarrier pipeline.
#include <cute_cpp/arch/copy.hpp>      // cp_async_bulk_global_to_shared
#include <cute_cpp/arch/mbarrier.hpp>  // mbarrier_arrive_and_expect_tx, mbarrier_wait
#include <cute_cpp/diag/rows.hpp>      // row_staged_vector
#include <cute_cpp/rows/config.hpp>    // RowConfig, row_stages
#include <cute_cpp/rows/reduce.hpp>    // RowShared
#include <cute_cpp/rows/walk.hpp>      // RowPlace

#include <cstdint>

#if defined(__CUDACC__)
namespace cute_cpp {

/// The rows of a staged launch that the calling thread's cluster takes: the n-th (n = 0, 1, ...)
/// is first + n * step, step being the launch's number of clusters; every block of a cluster
/// walks the same rows.
struct RowLoop {
  std::int64_t first;
  std::int64_t step;
  [[nodiscard]] __device__ __forceinline__ std::int64_t row(unsigned n) const { return first + std::int64_t(n) * step; }
};
[[nodiscard]] __device__ __forceinline__ RowLoop row_loop(RowPlace const& at) {
  return {at.row, std::int64_t(gridDim.x / at.blocks)};
}

/// This block's segment of up to row_stages rows in shared memory, for `inputs` tensors of the
/// same shape (x, and a residual, say): row n of the block's loop lands in stage n % row_stages,
/// input i at buffer(n, i), signalled on RowShared::full. `smem` is the kernel's dynamic shared
/// memory, row_stages * inputs * Config::segment elements (host::RowPlan::launch_config sizes it).
///   RowStage<T, Config> stage(smem, shared, at, 1);
///   if (threadIdx.x == 0) stage.fill(0, {x_row0});      // ... then per row n:
///   stage.wait(n); ... Tile::load_vector<V>(stage.buffer(n, 0) + (e - stage.first)) for element e ...
/// NOTE: a stage is refilled (fill(n + row_stages)) only after every thread of the block has read
/// it (a __syncthreads; with generic writes into it, each writer's fence_view_async_shared
/// first). One bulk copy per segment: 4 copies of a quarter measured no better.
template <class T, class Config>
struct RowStage {
  static_assert(diag::row_staged_split<Config::staged, Config::cached, Config::threads_per_row, row_block_threads>::ok);
  static_assert(diag::row_staged_vector<Config::vec, int(sizeof(T))>::ok);
  static_assert(Config::staged, "cute-cpp [rows.staged]: RowStage needs a staged RowConfig");
  static constexpr int max_inputs = 2;

  T* smem;
  std::uint64_t* full;
  unsigned inputs;
  unsigned first;  ///< the row's element at the start of this block's segment
  unsigned bytes;  ///< bytes of this block's segment that lie inside the row (0 past its end)

  __device__ __forceinline__ RowStage(T* dynamic_smem, RowShared& shared, RowPlace const& at, unsigned n_inputs)
      : smem(dynamic_smem), full(shared.full.data), inputs(n_inputs) {
    first = at.walk.first - (threadIdx.x % unsigned(Config::threads_per_row)) * unsigned(Config::vec);
    unsigned const count = first < at.walk.width ? min(unsigned(Config::segment), at.walk.width - first) : 0u;
    bytes = count * unsigned(sizeof(T));  // a multiple of 16: the width is a multiple of the vector
  }

  /// Input i of the n-th row of the loop, in shared memory.
  [[nodiscard]] __device__ __forceinline__ T* buffer(unsigned n, unsigned i) const {
    return smem + ((n % row_stages) * inputs + i) * unsigned(Config::segment);
  }
  /// One thread: starts the copies of this block's segment of the n-th row of the loop, of each
  /// input (rows[i] points at the row's element 0), into stage n % row_stages.
  __device__ __forceinline__ void fill(unsigned n, T const* const (&rows)[max_inputs]) const {
    std::uint64_t* const bar = &full[n % row_stages];
    arch::mbarrier_arrive_and_expect_tx(bar, inputs * bytes);
    if (bytes != 0) {
      // NOTE: unrolled over max_inputs so rows[i] has a constant index: a loop to the run-time
      // count put the array in local memory (a 16-byte stack frame).
#pragma unroll
      for (unsigned i = 0; i < unsigned(max_inputs); ++i) {
        if (i < inputs) arch::cp_async_bulk_global_to_shared(buffer(n, i), rows[i] + first, bytes, bar);
      }
    }
  }
  /// Waits until the n-th row of the loop has landed.
  __device__ __forceinline__ void wait(unsigned n) const {
    arch::mbarrier_wait(&full[n % row_stages], (n / row_stages) & 1u);
  }
};

}  // namespace cute_cpp
#endif
