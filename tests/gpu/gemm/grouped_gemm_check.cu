// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// grouped_gemm_check: checks the grouped Hopper GEMM (MoE experts, kernels/gemm/grouped_gemm.hpp)
// against a CPU reference in double on fresh random data with NaN-poisoned outputs: contiguous
// groups (ragged: 0, 1, 7, 128, 1000 rows, empty groups, rows past the last group left alone),
// masked groups (rows past each count left alone), pointer-array groups, the SwiGLU gate-up
// projection, block-scaled FP8, and bad offsets / counts (found on the device, C not written, the
// rule read back), for 128-row and 64-row (PingPong) tiles.
//   grouped_gemm_check [--seed N] [--small]   (--small: smaller cases, for compute-sanitizer)
// Its timings: bench/gemm/bench_gemm_grouped.cu.
#include "tests/gpu/gemm/grouped_gemm_operands.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_grouped {
namespace {

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

/// FP8 e4m3 with DeepSeek-V3's block scales, grouped: A's 1 x 128 scales by row of the packed rows,
/// each group's B with its own 128 x 128 scales; K past a scale block, ragged groups, an empty one.
/// Plan: the baseline main loop or issue 44's overlapped promotion.
template <class Plan>
bool check_fp8_blockwise(std::mt19937_64& rng) {
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
  auto args = fp8_grouped_arguments<Plan>(da.data(), db.data(), dsa.data(), dsb.data(), dends.data(), groups,
                                          dc.data(), rows, n, k);
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
  std::printf("check grouped %-34s G=%-4lld rows=%-6lld N=%-5lld K=%-5lld %s\n",
              Plan::overlap_promotion ? "e4m3 block scales, overlapped" : "e4m3, 1x128 / 128x128 block scales",
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
  bool ok = check_fp8_blockwise<kn::plans::Fp8E4M3BlockwiseGrouped>(rng);
  ok &= check_fp8_blockwise<kn::plans::Fp8E4M3BlockwiseGroupedOverlap>(rng);
  ok &= run_checks<kn::plans::Bf16Grouped, kn::plans::Bf16GroupedSwiGLU>(rng, small);
  ok &= run_checks<kn::plans::Bf16GroupedPingPong, kn::plans::Bf16GroupedPingPongSwiGLU>(rng, small);
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_grouped

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  if (kn::print_plan_kernels(argc, argv, kn::plans::GroupedInstantiated{})) return 0;
  return kn::run_check(
      "grouped_gemm_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return cute_cpp::test::gemm_grouped::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
