// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// RMSNorm: y = x / sqrt(mean(x^2) + eps) * w over each row of a (rows, width) row-major tensor,
// in bf16, f16 or f32 (f32 arithmetic), with an optional fused residual add: x' = x + residual
// is rounded to T, written to residual_out, and normalised. Any width (16-byte vectors when the
// width and pointers allow, scalars otherwise), any number of rows.
// Steps: (1) a warp (narrow rows), the blocks of a cluster (wide rows) or one streaming block
// (rows wider than a cluster's registers) loads its row as RegisterTiles, every load of a round
// in flight at once, adds the residual and sums the squares; (2) a warp / block (/ cluster)
// reduction gives the row's sum; (3) the row, still in registers (or read again when streamed),
// is scaled by rstd * w and stored.
#include "examples/common/align.hpp"  // aligned16

#include <cute_cpp/copy/row_tiles.hpp>          // RowTiles
#include <cute_cpp/diag/verify_plan.hpp>        // verify_plan
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/host/row_plan.hpp>           // RowPlan, plan_rows, dispatch_rows
#include <cute_cpp/pipeline/named_barrier.hpp>  // NamedBarrierAllocation
#include <cute_cpp/tensor.hpp>                  // make_tensor, RegisterTile, row_place, row_reduce

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::examples {

/// NOTE: the minimum blocks per SM cap the registers: 48 a thread with the row cached (5 blocks
/// of 256 threads per SM; nvcc alone took 54 for bf16: 4 blocks), 64 when streamed (4 blocks;
/// nvcc alone took 61 to 72): more blocks keep more loads in flight (README.md has the figures).
template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads, Config::cached ? 5 : 4)
rmsnorm_kernel(T const* __restrict__ x, T const* __restrict__ residual, T const* __restrict__ w, T* __restrict__ y,
               T* __restrict__ residual_out, std::int64_t rows, int width, float eps) {
  static_assert(verify_plan<RowKernelPlan>());
  constexpr int V = Config::vec;
  using Tiles = RowTiles<T, V, Config::slots>;
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // the row groups'
  __shared__ RowShared shared;
  RowPlace const at = row_place<Config>(width);
  row_start<Config>(shared, at);
  // NOTE: a warp or group past the last row has nothing to do and no block-wide sync to meet
  // (groups meet at their own named barrier).
  if (Config::rows_per_block > 1 && at.row >= rows) return;
  auto const layout = make_layout(make_shape(rows, width), make_stride(std::int64_t(width), C<1>{}));
  auto const gX = make_tensor(x, layout);              // (rows,width)
  auto const gY = make_tensor(y, layout);              // (rows,width)
  auto const gRo = make_tensor(residual_out, layout);  // (rows,width), written only with a residual
  T const* const x_row = gX(at.row, _).data();
  T const* const r_row = residual == nullptr ? nullptr : residual + at.row * width;
  RowWalk const& walk = at.walk;

  Tiles xs;  // the row (cached), or the current round (streamed)
  float sum_sq = 0.f;
  for_each_round<Config>(walk, [&](unsigned base) {
    xs.load(x_row, walk, base);
    if (r_row != nullptr) {
      Tiles rs;
      rs.load(r_row, walk, base);
      xs.each(walk, base, [&](int s, int e) {
        auto const sum = (xs[s].template to<float>() + rs[s].template to<float>()).template to<T>();
        sum.template store_vector<V>(&gRo(at.row, e));
        xs.set(s, sum);
      });
    }
    xs.each(walk, base, [&](int s, int) {
      auto const f = xs[s].template to<float>();
      sum_sq += (f * f).reduce_sum();
    });
  });
  float const total = row_reduce<Config, Barriers>(sum_sq, SumOp{}, 0.f, shared, at, 0);
  // NOTE: __fdividef (2 ulp) instead of the IEEE division, whose slow-path call cost registers.
  float const rstd = rsqrtf(__fdividef(total, float(width)) + eps);

  for_each_round<Config>(walk, [&](unsigned base) {
    if constexpr (!Config::cached) {
      // NOTE: the second pass reads the summed row back from residual_out, written by this thread.
      xs.load(r_row != nullptr ? &gRo(at.row, 0) : x_row, walk, base);
    }
    Tiles ws;
    ws.load(w, walk, base);
    xs.each(walk, base, [&](int s, int e) {
      (xs[s].template to<float>() * ws[s].template to<float>() * rstd).template to<T>()
          .template store_vector<V>(&gY(at.row, e));
    });
  });
}

/// y = rmsnorm(x [+ residual]) * w for a (rows, width) row-major tensor; with residual, also
/// residual_out = x + residual (rounded to T). residual and residual_out are both null or both set.
template <class T>
void rmsnorm(T const* x, T const* residual, T const* w, T* y, T* residual_out, std::size_t rows, std::size_t width,
             float eps = 1e-6f, cudaStream_t stream = nullptr) {
  if (rows == 0 || width == 0) return;
  if ((residual == nullptr) != (residual_out == nullptr))
    throw std::invalid_argument("cute-cpp [rmsnorm.residual]: residual and residual_out go together");
  bool const aligned = aligned16(x) && aligned16(residual) && aligned16(w) && aligned16(y) && aligned16(residual_out);
  host::RowPlan const plan = host::plan_rows<T>(width, aligned);
  host::dispatch_rows<T>(plan, [&]<class Config>() {
    host::launch(&rmsnorm_kernel<T, Config>, "rmsnorm_kernel", plan.launch_config(rows, stream), x, residual, w, y,
                 residual_out, std::int64_t(rows), int(width), eps);
  });
}

}  // namespace cute_cpp::examples
