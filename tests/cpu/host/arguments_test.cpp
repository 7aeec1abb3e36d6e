// SPDX-License-Identifier: Apache-2.0
// The entry points' pointer, stream and aliasing checks (host/arguments.hpp), the parts that need
// no device: null pointers and overlapping byte ranges, each refused with its rule. (Host memory
// and other devices' memory are refused on the GPU: tests/gpu/bad_input_test.cu.)
#include <cute_cpp/host/arguments.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace host = cute_cpp::host;

namespace {
std::string error_of(auto&& f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(Arguments, NullPointersAreNamed) {
  float x = 0;
  host::PointerArgument const pointers[] = {{"x", &x}, {"w", nullptr}};
  EXPECT_EQ(error_of([&] { host::check_device_pointers("rmsnorm", pointers, nullptr); }),
            "cute-cpp [rmsnorm.pointers]: w is null");
}

TEST(Arguments, OverlapsAreRefusedAdjacentRangesAreNot) {
  alignas(16) char buffer[256];
  host::ByteRange const out{"y", buffer + 64, 64};
  host::ByteRange const below[] = {{"x", buffer, 65}};
  EXPECT_EQ(error_of([&] { host::check_disjoint("softmax", out, below); }),
            "cute-cpp [softmax.aliasing]: y overlaps x; pass separate buffers");
  host::ByteRange const inside[] = {{"x", buffer + 127, 8}};
  EXPECT_EQ(error_of([&] { host::check_disjoint("softmax", out, inside); }),
            "cute-cpp [softmax.aliasing]: y overlaps x; pass separate buffers");
  host::ByteRange const adjacent[] = {{"x", buffer, 64}, {"w", buffer + 128, 64}};
  EXPECT_EQ(error_of([&] { host::check_disjoint("softmax", out, adjacent); }), "no error");
  // An absent optional input (null) or an empty range overlaps nothing.
  host::ByteRange const absent[] = {{"residual", nullptr, 64}, {"x", buffer + 64, 0}};
  EXPECT_EQ(error_of([&] { host::check_disjoint("rmsnorm", out, absent); }), "no error");
}

TEST(Arguments, AStridedOperandEndsAtItsLastRowsWidth) {
  // B packed in (x | B | C) rows of 100 elements, B 16 wide at column 64: three rows touch
  // 2 * 100 + 16 elements, not 3 * 100 (which would reach past the packed buffer's end).
  EXPECT_EQ(host::strided_bytes(3, 100, 16, 2), std::size_t(2 * (2 * 100 + 16)));
  EXPECT_EQ(host::strided_bytes(1, 100, 16, 4), std::size_t(64));
  EXPECT_EQ(host::strided_bytes(0, 100, 16, 2), std::size_t(0));
  // The packed buffer's last operand then ends exactly at the buffer's end: no overlap with the
  // buffer allocated after it.
  alignas(16) char buffer[2 * 300 + 64];
  host::ByteRange const out{"y", buffer + 2 * 300, 64};
  host::ByteRange const packed[] = {{"C", buffer + 2 * 84, host::strided_bytes(3, 100, 16, 2)}};
  EXPECT_EQ(error_of([&] { host::check_disjoint("ssm", out, packed); }), "no error");
}

TEST(Arguments, TheDefaultStreamBelongsToEveryDevice) {
  EXPECT_EQ(error_of([] { host::check_stream("gemm", nullptr); }), "no error");
}

TEST(Arguments, ThePointerCacheKeepsTheLastSlotsPerDevice) {
  host::detail::DevicePointerCache cache;
  alignas(16) static char memory[64 * host::detail::DevicePointerCache::slots];
  EXPECT_FALSE(cache.holds(memory, 0));
  cache.add(memory, 0);
  EXPECT_TRUE(cache.holds(memory, 0));
  EXPECT_FALSE(cache.holds(memory, 1));  // the same address seen on another device is asked again
  EXPECT_FALSE(cache.holds(memory + 16, 0));
  // One more than it holds: the oldest goes.
  for (int i = 1; i <= host::detail::DevicePointerCache::slots; ++i) cache.add(memory + 64 * i - 64 + 32, 0);
  EXPECT_FALSE(cache.holds(memory, 0));
  EXPECT_TRUE(cache.holds(memory + 32, 0));
}
