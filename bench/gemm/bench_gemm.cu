// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm: the GEMM family (kernels/gemm, kernels/moe) timed against cuBLAS / cuBLASLt in the
// same run on random data (never zeros), rotating or flushing L2 (bench/support/bench.hpp): the
// dense GEMM, FP8, grouped, the FFN and the MoE block, in that order; prints the table and writes
// the records scripts/gpu-check keeps. Their checks: tests/gpu/gemm.
//   bench_gemm [--json FILE] [--seed N] [--dense] [--fp8] [--grouped] [--ffn] [--moe]
//   bench_gemm [--json FILE] [--seed N] --raster-sweep | --split-sweep | --decomposition-sweep |
//              --k-sweep | --decode-sweep | --shape-sweep | --candidate-sweep | --host-profile |
//              --profile | --fp8-profile | --fp8-blockwise | --fp8-blockwise-profile | --fp8-variants
//   bench_gemm [--json FILE] [--seed N] --model-sweep [--dtype bf16|fp16] [--layout KK|MNK|KMN|MNMN]
//              [--warm] [--held-out-only] [--part I/N] [--budget-s S] [--m-points P] [--rows LO-HI]
//   bench_gemm --candidate-sweep --model-shapes [--part I/N] [--budget-s S] [--m-points P]: the candidate
//              sweep on the model-shape sweep's fit half (what a tile table is refitted on)
//   bench_gemm --candidate-sweep --shapes MxNxK,... [--tiles NAME,...] [--cuts whole,heuristic,stream-K,split]:
//              the candidate sweep on those shapes only (and those tiles and cuts only)
//   bench_gemm --profile [--shapes MxNxK,... [--choice "TILE [CUT]"]]: launches for ncu (the
//              dispatch's plan unless --choice names one, as a tuning cache does)
// --dense ... --moe: only those parts of the default run (every part without them). Each of the
// others runs one sweep or profile of bench_gemm_dense.cu / bench_gemm_fp8.cu instead.
#include "bench/gemm/bench_gemm.hpp"
#include "bench/gemm/model_shapes.hpp"
#include "bench/support/cublas.hpp"
#include "tests/support/cli.hpp"

#include <cublasLt.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
/// "a,b,c" -> {"a", "b", "c"}.
std::vector<std::string> split_names(std::string const& text) {
  std::vector<std::string> names;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t const end = std::min(text.find(',', at), text.size());
    names.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return names;
}

/// "138x4096x4096,272x14336x4096": M x N x K triples, each at least 1.
std::vector<std::array<std::int64_t, 3>> parse_shapes(std::string const& text) {
  std::vector<std::array<std::int64_t, 3>> shapes;
  for (std::string const& one : split_names(text)) {
    std::array<std::int64_t, 3> shape{};
    char tail = 0;
    if (std::sscanf(one.c_str(), "%ldx%ldx%ld%c", &shape[0], &shape[1], &shape[2], &tail) != 3 || shape[0] < 1 ||
        shape[1] < 1 || shape[2] < 1)
      throw std::invalid_argument("cute-cpp [bench.shapes]: --shapes takes MxNxK,MxNxK,... (each at least 1), not '" +
                                  one + "'");
    shapes.push_back(shape);
  }
  return shapes;
}

/// Takes --model-sweep's valued options (--dtype, --layout, --part I/N, --budget-s, --m-points)
/// out of argv, since run_bench reads only flags without values.
cute_cpp::test::gemm_model::ModelSweepOptions take_model_options(int& argc, char** argv) {
  cute_cpp::test::gemm_model::ModelSweepOptions o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    bool const valued = arg == "--dtype" || arg == "--layout" || arg == "--part" || arg == "--budget-s" ||
                        arg == "--m-points" || arg == "--shapes" || arg == "--choice" || arg == "--rows" ||
                        arg == "--tiles" || arg == "--cuts";
    if (!valued || i + 1 >= argc) {
      argv[kept++] = argv[i];
      continue;
    }
    std::string const value = argv[++i];
    if (arg == "--dtype") o.dtype = value;
    else if (arg == "--layout") o.layout = value;
    else if (arg == "--budget-s") o.budget_s = std::stod(value);
    else if (arg == "--m-points") o.m_points = std::stoi(value);
    else if (arg == "--shapes") o.shapes = parse_shapes(value);
    else if (arg == "--choice") o.choice = value;
    else if (arg == "--tiles") o.tiles = split_names(value);
    else if (arg == "--cuts") o.cuts = split_names(value);
    else if (arg == "--rows") {
      char tail = 0;
      long long lo = 0, hi = 0;
      if (std::sscanf(value.c_str(), "%lld-%lld%c", &lo, &hi, &tail) != 2 || lo < 1 || hi < lo)
        throw std::invalid_argument("cute-cpp [bench.model-sweep]: --rows is LO-HI with 1 <= LO <= HI, not '" + value +
                                    "'");
      o.rows_min = lo, o.rows_max = hi;
    }
    else if (std::size_t const slash = value.find('/'); slash != std::string::npos) {
      o.part = std::stoi(value.substr(0, slash)) - 1;
      o.parts = std::stoi(value.substr(slash + 1));
    }
    if (o.parts < 1 || o.part < 0 || o.part >= o.parts)
      throw std::invalid_argument("cute-cpp [bench.model-sweep]: --part is I/N with 1 <= I <= N");
  }
  argc = kept;
  return o;
}

