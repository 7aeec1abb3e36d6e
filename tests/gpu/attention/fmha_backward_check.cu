// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// fmha_backward_check: checks the Hopper attention backward (run_attention_backward) on fresh random
// data with NaN-poisoned outputs and workspace against the backward in double on the host (every
// element of dQ, dK, dV; the tolerance from a naive float run with the kernel's 16-bit P and dS):
// D64 and D128, causal and not, seq_q above and below seq_k, lengths that are not multiples of
// the tiles, GQA 4:1 and 8:2, varlen with 3 sequences, Q, K, V read in place from a fused buffer,
// f16, the deterministic mode (two runs bitwise equal); and that bad arguments are errors naming
// their rule.
//   fmha_backward_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Its timings: bench/attention/bench_sdpa_fmha_backward.py (against PyTorch's cuDNN backward).
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/gpu/attention/fmha_backward_case.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace fb = cute_cpp::test::fmha_backward;

namespace {

template <class T>
std::vector<T> to_type(std::vector<double> const& x) {
  std::vector<T> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = T(float(x[i]));
  return out;
}
template <class T>
std::vector<double> to_double(std::vector<T> const& x) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = double(float(x[i]));
  return out;
}

/// The device side of a case: inputs uploaded, outputs and workspace poisoned with NaN.
template <class T>
struct DeviceCase {
  host::DeviceBuffer<T> q, k, v, o, d_o, dq, dk, dv, fused;
  host::DeviceBuffer<float> lse;
  host::DeviceBuffer<std::int32_t> cu_q, cu_k;
  host::DeviceBuffer<char> workspace;
  kn::FmhaBackwardArguments<T> args;

  DeviceCase(fb::Case const& c, fb::Rows const& r, fb::Tensors const& t)
      : q(t.q.size()), k(t.k.size()), v(t.v.size()), o(t.o.size()), d_o(t.d_o.size()), dq(t.q.size()),
        dk(t.k.size()), dv(t.v.size()), lse(t.lse.size()), cu_q(r.off_q.size()), cu_k(r.off_k.size()) {
    auto const up = [](host::DeviceBuffer<T>& buf, std::vector<double> const& x) {
      auto const h = to_type<T>(x);
      buf.upload(std::span<T const>(h));
    };
    up(q, t.q), up(k, t.k), up(v, t.v), up(o, t.o), up(d_o, t.d_o);
    if (c.fused_qkv) {
      // One [rows, heads_q + 2 heads_kv, d] buffer holding Q, K and V: each read in place with its strides.
      std::int64_t const heads = c.heads_q + 2 * c.heads_kv, rows = r.total_q;
      std::vector<double> packed(std::size_t(rows * heads * c.d));
      for (std::int64_t row = 0; row < rows; ++row)
        for (int h = 0; h < heads; ++h)
          for (int e = 0; e < c.d; ++e) {
            auto const& from = h < c.heads_q ? t.q : h < c.heads_q + c.heads_kv ? t.k : t.v;
            int const hh = h < c.heads_q ? h : h < c.heads_q + c.heads_kv ? h - c.heads_q : h - c.heads_q - c.heads_kv;
            int const hn = h < c.heads_q ? c.heads_q : c.heads_kv;
            packed[std::size_t((row * heads + h) * c.d + e)] = from[std::size_t((row * hn + hh) * c.d + e)];
          }
      fused = host::DeviceBuffer<T>(packed.size());
      up(fused, packed);
    }
    std::vector<float> const lse_f(t.lse.begin(), t.lse.end());
    lse.upload(std::span<float const>(lse_f));
    cu_q.upload(std::span<int const>(r.off_q));
    cu_k.upload(std::span<int const>(r.off_k));
    kn::FmhaBackwardArguments<T>& a = args;
    a.q = q.data(), a.k = k.data(), a.v = v.data(), a.o = o.data(), a.d_o = d_o.data(), a.lse = lse.data();
    if (c.fused_qkv) {
      std::int64_t const row = std::int64_t(c.heads_q + 2 * c.heads_kv) * c.d;
      a.q = fused.data(), a.k = fused.data() + c.heads_q * c.d, a.v = fused.data() + (c.heads_q + c.heads_kv) * c.d;
      a.q_stride = a.k_stride = a.v_stride = {c.seq_q * row, row, c.d};
    }
    a.dq = dq.data(), a.dk = dk.data(), a.dv = dv.data();
    a.batch = c.batch, a.heads_q = c.heads_q, a.heads_kv = c.heads_kv, a.head_dim = c.d;
    a.seq_q = c.varlen() ? *std::max_element(c.lens_q.begin(), c.lens_q.end()) : c.seq_q;
    a.seq_k = c.varlen() ? *std::max_element(c.lens_k.begin(), c.lens_k.end()) : c.seq_k;
    a.causal = c.causal;
    a.deterministic = c.deterministic;
    if (c.varlen()) {
      a.cu_seqlens_q = cu_q.data(), a.cu_seqlens_k = cu_k.data();
      a.cu_seqlens_q_host = r.off_q.data(), a.cu_seqlens_k_host = r.off_k.data();
      a.total_q = r.total_q, a.total_k = r.total_k;
    }
    workspace = host::DeviceBuffer<char>(kn::attention_backward_workspace_bytes(a));
    a.workspace = workspace.data();
    a.workspace_bytes = workspace.size();
  }
  /// Poisons the outputs and the workspace, runs the backward, returns dQ, dK, dV.
  void run(std::vector<T>& got_dq, std::vector<T>& got_dk, std::vector<T>& got_dv) {
    dq.fill_bytes(0xFF), dk.fill_bytes(0xFF), dv.fill_bytes(0xFF), workspace.fill_bytes(0xFF);
    kn::run_attention_backward<T>(args, nullptr);
    host::cuda_check(cudaDeviceSynchronize(), "fmha_backward_check");
    got_dq = dq.download(), got_dk = dk.download(), got_dv = dv.download();
  }
};

