// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// depthwise_check: checks ConvNeXt's depthwise causal conv (run_depthwise_conv1d, kernel 7, with
// bias) against the float64 reference (tests/support/conv_reference.hpp) on fresh random data with
// NaN-poisoned outputs: Qwen3-TTS's 1024 channels and a ragged count, lengths not multiples of the
// 64-step tile, zero and carried states, and streaming (chunks of 1, 5, 0, 100 and the rest, the
// state carried in place) against the whole sequence; the states exactly.
//   depthwise_check [--seed N]
// Tolerances: bf16 outputs from f32 math: 1/128 relative plus 1e-3.
#include <cute_cpp/kernels/conv/conv.cuh>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/conv_reference.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace ref = cute_cpp::test::conv;
using bf16 = __nv_bfloat16;
using Plan = kn::ConvNextDepthwisePlan;

namespace {

std::vector<double> doubles(std::vector<bf16> const& v) {
  std::vector<double> d(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = double(float(v[i]));
  return d;
}

template <class T>
host::DeviceBuffer<T> device(std::vector<T> const& v) {
  host::DeviceBuffer<T> b(std::max<std::size_t>(1, v.size()));
  if (!v.empty()) b.upload(std::span<T const>(v));
  return b;
}

bool check(int batch, int L, int C, bool with_state, std::vector<int> const& chunks, std::mt19937_64& rng) {
  constexpr int K = Plan::kernel, P = Plan::state_len;
  auto const x = kn::random_values<bf16>(std::size_t(batch) * L * C, rng);
  auto const w = kn::random_values<bf16>(std::size_t(C) * K, rng, -0.5, 0.5);
  auto const bias = kn::random_values<float>(C, rng, -0.5, 0.5);
  auto const state0 = with_state ? kn::random_values<bf16>(std::size_t(batch) * P * C, rng) : std::vector<bf16>{};
  auto const dw = device(w);
  auto const db = device(bias);
  auto state = device(state0);
  std::vector<bf16> out(std::size_t(batch) * L * C);
  int begin = 0;
  for (int len : chunks) {
    std::vector<bf16> xc;
    for (int b = 0; b < batch; ++b)
      xc.insert(xc.end(), x.begin() + (std::size_t(b) * L + begin) * C, x.begin() + (std::size_t(b) * L + begin + len) * C);
    auto const dx = device(xc);
    host::DeviceBuffer<bf16> dout(std::max<std::size_t>(1, std::size_t(batch) * len * C));
    dout.fill_bytes(0xFF);
    kn::DepthwiseConv1dArguments<bf16> a;
    a.x = dx.data(), a.weight = dw.data(), a.bias = db.data(), a.out = dout.data();
    a.state_in = with_state ? state.data() : nullptr, a.state_out = with_state ? state.data() : nullptr;
    a.batch = batch, a.length = len, a.channels = C;
    kn::run_depthwise_conv1d<Plan>(a);
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const part = dout.download();
    for (int b = 0; b < batch; ++b)
      std::copy(part.begin() + std::size_t(b) * len * C, part.begin() + std::size_t(b + 1) * len * C,
                out.begin() + (std::size_t(b) * L + begin) * C);
    begin += len;
  }
  ref::Sequences const xs{batch, L, C, doubles(x)};
  std::vector<double> bias_d(bias.begin(), bias.end());
  auto const want = ref::depthwise_conv1d(xs, doubles(w), K, bias_d, doubles(state0));
  std::string const name = "depthwise K7 L" + std::to_string(L) + " C" + std::to_string(C) + (with_state ? " state" : "") +
                           " chunks " + std::to_string(chunks.size());
  auto const r = kn::check_close(std::span<bf16 const>(out), std::span<double const>(want), 1.0 / 128, 1e-3);
  std::printf("check %-50s %s\n", name.c_str(), r.summary().c_str());
  bool ok = r.ok();
  if (with_state) {
    auto const want_state = ref::state_after(xs, P, doubles(state0));
    auto const got_state = state.download();
    auto const rs = kn::check_close(std::span<bf16 const>(got_state), std::span<double const>(want_state), 0, 0);
    std::printf("check %-50s %s\n", (name + " state").c_str(), rs.summary().c_str());
    ok &= rs.ok();
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check("depthwise_check", argc, argv, [](std::mt19937_64& rng, kn::ProgramOptions const&) {
    bool ok = check(2, 300, 1024, false, {300}, rng);
    ok &= check(1, 3, 1000, true, {3}, rng);  // shorter than the state
    ok &= check(2, 261, 1024, true, {1, 5, 0, 100, 155}, rng);
    ok &= check(1, 130, 72, true, {64, 66}, rng);
    return ok;
  });
}
