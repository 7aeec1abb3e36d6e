// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_conv: the convolution kernels (kernels/conv) at the shapes of Qwen3-TTS's 12 Hz speech
// decoder (decoder_dim 1536, latent 1024, upsampling 2 x 2 then 8, 5, 4, 3) decoding one
// chunk of 300 codes (24 s, 576000 samples): pre_conv, the ConvNeXt upsamplers' transposed convs
// and depthwise convs, the first decoder conv, each block's transposed conv and its residual
// units' convs (K 7 at dilations 1, 3, 9, and K 1), the output conv. Each row is timed beside a
// device copy of the bytes the conv moves (x, the weight and the output once); the conv's FLOPs
// (2 x taps x c_in per output) give its TFLOP/s, printed beside it. Checks: tests/gpu/conv.
//   bench_conv [--json FILE] [--seed N]
// NOTE: a cuDNN comparison would add, per row, cudnnConvolutionForward (or the cuDNN frontend's
// graph API) on an NHWC bf16 tensor (batch, c_in, 1, L + pad) with the filter (c_out, c_in, 1, K),
// dilation d, and the left pad done by an explicit pad (cuDNN pads symmetrically), linking
// CUDA::cudnn where find_package finds it; the transposed conv maps to cudnnConvolutionBackwardData.
#include <cute_cpp/kernels/conv/conv.cuh>
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

