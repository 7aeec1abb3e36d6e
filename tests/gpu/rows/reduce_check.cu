// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// reduce_check: checks the row sum and row max (bf16, f16, f32; ragged widths, misaligned pointers,
// 1 to a million rows) against a CPU reference in double on fresh random data with NaN-poisoned
// outputs.
//   reduce_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
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

template <kn::RowReduction R, class T>
bool check_case(std::size_t rows, std::size_t width, std::size_t offset, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  auto const xs = kn::random_values<T>(n + offset, rng);
  host::DeviceBuffer<T> x(n + offset);
  host::DeviceBuffer<float> out(rows);
  x.upload(std::span<T const>(xs));
  out.fill_bytes(0xFF);
  kn::reduce_rows<R>(x.data() + offset, out.data(), rows, width);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = out.download();
  std::vector<double> want(rows);
  double scale = 0;  // the sum's error grows with sum |x|, not with the (possibly cancelling) sum
  for (std::size_t i = 0; i < rows; ++i) {
    double acc = R == kn::RowReduction::sum ? 0.0 : -INFINITY, abs_sum = 0;
    for (std::size_t j = 0; j < width; ++j) {
      double const v = double(static_cast<float>(xs[offset + i * width + j]));
      acc = R == kn::RowReduction::sum ? acc + v : std::max(acc, v);
      abs_sum += std::fabs(v);
    }
    want[i] = acc;
    scale = std::max(scale, abs_sum);
  }
  double const atol = R == kn::RowReduction::sum ? scale * 1e-6 : 0.0;
  auto const res = kn::check_close(std::span<float const>(got), std::span<double const>(want), 1e-6, atol);
  std::printf("check reduce %-3s %-4s rows=%-8zu width=%-6zu offset=%zu  %s\n", R == kn::RowReduction::sum ? "sum" : "max",
              kn::dtype_name<T>(), rows, width, offset, res.summary().c_str());
  return res.ok();
}

template <class T>
bool check_type(std::mt19937_64& rng) {
  bool ok = true;
  for (std::size_t width : {1, 7, 64, 100, 1000, 1024, 1030, 2048, 3000, 4096, 8192, 8200, 20000}) {
    ok &= check_case<kn::RowReduction::sum, T>(23, width, 0, rng);
    ok &= check_case<kn::RowReduction::max, T>(23, width, 0, rng);
  }
  ok &= check_case<kn::RowReduction::sum, T>(9, 4096, 1, rng);
  ok &= check_case<kn::RowReduction::max, T>(1, 65536, 0, rng);
  ok &= check_case<kn::RowReduction::sum, T>(2, 150000, 0, rng);
  ok &= check_case<kn::RowReduction::sum, T>(std::size_t(1) << 20, 8, 0, rng);
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck, synccheck): each plan of plan_rows on a few rows,
/// both reductions, under 250 KB a case (reduce takes no cluster: wide rows stream through a block).
template <class T>
bool check_small(std::mt19937_64& rng) {
  using R = kn::RowReduction;
  bool ok = check_case<R::sum, T>(23, 64, 0, rng);     // narrow, vectors: a warp a row, the last block partial
  ok &= check_case<R::max, T>(23, 98, 0, rng);         // ragged, narrow: scalars, a warp a row
  ok &= check_case<R::sum, T>(11, 2000, 0, rng);       // groups of 64 (f32: 128) threads, the last block partial
  ok &= check_case<R::max, T>(9, 4096, 1, rng);        // misaligned: scalars, a block a row
  ok &= check_case<R::sum, T>(3, 20000, 0, rng);       // vectors, a block a row over 3 (f32: 5) rounds
  ok &= check_case<R::max, T>(3, 9001, 0, rng);        // ragged, scalars, a block a row over 9 rounds
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "reduce_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return kn::check_row_types([&]<class T>() { return check_small<T>(rng); });
        return kn::check_row_types([&]<class T>() { return check_type<T>(rng); });
      },
      {"--small"});
}
