// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The grouped Hopper GEMM's launch (grouped_gemm.hpp): grouped_gemm_prepare, one CTA, reads the
// groups' rows on the device and writes the table of tile rows and each group's TMA descriptors
// (the dense GEMM's, patched with tensormap.replace: A's and C's base at the group's first row
// and their row extent ended at its last, B's base at the group's weight); then gemm_kernel, the
// dense kernel with Plan::grouped, walks the table (gemm_sm90.cuh).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>

#include <cute_cpp/tma/tensor_map_update.hpp>  // tensor_map_replace_address, _extent, tensor_map_release

#include <algorithm>
#include <string>

namespace cute_cpp::kernels {

/// A group's operands in memory: where group g's rows and weight begin.
template <class Plan>
struct GroupedOperands {
  typename Plan::TA const* a;
  std::int64_t lda;
  typename Plan::TB const* b;
  std::int64_t b_group_stride;
  typename Plan::TC* c;
  std::int64_t ldc;
  GroupedPointers pointers;  ///< pointer-array groups: these instead of a, b and c
};

/// Copies `map` to `dst` in global memory, then points it at `base` and, for rows >= 0, ends its
/// outer (row) extent at `rows` (at least 1: a group without rows has no tiles that read it).
template <class Map>
__device__ __forceinline__ void write_group_map(std::byte* dst, Map const& map, void const* base, std::int64_t rows) {
  auto const* src = reinterpret_cast<uint4 const*>(&map);
#pragma unroll
  for (int i = 0; i < 8; ++i) reinterpret_cast<uint4*>(dst)[i] = src[i];
  tensor_map_replace_address(dst, base);
  if (rows >= 0) tensor_map_replace_extent<1>(dst, std::uint32_t(rows > 0 ? rows : 1));
}

/// The prepare step (one CTA of 1024 threads, a group per thread at a time): checks each group's
/// rows, counts its tile rows (an exclusive scan gives each group's first), writes its maps and
/// its part of the table; tile rows past the last group, or all of them if any group's rows are
/// wrong (the status says which), are left empty, so the GEMM writes nothing it should not.
template <class Plan>
__global__ void __launch_bounds__(1024, 1)
grouped_gemm_prepare(const __grid_constant__ typename Plan::MapA map_a, const __grid_constant__ typename Plan::MapB map_b,
                     const __grid_constant__ typename Plan::MapC map_c, GroupedRows const groups,
                     GroupedOperands<Plan> const operands, std::byte* const workspace, std::int32_t const tile_rows) {
  // The GEMM may start its prologue; it waits for this grid before it reads the table. This grid
  // reads the group offsets or counts its predecessor (a routing kernel) writes, so it waits too.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  GroupedWorkspaceLayout const layout(groups.groups, tile_rows);
  auto* const status = reinterpret_cast<GroupedStatus*>(workspace + layout.status_offset);
  std::byte* const maps = workspace + layout.maps_offset;
  auto* const table = reinterpret_cast<GroupedTileRow*>(workspace + layout.table_offset);
  __shared__ std::int32_t warp_sums[32];
  __shared__ std::int32_t carry;  // tile rows of the groups before this chunk
  int const t = int(threadIdx.x), lane = t % 32, warp = t / 32, warps = int(blockDim.x) / 32;
  if (t == 0) {
    *status = GroupedStatus{};
    carry = 0;
  }
  __syncthreads();
  for (int base = 0; base < groups.groups; base += int(blockDim.x)) {
    int const g = base + t;
    GroupRows r;
    void const *a_base = nullptr, *b_base = nullptr, *c_base = nullptr;
    if (g < groups.groups) {
      r = group_rows(groups, g);
      if (operands.pointers.given()) {
        a_base = operands.pointers.a[g], b_base = operands.pointers.b[g], c_base = operands.pointers.c[g];
        r.first = 0;
        auto const misaligned = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
        if (r.error == GroupedStatus::ok && (misaligned(a_base) || misaligned(b_base) || misaligned(c_base))) {
          r.error = GroupedStatus::pointer_misaligned, r.rows = 0;
        }
      } else {
        // A group without rows keeps the dense bases (its first row may lie past A and C).
        std::int64_t const first_row = r.rows > 0 ? r.first : 0;
        a_base = operands.a + first_row * operands.lda;
        b_base = operands.b + std::int64_t(g) * operands.b_group_stride;
        c_base = operands.c + first_row * operands.ldc;
      }
    }
    if (r.error != GroupedStatus::ok && atomicCAS(&status->code, GroupedStatus::ok, r.error) == GroupedStatus::ok) {
      status->group = g;
      status->value = r.value;
    }
    auto const tiles = std::int32_t((r.rows + Plan::block_m - 1) / Plan::block_m);
    std::int32_t x = tiles;  // inclusive scan within the warp, then over the warps' sums
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      std::int32_t const y = __shfl_up_sync(~0u, x, d);
      if (lane >= d) x += y;
    }
    if (lane == 31) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
      std::int32_t w = lane < warps ? warp_sums[lane] : 0;
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        std::int32_t const y = __shfl_up_sync(~0u, w, d);
        if (lane >= d) w += y;
      }
      warp_sums[lane] = w;
    }
    __syncthreads();
    std::int32_t const first = carry + (warp > 0 ? warp_sums[warp - 1] : 0) + x - tiles;
    if (g < groups.groups) {
      std::byte* const mine = maps + std::size_t(g) * GroupedTiles::maps_per_group * 128;
      write_group_map(mine, map_a, a_base, r.rows);
      write_group_map(mine + 128, map_b, b_base, -1);
      write_group_map(mine + 256, map_c, c_base, r.rows);
      for (std::int32_t i = 0; i < tiles; ++i)
        table[first + i] = GroupedTileRow{g, i * Plan::block_m, std::int32_t(r.rows), std::int32_t(r.first)};
    }
    __syncthreads();  // every thread has read carry and the warps' sums
    if (t == 0) carry += warp_sums[warps - 1];
    __syncthreads();
  }
  bool const wrong = *static_cast<std::int32_t volatile*>(&status->code) != GroupedStatus::ok;
  for (std::int32_t i = (wrong ? 0 : carry) + t; i < tile_rows; i += std::int32_t(blockDim.x)) table[i] = GroupedTileRow{};
  // The maps were written through the generic proxy; the GEMM's TMA reads them.
  tensor_map_release();
}

