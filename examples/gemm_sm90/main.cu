// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_sm90: checks the Hopper GEMM against an fp64 CPU product (small, ragged shapes) and an
// fp32 cublasLt product (large shapes) on fresh random data with NaN-poisoned outputs, for every
// operand major-ness, output type and fused epilogue built; then times it against cuBLAS
// (bf16 in, bf16 out, fp32 accumulate) in the same run.
//   gemm_sm90 [--no-bench] [--json FILE] [--seed N] [--small] [--profile] [--raster-sweep] [--split-sweep]
//             [--k-sweep] [--decomposition-sweep] [--decode-sweep] [--shape-sweep] [--candidate-sweep]
//             [--host-profile]
//             (--small: ten small cases against fp64 and the argument rejections, no benchmark, for
//             compute-sanitizer)
#include "bench/support/cublaslt_gemm.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

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
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace plans = kn::plans;
using cute_cpp::OperandMajorMode;

namespace {

template <class T> constexpr cudaDataType_t cuda_type() {
  if constexpr (std::is_same_v<T, plans::bf16>) return CUDA_R_16BF;
  else if constexpr (std::is_same_v<T, plans::f16>) return CUDA_R_16F;
  else return CUDA_R_32F;
}
char const* major_name(OperandMajorMode m) { return m == OperandMajorMode::K ? "K" : "MN"; }

/// A problem's operands on the device and the host, in the plan's layouts.
template <class Plan>
struct Problem {
  using TA = typename Plan::TA;
  using TB = typename Plan::TB;
  using TC = typename Plan::TC;
  static constexpr bool row_major_c = Plan::layout_c == cute_cpp::LayoutEnum::RowMajor;
  std::int64_t m, n, k, lda, ldb, ldc;
  std::vector<TA> a;
  std::vector<TB> b;
  host::DeviceBuffer<TA> da;
  host::DeviceBuffer<TB> db;
  host::DeviceBuffer<TC> dc;
  host::DeviceBuffer<unsigned char> workspace;  // split-K's, zeroed when (re)allocated

