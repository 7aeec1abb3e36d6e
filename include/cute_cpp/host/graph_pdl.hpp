// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Programmatic dependent launch for a recorded CUDA graph: its kernel-to-kernel edges become
// programmatic dependencies, so that each kernel launches while its predecessor still runs (its
// CTAs are placed and its prologue runs) and waits in griddepcontrol.wait for the predecessor's
// memory. A chain of short kernels (a decode step) then loses most of its launch gaps.
// The contract: every kernel of the graph calls griddepcontrol.wait before it touches global
// memory that a predecessor reads or writes (the kernels of examples/ and models/ do, and call
// griddepcontrol.launch_dependents early); a kernel that does not would race with its predecessor.
#include <cute_cpp/host/error.hpp>  // cuda_check

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace cute_cpp::host {

/// Makes every plain edge between two kernel nodes of `graph` programmatic (edges to or from other
/// nodes, memory copies and sets, stay full dependencies). Returns how many edges changed.
inline std::size_t make_kernel_edges_programmatic(cudaGraph_t graph) {
  std::size_t count = 0;
  cuda_check(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count), "cudaGraphGetEdges(count)");
  std::vector<cudaGraphNode_t> from(count), to(count);
  std::vector<cudaGraphEdgeData> data(count);
  cuda_check(cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &count), "cudaGraphGetEdges");
  auto const is_kernel = [](cudaGraphNode_t node) {
    cudaGraphNodeType type{};
    cuda_check(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
    return type == cudaGraphNodeTypeKernel;
  };
  std::size_t changed = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (data[i].type != cudaGraphDependencyTypeDefault || data[i].from_port != 0) continue;
    if (!is_kernel(from[i]) || !is_kernel(to[i])) continue;
    cudaGraphEdgeData programmatic{};
    programmatic.from_port = cudaGraphKernelNodePortProgrammatic;
    programmatic.type = cudaGraphDependencyTypeProgrammatic;
    cuda_check(cudaGraphRemoveDependencies(graph, &from[i], &to[i], &data[i], 1), "cudaGraphRemoveDependencies");
    cuda_check(cudaGraphAddDependencies(graph, &from[i], &to[i], &programmatic, 1), "cudaGraphAddDependencies");
    ++changed;
  }
  return changed;
}

}  // namespace cute_cpp::host