namespace {

template <class T>
host::DeviceBuffer<T> random_buffer(std::size_t n, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0) {
  host::DeviceBuffer<T> b(n);
  auto const v = kn::random_values<T>(n, rng, lo, hi);
  b.upload(std::span<T const>(v));
  return b;
}

void add_flops(kn::Record const& r, double flops) {
  std::printf("  bench %-22s %-28s %8.1f GFLOP %7.1f TFLOP/s\n", r.kernel.c_str(), r.shape.c_str(), flops * 1e-9,
              flops / (r.microseconds * 1e6));
}

/// One causal conv of the decoder: L frames, c_in -> c_out, kernel K, dilation d, SnakeBeta epilogue.
template <class Plan>
void bench_causal(char const* name, int L, int c_in, int c_out, int K, int d, kn::ConvActivation act,
                  std::vector<kn::Record>& records, std::mt19937_64& rng) {
  auto const x = random_buffer<bf16>(std::size_t(L) * c_in, rng);
  auto const w = random_buffer<bf16>(std::size_t(c_out) * K * c_in, rng, -0.05, 0.05);
  auto const bias = random_buffer<float>(c_out, rng), alpha = random_buffer<float>(c_out, rng), beta = random_buffer<float>(c_out, rng);
  host::DeviceBuffer<bf16> out(std::size_t(L) * c_out);
  kn::CausalConv1dArguments<bf16> a;
  a.x = x.data(), a.weight = w.data(), a.out = out.data(), a.epilogue = {bias.data(), act, alpha.data(), beta.data()};
  a.batch = 1, a.length = L, a.c_in = c_in, a.c_out = c_out, a.kernel_size = K, a.dilation = d;
  std::size_t const bytes = (std::size_t(L) * (c_in + c_out) + std::size_t(c_out) * K * c_in) * sizeof(bf16);
  std::string const shape = std::to_string(L) + "x" + std::to_string(c_in) + "->" + std::to_string(c_out) + " K" +
                            std::to_string(K) + " d" + std::to_string(d);
  records.push_back(kn::bench_against_copy(name, shape, "bf16", bytes, [&] { kn::run_causal_conv1d<Plan>(a); }));
  add_flops(records.back(), 2.0 * L * c_out * double(K) * c_in);
}

/// One transposed conv: L input frames, c_in -> c_out, the plan's stride and kernel.
template <class TPlan>
void bench_transposed(char const* name, int L, int c_in, int c_out, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  auto const x = random_buffer<bf16>(std::size_t(L) * c_in, rng);
  auto const w = random_buffer<bf16>(std::size_t(TPlan::stride) * c_out * TPlan::taps * c_in, rng, -0.05, 0.05);
  auto const bias = random_buffer<float>(c_out, rng);
  host::DeviceBuffer<bf16> out(std::size_t(L) * TPlan::stride * c_out);
  kn::ConvTranspose1dArguments<bf16> a;
  a.x = x.data(), a.weight = w.data(), a.out = out.data(), a.epilogue.bias = bias.data();
  a.batch = 1, a.length = L, a.c_in = c_in, a.c_out = c_out;
  std::size_t const bytes =
      (std::size_t(L) * (c_in + TPlan::stride * c_out) + std::size_t(TPlan::kernel_size) * c_out * c_in) * sizeof(bf16);
  std::string const shape = std::to_string(L) + "x" + std::to_string(c_in) + "->" + std::to_string(c_out) + " s" +
                            std::to_string(TPlan::stride) + " K" + std::to_string(TPlan::kernel_size);
  records.push_back(kn::bench_against_copy(name, shape, "bf16", bytes, [&] { kn::run_causal_conv_transpose1d<TPlan>(a); }));
  add_flops(records.back(), 2.0 * L * TPlan::stride * c_out * double(TPlan::taps) * c_in);
}

void bench_depthwise(int L, int C, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  auto const x = random_buffer<bf16>(std::size_t(L) * C, rng);
  auto const w = random_buffer<bf16>(std::size_t(C) * 7, rng);
  auto const bias = random_buffer<float>(C, rng);
  host::DeviceBuffer<bf16> out(std::size_t(L) * C);
  kn::DepthwiseConv1dArguments<bf16> a;
  a.x = x.data(), a.weight = w.data(), a.bias = bias.data(), a.out = out.data(), a.batch = 1, a.length = L, a.channels = C;
  records.push_back(kn::bench_against_copy("depthwise_conv1d", std::to_string(L) + "x" + std::to_string(C) + " K7", "bf16",
                                           2 * std::size_t(L) * C * sizeof(bf16),
                                           [&] { kn::run_depthwise_conv1d<kn::ConvNextDepthwisePlan>(a); }));
}

/// The decoder's residual units at one block's width: K 7 at dilations 1, 3, 9 (SnakeBeta after),
/// and the K 1 conv.
template <class Plan>
void bench_units(int L, int C, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  for (int d : {1, 3, 9}) bench_causal<Plan>("causal_conv1d", L, C, C, 7, d, kn::ConvActivation::snake_beta, records, rng);
  bench_causal<Plan>("causal_conv1d", L, C, C, 1, 1, kn::ConvActivation::none, records, rng);
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {kn::plan_smem<kn::ConvWidePlan>(), kn::plan_smem<kn::ConvNarrowPlan>()})) return 0;
  return kn::run_bench("bench_conv", argc, argv, [](std::mt19937_64& rng, kn::ProgramOptions const&,
                                                     std::vector<kn::Record>& records) {
    using Wide = kn::ConvWidePlan;
    using Narrow = kn::ConvNarrowPlan;
    constexpr int codes = 300;
    bench_causal<Wide>("pre_conv", codes, 512, 1024, 3, 1, kn::ConvActivation::none, records, rng);
    bench_transposed<kn::ConvTransposeS2>("conv_transpose1d", codes, 1024, 1024, records, rng);
    bench_depthwise(2 * codes, 1024, records, rng);
    bench_transposed<kn::ConvTransposeS2>("conv_transpose1d", 2 * codes, 1024, 1024, records, rng);
    bench_depthwise(4 * codes, 1024, records, rng);
    bench_causal<Wide>("causal_conv1d", 4 * codes, 1024, 1536, 7, 1, kn::ConvActivation::snake_beta, records, rng);
    bench_transposed<kn::ConvTransposeS8>("conv_transpose1d", 4 * codes, 1536, 768, records, rng);
    bench_units<Wide>(32 * codes, 768, records, rng);
    bench_transposed<kn::ConvTransposeS5>("conv_transpose1d", 32 * codes, 768, 384, records, rng);
    bench_units<Wide>(160 * codes, 384, records, rng);
    bench_transposed<kn::ConvTransposeS4>("conv_transpose1d", 160 * codes, 384, 192, records, rng);
    bench_units<Narrow>(640 * codes, 192, records, rng);
    bench_transposed<kn::ConvTransposeS3>("conv_transpose1d", 640 * codes, 192, 96, records, rng);
    bench_units<Narrow>(1920 * codes, 96, records, rng);
    bench_causal<Narrow>("output_conv", 1920 * codes, 96, 1, 7, 1, kn::ConvActivation::none, records, rng);
  });
}
