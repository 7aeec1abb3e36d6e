// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm's dense part: the Hopper GEMM (kernels/gemm, bf16 / fp16) against cuBLASLt (the same
// types and layouts, fp32 accumulate) in the same run: run_gemm_auto on the issue's shapes (with
// each side's host time per call) and chosen plans launched directly; and the sweeps and profiles
// bench_gemm's flags run instead (--raster-sweep, --split-sweep, --decomposition-sweep, --k-sweep,
// --decode-sweep, --shape-sweep, --candidate-sweep, --host-profile, --profile). Records are named
// "gemm_sm90 ..." as the former gemm_sm90 example named them. Its checks: tests/gpu/gemm/gemm_check.cu.
#include "bench/gemm/bench_gemm.hpp"
#include "tests/gpu/gemm/gemm_operands.hpp"
#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>

#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/host/target_check.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cute_cpp::test::gemm_dense {
namespace {

/// The issue's shapes (M x N x K), bf16 in and out, A and B K-major, through the heuristic.
constexpr std::int64_t benchmark_shapes[][3] = {{8192, 8192, 8192}, {4096, 4096, 4096}, {2048, 2048, 2048},
                                                {4096, 14336, 4096}, {8192, 1536, 8192}, {128, 14336, 4096},
                                                {16, 4096, 4096}};

/// Times our GEMM (launched by `ours`) and cuBLAS's on the same operands (same types and
/// layouts, fp32 accumulate), alternately, rotating through enough copies of the operands to
/// exceed three times the 50 MB L2.
/// `workspace(args)` is the split-K workspace `ours` needs. Returns both sides' host time per call.
/// `warm`: a second record of both timed warm, back to back on one copy of the operands (the
/// kernel's name with " warm" before its colon).
struct HostTimes {
  double ours_us = 0, cublas_us = 0;
};
template <class Plan, class Ours, class Workspace>
HostTimes bench(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, cublasLtHandle_t handle,
                std::vector<kn::Record>& records, Ours ours, Workspace workspace, std::string const& kernel,
                int reps = 50, bool warm = false) {
  double const bytes = double(m * k * sizeof(typename Plan::TA) + k * n * sizeof(typename Plan::TB) +
                              m * n * sizeof(typename Plan::TC));
  int const copies = int(std::min(8.0, std::ceil(150e6 / bytes)));
  std::vector<Problem<Plan>> problems;
  for (int i = 0; i < copies; ++i) problems.emplace_back(m, n, k, rng, false);
  for (auto& p : problems) p.reserve_workspace(workspace(p.arguments()));
  std::vector<host::DeviceBuffer<typename Plan::TC>> cref;
  for (int i = 0; i < copies; ++i) cref.emplace_back(std::size_t(problems[0].ldc) * m);
  kn::LtGemm reference = problems[0].cublas_plan(handle, cuda_type<typename Plan::TC>(), problems[0].ldc);
  auto run_reference = [&](int i) {
    auto const& p = problems[std::size_t(i)];
    reference.run(p.db.data(), p.da.data(), cref[std::size_t(i)].data());
  };
  int ours_next = 0, cublas_next = 0;
  auto const [ours_ms, cublas_ms] = kn::median_ms_interleaved(
      [&] { ours(problems[std::size_t(ours_next++ % copies)].arguments()); },
      [&] { run_reference(cublas_next++ % copies); }, nullptr, std::max(2, reps / 5), reps);
  // Host time per call (checks, tensor-map encoding, launch), which the GPU timings above exclude.
  auto host_us = [&](auto&& call) {
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) call();
    double const us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / 20;
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return us;
  };
  double const ours_host = host_us([&] { ours(problems[0].arguments()); });
  double const cublas_host = host_us([&] { run_reference(0); });
  std::printf("host time per call %lldx%lldx%lld: ours %.1f us, cuBLAS %.1f us\n", (long long)m, (long long)n,
              (long long)k, ours_host, cublas_host);
  double const flops = 2.0 * double(m) * double(n) * double(k);
  std::string const shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
                            major_name(Plan::major_a) + major_name(Plan::major_b);
  records.push_back({kernel, shape, kn::dtype_name<typename Plan::TA>(), flops / (ours_ms * 1e9), "cuBLASLt",
                     flops / (cublas_ms * 1e9), "TFLOP/s", ours_ms * 1e3});
  if (warm) {
    auto const [ours_warm, cublas_warm] =
        kn::median_ms_warm([&] { ours(problems[0].arguments()); }, [&] { run_reference(0); }, nullptr);
    std::size_t const colon = kernel.find(": ");
    std::string const name =
        colon == std::string::npos ? kernel + " warm" : kernel.substr(0, colon) + " warm" + kernel.substr(colon);
    records.push_back({name, shape, kn::dtype_name<typename Plan::TA>(), flops / (ours_warm * 1e9), "cuBLASLt",
                       flops / (cublas_warm * 1e9), "TFLOP/s", ours_warm * 1e3});
  }
  return {ours_host, cublas_host};
}