/// Runs one case on fresh random data and checks every element of dQ, dK and dV.
template <class T>
bool check_case(fb::Case const& c, std::mt19937_64& rng) {
  fb::Rows const r(c);
  fb::Tensors hi;
  auto const random = [&](std::int64_t rows, int heads) {
    return to_double(kn::random_values<T>(std::size_t(rows) * heads * c.d, rng, -1.0, 1.0));
  };
  hi.q = random(r.total_q, c.heads_q);
  hi.k = random(r.total_k, c.heads_kv);
  hi.v = random(r.total_k, c.heads_kv);
  hi.d_o = random(r.total_q, c.heads_q);
  fb::backward<double, double>(c, r, hi, /*forward=*/true);
  // The kernel's O and LSE are the forward's outputs: O in T, the LSE in float.
  fb::Tensors lo = hi;
  lo.o = to_double(to_type<T>(hi.o));
  for (auto& x : lo.lse) x = double(float(x));
  fb::Tensors given = lo;
  fb::backward<float, T>(c, r, lo, /*forward=*/false);
  DeviceCase<T> dev(c, r, given);
  std::vector<T> dq, dk, dv;
  dev.run(dq, dk, dv);
  bool ok = true;
  char const* const names[] = {"dQ", "dK", "dV"};
  std::vector<double> const* refs[] = {&hi.dq, &hi.dk, &hi.dv};
  std::vector<double> const* naives[] = {&lo.dq, &lo.dk, &lo.dv};
  std::vector<T> const* gots[] = {&dq, &dk, &dv};
  std::string line;
  double largest = 0;
  for (auto const* r : refs)
    for (double x : *r) largest = std::max(largest, std::fabs(x));
  for (int i = 0; i < 3; ++i) {
    fb::Bound const b =
        fb::check_bound(to_double(*gots[i]), *refs[i], to_double(to_type<T>(*naives[i])), 1e-5 * largest,
                        std::is_same_v<T, __half> ? 0x1p-11 : 0x1p-8);
    char text[256];
    if (b.bad == 0)
      std::snprintf(text, sizeof text, " %s ok (worst %.2g, bound %.2g, 1-sim %.1e);", names[i], b.worst, b.atol,
                    b.similarity_gap);
    else
      std::snprintf(text, sizeof text, " %s %zu of %zu WRONG, first at %zu: got %.6g want %.6g (bound %.2g);",
                    names[i], b.bad, b.checked, b.first_bad, b.got_at_first_bad, b.want_at_first_bad, b.atol);
    line += text;
    ok &= b.bad == 0;
  }
  if (c.deterministic) {
    std::vector<T> dq2, dk2, dv2;
    dev.run(dq2, dk2, dv2);
    bool const same = std::memcmp(dq.data(), dq2.data(), dq.size() * sizeof(T)) == 0 &&
                      std::memcmp(dk.data(), dk2.data(), dk.size() * sizeof(T)) == 0 &&
                      std::memcmp(dv.data(), dv2.data(), dv.size() * sizeof(T)) == 0;
    line += same ? " two runs bitwise equal" : " two runs DIFFER";
    ok &= same;
  }
  std::printf("  %-5s %-60s%s\n", std::is_same_v<T, __half> ? "f16" : "bf16", c.name().c_str(), line.c_str());
  return ok;
}

