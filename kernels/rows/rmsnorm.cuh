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
#include <cute_cpp/kernels/common/align.hpp>  // aligned16

#include <cute_cpp/rows/tiles.hpp>              // RowTiles
#include <cute_cpp/host/arguments.hpp>          // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/diag/verify_plan.hpp>        // verify_plan
#include <cute_cpp/host/launch.hpp>             // launch
#include <cute_cpp/rows/plan.hpp>               // RowPlan, plan_rows, dispatch_rows
#include <cute_cpp/pipeline/named_barrier.hpp>  // NamedBarrierAllocation
#include <cute_cpp/rows.hpp>                    // row_place, row_reduce
#include <cute_cpp/tensor.hpp>                  // make_tensor, RegisterTile
#include <cute_cpp/rows/stage.hpp>              // RowStage, row_loop
#include <cute_cpp/arch/griddepcontrol.hpp>     // griddepcontrol_*
#include <cute_cpp/arch/fence.hpp>              // fence_view_async_shared

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels {

/// Rows split over a cluster of 8, staged in shared memory (Config::staged): each cluster loops
/// over rows (a persistent grid); row n + row_stages of the loop is copied in (one bulk copy per
/// block and input) once the block is done with row n, so the next row is in flight during this
/// row's cluster exchange. Each vector is read from shared memory for the sum of squares and
/// again for the output; `w` is held in registers across the rows.
/// NOTE: holding the row's vectors in registers across the exchange (and refilling the stage at
/// once) took 64 registers and spilled with `w` held, and measured 0.88 with `w` read per row.
template <class T, class Config>
__device__ __forceinline__ void rmsnorm_staged_rows(T const* __restrict__ x, T const* __restrict__ residual,
                                                    T const* __restrict__ w, T* __restrict__ y,
                                                    T* __restrict__ residual_out, std::int64_t rows, int width,
                                                    float eps, RowShared& shared, T* smem) {
  constexpr int V = Config::vec;
  using Tiles = RowTiles<T, V, Config::slots>;
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // none: whole blocks
  RowPlace const at = row_place<Config>(width);
  row_start<Config>(shared, at);
  RowWalk const& walk = at.walk;
  RowLoop const loop = row_loop(at);
  RowStage<T, Config> const stage(smem, shared, at, residual != nullptr ? 2u : 1u);
  auto const fill = [&](unsigned n) {
    std::int64_t const row = loop.row(n);
    if (row < rows) stage.fill(n, {x + row * width, residual == nullptr ? nullptr : residual + row * width});
  };
  if (threadIdx.x == 0) {
    for (unsigned n = 0; n < unsigned(row_stages); ++n) fill(n);
  }
  Tiles ws;
  ws.load(w, walk, 0);
  unsigned n = 0;
  using Tile = RegisterTile<T, V>;
  for (std::int64_t row = loop.first; row < rows; row = loop.row(++n)) {
    stage.wait(n);
    T* const x_stage = stage.buffer(n, 0);
    float sum_sq = 0.f;
    ws.each(walk, 0, [&](int, int e) {  // the thread's vectors of the row (w's and x's are the same)
      auto v = Tile::template load_vector<V>(x_stage + (unsigned(e) - stage.first));
      if (residual != nullptr) {
        auto const r = Tile::template load_vector<V>(stage.buffer(n, 1) + (unsigned(e) - stage.first));
        v = (v.template to<float>() + r.template to<float>()).template to<T>();
        v.template store_vector<V>(residual_out + row * width + e);
        v.template store_vector<V>(x_stage + (unsigned(e) - stage.first));
      }
      auto const f = v.template to<float>();
      sum_sq += (f * f).reduce_sum();
    });
    float const total = row_reduce<Config, Barriers>(sum_sq, SumOp{}, 0.f, shared, at, int(n));
    float const rstd = rsqrtf(__fdividef(total, float(width)) + eps);
    ws.each(walk, 0, [&](int s, int e) {
      auto const v = Tile::template load_vector<V>(x_stage + (unsigned(e) - stage.first));
      (v.template to<float>() * ws[s].template to<float>() * rstd).template to<T>()
          .template store_vector<V>(y + row * width + e);
    });
    if (residual != nullptr) arch::fence_view_async_shared();  // x' written to the stage, refilled by the async proxy
    __syncthreads();
    if (threadIdx.x == 0) fill(n + unsigned(row_stages));
  }
}

/// NOTE: the minimum blocks per SM cap the registers: 48 a thread with the row cached (5 blocks
/// of 256 threads per SM; nvcc alone took 54 for bf16: 4 blocks), 64 when streamed (4 blocks;
/// nvcc alone took 61 to 72), and 64 when staged (4 blocks and 4 rows of shared memory per SM; at
/// 48 registers it spilled): more blocks keep more loads in flight (README.md has the figures).
template <class T, class Config>
__global__ void __launch_bounds__(row_block_threads, Config::staged ? 4 : Config::cached ? 5 : 4)
rmsnorm_kernel(T const* __restrict__ x, T const* __restrict__ residual, T const* __restrict__ w, T* __restrict__ y,
               T* __restrict__ residual_out, std::int64_t rows, int width, float eps) {
  static_assert(verify_plan<RowKernelPlan>());
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now, and
  // this one waits for its predecessor's memory before touching global memory.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  constexpr int V = Config::vec;
  using Tiles = RowTiles<T, V, Config::slots>;
  using Barriers = typename NamedBarrierAllocation<RowBarrierRequest<Config>>::template user<0>;  // the row groups'
  __shared__ RowShared shared;
  if constexpr (Config::staged) {
    extern __shared__ __align__(128) unsigned char rmsnorm_stage_smem[];
    rmsnorm_staged_rows<T, Config>(x, residual, w, y, residual_out, rows, width, eps, shared,
                                   reinterpret_cast<T*>(rmsnorm_stage_smem));
    return;
  }
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
  if (width > std::size_t(INT32_MAX))
    host::argument_error("rmsnorm.width", "rows of " + std::to_string(width) + " elements exceed 2^31 - 1");
  host::PointerArgument const pointers[] = {{"x", x}, {"w", w}, {"y", y}};
  host::check_device_pointers("rmsnorm", pointers, stream);
  if (residual != nullptr) {
    host::PointerArgument const residuals[] = {{"residual", residual}, {"residual_out", residual_out}};
    host::check_device_pointers("rmsnorm", residuals, stream);
  }
  host::check_stream("rmsnorm", stream);
  std::size_t const bytes = rows * width * sizeof(T);
  host::ByteRange const inputs[] = {{"x", x, bytes}, {"w", w, width * sizeof(T)}, {"residual", residual, bytes}};
  host::ByteRange const written{"y", y, bytes};
  host::check_disjoint("rmsnorm", written, inputs);
  host::ByteRange const read_or_written[] = {inputs[0], inputs[1], inputs[2], {"y", y, bytes}};
  host::ByteRange const residual_written{"residual_out", residual_out, bytes};
  host::check_disjoint("rmsnorm", residual_written, read_or_written);
  bool const aligned = aligned16(x) && aligned16(residual) && aligned16(w) && aligned16(y) && aligned16(residual_out);
  host::RowPlan const plan = host::plan_rows<T>(width, aligned, /*hold_block_rows=*/true, /*stage_split_rows=*/true);
  host::dispatch_rows<T, /*Staged=*/true>(plan, [&]<class Config>() {
    auto const kernel = &rmsnorm_kernel<T, Config>;
    host::LaunchConfig config = plan.launch_config(rows, stream, residual != nullptr ? 2 : 1);
    if constexpr (Config::staged) config = host::persistent_rows(kernel, config);
    host::launch(kernel, "rmsnorm_kernel", config, x, residual, w, y, residual_out, std::int64_t(rows), int(width),
                 eps);
  });
}

}  // namespace cute_cpp::kernels
