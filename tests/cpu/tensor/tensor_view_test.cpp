// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Tensor views on host memory: indexing, slicing, local_tile, zipped_divide, local_partition,
// flatten, register tensors and the shared-memory allocator's arithmetic.
#include <gtest/gtest.h>

#include <cute_cpp/layout.hpp>
#include <cute_cpp/smem/allocator.hpp>
#include <cute_cpp/tensor/tensor.hpp>

#include <numeric>
#include <vector>

namespace cc = cute_cpp;
using cc::C;

namespace {
std::vector<int> iota_values(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}
}  // namespace

TEST(TensorView, IndexesThroughTheLayout) {
  auto buf = iota_values(32);
  auto t = cc::make_tensor(buf.data(), cc::RowMajor<4, 8>{});  // (4,8):(8,1)
  EXPECT_EQ(t(1, 2), 10);
  EXPECT_EQ(t(3, 7), 31);
  EXPECT_EQ(t[1], 8);  // linear index 1 is coordinate (1,0)
  t(2, 3) = -5;
  EXPECT_EQ(buf[19], -5);
  static_assert(std::is_same_v<decltype(cc::size(t)), C<32>>);
  cc::Tensor<int, cc::RowMajor<4, 8>> ro = t;  // a TensorMut converts to a Tensor
  static_assert(std::is_same_v<decltype(ro(0, 0)), int const&>);
  EXPECT_EQ(ro(2, 3), -5);
}

TEST(TensorView, DynamicRowPitch) {
  auto buf = iota_values(5 * 12);
  int const rows = 5;
  // A (rows, 10) view with a run-time row pitch of 12: Stride<int, C<1>>.
  auto t = cc::make_tensor(buf.data(), cc::make_layout(cc::make_shape(rows, C<10>{}), cc::make_stride(12, C<1>{})));
  EXPECT_EQ(t(4, 9), 4 * 12 + 9);
  auto row = t(3, cc::_);  // (10):(1) at +36
  EXPECT_EQ(row.data(), buf.data() + 36);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(row.layout().shape())>, C<10>>);
  EXPECT_EQ(row(7), 43);
  auto col = t(cc::_, 2);  // (rows):(12) at +2
  EXPECT_EQ(col(4), 50);
  EXPECT_EQ(std::int64_t(cc::size(col)), 5);
}

TEST(TensorView, FullyDynamicStrides) {
  auto buf = iota_values(48);
  int const rows = 4, cols = 6, pitch = 8;
  // Every extent and stride a run-time int: a column-major view of a pitched 6 x 4 block, transposed.
  auto t = cc::make_tensor(buf.data(), cc::make_layout(cc::make_shape(rows, cols), cc::make_stride(1, pitch)));
  EXPECT_EQ(t(3, 5), 3 + 40);
  auto col = t(cc::_, 4);  // (rows):(1) at +32
  EXPECT_EQ(col.data(), buf.data() + 32);
  EXPECT_EQ(col(2), 34);
  auto tile = cc::local_tile(t, cc::make_shape(C<2>{}, C<3>{}), cc::make_coord(1, 1));  // rows 2..3, cols 3..5
  EXPECT_EQ(tile(0, 0), 2 + 24);
  EXPECT_EQ(tile(1, 2), 3 + 40);
}

TEST(TensorView, LocalTileAndZippedDivide) {
  auto buf = iota_values(64);
  auto t = cc::make_tensor(buf.data(), cc::make_layout(cc::make_shape(8, 8), cc::make_stride(C<1>{}, 8)));  // (8,8):(1,8)
  auto tile = cc::local_tile(t, cc::make_shape(C<4>{}, C<4>{}), cc::make_coord(1, 1));
  EXPECT_EQ(tile.data(), buf.data() + 4 + 32);
  EXPECT_EQ(tile(0, 0), 36);
  EXPECT_EQ(tile(3, 2), 36 + 3 + 16);
  // zipped_divide: ((4,4),(2,2)); tile (1,0) starts at element (4,0).
  auto z = cc::zipped_divide(t, cc::make_shape(C<4>{}, C<4>{}));
  EXPECT_EQ(z(cc::make_coord(cc::make_coord(2, 1), cc::make_coord(1, 0))), 4 + 2 + 8);
  EXPECT_EQ(std::int64_t(cc::size<1>(z)), 4);
}