template <class Plan>
std::string plan_name() {
  return "gemm_sm90 " + tile_name<Plan>();
}

/// One plan, launched directly; Swapped: on a bf16 TN problem, with A and B swapped
/// (swap_ab_arguments).
template <class Plan, bool Swapped = false>
void bench_plan(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, cublasLtHandle_t handle,
                std::vector<kn::Record>& records, Cut cut = whole) {
  using On = std::conditional_t<Swapped, plans::Bf16TN, Plan>;
  auto launched = [cut](kn::GemmArguments<On> a) {
    a.decomposition = cut.mode;
    a.k_splits = cut.k_splits;
    if constexpr (Swapped) return kn::swap_ab_arguments<Plan, plans::Bf16TN>(a);
    else return a;
  };
  bench<On>(
      m, n, k, rng, handle, records,
      [&](kn::GemmArguments<On> const& a) { kn::run_gemm<Plan>(launched(a), nullptr); },
      [&](kn::GemmArguments<On> const& a) { return kn::gemm_workspace_bytes<Plan>(launched(a)); },
      plan_name<Plan>() + (Swapped ? " swapped" : "") + cut.name());
}

/// run_gemm_auto's GEMM (T in and out, A MA-major, B MB-major) with the heuristic's tile, named
/// after the tile it chose; under CUTE_CPP_TUNE=1, with the tile the process's GemmTuner measured
/// (during the warm-up), named so.
template <class T = plans::bf16, OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K>
HostTimes bench_auto(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, cublasLtHandle_t handle,
                     std::vector<kn::Record>& records, int reps = 50, bool warm = false) {
  using Home = typename plans::TileFamily<T, MA, MB>::n256;
  kn::AutoGemmArguments<T> shape;
  shape.m = m, shape.n = n, shape.k = k;
  std::size_t const first = records.size();
  HostTimes const host = bench<Home>(m, n, k, rng, handle, records,
                       [](kn::AutoGemmArguments<T> const& a) { kn::run_gemm_auto<T, MA, MB>(a, nullptr); },
                       [](kn::AutoGemmArguments<T> const& a) { return kn::gemm_auto_workspace_bytes<T, MA, MB>(a); },
                       "gemm_sm90 auto: " + dispatched_tile_name<MA, MB>(shape), reps, warm);
  if (kn::gemm_tuning_enabled()) {  // the shape is in the tuner's cache by now: nothing is timed here
    std::string const tile = kn::gemm_choice_name(kn::GemmTuner::process().choice<MA, MB>(shape, nullptr));
    records[first].kernel = "gemm_sm90 tuned: " + tile;
    if (warm) records[first + 1].kernel = "gemm_sm90 tuned warm: " + tile;
  }
  return host;
}

