// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// swiglu_check: checks the fused silu(gate) * up (bf16, f16, f32; ragged hidden sizes, misaligned
// pointers, 1 to a million rows) against a CPU reference in double on fresh random data with NaN-poisoned
// outputs.
//   swiglu_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
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

template <class T>
bool check_case(std::size_t rows, std::size_t hidden, std::size_t offset, std::mt19937_64& rng) {
  std::size_t const n = rows * hidden;
  auto const xs = kn::random_values<T>(2 * n + offset, rng, -6.0, 6.0);
  host::DeviceBuffer<T> x(2 * n + offset), y(n + offset);
  x.upload(std::span<T const>(xs));
  y.fill_bytes(0xFF);
  kn::swiglu<T>(x.data() + offset, y.data() + offset, rows, hidden);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = y.download();
  std::vector<double> want(n);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < hidden; ++j) {
      double const g = double(static_cast<float>(xs[offset + i * 2 * hidden + j]));
      double const u = double(static_cast<float>(xs[offset + i * 2 * hidden + hidden + j]));
      want[i * hidden + j] = g / (1 + std::exp(-g)) * u;
    }
  auto const res = kn::check_close(std::span<T const>(got).subspan(offset, n), std::span<double const>(want), kn::row_kernel_rtol<T>(), 1e-5);
  std::printf("check swiglu %-4s rows=%-8zu hidden=%-6zu offset=%zu  %s\n", kn::dtype_name<T>(), rows, hidden, offset,
              res.summary().c_str());
  return res.ok();
}

template <class T>
bool check_type(std::mt19937_64& rng) {
  bool ok = true;
  for (std::size_t hidden : {1, 7, 64, 100, 1000, 4096, 8200}) ok &= check_case<T>(19, hidden, 0, rng);
  ok &= check_case<T>(9, 4096, 1, rng);
  ok &= check_case<T>(std::size_t(1) << 20, 8, 0, rng);
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck): vectors and scalars, one block and several with
/// the last partial (a block takes 1024 vectors), under 0.5 MB a case.
template <class T>
bool check_small(std::mt19937_64& rng) {
  bool ok = check_case<T>(19, 7, 0, rng);        // ragged, narrow: scalars, one block
  ok &= check_case<T>(19, 64, 0, rng);           // narrow, vectors: one block, partly empty
  ok &= check_case<T>(9, 4104, 0, rng);          // vectors, 5 (f32: 10) blocks, the last partial
  ok &= check_case<T>(5, 1030, 0, rng);          // ragged: scalars, 6 blocks, the last partial
  ok &= check_case<T>(9, 4096, 1, rng);          // misaligned: scalars
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "swiglu_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return kn::check_row_types([&]<class T>() { return check_small<T>(rng); });
        return kn::check_row_types([&]<class T>() { return check_type<T>(rng); });
      },
      {"--small"});
}
