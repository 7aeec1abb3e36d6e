// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The SIMT GEMM's kernel for a skinny problem: M or N of at most 8 beside a K-major other operand
// (a matrix-vector product, or a few of them: one decode token through a linear layer, 23 x 1 x
// 11488); the short operand may be either major-ness. The tensor-core kernel pads the short side
// to a 16- or 128-row tile and walks K in one CTA per output tile; here a warp streams one row of
// the long operand along K in 16-byte loads and multiplies it with every row of the short one
// (L1-resident, read by every warp), and up to eight warps of a CTA share one row's K, meeting in
// shared memory: a long-K, few-row product spreads over the GPU without split-K's workspace.
#include <cute_cpp/kernels/gemm/gemm.hpp>

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/host/launch.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace cute_cpp::kernels {

namespace gemv {
inline constexpr int threads = 256, warps = threads / 32;
/// Elements of a 16-byte load of 16-bit operands.
inline constexpr int vector = 8;
/// Warps a GPU of `sms` SMs needs to keep its DRAM busy: 4 CTAs of 8 warps on each.
inline std::int64_t warps_to_fill(int sms) { return std::int64_t(sms) * 4 * warps; }

/// One skinny product: `rows` long rows of K each times `short_rows` short ones, as pointers and
/// strides (so either of A and B may be the short one, and C either layout).
template <class T, class TC>
struct Problem {
  T const* long_op = nullptr;
  T const* short_op = nullptr;
  TC* c = nullptr;
  std::int64_t ld_long = 0, ld_short = 0;
  std::int64_t rows = 0, k = 0;
  int short_rows = 0;
  std::int64_t c_long_stride = 0, c_short_stride = 0;  // C's element (long row l, short row s): l * c_long_stride + s * c_short_stride
  int warps_per_row = 1;                               // 1, 2, 4 or 8: the warps sharing a long row's K
  bool long_independent = false;  // the long operand is no earlier kernel's output (a layer's weights): see the kernel
};

/// acc += x . y over the 8 bf16 pairs of two 16-byte vectors, in element order.
__device__ __forceinline__ void fma_vector(uint4 const& x, uint4 const& y, float& acc) {
  auto const* xs = reinterpret_cast<__nv_bfloat162 const*>(&x);
  auto const* ys = reinterpret_cast<__nv_bfloat162 const*>(&y);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 const p = __bfloat1622float2(xs[i]), q = __bfloat1622float2(ys[i]);
    acc = fmaf(p.x, q.x, acc);
    acc = fmaf(p.y, q.y, acc);
  }
}

/// The 8 elements of a 16-byte load, as floats.
template <class T>
__device__ __forceinline__ void widen(uint4 const& raw, float (&to)[vector]) {
  auto const* pairs = reinterpret_cast<unsigned const*>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float2 f;
    if constexpr (std::is_same_v<T, __nv_bfloat16>) f = __bfloat1622float2(*reinterpret_cast<__nv_bfloat162 const*>(pairs + i));
    else f = __half22float2(*reinterpret_cast<__half2 const*>(pairs + i));
    to[2 * i] = f.x;
    to[2 * i + 1] = f.y;
  }
}

/// Long-operand vectors a thread loads per round: every load of a round (these and the short
/// operand's vectors at the same K) is issued before the first is used, so a round costs one
/// memory round trip, 8 or 9 loads in flight per thread. NOTE: 8 long vectors beside one short
/// row took 90 registers (2 CTAs an SM) and ran slower than 4 wherever many rows had little K
/// each (candidate sweeps of 2026-12-03: 25217 x 1 x 344 in 23.0 us at b52f891; 13.2 us in this
/// kernel's first form, 4 long vectors at 48 registers).
template <int Short>
inline constexpr int round_vectors = Short >= 8 ? 1 : Short >= 4 ? 2 : 4;