/// The shape sweep's shapes (issue 20): the linear layers of Llama-3-8B/70B, Qwen3-8B/30B-A3B and
/// DeepSeek-V3 at 1 to 16384 tokens, 200 shapes whose M, N and K are drawn log-uniformly from 1
/// to 32768 (seeded: the same shapes every run), and the squares of 256 to 8192. K is rounded up
/// to a multiple of 8 (the GEMM's [gemm.k-multiple-of-8]); a drawn shape of more than 2^41 flops
/// or an operand of more than 2^28 elements is drawn again, to bound the run.
std::vector<std::array<std::int64_t, 3>> sweep_shapes() {
  std::vector<std::array<std::int64_t, 3>> shapes;
  // (N, K) of each model's projections: fused QKV, attention output, gate-up, down (MoE: one expert).
  constexpr std::array<std::int64_t, 2> layers[] = {
      {6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336},      // Llama-3-8B
      {10240, 8192}, {8192, 8192}, {57344, 8192}, {8192, 28672},     // Llama-3-70B
      {6144, 4096}, {4096, 4096}, {24576, 4096}, {4096, 12288},      // Qwen3-8B
      {5120, 2048}, {2048, 4096}, {1536, 2048}, {2048, 768},         // Qwen3-30B-A3B (attention, expert)
      {24576, 1536}, {7168, 16384}, {4096, 7168}, {7168, 2048}};     // DeepSeek-V3 (q_b, o, expert gate-up, down)
  auto const add = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
    if (std::find(shapes.begin(), shapes.end(), std::array{m, n, k}) == shapes.end()) shapes.push_back({m, n, k});
  };
  for (std::int64_t tokens : {1, 16, 128, 1024, 16384})
    for (auto const& [n, k] : layers) add(tokens, n, k);
  std::size_t const drawn = shapes.size() + 200;
  std::mt19937_64 draw(20261202);  // the shapes, apart from the data (--seed)
  std::uniform_real_distribution<double> log_extent(0.0, std::log(32768.0));
  auto const extent = [&] { return std::int64_t(std::floor(std::exp(log_extent(draw)))); };
  while (shapes.size() < drawn) {
    std::int64_t const m = extent(), n = extent(), k = (extent() + 7) / 8 * 8;
    if (2.0 * double(m) * double(n) * double(k) > std::ldexp(1.0, 41) || m * k > (1 << 28) || n * k > (1 << 28) ||
        m * n > (1 << 28))
      continue;
    add(m, n, k);
  }
  // Squares, the shapes most often benchmarked (the table has them measured, not only their
  // neighbours: a tile's wave count jumps between powers of two).
  for (std::int64_t e = 256; e <= 8192; e *= 2) add(e, e, e);
  return shapes;
}

/// Median microseconds of `reps` cold calls (bench/support/bench.hpp's median_call_us).
template <class Call>
double cold_us(Call&& call, int reps = 7) {
  return kn::median_call_us(call, reps, /*warm=*/false);
}

}  // namespace

/// --raster-sweep: tile rows per rasterization group against time (the default's NOTE).
void raster_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (int rows : {4, 8, 16, 32}) {
    for (std::int64_t size : {std::int64_t{4096}, std::int64_t{8192}}) {
      bench<plans::Bf16TN>(size, size, size, rng, handle, records,
                           [rows](kn::GemmArguments<plans::Bf16TN> a) {
                             a.raster_group_rows = rows;
                             kn::run_gemm<plans::Bf16TN>(a, nullptr);
                           },
                           [](kn::GemmArguments<plans::Bf16TN> const& a) {
                             return kn::gemm_workspace_bytes<plans::Bf16TN>(a);
                           },
                           "raster group " + std::to_string(rows));
    }
  }
}

