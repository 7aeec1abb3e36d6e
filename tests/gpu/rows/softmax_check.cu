// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// softmax_check: checks the online row softmax (bf16, f16, f32; ragged widths, misaligned pointers,
// 1 to a million rows) against a CPU reference in double on fresh random data with NaN-poisoned
// outputs.
//   softmax_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Its timings: bench/rows/bench_rows.cu.
#include <cute_cpp/kernels/rows/instances.hpp>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"

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
using cute_cpp::bf16;
using cute_cpp::f16;

namespace {

/// masked: the second half of every row is -inf (a causal mask), so whole rounds of some
/// threads hold only -inf.
template <class T>
bool check_case(std::size_t rows, std::size_t width, std::size_t offset, std::mt19937_64& rng, bool masked = false) {
  std::size_t const n = rows * width;
  auto xs = kn::random_values<T>(n + offset, rng, -8.0, 8.0);
  if (masked)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = (width + 1) / 2; j < width; ++j) xs[offset + i * width + j] = static_cast<T>(-INFINITY);
  host::DeviceBuffer<T> x(n + offset), y(n + offset);
  x.upload(std::span<T const>(xs));
  y.fill_bytes(0xFF);
  kn::softmax<T>(x.data() + offset, y.data() + offset, rows, width);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = y.download();
  std::vector<double> want(n);
  for (std::size_t i = 0; i < rows; ++i) {
    double m = -INFINITY, s = 0;
    for (std::size_t j = 0; j < width; ++j) m = std::max(m, double(static_cast<float>(xs[offset + i * width + j])));
    for (std::size_t j = 0; j < width; ++j) s += std::exp(double(static_cast<float>(xs[offset + i * width + j])) - m);
    for (std::size_t j = 0; j < width; ++j)
      want[i * width + j] = std::exp(double(static_cast<float>(xs[offset + i * width + j])) - m) / s;
  }
  auto const res = kn::check_close(std::span<T const>(got).subspan(offset, n), std::span<double const>(want), kn::row_kernel_rtol<T>(), 1e-7);
  std::printf("check softmax %-4s rows=%-8zu width=%-6zu offset=%zu%s  %s\n", kn::dtype_name<T>(), rows, width, offset,
              masked ? " masked" : "", res.summary().c_str());
  return res.ok();
}

template <class T>
bool check_type(std::mt19937_64& rng) {
  bool ok = true;
  for (std::size_t width : {1, 7, 64, 100, 1000, 1024, 1030, 2048, 3000, 4096, 8192, 8200, 20000}) ok &= check_case<T>(23, width, 0, rng);
  ok &= check_case<T>(9, 4096, 1, rng);
  ok &= check_case<T>(1, 65536, 0, rng);
  ok &= check_case<T>(2, 150000, 0, rng);  // wider than 8 blocks hold: streamed, read twice
  for (std::size_t width : {1000, 20000, 150000}) ok &= check_case<T>(3, width, 0, rng, true);
  ok &= check_case<T>(std::size_t(1) << 20, 8, 0, rng);
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck, synccheck): each plan of plan_rows on a few rows,
/// at most 1 MB a case.
template <class T>
bool check_small(std::mt19937_64& rng) {
  // The widest row of a cluster of 8, less one vector (the last block's share short by one).
  std::size_t const vec = 16 / sizeof(T);
  std::size_t const cluster8 =
      std::size_t(cute_cpp::row_max_cluster) * cute_cpp::row_block_threads * cute_cpp::row_slots * vec - vec;
  bool ok = check_case<T>(23, 64, 0, rng);        // narrow, vectors: a warp a row, the last block partial
  ok &= check_case<T>(23, 98, 0, rng, true);      // ragged, narrow, masked: scalars, a warp a row
  ok &= check_case<T>(11, 2000, 0, rng);          // groups of 64 (f32: 128) threads, the last block partial
  ok &= check_case<T>(9, 4096, 1, rng);           // misaligned: scalars, a cluster of 4
  ok &= check_case<T>(2, cluster8, 0, rng);       // vectors, a cluster of 8
  ok &= check_case<T>(3, 9001, 0, rng, true);     // ragged, masked, wider than 8 blocks of scalars: streamed
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "softmax_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return kn::check_row_types([&]<class T>() { return check_small<T>(rng); });
        return kn::check_row_types([&]<class T>() { return check_type<T>(rng); });
      },
      {"--small"});
}
