// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The block-scaled GEMM's scales on Hopper (sm_90a; DeepSeek-V3's 1 x 128 A and 128 x 128 B
// scales, BlockScales):
//   KBlockScales        a consumer thread's scales of one K block (its rows x the one or two scale
//                       blocks of B its tile's columns meet), read from global memory
//                       (load_global_scales) or from the stage (load_staged_scales), or as read
//                       (RawKBlockScales, multiplied where promoted: the overlapped main loop);
//   promote             acc += a K block's products times their scales (the promotion; promote_tile
//                       for issue 44's main loops, with the tile's scale-block boundary a constant;
//                       accumulate: a two-level plan's, without scales);
//   gemm_scale_loader   staged_scales: the producer warpgroup's warp that copies each stage's
//                       scales into shared memory with cp.async, completing on the stage's full
//                       barrier, so they arrive with the stage's A and B tiles.
#include <cute_cpp/kernels/gemm/gemm.hpp>  // GemmPlan, BlockScales

#include <cute_cpp/arch/griddepcontrol.hpp>                     // griddepcontrol_wait
#include <cute_cpp/arch/registers.hpp>                          // recompute_from_here
#include <cute_cpp/pipeline/pipeline_state.hpp>                 // PipelineState, make_pipeline_state
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>  // StaticPersistentTileScheduler

#include <ctm/common/cp_async.hpp>  // cp_async_ca_shared_global, cp_async_mbarrier_arrive_noinc
#include <ctm/common/ld_st.hpp>     // ld_shared_b32, ld_shared_v2_b32

#include <cstddef>  // offsetof
#include <cstdint>
#include <utility>  // integer_sequence

namespace cute_cpp::kernels {

/// A K block's scales for a consumer thread's values: A's scale of each of its rows times B's of
/// each scale block its columns meet, and the tile column where B's second block starts.
template <class Plan>
struct KBlockScales {
  static constexpr int b_blocks = Plan::scale_blocks_b;
  float row_block[Plan::Mma::atoms_m][2][b_blocks];
  int boundary;
};

/// A K block's scales as read: A's of each of a thread's rows, B's of each scale block its tile's
/// columns meet (multiplied into KBlockScales by `combined`, where they are promoted).
template <class Plan>
struct RawKBlockScales {
  float a[Plan::Mma::atoms_m][2];
  float b[Plan::scale_blocks_b];
};

/// The tile column where B's second scale block starts (KBlockScales::boundary).
template <class Plan>
__device__ __forceinline__ int scale_boundary(WorkTileInfo const& tile) {
  return 128 - int(std::int64_t(tile.n) * Plan::block_n % 128);
}

/// The scales of K block kb read from global memory (rows of A below m, rows of B below n).
template <class Plan>
__device__ __forceinline__ RawKBlockScales<Plan> load_global_raw_scales(WorkTileInfo const& tile, int row0, int kb,
                                                                        BlockScales const& scales, std::int64_t m,
                                                                        std::int64_t n) {
  using Mma = typename Plan::Mma;
  RawKBlockScales<Plan> r;
  auto const slice = Mma::get_slice(int(threadIdx.x % 128));
  std::int64_t const tile_row = std::int64_t(tile.m) * Plan::block_m + row0;
  std::int64_t const n0 = std::int64_t(tile.n) * Plan::block_n;
  int const boundary = scale_boundary<Plan>(tile);
#pragma unroll
  for (int b = 0; b < Plan::scale_blocks_b; ++b)
    // NOTE: past B's last row block (a ragged tile's columns past N, or a cluster's tile past
    // N altogether) the scale is not read.
    r.b[b] = n0 + (b == 0 ? 0 : boundary) < n
                 ? epilogue::read_only(scales.b, (n0 / 128 + b) * scales.b_row_stride +
                                                     std::int64_t(kb) * scales.b_k_stride)
                 : 0.0f;
#pragma unroll
  for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      std::int64_t const row = tile_row + slice.row(a, 2 * h);
      r.a[a][h] =
          row < m ? epilogue::read_only(scales.a, row * scales.a_row_stride + std::int64_t(kb) * scales.a_k_stride)
                  : 0.0f;
    }
  return r;
}

