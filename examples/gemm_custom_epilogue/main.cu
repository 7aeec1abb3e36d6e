// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_custom_epilogue: the library's Hopper GEMM (cute_cpp::gemm) with an epilogue of our own.
// The kernel, its pipeline and its schedule come from the package; the program brings a functor
// that the kernel applies to every accumulator before the store, and instantiates the GEMM for a
// plan that names it. Here the functor is logit soft-capping with a bias, as Gemma's output layer
// does: y = cap * tanh((acc + bias[col]) / cap). Checked on fresh random data against a CPU
// reference in double; M, N and K are not multiples of the tile.
//   gemm_custom_epilogue      (needs an sm_90a GPU; without a GPU it says so and exits 0)
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>   // run_gemm<Plan>: the kernel and its launch, to instantiate
#include <cute_cpp/kernels/gemm/plans.hpp>       // plans::Wide: the 128 x 256 tile in clusters of two

#include <cute_cpp/host.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = cute_cpp::bf16;

/// The epilogue: called as f(acc, row, col) for each element inside the problem, on the device;
/// its fields (a scalar and a pointer here) travel with the kernel's parameters.
struct SoftcapBias {
  float cap = 30.0f;
  float const* bias = nullptr;  ///< one value per column of C
  CUTE_CPP_HD float operator()(float acc, std::int64_t /*row*/, std::int64_t col) const {
    return cap * ::tanhf((acc + cute_cpp::epilogue::read_only(bias, col)) / cap);
  }
};

/// The plan: the library's wide tile (A and B K-major, bf16 in and out) with our functor. Every
/// static fact of the kernel (tile, stages, cluster, operand layouts) is in this type.
using Plan = kn::plans::Wide<bf16, bf16, kn::plans::K, kn::plans::K, SoftcapBias>;

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("gemm_custom_epilogue: no CUDA device; nothing to run");
    return 0;
  }
  std::int64_t const m = 300, n = 1000, k = 520;
  std::uint64_t const seed = std::random_device{}();
  std::printf("gemm_custom_epilogue: %lld x %lld x %lld, seed %llu\n", (long long)m, (long long)n, (long long)k,
              (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<bf16> a(std::size_t(m * k)), b(std::size_t(n * k));
  std::vector<float> bias(static_cast<std::size_t>(n));
  for (auto& x : a) x = bf16(normal(rng));
  for (auto& x : b) x = bf16(normal(rng));
  for (auto& x : bias) x = 4.0f * normal(rng);

  host::DeviceBuffer<bf16> da(a.size()), db(b.size()), dc(std::size_t(m * n));
  host::DeviceBuffer<float> dbias(bias.size());
  da.upload(std::span<bf16 const>(a));
  db.upload(std::span<bf16 const>(b));
  dbias.upload(std::span<float const>(bias));
  dc.fill_bytes(0xFF);  // NaN: an element the GEMM does not write shows

  kn::GemmArguments<Plan> args;
  args.a = da.data(), args.lda = k;  // A (m, k) row-major
  args.b = db.data(), args.ldb = k;  // B (n, k) row-major: C = A B^T, as nn.Linear stores its weight
  args.c = dc.data(), args.ldc = n;
  args.m = m, args.n = n, args.k = k;
  args.epilogue_op = SoftcapBias{30.0f, dbias.data()};
  kn::run_gemm<Plan>(args, nullptr);  // arguments checked first: a bad one throws, naming its rule
  host::cuda_check(cudaDeviceSynchronize(), "gemm");

  auto const c = dc.download();
  std::int64_t wrong = 0;
  double worst = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (std::int64_t x = 0; x < k; ++x) acc += double(float(a[i * k + x])) * double(float(b[j * k + x]));
      double const want = 30.0 * std::tanh((acc + bias[j]) / 30.0);
      double const got = double(float(c[i * n + j]));
      double const err = std::fabs(got - want);
      worst = std::max(worst, err);
      if (!(err <= 1e-2 * std::fabs(want) + 2e-2)) ++wrong;
    }
  std::printf("gemm_custom_epilogue: %lld of %lld elements off the reference (max |error| %.3g): %s\n",
              (long long)wrong, (long long)(m * n), worst, wrong == 0 ? "pass" : "FAIL");
  return wrong == 0 ? 0 : 1;
}
