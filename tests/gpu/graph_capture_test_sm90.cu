// SPDX-License-Identifier: Apache-2.0
// The host entry points can be recorded into a CUDA graph (what a model's decode step does): their
// argument checks must not make the driver calls that a recording stream refuses, since a refused
// call invalidates the whole recording. Each case runs the calls eagerly into one output, records
// the same calls on a non-blocking stream, replays the graph into a poisoned second output and
// expects the two bitwise equal. "Cold" cases record shapes that never ran eagerly in the process
// (the first launch of a kernel configuration happens inside the recording); "programmatic" cases
// make the graph's kernel edges programmatic dependencies (PDL) first.
#include "device_fixtures.hpp"
#include "has_device.hpp"

#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/graph_pdl.hpp>

#include <ctm/common/sreg.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

namespace {

using cute_cpp::test::random_bf16;
using cute_cpp::test::Stream;

/// How a case records: cold (no eager run of its shapes first), programmatic (the graph's kernel
/// edges made programmatic dependencies, host/graph_pdl.hpp).
struct Recording {
  bool cold = false;
  bool programmatic = false;
};

/// Records `calls(out)` on `stream` and replays it once; the recording's errors are the test's failure.
void record_and_replay(std::function<void(bf16*)> const& calls, bf16* out, cudaStream_t stream, Recording how) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), cudaSuccess);
  try {
    calls(out);
  } catch (std::exception const& e) {
    (void)cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    FAIL() << "recording failed: " << e.what();
  }
  cudaError_t const end = cudaStreamEndCapture(stream, &graph);
  ASSERT_EQ(end, cudaSuccess) << cudaGetErrorString(end);
  if (how.programmatic) EXPECT_GT(host::make_kernel_edges_programmatic(graph), 0u) << "no kernel-to-kernel edge";
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
}

/// Runs `calls` eagerly (unless cold) and from a graph, into separate outputs of `n` elements.
void expect_graph_equals_eager(std::function<void(bf16*, cudaStream_t)> const& calls, std::size_t n, Recording how) {
  Stream stream;
  host::DeviceBuffer<bf16> eager(n), replayed(n);
  eager.fill_bytes(0xFF);  // NaN in bf16
  replayed.fill_bytes(0xFF);
  if (!how.cold) calls(eager.data(), stream.s);
  record_and_replay([&](bf16* out) { calls(out, stream.s); }, replayed.data(), stream.s, how);
  if (::testing::Test::HasFatalFailure()) return;
  if (how.cold) calls(eager.data(), stream.s);
  ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
  auto const a = eager.download(), b = replayed.download();
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i)
    differ += std::memcmp(&a[i], &b[i], sizeof(bf16)) != 0 ? 1 : 0;
  EXPECT_EQ(differ, 0u) << (how.cold ? "cold " : "") << (how.programmatic ? "programmatic " : "") << "recording: "
                        << differ << " of " << n
                        << " elements differ from the eager run";
}

/// An RMSNorm with residual and a GEMM on its output: a transformer layer's first two launches.
void norm_then_linear(std::int64_t m, std::int64_t n, std::int64_t k, Recording how) {
  auto const x = random_bf16(std::size_t(m * k), 1), r = random_bf16(std::size_t(m * k), 2);
  auto const g = random_bf16(std::size_t(k), 3), w = random_bf16(std::size_t(n * k), 4);
  host::DeviceBuffer<bf16> normed(std::size_t(m * k)), sum(std::size_t(m * k));
  normed.fill_bytes(0xFF);  // NaN: a GEMM that read it before the norm wrote it shows
  kn::GemmArguments<kn::plans::Bf16TN> args;
  args.a = normed.data(), args.lda = k;
  args.b = w.data(), args.ldb = k;
  args.ldc = n, args.m = m, args.n = n, args.k = k;
  args.independent = kn::IndependentOperand::B;  // the weights' first tiles are fetched before the wait
  std::size_t const workspace_bytes = kn::gemm_bf16_tn_workspace_bytes(args);
  host::DeviceBuffer<unsigned char> workspace(workspace_bytes);
  if (workspace_bytes > 0) workspace.fill_bytes(0);
  args.workspace = workspace_bytes > 0 ? workspace.data() : nullptr, args.workspace_bytes = workspace_bytes;
  expect_graph_equals_eager(
      [&](bf16* out, cudaStream_t stream) {
        kn::rmsnorm<bf16>(x.data(), r.data(), g.data(), normed.data(), sum.data(), std::size_t(m), std::size_t(k),
                          1e-6f, stream);
        auto call = args;
        call.c = out;
        kn::run_gemm_bf16_tn(call, stream);
      },
      std::size_t(m * n), how);
}

