// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// conv_check: checks the causal conv1d (run_causal_conv1d) and the causal transposed conv1d
// (run_causal_conv_transpose1d), with their weights packed on the device from PyTorch's layouts,
// against the float64 references (tests/support/conv_reference.hpp) on fresh random data with
// NaN-poisoned outputs: lengths and channel counts that are not multiples of the tiles (1 output
// channel among them), kernel sizes 1, 3, 7 with dilations 1, 3, 9, every epilogue (none, GELU,
// SnakeBeta, bias, residual), carried states, every transposed stride of Qwen3-TTS's decoder (8, 5,
// 4, 3 with K = 2 s; 2 with K = s), and streaming: chunks (shorter than the state among them), each
// from the state the last left in place, against the whole sequence; the states exactly.
//   conv_check [--seed N] [--small]
// Tolerances: bf16 outputs from f32 accumulation: 1/128 relative (2 units in the last place) plus 2e-3.
#include <cute_cpp/kernels/conv/conv.cuh>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/conv_reference.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace ref = cute_cpp::test::conv;
using bf16 = __nv_bfloat16;

namespace {

constexpr double rtol = 1.0 / 128, atol = 2e-3;

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

bool report(std::string const& what, kn::CheckResult const& r) {
  std::printf("check %-58s %s\n", what.c_str(), r.summary().c_str());
  return r.ok();
}

/// One layer's parameters: the weight in PyTorch's layout, f32 bias and SnakeBeta's logs, bf16 values.
struct Layer {
  int c_in, c_out, K, d, activation;
  std::vector<bf16> weight;
  std::vector<float> bias, alpha_log, beta_log;
  [[nodiscard]] ref::Epilogue epilogue() const {
    ref::Epilogue e{activation, {}, {}, {}};
    for (float v : bias) e.bias.push_back(v);
    for (float v : alpha_log) e.alpha_log.push_back(v);
    for (float v : beta_log) e.beta_log.push_back(v);
    return e;
  }
};

Layer make_layer(int c_in, int c_out, int K, int d, int activation, std::mt19937_64& rng) {
  double const scale = 1.0 / std::sqrt(double(c_in) * K);  // outputs of order 1
  Layer l{c_in, c_out, K, d, activation, kn::random_values<bf16>(std::size_t(c_out) * c_in * K, rng, -scale, scale), {}, {}, {}};
  l.bias = kn::random_values<float>(c_out, rng, -0.5, 0.5);
  l.alpha_log = kn::random_values<float>(c_out, rng, -1.0, 1.0);
  l.beta_log = kn::random_values<float>(c_out, rng, -1.0, 1.0);
  return l;
}

/// The device copies of a layer's parameters, the weight packed for the implicit GEMM.
struct DeviceLayer {
  host::DeviceBuffer<bf16> packed;
  host::DeviceBuffer<float> bias, alpha_log, beta_log;
  kn::ConvEpilogueArguments epilogue;
};

template <class TPlan = void>
DeviceLayer upload(Layer const& l) {
  auto const w = device(l.weight);
  DeviceLayer dl{host::DeviceBuffer<bf16>(l.weight.size()), device(l.bias), device(l.alpha_log), device(l.beta_log), {}};
  if constexpr (std::is_void_v<TPlan>) kn::run_conv_pack_weight(w.data(), dl.packed.data(), l.c_out, l.c_in, l.K);
  else kn::run_conv_transpose_pack_weight<TPlan>(w.data(), dl.packed.data(), l.c_in, l.c_out);
  dl.epilogue = {dl.bias.data(), static_cast<kn::ConvActivation>(l.activation), dl.alpha_log.data(), dl.beta_log.data()};
  return dl;
}

/// Runs `conv(x, out, state)` over `x` (batch, L, c_in) in chunks (lengths `chunks`, summing to
/// L), the state carried in place; returns out (batch, L * out_per_frame, c_out) and the final state.
template <class Conv>
std::pair<std::vector<bf16>, std::vector<bf16>> run_chunks(std::vector<bf16> const& x, int batch, int L, int c_in,
                                                           int rows_per_frame, int c_out, std::vector<int> const& chunks,
                                                           std::vector<bf16> const& state0, Conv&& conv) {
  std::vector<bf16> out(std::size_t(batch) * L * rows_per_frame * c_out);
  auto state = device(state0);
  int begin = 0;
  for (int len : chunks) {
    std::vector<bf16> xc;
    for (int b = 0; b < batch; ++b)
      xc.insert(xc.end(), x.begin() + (std::size_t(b) * L + begin) * c_in, x.begin() + (std::size_t(b) * L + begin + len) * c_in);
    auto const dx = device(xc);
    host::DeviceBuffer<bf16> dout(std::max<std::size_t>(1, std::size_t(batch) * len * rows_per_frame * c_out));
    dout.fill_bytes(0xFF);
    conv(dx.data(), dout.data(), state0.empty() ? nullptr : state.data(), len);
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const part = dout.download();
    std::size_t const row = std::size_t(rows_per_frame) * c_out;
    for (int b = 0; b < batch; ++b)
      std::copy(part.begin() + std::size_t(b) * len * row, part.begin() + std::size_t(b) * (len) * row + len * row,
                out.begin() + (std::size_t(b) * L + begin) * row);
    begin += len;
  }
  return {out, state0.empty() ? std::vector<bf16>{} : state.download()};
}

template <class Plan>
bool check_causal(int batch, int L, Layer const& l, bool residual, bool with_state, std::vector<int> chunks,
                  std::mt19937_64& rng) {
  if (chunks.empty()) chunks = {L};
  int const P = (l.K - 1) * l.d;
  auto const x = kn::random_values<bf16>(std::size_t(batch) * L * l.c_in, rng);
  auto const res = residual ? kn::random_values<bf16>(std::size_t(batch) * L * l.c_out, rng) : std::vector<bf16>{};
  auto const state0 = with_state ? kn::random_values<bf16>(std::size_t(batch) * P * l.c_in, rng) : std::vector<bf16>{};
  DeviceLayer const dl = upload(l);
  auto const dres = device(res);
  int offset = 0;  // the chunk's first frame: its residual rows
  auto const [out, state] = run_chunks(x, batch, L, l.c_in, 1, l.c_out, chunks, with_state ? state0 : std::vector<bf16>{},
                                       [&](bf16 const* dx, bf16* dout, bf16* dstate, int len) {
    kn::CausalConv1dArguments<bf16> a;
    a.x = dx, a.weight = dl.packed.data(), a.out = dout, a.state_in = dstate, a.state_out = dstate;
    a.epilogue = dl.epilogue, a.batch = batch, a.length = len, a.c_in = l.c_in, a.c_out = l.c_out;
    a.kernel_size = l.K, a.dilation = l.d;
    if (residual && batch == 1) a.residual = dres.data() + std::size_t(offset) * l.c_out;
    offset += len;
    kn::run_causal_conv1d<Plan>(a);
  });
  ref::Sequences const xs{batch, L, l.c_in, doubles(x)};
  auto const want = ref::causal_conv1d(xs, doubles(l.weight), l.c_out, l.K, l.d, l.epilogue(), doubles(state0),
                                       residual ? doubles(res) : std::vector<double>{});
  std::string const name = "causal L" + std::to_string(L) + " " + std::to_string(l.c_in) + "->" + std::to_string(l.c_out) +
                           " K" + std::to_string(l.K) + " d" + std::to_string(l.d) + " act" + std::to_string(l.activation) +
                           (residual ? " res" : "") + (with_state ? " state" : "") + " chunks " + std::to_string(chunks.size());
  bool ok = report(name, kn::check_close(std::span<bf16 const>(out), std::span<double const>(want), rtol, atol));
  if (with_state) {
    auto const want_state = ref::state_after(xs, P, doubles(state0));
    ok &= report(name + " state", kn::check_close(std::span<bf16 const>(state), std::span<double const>(want_state), 0, 0));
  }
  return ok;
}

template <class TPlan>
bool check_transposed(int batch, int L, int c_in, int c_out, int activation, std::vector<int> chunks, std::mt19937_64& rng) {
  if (chunks.empty()) chunks = {L};
  constexpr int s = TPlan::stride, K = TPlan::kernel_size;
  Layer l = make_layer(c_in, c_out, K, 1, activation, rng);
  auto const x = kn::random_values<bf16>(std::size_t(batch) * L * c_in, rng);
  bool const streamed = chunks.size() > 1 && TPlan::taps > 1;
  std::vector<bf16> const state0(streamed ? std::size_t(batch) * (TPlan::taps - 1) * c_in : 0, bf16(0.0f));
  DeviceLayer const dl = upload<TPlan>(l);
  auto const [out, state] = run_chunks(x, batch, L, c_in, s, c_out, chunks, state0,
                                       [&](bf16 const* dx, bf16* dout, bf16* dstate, int len) {
    kn::ConvTranspose1dArguments<bf16> a;
    a.x = dx, a.weight = dl.packed.data(), a.out = dout, a.state_in = dstate, a.state_out = dstate;
    a.epilogue = dl.epilogue, a.batch = batch, a.length = len, a.c_in = c_in, a.c_out = c_out;
    kn::run_causal_conv_transpose1d<TPlan>(a);
  });
  ref::Sequences const xs{batch, L, c_in, doubles(x)};
  // PyTorch's ConvTranspose1d weight is (c_in, c_out, K): the same values, read in that layout.
  auto const want = ref::conv_transpose1d(xs, doubles(l.weight), c_out, K, s, 0, K - s, l.epilogue());
  std::string const name = "transposed s" + std::to_string(s) + " K" + std::to_string(K) + " L" + std::to_string(L) + " " +
                           std::to_string(c_in) + "->" + std::to_string(c_out) + " act" + std::to_string(activation) +
                           " chunks " + std::to_string(chunks.size());
  return report(name, kn::check_close(std::span<bf16 const>(out), std::span<double const>(want), rtol, atol));
}

bool check_all(std::mt19937_64& rng, bool small) {
  using Wide = kn::ConvWidePlan;
  using Narrow = kn::ConvNarrowPlan;
  bool ok = true;
  ok &= check_causal<Wide>(2, 300, make_layer(64, 200, 7, 1, 2, rng), false, false, {}, rng);   // ragged M and N, SnakeBeta
  ok &= check_causal<Narrow>(1, 257, make_layer(96, 96, 7, 3, 2, rng), true, true, {}, rng);    // residual unit's conv1, a state
  ok &= check_causal<Narrow>(2, 131, make_layer(40, 70, 7, 9, 1, rng), false, false, {}, rng);  // dilation 9, GELU
  ok &= check_causal<Narrow>(1, 100, make_layer(96, 1, 7, 1, 0, rng), false, false, {}, rng);   // the output conv: 1 channel
  ok &= check_causal<Wide>(3, 1, make_layer(16, 130, 1, 1, 0, rng), false, false, {}, rng);     // kernel 1, one frame
  ok &= check_causal<Narrow>(1, 200, make_layer(96, 96, 1, 1, 0, rng), true, false, {}, rng);   // conv2 + the residual
  // Streaming: 300 frames in chunks of 1, 50, 0, 129, 120 (the state, 54 rows, longer than two of them).
  ok &= check_causal<Narrow>(2, 300, make_layer(48, 96, 7, 9, 2, rng), false, true, {1, 50, 0, 129, 120}, rng);
  ok &= check_causal<Narrow>(1, 300, make_layer(48, 96, 7, 9, 2, rng), true, true, {1, 50, 0, 129, 120}, rng);
  if (!small) {
    ok &= check_causal<Wide>(1, 77, make_layer(512, 1024, 3, 1, 0, rng), false, false, {}, rng);  // pre_conv
    ok &= check_causal<Wide>(1, 150, make_layer(768, 768, 7, 3, 2, rng), false, true, {}, rng);   // block 1's residual unit
  }
  ok &= check_transposed<kn::ConvTransposeS8>(2, 45, 64, 40, 0, {}, rng);
  ok &= check_transposed<kn::ConvTransposeS5>(1, 45, 64, 40, 2, {}, rng);
  ok &= check_transposed<kn::ConvTransposeS4>(1, 45, 32, 72, 1, {}, rng);
  ok &= check_transposed<kn::ConvTransposeS3>(2, 45, 192, 96, 0, {}, rng);
  ok &= check_transposed<kn::ConvTransposeS2>(1, 45, 64, 64, 0, {}, rng);
  ok &= check_transposed<kn::ConvTransposeS5>(2, 45, 64, 40, 0, {1, 20, 0, 24}, rng);  // streamed: 1 frame of state
  ok &= check_transposed<kn::ConvTransposeS8>(1, 45, 64, 40, 0, {7, 38}, rng);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {kn::plan_smem<kn::ConvWidePlan>(), kn::plan_smem<kn::ConvNarrowPlan>()})) return 0;
  return kn::run_check(
      "conv_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) { return check_all(rng, options.has("--small")); },
      {"--small"});
}