/// The scales of the stage the loader filled (gemm_scale_loader: zeros past M and N).
/// NOTE: read with ld.shared: through the generic SharedStorage reference nvcc emits generic
/// loads (LD.E, 64-bit addresses) here.
template <class Plan>
__device__ __forceinline__ RawKBlockScales<Plan> load_staged_raw_scales(typename Plan::StageScales const& stage,
                                                                        int row0) {
  using Mma = typename Plan::Mma;
  RawKBlockScales<Plan> r;
  auto const slice = Mma::get_slice(int(threadIdx.x % 128));
  uint2 const b = ctm::ld_shared_v2_b32(ctm::cvta_to_shared_u32(stage.b));
  r.b[0] = __uint_as_float(b.x);
  if constexpr (Plan::scale_blocks_b > 1) r.b[1] = __uint_as_float(b.y);
  std::uint32_t const a_base = ctm::cvta_to_shared_u32(stage.a);
#pragma unroll
  for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      r.a[a][h] = __uint_as_float(ctm::ld_shared_b32(a_base + 4u * std::uint32_t(row0 + slice.row(a, 2 * h))));
  return r;
}

/// A K block's scales per row and B block, from those read.
template <class Plan>
__device__ __forceinline__ KBlockScales<Plan> combined(RawKBlockScales<Plan> const& raw, int boundary) {
  KBlockScales<Plan> r;
  r.boundary = boundary;
#pragma unroll
  for (int a = 0; a < Plan::Mma::atoms_m; ++a)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int b = 0; b < Plan::scale_blocks_b; ++b) r.row_block[a][h][b] = raw.a[a][h] * raw.b[b];
  return r;
}

/// The scales of K block kb read from global memory, combined (the baseline's main loop).
/// NOTE: not combined<Plan>(load_global_raw_scales(...)): kept as the baseline plans were built, whose
/// SASS that form changes (register allocation).
template <class Plan>
__device__ __forceinline__ KBlockScales<Plan> load_global_scales(WorkTileInfo const& tile, int row0, int kb,
                                                                 BlockScales const& scales, std::int64_t m,
                                                                 std::int64_t n) {
  using Mma = typename Plan::Mma;
  constexpr int b_blocks = Plan::scale_blocks_b;
  KBlockScales<Plan> r;
  auto const slice = Mma::get_slice(int(threadIdx.x % 128));
  std::int64_t const tile_row = std::int64_t(tile.m) * Plan::block_m + row0;
  std::int64_t const n0 = std::int64_t(tile.n) * Plan::block_n;
  r.boundary = 128 - int(n0 % 128);
  float b_scale[b_blocks];
#pragma unroll
  for (int b = 0; b < b_blocks; ++b)
    // NOTE: past B's last row block (a ragged tile's columns past N, or a cluster's tile past
    // N altogether) the scale is not read.
    b_scale[b] = n0 + (b == 0 ? 0 : r.boundary) < n
                     ? epilogue::read_only(scales.b, (n0 / 128 + b) * scales.b_row_stride +
                                                         std::int64_t(kb) * scales.b_k_stride)
                     : 0.0f;
#pragma unroll
  for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      std::int64_t const row = tile_row + slice.row(a, 2 * h);
      float const a_scale =
          row < m ? epilogue::read_only(scales.a, row * scales.a_row_stride + std::int64_t(kb) * scales.a_k_stride)
                  : 0.0f;
#pragma unroll
      for (int b = 0; b < b_blocks; ++b) r.row_block[a][h][b] = a_scale * b_scale[b];
    }
  return r;
}

