// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// ssd_check: checks the Mamba-2 SSD prefill (run_ssd_prefill) and the decode step
// (run_selective_state_update) at Nemotron-3 Nano's P 64, N 128, chunk 128 against the float64
// recurrence (tests/support/ssm_reference.hpp) on fresh random data with NaN-poisoned outputs:
// varlen lengths that are not multiples of the chunk (an empty sequence among them), x, B and C
// read in place from a conv-output row (x_stride = B/C stride = conv_dim), dt from a wider row,
// slot-indexed initial states updated in place, a prefill split in two against the whole, and
// decode steps (a padding row among them) continuing the prefill. The prefill twice: its chunk
// products on the CUDA cores (NemotronSsdPlan) and on the tensor cores (NemotronSsdPlanTensorCores,
// 3xTF32), each held to the same tolerances.
//   ssd_check [--seed N] [--small]
// Tolerances: y is bf16 (2 units in the last place, 1/128 relative) plus 1e-3 of the largest
// |y| for f32 accumulation over up to 128 + 128 terms; states are f32: 1e-4 of the largest.
#include <cute_cpp/kernels/ssm/ssm.cuh>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/ssm_reference.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace ref = cute_cpp::test::ssm;
using bf16 = __nv_bfloat16;
using Plan = kn::NemotronSsdPlan;