  /// `checked`: keep host copies of A and B for a reference; a benchmark's operands are made on
  /// the device (fill_random_tiled), which takes a fraction of the time for large ones.
  Problem(std::int64_t m_, std::int64_t n_, std::int64_t k_, std::mt19937_64& rng, bool checked = true)
      : m(m_), n(n_), k(k_) {
    // NOTE: leading dimensions are padded to a multiple of 8 beyond the extent, so strided access is exercised.
    lda = (Plan::major_a == OperandMajorMode::K ? k : m) + 8 - (Plan::major_a == OperandMajorMode::K ? k : m) % 8;
    ldb = (Plan::major_b == OperandMajorMode::K ? k : n) + 8 - (Plan::major_b == OperandMajorMode::K ? k : n) % 8;
    ldc = (row_major_c ? n : m) + 8 - (row_major_c ? n : m) % 8;
    std::size_t const a_size = std::size_t(lda) * std::size_t(Plan::major_a == OperandMajorMode::K ? m : k);
    std::size_t const b_size = std::size_t(ldb) * std::size_t(Plan::major_b == OperandMajorMode::K ? n : k);
    da = host::DeviceBuffer<TA>(a_size);
    db = host::DeviceBuffer<TB>(b_size);
    dc = host::DeviceBuffer<TC>(std::size_t(ldc) * std::size_t(row_major_c ? m : n));
    if (!checked) {
      kn::fill_random_tiled(da.data(), a_size, rng, -1.0, 1.0);
      kn::fill_random_tiled(db.data(), b_size, rng, -1.0, 1.0);
      return;
    }
    a = kn::random_values<TA>(a_size, rng, -1.0, 1.0);
    b = kn::random_values<TB>(b_size, rng, -1.0, 1.0);
    da.upload(std::span<TA const>(a));
    db.upload(std::span<TB const>(b));
  }
  double a_at(std::int64_t i, std::int64_t kk) const {
    return double(float(Plan::major_a == OperandMajorMode::K ? a[i * lda + kk] : a[kk * lda + i]));
  }
  double b_at(std::int64_t kk, std::int64_t j) const {
    return double(float(Plan::major_b == OperandMajorMode::K ? b[j * ldb + kk] : b[kk * ldb + j]));
  }
  kn::GemmArguments<Plan> arguments() const {
    kn::GemmArguments<Plan> args;
    args.a = da.data();
    args.lda = lda;
    args.b = db.data();
    args.ldb = ldb;
    args.c = dc.data();
    args.ldc = ldc;
    args.m = m;
    args.n = n;
    args.k = k;
    args.workspace = workspace.data();
    args.workspace_bytes = workspace.bytes();
    return args;
  }
  /// Makes the workspace at least `bytes` long.
  void reserve_workspace(std::size_t bytes) {
    if (bytes <= workspace.bytes()) return;
    workspace = host::DeviceBuffer<unsigned char>(bytes);
    workspace.fill_bytes(0);
  }
  /// The product in fp64 on the CPU (small problems).
  std::vector<double> cpu_product() const {
    std::vector<double> p(std::size_t(m * n));
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t kk = 0; kk < k; ++kk) {
        double const x = a_at(i, kk);
        for (std::int64_t j = 0; j < n; ++j) p[std::size_t(i * n + j)] += x * b_at(kk, j);
      }
    }
    return p;
  }
  /// cublasLt's C = A B (fp32 accumulate) for this problem's shape and layouts, into a row-major
  /// C of `out_type` with `ldc_out`: row-major C = A B is column-major C^T = B^T A^T, so
  /// cublasLt's A is our B (n x k) and its B our A (k x m). Run it with run(db, da, out).
  kn::LtGemm cublas_plan(cublasLtHandle_t handle, cudaDataType_t out_type, std::int64_t ldc_out) const {
    bool const b_k = Plan::major_b == OperandMajorMode::K, a_k = Plan::major_a == OperandMajorMode::K;
    auto const un = std::uint64_t(n), um = std::uint64_t(m), uk = std::uint64_t(k);
    return kn::LtGemm(handle, {cuda_type<TB>(), b_k ? uk : un, b_k ? un : uk, ldb, b_k},
                      {cuda_type<TA>(), a_k ? uk : um, a_k ? um : uk, lda, !a_k}, {out_type, un, um, ldc_out});
  }
  /// The product in fp32 through cublasLt (large problems), row-major m x n.
  std::vector<double> cublas_product(cublasLtHandle_t handle) const {
    host::DeviceBuffer<float> out(std::size_t(m * n));
    cublas_plan(handle, CUDA_R_32F, n).run(db.data(), da.data(), out.data());
    auto const host_out = out.download();
    return std::vector<double>(host_out.begin(), host_out.end());
  }
  /// Our C, row-major m x n (the padding dropped).
  std::vector<TC> result() const {
    auto const all = dc.download();
    std::vector<TC> packed(std::size_t(m * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        packed[std::size_t(i * n + j)] = all[std::size_t(row_major_c ? i * ldc + j : j * ldc + i)];
    return packed;
  }
};

/// A decomposition to check or time: GemmArguments' decomposition and k_splits.
struct Cut {
  kn::Decomposition mode = kn::Decomposition::DataParallel;
  int k_splits = 0;
  /// " split N", " split" (count chosen), " stream-K", " heuristic" or "" (whole tiles).
  std::string name() const {
    switch (mode) {
      case kn::Decomposition::SplitK: return " split" + (k_splits > 0 ? " " + std::to_string(k_splits) : "");
      case kn::Decomposition::StreamK: return " stream-K";
      case kn::Decomposition::Heuristic: return " heuristic";
      case kn::Decomposition::DataParallel: break;
    }
    return "";
  }
};
constexpr Cut whole{}, heuristic{kn::Decomposition::Heuristic}, stream_k{kn::Decomposition::StreamK};
constexpr Cut split(int k_splits) { return {kn::Decomposition::SplitK, k_splits}; }

template <class TC> double rtol_of() { return std::is_same_v<TC, float> ? 1e-5 : std::is_same_v<TC, plans::f16> ? 2e-3 : 1.0 / 128; }

/// A plan's tile, stages and cluster: "128x256x64s4c2" (c1x2: a cluster along N), "pingpong".
template <class Plan>
std::string tile_name() {
  if constexpr (kn::is_simt_plan_v<Plan>) return "simt 32x64x32";
  else return std::to_string(Plan::block_m) + "x" + std::to_string(Plan::block_n) + "x" + std::to_string(Plan::block_k) +
         "s" + std::to_string(Plan::stages) + "c" + std::to_string(Plan::cluster_m) +
         (Plan::cluster_n > 1 ? "x" + std::to_string(Plan::cluster_n) : "") + (Plan::pingpong ? " pingpong" : "");
}

/// The tile of the plan the bf16 TN dispatcher runs for these arguments; "swapped" when it swaps
/// A and B (its plan writes a column-major C).
template <OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K, class T>
std::string dispatched_tile_name(kn::AutoGemmArguments<T> const& args) {
  kn::GemmChoice const c = kn::chosen_gemm_plan<MA, MB>(args);
  return kn::with_tile_plan<MA, MB>(c.tile, args, [&]<class P>(std::type_identity<P>, auto const&) {
    std::string const cut = kn::gemm_choice_name({kn::GemmTile::n256, c.decomposition, c.k_splits});
    return tile_name<P>() + (P::layout_c == cute_cpp::LayoutEnum::ColMajor ? " swapped" : "") + cut.substr(4);
  });
}

/// Runs one plan on one shape (cut as `cut` says) and compares every element with the
/// reference (fp64 on the CPU for small shapes or without a cuBLAS handle, else cuBLAS's fp32);
/// a split or stream-K run is repeated and must be bit-identical.
template <class Plan, class Reference>
bool check(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, cublasLtHandle_t handle,
           Reference&& reference, typename Plan::EpilogueOp epilogue_op = {}, char const* what = "", Cut cut = whole) {
  // The bf16 TN plan goes through the tile heuristic's dispatch (with its own choice of split).
  constexpr bool dispatched = std::is_same_v<Plan, plans::Bf16TN>;
  auto run = [](kn::GemmArguments<Plan> const& a) {
    if constexpr (dispatched) kn::run_gemm_bf16_tn(a, nullptr);
    else kn::run_gemm<Plan>(a, nullptr);
  };
  Problem<Plan> p(m, n, k, rng);
  p.dc.fill_bytes(0xFF);
  auto arguments = [&] {
    auto a = p.arguments();
    a.decomposition = cut.mode;
    a.k_splits = cut.k_splits;
    a.epilogue_op = epilogue_op;
    return a;
  };
  if constexpr (dispatched) p.reserve_workspace(kn::gemm_bf16_tn_workspace_bytes(arguments()));
  else p.reserve_workspace(kn::gemm_workspace_bytes<Plan>(arguments()));
  auto const args = arguments();  // with the workspace
  run(args);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  bool repeatable = true;
  if (cut.mode != kn::Decomposition::DataParallel) {
    auto const first = p.dc.download();
    p.dc.fill_bytes(0xFF);
    run(args);
    auto const second = p.dc.download();
    repeatable = std::memcmp(first.data(), second.data(), first.size() * sizeof(first[0])) == 0;
  }
  bool const small = handle == nullptr || m * n * k <= std::int64_t(1) << 27;
  std::vector<double> want = small ? p.cpu_product() : p.cublas_product(handle);
  reference(want, m, n);
  auto const got = p.result();
  // Output rounding, plus fp32 accumulation over K terms of magnitude <= 1.
  double const atol = 1e-5 * double(k) + (std::is_same_v<typename Plan::TC, float> ? 0.0 : 1e-2);
  auto const result = kn::check_close(std::span<typename Plan::TC const>(got), std::span<double const>(want),
                                      rtol_of<typename Plan::TC>(), atol);
  std::string tile = tile_name<Plan>();
  if constexpr (dispatched) tile = dispatched_tile_name(args);
  std::printf("check %-4s A %-2s B %-2s -> %-4s %-3s %-24s %-22s m=%-5lld n=%-5lld k=%-5lld%-11s vs %-7s %s%s\n",
              kn::dtype_name<typename Plan::TA>(), major_name(Plan::major_a), major_name(Plan::major_b),
              kn::dtype_name<typename Plan::TC>(), Problem<Plan>::row_major_c ? "row" : "col", tile.c_str(), what,
              (long long)m, (long long)n, (long long)k, cut.name().c_str(), small ? "fp64" : "cuBLAS",
              result.summary().c_str(), repeatable ? "" : "; FAILED: a second run differs");
  return result.ok() && repeatable;
}

constexpr auto no_epilogue = [](std::vector<double>&, std::int64_t, std::int64_t) {};

/// A gated (SwiGLU) GEMM: C (m x n/2) = silu(gate) * up of the product's interleaved gate and up
/// columns, against the fp64 product on the CPU; also with the work cut by stream-K and split-K.
template <class Plan>
bool check_gated(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, Cut cut = whole) {
  Problem<Plan> p(m, n, k, rng);
  p.dc.fill_bytes(0xFF);
  auto args = p.arguments();
  args.decomposition = cut.mode;
  args.k_splits = cut.k_splits;
  p.reserve_workspace(kn::gemm_workspace_bytes<Plan>(args));
  args = p.arguments();
  args.decomposition = cut.mode;
  args.k_splits = cut.k_splits;
  kn::run_gemm<Plan>(args, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::int64_t const f = n / 2;
  auto const product = p.cpu_product();
  std::vector<double> want(std::size_t(m * f));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < f; ++j) {
      double const g = product[std::size_t(i * n + cute_cpp::epilogue::gated_gate_row(j))];
      double const u = product[std::size_t(i * n + cute_cpp::epilogue::gated_up_row(j))];
      want[std::size_t(i * f + j)] = g / (1.0 + std::exp(-g)) * u;
    }
  auto const all = p.dc.download();
  std::vector<typename Plan::TC> got(std::size_t(m * f));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < f; ++j) got[std::size_t(i * f + j)] = all[std::size_t(i * p.ldc + j)];
  auto const result = kn::check_close(std::span<typename Plan::TC const>(got), std::span<double const>(want),
                                      rtol_of<typename Plan::TC>(), 1e-5 * double(k) + 1e-2);
  // Columns past n/2 of each row of C are not C's: the kernel must leave them as poisoned.
  bool untouched = true;
  for (std::int64_t i = 0; i < m && untouched; ++i)
    for (std::int64_t j = f; j < p.ldc && untouched; ++j) {
      auto const v = all[std::size_t(i * p.ldc + j)];
      untouched = std::memcmp(&v, "\xff\xff\xff\xff", sizeof(v)) == 0;
    }
  std::printf("check %-4s A K  B K  -> %-4s row %-24s %-22s m=%-5lld n=%-5lld k=%-5lld%-11s vs fp64    %s%s\n",
              kn::dtype_name<typename Plan::TA>(), kn::dtype_name<typename Plan::TC>(), tile_name<Plan>().c_str(),
              "swiglu", (long long)m, (long long)n, (long long)k, cut.name().c_str(), result.summary().c_str(),
              untouched ? "" : "; FAILED: wrote past C's n/2 columns");
  return result.ok() && untouched;
}