/// A thread's long-operand vectors of one round: v0, v0 + stride, ... (those before `vectors`).
template <class T, int Round>
__device__ __forceinline__ void load_long_round(T const* row, std::int64_t v0, std::int64_t stride,
                                                std::int64_t vectors, uint4 (&x)[Round]) {
#pragma unroll
  for (int u = 0; u < Round; ++u)
    if (v0 + u * stride < vectors) x[u] = __ldg(reinterpret_cast<uint4 const*>(row) + v0 + u * stride);
}

/// acc[s] += long_row . short row s over this thread's share of K: vectors first, first + stride,
/// ... in rounds of round_vectors<Short>, and K's last k % 8 elements (one a lane of a row's first
/// warp, slice 0). `x` holds the first round already where `preloaded`.
/// Short: the short operand's rows rounded up to 1, 2, 4 or 8 (the accumulators a thread holds).
/// ShortK: the short operand is K-major (its row's 8 elements one 16-byte load); else element
/// (s, k) sits at k * ld_short + s and is loaded alone (skinny_scattered_loads bounds where).
/// ShortShared: a K-major short operand in this CTA's shared memory (simt_gemv_norm.cuh's normed rows).
template <int Short, bool ShortK, bool ShortShared = false, class T, class TC>
__device__ __forceinline__ void accumulate_row(Problem<T, TC> const& p, T const* long_row, std::int64_t first,
                                               int slice, bool preloaded, uint4 (&x)[round_vectors<Short>],
                                               float (&acc)[Short]) {
  constexpr int round = round_vectors<Short>;
  int const lane = int(threadIdx.x) % 32;
  std::int64_t const vectors = p.k / vector;
  std::int64_t const stride = std::int64_t(p.warps_per_row) * 32;  // vectors between a thread's loads
  for (std::int64_t v0 = first; v0 < vectors; v0 += round * stride) {
    if (!preloaded || v0 != first) load_long_round(long_row, v0, stride, vectors, x);
    // The short rows' elements at the same K: 16-byte loads (K-major) or elements (MN-major).
    std::conditional_t<ShortK, uint4[round][Short], T[round][Short][vector]> y;
#pragma unroll
    for (int u = 0; u < round; ++u) {
      std::int64_t const v = v0 + u * stride;
      if (v >= vectors) continue;
#pragma unroll
      for (int s = 0; s < Short; ++s) {
        if (s >= p.short_rows) continue;
        if constexpr (ShortShared) {
          y[u][s] = reinterpret_cast<uint4 const*>(p.short_op + s * p.ld_short)[v];
        } else if constexpr (ShortK) {
          y[u][s] = __ldg(reinterpret_cast<uint4 const*>(p.short_op + s * p.ld_short) + v);
        } else {
#pragma unroll
          for (int e = 0; e < vector; ++e) y[u][s][e] = p.short_op[(v * vector + e) * p.ld_short + s];
        }
      }
    }
#pragma unroll
    for (int u = 0; u < round; ++u) {
      if (v0 + u * stride >= vectors) continue;
      float a[vector];
      widen<T>(x[u], a);
#pragma unroll
      for (int s = 0; s < Short; ++s) {
        if (s >= p.short_rows) continue;
        float b[vector];
        if constexpr (ShortK) {
          widen<T>(y[u][s], b);
        } else {
#pragma unroll
          for (int e = 0; e < vector; ++e) b[e] = float(y[u][s][e]);
        }
#pragma unroll
        for (int e = 0; e < vector; ++e) acc[s] = fmaf(a[e], b[e], acc[s]);
      }
    }
  }
  std::int64_t const tail = vectors * vector + lane;
  if (slice == 0 && tail < p.k) {
    float const x = float(long_row[tail]);
#pragma unroll
    for (int s = 0; s < Short; ++s)
      if (s < p.short_rows)
        acc[s] = fmaf(x, float(p.short_op[ShortK ? s * p.ld_short + tail : tail * p.ld_short + s]), acc[s]);
  }
}

