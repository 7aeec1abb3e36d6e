// SPDX-License-Identifier: Apache-2.0
// The host checks of create_tensor_map_tiled, which need no driver.
#include <cute_cpp/host/tensor_map_encode.hpp>

#include <gtest/gtest.h>

#include <string>

namespace cc = cute_cpp;
using bf16 = __nv_bfloat16;
using Tile = cc::SmemKMajor<bf16, 128, 64>;

namespace {
std::string argument_error(void const* ptr, std::uint64_t rows, std::uint64_t cols, std::uint64_t ld) {
  try {
    cc::host::check_tensor_map_arguments<bf16, Tile, 2>(ptr, {cols, rows}, {ld * sizeof(bf16)});
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}
alignas(16) unsigned char storage[64];
}  // namespace

TEST(CreateTensorMapTiled, AcceptsAnAlignedMatrix) { EXPECT_EQ(argument_error(storage, 1000, 4096, 4096), ""); }

TEST(CreateTensorMapTiled, RejectsAPointerNotSixteenByteAligned) {
  auto const text = argument_error(storage + 2, 100, 64, 64);
  EXPECT_NE(text.find("cute-cpp [tma.global.address]"), std::string::npos) << text;
}

TEST(CreateTensorMapTiled, RejectsALeadingDimensionNotAMultipleOfSixteenBytes) {
  auto const text = argument_error(storage, 100, 60, 60);  // 120 bytes
  EXPECT_NE(text.find("cute-cpp [tma.global.stride]"), std::string::npos) << text;
  EXPECT_NE(text.find("multiple of 8 elements"), std::string::npos) << text;
}

TEST(CreateTensorMapTiled, RejectsALeadingDimensionBelowTheRowLength) {
  auto const text = argument_error(storage, 100, 128, 64);
  EXPECT_NE(text.find("smaller than the contiguous extent"), std::string::npos) << text;
}

TEST(CreateTensorMapTiled, RejectsAnEmptyExtent) {
  auto const text = argument_error(storage, 0, 64, 64);
  EXPECT_NE(text.find("cute-cpp [tma.global.extent]"), std::string::npos) << text;
}