template <class Plan>
bool check_shapes(std::mt19937_64& rng, cublasLtHandle_t handle, bool large) {
  bool ok = true;
  ok &= check<Plan>(128, 256, 64, rng, handle, no_epilogue);
  ok &= check<Plan>(1, 8, 8, rng, handle, no_epilogue);
  ok &= check<Plan>(333, 517, 264, rng, handle, no_epilogue);
  ok &= check<Plan>(700, 300, 1000, rng, handle, no_epilogue);
  if (large) ok &= check<Plan>(2048 + 77, 4096 - 40, 4096 + 8, rng, handle, no_epilogue);
  return ok;
}

/// Every tile of one element type's and layout's TileFamily (the nearest built one where the layout
/// lacks it), through run_gemm_choice as run_gemm_auto runs it, on a ragged shape (heuristic cut),
/// and run_gemm_auto itself on shapes whose heuristic choices differ, against the fp64 product.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
bool check_family(std::mt19937_64& rng) {
  using Home = typename plans::TileFamily<T, MA, MB>::n256;
  bool ok = true;
  auto const one = [&](std::int64_t m, std::int64_t n, std::int64_t k, char const* what, auto&& run, auto&& bytes) {
    Problem<Home> p(m, n, k, rng);
    p.dc.fill_bytes(0xFF);
    p.reserve_workspace(bytes(p.arguments()));
    run(p.arguments());
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const want = p.cpu_product();
    auto const got = p.result();
    auto const result =
        kn::check_close(std::span<T const>(got), std::span<double const>(want), rtol_of<T>(), 1e-5 * double(k) + 1e-2);
    std::printf("check %-4s %s via %-10s m=%-5lld n=%-5lld k=%-5lld vs fp64    %s\n", kn::dtype_name<T>(),
                std::string(kn::gemm_layout_name(MA, MB)).c_str(), what, (long long)m, (long long)n, (long long)k,
                result.summary().c_str());
    ok &= result.ok();
  };
  for (auto const& [tile, name] : kn::gemm_tile_names) {
    kn::GemmChoice const c{tile};
    one(150, 200, 136, std::string(name).c_str(),
        [&](kn::AutoGemmArguments<T> const& a) { kn::run_gemm_choice<T, MA, MB>(c, a, nullptr); },
        [&](kn::AutoGemmArguments<T> const& a) { return kn::gemm_choice_workspace_bytes<T, MA, MB>(c, a); });
  }
  // SIMT's skinny shapes: the skinny kernel wherever the long operand is K-major (A or B short,
  // either major-ness, K with and without a tail), the tiled kernel elsewhere.
  for (auto const& s : {std::array<std::int64_t, 3>{6, 333, 1003}, {333, 2, 520}, {300, 5, 201}, {1, 77, 40}}) {
    kn::GemmChoice const c{kn::GemmTile::simt};
    one(s[0], s[1], s[2], "simt",
        [&](kn::AutoGemmArguments<T> const& a) { kn::run_gemm_choice<T, MA, MB>(c, a, nullptr); },
        [&](kn::AutoGemmArguments<T> const& a) { return kn::gemm_choice_workspace_bytes<T, MA, MB>(c, a); });
  }
  for (auto const& s : {std::array<std::int64_t, 3>{5, 300, 520}, {300, 40, 264}, {100, 700, 72}, {777, 1030, 200}})
    one(s[0], s[1], s[2], "auto", [](kn::AutoGemmArguments<T> const& a) { kn::run_gemm_auto<T, MA, MB>(a, nullptr); },
        [](kn::AutoGemmArguments<T> const& a) { return kn::gemm_auto_workspace_bytes<T, MA, MB>(a); });
  return ok;
}

