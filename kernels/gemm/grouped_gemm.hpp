// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The host-facing half of the grouped Hopper GEMM (MoE experts), declared here and instantiated
// in gemm_grouped_sm90.cu: for each group g,
//   C_g = epilogue_op(A_g B_g^T)
// where A_g and C_g are group g's rows of A and C (sched/grouped_tiles.hpp: contiguous with
// offsets, or masked with a capacity and counts, both on the device) and B_g, N x K with rows
// contiguous (a weight as nn.Linear stores it), lies b_group_stride elements after B_{g-1}.
// One launch of a small prepare kernel (the table of tile rows and each group's TMA descriptors,
// on the device) then the GEMM kernel, chained by programmatic dependent launch; the host reads
// nothing per group, so the pair can be captured in a CUDA graph.
#include <cute_cpp/kernels/gemm/gemm.hpp>

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/sched/grouped_tiles.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace cute_cpp::kernels {

/// A grouped GEMM's arguments: the GEMM's (A and C over every group's rows, gemm.m = rows.rows;
/// B is group 0's; N, K, ld*, the epilogue, the workspace) and how the groups are found.
/// With `pointers` (pointer-array groups: masked rows, rows.rows = G x capacity), gemm.a, gemm.b and
/// gemm.c are not read (may be null): each group's come from the arrays, with gemm's ld*.
template <class Plan>
struct GroupedGemmArguments {
  GemmArguments<Plan> gemm;
  GroupedRows rows;
  std::int64_t b_group_stride = 0;  ///< elements from one group's B to the next (at least n * ldb)
  GroupedPointers pointers{};
};

/// Where the prepare step's results lie in the workspace: the status, each group's three tensor
/// maps, and the table of tile rows.
struct GroupedWorkspaceLayout {
  static constexpr std::size_t status_offset = 0, maps_offset = 256;
  std::size_t table_offset = 0, bytes = 0;
  CUTE_CPP_HD constexpr GroupedWorkspaceLayout(std::int64_t groups, std::int64_t tile_rows)
      : table_offset(maps_offset + std::size_t(groups) * GroupedTiles::maps_per_group * 128),
        bytes(table_offset + std::size_t(tile_rows) * sizeof(GroupedTileRow)) {}
};

template <class Plan>
std::size_t grouped_gemm_workspace_bytes(GroupedGemmArguments<Plan> const& args) {
  return GroupedWorkspaceLayout(args.rows.groups, args.rows.tile_rows(Plan::block_m)).bytes;
}

template <class Plan>
void run_grouped_gemm(GroupedGemmArguments<Plan> const& args, cudaStream_t stream);

/// Waits for `stream` and throws the rule broken by the rows (offsets or counts) the last grouped
/// GEMM on `workspace` was given, if any: the prepare step finds them on the device and then has
/// the GEMM write nothing.
inline void grouped_gemm_check_status(void const* workspace, cudaStream_t stream) {
  GroupedStatus s;
  host::cuda_check(cudaMemcpyAsync(&s, static_cast<char const*>(workspace) + GroupedWorkspaceLayout::status_offset,
                                   sizeof s, cudaMemcpyDeviceToHost, stream),
                   "cudaMemcpyAsync");
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::string const g = std::to_string(s.group), v = std::to_string(s.value);
  switch (s.code) {
    case GroupedStatus::ok: return;
    case GroupedStatus::offsets_decrease:
      host::argument_error("grouped.offsets", "offsets[" + g + "] = " + v + " is below the end of the group before: "
                                              "offsets are non-decreasing (C was not written)");
    case GroupedStatus::offsets_past_rows:
      host::argument_error("grouped.offsets", "offsets[" + g + "] = " + v + " is past A's rows (C was not written)");
    case GroupedStatus::count_negative:
      host::argument_error("grouped.counts", "counts[" + g + "] = " + v + " is negative (C was not written)");
    case GroupedStatus::count_over_capacity:
      host::argument_error("grouped.counts", "counts[" + g + "] = " + v + " is over the capacity (C was not written)");
    case GroupedStatus::pointer_misaligned:
      host::argument_error("grouped.pointers", "group " + g + "'s A, B or C is not 16-byte aligned (TMA; C was not "
                                               "written)");
    default: host::argument_error("grouped.status", "unknown status " + std::to_string(s.code));
  }
}

}  // namespace cute_cpp::kernels
