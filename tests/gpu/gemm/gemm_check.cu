// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_check: checks the Hopper GEMM (kernels/gemm) against an fp64 CPU product (small, ragged
// shapes) and an fp32 cublasLt product (large shapes) on fresh random data with NaN-poisoned
// outputs, for every operand major-ness, output type, decomposition and fused epilogue built, the
// dispatch's every tile, and the argument rejections.
//   gemm_check [--seed N] [--small]   (--small: ten small cases against fp64 and the argument
//   rejections, for compute-sanitizer)
// Its timings and sweeps: bench/gemm/bench_gemm_dense.cu.
#include "tests/gpu/gemm/gemm_operands.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>  // gemm_layout_name

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_dense {
namespace {

template <class TC> double rtol_of() { return std::is_same_v<TC, float> ? 1e-5 : std::is_same_v<TC, plans::f16> ? 2e-3 : 1.0 / 128; }

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
bool check_gated(std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng, Cut cut = whole,
                 bool weights_independent = false) {
  Problem<Plan> p(m, n, k, rng);
  p.dc.fill_bytes(0xFF);
  auto args = p.arguments();
  args.decomposition = cut.mode;
  args.k_splits = cut.k_splits;
  p.reserve_workspace(kn::gemm_workspace_bytes<Plan>(args));
  args = p.arguments();
  args.decomposition = cut.mode;
  args.k_splits = cut.k_splits;
  // The weights (B) loaded before the grid's wait, as a decode step's (a no-op wait here).
  if (weights_independent) args.independent = kn::IndependentOperand::B;
  bool const skinny = kn::gated_gemv_takes<Plan>(args);
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
              kn::dtype_name<typename Plan::TA>(), kn::dtype_name<typename Plan::TC>(),
              skinny ? "skinny gated GEMV" : tile_name<Plan>().c_str(), "swiglu", (long long)m, (long long)n, (long long)k, cut.name().c_str(), result.summary().c_str(),
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
    // NOTE: a case the library refuses (its argument errors, thrown before any launch) fails alone
    // and the family's other cases still run; a CUDA error ends the program (the context is gone).
    try {
      p.reserve_workspace(bytes(p.arguments()));
      run(p.arguments());
    } catch (std::invalid_argument const& refused) {
      std::printf("check %-4s %s via %-10s m=%-5lld n=%-5lld k=%-5lld FAILED: refused: %s\n", kn::dtype_name<T>(),
                  std::string(kn::gemm_layout_name(MA, MB)).c_str(), what, (long long)m, (long long)n, (long long)k,
                  refused.what());
      ok = false;
      return;
    }
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
  auto const choice = [&](kn::GemmChoice const& c, std::int64_t m, std::int64_t n, std::int64_t k, std::string what) {
    one(m, n, k, what.c_str(),
        [&](kn::AutoGemmArguments<T> const& a) { kn::run_gemm_choice<T, MA, MB>(c, a, nullptr); },
        [&](kn::AutoGemmArguments<T> const& a) { return kn::gemm_choice_workspace_bytes<T, MA, MB>(c, a); });
  };
  for (auto const& [tile, name] : kn::gemm_tile_names) {
    choice(kn::GemmChoice{tile}, 150, 200, 136, std::string(name));
    // The wide swapped tiles and the pairs along N also split in K, on several ragged tiles of C's
    // rows each way; the pairs along N (of either kind) also in stream-K past a wave (the last pair
    // ragged).
    if (kn::wide_swapped(tile) || tile == kn::GemmTile::n256cn2)
      choice(kn::GemmChoice{tile, kn::Decomposition::SplitK, 3}, 545, 1000, 520, std::string(name) + "/3");
    // The 256-column swapped tiles and the 2 x 2 clusters: three tiles each way, so every kind of
    // pair has a ragged one (and a 2 x 2 cluster a CTA with no tile).
    if (kn::swapped_cols(tile) == 256 || kn::swapped_in_quads(tile))
      choice(kn::GemmChoice{tile}, kn::swapped_rows(tile) * 3 - 10, kn::swapped_cols(tile) * 3 - 68, 1000,
             std::string(name) + "/odd");
    if (tile == kn::GemmTile::n256cn2 || tile == kn::GemmTile::swap208c2 || tile == kn::GemmTile::swap160c2cn2)
      choice(kn::GemmChoice{tile, kn::Decomposition::StreamK}, 1100, 4000 - 40, 264, std::string(name) + "/sk");
  }
  // SIMT's skinny shapes: the skinny kernel wherever the long operand is K-major (A or B short,
  // either major-ness, K with and without a tail), the tiled kernel elsewhere.
  for (auto const& s : {std::array<std::int64_t, 3>{6, 333, 1003}, {333, 2, 520}, {300, 5, 201}, {1, 77, 40}})
    choice(kn::GemmChoice{kn::GemmTile::simt}, s[0], s[1], s[2], "simt");
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
  // The gated skinny kernel (at most 8 rows): gate and up rows 8 apart summed by the same warps,
  // K with a tail past its 8-element loads, long K shared by a row's warps, the weights early.
  ok &= check_gated<plans::Bf16TNSwiGLU>(3, 1552, 1000, rng);
  ok &= check_gated<plans::Bf16TNSwiGLU>(8, 4096, 2056, rng, whole, true);
  ok &= check_gated<plans::Bf16TNSwiGLU>(1, 24576, 4096, rng, whole, true);
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
  ok &= check_gated<plans::Bf16TNSwiGLU>(5, 528, 264, rng, whole, true);
  ok &= check_rejections();
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_dense

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  namespace gemm = cute_cpp::test::gemm_dense;
  // --kernels: the dynamic shared memory of every plan's kernel, for scripts/build-report.
  // --kernels: the named plans and every plan of the dispatcher's tile families.
  using Listed = typename kn::plans::JoinedPlanLists<kn::plans::Instantiated, kn::plans::AutoInstantiated>::type;
  if (kn::print_plan_kernels(argc, argv, Listed{})) return 0;
  cublasLtHandle_t handle{};
  int const status = kn::run_check(
      "gemm_check", argc, argv,
      [&](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) return gemm::run_small_checks(rng);
        kn::cublas_check(cublasLtCreate(&handle), "cublasLtCreate");
        return gemm::run_checks(rng, handle);
      },
      {"--small"});
  if (handle != nullptr) cublasLtDestroy(handle);
  return status;
}
