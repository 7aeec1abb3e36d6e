// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row reductions: out[r] = sum_j x[r, j] or max_j x[r, j] for a (rows, width) row-major tensor
// of bf16, f16 or f32, accumulated and returned in f32, any width. Each thread folds its
// RegisterTiles (a tree within each tile), then the warp or the block combines the threads.
#include "examples/common/rows.cuh"

#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/tensor.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::examples {

/// Which reduction: the sum or the maximum of each row.
enum class RowReduction { sum, max };

template <class T, class Config, RowReduction R>
__global__ void __launch_bounds__(row_block_threads)
reduce_rows_kernel(T const* __restrict__ x, float* __restrict__ out, std::int64_t rows, int width) {
  static_assert(verify_plan<RowKernelPlan>());
  __shared__ SmemArray<float, 32> scratch;
  std::int64_t const row = std::int64_t(blockIdx.x) * Config::rows_per_block + threadIdx.x / Config::threads_per_row;
  int const lane = int(threadIdx.x % Config::threads_per_row);
  if (Config::threads_per_row == 32 && row >= rows) return;
  auto const gX = make_tensor(x, make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{})));  // (rows,width)
  float const identity = R == RowReduction::sum ? 0.f : -__int_as_float(0x7f800000);
  float acc = identity;
  // NOTE: nothing is reused, so the row is streamed (Cached only picks the thread count).
  using Stream = RowConfig<Config::vec, Config::threads_per_row, false>;
  RowReader<T, Stream>(gX(row, _).data(), width, lane).load_each([&](auto&& t, int) {
    auto const f = t.template to<float>();
    if constexpr (R == RowReduction::sum) acc += f.reduce_sum();
    else acc = fmaxf(acc, f.reduce_max());
  });
  float const total = R == RowReduction::sum ? row_reduce<Config::threads_per_row>(acc, SumOp{}, identity, scratch.data)
                                             : row_reduce<Config::threads_per_row>(acc, MaxOp{}, identity, scratch.data);
  if (lane == 0) out[row] = total;
}

/// out[r] = the sum or maximum of row r of a (rows, width) row-major tensor, in f32.
template <RowReduction R, class T>
void reduce_rows(T const* x, float* out, std::size_t rows, std::size_t width, cudaStream_t stream = nullptr) {
  if (rows == 0) return;
  if (width == 0) throw std::invalid_argument("cute-cpp [reduce.width]: rows must hold at least one element");
  if (width > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.width]: rows are at most 2^31 - 1 elements");
  RowPlan plan = plan_rows<T>(width, aligned16(x));
  plan.cached = plan.threads_per_row == 32;  // two configurations per vector width: warp or block per row
  dispatch_rows<int(16 / sizeof(T))>(plan, [&]<class Config>() {
    if constexpr (Config::threads_per_row == 32 || !Config::cached) {
      host::LaunchConfig config;
      config.grid = dim3(plan.blocks(rows));
      config.block = dim3(row_block_threads);
      config.stream = stream;
      host::launch(&reduce_rows_kernel<T, Config, R>, "reduce_rows_kernel", config, x, out, std::int64_t(rows), int(width));
    }
  });
}

}  // namespace cute_cpp::examples