namespace {

constexpr int P = Plan::head_dim, N = Plan::state;

template <class T>
std::vector<double> doubles(std::vector<T> const& v) {
  std::vector<double> d(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = double(float(v[i]));
  return d;
}

double max_abs(std::vector<double> const& v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

/// The inputs of one problem on the host (bf16 and f32 as the kernels read them) and on the device.
struct Inputs {
  int H, G, conv_dim, dt_stride, T, S, slots;
  std::vector<int> cu, slot_of;
  std::vector<bf16> xbc, dt;
  std::vector<float> dt_bias, A_log, D, states;
  ref::SsdProblem problem;  // the same values in double, dense, states in sequence order
};

Inputs make_inputs(std::vector<int> const& lengths, int H, int G, std::mt19937_64& rng) {
  Inputs in;
  in.H = H, in.G = G, in.conv_dim = H * P + 2 * G * N, in.dt_stride = H + 3;
  in.cu = {0};
  for (int l : lengths) in.cu.push_back(in.cu.back() + l);
  in.T = in.cu.back(), in.S = int(lengths.size()), in.slots = in.S + 2;
  for (int s = 0; s < in.S; ++s) in.slot_of.push_back(in.slots - 1 - s);  // distinct, reversed; 0 and 1 unused
  in.xbc = kn::random_values<bf16>(std::size_t(in.T) * in.conv_dim, rng, -1.0, 1.0);
  in.dt = kn::random_values<bf16>(std::size_t(in.T) * in.dt_stride, rng, -4.0, 1.0);
  in.dt_bias = kn::random_values<float>(H, rng, -1.0, 1.0);
  in.A_log = kn::random_values<float>(H, rng, -2.0, 0.7);
  in.D = kn::random_values<float>(H, rng, 0.5, 1.5);
  in.states = kn::random_values<float>(std::size_t(in.slots) * H * P * N, rng, -1.0, 1.0);
  ref::SsdProblem& q = in.problem;
  q.heads = H, q.head_dim = P, q.state = N, q.groups = G, q.cu_seqlens = in.cu;
  q.dt_lo = 0.001;  // NemotronH's torch path: dt clamped below at time_step_min
  for (int t = 0; t < in.T; ++t) {
    for (int i = 0; i < H * P; ++i) q.x.push_back(double(float(in.xbc[std::size_t(t) * in.conv_dim + i])));
    for (int i = 0; i < G * N; ++i) q.B.push_back(double(float(in.xbc[std::size_t(t) * in.conv_dim + H * P + i])));
    for (int i = 0; i < G * N; ++i)
      q.C.push_back(double(float(in.xbc[std::size_t(t) * in.conv_dim + H * P + G * N + i])));
    for (int h = 0; h < H; ++h) q.dt.push_back(double(float(in.dt[std::size_t(t) * in.dt_stride + h])));
  }
  q.dt_bias = doubles(in.dt_bias), q.A_log = doubles(in.A_log), q.D = doubles(in.D);
  std::size_t const E = q.state_elems();
  for (int s = 0; s < in.S; ++s)
    for (std::size_t e = 0; e < E; ++e) q.initial.push_back(in.states[std::size_t(in.slot_of[s]) * E + e]);
  return in;
}

/// "prefill" or "tensor-core prefill": which of the plan's kernels a report line names.
template <class SsdPlanT>
std::string prefill_name() {
  return SsdPlanT::products == kn::SsdProducts::tensor_cores ? "tensor-core prefill" : "prefill";
}

/// Runs SsdPlanT's prefill on `in` (states in place in their slots); returns y and the states buffer.
template <class SsdPlanT>
std::pair<std::vector<bf16>, std::vector<float>> run_prefill(Inputs const& in) {
  host::DeviceBuffer<bf16> xbc(in.xbc.size()), dt(in.dt.size()), y(std::max<std::size_t>(1, std::size_t(in.T) * in.H * P));
  host::DeviceBuffer<float> bias(in.H), alog(in.H), d(in.H), states(in.states.size());
  host::DeviceBuffer<int> cu(in.cu.size()), slots(in.slot_of.size());
  xbc.upload(std::span<bf16 const>(in.xbc));
  dt.upload(std::span<bf16 const>(in.dt));
  bias.upload(std::span<float const>(in.dt_bias));
  alog.upload(std::span<float const>(in.A_log));
  d.upload(std::span<float const>(in.D));
  states.upload(std::span<float const>(in.states));
  cu.upload(std::span<int const>(in.cu));
  slots.upload(std::span<int const>(in.slot_of));
  y.fill_bytes(0xFF);
  auto const ws = kn::ssd_workspace<SsdPlanT>(in.T, in.S, in.H, in.G);
  host::DeviceBuffer<unsigned char> workspace(ws.bytes);
  workspace.fill_bytes(0xFF);
  kn::SsdPrefillArguments<bf16> a;
  a.x = xbc.data(), a.x_stride = in.conv_dim;
  a.B = xbc.data() + in.H * P, a.C = xbc.data() + in.H * P + in.G * N, a.bc_stride = in.conv_dim;
  a.dt = dt.data(), a.dt_stride = in.dt_stride;
  a.dt_bias = bias.data(), a.A_log = alog.data(), a.D = d.data(), a.y = y.data();
  a.heads = in.H, a.groups = in.G, a.total_tokens = in.T, a.num_seqs = in.S;
  a.cu_seqlens = cu.data(), a.cu_seqlens_host = in.cu.data();
  a.initial_states = states.data(), a.final_states = states.data(), a.state_slots = slots.data();
  a.dt_lo = 0.001f;
  a.workspace = workspace.data(), a.workspace_bytes = ws.bytes;
  kn::run_ssd_prefill<SsdPlanT>(a);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto out = y.download();
  out.resize(std::size_t(in.T) * in.H * P);
  return {out, states.download()};
}

/// The final states of `r` (sequence order) at their slots in a copy of `before`.
std::vector<double> states_in_slots(Inputs const& in, std::vector<double> const& finals) {
  std::vector<double> s = doubles(in.states);
  std::size_t const E = in.problem.state_elems();
  for (int q = 0; q < in.S; ++q)
    std::copy(finals.begin() + q * E, finals.begin() + (q + 1) * E, s.begin() + std::size_t(in.slot_of[q]) * E);
  return s;
}

bool report(std::string const& what, kn::CheckResult const& r) {
  std::printf("check ssd %-46s %s\n", what.c_str(), r.summary().c_str());
  return r.ok();
}

template <class SsdPlanT>
bool check_prefill(std::vector<int> const& lengths, int H, int G, std::mt19937_64& rng) {
  Inputs const in = make_inputs(lengths, H, G, rng);
  auto const want = ref::ssd_sequential(in.problem);
  auto const [y, states] = run_prefill<SsdPlanT>(in);
  auto const want_states = states_in_slots(in, want.final_states);
  std::string const name = prefill_name<SsdPlanT>();
  bool ok = report(name + " y", kn::check_close(std::span<bf16 const>(y), std::span<double const>(want.y), 1.0 / 128,
                                                 1e-3 * max_abs(want.y)));
  ok &= report(name + " final states (in slots)",
               kn::check_close(std::span<float const>(states), std::span<double const>(want_states), 1e-4,
                               1e-4 * max_abs(want_states)));
  return ok;
}

/// A prefill of one sequence split at `cut`: the second call from the first's final state gives
/// the whole's y and final state.
template <class SsdPlanT>
bool check_split(int length, int cut, std::mt19937_64& rng) {
  Inputs whole = make_inputs({length}, 8, 2, rng);
  auto const want = ref::ssd_sequential(whole.problem);
  Inputs first = whole, second = whole;
  first.cu = {0, cut}, first.T = cut;
  first.xbc.resize(std::size_t(cut) * whole.conv_dim), first.dt.resize(std::size_t(cut) * whole.dt_stride);
  auto const [y1, states1] = run_prefill<SsdPlanT>(first);
  second.cu = {0, length - cut}, second.T = length - cut;
  second.xbc.assign(whole.xbc.begin() + std::ptrdiff_t(cut) * whole.conv_dim, whole.xbc.end());
  second.dt.assign(whole.dt.begin() + std::ptrdiff_t(cut) * whole.dt_stride, whole.dt.end());
  second.states = states1;
  auto const [y2, states2] = run_prefill<SsdPlanT>(second);
  std::vector<bf16> y = y1;
  y.insert(y.end(), y2.begin(), y2.end());
  std::string const name = "split " + prefill_name<SsdPlanT>();
  bool ok = report(name + " y", kn::check_close(std::span<bf16 const>(y), std::span<double const>(want.y),
                                                       1.0 / 128, 1e-3 * max_abs(want.y)));
  auto const want_states = states_in_slots(whole, want.final_states);
  ok &= report(name + " final state", kn::check_close(std::span<float const>(states2),
                                                            std::span<double const>(want_states), 1e-4,
                                                            1e-4 * max_abs(want_states)));
  return ok;
}

/// `batch` decode steps in one call, row 1 padding (slot -1: nothing read or written), each
/// other row in its own slot; y and every slot (the unused ones unchanged) against the recurrence.
bool check_decode(int batch, int H, int G, std::mt19937_64& rng) {
  Inputs in = make_inputs(std::vector<int>(std::size_t(batch), 1), H, G, rng);
  int const padding = batch > 1 ? 1 : -1;
  if (padding >= 0) in.slot_of[padding] = -1;
  std::size_t const E = in.problem.state_elems();
  std::vector<double> want_states = doubles(in.states), want_y(std::size_t(batch) * H * P, 0.0);
  for (int b = 0; b < batch; ++b) {
    if (b == padding) continue;
    std::vector<double> S(want_states.begin() + std::size_t(in.slot_of[b]) * E,
                          want_states.begin() + std::size_t(in.slot_of[b] + 1) * E);
    auto const y = ref::state_update(S, in.problem, b);
    std::copy(S.begin(), S.end(), want_states.begin() + std::size_t(in.slot_of[b]) * E);
    std::copy(y.begin(), y.end(), want_y.begin() + std::size_t(b) * H * P);
  }
  host::DeviceBuffer<bf16> xbc(in.xbc.size()), dt(in.dt.size()), y(want_y.size());
  host::DeviceBuffer<float> bias(H), alog(H), d(H), states(in.states.size());
  host::DeviceBuffer<int> slots(in.slot_of.size());
  xbc.upload(std::span<bf16 const>(in.xbc));
  dt.upload(std::span<bf16 const>(in.dt));
  bias.upload(std::span<float const>(in.dt_bias));
  alog.upload(std::span<float const>(in.A_log));
  d.upload(std::span<float const>(in.D));
  states.upload(std::span<float const>(in.states));
  slots.upload(std::span<int const>(in.slot_of));
  y.fill_bytes(0xFF);
  kn::StateUpdateArguments<bf16> a;
  a.x = xbc.data(), a.x_stride = in.conv_dim;
  a.B = xbc.data() + H * P, a.C = xbc.data() + H * P + G * N, a.bc_stride = in.conv_dim;
  a.dt = dt.data(), a.dt_stride = in.dt_stride;
  a.dt_bias = bias.data(), a.A_log = alog.data(), a.D = d.data();
  a.states = states.data(), a.state_slots = slots.data(), a.y = y.data();
  a.heads = H, a.groups = G, a.batch = batch, a.dt_lo = 0.001f;
  kn::run_selective_state_update<Plan>(a);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto got_y = y.download();
  bool ok = true;
  if (padding >= 0) {
    // The padding row's y keeps its poison; it is then left out of the comparison.
    for (int i = 0; i < H * P; ++i) ok &= !std::isfinite(float(got_y[std::size_t(padding) * H * P + i]));
    std::printf("check ssd decode padding row untouched        %s\n", ok ? "yes" : "NO");
    std::fill(got_y.begin() + std::ptrdiff_t(padding) * H * P, got_y.begin() + std::ptrdiff_t(padding + 1) * H * P,
              __float2bfloat16(0.0f));
  }
  ok &= report("decode y", kn::check_close(std::span<bf16 const>(got_y), std::span<double const>(want_y), 1.0 / 128,
                                            1e-3 * max_abs(want_y)));
  auto const got_states = states.download();
  ok &= report("decode states (every slot)", kn::check_close(std::span<float const>(got_states),
                                                             std::span<double const>(want_states), 1e-5,
                                                             1e-5 * max_abs(want_states)));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;
  return kn::run_check(
      "ssd_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        using TensorCores = kn::NemotronSsdPlanTensorCores;
        if (options.has("--small"))
          return check_prefill<Plan>({130, 0, 5}, 4, 2, rng) && check_prefill<TensorCores>({130, 0, 5}, 4, 2, rng) &&
                 check_decode(3, 4, 2, rng);
        bool ok = true;
        for (bool const tensor_cores : {false, true}) {
          auto const prefill = tensor_cores ? check_prefill<TensorCores> : check_prefill<Plan>;
          auto const split = tensor_cores ? check_split<TensorCores> : check_split<Plan>;
          ok &= prefill({300, 1, 0, 128, 77}, 8, 2, rng);
          ok &= prefill({2048}, 64, 8, rng);  // Nemotron-3 Nano's heads and groups
          ok &= split(300, 170, rng);
          ok &= split(257, 128, rng);
        }
        ok &= check_decode(5, 8, 2, rng);
        ok &= check_decode(32, 64, 8, rng);
        return ok;
      },
      {"--small"});
}
