// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// LayerNorm: y = (x - mean) / sqrt(var + eps) * w + b over each row of a (rows, width) row-major
// tensor (var the biased variance, as torch.nn.LayerNorm), bf16 / f16 / f32 in and out, f32
// arithmetic, any width; w and b of T. Rows are laid out as the row rooms lay them out
// (rows/plan.hpp: a warp, a group, the blocks of a cluster, or one streaming block per row).
// Steps: (1) the row's sum (a warp / group / block / cluster reduction) gives the mean; (2) the
// sum of (x - mean)^2 over the row still in registers gives the variance (no cancellation of
// E[x^2] - mean^2); a streamed row instead sums x - k and (x - k)^2 in one read, k its first
// element; (3) the normalised row is scaled, shifted and stored.
#include <cute_cpp/kernels/common/align.hpp>  // aligned16

#include <cute_cpp/diag/verify_plan.hpp>        // verify_plan
#include <cute_cpp/host/arguments.hpp>          // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/pipeline/named_barrier.hpp>  // NamedBarrierAllocation
#include <cute_cpp/rows.hpp>                    // row_place, row_reduce
#include <cute_cpp/rows/plan.hpp>               // RowPlan, plan_rows, dispatch_rows
#include <cute_cpp/rows/tiles.hpp>              // RowTiles
#include <cute_cpp/tensor.hpp>                  // make_tensor, RegisterTile

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

// NOTE: at least one block per SM said explicitly: with the block size alone, ptxas held the
// streamed f32 row to 48 registers and spilled 4 bytes.
template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads, 1)
layernorm_kernel(T const* __restrict__ x, T const* __restrict__ w, T const* __restrict__ b, T* __restrict__ y,
                 std::int64_t rows, int width, float eps) {
  static_assert(verify_plan<RowKernelPlan>());
  constexpr int V = Config::vec;
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // the row groups'
  using Tiles = RowTiles<T, V, Config::slots>;
  __shared__ RowShared shared;
  RowPlace const at = row_place<Config>(width);
  row_start<Config>(shared, at);
  if (Config::rows_per_block > 1 && at.row >= rows) return;
  auto const layout = make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{}));
  auto const gX = make_tensor(x, layout);  // (rows,width)
  auto const gY = make_tensor(y, layout);  // (rows,width)
  T const* const x_row = gX(at.row, _).data();
  RowWalk const& walk = at.walk;
  Tiles xs;

  // NOTE: __fdividef (2 ulp), as rmsnorm: the IEEE division's slow-path call cost registers.
  float mean = 0.f, var = 0.f;
  if constexpr (Config::cached) {
    xs.load(x_row, walk, 0);
    float sum = 0.f;
    xs.each(walk, 0, [&](int s, int) { sum += xs[s].template to<float>().reduce_sum(); });
    mean = __fdividef(row_reduce<Config, Barriers>(sum, SumOp{}, 0.f, shared, at, 0), float(width));
    float sq = 0.f;
    xs.each(walk, 0, [&](int s, int) {
      auto const d = xs[s].template to<float>().map([mean](float v) { return v - mean; });
      sq += (d * d).reduce_sum();
    });
    var = __fdividef(row_reduce<Config, Barriers>(sq, SumOp{}, 0.f, shared, at, 1), float(width));
  } else {
    // NOTE: a streamed row sums x - k and (x - k)^2 in one read, k the row's first element (a value
    // of the row, so no cancellation beyond the row's own spread): a second read for the centred
    // sum, three in all, spilled (f32).
    float const k = float(x_row[0]);
    float s1 = 0.f, s2 = 0.f;
    for_each_round<Config>(walk, [&](unsigned base) {
      xs.load(x_row, walk, base);
      xs.each(walk, base, [&](int s, int) {
        auto const d = xs[s].template to<float>().map([k](float v) { return v - k; });
        s1 += d.reduce_sum();
        s2 += (d * d).reduce_sum();
      });
    });
    float const m1 = __fdividef(row_reduce<Config, Barriers>(s1, SumOp{}, 0.f, shared, at, 0), float(width));
    float const m2 = __fdividef(row_reduce<Config, Barriers>(s2, SumOp{}, 0.f, shared, at, 1), float(width));
    mean = k + m1;
    var = fmaxf(m2 - m1 * m1, 0.f);
  }
  float const rstd = rsqrtf(var + eps);
  // NOTE: w and b read a vector at a time: two whole tiles of them beside a cached row spilled.
  using Tile = RegisterTile<T, V>;
  auto const store = [&](int s, int e) {
    auto const n = xs[s].template to<float>().map([mean, rstd](float v) { return (v - mean) * rstd; });
    auto const ws = Tile::template load_vector<V>(w + e).template to<float>();
    auto const bs = Tile::template load_vector<V>(b + e).template to<float>();
    (n * ws + bs).template to<T>().template store_vector<V>(&gY(at.row, e));
  };
  for_each_round<Config>(walk, [&](unsigned base) {
    if constexpr (!Config::cached) xs.load(x_row, walk, base);
    xs.each(walk, base, store);
  });
}

/// y = layernorm(x) * w + b over each row of a (rows, width) row-major tensor (torch.nn.LayerNorm
/// with elementwise_affine; Qwen3-TTS's ConvNeXt: width 1024, eps 1e-6).
/// @pre width < 2^31 [layernorm.width]; [layernorm.pointers] x, w, b, y device memory;
///      [layernorm.aliasing] y apart from x, w and b.
template <class T>
void layernorm(T const* x, T const* w, T const* b, T* y, std::size_t rows, std::size_t width, float eps = 1e-5f,
               cudaStream_t stream = nullptr) {
  if (rows == 0 || width == 0) return;
  if (width > std::size_t(INT32_MAX))
    host::argument_error("layernorm.width", "rows of " + std::to_string(width) + " elements exceed 2^31 - 1");
  host::PointerArgument const pointers[] = {{"x", x}, {"w", w}, {"b", b}, {"y", y}};
  host::check_device_pointers("layernorm", pointers, stream);
  host::check_stream("layernorm", stream);
  std::size_t const bytes = rows * width * sizeof(T);
  host::ByteRange const inputs[] = {{"x", x, bytes}, {"w", w, width * sizeof(T)}, {"b", b, width * sizeof(T)}};
  host::ByteRange const written{"y", y, bytes};
  host::check_disjoint("layernorm", written, inputs);
  host::RowPlan const plan = host::plan_rows<T>(width, aligned16(x) && aligned16(w) && aligned16(b) && aligned16(y));
  host::dispatch_rows<T>(plan, [&]<class Config>() {
    host::launch(&layernorm_kernel<T, Config>, "layernorm_kernel", plan.launch_config(rows, stream), x, w, b, y,
                 std::int64_t(rows), int(width), eps);
  });
}

}  // namespace cute_cpp::kernels
