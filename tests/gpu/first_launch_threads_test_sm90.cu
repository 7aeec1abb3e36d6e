// SPDX-License-Identifier: Apache-2.0
// Several host threads launching the same kernels for the first time at once (the tensor-parallel
// emulation's rank threads, models/qwen3): every call succeeds and gives the bits one thread gives.
// A kernel's dynamic shared-memory limit was once recorded before cudaFuncSetAttribute set it, so a
// second thread could ask the occupancy calculator first: the GEMM threw gemm.occupancy, and decode
// attention chose (and kept) the path without clusters. This program's one test makes the process's
// first launches, so it runs alone (stress_test_sm90.cu launches everything on one thread first).
#include "device_fixtures.hpp"
#include "has_device.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/rmsnorm.cuh>

#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <latch>
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

constexpr int kThreads = 8;
// The stress test's shapes: a GEMM of the persistent wgmma kernel, one the heuristic splits in K,
// rows of the persistent row kernel, attention with GQA, decode attention whose splits meet in a cluster.
constexpr std::int64_t kGemmM = 100, kGemmN = 200, kGemmK = 264;
constexpr std::int64_t kSkinnyM = 8, kSkinnyN = 2048, kSkinnyK = 4096;
constexpr std::size_t kRows = 37, kWidth = 1000;
constexpr int kSeq = 200, kHeadsQ = 4, kHeadsKv = 2, kDim = 128, kDecodeBatch = 3, kDecodeKeys = 300;

/// One thread's inputs (the same in every thread), outputs and workspaces.
struct Work {
  host::DeviceBuffer<bf16> a = random_bf16(std::size_t(kSkinnyN * kSkinnyK), 1);
  host::DeviceBuffer<bf16> b = random_bf16(std::size_t(kSkinnyN * kSkinnyK), 2);
  host::DeviceBuffer<bf16> g = random_bf16(kWidth, 3);
  host::DeviceBuffer<bf16> gemm_out{std::size_t(kGemmM * kGemmN)}, skinny_out{std::size_t(kSkinnyM * kSkinnyN)};
  host::DeviceBuffer<bf16> norm_out{kRows * kWidth}, sum_out{kRows * kWidth};
  host::DeviceBuffer<bf16> fmha_out{std::size_t(kSeq) * kHeadsQ * kDim};
  host::DeviceBuffer<bf16> decode_out{std::size_t(kDecodeBatch) * kHeadsQ * kDim};
  host::DeviceBuffer<unsigned char> gemm_workspace, decode_workspace;
};

kn::GemmArguments<kn::plans::Bf16TN> gemm_args(Work& w, bool skinny) {
  kn::GemmArguments<kn::plans::Bf16TN> g;
  std::int64_t const m = skinny ? kSkinnyM : kGemmM, n = skinny ? kSkinnyN : kGemmN, k = skinny ? kSkinnyK : kGemmK;
  g.a = w.a.data(), g.lda = k, g.b = w.b.data(), g.ldb = k;
  g.c = skinny ? w.skinny_out.data() : w.gemm_out.data(), g.ldc = n;
  g.m = m, g.n = n, g.k = k;
  if (skinny) g.workspace = w.gemm_workspace.data(), g.workspace_bytes = w.gemm_workspace.size();
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
  d.workspace = w.decode_workspace.data(), d.workspace_bytes = w.decode_workspace.size();
  return d;
}

/// A Work with its workspaces sized and zeroed (split-K's must start so). Its allocations also start
/// the CUDA context, so that the threads meet at the kernels' first launches, not there.
std::unique_ptr<Work> make_work() {
  auto w = std::make_unique<Work>();
  std::size_t const gemm_bytes = kn::gemm_bf16_tn_workspace_bytes(gemm_args(*w, true));
  w->gemm_workspace = host::DeviceBuffer<unsigned char>(std::max<std::size_t>(gemm_bytes, 1));
  w->gemm_workspace.fill_bytes(0);
  std::size_t const decode_bytes = kn::decode_workspace_bytes(decode_args(*w));
  w->decode_workspace = host::DeviceBuffer<unsigned char>(std::max<std::size_t>(decode_bytes, 1));
  w->decode_workspace.fill_bytes(0);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return w;
}

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
  for (auto const* d : {&w.gemm_out, &w.skinny_out, &w.norm_out, &w.fmha_out, &w.decode_out}) {
    auto const h = d->download();
    out.emplace_back(h.size() * sizeof(bf16));
    std::memcpy(out.back().data(), h.data(), out.back().size());
  }
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
