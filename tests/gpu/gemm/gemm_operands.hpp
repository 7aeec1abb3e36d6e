// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The dense GEMM's operands (kernels/gemm: bf16 / fp16 plans, any layout), shared by its check
// (tests/gpu/gemm/gemm_check.cu) and its benchmark (bench/gemm/bench_gemm_dense.cu): a problem
// on the device (and the host, for a reference), the decomposition to run it with (Cut), and the
// names the check lines and the benchmark's records give a plan's tile.
#include "bench/support/cublaslt_gemm.hpp"
#include "tests/support/fill.hpp"
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_dense {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace plans = kn::plans;
using cute_cpp::OperandMajorMode;

template <class T> constexpr cudaDataType_t cuda_type() {
  if constexpr (std::is_same_v<T, plans::bf16>) return CUDA_R_16BF;
  else if constexpr (std::is_same_v<T, plans::f16>) return CUDA_R_16F;
  else return CUDA_R_32F;
}
inline char const* major_name(OperandMajorMode m) { return m == OperandMajorMode::K ? "K" : "MN"; }

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
inline constexpr Cut whole{}, heuristic{kn::Decomposition::Heuristic}, stream_k{kn::Decomposition::StreamK};
constexpr Cut split(int k_splits) { return {kn::Decomposition::SplitK, k_splits}; }

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

}  // namespace cute_cpp::test::gemm_dense
