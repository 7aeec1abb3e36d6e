// SPDX-License-Identifier: Apache-2.0
// Several host threads launching the same kernels for the first time at once (the tensor-parallel
// emulation's rank threads, models/qwen3): every call succeeds and gives the bits one thread gives.
// A kernel's dynamic shared-memory limit was once recorded before cudaFuncSetAttribute set it, so a
// second thread could ask the occupancy calculator first: the GEMM threw gemm.occupancy, and decode
// attention chose (and kept) the path without clusters. This program's one test makes the process's
// first launches, so it runs alone (stress_test_sm90.cu launches everything on one thread first).
#include "has_device.hpp"
#include "threaded_work.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <cstdint>
#include <latch>
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

constexpr int kThreads = 8;

/// Every call once on `stream`, then every output's bytes.
std::vector<std::vector<unsigned char>> run_all(Work& w, cudaStream_t stream) {
  kn::run_gemm_bf16_tn(gemm_args(w, false), stream);
  kn::run_gemm_bf16_tn(gemm_args(w, true), stream);
  kn::rmsnorm<bf16>(w.a.data(), w.b.data(), w.g.data(), w.norm_out.data(), w.sum_out.data(), kRows, kWidth, 1e-6f,
                    stream);
  kn::run_attention(fmha_args(w), stream);
  kn::run_decode_attention(decode_args(w), stream);
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<std::vector<unsigned char>> out;
  for (auto const* d : {&w.gemm_out, &w.skinny_out, &w.norm_out, &w.fmha_out, &w.decode_out})
    out.push_back(bytes_of(*d));
  return out;
}

TEST(FirstLaunch, SeveralThreadsAtOnceAllSucceedWithOneThreadsBits) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  int device = 0;
  host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  std::vector<std::unique_ptr<Work>> works;
  for (int t = 0; t < kThreads; ++t) works.push_back(make_work());
  std::vector<std::vector<std::vector<unsigned char>>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  std::latch start(kThreads);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        try {
          host::cuda_check(cudaSetDevice(device), "cudaSetDevice");  // as the emulation's rank threads do
          Stream stream;
          start.arrive_and_wait();
          results[std::size_t(t)] = run_all(*works[std::size_t(t)], stream.s);
        } catch (std::exception const& e) {
          errors[std::size_t(t)] = e.what();
        }
      });
    }
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[std::size_t(t)], "") << "thread " << t;
  // One thread again, every kernel's limits and occupancy settled: the reference bits.
  Stream stream;
  auto const expected = run_all(*works[0], stream.s);
  char const* const names[] = {"gemm 100x200x264", "gemm 8x2048x4096 (split-K)", "rmsnorm", "attention",
                               "decode attention"};
  for (int t = 0; t < kThreads; ++t) {
    if (!errors[std::size_t(t)].empty()) continue;
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_TRUE(results[std::size_t(t)][i] == expected[i]) << "thread " << t << ": " << names[i]
                                                              << " differs from the single-threaded result";
  }
}

}  // namespace