/// A warp's sums, lane by lane, into partial[warp][s].
template <int Short>
__device__ __forceinline__ void warp_sums(float (&acc)[Short], float (&partial)[warps][Short]) {
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
#pragma unroll
  for (int s = 0; s < Short; ++s) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) acc[s] += __shfl_xor_sync(0xffffffffu, acc[s], offset);
    if (lane == 0) partial[warp][s] = acc[s];
  }
}

/// Row r of the CTA's short row s: its warps' sums in K order.
template <int Short>
__device__ __forceinline__ float row_sum(float const (&partial)[warps][Short], int r, int s, int warps_per_row) {
  float sum = 0.0f;
  for (int w = 0; w < warps_per_row; ++w) sum += partial[r * warps_per_row + w][s];
  return sum;
}

/// Where a warp works: its CTA holds rows_per_cta = 8 / warps_per_row long rows, this warp takes
/// slice `slice` of row `row`'s K, starting at vector `first` (its lane's).
struct WarpPlace {
  int rows_per_cta, slice;
  std::int64_t row, first;
  __device__ explicit WarpPlace(int warps_per_row) : WarpPlace(warps_per_row, blockIdx.x) {}
  /// The place in block `block` of the rows (a CTA that takes several blocks in turn).
  __device__ WarpPlace(int warps_per_row, std::int64_t block) {
    int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    rows_per_cta = warps / warps_per_row;
    row = block * rows_per_cta + warp / warps_per_row;
    slice = warp % warps_per_row;
    first = std::int64_t(slice) * 32 + lane;
  }
};

/// The CTA's row and short row whose output thread t stores, or a row past p.rows where it stores none.
template <class T, class TC>
__device__ __forceinline__ int2 output_of(Problem<T, TC> const& p, int rows_per_cta) {
  int const t = int(threadIdx.x);
  if (t >= rows_per_cta * p.short_rows) return {rows_per_cta, 0};
  return {t / p.short_rows, t % p.short_rows};
}
}  // namespace gemv

/// The skinny product: long row `row` of the CTA's rows_per_cta = 8 / warps_per_row, its K shared by
/// warps_per_row warps, against every short row (gemv::accumulate_row says how).
template <class T, class TC, int Short, bool ShortK>
__global__ void __launch_bounds__(gemv::threads) simt_gemv_kernel(gemv::Problem<T, TC> const p) {
  using namespace gemv;
  // Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now; the
  // operands may be the previous grid's output, so nothing is read before its memory is, except a
  // long operand no earlier kernel writes (GemmArguments::independent: a decode step's weights),
  // whose first round is loaded before the wait, so that it streams while the previous grid ends.
  arch::griddepcontrol_launch_dependents();
  WarpPlace const at(p.warps_per_row);
  T const* const long_row = p.long_op + at.row * p.ld_long;
  bool const early = p.long_independent && at.row < p.rows;
  uint4 x[round_vectors<Short>];
  if (early) load_long_round(long_row, at.first, std::int64_t(p.warps_per_row) * 32, p.k / vector, x);
  arch::griddepcontrol_wait();
  float acc[Short] = {};
  if (at.row < p.rows) accumulate_row<Short, ShortK>(p, long_row, at.first, at.slice, early, x, acc);
  __shared__ float partial[warps][Short];
  warp_sums(acc, partial);
  __syncthreads();
  int2 const o = output_of(p, at.rows_per_cta);
  std::int64_t const out = std::int64_t(blockIdx.x) * at.rows_per_cta + o.x;
  if (o.x >= at.rows_per_cta || out >= p.rows) return;
  p.c[out * p.c_long_stride + o.y * p.c_short_stride] = TC(row_sum(partial, o.x, o.y, p.warps_per_row));
}

