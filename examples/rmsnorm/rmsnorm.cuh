// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// RMSNorm: y = x / sqrt(mean(x^2) + eps) * w over each row of a (rows, width) row-major tensor,
// in bf16, f16 or f32 (f32 arithmetic), with an optional fused residual add: x' = x + residual
// is rounded to T, written to residual_out, and normalised. Any width (16-byte vectors when the
// width and pointers allow, scalars otherwise), any number of rows.
// Steps: (1) a warp (narrow rows) or the block (wide rows) reads its row as RegisterTiles,
// adding the residual and summing squares; (2) a warp/block reduction gives the row's sum;
// (3) the row, still in registers (or read again for rows wider than the registers hold), is
// scaled by rstd * w and stored.
#include "examples/common/rows.cuh"

#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/tensor.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::examples {

template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads)
rmsnorm_kernel(T const* __restrict__ x, T const* __restrict__ residual, T const* __restrict__ w, T* __restrict__ y,
               T* __restrict__ residual_out, std::int64_t rows, int width, float eps) {
  static_assert(verify_plan<RowKernelPlan>());
  using Tile = RegisterTile<T, Config::vec>;
  __shared__ SmemArray<float, 32> scratch;
  std::int64_t const row = std::int64_t(blockIdx.x) * Config::rows_per_block + threadIdx.x / Config::threads_per_row;
  int const lane = int(threadIdx.x % Config::threads_per_row);
  // NOTE: with a warp per row, a warp past the last row has nothing to do and no block-wide sync.
  if (Config::threads_per_row == 32 && row >= rows) return;
  auto const layout = make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{}));
  auto const gX = make_tensor(x, layout);           // (rows,width)
  auto const gY = make_tensor(y, layout);           // (rows,width)
  auto const gRo = make_tensor(residual_out, layout);  // (rows,width), written only with a residual
  T const* const r_row = residual == nullptr ? nullptr : residual + row * width;

  RowReader<T, Config> reader(gX(row, _).data(), width, lane);
  float sum_sq = 0.f;
  reader.load_each([&](auto&& t, int e) {
    if (r_row != nullptr) {
      t = (t.template to<float>() + Tile::template load_vector<Config::vec>(r_row + e).template to<float>()).template to<T>();
      t.template store_vector<Config::vec>(&gRo(row, e));
    }
    auto const f = t.template to<float>();
    sum_sq += (f * f).reduce_sum();
  });
  float const total = row_reduce<Config::threads_per_row>(sum_sq, SumOp{}, 0.f, scratch.data);
  float const rstd = rsqrtf(total / float(width) + eps);

  auto store = [&](auto const& t, int e) {
    auto const wt = Tile::template load_vector<Config::vec>(w + e).template to<float>();
    (t.template to<float>() * wt * rstd).template to<T>().template store_vector<Config::vec>(&gY(row, e));
  };
  if constexpr (Config::cached) {
    reader.reuse_each(store);
  } else {
    // NOTE: the second pass reads the summed row back from residual_out, written by this thread.
    RowReader<T, Config> again(r_row != nullptr ? &gRo(row, 0) : gX(row, _).data(), width, lane);
    again.load_each(store);
  }
}

/// y = rmsnorm(x [+ residual]) * w for a (rows, width) row-major tensor; with residual, also
/// residual_out = x + residual (rounded to T). residual and residual_out are both null or both set.
template <class T>
void rmsnorm(T const* x, T const* residual, T const* w, T* y, T* residual_out, std::size_t rows, std::size_t width,
             float eps = 1e-6f, cudaStream_t stream = nullptr) {
  if (rows == 0 || width == 0) return;
  if ((residual == nullptr) != (residual_out == nullptr))
    throw std::invalid_argument("cute-cpp [rmsnorm.residual]: residual and residual_out go together");
  if (width > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.width]: rows are at most 2^31 - 1 elements");
  bool const aligned = aligned16(x) && aligned16(residual) && aligned16(w) && aligned16(y) && aligned16(residual_out);
  RowPlan const plan = plan_rows<T>(width, aligned);
  dispatch_rows<int(16 / sizeof(T))>(plan, [&]<class Config>() {
    host::LaunchConfig config;
    config.grid = dim3(plan.blocks(rows));
    config.block = dim3(row_block_threads);
    config.stream = stream;
    host::launch(&rmsnorm_kernel<T, Config>, "rmsnorm_kernel", config, x, residual, w, y, residual_out,
                 std::int64_t(rows), int(width), eps);
  });
}

}  // namespace cute_cpp::examples