TEST(TensorView, LocalPartitionGivesEachThreadItsElements) {
  auto buf = iota_values(64);
  auto t = cc::make_tensor(buf.data(), cc::make_layout(cc::make_shape(8, 8), cc::make_stride(C<1>{}, 8)));
  using Threads = cc::Layout<cc::Shape<C<2>, C<4>>, cc::Stride<C<4>, C<1>>>;  // (2,4):(4,1)
  std::vector<int> hits(64, 0);
  for (int thread = 0; thread < 8; ++thread) {
    auto p = cc::local_partition(t, Threads{}, thread);  // (4,2) elements per thread
    ASSERT_EQ(std::int64_t(cc::size(p)), 8);
    for (int i = 0; i < 8; ++i) ++hits[p[i]];
  }
  for (int h : hits) EXPECT_EQ(h, 1);
  auto p1 = cc::local_partition(t, Threads{}, 1);  // CuTe: (4,2):(2,32) at +8
  EXPECT_EQ(p1.data(), buf.data() + 8);
  EXPECT_EQ(p1(1, 1), 8 + 2 + 32);
}

TEST(TensorView, FlattenKeepsElements) {
  auto buf = iota_values(24);
  using L = cc::Layout<cc::Shape<C<2>, cc::Shape<C<3>, C<4>>>, cc::Stride<C<12>, cc::Stride<C<1>, C<3>>>>;
  auto t = cc::make_tensor(buf.data(), L{});
  auto f = cc::flatten(t);
  static_assert(cc::rank_v<std::remove_cvref_t<decltype(f.layout())>> == 3);
  for (int i = 0; i < 24; ++i) EXPECT_EQ(f[i], t[i]);
  EXPECT_EQ(f(1, 2, 3), 12 + 2 + 9);
}

TEST(TensorView, LoadAndStoreThroughRegisterTiles) {
  auto buf = iota_values(8);
  auto t = cc::make_tensor(buf.data(), cc::ColMajor<2, 4>{});
  auto tile = t.load();
  static_assert(decltype(tile)::size == 8);
  EXPECT_EQ(tile.reduce_sum(), 28);
  t.store(tile * 3);
  EXPECT_EQ(buf[7], 21);
  auto r = cc::make_rmem_tensor<float>(cc::RowMajor<2, 2>{});
  r(0, 1) = 5.f;
  EXPECT_EQ(r.storage[1], 5.f);
}

TEST(SmemAllocator, AlignsAndCountsBytes) {
  cc::SmemAllocator plan;  // no base: only the arithmetic, as the host sizes a launch
  plan.allocate_array<float, 3>();                 // [0, 12)
  plan.allocate_array<double, 2, 64>();            // [64, 80)
  plan.allocate_tensor<short>(cc::RowMajor<4, 8>{});  // [128, 192)
  EXPECT_EQ(plan.size_in_bytes(), 192u + 112u);       // and room to move a 16-byte-aligned start to 128
  alignas(128) unsigned char block[512];
  cc::SmemAllocator smem(block);
  float* a = smem.allocate_array<float, 3>();
  double* b = smem.allocate_array<double, 2, 64>();
  EXPECT_EQ(reinterpret_cast<unsigned char*>(a), block);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(b), block + 64);
  // A start that is only 16-byte aligned: pieces align as addresses, within the host's count.
  cc::SmemAllocator shifted(block + 16);
  float* c = shifted.allocate_array<float, 3>();
  double* d = shifted.allocate_array<double, 2, 64>();
  auto t = shifted.allocate_tensor<short>(cc::RowMajor<4, 8>{});
  EXPECT_EQ(reinterpret_cast<unsigned char*>(c), block + 16);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(d), block + 64);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(t.data()), block + 128);
  EXPECT_LE(shifted.size_in_bytes(), plan.size_in_bytes());
}

TEST(SmemAllocator, SizesAKernelsSharedStorage) {
  struct alignas(1024) Storage {
    unsigned char bytes[3000];
  };
  EXPECT_EQ(cc::smem_bytes_for<Storage>(), sizeof(Storage) + 1024 - 16);
  alignas(1024) unsigned char block[8192];
  for (std::size_t start : {0u, 16u, 512u, 1008u}) {
    cc::SmemAllocator smem(block + start);
    Storage* s = smem.allocate_object<Storage>();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s) % 1024, 0u);
    EXPECT_LE(smem.size_in_bytes() + start, start + cc::smem_bytes_for<Storage>());
  }
}