/// Bad arguments are errors naming the rule, and nothing is launched.
bool check_errors() {
  using bf16 = __nv_bfloat16;
  host::DeviceBuffer<bf16> buf(1 << 16);
  host::DeviceBuffer<char> ws(1 << 20);
  kn::FmhaBackwardArguments<bf16> a;
  a.q = a.k = a.v = a.o = a.d_o = buf.data();
  a.dq = a.dk = a.dv = buf.data();
  a.lse = reinterpret_cast<float const*>(buf.data());
  a.batch = 1, a.seq_q = a.seq_k = 16, a.heads_q = 4, a.heads_kv = 4, a.head_dim = 64;
  a.workspace = ws.data();
  a.workspace_bytes = ws.size();
  auto const expect = [](char const* rule, kn::FmhaBackwardArguments<bf16> const& args) {
    return kn::expect_rule(rule, [&] { kn::run_attention_backward(args, nullptr); });
  };
  bool ok = true;
  auto b = a;
  b.head_dim = 256;
  ok &= expect("[attention.backward.head-dim]", b);
  b = a;
  b.heads_kv = 3;
  ok &= expect("[attention.gqa]", b);
  b = a;
  b.lse = nullptr;
  ok &= expect("[attention.backward.pointers]", b);
  b = a;
  b.workspace_bytes = 1024;
  ok &= expect("[attention.backward.workspace]", b);
  b = a;
  b.dq = buf.data() + 4;  // 8 bytes off 16
  ok &= expect("[attention.backward.strides]", b);
  b = a;
  b.q = buf.data() + 1;
  ok &= expect("[tma.global.address]", b);
  b = a;
  b.cu_seqlens_q = reinterpret_cast<int const*>(buf.data());
  b.total_q = 16;
  ok &= expect("[attention.cu-seqlens]", b);  // cu_seqlens_k missing
  std::vector<int> const offsets{0, 12, 16};    // a sequence of 12 rows, but seq_q = seq_k = 8
  b.cu_seqlens_k = b.cu_seqlens_q;
  b.cu_seqlens_q_host = b.cu_seqlens_k_host = offsets.data();
  b.batch = 2, b.seq_q = b.seq_k = 8, b.total_q = b.total_k = 16;
  ok &= expect("[attention.cu-seqlens]", b);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using bf16 = __nv_bfloat16;
  if (kn::print_plan_kernels(argc, argv, kn::fmha_backward_plans::Instantiated{})) return 0;
  return kn::run_check(
      "fmha_backward_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) {
          // For compute-sanitizer (memcheck, racecheck): both plans, causal, GQA, varlen, deterministic.
          bool ok = check_case<bf16>({1, 130, 77, 4, 2, 64, true}, rng);
          ok &= check_case<bf16>({3, 0, 0, 2, 1, 128, true, {70, 1, 150}, {90, 40, 150}}, rng);
          ok &= check_case<bf16>({1, 150, 150, 2, 1, 128, false, {}, {}, true}, rng);
          return ok;
        }
        bool ok = check_errors();
        std::vector<fb::Case> const cases = {
            {1, 1, 1, 1, 1, 64},
            {2, 77, 77, 4, 4, 64},
            {2, 77, 77, 4, 4, 128, true},
            {2, 300, 300, 4, 4, 128, true},
            {2, 200, 300, 4, 4, 64, true},   // seq_q < seq_k: the diagonal moves right
            {1, 300, 130, 4, 4, 128, true},  // seq_q > seq_k: the first rows see no key
            {2, 257, 257, 4, 1, 128},        // GQA 4:1
            {2, 190, 190, 8, 2, 64, true},   // GQA 8:2
            {1, 1030, 1030, 2, 2, 128, true},
            {3, 0, 0, 4, 2, 128, true, {77, 300, 1}, {100, 300, 64}},
            {3, 0, 0, 8, 2, 64, false, {130, 5, 257}, {130, 70, 257}},
            {2, 300, 300, 4, 2, 128, true, {}, {}, true},
            {2, 133, 133, 4, 2, 128, true, {}, {}, false, true},  // fused QKV: strided Q, K, V
            {1, 100, 100, 2, 1, 64, false, {}, {}, false, true},
            {2, 211, 211, 4, 4, 64, false, {}, {}, true},
            {3, 0, 0, 4, 1, 128, true, {120, 64, 300}, {120, 64, 300}, true},
        };
        for (auto const& c : cases) ok &= check_case<bf16>(c, rng);
        ok &= check_case<__half>({2, 150, 150, 4, 2, 128, true}, rng);
        ok &= check_case<__half>({1, 99, 99, 2, 2, 64}, rng);
        return ok;
      },
      {"--small"});
}
