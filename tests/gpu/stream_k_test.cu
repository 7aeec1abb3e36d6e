// SPDX-License-Identifier: Apache-2.0
// Stream-K's fixup (epilogue/stream_k_fixup.hpp) between two CTAs: the one holding a tile's first K blocks
// leaves its partial sums, the other waits for them, adds them to its own and leaves the flag at
// zero; a thread that is not active neither writes nor reads. Then the debug-build wait
// [stream-k.wait-timeout]: partial sums that never arrive trap (after a short bound here) instead
// of hanging. Its own program: a trap ends the CUDA context.
#undef NDEBUG  // the bounded wait exists in debug builds only
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/epilogue/stream_k_fixup.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpu/has_device.hpp"

namespace {
constexpr int threads = 128, floats = 8;
struct Fragment {
  float v[floats];
};

/// Block 1 leaves thread t's values 1000 t + i; block 0 holds t + 0.5 i and adds them; thread 5
/// of both is inactive. Block 0's sums go to out. Launched alone, block 0 waits for no one.
__global__ void fixup(cute_cpp::SplitKWorkspace ws, float* out) {
  int const t = int(threadIdx.x);
  bool const active = t != 5;
  Fragment acc;
  for (int i = 0; i < floats; ++i)
    acc.v[i] = blockIdx.x == 1 ? 1000.0f * float(t) + float(i) : float(t) + 0.5f * float(i);
  constexpr std::int64_t slot = 3;
  cute_cpp::ReductionGroup<cute_cpp::NamedBarriers<1, 1, threads>> const group{0, t};
  if (blockIdx.x == 1) {
    cute_cpp::stream_k_leave_partial(acc, ws, slot, group, active);
    return;
  }
  cute_cpp::stream_k_add_partial<2, (1ll << 26)>(acc, ws, slot, group, active);
  for (int i = 0; i < floats; ++i) out[t * floats + i] = acc.v[i];
}

using cute_cpp::test::has_device;
}  // namespace

TEST(StreamKFixup, AddsTheOtherCtasPartialsThenAHangTraps) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  constexpr std::int64_t slots = 4;
  std::size_t const bytes = cute_cpp::stream_k_workspace_bytes(slots, threads * floats);
  cute_cpp::host::DeviceBuffer<unsigned char> workspace(bytes);
  workspace.fill_bytes(0);
  auto const ws = cute_cpp::split_k_workspace(workspace.data());
  cute_cpp::host::DeviceBuffer<float> out(threads * floats);
  for (int run = 0; run < 2; ++run) {  // the flag is back at zero: the workspace serves again
    out.fill_bytes(0xFF);
    fixup<<<2, threads>>>(ws, out.data());
    cute_cpp::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const got = out.download();
    for (int t = 0; t < threads; ++t)
      for (int i = 0; i < floats; ++i) {
        float const mine = float(t) + 0.5f * float(i), theirs = 1000.0f * float(t) + float(i);
        EXPECT_EQ(got[std::size_t(t * floats + i)], t == 5 ? mine : mine + theirs) << "thread " << t << " float " << i;
      }
    std::vector<std::uint32_t> flags(slots);
    cute_cpp::host::cuda_check(
        cudaMemcpy(flags.data(), ws.counters, sizeof(std::uint32_t) * slots, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (auto const f : flags) EXPECT_EQ(f, 0u);
  }
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "the hang that traps: not under compute-sanitizer";
  fixup<<<1, threads>>>(ws, out.data());  // no CTA leaves the partial sums
  cudaError_t const result = cudaDeviceSynchronize();
  EXPECT_NE(result, cudaSuccess) << "the wait for partial sums that never arrive returned";
}
