// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Programmatic dependent launch for a recorded CUDA graph: its kernel-to-kernel edges become
// programmatic dependencies, so that each kernel launches while its predecessor still runs (its
// CTAs are placed and its prologue runs) and waits in griddepcontrol.wait for the predecessor's
// memory. A chain of short kernels (a decode step) then loses most of its launch gaps.
// The contract: every kernel of the graph calls griddepcontrol.wait before it touches global
// memory that a predecessor reads or writes (the kernels of kernels/ and models/ do, and call
// griddepcontrol.launch_dependents early); a kernel that does not would race with its predecessor.
// Another library's kernels recorded into the same graph (NCCL's collectives) do not wait: the
// caller names them (nodes_added_by records the nodes a call adds to a capture) and every edge into
// or out of them stays a full dependency.
#include <cute_cpp/host/error.hpp>  // cuda_check

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <span>
#include <string>
#include <vector>

namespace cute_cpp::host {

/// What an edge joins: whether each end is a kernel node, and whether that kernel is one of ours
/// (it calls griddepcontrol.wait; a node that is not a kernel is never "ours").
struct EdgeEnds {
  bool from_kernel = false, to_kernel = false;
  bool from_ours = false, to_ours = false;
};

/// Whether make_kernel_edges_programmatic turns the edge `data` between `ends` programmatic: a plain
/// edge (default type, port 0) between two kernels that are both ours. Host arithmetic (CPU-tested).
[[nodiscard]] constexpr bool becomes_programmatic(cudaGraphEdgeData const& data, EdgeEnds const& ends) {
  bool const plain = data.type == cudaGraphDependencyTypeDefault && data.from_port == 0;
  return plain && ends.from_kernel && ends.to_kernel && ends.from_ours && ends.to_ours;
}

/// The nodes of `after` that are not in `before`: what a call added to a graph under capture
/// (nodes are only added while capturing, so `before` is a subset of `after`).
[[nodiscard]] inline std::vector<cudaGraphNode_t> added_nodes(std::span<cudaGraphNode_t const> before,
                                                              std::span<cudaGraphNode_t const> after) {
  std::vector<cudaGraphNode_t> old(before.begin(), before.end());
  std::sort(old.begin(), old.end());
  std::vector<cudaGraphNode_t> added;
  for (cudaGraphNode_t n : after)
    if (!std::binary_search(old.begin(), old.end(), n)) added.push_back(n);
  return added;
}

/// The nodes of `graph`.
[[nodiscard]] inline std::vector<cudaGraphNode_t> graph_nodes(cudaGraph_t graph) {
  std::size_t count = 0;
  cuda_check(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes(count)");
  std::vector<cudaGraphNode_t> nodes(count);
  if (count > 0) cuda_check(cudaGraphGetNodes(graph, nodes.data(), &count), "cudaGraphGetNodes");
  nodes.resize(count);
  return nodes;
}

/// Calls `enqueue()` and returns the nodes it added to the graph `stream` is capturing into (none
/// when `stream` is not capturing): another library's launches (a collective), whose edges
/// make_kernel_edges_programmatic must leave full dependencies. Reading the graph under capture is
/// allowed (cudaStreamGetCaptureInfo: every operation but destroying it and removing nodes).
template <class Enqueue>
std::vector<cudaGraphNode_t> nodes_added_by(cudaStream_t stream, Enqueue&& enqueue) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  cuda_check(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph), "cudaStreamGetCaptureInfo");
  if (status != cudaStreamCaptureStatusActive || graph == nullptr) {
    enqueue();
    return {};
  }
  std::vector<cudaGraphNode_t> const before = graph_nodes(graph);
  enqueue();
  return added_nodes(before, graph_nodes(graph));
}

/// Makes every plain edge between two kernel nodes of `graph` that `ours(node)` accepts programmatic
/// (edges to or from other nodes, memory copies and sets, and kernels `ours` refuses, stay full
/// dependencies). Returns how many edges changed.
template <class Ours>
std::size_t make_kernel_edges_programmatic(cudaGraph_t graph, Ours&& ours) {
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
    EdgeEnds ends;
    ends.from_kernel = is_kernel(from[i]), ends.to_kernel = is_kernel(to[i]);
    ends.from_ours = ends.from_kernel && ours(from[i]), ends.to_ours = ends.to_kernel && ours(to[i]);
    if (!becomes_programmatic(data[i], ends)) continue;
    cudaGraphEdgeData programmatic{};
    programmatic.from_port = cudaGraphKernelNodePortProgrammatic;
    programmatic.type = cudaGraphDependencyTypeProgrammatic;
    cuda_check(cudaGraphRemoveDependencies(graph, &from[i], &to[i], &data[i], 1), "cudaGraphRemoveDependencies");
    cuda_check(cudaGraphAddDependencies(graph, &from[i], &to[i], &programmatic, 1), "cudaGraphAddDependencies");
    ++changed;
  }
  return changed;
}

