// SPDX-License-Identifier: Apache-2.0
// The run under load (issue 23): every kernel family launched from several host threads, each on a
// stream of its own, 10^5 entry-point calls in all, twice. Every thread computes the same calls on the same
// inputs, and a fixed plan sums in a fixed order, so every output must be bitwise equal to the
// single-threaded result computed first (the GEMM's split-K partials included): a race, a stale
// buffer or state shared between threads shows as a difference. Outputs are poisoned before each
// call. Device memory free before and after the second run is the same (nothing leaks).
#include "has_device.hpp"
#include "threaded_work.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

namespace {

using cute_cpp::test::Stream;
using namespace cute_cpp::test::threaded;  // Work, its shapes and the calls' arguments

constexpr int kThreads = 4;
constexpr std::int64_t kCalls = 100000;  ///< entry-point calls over all threads (2000 under compute-sanitizer)
constexpr int kCheckEvery = 8;           ///< rounds between a thread's synchronise-and-compare

/// One entry point: the call, and the output it writes.
struct Family {
  std::string name;
  std::function<void(Work&, cudaStream_t)> call;
  std::function<void(Work&, unsigned char, cudaStream_t)> poison;
  std::function<std::vector<unsigned char>(Work const&)> result;
};

/// Fills the output with `byte` on the calls' stream (a plain cudaMemset runs on the legacy stream,
/// which does not order itself with a non-blocking one).
template <class T>
std::function<void(Work&, unsigned char, cudaStream_t)> poison(host::DeviceBuffer<T> Work::*out) {
  return [out](Work& w, unsigned char byte, cudaStream_t s) {
    host::cuda_check(cudaMemsetAsync((w.*out).data(), byte, (w.*out).size() * sizeof(T), s), "cudaMemsetAsync");
  };
}
template <class T>
std::function<std::vector<unsigned char>(Work const&)> result(host::DeviceBuffer<T> Work::*out) {
  return [out](Work const& w) { return bytes_of(w.*out); };
}

std::vector<Family> families() {
  std::vector<Family> f;
  f.push_back({"gemm 100x200x264", [](Work& w, cudaStream_t s) { kn::run_gemm_bf16_tn(gemm_args(w, false), s); },
               poison(&Work::gemm_out), result(&Work::gemm_out)});
  f.push_back({"gemm 8x2048x4096 (split-K)",
               [](Work& w, cudaStream_t s) {
                 kn::run_gemm_bf16_tn(gemm_args(w, true), s);
               },
               poison(&Work::skinny_out), result(&Work::skinny_out)});
  f.push_back({"rmsnorm + residual",
               [](Work& w, cudaStream_t s) {
                 kn::rmsnorm<bf16>(w.a.data(), w.b.data(), w.g.data(), w.norm_out.data(), w.sum_out.data(), kRows,
                                   kWidth, 1e-6f, s);
               },
               poison(&Work::norm_out), result(&Work::norm_out)});
  f.push_back({"softmax", [](Work& w, cudaStream_t s) { kn::softmax<bf16>(w.a.data(), w.softmax_out.data(), kRows, kWidth, s); },
               poison(&Work::softmax_out), result(&Work::softmax_out)});
  f.push_back({"reduce sum",
               [](Work& w, cudaStream_t s) {
                 kn::reduce_rows<kn::RowReduction::sum, bf16>(w.a.data(), w.reduce_out.data(), kRows, kWidth, s);
               },
               poison(&Work::reduce_out), result(&Work::reduce_out)});
  f.push_back({"swiglu", [](Work& w, cudaStream_t s) { kn::swiglu<bf16>(w.a.data(), w.swiglu_out.data(), kRows, kWidth / 2, s); },
               poison(&Work::swiglu_out), result(&Work::swiglu_out)});
  f.push_back({"elementwise add",
               [](Work& w, cudaStream_t s) { kn::elementwise_add(w.a.data(), w.b.data(), w.add_out.data(), kRows * kWidth, s); },
               poison(&Work::add_out), result(&Work::add_out)});
  f.push_back({"attention (causal, GQA)", [](Work& w, cudaStream_t s) { kn::run_attention(fmha_args(w), s); },
               poison(&Work::fmha_out), result(&Work::fmha_out)});
  f.push_back({"decode attention",
               [](Work& w, cudaStream_t s) { kn::run_decode_attention(decode_args(w), s); },
               poison(&Work::decode_out), result(&Work::decode_out)});
  return f;
}


std::size_t free_device_memory() {
  std::size_t free = 0, total = 0;
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  host::cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

TEST(Stress, EveryFamilyFromSeveralThreadsGivesTheSameBitsAndLeaksNothing) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  auto const fams = families();
  // The reference results, single-threaded, on a stream of their own; this also makes every
  // kernel's first launch (module loading, the per-kernel attributes) before the memory is read.
  std::vector<std::vector<unsigned char>> expected;
  {
    auto w = make_work();
    Stream stream;
    for (auto const& f : fams) {
      f.poison(*w, 0xFF, stream.s);
      f.call(*w, stream.s);
      host::cuda_check(cudaStreamSynchronize(stream.s), "cudaStreamSynchronize");
      expected.push_back(f.result(*w));
    }
  }
  // The threads' run twice: the first also grows the driver's own pools to what concurrent kernels
  // need (local memory for every resident thread, 2 MiB seen here); the second must then leave the
  // free memory exactly as it found it.
  std::int64_t const target = cute_cpp::test::under_sanitizer() ? 2000 : kCalls;
  std::int64_t const rounds = target / (kThreads * std::int64_t(fams.size())) + 1;
  std::size_t free_before = 0;
  for (int run = 0; run < 2; ++run) {
    if (run == 1) free_before = free_device_memory();
    std::atomic<std::int64_t> calls{0}, mismatches{0}, errors{0};
    std::vector<std::string> first_problem(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        try {
          auto w = make_work();
          Stream stream;
          for (std::int64_t r = 0; r < rounds; ++r) {
            unsigned char const byte = (r % 2 == 0) ? 0xFF : 0xA5;  // a call that writes nothing shows
            for (auto const& f : fams) {
              f.poison(*w, byte, stream.s);
              f.call(*w, stream.s);
              ++calls;
            }
            if (r % kCheckEvery != kCheckEvery - 1 && r != rounds - 1) continue;
            host::cuda_check(cudaStreamSynchronize(stream.s), "cudaStreamSynchronize");
            for (std::size_t i = 0; i < fams.size(); ++i) {
              if (fams[i].result(*w) == expected[i]) continue;
              if (mismatches++ == 0 || first_problem[t].empty())
                first_problem[t] = fams[i].name + " differs from the single-threaded result in round " + std::to_string(r);
            }
          }
        } catch (std::exception const& e) {
          ++errors;
          first_problem[t] = std::string("error: ") + e.what();
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(first_problem[t].empty()) << "thread " << t << ": " << first_problem[t];
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_EQ(errors.load(), 0);
    EXPECT_GE(calls.load(), target);
    std::printf("stress run %d: %lld calls from %d threads on %d streams, %zu families\n", run + 1,
                static_cast<long long>(calls.load()), kThreads, kThreads, fams.size());
  }
  // compute-sanitizer keeps device state of its own, and its leak check stands in for this one there.
  if (!cute_cpp::test::under_sanitizer())
    EXPECT_EQ(free_device_memory(), free_before) << "device memory free before and after the second run";
}

}  // namespace
