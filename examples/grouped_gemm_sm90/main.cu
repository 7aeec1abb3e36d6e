// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// grouped_gemm_sm90: checks the grouped Hopper GEMM (MoE experts, kernels/gemm/grouped_gemm.hpp)
// against a CPU reference in double on fresh random data with NaN-poisoned outputs: contiguous
// groups (ragged: 0, 1, 7, 128, 1000 rows, empty groups, rows past the last group left alone),
// masked groups (rows past each count left alone), the SwiGLU gate-up projection, and bad
// offsets / counts (found on the device, C not written, the rule read back); then times the MoE
// layers of Qwen3-30B-A3B against a loop of cuBLAS calls, one per expert, and prints TFLOP/s and
// the ratio.
//   grouped_gemm_sm90 [--no-bench] [--json FILE] [--seed N] [--small]
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "bench/support/cublas.hpp"
#include "tests/support/fill.hpp"
#include "bench/support/cublaslt_gemm.hpp"
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::bf16;
using cute_cpp::GroupedRows;

namespace {

double val(bf16 v) { return double(static_cast<float>(v)); }

/// A device copy of host values.
template <class T>
host::DeviceBuffer<T> to_device(std::vector<T> const& v) {
  host::DeviceBuffer<T> d(v.size());
  d.upload(std::span<T const>(v));
  return d;
}

/// n random values on the device: a block of at most `period` of them, repeated (large benchmark
/// operands in seconds); returns the block, which gives every value for a reference.
std::vector<bf16> fill_periodic(host::DeviceBuffer<bf16>& dev, std::size_t n, std::size_t period, std::mt19937_64& rng,
                                double lo, double hi) {
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

/// Bad offsets or counts, found on the device: the status names the rule and C stays poisoned.
template <class Plan>
bool check_bad_rows(Problem<Plan>& p, std::vector<std::int32_t> const& bad, char const* rule, char const* what) {
  p.dgroups.upload(std::span<std::int32_t const>(bad));
  p.dc.fill_bytes(0xFF);
  p.run();
  std::string error;
  try {
    kn::grouped_gemm_check_status(p.workspace.data(), nullptr);
  } catch (std::invalid_argument const& e) {
    error = e.what();
  }
  auto const got = p.dc.download();
  bool const untouched = std::all_of(got.begin(), got.end(), [](bf16 v) { return std::isnan(static_cast<float>(v)); });
  bool const ok = error.find(rule) != std::string::npos && untouched;
  std::printf("check grouped rejects %-27s %s %s\n", what, rule,
              ok ? "ok" : error.empty() ? "FAILED: no error" : untouched ? ("FAILED: " + error).c_str() : "FAILED: C written");
  return ok;
}

/// Host-side rejections: a rule each, thrown before anything runs.
template <class Plan, class Change>
bool check_rejected(Problem<Plan>& p, char const* rule, char const* what, Change&& change) {
  auto args = p.arguments();
  change(args);
  try {
    kn::run_grouped_gemm<Plan>(args, nullptr);
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find(rule) != std::string::npos;
    std::printf("check grouped rejects %-27s %s %s\n", what, rule, named ? "ok" : ("FAILED: " + std::string(e.what())).c_str());
    return named;
  }
  std::printf("check grouped rejects %-27s %s FAILED: no error\n", what, rule);
  return false;
}

/// Pointer-array groups: each group's A (capacity x K), B (N x K) and C (capacity x N) in an
/// allocation of its own, the pointers in device arrays; rows past each count stay poisoned. Then
/// a misaligned group pointer, found on the device.
template <class Plan>
bool check_pointer_array(std::mt19937_64& rng) {
  std::vector<std::int32_t> const counts{5, 0, 130, 64};
  std::int64_t const capacity = 130, n = 136, k = 72;
  auto const groups = std::size_t(counts.size());
  std::vector<std::vector<bf16>> a, b;
  std::vector<host::DeviceBuffer<bf16>> da, db, dc;
  std::vector<void const*> pa, pb;
  std::vector<void*> pc;
  for (std::size_t g = 0; g < groups; ++g) {
    a.push_back(kn::random_values<bf16>(std::size_t(capacity * k), rng));
    b.push_back(kn::random_values<bf16>(std::size_t(n * k), rng, -0.2, 0.2));
    da.emplace_back(a.back().size()), db.emplace_back(b.back().size()), dc.emplace_back(std::size_t(capacity * n));
    da.back().upload(std::span<bf16 const>(a.back()));
    db.back().upload(std::span<bf16 const>(b.back()));
    dc.back().fill_bytes(0xFF);
    pa.push_back(da.back().data()), pb.push_back(db.back().data()), pc.push_back(dc.back().data());
  }
  auto dpa = to_device(pa), dpb = to_device(pb);
  auto dpc = to_device(pc);
  auto dcounts = to_device(counts);
  kn::GroupedGemmArguments<Plan> args;
  args.gemm.lda = k, args.gemm.ldb = k, args.gemm.ldc = n;
  args.gemm.m = std::int64_t(groups) * capacity, args.gemm.n = n, args.gemm.k = k;
  args.rows = GroupedRows{.groups = std::int32_t(groups), .counts = dcounts.data(), .capacity = capacity,
                          .rows = args.gemm.m};
  args.pointers = {dpa.data(), dpb.data(), dpc.data()};
  host::DeviceBuffer<unsigned char> workspace(kn::grouped_gemm_workspace_bytes(args));
  args.gemm.workspace = workspace.data(), args.gemm.workspace_bytes = workspace.bytes();
  kn::run_grouped_gemm<Plan>(args, nullptr);
  kn::grouped_gemm_check_status(workspace.data(), nullptr);
  std::vector<bf16> got_rows;
  std::vector<double> want;
  std::int64_t touched = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    auto const c = dc[g].download();
    for (std::int64_t r = 0; r < capacity; ++r)
      for (std::int64_t j = 0; j < n; ++j) {
        bf16 const v = c[std::size_t(r * n + j)];
        if (r >= counts[g]) {
          touched += !std::isnan(static_cast<float>(v));
          continue;
        }
        double sum = 0;
        for (std::int64_t i = 0; i < k; ++i) sum += val(a[g][std::size_t(r * k + i)]) * val(b[g][std::size_t(j * k + i)]);
        want.push_back(sum);
        got_rows.push_back(v);
      }
  }
  auto const res = kn::check_close(std::span<bf16 const>(got_rows), std::span<double const>(want), 1.0 / 128, 1e-2);
  std::printf("check grouped %-34s G=%-4zu cap=%-5lld N=%-5lld K=%-5lld %s%s\n", "pointer arrays, own allocations",
              groups, (long long)capacity, (long long)n, (long long)k, res.summary().c_str(),
              touched ? " FAILED: rows past a count written" : "");
  bool ok = res.ok() && touched == 0;
  // A group's C one element off its alignment: the status names the rule, nothing is written.
  pc[3] = static_cast<char*>(pc[3]) + 2;
  dpc.upload(std::span<void* const>(pc));
  dc[0].fill_bytes(0xFF);
  kn::run_grouped_gemm<Plan>(args, nullptr);
  std::string error;
  try {
    kn::grouped_gemm_check_status(workspace.data(), nullptr);
  } catch (std::invalid_argument const& e) {
    error = e.what();
  }
  auto const c0 = dc[0].download();
  bool const untouched = std::all_of(c0.begin(), c0.end(), [](bf16 v) { return std::isnan(static_cast<float>(v)); });
  bool const named = error.find("[grouped.pointers]") != std::string::npos && untouched;
  std::printf("check grouped rejects %-27s [grouped.pointers] %s\n", "a misaligned group pointer",
              named ? "ok" : error.empty() ? "FAILED: no error" : "FAILED: C written or another error");
  return ok && named;
}

/// The grouped block-scaled GEMM's arguments: contiguous groups ending at the device's `ends`, A
/// (rows, K) and each group's B (n, K) row-major, their 1 x 128 and 128 x 128 scales row-major (B's
/// a group after another), C (rows, n); the workspace is the caller's to give.
kn::GroupedGemmArguments<kn::plans::Fp8E4M3BlockwiseGrouped> fp8_grouped_arguments(
    kn::plans::e4m3 const* a, kn::plans::e4m3 const* b, float const* sa, float const* sb, std::int32_t const* ends,
    std::int64_t groups, bf16* c, std::int64_t rows, std::int64_t n, std::int64_t k) {
  std::int64_t const kb = (k + 127) / 128, nb = (n + 127) / 128;
  kn::GroupedGemmArguments<kn::plans::Fp8E4M3BlockwiseGrouped> args;
  args.gemm.a = a, args.gemm.lda = k, args.gemm.b = b, args.gemm.ldb = k;
  args.gemm.c = c, args.gemm.ldc = n, args.gemm.m = rows, args.gemm.n = n, args.gemm.k = k;
  args.gemm.block_scales = {sa, kb, 1, sb, kb, 1, nb * kb};
  args.rows = GroupedRows{.groups = std::int32_t(groups), .offsets = ends, .rows = rows};
  args.b_group_stride = n * k;
  return args;
}

/// FP8 e4m3 with DeepSeek-V3's block scales, grouped: A's 1 x 128 scales by row of the packed rows,
/// each group's B with its own 128 x 128 scales; K past a scale block, ragged groups, an empty one.
bool check_fp8_blockwise(std::mt19937_64& rng) {
  using Plan = kn::plans::Fp8E4M3BlockwiseGrouped;
  using e4m3 = kn::plans::e4m3;
  std::vector<std::int32_t> const sizes{0, 1, 130, 77};
  std::int64_t const n = 264, k = 400, kb = (k + 127) / 128, nb = (n + 127) / 128;
  auto const groups = std::int64_t(sizes.size());
  std::vector<std::int32_t> ends;
  std::int64_t rows = 0;
  for (std::int32_t s : sizes) ends.push_back(std::int32_t(rows += s));
  auto const a = kn::random_values<e4m3>(std::size_t(rows * k), rng, -6.0, 6.0);
  auto const b = kn::random_values<e4m3>(std::size_t(groups * n * k), rng, -6.0, 6.0);
  auto const sa = kn::random_values<float>(std::size_t(rows * kb), rng, 0.5, 1.5);
  auto const sb = kn::random_values<float>(std::size_t(groups * nb * kb), rng, 0.5, 1.5);
  auto da = to_device(a), db = to_device(b);
  auto dsa = to_device(sa), dsb = to_device(sb);
  auto dends = to_device(ends);
  host::DeviceBuffer<bf16> dc(std::size_t(rows * n));
  dc.fill_bytes(0xFF);
  auto args = fp8_grouped_arguments(da.data(), db.data(), dsa.data(), dsb.data(), dends.data(), groups, dc.data(), rows,
                                    n, k);
  host::DeviceBuffer<unsigned char> workspace(kn::grouped_gemm_workspace_bytes(args));
  args.gemm.workspace = workspace.data(), args.gemm.workspace_bytes = workspace.bytes();
  kn::run_grouped_gemm<Plan>(args, nullptr);
  kn::grouped_gemm_check_status(workspace.data(), nullptr);
  auto const got = dc.download();
  std::vector<double> want;
  double bound = 0;
  for (std::int64_t g = 0, r = 0; g < groups; ++g)
    for (; r < ends[std::size_t(g)]; ++r)
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0, mag = 0;
        for (std::int64_t i = 0; i < k; ++i) {
          double const p = double(float(a[std::size_t(r * k + i)])) * double(float(b[std::size_t((g * n + j) * k + i)])) *
                           sa[std::size_t(r * kb + i / 128)] * sb[std::size_t(g * nb * kb + (j / 128) * kb + i / 128)];
          sum += p;
          mag += std::fabs(p);
        }
        want.push_back(sum);
        bound = std::max(bound, mag);
      }
  auto const res = kn::check_close(std::span<bf16 const>(got), std::span<double const>(want), 1.0 / 128, bound / 1024);
  std::printf("check grouped %-34s G=%-4lld rows=%-6lld N=%-5lld K=%-5lld %s\n", "e4m3, 1x128 / 128x128 block scales",
              (long long)groups, (long long)rows, (long long)n, (long long)k, res.summary().c_str());
  return res.ok();
}

