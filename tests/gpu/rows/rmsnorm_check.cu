// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// rmsnorm_check: checks rmsnorm (bf16, f16, f32; with and without the fused residual add; ragged
// widths, misaligned pointers, 1 to millions of rows) against a CPU reference in double on fresh
// random data with NaN-poisoned outputs.
//   rmsnorm_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Its timings: bench/rows/bench_rows.cu.
#include <cute_cpp/kernels/rows/instances.hpp>
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

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

template <class T> double as_double(T v) { return static_cast<double>(static_cast<float>(v)); }

/// One case on fresh data; `offset` elements into every buffer (offset 1 forces the scalar path).
template <class T>
bool check_case(std::size_t rows, std::size_t width, bool with_residual, std::size_t offset, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  auto const xs = kn::random_values<T>(n + offset, rng);
  auto const rs = kn::random_values<T>(n + offset, rng);
  auto const ws = kn::random_values<T>(width + offset, rng, 0.5, 1.5);
  host::DeviceBuffer<T> x(n + offset), r(n + offset), w(width + offset), y(n + offset), ro(n + offset);
  x.upload(std::span<T const>(xs));
  r.upload(std::span<T const>(rs));
  w.upload(std::span<T const>(ws));
  y.fill_bytes(0xFF);
  ro.fill_bytes(0xFF);
  float const eps = 1e-6f;
  kn::rmsnorm<T>(x.data() + offset, with_residual ? r.data() + offset : nullptr, w.data() + offset, y.data() + offset,
                 with_residual ? ro.data() + offset : nullptr, rows, width, eps);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got_y = y.download();
  auto const got_r = ro.download();
  std::vector<double> want_y(n), want_r(n);
  for (std::size_t i = 0; i < rows; ++i) {
    double ss = 0;
    for (std::size_t j = 0; j < width; ++j) {
      std::size_t const k = offset + i * width + j;
      double v = as_double(xs[k]);
      if (with_residual) v = as_double(static_cast<T>(static_cast<float>(v + as_double(rs[k]))));
      want_r[i * width + j] = v;
      ss += v * v;
    }
    double const rstd = 1.0 / std::sqrt(ss / double(width) + eps);
    for (std::size_t j = 0; j < width; ++j) want_y[i * width + j] = want_r[i * width + j] * rstd * as_double(ws[offset + j]);
  }
  auto const res = kn::check_close(std::span<T const>(got_y).subspan(offset, n), std::span<double const>(want_y),
                                   kn::row_kernel_rtol<T>(), 1e-5);
  bool ok = res.ok();
  std::string line = res.summary();
  if (with_residual) {
    auto const rr = kn::check_close(std::span<T const>(got_r).subspan(offset, n), std::span<double const>(want_r), 0.0, 0.0);
    ok &= rr.ok();
    if (!rr.ok()) line += "; residual_out: " + rr.summary();
  }
  std::printf("check rmsnorm %-4s rows=%-8zu width=%-6zu residual=%d offset=%zu  %s\n", kn::dtype_name<T>(), rows, width,
              int(with_residual), offset, line.c_str());
  return ok;
}

template <class T>
bool check_type(std::mt19937_64& rng) {
  bool ok = true;
  for (std::size_t width : {1, 7, 64, 100, 1000, 1024, 1030, 2048, 3000, 4096, 8192, 8200, 20000}) {
    ok &= check_case<T>(37, width, false, 0, rng);
    ok &= check_case<T>(5, width, true, 0, rng);
  }
  ok &= check_case<T>(9, 4096, true, 1, rng);   // misaligned: scalar accesses
  ok &= check_case<T>(1, 65536, false, 0, rng);   // one wide row: a cluster of 8 blocks (f32: streamed)
  // staged rows (16-byte vectors, 2 to 8 blocks a row) with more rows than resident clusters, so
  // that each cluster loops over rows: a short last segment and a block past the row's end
  // (20000: 3 blocks' worth over 4; f32 5 over 8), the last segment short by one vector (65528).
  ok &= check_case<T>(700, 20000, false, 0, rng);
  ok &= check_case<T>(300, 20000, true, 0, rng);
  ok &= check_case<T>(200, 65528, false, 0, rng);
  ok &= check_case<T>(120, 65536, true, 0, rng);
  ok &= check_case<T>(2, 150000, true, 0, rng);   // wider than 8 blocks hold: streamed, read twice
  ok &= check_case<T>(std::size_t(1) << 20, 8, true, 0, rng);  // a million narrow rows
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck, synccheck): each plan of plan_rows on a few rows,
/// at most 2 MB a case. The staged rows take one cluster of 8 per row (no cluster loops over rows:
/// that needs more rows than resident clusters, tens of MB).
template <class T>
bool check_small(std::mt19937_64& rng) {
  // The widest row of a staged cluster, less one vector (the last block's segment short by one).
  std::size_t const vec = 16 / sizeof(T);
  std::size_t const staged =
      std::size_t(cute_cpp::row_stage_min_cluster) * cute_cpp::row_block_threads * cute_cpp::row_slots * vec - vec;
  bool ok = check_case<T>(37, 64, false, 0, rng);     // narrow, vectors: a warp a row, the last block partial
  ok &= check_case<T>(37, 98, true, 0, rng);          // ragged, narrow: scalars, a warp a row
  ok &= check_case<T>(11, 2000, false, 0, rng);       // groups of 64 (f32: 128) threads, the last block partial
  ok &= check_case<T>(9, 4096, true, 1, rng);         // misaligned: scalars, a cluster of 4 in registers
  ok &= check_case<T>(3, staged, true, 0, rng);       // staged rows, with the residual
  ok &= check_case<T>(2, 9001, false, 0, rng);        // ragged, wider than 8 blocks of scalars: streamed
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_kernels(argc, argv, {})) return 0;  // --kernels: none takes dynamic shared memory
  return kn::run_check(
      "rmsnorm_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return kn::check_row_types([&]<class T>() { return check_small<T>(rng); });
        return kn::check_row_types([&]<class T>() { return check_type<T>(rng); });
      },
      {"--small"});
}