/// --split-sweep: plans and K splits on the shapes whose last wave is partial (choose_split_k's
/// and choose_gemm_tile's NOTEs).
void split_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  auto const cut = [](int s) { return s == 1 ? whole : split(s); };  // 0: split-K's own count
  for (int s : {0, 2, 8}) bench_plan<plans::Bf16TNSwap16, true>(16, 4096, 4096, rng, handle, records, cut(s));
  bench_plan<plans::Bf16TNSwap128c2, true>(128, 14336, 4096, rng, handle, records, cut(0));
  bench_plan<plans::Bf16TN112NoCluster>(128, 14336, 4096, rng, handle, records);
  bench_plan<plans::Bf16TN112ClusterN>(128, 14336, 4096, rng, handle, records);
  for (int s : {1, 2}) bench_plan<plans::Bf16TN64NoCluster>(16, 4096, 4096, rng, handle, records, cut(s));
  for (int s : {1, 2, 4}) bench_plan<plans::Bf16TN128NoCluster>(16, 4096, 4096, rng, handle, records, cut(s));
  for (int s : {1, 2, 4}) bench_plan<plans::Bf16TNNoCluster>(16, 4096, 4096, rng, handle, records, cut(s));
  for (int s : {1, 2}) bench_plan<plans::Bf16TN128NoCluster>(128, 14336, 4096, rng, handle, records, cut(s));
  for (int s : {1, 2}) bench_plan<plans::Bf16TNNoCluster>(128, 14336, 4096, rng, handle, records, cut(s));
  for (int s : {1, 2}) bench_plan<plans::Bf16TN>(2048, 2048, 2048, rng, handle, records, cut(s));
  // The PingPong schedule against the cooperative one.
  bench_plan<plans::Bf16TNPingPong>(4096, 4096, 4096, rng, handle, records);
  bench_plan<plans::Bf16TN>(4096, 4096, 4096, rng, handle, records);
  bench_plan<plans::Bf16TNPingPong>(4096, 14336, 4096, rng, handle, records);
  bench_plan<plans::Bf16TNPingPong>(2048, 2048, 2048, rng, handle, records);
  bench_plan<plans::Bf16TNPingPong>(8192, 1536, 8192, rng, handle, records);
  bench_plan<plans::Bf16TNPingPong>(8192, 8192, 8192, rng, handle, records);
}

/// --decomposition-sweep: stream-K against split-K (its own count) and whole tiles on shapes
/// whose last wave of 128 x 256 tiles is partial (choose_decomposition's NOTE), twice over.
void decomposition_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (int round = 0; round < 2; ++round)
    for (auto const& shape : {std::array<std::int64_t, 3>{4096, 14336, 4096}, {8192, 8192, 8192},
                              {8192, 1536, 8192}, {4096, 4096, 4096}, {6144, 6144, 6144}})
      for (Cut const c : {whole, split(0), stream_k})
        bench_plan<plans::Bf16TN>(shape[0], shape[1], shape[2], rng, handle, records, c);
}

/// --k-sweep: 16 x 4096 x K for growing K, and a shape of 16x4096x4096's bytes that needs no
/// split-K: where the skinny GEMM's time goes (the README's figures).
void k_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (std::int64_t k : {64, 512, 2048, 4096, 16384}) bench_auto(16, 4096, k, rng, handle, records);
  bench_auto(16, 16384, 1024, rng, handle, records);
}

/// --decode-sweep: the four projections of a Qwen3-8B decode step at batch 1 (1 x N x K, the
/// weights N x K) in swapped 128 x 16 tiles, by K splits (0: choose_split_k's count) and, where
/// the tiles pass a wave, stream-K: the split-K model's NOTE for streamed operands.
void decode_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (auto const& shape : {std::array<std::int64_t, 2>{6144, 4096}, {4096, 4096}, {24576, 4096}, {4096, 12288}}) {
    for (int s : {0, 1, 2, 3, 4, 6, 8, 12, 16})
      bench_plan<plans::Bf16TNSwap16, true>(1, shape[0], shape[1], rng, handle, records, s == 1 ? whole : split(s));
    if (shape[0] / 128 > 132) bench_plan<plans::Bf16TNSwap16, true>(1, shape[0], shape[1], rng, handle, records, stream_k);
  }
}