/// The skinny product with a gated epilogue (epilogue::Gated: act(gate) * up): p.rows are its
/// outputs, output j the pair of long rows epilogue::gated_gate_row(j) and gated_up_row(j) of the
/// interleaved weight, both streamed by the same warps; C gets gate(gate sum, up sum) from the fp32
/// sums. The gate row's first round loads before the wait where the weight is independent.
template <class T, class TC, int Short, bool ShortK, class Gate>
__global__ void __launch_bounds__(gemv::threads) simt_gemv_gated_kernel(gemv::Problem<T, TC> const p, Gate const gate) {
  using namespace gemv;
  arch::griddepcontrol_launch_dependents();
  WarpPlace const at(p.warps_per_row);
  T const* const gate_row = p.long_op + epilogue::gated_gate_row(at.row) * p.ld_long;
  T const* const up_row = p.long_op + epilogue::gated_up_row(at.row) * p.ld_long;
  bool const early = p.long_independent && at.row < p.rows;
  uint4 x[round_vectors<Short>];
  if (early) load_long_round(gate_row, at.first, std::int64_t(p.warps_per_row) * 32, p.k / vector, x);
  arch::griddepcontrol_wait();
  float gates[Short] = {}, ups[Short] = {};
  if (at.row < p.rows) {
    accumulate_row<Short, ShortK>(p, gate_row, at.first, at.slice, early, x, gates);
    accumulate_row<Short, ShortK>(p, up_row, at.first, at.slice, false, x, ups);
  }
  __shared__ float gate_partial[warps][Short], up_partial[warps][Short];
  warp_sums(gates, gate_partial);
  warp_sums(ups, up_partial);
  __syncthreads();
  int2 const o = output_of(p, at.rows_per_cta);
  std::int64_t const out = std::int64_t(blockIdx.x) * at.rows_per_cta + o.x;
  if (o.x >= at.rows_per_cta || out >= p.rows) return;
  p.c[out * p.c_long_stride + o.y * p.c_short_stride] =
      TC(gate(row_sum(gate_partial, o.x, o.y, p.warps_per_row), row_sum(up_partial, o.x, o.y, p.warps_per_row)));
}

/// The skinny problem of checked arguments whose short operand skinny_short_operand named (`side`,
/// not none), over `rows` long rows (its outputs: the long operand's rows, or a gated epilogue's
/// half of them). A long row's K is shared by as many warps (up to 8) as fill the GPU, while each
/// keeps at least a warp-wide load's worth of K.
template <class Plan>
gemv::Problem<typename Plan::TA, typename Plan::TC> gemv_problem(GemmArguments<Plan> const& args, SkinnyShort side,
                                                                 std::int64_t rows) {
  bool const a_short = side == SkinnyShort::a;
  bool const c_row = Plan::layout_c == LayoutEnum::RowMajor;
  gemv::Problem<typename Plan::TA, typename Plan::TC> p;
  p.long_op = a_short ? args.b : args.a;
  p.short_op = a_short ? args.a : args.b;
  p.ld_long = a_short ? args.ldb : args.lda;
  p.ld_short = a_short ? args.lda : args.ldb;
  p.rows = rows;
  p.short_rows = int(a_short ? args.m : args.n);
  p.k = args.k;
  p.c = args.c;
  p.long_independent = args.independent == (a_short ? IndependentOperand::B : IndependentOperand::A);
  // C (m, n) sits at m * ldc + n (row-major) or n * ldc + m; the long rows are n when A is short.
  std::int64_t const m_stride = c_row ? args.ldc : 1, n_stride = c_row ? 1 : args.ldc;
  p.c_long_stride = a_short ? n_stride : m_stride;
  p.c_short_stride = a_short ? m_stride : n_stride;
  static std::int64_t const warps_to_fill = gemv::warps_to_fill(host::multiprocessor_count());
  std::int64_t const k_loads = std::max<std::int64_t>(1, args.k / (32 * gemv::vector));
  while (p.warps_per_row < gemv::warps && p.rows * p.warps_per_row < warps_to_fill &&
         2 * p.warps_per_row <= k_loads)
    p.warps_per_row *= 2;
  return p;
}

