// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace host = cute_cpp::host;

TEST(CudaError, NamesTheErrorTheCallAndTheSourceLocation) {
  int const line = __LINE__ + 2;
  try {
    host::cuda_check(cudaErrorMemoryAllocation, "cudaMalloc");
    FAIL() << "cuda_check did not throw";
  } catch (host::CudaError const& e) {
    std::string const text = e.what();
    EXPECT_NE(text.find("cudaMalloc failed: cudaErrorMemoryAllocation"), std::string::npos) << text;
    EXPECT_NE(text.find("error_test.cpp:" + std::to_string(line)), std::string::npos) << text;
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
  }
}

TEST(CudaError, SuccessDoesNotThrow) { EXPECT_NO_THROW(host::cuda_check(cudaSuccess, "cudaFree")); }

TEST(CudaError, ARealFailingCallIsReported) {
  // Copying from a null pointer fails with or without a GPU; the error must name the call.
  int value = 0;
  try {
    host::cuda_check(cudaMemcpy(&value, nullptr, sizeof value, cudaMemcpyDeviceToHost), "cudaMemcpy");
    FAIL() << "a copy from nullptr succeeded";
  } catch (host::CudaError const& e) {
    EXPECT_NE(std::string(e.what()).find("cudaMemcpy failed: cudaError"), std::string::npos) << e.what();
  }
}

TEST(CudaError, AnAllocationNamesItsBytes) {
  // Without a device the free memory is unknown and left out; with one it follows in brackets.
  std::string const call = host::allocation_call(std::size_t{1500} * 1000 * 1000);
  EXPECT_EQ(call.rfind("cudaMalloc of 1.50 GB", 0), 0u) << call;
}
