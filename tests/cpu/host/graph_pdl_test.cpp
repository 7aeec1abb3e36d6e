// SPDX-License-Identifier: Apache-2.0
// host/graph_pdl.hpp's host arithmetic: which graph edges become programmatic (only plain edges
// between two kernels that are both ours: never into or out of another library's kernel, as NCCL's
// collectives are) and which nodes a call added to a capture. The graph walk itself needs a device
// (tests/gpu/graph_capture_test_sm90.cu).
#include <cute_cpp/host/graph_pdl.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace host = cute_cpp::host;

namespace {

cudaGraphEdgeData plain() { return cudaGraphEdgeData{}; }

/// Stand-in node handles: only their identity matters here.
cudaGraphNode_t node(std::uintptr_t id) { return reinterpret_cast<cudaGraphNode_t>(id * 64); }

}  // namespace

TEST(GraphPdl, OnlyPlainEdgesBetweenTwoOfOurKernelsBecomeProgrammatic) {
  host::EdgeEnds const ours{.from_kernel = true, .to_kernel = true, .from_ours = true, .to_ours = true};
  EXPECT_TRUE(host::becomes_programmatic(plain(), ours));
  // Into or out of another library's kernel (NCCL's all-reduce, which does not wait): full.
  EXPECT_FALSE(host::becomes_programmatic(plain(), {.from_kernel = true, .to_kernel = true, .from_ours = false,
                                                    .to_ours = true}));
  EXPECT_FALSE(host::becomes_programmatic(plain(), {.from_kernel = true, .to_kernel = true, .from_ours = true,
                                                    .to_ours = false}));
  // To or from a node that is not a kernel (a copy, a memset, an event): full.
  EXPECT_FALSE(host::becomes_programmatic(plain(), {.from_kernel = false, .to_kernel = true, .from_ours = false,
                                                    .to_ours = true}));
  EXPECT_FALSE(host::becomes_programmatic(plain(), {.from_kernel = true, .to_kernel = false, .from_ours = true,
                                                    .to_ours = false}));
  // An edge that is already programmatic, or leaves another port, is left as it is.
  cudaGraphEdgeData programmatic{};
  programmatic.type = cudaGraphDependencyTypeProgrammatic;
  programmatic.from_port = cudaGraphKernelNodePortProgrammatic;
  EXPECT_FALSE(host::becomes_programmatic(programmatic, ours));
  cudaGraphEdgeData launch_port{};
  launch_port.from_port = cudaGraphKernelNodePortLaunchCompletion;
  EXPECT_FALSE(host::becomes_programmatic(launch_port, ours));
}

TEST(GraphPdl, AddedNodesAreTheNewOnesInAnyOrder) {
  std::vector<cudaGraphNode_t> const before{node(3), node(1), node(2)};
  std::vector<cudaGraphNode_t> const after{node(2), node(7), node(1), node(3), node(5)};
  EXPECT_EQ(host::added_nodes(before, after), (std::vector<cudaGraphNode_t>{node(7), node(5)}));
  EXPECT_TRUE(host::added_nodes(before, before).empty());
  EXPECT_EQ(host::added_nodes({}, before), before);
}

TEST(GraphPdl, AllButRefusesOnlyTheForeignNodes) {
  std::vector<cudaGraphNode_t> const foreign{node(4), node(9)};
  host::AllBut const ours{foreign};
  EXPECT_TRUE(ours(node(1)));
  EXPECT_FALSE(ours(node(4)));
  EXPECT_FALSE(ours(node(9)));
  EXPECT_TRUE(host::AllBut{}(node(4)));  // one device: no foreign node, every kernel is ours
}