/// A CTA for every 8 / warps_per_row long rows of p.
template <class T, class TC>
host::LaunchConfig gemv_launch_config(gemv::Problem<T, TC> const& p, cudaStream_t stream) {
  int const rows_per_cta = gemv::warps / p.warps_per_row;
  std::int64_t const ctas = (p.rows + rows_per_cta - 1) / rows_per_cta;
  if (ctas > std::int64_t(0x7fffffff))
    host::argument_error("gemm.shape", "the skinny SIMT GEMM's grid takes at most 2^31 - 1 CTAs (got " +
                                           std::to_string(ctas) + ")");
  host::LaunchConfig config;
  config.grid = dim3(unsigned(ctas));
  config.block = dim3(gemv::threads);
  config.stream = stream;
  return config;
}

/// f.template operator()<Short>() for the short rows' count rounded up to 1, 2, 4 or 8.
template <class F>
void with_short_rows(int short_rows, F&& f) {
  if (short_rows == 1) f.template operator()<1>();
  else if (short_rows == 2) f.template operator()<2>();
  else if (short_rows <= 4) f.template operator()<4>();
  else f.template operator()<8>();
}

/// Launches the skinny kernel for checked arguments whose short operand skinny_short_operand
/// named (`side`, not none).
template <class Plan>
void run_simt_gemv(GemmArguments<Plan> const& args, SkinnyShort side, cudaStream_t stream) {
  using T = typename Plan::TA;
  using TC = typename Plan::TC;
  bool const a_short = side == SkinnyShort::a;
  auto const p = gemv_problem<Plan>(args, side, a_short ? args.n : args.m);
  host::LaunchConfig const config = gemv_launch_config(p, stream);
  auto const launch = [&]<bool ShortK>(std::bool_constant<ShortK>) {
    with_short_rows(p.short_rows, [&]<int Short>() {
      host::launch(&simt_gemv_kernel<T, TC, Short, ShortK>, "gemm_simt_gemv", config, p);
    });
  };
  constexpr bool a_k = Plan::major_a == OperandMajorMode::K, b_k = Plan::major_b == OperandMajorMode::K;
  // Instantiated for the layouts this plan has: the long operand K-major, the short one either.
  if (a_short) {
    if constexpr (b_k) return launch(std::bool_constant<a_k>{});
  } else {
    if constexpr (a_k) return launch(std::bool_constant<b_k>{});
  }
  throw std::logic_error("cute-cpp: run_simt_gemv: the short operand's partner is not K-major (skinny_short_operand refuses it)");
}

/// A gated plan's checked problem of few rows (gated_gemv_takes) in the gated skinny kernel: act(gate)
/// * up of C's n / 2 columns from the interleaved weight's row pairs, straight from the fp32 sums.
template <class Plan>
void run_simt_gemv_gated(GemmArguments<Plan> const& args, cudaStream_t stream) {
  using T = typename Plan::TA;
  using TC = typename Plan::TC;
  host::PointerArgument const pointers[] = {{"A", args.a}, {"B", args.b}, {"C", args.c}};
  host::check_device_pointers("gemm", pointers, stream);
  host::check_stream("gemm", stream);
  check_plan_shape<Plan>(args.n, args.k);
  auto const p = gemv_problem<Plan>(args, SkinnyShort::a, args.n / 2);
  host::LaunchConfig const config = gemv_launch_config(p, stream);
  constexpr bool a_k = Plan::major_a == OperandMajorMode::K;
  with_short_rows(p.short_rows, [&]<int Short>() {
    host::launch(&simt_gemv_gated_kernel<T, TC, Short, a_k, typename Plan::EpilogueOp>, "gemm_simt_gemv_gated",
                 config, p, args.epilogue_op);
  });
}

}  // namespace cute_cpp::kernels