/// --shape-sweep (issue 20): the GEMM as users call it (run_gemm_auto, the tile heuristic's
/// dispatch) against cuBLASLt on sweep_shapes(), nobody's tuned shapes: bf16 with A and B K-major
/// on all of them, fp16 and both types' other three layouts on every fifth. Each shape
/// is timed cold (L2 flushed before each call) and warm (calls back to back on one copy of the
/// operands: "gemm_sm90 auto warm: "). Prints, cold and warm, the geomean and minimum ratio and the
/// ten worst shapes; every shape is a record of each.
void shape_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  std::vector<std::array<std::int64_t, 3>> const shapes = sweep_shapes();
  std::vector<kn::Record> cold, warm;
  // 15 timed calls a shape cold (not 50): a few hundred shapes, some of seconds' worth of flops, in
  // minutes; then the same shape warm, five calls back to back on one copy of the operands.
  // bf16 with A and B K-major on every shape; fp16 likewise and both types in the other three
  // layouts on every fifth shape (each layout's tiles are its own kernels).
  auto const sweep_layout = [&]<class T, OperandMajorMode MA, OperandMajorMode MB>(std::type_identity<T>,
                                                                          std::integral_constant<OperandMajorMode, MA>,
                                                                          std::integral_constant<OperandMajorMode, MB>,
                                                                          std::size_t every) {
    for (std::size_t i = 0; i < shapes.size(); i += every) {
      auto const& [m, n, k] = shapes[i];
      std::vector<kn::Record> both;
      bench_auto<T, MA, MB>(m, n, k, rng, handle, both, 15, true);
      cold.push_back(both[0]);
      warm.push_back(both[1]);
    }
  };
  using KMajor = std::integral_constant<OperandMajorMode, plans::K>;
  using MNMajor = std::integral_constant<OperandMajorMode, plans::MN>;
  auto const other_layouts = [&](auto type) {
    sweep_layout(type, MNMajor{}, KMajor{}, 5);
    sweep_layout(type, KMajor{}, MNMajor{}, 5);
    sweep_layout(type, MNMajor{}, MNMajor{}, 5);
  };
  sweep_layout(std::type_identity<plans::bf16>{}, KMajor{}, KMajor{}, 1);
  sweep_layout(std::type_identity<plans::f16>{}, KMajor{}, KMajor{}, 5);
  other_layouts(std::type_identity<plans::bf16>{});
  other_layouts(std::type_identity<plans::f16>{});
  for (auto const* sweep : {&cold, &warm}) {
    std::vector<std::size_t> order(sweep->size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return (*sweep)[a].ratio() < (*sweep)[b].ratio(); });
    double log_sum = 0.0;
    for (auto const& r : *sweep) log_sum += std::log(r.ratio());
    std::printf("shape sweep (%s L2): %zu shapes, geomean %.3f of cuBLASLt, minimum %.3f (%s)\n",
                sweep == &cold ? "cold" : "warm", sweep->size(), std::exp(log_sum / double(sweep->size())),
                (*sweep)[order[0]].ratio(), (*sweep)[order[0]].shape.c_str());
    for (std::size_t i = 0; i < std::min<std::size_t>(10, order.size()); ++i)
      std::printf("  worst %2zu: %-24s %-40s %.3f\n", i + 1, (*sweep)[order[i]].shape.c_str(),
                  (*sweep)[order[i]].kernel.c_str(), (*sweep)[order[i]].ratio());
    records.insert(records.end(), sweep->begin(), sweep->end());
  }
}