template <class Plan>
void run_grouped_gemm(GroupedGemmArguments<Plan> const& args, cudaStream_t stream) {
  static_assert(Plan::grouped, "cute-cpp [gemm.grouped]: run_grouped_gemm takes a plan with GemmConfig::grouped");
  static_assert(verify_plan<Plan>());
  using host::argument_error;
  GroupedRows const& rows = args.rows;
  GemmArguments<Plan> gemm = args.gemm;
  if (rows.groups < 1)
    argument_error("grouped.groups", "at least one group (got " + std::to_string(rows.groups) + ")");
  if ((rows.offsets == nullptr) == (rows.counts == nullptr))
    argument_error("grouped.rows", "give either offsets (contiguous groups) or counts (masked groups), not both");
  if (rows.masked() && (rows.capacity < 1 || rows.rows != rows.groups * rows.capacity))
    argument_error("grouped.rows", "masked groups: A and C hold groups x capacity rows (got " + std::to_string(rows.rows) +
                                       " rows, " + std::to_string(rows.groups) + " groups of capacity " +
                                       std::to_string(rows.capacity) + ")");
  if (rows.rows != gemm.m)
    argument_error("grouped.rows", "the rows of A and C (gemm.m = " + std::to_string(gemm.m) +
                                       ") must be the groups' rows (rows.rows = " + std::to_string(rows.rows) + ")");
  if (rows.rows >= (std::int64_t{1} << 31) - Plan::block_m || rows.tile_rows(Plan::block_m) * Plan::block_m >= (std::int64_t{1} << 31))
    argument_error("grouped.rows", "the groups' rows must stay below 2^31 (got " + std::to_string(rows.rows) + ")");
  bool const pointer_array = args.pointers.given();
  if (pointer_array) {
    if (args.pointers.a == nullptr || args.pointers.b == nullptr || args.pointers.c == nullptr || !rows.masked())
      argument_error("grouped.pointers", "pointer-array groups give all three arrays (A, B and C) and masked rows "
                                         "(counts and a capacity)");
    // The template maps' bases: never read (each group's own replace them), far apart so that the
    // dense checks below hold.
    constexpr std::uintptr_t apart = std::uintptr_t{1} << 44;
    gemm.a = reinterpret_cast<typename Plan::TA const*>(apart);
    gemm.b = reinterpret_cast<typename Plan::TB const*>(2 * apart);
    gemm.c = reinterpret_cast<typename Plan::TC*>(3 * apart);
  }
  check_gemm_arguments(gemm, Plan::major_a, Plan::major_b, Plan::layout_c, Plan::gated);
  if (!pointer_array && rows.groups > 1 && args.b_group_stride < gemm.n * gemm.ldb)
    argument_error("grouped.b-stride", "B's groups overlap: b_group_stride (" + std::to_string(args.b_group_stride) +
                                           ") is below n x ldb (" + std::to_string(gemm.n * gemm.ldb) + ")");
  if ((std::uint64_t(args.b_group_stride) * sizeof(typename Plan::TB)) % 16 != 0)
    argument_error("tma.global.address", "b_group_stride (" + std::to_string(args.b_group_stride) +
                                             " elements) must be a multiple of 16 bytes: each group's B is a TMA base");
  check_plan_shape<Plan>(gemm.n, gemm.k);
  std::int64_t const tile_rows = rows.tile_rows(Plan::block_m);
  GroupedWorkspaceLayout const layout(rows.groups, tile_rows);
  if (gemm.workspace == nullptr || gemm.workspace_bytes < layout.bytes)
    argument_error("grouped.workspace", "a grouped GEMM needs a workspace of " + std::to_string(layout.bytes) +
                                            " bytes (grouped_gemm_workspace_bytes; got " +
                                            std::to_string(gemm.workspace_bytes) + ")");
  if (reinterpret_cast<std::uintptr_t>(gemm.workspace) % 128 != 0)
    argument_error("grouped.workspace", "the workspace must be 128-byte aligned (it holds tensor maps)");
  void const* const group_array = rows.masked() ? static_cast<void const*>(rows.counts) : rows.offsets;
  host::PointerArgument const pointers[] = {
      {"A", pointer_array ? static_cast<void const*>(args.pointers.a) : gemm.a},
      {"B", pointer_array ? static_cast<void const*>(args.pointers.b) : gemm.b},
      {"C", pointer_array ? static_cast<void const*>(args.pointers.c) : gemm.c},
      {rows.masked() ? "counts" : "offsets", group_array},
      {"workspace", gemm.workspace}};
  host::check_device_pointers("gemm", pointers, stream);
  host::check_stream("gemm", stream);
  check_block_scales(gemm.block_scales, Plan::block_scaled, stream);
  check_output_scales(gemm.output_scales, Plan::quantized_output, stream);
  if (Plan::block_scaled && rows.groups > 1 &&
      gemm.block_scales.b_group_stride < (gemm.n + Plan::block_n - 1) / Plan::block_n * gemm.block_scales.b_row_stride)
    argument_error("gemm.block-scales", "B's scales of one group overlap the next: b_group_stride (" +
                                            std::to_string(gemm.block_scales.b_group_stride) +
                                            ") is below its blocks of 128 rows times b_row_stride");

  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
  std::int64_t const c_cols = Plan::gated ? gemm.n / 2 : gemm.n;
  // The dense maps over every group's rows (and group 0's B): the templates the prepare step patches.
  auto const a_map = host::create_tensor_map_tiled<TA, typename Plan::ASmemLoad>(gemm.a, gemm.m, gemm.k, gemm.lda);
  auto const b_map = host::create_tensor_map_tiled<TB, typename Plan::BSmemLoad>(gemm.b, gemm.n, gemm.k, gemm.ldb);
  auto const c_map =
      host::create_tensor_map_tiled<TC, typename Plan::OutputStore::Chunk>(gemm.c, gemm.m, c_cols, gemm.ldc);
  // The walk: every tile row the groups can have, whole tiles (no split-K: no workspace for it),
  // row by row, so the empty tile rows past the last group are its tail: the kernel's roles stop
  // at the first (PingPong's turns count only tiles that run).
  GemmArguments<Plan> walk = gemm;
  walk.m = tile_rows * Plan::block_m;
  walk.raster_group_rows = 1;
  GemmSchedule const schedule = gemm_schedule<Plan>(walk, Decomposition::DataParallel);
  auto* const workspace = static_cast<std::byte*>(gemm.workspace);

  host::LaunchConfig prepare;
  prepare.grid = dim3(1);
  prepare.block = dim3(1024);
  prepare.stream = stream;
  host::launch(&grouped_gemm_prepare<Plan>, "grouped_gemm_prepare", prepare, a_map, b_map, c_map, rows,
               GroupedOperands<Plan>{gemm.a, gemm.lda, gemm.b, args.b_group_stride, gemm.c, gemm.ldc, args.pointers},
               workspace,
               std::int32_t(tile_rows));
  auto const grid = StaticPersistentTileScheduler::get_grid_shape(schedule.tiles, schedule.resident_ctas);
  auto config = gemm_launch_config<Plan>(unsigned(grid), stream);
  config.programmatic_dependent_launch = true;
  GroupedTiles const grouped{reinterpret_cast<GroupedTileRow const*>(workspace + layout.table_offset),
                             workspace + layout.maps_offset};
  host::launch(&gemm_kernel<Plan>, "gemm_sm90 grouped", config, a_map, b_map, c_map, gemm.epilogue_op, gemm.m, c_cols,
               schedule.tiles, SplitKWorkspace{}, IndependentOperand::None, gemm.block_scales, gemm.output_scales,
               grouped);
}

}  // namespace cute_cpp::kernels
