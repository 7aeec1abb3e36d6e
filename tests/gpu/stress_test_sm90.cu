// SPDX-License-Identifier: Apache-2.0
// The run under load (issue 23): every kernel family launched from several host threads, each on a
// stream of its own, 10^5 entry-point calls in all, twice. Every thread computes the same calls on the same
// inputs, and a fixed plan sums in a fixed order, so every output must be bitwise equal to the
// single-threaded result computed first (the GEMM's split-K partials included): a race, a stale
// buffer or state shared between threads shows as a difference. Outputs are poisoned before each
// call. Device memory free before and after the second run is the same (nothing leaks).
#include "device_fixtures.hpp"
#include "has_device.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/reduce.cuh>
#include <cute_cpp/kernels/rows/rmsnorm.cuh>
#include <cute_cpp/kernels/rows/softmax.cuh>
#include <cute_cpp/kernels/rows/swiglu.cuh>

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

using cute_cpp::test::random_bf16;
using cute_cpp::test::Stream;

constexpr int kThreads = 4;
constexpr std::int64_t kCalls = 100000;  ///< entry-point calls over all threads (2000 under compute-sanitizer)
constexpr int kCheckEvery = 8;           ///< rounds between a thread's synchronise-and-compare

/// The bytes of a device buffer.
template <class T>
std::vector<unsigned char> bytes_of(host::DeviceBuffer<T> const& d) {
  auto const h = d.download();
  std::vector<unsigned char> b(h.size() * sizeof(T));
  std::memcpy(b.data(), h.data(), b.size());
  return b;
}

// The shapes: small enough that 10^5 calls take seconds, not multiples of the tiles, and one GEMM
// of few rows and a long K, which the heuristic splits in K (partials in the workspace).
constexpr std::int64_t kGemmM = 100, kGemmN = 200, kGemmK = 264;
constexpr std::int64_t kSkinnyM = 8, kSkinnyN = 2048, kSkinnyK = 4096;
constexpr std::size_t kRows = 37, kWidth = 1000;
constexpr int kSeq = 200, kHeadsQ = 4, kHeadsKv = 2, kDim = 128, kDecodeBatch = 3, kDecodeKeys = 300;

/// One thread's inputs, outputs and workspaces; the inputs are the same in every thread.
struct Work {
  host::DeviceBuffer<bf16> a = random_bf16(std::size_t(kSkinnyN * kSkinnyK), 1);
  host::DeviceBuffer<bf16> b = random_bf16(std::size_t(kSkinnyN * kSkinnyK), 2);
  host::DeviceBuffer<bf16> g = random_bf16(kWidth, 3);
  host::DeviceBuffer<bf16> gemm_out{std::size_t(kGemmM * kGemmN)}, skinny_out{std::size_t(kSkinnyM * kSkinnyN)};
  host::DeviceBuffer<bf16> norm_out{kRows * kWidth}, sum_out{kRows * kWidth}, softmax_out{kRows * kWidth};
  host::DeviceBuffer<bf16> swiglu_out{kRows * kWidth / 2}, add_out{kRows * kWidth};
  host::DeviceBuffer<float> reduce_out{kRows};
  host::DeviceBuffer<bf16> fmha_out{std::size_t(kSeq) * kHeadsQ * kDim};
  host::DeviceBuffer<bf16> decode_out{std::size_t(kDecodeBatch) * kHeadsQ * kDim};
  host::DeviceBuffer<unsigned char> gemm_workspace, decode_workspace;
};

/// One entry point: the call, and the output it writes.
struct Family {
  std::string name;
  std::function<void(Work&, cudaStream_t)> call;
  std::function<void(Work&, unsigned char, cudaStream_t)> poison;
  std::function<std::vector<unsigned char>(Work const&)> result;
};

kn::GemmArguments<kn::plans::Bf16TN> gemm_args(Work& w, bool skinny) {
  kn::GemmArguments<kn::plans::Bf16TN> g;
  std::int64_t const m = skinny ? kSkinnyM : kGemmM, n = skinny ? kSkinnyN : kGemmN, k = skinny ? kSkinnyK : kGemmK;
  g.a = w.a.data(), g.lda = k, g.b = w.b.data(), g.ldb = k;
  g.c = skinny ? w.skinny_out.data() : w.gemm_out.data(), g.ldc = n;
  g.m = m, g.n = n, g.k = k;
  return g;
}

kn::FmhaArguments<bf16> fmha_args(Work& w) {
  kn::FmhaArguments<bf16> f;
  f.q = w.a.data(), f.k = w.b.data(), f.v = w.b.data() + std::size_t(kSeq) * kHeadsKv * kDim, f.o = w.fmha_out.data();
  f.batch = 1, f.seq_q = kSeq, f.seq_k = kSeq, f.heads_q = kHeadsQ, f.heads_kv = kHeadsKv;
  f.head_dim = f.head_dim_v = kDim, f.causal = true;
  return f;
}

kn::DecodeArguments<bf16> decode_args(Work& w) {
  kn::DecodeArguments<bf16> d;
  std::size_t const cache = std::size_t(kDecodeBatch) * kDecodeKeys * kHeadsKv * kDim;
  d.q = w.a.data(), d.k = w.b.data(), d.v = w.b.data() + cache, d.o = w.decode_out.data();
  d.batch = kDecodeBatch, d.heads_q = kHeadsQ, d.heads_kv = kHeadsKv, d.head_dim = d.head_dim_v = kDim;
  d.max_seq_k = kDecodeKeys;
  return d;
}

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
                 auto g = gemm_args(w, true);
                 g.workspace = w.gemm_workspace.data(), g.workspace_bytes = w.gemm_workspace.size();
                 kn::run_gemm_bf16_tn(g, s);
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
               [](Work& w, cudaStream_t s) {
                 auto d = decode_args(w);
                 d.workspace = w.decode_workspace.data(), d.workspace_bytes = w.decode_workspace.size();
                 kn::run_decode_attention(d, s);
               },
               poison(&Work::decode_out), result(&Work::decode_out)});
  return f;
}

/// A Work with its workspaces sized (and zeroed: split-K's must start so) for the calls.
std::unique_ptr<Work> make_work() {
  auto w = std::make_unique<Work>();
  std::size_t const gemm_bytes = kn::gemm_bf16_tn_workspace_bytes(gemm_args(*w, true));
  w->gemm_workspace = host::DeviceBuffer<unsigned char>(std::max<std::size_t>(gemm_bytes, 1));
  w->gemm_workspace.fill_bytes(0);
  std::size_t const decode_bytes = kn::decode_workspace_bytes(decode_args(*w));
  w->decode_workspace = host::DeviceBuffer<unsigned char>(std::max<std::size_t>(decode_bytes, 1));
  w->decode_workspace.fill_bytes(0);
  return w;
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
