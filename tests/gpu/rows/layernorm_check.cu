// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// layernorm_check: checks the row LayerNorm (bf16, f16, f32; ragged widths, misaligned pointers,
// rows held by a warp, a group, a cluster or streamed) against the float64 reference
// (tests/support/conv_reference.hpp) on fresh random data (an offset mean, so the variance is not
// E[x^2]) with NaN-poisoned outputs; Qwen3-TTS's ConvNeXt width 1024 with eps 1e-6 among them.
//   layernorm_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
#include <cute_cpp/kernels/rows/instances.hpp>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/conv_reference.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cstdio>
#include <random>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace ref = cute_cpp::test::conv;

namespace {

template <class T>
std::vector<double> doubles(std::vector<T> const& v, std::size_t offset, std::size_t n) {
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = double(static_cast<float>(v[offset + i]));
  return d;
}

template <class T>
bool check_case(std::size_t rows, std::size_t width, std::size_t offset, float eps, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  auto const xs = kn::random_values<T>(n + offset, rng, 1.0, 5.0);  // mean near 3: a one-pass variance would cancel
  auto const ws = kn::random_values<T>(width + offset, rng, 0.5, 1.5);
  auto const bs = kn::random_values<T>(width + offset, rng, -1.0, 1.0);
  host::DeviceBuffer<T> x(n + offset), w(width + offset), b(width + offset), y(n + offset);
  x.upload(std::span<T const>(xs));
  w.upload(std::span<T const>(ws));
  b.upload(std::span<T const>(bs));
  y.fill_bytes(0xFF);
  kn::layernorm<T>(x.data() + offset, w.data() + offset, b.data() + offset, y.data() + offset, rows, width, eps);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = y.download();
  auto const want = ref::layernorm(doubles(xs, offset, n), int(rows), int(width), doubles(ws, offset, width),
                                   doubles(bs, offset, width), eps);
  auto const res = kn::check_close(std::span<T const>(got).subspan(offset, n), std::span<double const>(want),
                                   kn::row_kernel_rtol<T>(), 4 * kn::row_kernel_rtol<T>());
  std::printf("check layernorm %-4s rows=%-7zu width=%-6zu offset=%zu  %s\n", kn::dtype_name<T>(), rows, width, offset,
              res.summary().c_str());
  return res.ok();
}

template <class T>
bool check_type(std::mt19937_64& rng) {
  bool ok = check_case<T>(4096, 1024, 0, 1e-6f, rng);  // ConvNeXt's LayerNorm(1024, eps=1e-6) over 4096 frames
  for (std::size_t width : {1, 7, 100, 1000, 1030, 2048, 8200, 20000, 150000}) ok &= check_case<T>(13, width, 0, 1e-5f, rng);
  ok &= check_case<T>(9, 1024, 1, 1e-6f, rng);  // misaligned: scalars
  return ok;
}

template <class T>
bool check_small(std::mt19937_64& rng) {
  return check_case<T>(23, 1024, 0, 1e-6f, rng) && check_case<T>(5, 98, 1, 1e-5f, rng) && check_case<T>(2, 9001, 0, 1e-5f, rng);
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "layernorm_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return kn::check_row_types([&]<class T>() { return check_small<T>(rng); });
        return kn::check_row_types([&]<class T>() { return check_type<T>(rng); });
      },
      {"--small"});
}
