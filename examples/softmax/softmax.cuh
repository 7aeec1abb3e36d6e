// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row softmax, online: y = exp(x - max) / sum(exp(x - max)) over each row of a (rows, width)
// row-major tensor, bf16 / f16 / f32 in and out, f32 arithmetic, any width. Each thread keeps a
// running (max, sum) over its values, rescaling the sum when the max grows (the online
// softmax), so one read of the row gives both; the pairs are combined across the warp/block;
// the row, still in registers (or read again when wider than they hold), is then normalised.
// Rows of all -inf are not supported (their result is NaN, as 0/0).
#include "examples/common/rows.cuh"

#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/tensor.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::examples {

template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads)
softmax_kernel(T const* __restrict__ x, T* __restrict__ y, std::int64_t rows, int width) {
  static_assert(verify_plan<RowKernelPlan>());
  constexpr float log2e = 1.4426950408889634f;  // exp(x) = exp2(x * log2e)
  __shared__ SmemArray<float, 32> scratch;
  std::int64_t const row = std::int64_t(blockIdx.x) * Config::rows_per_block + threadIdx.x / Config::threads_per_row;
  int const lane = int(threadIdx.x % Config::threads_per_row);
  if (Config::threads_per_row == 32 && row >= rows) return;
  auto const layout = make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{}));
  auto const gX = make_tensor(x, layout);  // (rows,width)
  auto const gY = make_tensor(y, layout);  // (rows,width)

  RowReader<T, Config> reader(gX(row, _).data(), width, lane);
  float m = -__int_as_float(0x7f800000), s = 0.f;  // running max and sum of exp(x - max), in log2 units
  reader.load_each([&](auto&& t, int) {
    auto const f = t.template to<float>() * log2e;
    float const m_new = fmaxf(m, f.reduce_max());
    s = s * exp2f(m - m_new) + f.map([&](float v) { return exp2f(v - m_new); }).reduce_sum();
    m = m_new;
  });
  float const row_max = row_reduce<Config::threads_per_row>(m, MaxOp{}, -__int_as_float(0x7f800000), scratch.data);
  float const row_sum = row_reduce<Config::threads_per_row>(s * exp2f(m - row_max), SumOp{}, 0.f, scratch.data);
  float const inv = 1.f / row_sum;
  auto store = [&](auto const& t, int e) {
    (t.template to<float>() * log2e).map([&](float v) { return exp2f(v - row_max) * inv; }).template to<T>()
        .template store_vector<Config::vec>(&gY(row, e));
  };
  if constexpr (Config::cached) reader.reuse_each(store);
  else RowReader<T, Config>(gX(row, _).data(), width, lane).load_each(store);
}

/// y = softmax(x) over each row of a (rows, width) row-major tensor.
template <class T>
void softmax(T const* x, T* y, std::size_t rows, std::size_t width, cudaStream_t stream = nullptr) {
  if (rows == 0 || width == 0) return;
  if (width > 0x7fffffffu) throw std::invalid_argument("cute-cpp [rows.width]: rows are at most 2^31 - 1 elements");
  RowPlan const plan = plan_rows<T>(width, aligned16(x) && aligned16(y));
  dispatch_rows<int(16 / sizeof(T))>(plan, [&]<class Config>() {
    host::LaunchConfig config;
    config.grid = dim3(plan.blocks(rows));
    config.block = dim3(row_block_threads);
    config.stream = stream;
    host::launch(&softmax_kernel<T, Config>, "softmax_kernel", config, x, y, std::int64_t(rows), int(width));
  });
}

}  // namespace cute_cpp::examples