/// The checks for one plan and its gated twin (128-row or 64-row tiles).
template <class Plain, class Gated>
bool run_checks(std::mt19937_64& rng, bool small) {
  std::printf("grouped plans of %d-row tiles\n", Plain::block_m);
  bool ok = true;
  {
    std::vector<std::int64_t> const sizes =
        small ? std::vector<std::int64_t>{0, 1, 7, 130, 0} : std::vector<std::int64_t>{0, 1, 7, 128, 1000, 0, 300, 129};
    Problem<Plain> p(sizes, small ? 72 : 200, small ? 72 : 136, rng, /*spare=*/small ? 5 : 37);
    ok &= check(p, "contiguous, ragged groups");
    ok &= check_bad_rows(p, {0, 1, 8, 4, 138}, "[grouped.offsets]", "offsets that decrease");
    ok &= check_rejected(p, "[grouped.b-stride]", "overlapping weights",
                         [&](auto& a) { a.b_group_stride = p.n * p.k - 8; });
    ok &= check_rejected(p, "[grouped.workspace]", "a short workspace", [](auto& a) { a.gemm.workspace_bytes -= 16; });
    ok &= check_rejected(p, "[grouped.rows]", "offsets and counts", [](auto& a) { a.rows.counts = a.rows.offsets; });
  }
  {
    Problem<Plain> p({0, 1, 160, 77, 129}, small ? 40 : 264, 64, rng, 0, /*capacity=*/160);
    ok &= check(p, "masked, counts below capacity");
    ok &= check_bad_rows(p, {0, 1, 161, 77, 129}, "[grouped.counts]", "a count over the capacity");
  }
  ok &= check_pointer_array<Plain>(rng);
  if (!small) {
    Problem<Plain> p({300, 0, 0, 1, 513}, 256, 4096, rng);
    ok &= check(p, "contiguous, long K");
  }
  {
    Problem<Gated> p(small ? std::vector<std::int64_t>{3, 0, 140} : std::vector<std::int64_t>{3, 0, 140, 257, 64},
                     small ? 96 : 1536 / 4, 128, rng, 9);
    ok &= check(p, "SwiGLU gate-up (interleaved)");
  }
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_fp8_blockwise(rng);
  ok &= run_checks<kn::plans::Bf16Grouped, kn::plans::Bf16GroupedSwiGLU>(rng, small);
  ok &= run_checks<kn::plans::Bf16GroupedPingPong, kn::plans::Bf16GroupedPingPongSwiGLU>(rng, small);
  return ok;
}

