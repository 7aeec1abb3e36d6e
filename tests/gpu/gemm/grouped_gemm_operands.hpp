// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The grouped GEMM's operands (kernels/gemm/grouped_gemm.hpp), shared by its check
// (tests/gpu/gemm/grouped_gemm_check.cu) and its benchmark (bench/gemm/bench_gemm_grouped.cu): a
// grouped problem (contiguous or masked groups) on the device with its host values, the check of
// every element of C (the benchmark checks sampled rows of each timed shape with it), and the
// block-scaled FP8 plan's arguments.
#include "tests/support/check.hpp"
#include "tests/support/fill.hpp"
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_grouped {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::bf16;
using cute_cpp::GroupedRows;

inline double val(bf16 v) { return double(static_cast<float>(v)); }

/// A device copy of host values.
template <class T>
host::DeviceBuffer<T> to_device(std::vector<T> const& v) {
  host::DeviceBuffer<T> d(v.size());
  d.upload(std::span<T const>(v));
  return d;
}

/// n random values on the device: a block of at most `period` of them, repeated (large benchmark
/// operands in seconds); returns the block, which gives every value for a reference.
inline std::vector<bf16> fill_periodic(host::DeviceBuffer<bf16>& dev, std::size_t n, std::size_t period,
                                       std::mt19937_64& rng, double lo, double hi) {
  dev = host::DeviceBuffer<bf16>(n);
  auto block = kn::random_values<bf16>(std::min(n, period), rng, lo, hi);
  host::cuda_check(cudaMemcpy(dev.data(), block.data(), block.size() * sizeof(bf16), cudaMemcpyHostToDevice), "cudaMemcpy");
  for (std::size_t done = block.size(); done < n;) {
    std::size_t const count = std::min(done, n - done);
    host::cuda_check(cudaMemcpy(dev.data() + done, dev.data(), count * sizeof(bf16), cudaMemcpyDeviceToDevice),
                     "cudaMemcpy");
    done += count;
  }
  return block;
}

/// A grouped problem: A (rows x K) and C over every group's rows, B (G x N x K), where each group's
/// rows lie, and its buffers on the device.
template <class Plan>
struct Problem {
  static constexpr bool gated = Plan::gated;
  std::int64_t groups, rows, n, k;
  std::vector<std::int64_t> first, count;  // each group's rows
  bool masked;
  std::vector<bf16> a, b;
  host::DeviceBuffer<bf16> da, db, dc;
  host::DeviceBuffer<std::int32_t> dgroups;  // offsets or counts
  host::DeviceBuffer<unsigned char> workspace;

  /// Contiguous groups of `sizes` rows, then `spare` rows no group holds; or masked groups of
  /// `capacity` rows each, `sizes` of them used. A and B repeat a block of `period` random values.
  Problem(std::vector<std::int64_t> const& sizes, std::int64_t n_, std::int64_t k_, std::mt19937_64& rng,
          std::int64_t spare = 0, std::int64_t capacity = 0, std::size_t period = ~std::size_t{0})
      : groups(std::int64_t(sizes.size())), n(n_), k(k_), count(sizes), masked(capacity > 0) {
    std::int64_t at = 0;
    for (std::int64_t s : sizes) {
      first.push_back(masked ? std::int64_t(first.size()) * capacity : at);
      at += s;
    }
    rows = masked ? groups * capacity : at + spare;
    a = fill_periodic(da, std::size_t(rows * k), period, rng, -2.0, 2.0);
    double const w = 1.0 / std::sqrt(double(k));
    b = fill_periodic(db, std::size_t(groups * n * k), period, rng, -w, w);
    dc = host::DeviceBuffer<bf16>(std::size_t(rows * c_cols()));
    std::vector<std::int32_t> described;  // the counts, or the offsets (each group's end)
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::int64_t const end = first[i] + sizes[i];
      described.push_back(std::int32_t(masked ? sizes[i] : end));
    }
    dgroups = host::DeviceBuffer<std::int32_t>(described.size());
    dgroups.upload(std::span<std::int32_t const>(described));
    if (masked) capacity_ = capacity;
    workspace = host::DeviceBuffer<unsigned char>(kn::grouped_gemm_workspace_bytes(arguments()));
  }
  [[nodiscard]] std::int64_t c_cols() const { return gated ? n / 2 : n; }
  [[nodiscard]] kn::GroupedGemmArguments<Plan> arguments() {
    kn::GroupedGemmArguments<Plan> g;
    g.gemm.a = da.data(), g.gemm.lda = k;
    g.gemm.b = db.data(), g.gemm.ldb = k;
    g.gemm.c = dc.data(), g.gemm.ldc = c_cols();
    g.gemm.m = rows, g.gemm.n = n, g.gemm.k = k;
    g.gemm.workspace = workspace.data(), g.gemm.workspace_bytes = workspace.bytes();
    g.rows = GroupedRows{.groups = std::int32_t(groups), .rows = rows};
    if (masked) g.rows.counts = dgroups.data(), g.rows.capacity = capacity_;
    else g.rows.offsets = dgroups.data();
    g.b_group_stride = n * k;
    return g;
  }
  void run(cudaStream_t stream = nullptr) { kn::run_grouped_gemm<Plan>(arguments(), stream); }

  /// C's row r of group g in double (for a gated plan, silu(gate) * up of B's interleaved blocks of 8).
  [[nodiscard]] std::vector<double> reference_row(std::int64_t g, std::int64_t r) const {
    auto dot = [&](std::int64_t col) {
      double s = 0;
      for (std::int64_t i = 0; i < k; ++i)
        s += val(a[std::size_t(r * k + i) % a.size()]) * val(b[std::size_t((g * n + col) * k + i) % b.size()]);
      return s;
    };
    std::vector<double> out;
    for (std::int64_t c = 0; c < c_cols(); ++c) {
      if constexpr (gated) {
        std::int64_t const gate = c / 8 * 16 + c % 8;
        double const x = dot(gate), u = dot(gate + 8);
        out.push_back(x / (1 + std::exp(-x)) * u);
      } else {
        out.push_back(dot(c));
      }
    }
    return out;
  }

 private:
  std::int64_t capacity_ = 0;
};