/// --candidate-sweep (issue 20: what the tile heuristic is fitted to): on every shape of `shapes`
/// (sweep_shapes() unless given: --model-shapes gives the model-shape sweep's fit half), cuBLASLt's
/// cold time and every tile's (GemmTile) under each cut: whole tiles, the heuristic's, stream-K,
/// and, where the tile's units fit one wave, split-K by 2 to 64. One line per figure, "candidate M
/// N K TILE CUT US", "cublas M N K US" and "chosen M N K TILE" (the heuristic's tile), and "floor
/// US": an empty kernel's (tools/fit_gemm_tiles.py reads them).
void candidate_sweep(std::mt19937_64& rng, cublasLtHandle_t handle, CandidateOptions options) {
  std::vector<std::array<std::int64_t, 3>> const shapes = options.shapes.empty() ? sweep_shapes() : options.shapes;
  auto const named = [](std::vector<std::string> const& names, std::string_view name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
  };
  for (std::string const& t : options.tiles)
    if (!kn::parse_gemm_tile(t))
      throw std::invalid_argument("cute-cpp [bench.tiles]: --tiles takes GemmTile names (gemm_tile_names), not '" + t +
                                  "'");
  for (std::string const& c : options.cuts)
    if (!named({"whole", "heuristic", "stream-K", "split"}, c))
      throw std::invalid_argument("cute-cpp [bench.cuts]: --cuts takes whole, heuristic, stream-K and split, not '" +
                                  c + "'");
  std::printf("floor %.3f\n", cold_us([] { kn::bench::hold<<<1, 1>>>(0); }));
  int const sms = host::multiprocessor_count();
  for (auto const& [m, n, k] : shapes) {
    Problem<plans::Bf16TN> p(m, n, k, rng, false);
    host::DeviceBuffer<plans::bf16> cref(std::size_t(p.ldc) * std::size_t(m));
    kn::LtGemm reference = p.cublas_plan(handle, CUDA_R_16BF, p.ldc);
    std::printf("cublas %lld %lld %lld %.3f\n", (long long)m, (long long)n, (long long)k,
                cold_us([&] { reference.run(p.db.data(), p.da.data(), cref.data()); }));
    std::printf("chosen %lld %lld %lld %s\n", (long long)m, (long long)n, (long long)k,
                std::string(kn::gemm_tile_name(kn::choose_gemm_tile(m, n, k, sms))).c_str());
    // What run_gemm_auto takes (the skinny kernel or choose_gemm_tile's tile under its cut): the
    // candidate of that tile under the heuristic's cut ("simt whole": SIMT's only candidate).
    std::printf("dispatch %lld %lld %lld %s\n", (long long)m, (long long)n, (long long)k,
                kn::gemm_choice_name(kn::choose_gemm_plan(m, n, k, sms)).c_str());
    for (auto const& [tile, name] : kn::gemm_tile_names) {
      if (!named(options.tiles, name)) continue;
      std::vector<Cut> cuts;
      for (auto const& [cut, cut_name] : {std::pair{whole, "whole"}, {heuristic, "heuristic"}, {stream_k, "stream-K"}})
        if (named(options.cuts, cut_name)) cuts.push_back(cut);
      for (int s : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64})
        if (s <= k / 64 && named(options.cuts, "split")) cuts.push_back(split(s));
      for (Cut const cut : cuts) {
        auto args = p.arguments();
        args.decomposition = cut.mode;
        args.k_splits = cut.k_splits;
        // Split-K cuts only the last wave's tiles: past one wave, a count is the heuristic's.
        bool const past_a_wave = kn::with_tile_plan(tile, args, [&]<class P>(std::type_identity<P>, auto const& a) {
          if constexpr (kn::is_simt_plan_v<P>) return false;
          else
            return (a.m + P::block_m - 1) / P::block_m * ((a.n + P::block_n - 1) / P::block_n) / P::cluster_size >
                   sms / P::cluster_size;
        });
        if (cut.mode == kn::Decomposition::SplitK && past_a_wave) continue;
        double us = -1;
        kn::GemmChoice const choice{tile};
        try {
          p.reserve_workspace(kn::gemm_choice_workspace_bytes<plans::bf16, plans::K, plans::K>(choice, args));
          args.workspace = p.workspace.data();
          args.workspace_bytes = p.workspace.bytes();
          us = cold_us([&] { kn::run_gemm_choice<plans::bf16, plans::K, plans::K>(choice, args, nullptr); });
        } catch (std::invalid_argument const&) {
          us = -1;  // the tile refuses the cut
        }
        if (us > 0)
          std::printf("candidate %lld %lld %lld %s%s %.3f\n", (long long)m, (long long)n, (long long)k,
                      std::string(name).c_str(), cut.name().c_str(), us);
      }
    }
    std::fflush(stdout);
  }
}

/// --host-profile (issue 20's host time): microseconds of host time per call, 2000 calls back to
/// back, of the pieces of a GEMM call: a bare launch of an empty kernel, the same through
/// host::launch in a cluster of two, the pointer checks, the schedule, and whole calls.
void host_profile(std::mt19937_64& rng) {
  auto const per_call = [](char const* what, auto&& call) {
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    constexpr int calls = 2000;
    auto const start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) call();
    double const us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    std::printf("host %-52s %.3f us\n", what, us);
  };
  per_call("empty kernel <<<1, 1>>>", [] { kn::bench::hold<<<1, 1>>>(0); });
  host::LaunchConfig cluster;
  cluster.grid = dim3(2);
  cluster.cluster = dim3(2, 1, 1);
  per_call("empty kernel, host::launch, cluster of 2", [&] {
    host::launch(&kn::bench::hold<0>, "hold", cluster, 0LL);
  });
  for (auto const& s : {std::array<std::int64_t, 3>{4096, 4096, 4096}, {16, 4096, 4096}, {128, 14336, 4096}}) {
    Problem<plans::Bf16TN> p(s[0], s[1], s[2], rng, false);
    p.reserve_workspace(kn::gemm_bf16_tn_workspace_bytes(p.arguments()));
    auto const args = p.arguments();
    std::string const shape = std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
    host::PointerArgument const pointers[] = {{"A", args.a}, {"B", args.b}, {"C", args.c}};
    per_call("check_device_pointers (3)", [&] { host::check_device_pointers("gemm", pointers, nullptr); });
    per_call(("gemm_bf16_tn_workspace_bytes " + shape).c_str(), [&] { (void)kn::gemm_bf16_tn_workspace_bytes(args); });
    per_call(("run_gemm_bf16_tn " + shape).c_str(), [&] { kn::run_gemm_bf16_tn(args, nullptr); });
  }
}