/// Expert loads of `tokens` tokens routed top-k over `experts`, drawn at random (uneven, as routers are).
std::vector<std::int64_t> expert_loads(std::int64_t tokens, int top_k, int experts, std::mt19937_64& rng) {
  std::vector<double> weight(static_cast<std::size_t>(experts));
  std::gamma_distribution<double> gamma(4.0, 1.0);
  for (double& w : weight) w = gamma(rng);
  std::discrete_distribution<int> pick(weight.begin(), weight.end());
  std::vector<std::int64_t> loads(static_cast<std::size_t>(experts), 0);
  for (std::int64_t i = 0; i < tokens * top_k; ++i) ++loads[std::size_t(pick(rng))];
  return loads;
}

template <class Plan>
void bench(std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n, std::int64_t k,
           std::vector<kn::Record>& records, std::mt19937_64& rng) {
  Problem<Plan> p(loads, n, k, rng, 0, 0, std::size_t{1} << 20);
  std::vector<std::int64_t> sampled;  // rows checked at the timed shape: the first and last of a few groups
  for (std::int64_t g = 0; g < p.groups; g += std::max<std::int64_t>(1, p.groups / 4))
    if (p.count[std::size_t(g)] > 0) sampled.insert(sampled.end(), {p.first[std::size_t(g)], p.first[std::size_t(g)] + p.count[std::size_t(g)] - 1});
  if (!check(p, (name + " (sampled rows)").c_str(), sampled)) throw std::runtime_error("grouped: benchmark-shape check failed");
  cublasHandle_t handle = nullptr;
  kn::cublas_check(cublasCreate(&handle), "cublasCreate");
  host::DeviceBuffer<bf16> c(std::size_t(p.rows * n));
  auto const reference = [&] {
    for (std::int64_t g = 0; g < p.groups; ++g)
      if (p.count[std::size_t(g)] > 0)
        kn::cublas_linear(handle, p.da.data() + p.first[std::size_t(g)] * k, p.db.data() + g * n * k,
                      c.data() + p.first[std::size_t(g)] * n, int(p.count[std::size_t(g)]), int(n), int(k));
  };
  auto const [ours_ms, ref_ms] = kn::median_ms_interleaved([&] { p.run(); }, reference, nullptr, 5, 20);
  cublasDestroy(handle);
  double const flops = 2.0 * double(p.rows) * double(n) * double(k);
  auto const tflops = [&](double ms) { return flops / (ms * 1e9); };
  records.push_back({"grouped_gemm_sm90 " + std::to_string(Plan::block_m) + "-row tiles", name, "bf16", tflops(ours_ms), "cuBLAS, one call per expert", tflops(ref_ms),
                     "TFLOP/s", ours_ms * 1e3});
}

