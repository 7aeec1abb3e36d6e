// SPDX-License-Identifier: Apache-2.0
// The debug-build pipeline wait [pipeline.wait-timeout]: a completed phase returns; a phase nobody completes traps
// (after a short bound here) instead of hanging. Its own program: a trap ends the CUDA context.
#undef NDEBUG  // the bounded wait exists in debug builds only
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/pipeline/pipeline_async.hpp>

#include <gtest/gtest.h>

#include "gpu/has_device.hpp"

namespace {
__global__ void wait_on(int arrivals, int* done) {
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) ctm::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0 && arrivals > 0) ctm::mbarrier_arrive(&bar);
  if (threadIdx.x == 0) {
    cute_cpp::detail::pipeline_wait<(1ll << 24)>(&bar, 0, "test pipeline", "full", 0);
    *done = 1;
  }
}

using cute_cpp::test::has_device;
}  // namespace

TEST(PipelineWait, ACompletedPhaseReturnsThenAHangTraps) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  cute_cpp::host::DeviceBuffer<int> done(1);
  done.fill_bytes(0);
  wait_on<<<1, 32>>>(1, done.data());
  cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  EXPECT_EQ(done.download()[0], 1);
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "the hang that traps: not under compute-sanitizer";
  done.fill_bytes(0);
  wait_on<<<1, 32>>>(0, done.data());
  cudaError_t const result = cudaDeviceSynchronize();
  EXPECT_NE(result, cudaSuccess) << "the wait on a phase nobody completes returned";
}
