// SPDX-License-Identifier: Apache-2.0
// The bad-input matrix (issue 23): every public host entry point given null, pageable-host,
// misaligned and overlapping pointers, zero, negative and oversized sizes, refuses each with
// std::invalid_argument naming a rule, and leaves its output as it was (a canary pattern, read
// back after the call). A stream of another device is not covered: the lent machine has one GPU.
#include "has_device.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>
#include "models/qwen3/sampling.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

namespace {

constexpr std::size_t kElems = std::size_t(1) << 16;
constexpr unsigned char kCanary = 0x5A;

/// Device buffers for every entry point: inputs of random-ish bf16 values, an output of the
/// canary byte, and a pageable host array standing in for a device pointer.
struct Buffers {
  host::DeviceBuffer<bf16> a{kElems}, b{kElems}, out{kElems};
  host::DeviceBuffer<float> out_f{kElems};
  host::DeviceBuffer<std::int32_t> ids{kElems};
  std::vector<bf16> pageable = std::vector<bf16>(kElems);
  Buffers() {
    std::vector<bf16> v(kElems);
    for (std::size_t i = 0; i < kElems; ++i) v[i] = __float2bfloat16(float(i % 17) / 17.0f - 0.5f);
    a.upload(std::span<bf16 const>(v));
    b.upload(std::span<bf16 const>(v));
    reset();
  }
  void reset() {
    out.fill_bytes(kCanary);
    out_f.fill_bytes(kCanary);
    ids.fill_bytes(kCanary);
  }
  [[nodiscard]] bool untouched() const {
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const bytes_ok = [](auto const& buffer) {
      auto const h = buffer.download();
      auto const* p = reinterpret_cast<unsigned char const*>(h.data());
      for (std::size_t i = 0; i < h.size() * sizeof(h[0]); ++i)
        if (p[i] != kCanary) return false;
      return true;
    };
    return bytes_ok(out) && bytes_ok(out_f) && bytes_ok(ids);
  }
};

struct Case {
  std::string what;
  std::function<void(Buffers&)> call;
  std::string rule;  ///< expected in the message, e.g. "[rmsnorm.pointers]"
};

std::vector<Case> cases() {
  std::vector<Case> c;
  auto const host_ptr = [](Buffers& b) { return b.pageable.data(); };
  // rmsnorm
  c.push_back({"rmsnorm null x", [](Buffers& b) {
                 kn::rmsnorm<bf16>(nullptr, nullptr, b.a.data(), b.out.data(), nullptr, 4, 256);
               }, "[rmsnorm.pointers]"});
  c.push_back({"rmsnorm pageable x", [=](Buffers& b) {
                 kn::rmsnorm<bf16>(host_ptr(b), nullptr, b.a.data(), b.out.data(), nullptr, 4, 256);
               }, "[rmsnorm.pointers]"});
  c.push_back({"rmsnorm y over x", [](Buffers& b) {
                 kn::rmsnorm<bf16>(b.out.data(), nullptr, b.a.data(), b.out.data() + 8, nullptr, 4, 256);
               }, "[rmsnorm.aliasing]"});
  c.push_back({"rmsnorm residual without residual_out", [](Buffers& b) {
                 kn::rmsnorm<bf16>(b.a.data(), b.b.data(), b.a.data(), b.out.data(), nullptr, 4, 256);
               }, "[rmsnorm.residual]"});
  c.push_back({"rmsnorm width past 2^31", [](Buffers& b) {
                 kn::rmsnorm<bf16>(b.a.data(), nullptr, b.a.data(), b.out.data(), nullptr, 1, std::size_t(1) << 31);
               }, "[rmsnorm.width]"});
  // softmax, reduce, swiglu, elementwise
  c.push_back({"softmax null y", [](Buffers& b) {
                 kn::softmax<bf16>(b.a.data(), nullptr, 4, 256);
               }, "[softmax.pointers]"});
  c.push_back({"softmax pageable x", [=](Buffers& b) {
                 kn::softmax<bf16>(host_ptr(b), b.out.data(), 4, 256);
               }, "[softmax.pointers]"});
  c.push_back({"softmax in place", [](Buffers& b) {
                 kn::softmax<bf16>(b.out.data(), b.out.data(), 4, 256);
               }, "[softmax.aliasing]"});
  c.push_back({"softmax width past 2^31", [](Buffers& b) {
                 kn::softmax<bf16>(b.a.data(), b.out.data(), 1, std::size_t(1) << 31);
               }, "[softmax.width]"});
  c.push_back({"reduce width 0", [](Buffers& b) {
                 kn::reduce_rows<kn::RowReduction::sum, bf16>(b.a.data(), b.out_f.data(), 4, 0);
               }, "[reduce.width]"});
  c.push_back({"reduce pageable x", [=](Buffers& b) {
                 kn::reduce_rows<kn::RowReduction::sum, bf16>(host_ptr(b), b.out_f.data(), 4, 256);
               }, "[reduce.pointers]"});
  c.push_back({"swiglu null x", [](Buffers& b) {
                 kn::swiglu<bf16>(nullptr, b.out.data(), 4, 128);
               }, "[swiglu.pointers]"});
  c.push_back({"swiglu out over x", [](Buffers& b) {
                 kn::swiglu<bf16>(b.out.data(), b.out.data() + 64, 4, 128);
               }, "[swiglu.aliasing]"});
  c.push_back({"elementwise misaligned", [](Buffers& b) {
                 auto const* odd = reinterpret_cast<float const*>(reinterpret_cast<char const*>(b.out_f.data()) + 2);
                 kn::elementwise_add(odd, odd, b.out_f.data() + 64, 8); }, "[elementwise.pointer-alignment]"});
  c.push_back({"elementwise pageable input", [=](Buffers& b) {
                 kn::elementwise_add(b.a.data(), host_ptr(b), b.out.data(), 256);
               }, "[elementwise.pointers]"});
  c.push_back({"elementwise shifted overlap", [](Buffers& b) {
                 kn::elementwise_add(b.out.data(), b.a.data(), b.out.data() + 1, 256);
               }, "[elementwise.aliasing]"});
  // GEMM
  auto const gemm = [](Buffers& b) {
    kn::GemmArguments<kn::plans::Bf16TN> g;
    g.a = b.a.data(), g.lda = 64, g.b = b.b.data(), g.ldb = 64, g.c = b.out.data(), g.ldc = 64;
    g.m = 37, g.n = 64, g.k = 64;
    return g;
  };
  c.push_back({"gemm M = 0", [=](Buffers& b) {
                 auto g = gemm(b); g.m = 0; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.shape]"});
  c.push_back({"gemm M = -5", [=](Buffers& b) {
                 auto g = gemm(b); g.m = -5; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.shape]"});
  c.push_back({"gemm null B", [=](Buffers& b) {
                 auto g = gemm(b); g.b = nullptr; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.pointers]"});
  c.push_back({"gemm pageable A", [=](Buffers& b) {
                 auto g = gemm(b); g.a = host_ptr(b); kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.pointers]"});
  c.push_back({"gemm misaligned C", [=](Buffers& b) {
                 auto g = gemm(b); g.c = b.out.data() + 1; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[tma.global.address]"});
  c.push_back({"gemm ldc below N", [=](Buffers& b) {
                 auto g = gemm(b); g.ldc = 32; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.leading-dimension]"});
  c.push_back({"gemm C over A", [=](Buffers& b) {
                 auto g = gemm(b); g.a = b.out.data(); kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.aliasing]"});
  c.push_back({"gemm K not a multiple of 8", [=](Buffers& b) {
                 auto g = gemm(b); g.k = 60; kn::run_gemm_bf16_tn(g, nullptr);
               }, "[gemm.k-multiple-of-8]"});
  // attention (prefill and decode), the KV append
  auto const fmha = [](Buffers& b) {
    kn::FmhaArguments<bf16> f;
    f.q = b.a.data(), f.k = b.b.data(), f.v = b.b.data(), f.o = b.out.data();
    f.batch = 1, f.seq_q = 64, f.seq_k = 64, f.heads_q = 2, f.heads_kv = 2, f.head_dim = f.head_dim_v = 128;
    return f;
  };
  c.push_back({"attention null q", [=](Buffers& b) {
                 auto f = fmha(b); f.q = nullptr; kn::run_attention(f, nullptr);
               }, "[attention.pointers]"});
  c.push_back({"attention pageable k", [=](Buffers& b) {
                 auto f = fmha(b); f.k = host_ptr(b); kn::run_attention(f, nullptr);
               }, "[attention.pointers]"});
  c.push_back({"attention head_dim 100", [=](Buffers& b) {
                 auto f = fmha(b); f.head_dim = f.head_dim_v = 100; kn::run_attention(f, nullptr);
               }, "[attention.head-dim]"});
  c.push_back({"attention heads 3/2", [=](Buffers& b) {
                 auto f = fmha(b); f.heads_q = 3; kn::run_attention(f, nullptr);
               }, "[attention.gqa]"});
  c.push_back({"attention batch 0", [=](Buffers& b) {
                 auto f = fmha(b); f.batch = 0; kn::run_attention(f, nullptr);
               }, "[attention.shape]"});
  auto const decode = [](Buffers& b) {
    kn::DecodeArguments<bf16> d;
    d.q = b.a.data(), d.k = b.b.data(), d.v = b.b.data(), d.o = b.out.data();
    d.batch = 1, d.heads_q = 2, d.heads_kv = 2, d.head_dim = d.head_dim_v = 128, d.max_seq_k = 64;
    return d;
  };
  c.push_back({"decode null o", [=](Buffers& b) {
                 auto d = decode(b); d.o = nullptr; kn::run_decode_attention(d, nullptr);
               }, "[attention.pointers]"});
  c.push_back({"decode pageable q", [=](Buffers& b) {
                 auto d = decode(b); d.q = host_ptr(b); kn::run_decode_attention(d, nullptr);
               }, "[attention.pointers]"});
  c.push_back({"decode max_seq_k 0", [=](Buffers& b) {
                 auto d = decode(b); d.max_seq_k = 0; kn::run_decode_attention(d, nullptr);
               }, "[attention.shape]"});
  c.push_back({"kv append null seqlens", [](Buffers& b) {
                 kn::KvAppendArguments<bf16> k;
                 k.k_new = k.v_new = b.a.data(), k.k = k.v = b.out.data();
                 k.head_dim = k.head_dim_v = 128, k.max_seq_k = 16;
                 kn::run_kv_append(k, nullptr); }, "[attention.pointers]"});
  // sampling
  namespace cm = cute_cpp::models;
  c.push_back({"sampling pageable logits", [=](Buffers& b) {
                 cm::sample_tokens(host_ptr(b), 1000, 4, 1000, {}, 0, b.ids.data(), nullptr, 0, nullptr); },
               "[qwen3.sampling.pointers]"});
  c.push_back({"sampling top_p 0", [](Buffers& b) {
                 cm::SamplingParams p;
                 p.temperature = 1.0f, p.top_p = 0.0f;
                 cm::sample_tokens(b.a.data(), 1000, 4, 1000, p, 0, b.ids.data(), nullptr, 0, nullptr); },
               "[qwen3.sampling]"});
  c.push_back({"sampling rows 0", [](Buffers& b) {
                 cm::sample_tokens(b.a.data(), 1000, 0, 1000, {}, 0, b.ids.data(), nullptr, 0, nullptr); },
               "[qwen3.sampling]"});
  return c;
}

}  // namespace

TEST(BadInput, EveryEntryPointRefusesWithItsRuleAndWritesNothing) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  Buffers b;
  int refused = 0;
  for (Case const& c : cases()) {
    SCOPED_TRACE(c.what);
    b.reset();
    std::string message = "no error";
    try {
      c.call(b);
    } catch (std::invalid_argument const& e) {
      message = e.what();
    }
    EXPECT_NE(message.find(c.rule), std::string::npos) << c.what << ": " << message;
    EXPECT_TRUE(b.untouched()) << c.what << ": the output was written";
    refused += message.find(c.rule) != std::string::npos;
    std::printf("%-40s %s\n", c.what.c_str(), message.c_str());
  }
  std::printf("%d of %zu bad calls refused with their rule\n", refused, cases().size());
}
