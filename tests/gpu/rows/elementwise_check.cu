// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// elementwise_check: checks elementwise_add and elementwise_apply against a CPU reference on fresh
// random data (outputs poisoned, every element checked, ragged lengths, offset pointers), then
// times them against a device-to-device copy of the same bytes and prints GB/s and the ratio.
//   elementwise_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Its timings: bench/rows/bench_rows.cu.
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

namespace {

/// out = a * b + c with mixed input types: the generic apply over three inputs.
struct MulAdd {
  CUTE_CPP_HD float operator()(bf16 a, float b, bf16 c) const {
    return static_cast<float>(a) * b + static_cast<float>(c);
  }
};

/// out = silu(x) = x / (1 + e^-x): the generic apply over one input.
struct Silu {
  CUTE_CPP_HD float operator()(bf16 x) const {
    float const v = static_cast<float>(x);
    return v / (1.0f + ::expf(-v));
  }
};

template <class T> constexpr double rtol_of() { return std::is_same_v<T, float> ? 1e-6 : 1.0 / 128; }

/// One input of a check: a device buffer, the pointer `offset` elements into it, and the host
/// values the pointer sees.
template <class T>
struct Input {
  host::DeviceBuffer<T> buffer;
  T const* ptr;
  std::vector<T> values;

  Input(std::size_t n, std::size_t offset, std::mt19937_64& rng) : buffer(n + offset) {
    auto const all = kn::random_values<T>(n + offset, rng);
    buffer.upload(std::span<T const>(all));
    ptr = buffer.data() + offset;
    values.assign(all.begin() + static_cast<std::ptrdiff_t>(offset), all.end());
  }
};

/// Runs one apply on fresh data of length n, each pointer `offsets[k]` elements into its buffer
/// (offsets[0] for the output), and compares every element with `reference` in double.
template <class Out, class... In, class F, class Ref>
bool check_case(char const* what, F f, Ref reference, std::size_t n,
                std::array<std::size_t, 1 + sizeof...(In)> offsets, std::mt19937_64& rng) {
  std::size_t k = 0;
  std::tuple<Input<In>...> inputs{Input<In>(n, offsets[++k], rng)...};
  host::DeviceBuffer<Out> out(n + offsets[0]);
  out.fill_bytes(0xFF);  // NaN in every float and bf16 element
  std::apply([&](auto const&... in) { kn::elementwise_apply(f, n, nullptr, out.data() + offsets[0], in.ptr...); },
             inputs);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = out.download();
  std::vector<double> want(n);
  std::apply([&](auto const&... in) {
    for (std::size_t i = 0; i < n; ++i) want[i] = reference(static_cast<double>(static_cast<float>(in.values[i]))...);
  }, inputs);
  auto const result = kn::check_close(std::span<Out const>(got).subspan(offsets[0], n),
                                      std::span<double const>(want), rtol_of<Out>(), 1e-6);
  std::printf("check %-44s n=%-9zu %s\n", what, n, result.summary().c_str());
  return result.ok();
}

bool rejects_misaligned_pointer() {
  host::DeviceBuffer<float> buffer(64);
  auto const* odd = reinterpret_cast<float const*>(reinterpret_cast<char const*>(buffer.data()) + 2);
  try {
    kn::elementwise_add(odd, odd, buffer.data(), 8);
  } catch (std::invalid_argument const& e) {
    bool const named = std::strstr(e.what(), "[elementwise.pointer-alignment]") != nullptr;
    std::printf("check %-40s %s\n", "misaligned float* rejected", named ? "ok" : e.what());
    return named;
  }
  std::printf("check %-40s FAILED: no error\n", "misaligned float* rejected");
  return false;
}

bool run_checks(std::mt19937_64& rng) {
  auto const add_ref = [](double a, double b) { return a + b; };
  bool ok = true;
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{4099}, std::size_t{1000003}, std::size_t{(1u << 22) + 5}}) {
    ok &= check_case<float, float, float>("add f32", kn::Add{}, add_ref, n, {0, 0, 0}, rng);
    ok &= check_case<bf16, bf16, bf16>("add bf16", kn::Add{}, add_ref, n, {0, 0, 0}, rng);
  }
  ok &= check_case<float, float, float>("add f32, all pointers +1 (peeled head)", kn::Add{}, add_ref, 100003, {1, 1, 1}, rng);
  ok &= check_case<bf16, bf16, bf16>("add bf16, all pointers +3 (peeled head)", kn::Add{}, add_ref, 100003, {3, 3, 3}, rng);
  ok &= check_case<float, float, float>("add f32, mixed offsets (scalar path)", kn::Add{}, add_ref, 100003, {0, 1, 2}, rng);
  ok &= check_case<float, bf16, float, bf16>("apply a*b+c (bf16,f32,bf16 -> f32)", MulAdd{},
                                             [](double a, double b, double c) { return a * b + c; }, 1000003, {0, 0, 0, 0}, rng);
  ok &= check_case<bf16, bf16>("apply silu (bf16 -> bf16)", Silu{},
                               [](double x) { return x / (1 + std::exp(-x)); }, 1000003, {0, 0}, rng);
  ok &= rejects_misaligned_pointer();
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck): every path of the full checks (vectors with a
/// scalar tail, a peeled head, the scalar fallback, mixed-type and one-input applies) on lengths
/// that are not multiples of a vector; 10007 spans 2 (bf16) or 3 (f32) blocks, the last partial.
bool run_small_checks(std::mt19937_64& rng) {
  auto const add_ref = [](double a, double b) { return a + b; };
  bool ok = true;
  for (std::size_t n : {std::size_t{7}, std::size_t{10007}}) {
    ok &= check_case<float, float, float>("add f32", kn::Add{}, add_ref, n, {0, 0, 0}, rng);
    ok &= check_case<bf16, bf16, bf16>("add bf16", kn::Add{}, add_ref, n, {0, 0, 0}, rng);
  }
  ok &= check_case<float, float, float>("add f32, all pointers +1 (peeled head)", kn::Add{}, add_ref, 10007, {1, 1, 1}, rng);
  ok &= check_case<bf16, bf16, bf16>("add bf16, all pointers +3 (peeled head)", kn::Add{}, add_ref, 10007, {3, 3, 3}, rng);
  ok &= check_case<float, float, float>("add f32, mixed offsets (scalar path)", kn::Add{}, add_ref, 10007, {0, 1, 2}, rng);
  ok &= check_case<float, bf16, float, bf16>("apply a*b+c (bf16,f32,bf16 -> f32)", MulAdd{},
                                             [](double a, double b, double c) { return a * b + c; }, 10007, {0, 0, 0, 0}, rng);
  ok &= check_case<bf16, bf16>("apply silu (bf16 -> bf16)", Silu{},
                               [](double x) { return x / (1 + std::exp(-x)); }, 10007, {0, 0}, rng);
  ok &= rejects_misaligned_pointer();
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "elementwise_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return options.has("--small") ? run_small_checks(rng) : run_checks(rng);
      },
      {"--small"});
}
