// SPDX-License-Identifier: Apache-2.0
// Debug builds check that a TMA descriptor stays inside the allocation its pointer lies in.
#undef NDEBUG  // the allocation check exists in debug builds only
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/tensor_map_encode.hpp>

#include <gtest/gtest.h>

#include "gpu/has_device.hpp"

#include <string>

namespace {
using bf16 = __nv_bfloat16;
using Tile = cute_cpp::SmemKMajor<bf16, 64, 64>;

using cute_cpp::test::has_device;
}  // namespace

TEST(TmaDebug, ADescriptorInsideItsAllocationIsEncoded) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  cute_cpp::host::DeviceBuffer<bf16> buffer(100 * 64);
  auto encode = [&] { (void)cute_cpp::host::create_tensor_map_tiled<bf16, Tile>(buffer.data(), 100, 64, 64); };
  EXPECT_NO_THROW(encode());
}

TEST(TmaDebug, ADescriptorPastItsAllocationIsRejected) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  // NOTE: 4 MiB, a whole number of any allocation granularity, so the range ends where asked.
  cute_cpp::host::DeviceBuffer<bf16> buffer(std::size_t{1} << 21);
  try {
    (void)cute_cpp::host::create_tensor_map_tiled<bf16, Tile>(buffer.data(), (1 << 15) + 1000, 64, 64);
    FAIL() << "no error";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("cute-cpp [tma.global.allocation]"), std::string::npos) << e.what();
  }
}
