// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_rows: the row kernels (elementwise, rmsnorm, softmax, reduce, swiglu) timed against a device
// copy of the same bytes (their bandwidth bound) on random data, buffers larger than L2; prints the
// table and writes the records scripts/gpu-check keeps. Their checks: tests/gpu/rows.
//   bench_rows [--json FILE] [--seed N]
#include <cute_cpp/kernels/rows/elementwise.cuh>
#include <cute_cpp/kernels/rows/instances.hpp>
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cuda_bf16.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::bf16;
using cute_cpp::f16;

namespace elementwise_bench {

/// out = silu(x): elementwise_apply over one input.
struct Silu {
  CUTE_CPP_HD float operator()(bf16 x) const { return float(x) / (1.0f + ::expf(-float(x))); }
};

template <class T>
void bench_add(std::size_t n, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  host::DeviceBuffer<T> a(n), b(n), c(n);
  auto const values = kn::random_values<T>(n, rng);
  a.upload(std::span<T const>(values));
  b.upload(std::span<T const>(values));
  std::size_t const bytes = 3 * n * sizeof(T);  // two reads and one write
  records.push_back(kn::bench_against_copy("elementwise_add", std::to_string(n), kn::dtype_name<T>(), bytes,
                                           [&] { kn::elementwise_add(a.data(), b.data(), c.data(), n); }));
}

void bench_silu(std::size_t n, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  host::DeviceBuffer<bf16> x(n), y(n);
  auto const values = kn::random_values<bf16>(n, rng);
  x.upload(std::span<bf16 const>(values));
  std::size_t const bytes = 2 * n * sizeof(bf16);
  records.push_back(kn::bench_against_copy("elementwise_apply_silu", std::to_string(n), "bf16", bytes,
                                           [&] { kn::elementwise_apply(Silu{}, n, nullptr, y.data(), static_cast<bf16 const*>(x.data())); }));
}

void run(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  // NOTE: the smallest size's arrays (64 MiB each) are already larger than the H200's 50 MiB L2.
  for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 26, std::size_t{1} << 28}) {
    bench_add<float>(n, records, rng);
    bench_add<bf16>(n, records, rng);
  }
  bench_silu(std::size_t{1} << 28, records, rng);
}

}  // namespace elementwise_bench

namespace rmsnorm_bench {

template <class T>
void bench(std::size_t rows, std::size_t width, bool with_residual, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  host::DeviceBuffer<T> x(n), r(n), w(width), y(n), ro(n);
  kn::fill_random_tiled(x.data(), n, rng);
  kn::fill_random_tiled(r.data(), n, rng);
  kn::fill_random_tiled(w.data(), width, rng, 0.5, 1.5);
  std::size_t const bytes = (with_residual ? 4 : 2) * n * sizeof(T);  // x, y (+ residual, residual_out)
  auto const shape = kn::shape_name(rows, width);
  records.push_back(kn::bench_against_copy(with_residual ? "rmsnorm+residual" : "rmsnorm", shape, kn::dtype_name<T>(),
                                           bytes, [&] {
                                             kn::rmsnorm<T>(x.data(), with_residual ? r.data() : nullptr, w.data(),
                                                            y.data(), with_residual ? ro.data() : nullptr, rows, width);
                                           }));
}

void run(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  bench<bf16>(16384, 8192, false, records, rng);
  bench<bf16>(16384, 8192, true, records, rng);
  bench<f16>(16384, 8192, false, records, rng);
  bench<float>(16384, 8192, false, records, rng);
  bench<bf16>(65536, 1024, false, records, rng);
  bench<bf16>(32768, 4096, false, records, rng);
  bench<bf16>(8192, 32768, false, records, rng);
  bench<bf16>(4096, 65536, false, records, rng);
}

}  // namespace rmsnorm_bench

namespace softmax_bench {

template <class T>
void bench(std::size_t rows, std::size_t width, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  host::DeviceBuffer<T> x(n), y(n);
  kn::fill_random_tiled(x.data(), n, rng);
  std::size_t const bytes = 2 * n * sizeof(T);
  records.push_back(kn::bench_against_copy("softmax", kn::shape_name(rows, width), kn::dtype_name<T>(), bytes,
                                           [&] { kn::softmax<T>(x.data(), y.data(), rows, width); }));
}

void run(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  bench<bf16>(16384, 8192, records, rng);
  bench<float>(16384, 8192, records, rng);
  bench<bf16>(262144, 512, records, rng);
  bench<bf16>(32768, 4096, records, rng);
  bench<bf16>(4096, 32768, records, rng);
}

}  // namespace softmax_bench

namespace reduce_bench {

template <kn::RowReduction R, class T>
void bench(std::size_t rows, std::size_t width, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::size_t const n = rows * width;
  host::DeviceBuffer<T> x(n);
  host::DeviceBuffer<float> out(rows);
  kn::fill_random_tiled(x.data(), n, rng);
  std::size_t const bytes = n * sizeof(T) + rows * sizeof(float);
  // NOTE: the copy reads and writes half the bytes each, so it moves as many bytes as we read.
  auto const shape = kn::shape_name(rows, width);
  char const* const kernel = R == kn::RowReduction::sum ? "reduce_sum" : "reduce_max";
  records.push_back(kn::bench_against_copy(kernel, shape, kn::dtype_name<T>(), bytes,
                                           [&] { kn::reduce_rows<R>(x.data(), out.data(), rows, width); }));
}

void run(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  bench<kn::RowReduction::sum, bf16>(16384, 8192, records, rng);
  bench<kn::RowReduction::max, bf16>(16384, 8192, records, rng);
  bench<kn::RowReduction::sum, float>(16384, 8192, records, rng);
  bench<kn::RowReduction::sum, bf16>(262144, 512, records, rng);
  bench<kn::RowReduction::sum, bf16>(65536, 2048, records, rng);
}

}  // namespace reduce_bench

namespace swiglu_bench {

template <class T>
void bench(std::size_t rows, std::size_t hidden, std::vector<kn::Record>& records, std::mt19937_64& rng) {
  std::size_t const n = rows * hidden;
  host::DeviceBuffer<T> x(2 * n), y(n);
  kn::fill_random_tiled(x.data(), 2 * n, rng);
  std::size_t const bytes = 3 * n * sizeof(T);  // gate and up read, out written
  records.push_back(kn::bench_against_copy("swiglu", kn::shape_name(rows, hidden), kn::dtype_name<T>(), bytes,
                                           [&] { kn::swiglu<T>(x.data(), y.data(), rows, hidden); }));
}

void run(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  bench<bf16>(16384, 8192, records, rng);
  bench<f16>(16384, 14336, records, rng);
  bench<float>(16384, 8192, records, rng);
}

}  // namespace swiglu_bench

int main(int argc, char** argv) {
  return kn::run_bench("bench_rows", argc, argv,
                       [](std::mt19937_64& rng, kn::ProgramOptions const&, std::vector<kn::Record>& records) {
                         elementwise_bench::run(records, rng);
                         rmsnorm_bench::run(records, rng);
                         softmax_bench::run(records, rng);
                         reduce_bench::run(records, rng);
                         swiglu_bench::run(records, rng);
                       });
}
