// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// ffn_check: checks the feed-forward block y = (silu(x Wg^T) * (x Wu^T)) Wd^T of kernels/gemm/ffn.cuh,
// two Hopper GEMMs (the gate-up projection with the SwiGLU epilogue, then the down projection),
// against a CPU reference in double on fresh random data with NaN-poisoned outputs (ragged M, N
// tails), and the shape it refuses.
//   ffn_check [--seed N] [--small]   (--small: two small cases and the rejection, for
//   compute-sanitizer)
// Its timings: bench/gemm/bench_ffn_moe.cu.
#include "tests/gpu/gemm/ffn_operands.hpp"
#include "tests/support/cli.hpp"

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::ffn_block {
namespace {

/// F not a multiple of 8: the fused weight's blocks of 8 rows do not fit.
bool check_rejection(std::mt19937_64& rng) {
  try {
    Problem p(4, 64, 12, rng);
    std::printf("check ffn rejects F=12 FAILED: no error\n");
    return false;
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find("[ffn.shape]") != std::string::npos;
    std::printf("check ffn rejects F=12 [ffn.shape] %s\n", named ? "ok" : "FAILED: another error");
    return named;
  }
}

/// Every row of y for fresh M x D x F data.
bool check_all_rows(std::size_t m, std::size_t d, std::size_t f, std::mt19937_64& rng) {
  Problem p(m, d, f, rng);
  std::vector<std::size_t> all(m);
  for (std::size_t r = 0; r < m; ++r) all[r] = r;
  return check_rows(p, all, "ragged M and N tiles");
}

bool run_checks(std::mt19937_64& rng) {
  bool ok = check_rejection(rng);
  ok &= check_all_rows(1, 64, 96, rng);
  ok &= check_all_rows(77, 256, 352, rng);
  ok &= check_all_rows(300, 160, 608, rng);
  return ok;
}

/// --small, for compute-sanitizer (memcheck, racecheck, synccheck, initcheck): one row, and 130
/// rows (a second 128-row tile of 2) with D = 72 and F = 200 (each GEMM's K and N past a multiple
/// of 64); and the rejection.
bool check_small(std::mt19937_64& rng) {
  bool ok = check_rejection(rng);
  ok &= check_all_rows(1, 64, 96, rng);
  ok &= check_all_rows(130, 72, 200, rng);
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::ffn_block

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  namespace ffn = cute_cpp::test::ffn_block;
  // --kernels: the dynamic shared memory of the GEMM kernels linked in, for scripts/build-report.
  if (kn::print_plan_kernels(argc, argv, kn::plans::Instantiated{})) return 0;
  return kn::run_check(
      "ffn_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return options.has("--small") ? ffn::check_small(rng) : ffn::run_checks(rng);
      },
      {"--small"});
}