/// Makes every plain edge between two kernel nodes of `graph` programmatic: every kernel of the
/// graph is ours (the file comment's contract). Returns how many edges changed.
inline std::size_t make_kernel_edges_programmatic(cudaGraph_t graph) {
  return make_kernel_edges_programmatic(graph, [](cudaGraphNode_t) { return true; });
}

/// A predicate for make_kernel_edges_programmatic: every kernel is ours except `foreign`'s nodes
/// (nodes_added_by's, gathered over a recording).
struct AllBut {
  std::span<cudaGraphNode_t const> foreign;
  [[nodiscard]] bool operator()(cudaGraphNode_t node) const {
    return std::find(foreign.begin(), foreign.end(), node) == foreign.end();
  }
};

/// What record_graph made: the executable graph, or none with the error (the capture's, the
/// instantiation's, or cudaErrorStreamCaptureInvalidated where the recorded calls threw: their
/// message in `what`).
struct RecordedGraph {
  cudaGraphExec_t exec = nullptr;
  cudaError_t error = cudaSuccess;
  std::string what;
};

/// What capture_graph made: the recorded graph (the caller owns it: cudaGraphDestroy), or none with
/// the error as RecordedGraph's.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaError_t error = cudaSuccess;
  std::string what;
};

/// `enqueue()`'s launches on `stream` recorded as a graph (relaxed capture); with `programmatic`,
/// its kernel edges made programmatic where `ours` accepts both ends (make_kernel_edges_programmatic;
/// `ours` runs after the recording, so it may read nodes the recording gathered, nodes_added_by's).
/// A failure returns no graph and leaves no error pending.
template <class Ours, class Enqueue>
CapturedGraph capture_graph(cudaStream_t stream, bool programmatic, Ours&& ours, Enqueue&& enqueue) {
  CapturedGraph r;
  r.error = cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
  if (r.error == cudaSuccess) {
    try {
      enqueue();
    } catch (std::exception const& e) {  // a partial graph must not be replayed
      r.what = e.what();
    } catch (...) {
      r.what = "a non-standard exception";
    }
    cudaError_t const ended = cudaStreamEndCapture(stream, &r.graph);
    r.error = !r.what.empty() || (ended == cudaSuccess && r.graph == nullptr) ? cudaErrorStreamCaptureInvalidated : ended;
  }
  try {
    if (r.error == cudaSuccess && programmatic) make_kernel_edges_programmatic(r.graph, ours);
  } catch (std::exception const& e) {
    r.error = cudaErrorInvalidValue, r.what = e.what();
  }
  if (r.error != cudaSuccess) {
    if (r.graph != nullptr) (void)cudaGraphDestroy(r.graph);
    r.graph = nullptr;
    (void)cudaGetLastError();
  }
  return r;
}

/// `enqueue()`'s launches on `stream` recorded as a graph and instantiated (capture_graph, then
/// cudaGraphInstantiate). A failure returns no graph and leaves no error pending. The caller owns
/// exec (cudaGraphExecDestroy).
template <class Ours, class Enqueue>
RecordedGraph record_graph(cudaStream_t stream, bool programmatic, Ours&& ours, Enqueue&& enqueue) {
  CapturedGraph const captured = capture_graph(stream, programmatic, ours, enqueue);
  RecordedGraph r{nullptr, captured.error, captured.what};
  if (r.error == cudaSuccess) r.error = cudaGraphInstantiate(&r.exec, captured.graph, 0);
  if (captured.graph != nullptr) (void)cudaGraphDestroy(captured.graph);
  if (r.error != cudaSuccess) {
    if (r.exec != nullptr) (void)cudaGraphExecDestroy(r.exec);
    r.exec = nullptr;
    (void)cudaGetLastError();
  }
  return r;
}

/// record_graph with every kernel of the recording ours (the file comment's contract).
template <class Enqueue>
RecordedGraph record_graph(cudaStream_t stream, bool programmatic, Enqueue&& enqueue) {
  return record_graph(stream, programmatic, [](cudaGraphNode_t) { return true; }, enqueue);
}

}  // namespace cute_cpp::host
