// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// moe_sm90: checks the MoE block (moe.cuh) on fresh random data with poisoned outputs, step by
// step against the host in double: the routing from the router's logits (softmax, top k,
// renormalized), the experts' offsets and each choice's row, and y from the GPU's choices (h
// rounded to bf16 as the kernels store it); then times the block at Qwen3-30B-A3B's size against
// the same routing with cuBLAS doing the experts' products one expert at a time (gate and up,
// then kernels/rows/swiglu.cuh's kernel, then down).
//   moe_sm90 [--no-bench] [--json FILE] [--seed N] [--small]
#include <cute_cpp/kernels/moe/moe.cuh>
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "bench/support/cublas.hpp"
#include <cute_cpp/kernels/rows/swiglu.cuh>

#include <cute_cpp/host/buffer.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace moe = cute_cpp::kernels::moe;
namespace host = cute_cpp::host;
using moe::bf16;

namespace {

double val(bf16 v) { return double(static_cast<float>(v)); }

/// A layer's weights and input on the host and the device.
struct Layer {
  moe::MoeShape s;
  std::vector<bf16> x, router, gate_up, down;  // gate_up: each expert's (2F, H), gate and up rows in blocks of 8
  host::DeviceBuffer<bf16> dx, drouter, dgate_up, ddown, dy;
  host::DeviceBuffer<unsigned char> scratch;
  Layer(moe::MoeShape const& shape, std::mt19937_64& rng) : s(shape) {
    auto const e = std::size_t(s.experts), h = std::size_t(s.hidden), f = std::size_t(s.ffn);
    x = kn::random_values<bf16>(std::size_t(s.tokens) * h, rng, -1.0, 1.0);
    router = kn::random_values<bf16>(e * h, rng, -3.0 / std::sqrt(double(h)), 3.0 / std::sqrt(double(h)));
    gate_up = kn::random_values<bf16>(e * 2 * f * h, rng, -2.0 / std::sqrt(double(h)), 2.0 / std::sqrt(double(h)));
    down = kn::random_values<bf16>(e * h * f, rng, -1.0 / std::sqrt(double(f)), 1.0 / std::sqrt(double(f)));
    auto up = [](host::DeviceBuffer<bf16>& d, std::vector<bf16> const& v) {
      d = host::DeviceBuffer<bf16>(v.size());
      d.upload(std::span<bf16 const>(v));
    };
    up(dx, x), up(drouter, router), up(dgate_up, gate_up), up(ddown, down);
    dy = host::DeviceBuffer<bf16>(std::size_t(s.tokens) * h);
    scratch = host::DeviceBuffer<unsigned char>(moe::moe_scratch_bytes(s));
    scratch.fill_bytes(0);
  }
  [[nodiscard]] moe::MoeWeights weights() const { return {drouter.data(), dgate_up.data(), ddown.data()}; }
  [[nodiscard]] moe::MoeScratch carved() const {
    auto const base = (reinterpret_cast<std::uintptr_t>(scratch.data()) + 255) / 256 * 256;
    return moe::MoeScratch(reinterpret_cast<void*>(base), s);
  }
  void run(cudaStream_t stream = nullptr) { moe::moe_layer(dx.data(), weights(), s, dy.data(), scratch.data(), stream); }
};

template <class T>
std::vector<T> download(T const* p, std::size_t n) {
  std::vector<T> v(n);
  host::cuda_check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return v;
}

/// Every step of the layer against the host (see the file comment).
bool check_layer(moe::MoeShape const& shape, std::mt19937_64& rng) {
  Layer l(shape, rng);
  auto const& s = l.s;
  auto const t_count = std::size_t(s.tokens), e_count = std::size_t(s.experts), k = std::size_t(s.top_k);
  auto const h = std::size_t(s.hidden), f = std::size_t(s.ffn);
  l.dy.fill_bytes(0xFF);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  auto const logits = download(m.logits, t_count * e_count);
  auto const ids = download(m.ids, t_count * k);
  auto const weights = download(m.weights, t_count * k);
  auto const offsets = download(m.offsets, e_count);
  auto const rows = download(m.rows, t_count * k);
  auto const y = l.dy.download();
  // Routing, from the GPU's logits: the chosen experts are a top k (a choice may swap with an
  // equal probability), each weight its probability.
  std::size_t bad_route = 0;
  for (std::size_t t = 0; t < t_count; ++t) {
    std::vector<double> p(e_count);
    double top = -1e300, sum = 0, chosen_sum = 0;
    for (std::size_t e = 0; e < e_count; ++e) top = std::max(top, val(logits[t * e_count + e]));
    for (std::size_t e = 0; e < e_count; ++e) sum += p[e] = std::exp(val(logits[t * e_count + e]) - top);
    for (double& v : p) v /= sum;
    std::vector<double> sorted = p;
    std::sort(sorted.rbegin(), sorted.rend());
    for (std::size_t j = 0; j < k; ++j) chosen_sum += p[std::size_t(ids[t * k + j])];
    for (std::size_t j = 0; j < k; ++j) {
      auto const e = std::size_t(ids[t * k + j]);
      double const want = s.renormalize ? p[e] / chosen_sum : p[e];
      bool const in_top = p[e] >= sorted[k - 1] * (1 - 1e-5);
      bool const unique = std::count(ids.begin() + std::ptrdiff_t(t * k), ids.begin() + std::ptrdiff_t((t + 1) * k),
                                     ids[t * k + j]) == 1;
      bad_route += !(in_top && unique && std::fabs(weights[t * k + j] - want) <= 1e-5 + 1e-4 * want);
    }
  }
  // Offsets: each expert's end row; rows: a permutation placing each choice within its expert's rows.
  std::vector<std::int64_t> count(e_count, 0);
  for (std::int32_t id : ids) ++count[std::size_t(id)];
  std::size_t bad_rows = 0;
  std::int64_t end = 0;
  for (std::size_t e = 0; e < e_count; ++e) bad_rows += offsets[e] != (end += count[e]);
  std::vector<char> seen(t_count * k, 0);
  for (std::size_t i = 0; i < t_count * k; ++i) {
    auto const e = std::size_t(ids[i]);
    std::int64_t const lo = e ? offsets[e - 1] : 0, r = rows[i];
    bool const ok = r >= lo && r < offsets[e] && r < std::int64_t(t_count * k) && !seen[std::size_t(r)];
    if (ok) seen[std::size_t(r)] = 1;
    bad_rows += !ok;
  }
  // y from the GPU's choices and weights.
  std::vector<double> want(t_count * h, 0.0);
  std::vector<double> act(f);
  for (std::size_t t = 0; t < t_count; ++t)
    for (std::size_t j = 0; j < k; ++j) {
      auto const e = std::size_t(ids[t * k + j]);
      bf16 const* wgu = l.gate_up.data() + e * 2 * f * h;
      for (std::size_t r = 0; r < f; ++r) {
        std::size_t const gate = r / 8 * 16 + r % 8;
        double g = 0, u = 0;
        for (std::size_t c = 0; c < h; ++c) {
          g += val(l.x[t * h + c]) * val(wgu[gate * h + c]);
          u += val(l.x[t * h + c]) * val(wgu[(gate + 8) * h + c]);
        }
        act[r] = val(static_cast<bf16>(static_cast<float>(g / (1 + std::exp(-g)) * u)));
      }
      bf16 const* wd = l.down.data() + e * h * f;
      for (std::size_t c = 0; c < h; ++c) {
        double acc = 0;
        for (std::size_t r = 0; r < f; ++r) acc += act[r] * val(wd[c * f + r]);
        // y_perm is stored as bf16 before the weighted sum.
        want[t * h + c] += double(weights[t * k + j]) * val(static_cast<bf16>(static_cast<float>(acc)));
      }
    }
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  auto const res = kn::check_close(std::span<bf16 const>(y), std::span<double const>(want), 1.0 / 64, scale * 0.01);
  bool const ok = bad_route == 0 && bad_rows == 0 && res.ok();
  std::printf("check moe T=%-5lld H=%-5lld F=%-5lld E=%-4d k=%-2d routing %s (%zu bad), rows %s (%zu bad), y %s\n",
              (long long)s.tokens, (long long)s.hidden, (long long)s.ffn, s.experts, s.top_k,
              bad_route ? "FAILED" : "ok", bad_route, bad_rows ? "FAILED" : "ok", bad_rows, res.summary().c_str());
  return ok;
}

bool check_rejection() {
  try {
    (void)moe::moe_scratch_bytes({.tokens = 4, .hidden = 64, .ffn = 64, .experts = 300, .top_k = 2});
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find("[moe.shape]") != std::string::npos;
    std::printf("check moe rejects 300 experts [moe.shape] %s\n", named ? "ok" : "FAILED: another error");
    return named;
  }
  std::printf("check moe rejects 300 experts [moe.shape] FAILED: no error\n");
  return false;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejection();
  ok &= check_layer({.tokens = 37, .hidden = 128, .ffn = 64, .experts = 8, .top_k = 2}, rng);
  ok &= check_layer({.tokens = 5, .hidden = 64, .ffn = 48, .experts = 40, .top_k = 6, .renormalize = false}, rng);
  if (!small) {
    ok &= check_layer({.tokens = 300, .hidden = 256, .ffn = 96, .experts = 128, .top_k = 8}, rng);
    ok &= check_layer({.tokens = 1, .hidden = 64, .ffn = 64, .experts = 256, .top_k = 16}, rng);
  }
  return ok;
}

void bench(std::int64_t tokens, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  moe::MoeShape const s{.tokens = tokens, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8};
  Layer l(s, rng);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  auto const offsets = download(m.offsets, std::size_t(s.experts));
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  host::DeviceBuffer<bf16> gu(std::size_t(s.rows() * 2 * s.ffn));
  // The reference: the same routing steps, then each expert's products by cuBLAS (the fused weight's
  // interleaved rows give an interleaved gu; the swiglu kernel's split halves cost the same), then
  // the same combine.
  auto const reference = [&] {
    moe::moe_dispatch(l.dx.data(), l.weights(), s, m, nullptr);
    for (int e = 0; e < s.experts; ++e) {
      int const lo = e ? offsets[std::size_t(e - 1)] : 0, rows = offsets[std::size_t(e)] - lo;
      if (rows == 0) continue;
      kn::cublas_linear(handle, m.x_perm + std::int64_t(lo) * s.hidden, l.dgate_up.data() + std::int64_t(e) * 2 * s.ffn * s.hidden,
                    gu.data() + std::int64_t(lo) * 2 * s.ffn, rows, int(2 * s.ffn), int(s.hidden));
    }
    kn::swiglu<bf16>(gu.data(), m.h, std::size_t(s.rows()), std::size_t(s.ffn));
    for (int e = 0; e < s.experts; ++e) {
      int const lo = e ? offsets[std::size_t(e - 1)] : 0, rows = offsets[std::size_t(e)] - lo;
      if (rows == 0) continue;
      kn::cublas_linear(handle, m.h + std::int64_t(lo) * s.ffn, l.ddown.data() + std::int64_t(e) * s.hidden * s.ffn,
                    m.y_perm + std::int64_t(lo) * s.hidden, rows, int(s.hidden), int(s.ffn));
    }
    moe::combine_kernel<<<unsigned((s.tokens + 7) / 8), 256>>>(m.y_perm, m.rows, m.weights, s.tokens, s.top_k,
                                                               s.hidden, l.dy.data());
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { l.run(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  // FLOPs: the router and the experts' three products per chosen row.
  double const flops = 2.0 * double(tokens) * double(s.hidden) * double(s.experts) +
                       2.0 * double(s.rows()) * double(s.hidden) * double(s.ffn) * 3.0;
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"moe_sm90 layer", "Qwen3-30B-A3B T" + std::to_string(tokens) + " E128 k8 H2048 F768", "bf16",
                     tflops(ours_ms), "same routing + cuBLAS per expert + swiglu", tflops(ref_ms), "TFLOP/s",
                     ours_ms * 1e3});
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_plan_kernels(argc, argv, kn::plans::DenseAndGrouped{})) return 0;
  return kn::run_example(
      "moe_sm90", argc, argv,
      [](std::mt19937_64& rng, kn::ExampleOptions const& options) { return run_checks(rng, options.has("--small")); },
      [](std::mt19937_64& rng, kn::ExampleOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--small")) return;
        bench(512, records, rng);
        bench(4096, records, rng);
      },
      {"--small"});
}