/// The scales of a stage, combined.
template <class Plan>
__device__ __forceinline__ KBlockScales<Plan> load_staged_scales(typename Plan::StageScales const& stage,
                                                                 WorkTileInfo const& tile, int row0) {
  return combined<Plan>(load_staged_raw_scales<Plan>(stage, row0), scale_boundary<Plan>(tile));
}

/// A two-level plan's K block: no scales (its per-tensor or per-row scales are the epilogue's).
struct NoKBlockScales {};

/// acc += product: a two-level plan's promotion (GemmConfig::two_level_accumulation).
template <class Plan>
__device__ __forceinline__ void accumulate(typename Plan::Mma::FragmentC& acc, typename Plan::Mma::FragmentC const& product) {
#pragma unroll
  for (int i = 0; i < Plan::accumulators; ++i) acc.storage[i] += product.storage[i];
}

/// acc += product * scale, each value's scale its row's and its column's scale block's.
template <class Plan>
__device__ __forceinline__ void promote(typename Plan::Mma::FragmentC& acc, typename Plan::Mma::FragmentC const& product,
                                        KBlockScales<Plan> const& s) {
  using Mma = typename Plan::Mma;
  constexpr int b_blocks = Plan::scale_blocks_b;
  auto const slice = Mma::get_slice(int(threadIdx.x % 128));
#pragma unroll
  for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
    for (int j = 0; j < Mma::acc_per_atom; ++j) {
      // Value j lies in column block j / 4 (8 columns) and in the atom's first or second row.
      int const h = slice.row(a, j) == slice.row(a, 0) ? 0 : 1;
      float const scale = b_blocks == 1 || 8 * (j / 4) < s.boundary ? s.row_block[a][h][0]
                                                                     : s.row_block[a][h][b_blocks - 1];
      acc.storage[a * Mma::acc_per_atom + j] += product.storage[a * Mma::acc_per_atom + j] * scale;
    }
}

/// promote with the tile's boundary between B's two scale blocks a compile-time value: each value's
/// scale is then chosen by the compiler, with no compare and select per value.
template <class Plan, int Boundary>
__device__ __forceinline__ void promote_at(typename Plan::Mma::FragmentC& acc, typename Plan::Mma::FragmentC const& product,
                                           KBlockScales<Plan> const& s) {
  using Mma = typename Plan::Mma;
  auto const slice = Mma::get_slice(int(threadIdx.x % 128));
#pragma unroll
  for (int a = 0; a < Mma::atoms_m; ++a)
#pragma unroll
    for (int j = 0; j < Mma::acc_per_atom; ++j) {
      int const h = slice.row(a, j) == slice.row(a, 0) ? 0 : 1;
      float const scale = 8 * (j / 4) < Boundary ? s.row_block[a][h][0] : s.row_block[a][h][1];
      acc.storage[a * Mma::acc_per_atom + j] += product.storage[a * Mma::acc_per_atom + j] * scale;
    }
}

/// The promotion of issue 44's main loops: for a tile that meets two scale blocks of B, a branch
/// (uniform across the warp) to promote_at for the tile's boundary, one of 128 / gcd(block_n, 128)
/// values (tile t starts t block_n mod 128 into a block); else promote.
/// NOTE: with the boundary a run-time value, the compare and select per 8-column group and row half
/// were 53 of the 233 instructions a warp ran per K block in the 144-column main loop (ptxas 13.0).
template <class Plan>
__device__ __forceinline__ void promote_tile(typename Plan::Mma::FragmentC& acc,
                                             typename Plan::Mma::FragmentC const& product, KBlockScales<Plan> const& s) {
  if constexpr (Plan::scale_blocks_b == 1) {
    promote<Plan>(acc, product, s);
  } else {
    constexpr int step = Plan::scale_boundary_step;
    [&]<int... I>(std::integer_sequence<int, I...>) {
      static_cast<void>(((s.boundary == 128 - I * step ? (promote_at<Plan, 128 - I * step>(acc, product, s), true)
                                                         : false) ||
                         ...));
    }(std::make_integer_sequence<int, 128 / step>{});
  }
}

