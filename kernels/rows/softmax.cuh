// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Row softmax: y = exp(x - max) / sum(exp(x - max)) over each row of a (rows, width) row-major
// tensor, bf16 / f16 / f32 in and out, f32 arithmetic, any width. Rows are read as the row
// rooms lay them out (rows/plan.hpp: a warp, a group, the blocks of a cluster, or one
// streaming block per row).
// A row held in registers takes three steps: the row's max (a warp / block / cluster
// reduction), then exp(x - max) once per element, kept in registers while their sum is reduced,
// then the scaled store. A streamed row keeps a running (max, sum) per thread, rescaling the sum
// when the max grows (the online softmax), so one read gives both; the second read stores.
// Entries of -inf give 0; rows of all -inf are not supported (their result is NaN, as 0/0).
#include <cute_cpp/kernels/common/align.hpp>  // aligned16

#include <cute_cpp/arch/math.hpp>               // exp2 (ex2.approx.ftz)
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

template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads)
softmax_kernel(T const* __restrict__ x, T* __restrict__ y, std::int64_t rows, int width) {
  static_assert(verify_plan<RowKernelPlan>());
  constexpr int V = Config::vec;
  constexpr float log2e = 1.4426950408889634f;  // exp(x - m) = exp2(x * log2e - m * log2e)
  constexpr float minus_inf = -__builtin_huge_valf();
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // the row groups'
  __shared__ RowShared shared;
  RowPlace const at = row_place<Config>(width);
  row_start<Config>(shared, at);
  if (Config::rows_per_block > 1 && at.row >= rows) return;
  auto const layout = make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{}));
  auto const gX = make_tensor(x, layout);  // (rows,width)
  auto const gY = make_tensor(y, layout);  // (rows,width)
  T const* const x_row = gX(at.row, _).data();
  RowWalk const& walk = at.walk;
  RowTiles<T, V, Config::slots> xs;

  if constexpr (Config::cached) {
    // NOTE: max first, then one exp per element kept in f32 registers: the online form costs a
    // second exp per element in the store pass, and the row is in registers anyway.
    xs.load(x_row, walk, 0);
    float m = minus_inf;
    xs.each(walk, 0, [&](int s, int) { m = fmaxf(m, xs[s].template to<float>().reduce_max()); });
    float const shift = row_reduce<Config, Barriers>(m, MaxOp{}, minus_inf, shared, at, 0) * log2e;
    RegisterTile<float, V> ex[Config::slots];
    float sum = 0.f;
    xs.each(walk, 0, [&](int s, int) {
      ex[s] = xs[s].template to<float>().map([&](float v) { return arch::exp2(fmaf(v, log2e, -shift)); });
      sum += ex[s].reduce_sum();
    });
    // NOTE: __fdividef (2 ulp; the sum lies in [1, 2^30]) instead of the IEEE division, whose
    // slow-path call cost registers.
    float const inv = __fdividef(1.f, row_reduce<Config, Barriers>(sum, SumOp{}, 0.f, shared, at, 1));
    xs.each(walk, 0, [&](int s, int e) { (ex[s] * inv).template to<T>().template store_vector<V>(&gY(at.row, e)); });
  } else {
    float m = minus_inf, sum = 0.f;  // running max (log2 units) and sum of exp2(v - m)
    for_each_round<Config>(walk, [&](unsigned base) {
      xs.load(x_row, walk, base);
      float round_max = minus_inf;
      xs.each(walk, base, [&](int s, int) { round_max = fmaxf(round_max, xs[s].template to<float>().reduce_max()); });
      // NOTE: a round with no entries here, or only -inf, adds nothing (and would give
      // exp2(-inf - -inf) = NaN below).
      if (round_max != minus_inf) {
        float const m_new = fmaxf(m, round_max * log2e);
        sum *= arch::exp2(m - m_new);
        xs.each(walk, base, [&](int s, int) {
          sum += xs[s].template to<float>().map([&](float v) { return arch::exp2(fmaf(v, log2e, -m_new)); }).reduce_sum();
        });
        m = m_new;
      }
    });
    float const shift = row_reduce<Config, Barriers>(m, MaxOp{}, minus_inf, shared, at, 0);
    float const inv = __fdividef(1.f, row_reduce<Config, Barriers>(sum * arch::exp2(m - shift), SumOp{}, 0.f, shared, at, 1));
    for_each_round<Config>(walk, [&](unsigned base) {
      xs.load(x_row, walk, base);
      xs.each(walk, base, [&](int s, int e) {
        xs[s].template to<float>().map([&](float v) { return arch::exp2(fmaf(v, log2e, -shift)) * inv; })
            .template to<T>().template store_vector<V>(&gY(at.row, e));
      });
    });
  }
}

/// y = softmax(x) over each row of a (rows, width) row-major tensor.
template <class T>
void softmax(T const* x, T* y, std::size_t rows, std::size_t width, cudaStream_t stream = nullptr) {
  if (rows == 0 || width == 0) return;
  if (width > std::size_t(INT32_MAX))
    host::argument_error("softmax.width", "rows of " + std::to_string(width) + " elements exceed 2^31 - 1");
  host::PointerArgument const pointers[] = {{"x", x}, {"y", y}};
  host::check_device_pointers("softmax", pointers, stream);
  host::check_stream("softmax", stream);
  host::ByteRange const inputs[] = {{"x", x, rows * width * sizeof(T)}};
  host::ByteRange const written{"y", y, rows * width * sizeof(T)};
  host::check_disjoint("softmax", written, inputs);
  host::RowPlan const plan = host::plan_rows<T>(width, aligned16(x) && aligned16(y));
  host::dispatch_rows<T>(plan, [&]<class Config>() {
    host::launch(&softmax_kernel<T, Config>, "softmax_kernel", plan.launch_config(rows, stream), x, y,
                 std::int64_t(rows), int(width));
  });
}

}  // namespace cute_cpp::kernels
