// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// conv_norm_check: checks the causal conv1d (run_causal_conv1d_prefill, run_causal_conv1d_update)
// and the grouped gated RMSNorm (run_gated_rmsnorm) against the float64 references
// (tests/support/ssm_reference.hpp) on fresh random data with NaN-poisoned outputs: varlen
// sequences (empty and shorter than the conv state among them) read from a wider projection row,
// slot-indexed conv states updated in place, a prefill split in two against the whole, decode
// steps (a padding row among them) against the prefill, and the norm at Nemotron-3 Nano's width
// (4096 channels in 8 groups) with z read from a wider row.
//   conv_norm_check [--seed N] [--small]
// Tolerances: bf16 outputs from f32 math: 1/128 relative (2 units in the last place) plus 1e-3.
#include <cute_cpp/kernels/ssm/ssm.cuh>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/ssm_reference.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace ref = cute_cpp::test::ssm;
using bf16 = __nv_bfloat16;
using Conv = kn::NemotronConvPlan;

namespace {

constexpr int W = Conv::width;

template <class T>
std::vector<double> doubles(std::vector<T> const& v) {
  std::vector<double> d(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = double(float(v[i]));
  return d;
}

bool report(char const* what, kn::CheckResult const& r) {
  std::printf("check %-40s %s\n", what, r.summary().c_str());
  return r.ok();
}

/// The conv's parameters and states, shared by the prefill and decode cases.
struct ConvCase {
  int channels, row, slots;
  std::vector<bf16> weight, bias, states;
  std::vector<int> slot_of;
};

ConvCase make_case(int channels, int seqs, std::mt19937_64& rng) {
  ConvCase c{channels, channels + 40, seqs + 2, {}, {}, {}, {}};
  c.weight = kn::random_values<bf16>(std::size_t(channels) * W, rng, -1.0, 1.0);
  c.bias = kn::random_values<bf16>(std::size_t(channels), rng, -1.0, 1.0);
  c.states = kn::random_values<bf16>(std::size_t(c.slots) * (W - 1) * channels, rng, -2.0, 2.0);
  // Distinct slots (the kernels' precondition), in reverse order; slots 0 and 1 stay unused.
  for (int s = 0; s < seqs; ++s) c.slot_of.push_back(c.slots - 1 - s);
  return c;
}

/// The prefill over `x` (T rows of c.row) with states in place; returns y and the states buffer.
std::pair<std::vector<bf16>, std::vector<bf16>> run_prefill(ConvCase const& c, std::vector<int> const& cu,
                                                            std::vector<bf16> const& x) {
  int const T = cu.back(), S = int(cu.size()) - 1;
  host::DeviceBuffer<bf16> dx(std::max<std::size_t>(1, x.size())), w(c.weight.size()), b(c.bias.size()),
      y(std::max<std::size_t>(1, std::size_t(T) * c.channels)), states(c.states.size());
  host::DeviceBuffer<int> dcu(cu.size()), slots(c.slot_of.size());
  if (!x.empty()) dx.upload(std::span<bf16 const>(x));
  w.upload(std::span<bf16 const>(c.weight));
  b.upload(std::span<bf16 const>(c.bias));
  states.upload(std::span<bf16 const>(c.states));
  dcu.upload(std::span<int const>(cu));
  slots.upload(std::span<int const>(c.slot_of));
  y.fill_bytes(0xFF);
  kn::ConvPrefillArguments<bf16> a;
  a.x = dx.data(), a.x_stride = c.row, a.weight = w.data(), a.bias = b.data(), a.y = y.data();
  a.channels = c.channels, a.total_tokens = T, a.num_seqs = S, a.cu_seqlens = dcu.data(), a.cu_seqlens_host = cu.data();
  a.initial_states = states.data(), a.final_states = states.data(), a.state_slots = slots.data();
  kn::run_causal_conv1d_prefill<Conv>(a);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto out = y.download();
  out.resize(std::size_t(T) * c.channels);
  return {out, states.download()};
}

/// The reference of `x` under the states of `c`: y and the states buffer after.
std::pair<std::vector<double>, std::vector<double>> reference(ConvCase const& c, std::vector<int> const& cu,
                                                              std::vector<bf16> const& x) {
  ref::ConvProblem q;
  q.channels = c.channels, q.width = W, q.cu_seqlens = cu, q.weight = doubles(c.weight), q.bias = doubles(c.bias);
  auto const all = doubles(c.states);
  std::size_t const E = std::size_t(W - 1) * c.channels;
  for (int s = 0; s + 1 < int(cu.size()); ++s)
    q.initial.insert(q.initial.end(), all.begin() + c.slot_of[s] * E, all.begin() + (c.slot_of[s] + 1) * E);
  for (int t = 0; t < cu.back(); ++t)
    for (int ch = 0; ch < c.channels; ++ch) q.x.push_back(double(float(x[std::size_t(t) * c.row + ch])));
  auto const r = ref::conv1d_direct(q);
  std::vector<double> states = all;
  for (int s = 0; s + 1 < int(cu.size()); ++s)
    std::copy(r.final_states.begin() + s * E, r.final_states.begin() + (s + 1) * E, states.begin() + c.slot_of[s] * E);
  return {r.y, states};
}

bool check_prefill(std::vector<int> const& lengths, int channels, std::mt19937_64& rng) {
  std::vector<int> cu{0};
  for (int l : lengths) cu.push_back(cu.back() + l);
  ConvCase const c = make_case(channels, int(lengths.size()), rng);
  auto const x = kn::random_values<bf16>(std::size_t(cu.back()) * c.row, rng);
  auto const [y, states] = run_prefill(c, cu, x);
  auto const [want_y, want_states] = reference(c, cu, x);
  bool ok = report("conv1d prefill y", kn::check_close(std::span<bf16 const>(y), std::span<double const>(want_y),
                                                        1.0 / 128, 1e-3));
  ok &= report("conv1d prefill states (every slot)",
               kn::check_close(std::span<bf16 const>(states), std::span<double const>(want_states), 0.0, 0.0));
  // Split at a token inside each sequence: the second call from the first's states is the whole.
  std::vector<int> cu1{0}, cu2{0};
  std::vector<bf16> x1, x2;
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    int const cut = lengths[s] / 3;
    cu1.push_back(cu1.back() + cut), cu2.push_back(cu2.back() + lengths[s] - cut);
    auto const at = x.begin() + std::ptrdiff_t(cu[s]) * c.row;
    x1.insert(x1.end(), at, at + std::ptrdiff_t(cut) * c.row);
    x2.insert(x2.end(), at + std::ptrdiff_t(cut) * c.row, at + std::ptrdiff_t(lengths[s]) * c.row);
  }
  auto const [y1, states1] = run_prefill(c, cu1, x1);
  ConvCase c2 = c;
  c2.states = states1;
  auto const [y2, states2] = run_prefill(c2, cu2, x2);
  std::vector<double> want_split;  // the whole's y in the split calls' order
  for (int part = 0; part < 2; ++part)
    for (std::size_t s = 0; s < lengths.size(); ++s) {
      int const cut = lengths[s] / 3, from = part == 0 ? 0 : cut, to = part == 0 ? cut : lengths[s];
      for (int t = from; t < to; ++t)
        for (int ch = 0; ch < channels; ++ch) want_split.push_back(want_y[std::size_t(cu[s] + t) * channels + ch]);
    }
  std::vector<bf16> got_split = y1;
  got_split.insert(got_split.end(), y2.begin(), y2.end());
  ok &= report("conv1d split prefill y", kn::check_close(std::span<bf16 const>(got_split),
                                                          std::span<double const>(want_split), 1.0 / 128, 1e-3));
  ok &= report("conv1d split prefill states", kn::check_close(std::span<bf16 const>(states2),
                                                               std::span<double const>(want_states), 0.0, 0.0));
  return ok;
}

/// One decode step of `batch` rows (row 0 padding when there are several) against the prefill of
/// one token from the state.
bool check_update(int batch, int channels, std::mt19937_64& rng) {
  ConvCase c = make_case(channels, batch, rng);
  std::vector<int> cu;
  for (int b = 0; b <= batch; ++b) cu.push_back(b);
  auto const x = kn::random_values<bf16>(std::size_t(batch) * c.row, rng);
  auto [want_y, want_states] = reference(c, cu, x);
  std::size_t const E = std::size_t(W - 1) * channels;
  bool const padding = batch > 1;
  if (padding) {
    auto const before = doubles(c.states);
    std::copy(before.begin() + c.slot_of[0] * E, before.begin() + (c.slot_of[0] + 1) * E,
              want_states.begin() + c.slot_of[0] * E);  // the padding row's slot is left alone
    c.slot_of[0] = -1;
  }
  host::DeviceBuffer<bf16> dx(x.size()), w(c.weight.size()), b(c.bias.size()), y(std::size_t(batch) * channels),
      states(c.states.size());
  host::DeviceBuffer<int> slots(c.slot_of.size());
  dx.upload(std::span<bf16 const>(x));
  w.upload(std::span<bf16 const>(c.weight));
  b.upload(std::span<bf16 const>(c.bias));
  states.upload(std::span<bf16 const>(c.states));
  slots.upload(std::span<int const>(c.slot_of));
  y.fill_bytes(0xFF);
  kn::ConvUpdateArguments<bf16> a;
  a.x = dx.data(), a.x_stride = c.row, a.weight = w.data(), a.bias = b.data(), a.y = y.data();
  a.states = states.data(), a.state_slots = slots.data(), a.channels = channels, a.batch = batch;
  kn::run_causal_conv1d_update<Conv>(a);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto got = y.download();
  bool ok = true;
  if (padding) {
    for (int ch = 0; ch < channels; ++ch) ok &= !std::isfinite(float(got[ch]));  // y keeps its poison
    std::fill(got.begin(), got.begin() + channels, __float2bfloat16(0.0f));
    std::fill(want_y.begin(), want_y.begin() + channels, 0.0);
  }
  ok &= report("conv1d update y", kn::check_close(std::span<bf16 const>(got), std::span<double const>(want_y),
                                                   1.0 / 128, 1e-3));
  auto const got_states = states.download();
  ok &= report("conv1d update states (every slot)", kn::check_close(std::span<bf16 const>(got_states),
                                                                     std::span<double const>(want_states), 0.0, 0.0));
  return ok;
}

bool check_norm(int tokens, int width, int groups, std::mt19937_64& rng) {
  int const z_stride = width + 136;
  auto const y = kn::random_values<bf16>(std::size_t(tokens) * width, rng);
  auto const z = kn::random_values<bf16>(std::size_t(tokens) * z_stride, rng, -4.0, 4.0);
  auto const w = kn::random_values<bf16>(std::size_t(width), rng, 0.5, 1.5);
  std::vector<double> zd;
  for (int t = 0; t < tokens; ++t)
    for (int i = 0; i < width; ++i) zd.push_back(double(float(z[std::size_t(t) * z_stride + i])));
  auto const want = ref::gated_rmsnorm(doubles(y), zd, doubles(w), width, groups, 1e-5);
  host::DeviceBuffer<bf16> dy(y.size()), dz(z.size()), dw(w.size()), out(y.size());
  dy.upload(std::span<bf16 const>(y));
  dz.upload(std::span<bf16 const>(z));
  dw.upload(std::span<bf16 const>(w));
  out.fill_bytes(0xFF);
  kn::GatedRmsNormArguments<bf16> a;
  a.y = dy.data(), a.y_stride = width, a.z = dz.data(), a.z_stride = z_stride, a.weight = dw.data(), a.out = out.data();
  a.tokens = tokens, a.width = width, a.groups = groups, a.eps = 1e-5f;
  kn::run_gated_rmsnorm(a);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = out.download();
  // Two roundings to bf16 (the normalised value, then the product), each half a unit: 1/128 holds both.
  return report("gated rmsnorm", kn::check_close(std::span<bf16 const>(got), std::span<double const>(want), 1.0 / 128,
                                                 1e-3));
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;
  int const conv_dim = 64 * 64 + 2 * 8 * 128;  // Nemotron-3 Nano: x, B and C channels
  return kn::run_check(
      "conv_norm_check", argc, argv,
      [&](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small"))
          return check_prefill({70, 0, 2}, 200, rng) && check_update(3, 200, rng) && check_norm(5, 512, 2, rng);
        bool ok = check_prefill({300, 1, 0, 2, 64, 129}, 300, rng);
        ok &= check_prefill({2048}, conv_dim, rng);
        ok &= check_update(1, conv_dim, rng);
        ok &= check_update(33, conv_dim, rng);
        ok &= check_norm(37, 4096, 8, rng);
        ok &= check_norm(1, 4096, 8, rng);   // a decode step: one CTA
        ok &= check_norm(2, 1000, 2, rng);   // groups of 500: a round of loads past the group's end
        ok &= check_norm(3, 200, 5, rng);  // groups of 40: lanes past the group's end
        return ok;
      },
      {"--small"});
}