/// staged_scales: one warp of the producer warpgroup walks the producer's tiles and K blocks; per
/// stage, once it is empty, its lanes copy the tile's rows' A scales and the B scales of the one or
/// two scale blocks its columns meet (zeros past M and N: cp.async's zero-filling form) and arrive
/// on the stage's full barrier when their copies land (cp.async.mbarrier.arrive.noinc, counted in
/// the barrier's producer arrivals), so the stage is full only with its scales.
/// NOTE: cp.async copies 4 bytes at any address, so A's and B's scales keep BlockScales' any
/// strides (TMA would need M-contiguous A scales with 16-byte rows).
template <class Plan>
__device__ __forceinline__ void gemm_scale_loader(typename Plan::SharedStorage& smem,
                                                  PersistentTileSchedulerParams const& tiles,
                                                  BlockScales const& scales, std::int64_t m, std::int64_t n) {
  static_assert(Plan::staged_scales && Plan::scale_loader_threads == 32);
  using Slot = typename Plan::StageScales;
  typename Plan::Pipeline const pipeline{&smem.barriers};
  StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  int const lane = int(threadIdx.x % 32);
  // NOTE: derived here, not shared with the consumers' code before the roles split (kept live
  // across their main loop, it cost a consumer register).
  std::uint32_t const slots = arch::recompute_from_here(ctm::cvta_to_shared_u32(&smem.scales.stage[0]));
  // The scales may be written by the kernel before (programmatic dependent launch).
  arch::griddepcontrol_wait();
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) {
    WorkTileInfo const tile = scheduler.get_current_work();
    std::int64_t const m0 = std::int64_t(tile.m) * Plan::block_m;
    std::int64_t const n0 = std::int64_t(tile.n) * Plan::block_n;
    // NOTE: this warp shares a scheduler with two consumer warps, whose issue slots it takes (with
    // a 64-bit product per copy it ran about 130 instructions a K block); so its sources are
    // pointers stepped by 32 rows and by a K block, its slots 32-bit shared addresses. A copy past
    // M or N reads nothing (cp.async's zero-filling form with src-size 0) and is given the array's
    // start, not the stepped pointer past its end.
    int const rows = int(m - m0 < Plan::block_m ? m - m0 : Plan::block_m);
    bool const b_in = lane < Plan::scale_blocks_b && n0 + (lane == 0 ? 0 : 128 - n0 % 128) < n;
    float const* a_src = scales.a + (m0 + lane) * scales.a_row_stride + std::int64_t(tile.k_block_begin) * scales.a_k_stride;
    float const* b_src =
        scales.b + (b_in ? (n0 / 128 + lane) * scales.b_row_stride + std::int64_t(tile.k_block_begin) * scales.b_k_stride
                         : 0);
    for (int kb = tile.k_block_begin; kb < tile.k_block_end; ++kb) {
      pipeline.producer_acquire(state);
      std::uint32_t const slot = slots + std::uint32_t(state.index() * sizeof(Slot));
      float const* src = a_src;
#pragma unroll 1
      for (int r = lane; r < Plan::block_m; r += 32, src += 32 * scales.a_row_stride)
        ctm::cp_async_ca_shared_global<4>(slot + 4u * std::uint32_t(r), r < rows ? src : scales.a, r < rows ? 4u : 0u);
      if (lane < 2)
        ctm::cp_async_ca_shared_global<4>(slot + std::uint32_t(offsetof(Slot, b)) + 4u * std::uint32_t(lane), b_src,
                                          b_in ? 4u : 0u);
      ctm::cp_async_mbarrier_arrive_noinc(pipeline.producer_get_barrier(state));
      a_src += scales.a_k_stride;
      if (b_in) b_src += scales.b_k_stride;
      state.advance();
    }
  }
  // NOTE: the warp's copies complete before it exits (their arrivals are the stage's).
  ctm::cp_async_wait_all();
}

}  // namespace cute_cpp::kernels
