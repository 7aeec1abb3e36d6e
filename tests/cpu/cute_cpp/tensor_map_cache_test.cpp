// SPDX-License-Identifier: Apache-2.0
// TensorMapCache: a repeated key copies the stored descriptor without encoding; any change of the
// key encodes; the oldest entry goes first; an encoding that throws stores nothing.
#include <cute_cpp/host/tensor_map_cache.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>

namespace host = cute_cpp::host;

namespace {
using Cache = host::TensorMapCache<4, 3>;

struct Counting {
  int calls = 0;
  /// Encodes a descriptor whose bytes are the call's number.
  auto encoder() {
    return [this](std::byte (&out)[4]) {
      ++calls;
      for (auto& b : out) b = std::byte(calls);
    };
  }
};

host::TensorMapKey key(std::uintptr_t address, std::uint64_t rows = 64, std::uint64_t stride = 128) {
  return {reinterpret_cast<void const*>(address), 2, {64, rows, 0, 0, 0}, {stride, 0, 0, 0}};
}

int first_byte(std::byte const (&bytes)[4]) { return int(bytes[0]); }
}  // namespace

TEST(TensorMapCache, ARepeatedKeyEncodesOnce) {
  Cache cache;
  Counting encode;
  std::byte out[4]{};
  cache.find_or_encode(key(0x1000), out, encode.encoder());
  cache.find_or_encode(key(0x1000), out, encode.encoder());
  EXPECT_EQ(encode.calls, 1);
  EXPECT_EQ(first_byte(out), 1);  // the stored descriptor, copied
}

TEST(TensorMapCache, EveryPartOfTheKeyCounts) {
  Cache cache;
  Counting encode;
  std::byte out[4]{};
  cache.find_or_encode(key(0x1000), out, encode.encoder());
  cache.find_or_encode(key(0x2000), out, encode.encoder());      // another address
  cache.find_or_encode(key(0x1000, 65), out, encode.encoder());  // another extent
  EXPECT_EQ(encode.calls, 3);
  auto other_stride = key(0x1000);
  other_stride.byte_strides[0] = 256;
  Cache fresh;
  Counting again;
  fresh.find_or_encode(key(0x1000), out, again.encoder());
  fresh.find_or_encode(other_stride, out, again.encoder());
  auto other_rank = key(0x1000);
  other_rank.rank = 3;
  fresh.find_or_encode(other_rank, out, again.encoder());
  EXPECT_EQ(again.calls, 3);
}

TEST(TensorMapCache, TheOldestEntryIsReplacedFirst) {
  Cache cache;  // three ways
  Counting encode;
  std::byte out[4]{};
  for (std::uintptr_t a : {0x1000, 0x2000, 0x3000, 0x4000}) cache.find_or_encode(key(a), out, encode.encoder());
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(encode.calls, 4);
  cache.find_or_encode(key(0x4000), out, encode.encoder());  // still held
  cache.find_or_encode(key(0x2000), out, encode.encoder());  // still held
  EXPECT_EQ(encode.calls, 4);
  EXPECT_EQ(first_byte(out), 2);
  cache.find_or_encode(key(0x1000), out, encode.encoder());  // was replaced by 0x4000
  EXPECT_EQ(encode.calls, 5);
}

TEST(TensorMapCache, AFailedEncodingStoresNothing) {
  Cache cache;
  std::byte out[4]{};
  EXPECT_THROW(cache.find_or_encode(key(0x1000), out, [](std::byte(&)[4]) { throw std::runtime_error("no driver"); }),
               std::runtime_error);
  EXPECT_EQ(cache.size(), 0u);
  Counting encode;
  cache.find_or_encode(key(0x1000), out, encode.encoder());
  EXPECT_EQ(encode.calls, 1);
}
