// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_gemm --model-sweep (issue 43): run_gemm_auto, as users call it, on every projection of the
// models in bench/gemm/model_shapes.hpp at M from 1 to 16384, against the faster of
// cublasGemmEx (default algorithm, 64 MB workspace) and cuBLASLt's best of its first 8 heuristic
// algorithms (64 MB workspace), timed in the same run, cold (L2 flushed before each call) or warm.
// One record per point: "gemm model-shape sweep" (cold) or "gemm model-shape sweep warm", with
// the point's half ("fit" or "held-out", a hash of M, N, K) for judging the dispatch held out.
#include "bench/gemm/bench_gemm.hpp"
#include "bench/gemm/model_shapes.hpp"
#include "tests/gpu/gemm/gemm_operands.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::gemm_model {
namespace {
namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace plans = kn::plans;
namespace ms = model_shapes;
using gemm_dense::Problem;

/// Rows of a row-major C (ldc elements a row) compared, every column: `rows` of them drawn at
/// random (all when M is at most that). NOTE: a sample, not every row: the largest points' C is
/// 16384 x 151936, gigabytes a copy. Tolerance: both sides accumulate in fp32 and round once, so
/// they differ by an output rounding or two: 2^-6 relative, plus 1e-3 sqrt(K) absolute for the
/// accumulation order. Returns the number of elements outside it (a NaN from the poison counts).
template <class T>
std::size_t mismatches(T const* ours, T const* reference, std::int64_t m, std::int64_t n, std::int64_t k,
                       std::int64_t ldc, std::mt19937_64& rng, std::int64_t rows = 32) {
  std::vector<std::int64_t> picked(std::size_t(std::min(m, rows)));
  if (m <= rows) std::iota(picked.begin(), picked.end(), std::int64_t{0});
  else
    for (auto& r : picked) r = std::int64_t(rng() % std::uint64_t(m));
  std::vector<T> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  std::size_t bad = 0;
  double const atol = 1e-3 * std::sqrt(double(k));
  for (std::int64_t r : picked) {
    host::cuda_check(cudaMemcpy(a.data(), ours + r * ldc, sizeof(T) * std::size_t(n), cudaMemcpyDeviceToHost),
                     "cudaMemcpy");
    host::cuda_check(cudaMemcpy(b.data(), reference + r * ldc, sizeof(T) * std::size_t(n), cudaMemcpyDeviceToHost),
                     "cudaMemcpy");
    for (std::int64_t j = 0; j < n; ++j) {
      double const x = double(float(a[std::size_t(j)])), y = double(float(b[std::size_t(j)]));
      if (!(std::abs(x - y) <= std::ldexp(std::abs(y), -6) + atol)) ++bad;
    }
  }
  return bad;
}

struct Timed {
  double ours_us, reference_us;
  std::string reference;
};

/// One point: checks ours against cublasGemmEx (poisoned outputs first), then times ours,
/// cublasGemmEx and cuBLASLt's ranked algorithms (each screened with it.screen calls, the
/// fastest timed again with it.calls). Throws on a mismatch.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
Timed time_point(ms::Point const& pt, bool warm, std::mt19937_64& rng, cublasLtHandle_t lt, cublasHandle_t blas) {
  using Home = typename plans::TileFamily<T, MA, MB>::n256;
  using P = Problem<Home>;
  static_assert(P::row_major_c, "the model sweep compares row-major C");
  P p(pt.m, pt.n, pt.k, rng, false);
  kn::AutoGemmArguments<T> shape = p.arguments();
  p.reserve_workspace(kn::gemm_auto_workspace_bytes<T, MA, MB>(shape));
  kn::AutoGemmArguments<T> const args = p.arguments();
  host::DeviceBuffer<T> cref(std::size_t(p.ldc) * std::size_t(pt.m));
  bool const a_k = MA == OperandMajorMode::K, b_k = MB == OperandMajorMode::K;
  auto const ours = [&] { kn::run_gemm_auto<T, MA, MB>(args, nullptr); };
  // Row-major C = A B^T is column-major C^T = B' A': cuBLAS's A is our B and its B our A.
  float const one = 1.0f, zero = 0.0f;
  auto const gemm_ex = [&] {
    kn::cublas_check(cublasGemmEx(blas, b_k ? CUBLAS_OP_T : CUBLAS_OP_N, a_k ? CUBLAS_OP_N : CUBLAS_OP_T, int(pt.n),
                                  int(pt.m), int(pt.k), &one, p.db.data(), gemm_dense::cuda_type<T>(), int(p.ldb),
                                  p.da.data(), gemm_dense::cuda_type<T>(), int(p.lda), &zero, cref.data(),
                                  gemm_dense::cuda_type<T>(), int(p.ldc), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx");
  };
  auto const un = std::uint64_t(pt.n), um = std::uint64_t(pt.m), uk = std::uint64_t(pt.k);
  kn::LtGemm lt_gemm(lt, {gemm_dense::cuda_type<T>(), b_k ? uk : un, b_k ? un : uk, p.ldb, b_k},
                     {gemm_dense::cuda_type<T>(), a_k ? uk : um, a_k ? um : uk, p.lda, !a_k},
                     {gemm_dense::cuda_type<T>(), un, um, p.ldc}, {}, ms::iterations(warm).lt_algorithms, 64u << 20);
  auto const lt_run = [&] { lt_gemm.run(p.db.data(), p.da.data(), cref.data()); };

  host::cuda_check(cudaMemset(p.dc.data(), 0xFF, p.dc.bytes()), "cudaMemset");  // NaN in bf16 and fp16
  host::cuda_check(cudaMemset(cref.data(), 0xFF, cref.bytes()), "cudaMemset");
  ours();
  gemm_ex();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  if (std::size_t const bad = mismatches(p.dc.data(), cref.data(), pt.m, pt.n, pt.k, p.ldc, rng); bad > 0)
    throw std::runtime_error("cute-cpp [bench.model-sweep]: " + std::to_string(bad) + " elements of " +
                             std::to_string(pt.m) + "x" + std::to_string(pt.n) + "x" + std::to_string(pt.k) +
                             " differ from cublasGemmEx's");

  ms::Iterations const it = ms::iterations(warm);
  Timed t{kn::median_call_us(ours, it.calls, warm), kn::median_call_us(gemm_ex, it.calls, warm), "cublasGemmEx"};
  int best = 0;
  double best_us = 0;
  for (int i = 0; i < lt_gemm.algorithm_count(); ++i) {
    lt_gemm.use(i);
    double const us = kn::median_call_us(lt_run, it.screen, warm);
    if (i == 0 || us < best_us) best = i, best_us = us;
  }
  lt_gemm.use(best);
  if (double const lt_us = kn::median_call_us(lt_run, it.calls, warm); lt_us < t.reference_us)
    t.reference_us = lt_us, t.reference = "cublasLt algo " + std::to_string(best);
  return t;
}

/// Geomean, minimum, count under 0.95 and the ten worst ratios of `records` (all, or `half` alone).
void summarize(std::vector<kn::Record> const& records, char const* title, std::string const& half = "") {
  std::vector<kn::Record const*> rs;
  for (auto const& r : records)
    if (half.empty() || r.half == half) rs.push_back(&r);
  if (rs.empty()) return;
  std::sort(rs.begin(), rs.end(), [](auto* a, auto* b) { return a->ratio() < b->ratio(); });
  double log_sum = 0.0;
  std::size_t under = 0;
  for (auto* r : rs) log_sum += std::log(r->ratio()), under += r->ratio() < 0.95;
  std::printf("model-shape sweep %s%s: %zu points, geomean %.3f of the faster reference, minimum %.3f, "
              "%zu under 0.95\n",
              title, half.empty() ? "" : (" " + half).c_str(), rs.size(), std::exp(log_sum / double(rs.size())),
              rs[0]->ratio(), under);
  for (std::size_t i = 0; i < std::min<std::size_t>(10, rs.size()); ++i)
    std::printf("  worst %2zu: %-60s %-18s %.3f\n", i + 1, rs[i]->shape.c_str(), rs[i]->reference.c_str(),
                rs[i]->ratio());
}

}  // namespace

namespace {
/// Every point of the part in one dtype and layout; one record each.
template <class T, OperandMajorMode MA, OperandMajorMode MB>
void sweep(ModelSweepOptions const& o, std::vector<ms::Point> const& pts, std::mt19937_64& rng, cublasLtHandle_t lt,
           cublasHandle_t blas, std::vector<kn::Record>& records) {
  std::vector<ms::Projection> const projections = ms::projections();
  int const sms = host::multiprocessor_count();
  for (auto const& pt : pts) {
    Timed const t = time_point<T, MA, MB>(pt, o.warm, rng, lt, blas);
    double const flops = 2.0 * double(pt.m) * double(pt.n) * double(pt.k);
    kn::Record r{o.warm ? "gemm model-shape sweep warm" : "gemm model-shape sweep",
                 std::to_string(pt.m) + " x " + std::to_string(pt.n) + " x " + std::to_string(pt.k) + " " + o.layout +
                     " (" + projections[pt.projection].label() + ")",
                 kn::dtype_name<T>(), flops / (t.ours_us * 1e6), t.reference, flops / (t.reference_us * 1e6),
                 "TFLOP/s", t.ours_us};
    r.half = ms::half_name(pt.m, pt.n, pt.k);
    r.choice = kn::gemm_choice_name(kn::choose_gemm_plan(pt.m, pt.n, pt.k, sms, MA, MB));
    std::printf("%-70s %-5s ours %8.1f us  %-16s %8.1f us  %.3f  %s  %s\n", r.shape.c_str(), r.dtype.c_str(),
                t.ours_us, t.reference.c_str(), t.reference_us, r.ratio(), r.half.c_str(), r.choice.c_str());
    std::fflush(stdout);
    records.push_back(std::move(r));
  }
}
}  // namespace

void model_sweep(ModelSweepOptions const& o, std::mt19937_64& rng, cublasLtHandle_t lt,
                 std::vector<kn::Record>& records) {
  ms::Sweep const timed = o.warm ? ms::Sweep::warm : ms::Sweep::cold;
  ms::Half const half = o.held_out_only ? ms::Half::held_out : ms::Half::all;
  std::size_t const m_points = o.m_points > 0 ? std::size_t(o.m_points)
                                              : ms::m_points_within(o.budget_s, timed, half, o.part, o.parts);
  std::vector<ms::Point> pts = ms::points(m_points, half, o.part, o.parts);
  std::erase_if(pts, [&](ms::Point const& pt) { return pt.m < o.rows_min || pt.m > o.rows_max; });
  std::printf("model-shape sweep: %s %s %s, part %d/%d, %zu of %zu M points a projection, rows %lld-%lld, %zu points, "
              "estimated %.0f s\n",
              o.dtype.c_str(), o.layout.c_str(), o.warm ? "warm" : "cold", o.part + 1, o.parts, m_points,
              ms::m_grid().size(), (long long)o.rows_min, (long long)std::min(o.rows_max, ms::m_grid().back()),
              pts.size(), ms::estimated_seconds(pts, timed));
  cublasHandle_t blas{};
  kn::cublas_check(cublasCreate(&blas), "cublasCreate");
  host::DeviceBuffer<unsigned char> workspace(64u << 20);  // the issue's 64 MB for cublasGemmEx
  kn::cublas_check(cublasSetWorkspace(blas, workspace.data(), workspace.bytes()), "cublasSetWorkspace");
  std::size_t const first = records.size();
  using K = std::integral_constant<OperandMajorMode, plans::K>;
  using MN = std::integral_constant<OperandMajorMode, plans::MN>;
  auto const run = [&]<class T, class A, class B>(std::type_identity<T>, A, B) {
    sweep<T, A::value, B::value>(o, pts, rng, lt, blas, records);
  };
  auto const in_layout = [&](auto type) {
    if (o.layout == "KK") run(type, K{}, K{});
    else if (o.layout == "MNK") run(type, MN{}, K{});
    else if (o.layout == "KMN") run(type, K{}, MN{});
    else if (o.layout == "MNMN") run(type, MN{}, MN{});
    else throw std::invalid_argument("cute-cpp [bench.model-sweep]: --layout is KK, MNK, KMN or MNMN");
  };
  try {
    if (o.dtype == "bf16") in_layout(std::type_identity<plans::bf16>{});
    else if (o.dtype == "fp16") in_layout(std::type_identity<plans::f16>{});
    else throw std::invalid_argument("cute-cpp [bench.model-sweep]: --dtype is bf16 or fp16");
  } catch (...) {
    cublasDestroy(blas);
    throw;
  }
  cublasDestroy(blas);
  std::vector<kn::Record> const mine(records.begin() + std::ptrdiff_t(first), records.end());
  summarize(mine, o.warm ? "warm" : "cold");
  summarize(mine, o.warm ? "warm" : "cold", "held-out");
}

}  // namespace cute_cpp::test::gemm_model
