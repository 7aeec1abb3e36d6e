// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// GridBarrier (include/cute_cpp/sched/grid_barrier.hpp) on a cooperative grid of one CTA an SM: every
// CTA writes its slot of a phase, syncs, and checks every other CTA's slot of that phase (the writes
// before a sync are visible after it), for 67 phases a launch over 3 launches on one count that is never
// reset (the ticket's generation, not a reset, keeps launches apart). Then a grid whose CTAs do not
// all arrive [sched.grid-barrier]: the waiting CTAs trap after the (short) bound instead of hanging.
// Its own program: a trap ends the CUDA context.
#include <cute_cpp/arch/barrier.hpp>
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/target_check.hpp>
#include <cute_cpp/sched/grid_barrier.hpp>

#include <gtest/gtest.h>

#include <cstdint>

#include "gpu/has_device.hpp"

namespace {

using cute_cpp::GridBarrier;
using cute_cpp::host::DeviceBuffer;

/// Phase p: CTA b writes slots[p][b] = p * 1000 + b, syncs, then counts the slots of phase p that
/// do not hold their value yet; `bad` gets the sum.
__global__ void phases(GridBarrier barrier, int* slots, int count, int* bad) {
  int const grid = int(gridDim.x);
  for (int p = 0; p < count; ++p) {
    if (threadIdx.x == 0) slots[p * grid + int(blockIdx.x)] = p * 1000 + int(blockIdx.x);
    barrier.sync();
    int wrong = 0;
    for (int b = int(threadIdx.x); b < grid; b += int(blockDim.x))
      wrong += __ldcg(slots + p * grid + b) != p * 1000 + b;
    if (wrong != 0) atomicAdd(bad, wrong);
  }
}

/// The phases again, synced among the CTA's first warps only (named barrier 1): the last warp leaves
/// at once, as a copy-producer warp that never waits at the grid's barriers does.
__global__ void phases_without_last_warp(GridBarrier barrier, int* slots, int count, int* bad) {
  int const grid = int(gridDim.x), taking_part = int(blockDim.x) - 32;
  if (int(threadIdx.x) >= taking_part) return;
  for (int p = 0; p < count; ++p) {
    if (threadIdx.x == 0) slots[p * grid + int(blockIdx.x)] = p * 1000 + int(blockIdx.x);
    barrier.sync([=] { cute_cpp::arch::barrier(1, unsigned(taking_part)); });
    int wrong = 0;
    for (int b = int(threadIdx.x); b < grid; b += taking_part) wrong += __ldcg(slots + p * grid + b) != p * 1000 + b;
    if (wrong != 0) atomicAdd(bad, wrong);
  }
}

/// CTA 0 leaves without arriving: the others wait past the bound and trap.
__global__ void one_missing(GridBarrier barrier) {
  if (blockIdx.x == 0) return;
  barrier.sync();
}

}  // namespace

TEST(GridBarrier, WritesBeforeASyncAreSeenAfterItAcrossLaunches) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  int const grid = cute_cpp::host::multiprocessor_count();
  constexpr int per_launch = 200 / 3 + 1;
  DeviceBuffer<std::uint64_t> count(1);
  count.fill_bytes(0);
  DeviceBuffer<int> slots(std::size_t(per_launch) * grid), bad(1);
  bad.fill_bytes(0);
  cute_cpp::host::LaunchConfig config;
  config.grid = dim3(unsigned(grid));
  config.block = dim3(128);
  config.cooperative = true;
  for (int launch = 0; launch < 3; ++launch) {
    slots.fill_bytes(0xFF);  // -1 in every slot: a phase read early sees it
    cute_cpp::host::launch(&phases, "grid_barrier_phases", config, GridBarrier{count.data()}, slots.data(),
                           per_launch, bad.data());
    cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "grid barrier phases");
  }
  EXPECT_EQ(bad.download()[0], 0);
  EXPECT_EQ(count.download()[0], std::uint64_t(3) * per_launch * grid);
}

TEST(GridBarrier, ANamedBarrierLeavesAWarpOut) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  int const grid = cute_cpp::host::multiprocessor_count();
  constexpr int phases = 50;
  DeviceBuffer<std::uint64_t> count(1);
  count.fill_bytes(0);
  DeviceBuffer<int> slots(std::size_t(phases) * grid), bad(1);
  bad.fill_bytes(0);
  slots.fill_bytes(0xFF);
  cute_cpp::host::LaunchConfig config;
  config.grid = dim3(unsigned(grid));
  config.block = dim3(96);
  config.cooperative = true;
  cute_cpp::host::launch(&phases_without_last_warp, "grid_barrier_named", config, GridBarrier{count.data()},
                         slots.data(), phases, bad.data());
  cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "grid barrier, named CTA barrier");
  EXPECT_EQ(bad.download()[0], 0);
  EXPECT_EQ(count.download()[0], std::uint64_t(phases) * grid);
}

TEST(GridBarrier, ACtaThatNeverArrivesEndsInATrap) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "the wait that traps: not under compute-sanitizer";
  DeviceBuffer<std::uint64_t> count(1);
  count.fill_bytes(0);
  GridBarrier barrier{count.data()};
  barrier.timeout_ns = 50'000'000;  // 50 ms
  cute_cpp::host::LaunchConfig config;
  config.grid = dim3(4);
  config.block = dim3(32);
  config.cooperative = true;
  cute_cpp::host::launch(&one_missing, "grid_barrier_one_missing", config, barrier);
  EXPECT_NE(cudaDeviceSynchronize(), cudaSuccess) << "a barrier one CTA never reached returned";
}
