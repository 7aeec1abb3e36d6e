// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_ssm: the Mamba-2 kernels (kernels/ssm) at Nemotron-3 Nano's shapes (64 heads of 64, state
// 128, 8 groups, conv width 4 over 6144 channels): prefill of 2048 tokens (conv1d, SSD scan, gated
// norm) and decode at batch 1 and 32 (conv1d update, state update), each beside a device copy of
// the bytes its formula moves (inputs read once, outputs and states written once); the SSD
// prefill's FLOPs (C Bᵀ, chunk states, output) are printed beside it. Checks: tests/gpu/ssm.
//   bench_ssm [--json FILE] [--seed N]
#include <cute_cpp/kernels/ssm/ssm.cuh>
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;
using Plan = kn::NemotronSsdPlan;
using Conv = kn::NemotronConvPlan;

namespace {

constexpr int H = 64, P = Plan::head_dim, N = Plan::state, G = 8, W = Conv::width;
constexpr int conv_dim = H * P + 2 * G * N, proj = H * P + conv_dim + H;  // in_proj's row: z, xBC, dt

template <class T>
host::DeviceBuffer<T> random_buffer(std::size_t n, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0) {
  host::DeviceBuffer<T> b(n);
  auto const v = kn::random_values<T>(n, rng, lo, hi);
  b.upload(std::span<T const>(v));
  return b;
}

void bench_prefill(int T, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::string const shape = std::to_string(T) + " tokens";
  auto const zxbcdt = random_buffer<bf16>(std::size_t(T) * proj, rng);  // in_proj's output
  auto const weight = random_buffer<bf16>(std::size_t(conv_dim) * W, rng);
  auto const bias = random_buffer<bf16>(conv_dim, rng);
  auto const dt_bias = random_buffer<float>(H, rng);
  auto const A_log = random_buffer<float>(H, rng, -2.0, 0.7);
  auto const D = random_buffer<float>(H, rng, 0.5, 1.5);
  auto const norm_w = random_buffer<bf16>(H * P, rng, 0.5, 1.5);
  host::DeviceBuffer<bf16> xbc(std::size_t(T) * conv_dim), y(std::size_t(T) * H * P), out(std::size_t(T) * H * P);
  host::DeviceBuffer<bf16> conv_states(std::size_t(W - 1) * conv_dim);
  host::DeviceBuffer<float> states(std::size_t(H) * P * N);
  host::DeviceBuffer<int> cu(2);
  int const cu_host[] = {0, T};
  cu.upload(std::span<int const>(cu_host));
  conv_states.fill_bytes(0);
  auto const ws = kn::ssd_workspace<Plan>(T, 1, H, G);
  host::DeviceBuffer<unsigned char> workspace(ws.bytes);

  kn::ConvPrefillArguments<bf16> c;
  c.x = zxbcdt.data() + H * P, c.x_stride = proj, c.weight = weight.data(), c.bias = bias.data(), c.y = xbc.data();
  c.channels = conv_dim, c.total_tokens = T, c.num_seqs = 1, c.cu_seqlens = cu.data();
  c.final_states = conv_states.data();
  std::size_t const conv_bytes = 2 * std::size_t(T) * conv_dim * sizeof(bf16);
  records.push_back(kn::bench_against_copy("causal_conv1d_prefill", shape, "bf16", conv_bytes,
                                           [&] { kn::run_causal_conv1d_prefill<Conv>(c); }));

  kn::SsdPrefillArguments<bf16> a;
  a.x = xbc.data(), a.x_stride = conv_dim, a.B = xbc.data() + H * P, a.C = xbc.data() + H * P + G * N;
  a.bc_stride = conv_dim, a.dt = zxbcdt.data() + H * P + conv_dim, a.dt_stride = proj;
  a.dt_bias = dt_bias.data(), a.A_log = A_log.data(), a.D = D.data(), a.y = y.data();
  a.heads = H, a.groups = G, a.total_tokens = T, a.num_seqs = 1, a.cu_seqlens = cu.data();
  a.final_states = states.data(), a.dt_lo = 0.001f, a.workspace = workspace.data(), a.workspace_bytes = ws.bytes;
  std::size_t const ssd_bytes = std::size_t(T) * (conv_dim + H) * sizeof(bf16) +  // x, B, C, dt read
                                std::size_t(T) * H * P * sizeof(bf16) +            // y written
                                std::size_t(H) * P * N * sizeof(float);            // the final state
  double const chunks = double(ws.chunks), L = Plan::chunk;
  double const flops = chunks * (2 * L * L * N * G + 2 * L * P * N * H + 2 * L * N * P * H + L * L * P * H);
  records.push_back(
      kn::bench_against_copy("ssd_prefill", shape, "bf16", ssd_bytes, [&] { kn::run_ssd_prefill<Plan>(a); }));
  double const cuda_cores_us = records.back().microseconds;
  // The same scan with its chunk products on the tensor cores (3xTF32), and the two side by side.
  records.push_back(kn::bench_against_copy("ssd_prefill tensor cores", shape, "bf16", ssd_bytes,
                                           [&] { kn::run_ssd_prefill<kn::NemotronSsdPlanTensorCores>(a); }));
  double const tensor_cores_us = records.back().microseconds;
  records.push_back({"ssd_prefill tensor cores", shape, "bf16", flops / (tensor_cores_us * 1e6),
                     "ours on the CUDA cores (ssd_prefill)", flops / (cuda_cores_us * 1e6), "TFLOP/s", tensor_cores_us});
  std::printf("  bench ssd_prefill %s: %.1f GFLOP, %.1f TFLOP/s on the CUDA cores, %.1f on the tensor cores\n",
              shape.c_str(), flops * 1e-9, flops / (cuda_cores_us * 1e6), flops / (tensor_cores_us * 1e6));

  kn::GatedRmsNormArguments<bf16> n;
  n.y = y.data(), n.y_stride = H * P, n.z = zxbcdt.data(), n.z_stride = proj, n.weight = norm_w.data();
  n.out = out.data(), n.tokens = T, n.width = H * P, n.groups = G, n.eps = 1e-5f;
  records.push_back(kn::bench_against_copy("gated_rmsnorm", shape, "bf16", 3 * std::size_t(T) * H * P * sizeof(bf16),
                                           [&] { kn::run_gated_rmsnorm(n); }));
}

void bench_decode(int batch, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::string const shape = "batch " + std::to_string(batch);
  auto const zxbcdt = random_buffer<bf16>(std::size_t(batch) * proj, rng);
  auto const weight = random_buffer<bf16>(std::size_t(conv_dim) * W, rng);
  auto const bias = random_buffer<bf16>(conv_dim, rng);
  auto const dt_bias = random_buffer<float>(H, rng);
  auto const A_log = random_buffer<float>(H, rng, -2.0, 0.7);
  auto const D = random_buffer<float>(H, rng, 0.5, 1.5);
  auto conv_states = random_buffer<bf16>(std::size_t(batch) * (W - 1) * conv_dim, rng);
  auto states = random_buffer<float>(std::size_t(batch) * H * P * N, rng);
  host::DeviceBuffer<bf16> xbc(std::size_t(batch) * conv_dim), y(std::size_t(batch) * H * P);

  kn::ConvUpdateArguments<bf16> c;
  c.x = zxbcdt.data() + H * P, c.x_stride = proj, c.weight = weight.data(), c.bias = bias.data(), c.y = xbc.data();
  c.states = conv_states.data(), c.channels = conv_dim, c.batch = batch;
  std::size_t const conv_bytes = std::size_t(batch) * conv_dim * sizeof(bf16) * (2 + 2 * (W - 1)) +
                                 std::size_t(conv_dim) * (W + 1) * sizeof(bf16);
  records.push_back(kn::bench_against_copy("causal_conv1d_update", shape, "bf16", conv_bytes,
                                           [&] { kn::run_causal_conv1d_update<Conv>(c); }));

  kn::StateUpdateArguments<bf16> a;
  a.x = xbc.data(), a.x_stride = conv_dim, a.B = xbc.data() + H * P, a.C = xbc.data() + H * P + G * N;
  a.bc_stride = conv_dim, a.dt = zxbcdt.data() + H * P + conv_dim, a.dt_stride = proj;
  a.dt_bias = dt_bias.data(), a.A_log = A_log.data(), a.D = D.data(), a.states = states.data(), a.y = y.data();
  a.heads = H, a.groups = G, a.batch = batch, a.dt_lo = 0.001f;
  std::size_t const update_bytes = 2 * std::size_t(batch) * H * P * N * sizeof(float) +  // the states read and written
                                   std::size_t(batch) * (conv_dim + H + H * P) * sizeof(bf16);
  records.push_back(kn::bench_against_copy("selective_state_update", shape, "bf16", update_bytes,
                                           [&] { kn::run_selective_state_update<Plan>(a); }));
}

}  // namespace

int main(int argc, char** argv) {
  return kn::run_bench("bench_ssm", argc, argv,
                       [](std::mt19937_64& rng, kn::ProgramOptions const&, std::vector<kn::Record>& records) {
                         bench_prefill(2048, records, rng);
                         for (int batch : {1, 32}) bench_decode(batch, records, rng);
                       });
}