/// Split-K: every tile split (uneven ranges, a cluster rank past M), the tail of a multi-wave
/// problem split, narrow tiles split many ways, and the heuristic's own choices on skinny shapes.
bool check_split_k(std::mt19937_64& rng, cublasLtHandle_t handle) {
  bool ok = true;
  ok &= check<plans::Bf16TN>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(3));
  ok &= check<plans::Bf16TN>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(5));
  ok &= check<plans::Bf16TN>(2048 + 77, 4096 - 40, 4096 + 8, rng, handle, no_epilogue, {}, "tail split", split(4));
  ok &= check<plans::Bf16TN64NoCluster>(16, 1000, 4096, rng, handle, no_epilogue, {}, "", split(7));
  ok &= check<plans::Bf16TN128NoCluster>(100, 3000, 2056, rng, handle, no_epilogue, {}, "", split(2));
  ok &= check<plans::Bf16TNf32>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(2));
  ok &= check<plans::Bf16TNf32ColMajor>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(3));
  ok &= check<plans::Bf16TNPingPong>(333, 517, 264, rng, handle, no_epilogue, {}, "pingpong", split(3));
  ok &= check<plans::Bf16TNPingPong>(2048 + 77, 4096 - 40, 4096 + 8, rng, handle, no_epilogue, {}, "pingpong",
                                     split(2));
  ok &= check<plans::Bf16TNSwap16>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(3));
  ok &= check<plans::Bf16TN320>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(3));
  ok &= check<plans::Bf16TN112ClusterN>(333, 517, 264, rng, handle, no_epilogue, {}, "cluster along N", split(3));
  ok &= check<plans::Bf16TNSwap128c2>(333, 517, 264, rng, handle, no_epilogue, {}, "", split(2));
  ok &= check<plans::Bf16TN>(16, 4096, 4096, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(5, 3000, 1032, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(40, 1000, 2056, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(64, 4096 + 24, 4096, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(100, 14000, 1000, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(128, 14336, 4096, rng, handle, no_epilogue, {}, "", heuristic);
  ok &= check<plans::Bf16TN>(4096, 14336, 4096, rng, handle, no_epilogue, {}, "", heuristic);
  return ok;
}

/// Stream-K: ranges of a few K blocks (a range crosses several tiles) and of about 1.2 tiles,
/// a cluster rank past M, every kind of plan the scheduler serves, and the heuristic's choice.
bool check_stream_k(std::mt19937_64& rng, cublasLtHandle_t handle) {
  bool ok = true;
  std::int64_t const m = 2048 + 77, n = 4096 - 40, k = 4096 + 8;
  ok &= check<plans::Bf16TN>(1100, 3900, 136, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TN>(m, n, k, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TNNoCluster>(m, n, k, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TNPingPong>(m, n, k, rng, handle, no_epilogue, {}, "pingpong", stream_k);
  ok &= check<plans::Bf16TN112ClusterN>(m, n, 1032, rng, handle, no_epilogue, {}, "cluster along N", stream_k);
  ok &= check<plans::Bf16TNf32>(m, n, 1032, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TNf32ColMajor>(m, n, 1032, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TNSwap16>(m, n, 1032, rng, handle, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TN>(8192, 8192, 8192, rng, handle, no_epilogue, {}, "", heuristic);
  return ok;
}

/// The fused epilogue: act(alpha * P + beta * S + bias[col]) with a random source S and bias.
template <class Plan, class Act>
bool check_epilogue(Act act, char const* what, std::mt19937_64& rng, cublasLtHandle_t handle, Cut cut = whole,
                    std::int64_t const m = 333, std::int64_t const n = 517) {
  std::int64_t const k = 264;
  auto const source = kn::random_values<plans::bf16>(std::size_t(m * n), rng, -1.0, 1.0);
  auto const bias = kn::random_values<float>(std::size_t(n), rng, -1.0, 1.0);
  host::DeviceBuffer<plans::bf16> dsource(source.size());
  host::DeviceBuffer<float> dbias(bias.size());
  dsource.upload(std::span<plans::bf16 const>(source));
  dbias.upload(std::span<float const>(bias));
  typename Plan::EpilogueOp op;
  op.alpha = 0.75f;
  op.beta = -0.5f;
  op.source = dsource.data();
  op.ld_source = n;
  op.bias = dbias.data();
  auto const reference = [&](std::vector<double>& p, std::int64_t rows, std::int64_t cols) {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        double& v = p[std::size_t(i * cols + j)];
        v = act(0.75 * v - 0.5 * double(float(source[std::size_t(i * cols + j)])) + double(bias[std::size_t(j)]));
      }
  };
  return check<Plan>(m, n, k, rng, handle, reference, op, what, cut);
}

bool check_rejections() {
  bool ok = true;
  auto expect = [&](auto&& call, char const* rule) {
    try {
      call();
    } catch (std::invalid_argument const& e) {
      bool const named = std::strstr(e.what(), rule) != nullptr;
      std::printf("check rejects %-28s %s\n", rule, named ? "ok" : e.what());
      ok &= named;
      return;
    }
    std::printf("check rejects %-28s FAILED: no error\n", rule);
    ok = false;
  };
  // A and B may share a buffer (both are read); C has its own (gemm.aliasing), and each operand's
  // extent stays inside its allocation, so no two can overlap by where the allocator put them.
  host::DeviceBuffer<plans::bf16> buffer(1 << 20), out(1 << 16), wide_c(std::size_t(4096) * 4096);
  kn::GemmArguments<plans::Bf16TN> args;
  args.a = buffer.data();
  args.b = buffer.data();
  args.c = out.data();
  args.m = 64, args.n = 64, args.k = 12, args.lda = 16, args.ldb = 16, args.ldc = 64;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.k-multiple-of-8]");
  {
    auto bad = args;
    bad.k = 16, bad.b = nullptr;
    expect([&] { kn::run_gemm<plans::Bf16TN>(bad, nullptr); }, "[gemm.pointers]");
    expect([&] { kn::run_gemm_bf16_tn(bad, nullptr); }, "[gemm.pointers]");
    bad.b = buffer.data(), bad.lda = 8;  // below K
    expect([&] { kn::run_gemm<plans::Bf16TN>(bad, nullptr); }, "[gemm.leading-dimension]");
    bad.lda = 16, bad.c = buffer.data() + 512;  // inside A
    expect([&] { kn::run_gemm<plans::Bf16TN>(bad, nullptr); }, "[gemm.aliasing]");
    expect([&] { kn::run_gemm_bf16_tn(bad, nullptr); }, "[gemm.aliasing]");
    bad.c = out.data(), bad.m = 0;
    expect([&] { kn::run_gemm_bf16_tn(bad, nullptr); }, "[gemm.shape]");
  }
  args.k = 16, args.lda = 20;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[tma.global.stride]");
  args.lda = 16, args.a = buffer.data() + 1;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[tma.global.address]");
  args.a = buffer.data();
  args.decomposition = kn::Decomposition::SplitK, args.k_splits = 2;  // one K block
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.k-splits]");
  args.k_splits = -1;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.k-splits]");
  args.decomposition = kn::Decomposition::Heuristic, args.k_splits = 3;  // a count is SplitK's
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.k-splits]");
  args.decomposition = kn::Decomposition::StreamK, args.k_splits = 0;  // one tile
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.stream-k]");
  {
    auto wide = args;
    wide.m = wide.n = 4096, wide.ldc = 4096, wide.c = wide_c.data();
    expect([&] { kn::run_gemm<plans::Bf16TN320>(wide, nullptr); }, "[gemm.stream-k]");  // 160 accumulators a thread
  }
  {
    kn::GemmArguments<plans::Bf16TNSwiGLU> gated;
    gated.a = gated.b = buffer.data();
    gated.c = out.data();
    gated.m = 64, gated.n = 56, gated.k = 16;  // n: three and a half blocks of 8 gate and 8 up columns
    gated.lda = gated.ldb = 16, gated.ldc = 64;
    expect([&] { kn::run_gemm<plans::Bf16TNSwiGLU>(gated, nullptr); }, "[gemm.gated]");
  }
  args.decomposition = kn::Decomposition::SplitK;
  args.k = 128, args.lda = 128, args.ldb = 128, args.k_splits = 2;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.workspace]");
  host::DeviceBuffer<unsigned char> workspace(std::size_t(1) << 20);  // room enough, misaligned by 4
  args.workspace = workspace.data() + 4, args.workspace_bytes = workspace.bytes() - 4;
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.workspace]");
  args.workspace = nullptr, args.workspace_bytes = 0;
  args.decomposition = kn::Decomposition::StreamK, args.k_splits = 0;
  args.m = 4096, args.n = 4096, args.ldc = 4096, args.c = wide_c.data();  // 256 tiles, no room for stream-K's partials
  expect([&] { kn::run_gemm<plans::Bf16TN>(args, nullptr); }, "[gemm.workspace]");
  return ok;
}

double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

bool run_checks(std::mt19937_64& rng, cublasLtHandle_t handle) {
  bool ok = true;
  ok &= check_shapes<plans::Bf16TN>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TNNoCluster>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TN320>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TN128>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TN64>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TNPingPong>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TN112NoCluster>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TN112ClusterN>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TNSwap128c2>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TNSwap16>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TNSwap32>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TNSwap64>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TNSimt>(rng, handle, true);
  // The skinny kernel (simt_gemv.cuh): M or N of at most 8 (1, 3, 5 and 8 rows; K with a tail
  // past its 8-element loads, long K shared by a row's warps).
  for (auto const& s : {std::array<std::int64_t, 3>{23, 1, 11488}, {1, 1023, 2376}, {5, 777, 1003}, {300, 3, 4100},
                        {8, 8, 8}, {2, 50, 7}})
    ok &= check<plans::Bf16TNSimt>(s[0], s[1], s[2], rng, handle, no_epilogue);
  ok &= check_shapes<plans::Bf16NTSimt>(rng, handle, false);
  ok &= check_shapes<plans::Bf16NN>(rng, handle, true);
  ok &= check_shapes<plans::Bf16TT>(rng, handle, true);
  ok &= check_shapes<plans::Bf16NT>(rng, handle, true);
  ok &= check_shapes<plans::F16TN>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TNf32>(rng, handle, false);
  ok &= check_shapes<plans::Bf16TNf32ColMajor>(rng, handle, false);
  ok &= check_epilogue<plans::Bf16TNRelu>([](double x) { return x > 0 ? x : 0.0; }, "a*P+b*S+bias, relu", rng, handle);
  ok &= check_epilogue<plans::Bf16TNGelu>(gelu, "a*P+b*S+bias, gelu", rng, handle);
  ok &= check_epilogue<plans::Bf16TNSilu>([](double x) { return x / (1 + std::exp(-x)); }, "a*P+b*S+bias, silu", rng,
                                          handle);
  ok &= check_epilogue<plans::Bf16TNRelu>([](double x) { return x > 0 ? x : 0.0; }, "a*P+b*S+bias, relu", rng, handle,
                                          split(3));
  ok &= check_epilogue<plans::Bf16TNGelu>(gelu, "a*P+b*S+bias, gelu", rng, handle, stream_k, 2048 + 77, 4096 - 40);
  ok &= check_gated<plans::Bf16TNSwiGLU>(1, 16, 8, rng);
  ok &= check_gated<plans::Bf16TNSwiGLU>(333, 528, 264, rng);
  ok &= check_gated<plans::Bf16TNSwiGLU>(333, 528, 264, rng, split(3));
  ok &= check_gated<plans::Bf16TNSwiGLU>(1100, 4096, 128, rng, stream_k);
  ok &= check_split_k(rng, handle);
  ok &= check_stream_k(rng, handle);
  ok &= check_family<plans::bf16, plans::K, plans::K>(rng);
  ok &= check_family<plans::bf16, plans::MN, plans::K>(rng);
  ok &= check_family<plans::bf16, plans::K, plans::MN>(rng);
  ok &= check_family<plans::bf16, plans::MN, plans::MN>(rng);
  ok &= check_family<plans::f16, plans::K, plans::K>(rng);
  ok &= check_family<plans::f16, plans::MN, plans::K>(rng);
  ok &= check_family<plans::f16, plans::K, plans::MN>(rng);
  ok &= check_family<plans::f16, plans::MN, plans::MN>(rng);
  ok &= check_rejections();
  return ok;
}

/// --small, for compute-sanitizer (memcheck, racecheck, synccheck, initcheck): small ragged shapes
/// against the fp64 product only (no cuBLAS): the dispatcher's swapped 64- and 16-row tiles and
/// its 128 x 64 tile (a cluster rank past M), the 128 x 256 tile with MN-major A and B, PingPong,
/// fp32 into a column-major C, the fused epilogue split in K, a swapped skinny plan by stream-K
/// (189 tiles of 128 x 16 and 3 K blocks on 132 SMs: ranges of about 4 K blocks, each crossing
/// tiles), the gated epilogue; and the argument rejections.
bool run_small_checks(std::mt19937_64& rng) {
  cublasLtHandle_t const fp64_only = nullptr;
  bool ok = true;
  ok &= check<plans::Bf16TN>(37, 72, 64, rng, fp64_only, no_epilogue);
  ok &= check<plans::Bf16TN>(1, 56, 64, rng, fp64_only, no_epilogue);
  ok &= check<plans::Bf16TN>(130, 200, 136, rng, fp64_only, no_epilogue);
  ok &= check<plans::Bf16NT>(130, 200, 136, rng, fp64_only, no_epilogue);
  ok &= check<plans::Bf16TNPingPong>(130, 200, 136, rng, fp64_only, no_epilogue, {}, "pingpong");
  ok &= check<plans::Bf16TNf32ColMajor>(130, 200, 136, rng, fp64_only, no_epilogue);
  ok &= check_epilogue<plans::Bf16TNRelu>([](double x) { return x > 0 ? x : 0.0; }, "a*P+b*S+bias, relu", rng,
                                          fp64_only, split(3), 130, 200);
  ok &= check<plans::Bf16TNSwap16>(300, 1000, 136, rng, fp64_only, no_epilogue, {}, "", stream_k);
  ok &= check<plans::Bf16TNSimt>(37, 130, 72, rng, fp64_only, no_epilogue);
  ok &= check<plans::Bf16TNSimt>(3, 130, 1003, rng, fp64_only, no_epilogue);
  ok &= check_gated<plans::Bf16TNSwiGLU>(130, 208, 136, rng);
  ok &= check_rejections();
  return ok;
}

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

/// Median microseconds of `call`, each of `reps` calls cold (bench_cold_start before it), after
/// one unclocked call; the rounds are queued together and read after one synchronisation.
template <class Call>
double cold_us(Call&& call, int reps = 7) {
  call();
  std::vector<cudaEvent_t> events(std::size_t(2 * reps));
  for (auto& e : events) host::cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  for (int i = 0; i < reps; ++i) {
    kn::bench_cold_start(nullptr);
    host::cuda_check(cudaEventRecord(events[std::size_t(2 * i)], nullptr), "cudaEventRecord");
    call();
    host::cuda_check(cudaEventRecord(events[std::size_t(2 * i + 1)], nullptr), "cudaEventRecord");
  }
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    float ms = 0;
    host::cuda_check(cudaEventElapsedTime(&ms, events[std::size_t(2 * i)], events[std::size_t(2 * i + 1)]),
                     "cudaEventElapsedTime");
    us.push_back(double(ms) * 1e3);
  }
  for (auto& e : events) host::cuda_check(cudaEventDestroy(e), "cudaEventDestroy");
  std::nth_element(us.begin(), us.begin() + reps / 2, us.end());
  return us[std::size_t(reps / 2)];
}

/// --candidate-sweep (issue 20: what the tile heuristic is fitted to): on every shape of
/// sweep_shapes(), cuBLASLt's cold time and every tile's (GemmTile) under each cut: whole tiles,
/// the heuristic's, stream-K, and, where the tile's units fit one wave, split-K by 2 to 64. One line
/// per figure, "candidate M N K TILE CUT US", "cublas M N K US" and "chosen M N K TILE" (the
/// heuristic's tile), and "floor US": an empty kernel's.
void candidate_sweep(std::mt19937_64& rng, cublasLtHandle_t handle) {
  std::printf("floor %.3f\n", cold_us([] { kn::bench::hold<<<1, 1>>>(0); }));
  int const sms = host::multiprocessor_count();
  for (auto const& [m, n, k] : sweep_shapes()) {
    Problem<plans::Bf16TN> p(m, n, k, rng, false);
    host::DeviceBuffer<plans::bf16> cref(std::size_t(p.ldc) * std::size_t(m));
    kn::LtGemm reference = p.cublas_plan(handle, CUDA_R_16BF, p.ldc);
    std::printf("cublas %lld %lld %lld %.3f\n", (long long)m, (long long)n, (long long)k,
                cold_us([&] { reference.run(p.db.data(), p.da.data(), cref.data()); }));
    std::printf("chosen %lld %lld %lld %s\n", (long long)m, (long long)n, (long long)k,
                std::string(kn::gemm_tile_name(kn::choose_gemm_tile(m, n, k, sms))).c_str());
    for (auto const& [tile, name] : kn::gemm_tile_names) {
      std::vector<Cut> cuts = {whole, heuristic, stream_k};
      for (int s : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64})
        if (s <= k / 64) cuts.push_back(split(s));
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

/// --profile: for ncu / nsys, two launches of ours (the heuristic's plan) and of cuBLAS on each
/// of the benchmark's shapes, and nothing else.
void profile_launches(std::mt19937_64& rng, cublasLtHandle_t handle) {
  for (auto const& s : benchmark_shapes) {
    Problem<plans::Bf16TN> p(s[0], s[1], s[2], rng);
    p.reserve_workspace(kn::gemm_bf16_tn_workspace_bytes(p.arguments()));
    host::DeviceBuffer<plans::bf16> c(std::size_t(p.ldc) * std::size_t(p.m));
    kn::LtGemm reference = p.cublas_plan(handle, CUDA_R_16BF, p.ldc);
    for (int i = 0; i < 2; ++i) {
      kn::run_gemm_bf16_tn(p.arguments(), nullptr);
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

}  // namespace

int main(int argc, char** argv) {
  // --kernels: the dynamic shared memory of every plan's kernel, for scripts/build-report.
  if (kn::print_plan_kernels(argc, argv, plans::Instantiated{})) return 0;
  cublasLtHandle_t handle{};
  auto cublas = [&] {
    if (handle == nullptr) kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
    return handle;
  };
  int const status = kn::run_example(
      "gemm_sm90", argc, argv,
      [&](std::mt19937_64& rng, kn::ExampleOptions const& options) {
        if (options.has("--small")) return run_small_checks(rng);
        // Each of the example's other flags runs a sweep or the profile instead of the checks.
        return !options.flags.empty() || run_checks(rng, cublas());
      },
      [&](std::mt19937_64& rng, kn::ExampleOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--small")) return;  // checks only, as with --no-bench
        if (options.has("--profile")) profile_launches(rng, cublas());
        else if (options.has("--raster-sweep")) raster_sweep(rng, cublas(), records);
        else if (options.has("--split-sweep")) split_sweep(rng, cublas(), records);
        else if (options.has("--k-sweep")) k_sweep(rng, cublas(), records);
        else if (options.has("--decomposition-sweep")) decomposition_sweep(rng, cublas(), records);
        else if (options.has("--decode-sweep")) decode_sweep(rng, cublas(), records);
        else if (options.has("--shape-sweep")) shape_sweep(rng, cublas(), records);
        else if (options.has("--candidate-sweep")) candidate_sweep(rng, cublas());
        else if (options.has("--host-profile")) host_profile(rng);
        else benchmarks(rng, cublas(), records);
      },
      {"--small", "--profile", "--raster-sweep", "--split-sweep", "--k-sweep", "--decomposition-sweep",
       "--decode-sweep", "--shape-sweep", "--candidate-sweep", "--host-profile"});
  if (handle != nullptr) cublasLtDestroy(handle);
  return status;
}