/// Runs the problem on NaN-poisoned C and checks every element of C: the groups' rows (those in
/// `sampled`, or all) against the reference, every other row still poisoned.
template <class Plan>
bool check(Problem<Plan>& p, char const* what, std::vector<std::int64_t> const& sampled = {}) {
  p.dc.fill_bytes(0xFF);
  p.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  kn::grouped_gemm_check_status(p.workspace.data(), nullptr);
  auto const got = p.dc.download();
  std::int64_t const cols = p.c_cols();
  std::vector<bf16> got_rows;
  std::vector<double> want;
  std::vector<char> owned(static_cast<std::size_t>(p.rows), 0);
  for (std::int64_t g = 0; g < p.groups; ++g)
    for (std::int64_t i = 0; i < p.count[std::size_t(g)]; ++i) {
      std::int64_t const r = p.first[std::size_t(g)] + i;
      owned[std::size_t(r)] = 1;
      if (!sampled.empty() && std::find(sampled.begin(), sampled.end(), r) == sampled.end()) continue;
      auto const w = p.reference_row(g, r);
      want.insert(want.end(), w.begin(), w.end());
      got_rows.insert(got_rows.end(), got.begin() + r * cols, got.begin() + (r + 1) * cols);
    }
  std::int64_t touched = 0;  // elements of rows no group holds that are no longer the poison
  for (std::int64_t r = 0; r < p.rows; ++r)
    if (!owned[std::size_t(r)])
      for (std::int64_t c = 0; c < cols; ++c) touched += !std::isnan(static_cast<float>(got[std::size_t(r * cols + c)]));
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  auto const res = kn::check_close(std::span<bf16 const>(got_rows), std::span<double const>(want), 1.0 / 128, scale * 0.01);
  bool const ok = res.ok() && touched == 0;
  std::printf("check grouped %-34s G=%-4lld rows=%-6lld N=%-5lld K=%-5lld %s%s\n", what, (long long)p.groups,
              (long long)p.rows, (long long)p.n, (long long)p.k, res.summary().c_str(),
              touched ? (" FAILED: " + std::to_string(touched) + " elements outside the groups written").c_str() : "");
  return ok;
}

/// The grouped block-scaled GEMM's arguments for Plan (Fp8E4M3BlockwiseGrouped or its overlapped
/// twin): contiguous groups ending at the device's `ends`, A (rows, K) and each group's B (n, K)
/// row-major, their 1 x 128 and 128 x 128 scales row-major (B's a group after another), C (rows,
/// n); the workspace is the caller's to give.
template <class Plan = kn::plans::Fp8E4M3BlockwiseGrouped>
kn::GroupedGemmArguments<Plan> fp8_grouped_arguments(kn::plans::e4m3 const* a, kn::plans::e4m3 const* b,
                                                     float const* sa, float const* sb, std::int32_t const* ends,
                                                     std::int64_t groups, bf16* c, std::int64_t rows, std::int64_t n,
                                                     std::int64_t k) {
  std::int64_t const kb = (k + 127) / 128, nb = (n + 127) / 128;
  kn::GroupedGemmArguments<Plan> args;
  args.gemm.a = a, args.gemm.lda = k, args.gemm.b = b, args.gemm.ldb = k;
  args.gemm.c = c, args.gemm.ldc = n, args.gemm.m = rows, args.gemm.n = n, args.gemm.k = k;
  args.gemm.block_scales = {sa, kb, 1, sb, kb, 1, nb * kb};
  args.rows = GroupedRows{.groups = std::int32_t(groups), .offsets = ends, .rows = rows};
  args.b_group_stride = n * k;
  return args;
}

}  // namespace cute_cpp::test::gemm_grouped
