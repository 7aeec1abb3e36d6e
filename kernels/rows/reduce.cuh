// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row reductions: out[r] = sum_j x[r, j] or max_j x[r, j] for a (rows, width) row-major tensor
// of bf16, f16 or f32, accumulated and returned in f32, any width. Each thread folds its
// RegisterTiles (a tree within each tile), then the warp, group or block combines the threads.
#include <cute_cpp/kernels/common/align.hpp>  // aligned16

#include <cute_cpp/rows/tiles.hpp>              // RowTiles
#include <cute_cpp/diag/verify_plan.hpp>        // verify_plan
#include <cute_cpp/host/arguments.hpp>          // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/rows/plan.hpp>               // RowPlan, plan_rows, dispatch_rows
#include <cute_cpp/pipeline/named_barrier.hpp>  // NamedBarrierAllocation
#include <cute_cpp/rows.hpp>                    // row_place, row_reduce
#include <cute_cpp/tensor.hpp>                  // make_tensor, RegisterTile

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// Which reduction: the sum or the maximum of each row.
enum class RowReduction { sum, max };

template <class T, class Config, RowReduction R>
__global__ void __launch_bounds__(row_block_threads)
reduce_rows_kernel(T const* __restrict__ x, float* __restrict__ out, std::int64_t rows, int width) {
  static_assert(verify_plan<RowKernelPlan>());
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // the row groups'
  __shared__ RowShared shared;
  // NOTE: nothing is reused, so a block streams its row; a warp's or group's row is one round
  // (the plan gives them only rows of one round), taken without a loop, which measured faster
  // than the same round inside the streaming loop (README.md has the figures).
  RowPlace const at = row_place<Config>(width);
  if (Config::rows_per_block > 1 && at.row >= rows) return;
  auto const gX = make_tensor(x, make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{})));  // (rows,width)
  T const* const x_row = gX(at.row, _).data();
  float const identity = R == RowReduction::sum ? 0.f : -__builtin_huge_valf();
  float acc = identity;
  RowTiles<T, Config::vec, Config::slots> xs;
  for_each_round<Config>(at.walk, [&](unsigned base) {
    xs.load(x_row, at.walk, base);
    xs.each(at.walk, base, [&](int s, int) {
      auto const f = xs[s].template to<float>();
      if constexpr (R == RowReduction::sum) acc += f.reduce_sum();
      else acc = fmaxf(acc, f.reduce_max());
    });
  });
  float const total = R == RowReduction::sum ? row_reduce<Config, Barriers>(acc, SumOp{}, identity, shared, at, 0)
                                             : row_reduce<Config, Barriers>(acc, MaxOp{}, identity, shared, at, 0);
  if (at.walk.first == 0) out[at.row] = total;
}

/// out[r] = the sum or maximum of row r of a (rows, width) row-major tensor, in f32.
template <RowReduction R, class T>
void reduce_rows(T const* x, float* out, std::size_t rows, std::size_t width, cudaStream_t stream = nullptr) {
  if (rows == 0) return;
  if (width == 0) throw std::invalid_argument("cute-cpp [reduce.width]: rows must hold at least one element");
  if (width > std::size_t(INT32_MAX))
    host::argument_error("reduce.width", "rows of " + std::to_string(width) + " elements exceed 2^31 - 1");
  host::PointerArgument const pointers[] = {{"x", x}, {"out", out}};
  host::check_device_pointers("reduce", pointers, stream);
  host::check_stream("reduce", stream);
  host::ByteRange const inputs[] = {{"x", x, rows * width * sizeof(T)}};
  host::ByteRange const written{"out", out, rows * sizeof(float)};
  host::check_disjoint("reduce", written, inputs);
  // A warp or group takes its row in one round; a block streams its row (no cluster).
  host::RowPlan const plan = host::plan_rows<T>(width, aligned16(x), /*hold_block_rows=*/false);
  host::dispatch_rows<T>(plan, [&]<class Config>() {
    // The plan never splits a row over a cluster, so no split kernel is built.
    if constexpr (!Config::split) {
      host::launch(&reduce_rows_kernel<T, Config, R>, "reduce_rows_kernel", plan.launch_config(rows, stream), x, out,
                   std::int64_t(rows), int(width));
    }
  });
}

}  // namespace cute_cpp::kernels
