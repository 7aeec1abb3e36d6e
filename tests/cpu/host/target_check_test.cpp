// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/host/target_check.hpp>

#include <gtest/gtest.h>

#include <string>

namespace host = cute_cpp::host;

namespace {
std::string rejection(host::DeviceInfo const& device, std::string_view targets) {
  try {
    host::check_device_supported(device, targets, "add");
  } catch (std::runtime_error const& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(TargetCheck, MapsComputeCapabilityToTarget) {
  EXPECT_EQ(host::target_for(9, 0), "90a");
  EXPECT_EQ(host::target_for(10, 0), "100a");
  EXPECT_EQ(host::target_for(12, 0), "120a");
  EXPECT_EQ(host::target_for(8, 0), "");
  EXPECT_EQ(host::target_for(10, 3), "");
  EXPECT_EQ(host::target_for(12, 1), "");
}

TEST(TargetCheck, AcceptsADeviceTheBinaryCarries) {
  EXPECT_NO_THROW(host::check_device_supported({"NVIDIA H200", 9, 0}, "90a,100a,120a"));
  EXPECT_NO_THROW(host::check_device_supported({"NVIDIA B200", 10, 0}, "100a"));
}

TEST(TargetCheck, RejectsASupportedDeviceTheBinaryDoesNotCarry) {
  auto const text = rejection({"NVIDIA H200", 9, 0}, "100a,120a");
  EXPECT_NE(text.find("cute-cpp [target.device]: kernel add cannot run on device NVIDIA H200, sm_90"),
            std::string::npos) << text;
  EXPECT_NE(text.find("carries code for 100a,120a"), std::string::npos) << text;
  EXPECT_NE(text.find("rebuild with CUTE_CPP_ARCHS including 90a"), std::string::npos) << text;
}

TEST(TargetCheck, RejectsAnUnsupportedDeviceNamingIt) {
  auto const a100 = rejection({"NVIDIA A100-SXM4-80GB", 8, 0}, "90a,100a,120a");
  EXPECT_NE(a100.find("NVIDIA A100-SXM4-80GB, sm_80"), std::string::npos) << a100;
  EXPECT_NE(a100.find("supports sm_90a, sm_100a and sm_120a only"), std::string::npos) << a100;
  auto const b300 = rejection({"NVIDIA B300", 10, 3}, "100a");
  EXPECT_NE(b300.find("sm_103"), std::string::npos) << b300;
}

TEST(TargetCheck, TargetListMatchingIsExact) {
  EXPECT_TRUE(host::carries("90a,100a", "100a"));
  EXPECT_FALSE(host::carries("100a", "10a"));
  EXPECT_FALSE(host::carries("", "90a"));
}

TEST(TargetCheck, CurrentDeviceFailsWithACudaErrorWithoutAGpu) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_THROW((void)host::current_device(), host::CudaError);
}
