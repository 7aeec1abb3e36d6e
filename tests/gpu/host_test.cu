// SPDX-License-Identifier: Apache-2.0
// The host runtime on a real device: the run-time target check, launch, errors from launches.
#include <cute_cpp/host.hpp>

#include <gtest/gtest.h>

#include "gpu/has_device.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace host = cute_cpp::host;

namespace {
__global__ void iota_kernel(int* out, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * i + 1;
}

using cute_cpp::test::has_device;
}  // namespace

TEST(GpuTargetCheck, TheBuiltTargetRunsHere) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  EXPECT_NO_THROW(host::check_kernel_target(reinterpret_cast<void const*>(&iota_kernel), "iota"));
}

TEST(GpuTargetCheck, ABinaryWithoutThisTargetIsRejectedNamingTheDevice) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  auto const device = host::current_device();
  std::string const other = host::target_for(device.major, device.minor) == "90a" ? "100a,120a" : "90a";
  try {
    host::check_kernel_target(reinterpret_cast<void const*>(&iota_kernel), "iota", other);
    FAIL() << "no error";
  } catch (std::runtime_error const& e) {
    std::string const text = e.what();
    EXPECT_NE(text.find(host::describe_device(device)), std::string::npos) << text;
    EXPECT_NE(text.find("carries code for " + other), std::string::npos) << text;
  }
}

TEST(GpuLaunch, LaunchesAndWritesEveryElement) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  int const n = 100003;
  host::DeviceBuffer<int> out(n);
  out.fill_bytes(0xFF);
  host::LaunchConfig config;
  config.grid = dim3((n + 255) / 256);
  config.block = dim3(256);
  host::launch(&iota_kernel, "iota", config, out.data(), n);
  auto const got = out.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 3 * i + 1) << "at " << i;
}

TEST(GpuLaunch, ABadLaunchIsACudaErrorNamingTheKernel) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "a refused launch: not under compute-sanitizer";
  host::DeviceBuffer<int> out(1);
  host::LaunchConfig config;
  config.block = dim3(4096);  // over the 1024-thread limit
  try {
    host::launch(&iota_kernel, "iota", config, out.data(), 1);
    FAIL() << "no error";
  } catch (host::CudaError const& e) {
    EXPECT_NE(std::string(e.what()).find("cudaLaunchKernelEx(iota) failed: cudaError"), std::string::npos)
        << e.what();
  }
}

TEST(GpuBuffer, AnAllocationTooLargeNamesItsBytesTheFreeMemoryAndTheCaller) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  std::size_t const petabyte = std::size_t{1} << 50;
  int const line = __LINE__ + 2;
  try {
    host::DeviceBuffer<std::byte> huge(petabyte);
    FAIL() << "a 1 PB allocation succeeded";
  } catch (host::CudaError const& e) {
    std::string const text = e.what();
    EXPECT_NE(text.find("cudaMalloc of 1125899.91 GB ("), std::string::npos) << text;
    EXPECT_NE(text.find(" GB free) failed: cudaErrorMemoryAllocation"), std::string::npos) << text;
    EXPECT_NE(text.find("host_test.cu:" + std::to_string(line)), std::string::npos) << text;
  }
  // The failure is not sticky: the next allocation and launch work.
  host::DeviceBuffer<int> out(256);
  iota_kernel<<<1, 256>>>(out.data(), 256);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(out.download()[255], 3 * 255 + 1);
}