/// Grouped block-scaled e4m3 against cuBLASLt's FP8 GEMM (per-tensor scales, promoted
/// accumulation) over the same rows as one dense GEMM with a single weight: the same FLOPs without
/// the groups, an upper bound for a grouped GEMM.
void bench_fp8(std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n, std::int64_t k,
               std::vector<kn::Record>& records, std::mt19937_64& rng) {
  using e4m3 = kn::plans::e4m3;
  auto const groups = std::int64_t(loads.size());
  std::int64_t const kb = (k + 127) / 128, nb = (n + 127) / 128;
  std::vector<std::int32_t> ends;
  std::int64_t rows = 0;
  for (std::int64_t l : loads) ends.push_back(std::int32_t(rows += l));
  host::DeviceBuffer<e4m3> a(std::size_t(rows * k)), b(std::size_t(groups * n * k));
  host::DeviceBuffer<float> sa(std::size_t(rows * kb)), sb(std::size_t(groups * nb * kb)), unit(1);
  kn::fill_random_tiled(a.data(), a.size(), rng, -6.0, 6.0);
  kn::fill_random_tiled(b.data(), b.size(), rng, -6.0, 6.0);
  kn::fill_random_tiled(sa.data(), sa.size(), rng, 0.5, 1.5);
  kn::fill_random_tiled(sb.data(), sb.size(), rng, 0.5, 1.5);
  std::vector<float> const one{1.0f};
  unit.upload(std::span<float const>(one));
  auto dends = to_device(ends);
  host::DeviceBuffer<bf16> c(std::size_t(rows * n)), c_ref(std::size_t(rows * n));
  auto args = fp8_grouped_arguments(a.data(), b.data(), sa.data(), sb.data(), dends.data(), groups, c.data(), rows, n, k);
  host::DeviceBuffer<unsigned char> workspace(kn::grouped_gemm_workspace_bytes(args));
  args.gemm.workspace = workspace.data(), args.gemm.workspace_bytes = workspace.bytes();
  cublasLtHandle_t handle = nullptr;
  kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
  {
    kn::LtGemm reference(handle, {CUDA_R_8F_E4M3, std::uint64_t(k), std::uint64_t(n), k, true},
                         {CUDA_R_8F_E4M3, std::uint64_t(k), std::uint64_t(rows), k, false},
                         {CUDA_R_16BF, std::uint64_t(n), std::uint64_t(rows), n}, {unit.data(), unit.data(), false});
    auto const [ours_ms, ref_ms] = kn::median_ms_interleaved(
        [&] { kn::run_grouped_gemm(args, nullptr); }, [&] { reference.run(b.data(), a.data(), c_ref.data()); },
        nullptr, 5, 20);
    kn::grouped_gemm_check_status(workspace.data(), nullptr);
    double const flops = 2.0 * double(rows) * double(n) * double(k);
    records.push_back({"grouped_gemm_sm90 e4m3, 1x128 / 128x128 block scales", name,
                       "fp8", flops / (ours_ms * 1e9), "cuBLASLt FP8 per tensor, one dense GEMM of the same rows",
                       flops / (ref_ms * 1e9), "TFLOP/s", ours_ms * 1e3});
  }
  cublasLtDestroy(handle);
}