// First in the file, so that its kernels' first launches in the process happen inside the recording.
TEST(GraphCapture, NormAndLinearRecordedCold) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  for (std::int64_t m : {3, 777}) norm_then_linear(m, 2048, 768, {.cold = true});
}

TEST(GraphCapture, NormAndLinearRecordedAfterAnEagerRun) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  // Decode-like rows (the swapped skinny GEMM) and prefill-like rows (the persistent tiles).
  for (std::int64_t m : {1, 4, 300}) norm_then_linear(m, 1024, 512, {});
}

// The GEMM reads what the RMSNorm just wrote: launched as a programmatic dependent, it must wait
// for it (griddepcontrol.wait), or the replay differs. Cold, so that the normalised rows are still
// poison when the replay starts.
TEST(GraphCapture, NormAndLinearWithProgrammaticEdges) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  for (std::int64_t m : {1, 4, 300}) norm_then_linear(m, 4096, 4096, {.cold = true, .programmatic = true});
}

/// The primary: lets its dependents launch, then spins for `spin_ns` and stamps its end.
__global__ void spin_then_stamp(std::uint64_t* stamps, std::uint64_t spin_ns) {
  cute_cpp::arch::griddepcontrol_launch_dependents();
  std::uint64_t const start = ctm::globaltimer();
  while (ctm::globaltimer() - start < spin_ns) {
  }
  stamps[0] = ctm::globaltimer();
}

/// The dependent: stamps its start (a word the primary does not touch), waits, stamps again.
__global__ void stamp_wait_stamp(std::uint64_t* stamps) {
  stamps[1] = ctm::globaltimer();
  cute_cpp::arch::griddepcontrol_wait();
  stamps[2] = ctm::globaltimer();
}

/// Whether a recorded pair (primary spinning 50 us, then dependent) overlaps: the dependent's
/// start stamped before the primary's end, and its wait returning only after that end.
void expect_overlap(bool programmatic) {
  Stream stream;
  host::DeviceBuffer<std::uint64_t> stamps(3);
  stamps.fill_bytes(0);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeRelaxed), cudaSuccess);
  spin_then_stamp<<<1, 32, 0, stream.s>>>(stamps.data(), 50'000);
  stamp_wait_stamp<<<1, 32, 0, stream.s>>>(stamps.data());
  ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);
  if (programmatic) EXPECT_EQ(host::make_kernel_edges_programmatic(graph), 1u);
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int replay = 0; replay < 3; ++replay) ASSERT_EQ(cudaGraphLaunch(exec, stream.s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  std::uint64_t t[3] = {};
  ASSERT_EQ(cudaMemcpy(t, stamps.data(), sizeof(t), cudaMemcpyDeviceToHost), cudaSuccess);
  if (cute_cpp::test::under_sanitizer()) {
    // compute-sanitizer runs one kernel at a time: only the ordering below holds there.
  } else if (programmatic) {
    EXPECT_LT(t[1], t[0]) << "the dependent started " << (t[1] - t[0]) << " ns after the primary ended";
  } else {
    EXPECT_GE(t[1], t[0]) << "a plain edge let the dependent start early";
  }
  EXPECT_GE(t[2], t[0]) << "griddepcontrol.wait returned before the primary ended";
}

/// Another library's kernel as far as the graph knows: no griddepcontrol call (NCCL's collectives).
__global__ void foreign_kernel(std::uint64_t* stamps) { stamps[3] = stamps[0]; }

/// ours, foreign, ours, ours recorded; the foreign launch's nodes named by nodes_added_by. Only the
/// edge between the last two (both ours) may become programmatic; without the predicate all three do.
void expect_foreign_edges_full(bool name_foreign) {
  Stream stream;
  host::DeviceBuffer<std::uint64_t> stamps(4);
  stamps.fill_bytes(0);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream.s, cudaStreamCaptureModeRelaxed), cudaSuccess);
  spin_then_stamp<<<1, 32, 0, stream.s>>>(stamps.data(), 1'000);
  std::vector<cudaGraphNode_t> const foreign =
      host::nodes_added_by(stream.s, [&] { foreign_kernel<<<1, 1, 0, stream.s>>>(stamps.data()); });
  stamp_wait_stamp<<<1, 32, 0, stream.s>>>(stamps.data());
  stamp_wait_stamp<<<1, 32, 0, stream.s>>>(stamps.data());
  ASSERT_EQ(cudaStreamEndCapture(stream.s, &graph), cudaSuccess);
  EXPECT_EQ(foreign.size(), 1u);
  std::size_t const changed = name_foreign ? host::make_kernel_edges_programmatic(graph, host::AllBut{foreign})
                                           : host::make_kernel_edges_programmatic(graph);
  EXPECT_EQ(changed, name_foreign ? 1u : 3u);
  (void)cudaGraphDestroy(graph);
  // Outside a capture the call runs and adds nothing.
  EXPECT_TRUE(host::nodes_added_by(stream.s, [&] { foreign_kernel<<<1, 1, 0, stream.s>>>(stamps.data()); }).empty());
  ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
}

}  // namespace

