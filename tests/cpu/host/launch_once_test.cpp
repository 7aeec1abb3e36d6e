// SPDX-License-Identifier: Apache-2.0
// host::detail::DoneUpTo, what launch and max_active_clusters raise a kernel's dynamic shared-memory
// limit and check its target with: a caller that returns knows the action has happened, whichever
// thread ran it (several threads launching a kernel for the first time at once: the tensor-parallel
// emulation's ranks, which found no resident CTA before it).
#include <cute_cpp/host/launch.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace host = cute_cpp::host;

TEST(DoneUpTo, NoCallerReturnsBeforeTheActionHasHappened) {
  // The action is slow, so that the other threads arrive while it runs; every thread must find it done.
  constexpr int kThreads = 8;
  for (int round = 0; round < 20; ++round) {
    host::detail::DoneUpTo<std::pair<void const*, int>> limits;
    std::atomic<bool> done{false};
    std::atomic<int> ran{0}, early{0};
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        start.arrive_and_wait();
        limits.at_least({&limits, 0}, 200 * 1024, [&] {
          ++ran;
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          done = true;
        });
        if (!done) ++early;
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(ran.load(), 1) << "round " << round;
    EXPECT_EQ(early.load(), 0) << "round " << round << ": threads returned before the action had happened";
  }
}

TEST(DoneUpTo, RaisesToTheLargestValuePerKey) {
  host::detail::DoneUpTo<std::pair<void const*, int>> limits;
  int calls = 0;
  auto const count = [&] { ++calls; };
  int kernel = 0;
  EXPECT_TRUE(limits.at_least({&kernel, 0}, 100, count));
  EXPECT_FALSE(limits.at_least({&kernel, 0}, 100, count));
  EXPECT_FALSE(limits.at_least({&kernel, 0}, 50, count));
  EXPECT_TRUE(limits.at_least({&kernel, 0}, 200, count));
  EXPECT_TRUE(limits.at_least({&kernel, 1}, 50, count)) << "another device is another key";
  EXPECT_EQ(calls, 3);
}

TEST(DoneUpTo, AnActionThatThrowsRecordsNothing) {
  host::detail::DoneUpTo<void const*> checked;
  int kernel = 0;
  EXPECT_THROW(checked.at_least(&kernel, 1, [] { throw std::runtime_error("no image"); }), std::runtime_error);
  int calls = 0;
  EXPECT_TRUE(checked.at_least(&kernel, 1, [&] { ++calls; })) << "the next call tries again";
  EXPECT_FALSE(checked.at_least(&kernel, 1, [&] { ++calls; }));
  EXPECT_EQ(calls, 1);
}