void run_benchmarks(std::vector<kn::Record>& records, std::mt19937_64& rng) {
  // DeepSeek-V3-like experts: 256 of them, top-8, hidden 7168, expert FFN 2048 (gate and up
  // fused: 4096), FP8 with block scales, at prefill sizes.
  for (std::int64_t tokens : {4096, 16384}) {
    auto const loads = expert_loads(tokens, 8, 256, rng);
    std::string const t = std::to_string(tokens) + " tokens top-8 of 256 experts";
    for (auto const& [what, n, k] : {std::tuple{"gate-up ", 4096, 7168}, std::tuple{"down ", 7168, 2048}}) {
      std::string const name = what + t + " N" + std::to_string(n) + " K" + std::to_string(k);
      bench_fp8(name, loads, n, k, records, rng);
    }
  }
  auto const for_both_tiles = [&](std::string const& name, std::vector<std::int64_t> const& loads, std::int64_t n,
                                  std::int64_t k) {
    bench<kn::plans::Bf16Grouped>(name, loads, n, k, records, rng);
    bench<kn::plans::Bf16GroupedPingPong>(name, loads, n, k, records, rng);
  };
  // Qwen3-30B-A3B's experts: 128 of them, top-8, hidden 2048, expert FFN 768 (gate and up fused: 1536).
  for (std::int64_t tokens : {512, 4096}) {
    auto const loads = expert_loads(tokens, 8, 128, rng);
    std::string const t = std::to_string(tokens) + " tokens top-8 of 128 experts";
    for_both_tiles("gate-up " + t + " N1536 K2048", loads, 1536, 2048);
    for_both_tiles("down " + t + " N2048 K768", loads, 2048, 768);
  }
  // Even loads: 64 rows for each of 128 experts (torch._grouped_mm measured 160 TFLOP/s here).
  for_both_tiles("128 experts x 64 rows N2048 K768", std::vector<std::int64_t>(128, 64), 2048, 768);
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_plan_kernels(argc, argv, kn::plans::GroupedInstantiated{})) return 0;
  return kn::run_example(
      "grouped_gemm_sm90", argc, argv,
      [](std::mt19937_64& rng, kn::ExampleOptions const& options) { return run_checks(rng, options.has("--small")); },
      [](std::mt19937_64& rng, kn::ExampleOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--small")) return;
        run_benchmarks(records, rng);
      },
      {"--small"});
}