/// --candidate-sweep --model-shapes: the model-shape sweep's fit half (a tile table is fitted on it
/// and judged on the held-out half), --part I/N of it, M thinned to --budget-s (or --m-points).
std::vector<std::array<std::int64_t, 3>> model_candidate_shapes(cute_cpp::test::gemm_model::ModelSweepOptions const& o) {
  namespace ms = cute_cpp::test::model_shapes;
  std::size_t const m_points = o.m_points > 0 ? std::size_t(o.m_points)
                                              : ms::m_points_within(o.budget_s, ms::Sweep::candidates, ms::Half::fit,
                                                                    o.part, o.parts);
  std::vector<ms::Point> const pts = ms::points(m_points, ms::Half::fit, o.part, o.parts);
  std::printf("candidate sweep: model shapes, fit half, part %d/%d, %zu of %zu M points a projection, %zu points, "
              "estimated %.0f s\n", o.part + 1, o.parts, m_points, ms::m_grid().size(), pts.size(),
              ms::estimated_seconds(pts, ms::Sweep::candidates));
  std::vector<std::array<std::int64_t, 3>> shapes;
  for (auto const& p : pts) shapes.push_back({p.m, p.n, p.k});
  return shapes;
}
}  // namespace

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  namespace test = cute_cpp::test;
  test::gemm_model::ModelSweepOptions model_options;
  try {
    model_options = take_model_options(argc, argv);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  cublasLtHandle_t handle{};
  auto const cublas = [&] {
    if (handle == nullptr) kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
    return handle;
  };
  int const status = kn::run_bench(
      "bench_gemm", argc, argv,
      [&](std::mt19937_64& rng, kn::ProgramOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--profile"))
          test::gemm_dense::profile_launches(rng, cublas(), model_options.shapes, model_options.choice);
        else if (options.has("--fp8-profile")) test::gemm_fp8::profile_launches(rng, cublas());
        else if (options.has("--fp8-blockwise-profile")) test::gemm_fp8::blockwise_profile_launches(rng, cublas());
        else if (options.has("--fp8-blockwise")) test::gemm_fp8::blockwise_benchmarks(rng, cublas(), records);
        else if (options.has("--fp8-variants")) test::gemm_fp8::variant_benchmarks(rng, cublas(), records);
        else if (options.has("--raster-sweep")) test::gemm_dense::raster_sweep(rng, cublas(), records);
        else if (options.has("--split-sweep")) test::gemm_dense::split_sweep(rng, cublas(), records);
        else if (options.has("--k-sweep")) test::gemm_dense::k_sweep(rng, cublas(), records);
        else if (options.has("--decomposition-sweep")) test::gemm_dense::decomposition_sweep(rng, cublas(), records);
        else if (options.has("--decode-sweep")) test::gemm_dense::decode_sweep(rng, cublas(), records);
        else if (options.has("--shape-sweep")) test::gemm_dense::shape_sweep(rng, cublas(), records);
        else if (options.has("--model-sweep")) {
          model_options.warm = options.has("--warm");
          model_options.held_out_only = options.has("--held-out-only");
          test::gemm_model::model_sweep(model_options, rng, cublas(), records);
        }
        else if (options.has("--candidate-sweep")) {
          test::gemm_dense::candidate_sweep(
              rng, cublas(),
              {!model_options.shapes.empty()      ? model_options.shapes
               : options.has("--model-shapes") ? model_candidate_shapes(model_options)
                                               : std::vector<std::array<std::int64_t, 3>>{},
               model_options.tiles, model_options.cuts});
        }
        else if (options.has("--host-profile")) test::gemm_dense::host_profile(rng);
        else {
          bool const every = options.flags.empty();  // no part named: every part
          if (every || options.has("--dense")) test::gemm_dense::benchmarks(rng, cublas(), records);
          if (every || options.has("--fp8")) test::gemm_fp8::benchmarks(rng, cublas(), records);
          if (every || options.has("--grouped")) test::gemm_grouped::benchmarks(rng, records);
          if (every || options.has("--ffn")) test::ffn_block::benchmarks(rng, records);
          if (every || options.has("--moe")) test::moe_block::benchmarks(rng, records);
        }
      },
      {"--dense", "--fp8", "--grouped", "--ffn", "--moe", "--profile", "--fp8-profile", "--fp8-blockwise",
       "--fp8-variants", "--fp8-blockwise-profile", "--raster-sweep",
       "--split-sweep", "--k-sweep", "--decomposition-sweep", "--decode-sweep", "--shape-sweep", "--candidate-sweep",
       "--host-profile", "--model-sweep", "--warm", "--held-out-only", "--model-shapes"});
  if (handle != nullptr) cublasLtDestroy(handle);
  return status;
}