/// --profile (bench_gemm.hpp).
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle,
                      std::vector<std::array<std::int64_t, 3>> const& shapes, std::string const& choice) {
  std::optional<kn::GemmChoice> const named = choice.empty() ? std::nullopt : kn::parse_gemm_choice(choice);
  if (!choice.empty() && !named)
    throw std::invalid_argument("cute-cpp [bench.choice]: --choice takes a tile and cut as a tuning cache names them "
                                "(\"swap144cn2\", \"n256 stream-K\"), not '" + choice + "'");
  std::vector<std::array<std::int64_t, 3>> launched = shapes;
  if (launched.empty())
    for (auto const& s : benchmark_shapes) launched.push_back({s[0], s[1], s[2]});
  for (auto const& s : launched) {
    Problem<plans::Bf16TN> p(s[0], s[1], s[2], rng);
    p.reserve_workspace(named ? kn::gemm_choice_workspace_bytes<plans::bf16, plans::K, plans::K>(*named, p.arguments())
                              : kn::gemm_bf16_tn_workspace_bytes(p.arguments()));
    auto const args = p.arguments();
    host::DeviceBuffer<plans::bf16> c(std::size_t(p.ldc) * std::size_t(p.m));
    kn::LtGemm reference = p.cublas_plan(handle, CUDA_R_16BF, p.ldc);
    for (int i = 0; i < 2; ++i) {
      if (named) kn::run_gemm_choice<plans::bf16, plans::K, plans::K>(*named, args, nullptr);
      else kn::run_gemm_bf16_tn(args, nullptr);
      reference.run(p.db.data(), p.da.data(), c.data());
    }
  }
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void benchmarks(std::mt19937_64& rng, cublasLtHandle_t handle, std::vector<kn::Record>& records) {
  for (auto const& s : benchmark_shapes) {
    // The host's share of a call (checks, the cached tensor maps, the launch) at steady state,
    // beside cuBLASLt's (a planned cublasLtMatmul): issue 20's goal is 3 us.
    HostTimes const host = bench_auto(s[0], s[1], s[2], rng, handle, records);
    kn::Record r{"gemm_sm90 host time per call", records.back().shape, "bf16", host.ours_us, "cuBLASLt",
                 host.cublas_us, "us/call (host)", host.ours_us};
    r.lower_is_better = true;
    records.push_back(r);
  }
  // What stream-K, the heuristic's choice on these two, buys over whole tiles.
  bench_plan<plans::Bf16TN>(4096, 14336, 4096, rng, handle, records);
  bench_plan<plans::Bf16TN>(8192, 8192, 8192, rng, handle, records);
  bench_plan<plans::Bf16TN320>(4096, 14336, 4096, rng, handle, records);
  bench_plan<plans::Bf16TN320>(8192, 8192, 8192, rng, handle, records);
  bench_plan<plans::Bf16TNNoCluster>(8192, 8192, 8192, rng, handle, records);
  bench_plan<plans::Bf16NN>(8192, 8192, 8192, rng, handle, records);
  bench_plan<plans::Bf16TT>(8192, 8192, 8192, rng, handle, records);
  bench_plan<plans::Bf16NT>(8192, 8192, 8192, rng, handle, records);
}

}  // namespace cute_cpp::test::gemm_dense