// A rank's decode graph holds NCCL's kernels, which do not wait: the edges into and out of them stay
// full dependencies, the others between our kernels become programmatic.
TEST(GraphCapture, ForeignKernelsKeepFullEdges) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  expect_foreign_edges_full(false);
  expect_foreign_edges_full(true);
}

// What PDL buys: across a programmatic edge the dependent launches while the primary runs (its
// prologue overlaps), and its griddepcontrol.wait still orders it after the primary.
TEST(GraphCapture, ProgrammaticEdgeStartsTheDependentEarly) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  expect_overlap(false);
  expect_overlap(true);
}

// host::record_graph, as the models record their decode steps and frames: a recording that works
// gives a graph that replays (its kernel edges programmatic, the wait still ordering); calls that
// throw mid-recording give no graph, their message, and leave the stream usable for the eager run.
TEST(GraphCapture, RecordGraphInstantiatesOrReportsTheFailure) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  Stream stream;
  host::DeviceBuffer<std::uint64_t> stamps(3);
  stamps.fill_bytes(0);
  host::RecordedGraph const r = host::record_graph(stream.s, true, [&] {
    spin_then_stamp<<<1, 32, 0, stream.s>>>(stamps.data(), 20'000);
    stamp_wait_stamp<<<1, 32, 0, stream.s>>>(stamps.data());
  });
  ASSERT_NE(r.exec, nullptr) << cudaGetErrorString(r.error) << " " << r.what;
  EXPECT_EQ(r.error, cudaSuccess);
  EXPECT_TRUE(r.what.empty());
  ASSERT_EQ(cudaGraphLaunch(r.exec, stream.s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
  (void)cudaGraphExecDestroy(r.exec);
  std::uint64_t t[3] = {};
  ASSERT_EQ(cudaMemcpy(t, stamps.data(), sizeof(t), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_GE(t[2], t[0]) << "griddepcontrol.wait returned before the primary ended";

  host::RecordedGraph const failed = host::record_graph(stream.s, true, [&] {
    spin_then_stamp<<<1, 32, 0, stream.s>>>(stamps.data(), 1'000);
    throw std::runtime_error("refused");
  });
  EXPECT_EQ(failed.exec, nullptr);
  EXPECT_EQ(failed.error, cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(failed.what, "refused");
  spin_then_stamp<<<1, 32, 0, stream.s>>>(stamps.data(), 1'000);
  EXPECT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
