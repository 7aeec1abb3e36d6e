// SPDX-License-Identifier: Apache-2.0
#pragma once
// The work set of the threaded GPU tests (stress_test_sm90.cu, first_launch_threads_test_sm90.cu): one
// thread's inputs, outputs and workspaces for a GEMM of the persistent wgmma kernel, one the heuristic
// splits in K, the row kernels, attention with GQA and decode attention whose splits meet in a cluster,
// and each call's arguments.
#include "device_fixtures.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace cute_cpp::test::threaded {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

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

/// A Work with its workspaces sized (and zeroed: split-K's must start so) for the calls, all of it
/// allocated and written when this returns (it also starts the CUDA context).
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

}  // namespace cute_cpp::test::threaded
