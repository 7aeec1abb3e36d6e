// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The skinny kernels (simt_gemv.cuh) with the RMSNorm that precedes a pre-norm decoder's linear
// layers folded in front: C = rmsnorm(x + residual) W^T, or its gated form act(gate) * up, for a
// decode step's at most 8 rows, in one launch where a step ran the add + RMSNorm kernel and then the
// GEMV. Each CTA normalises the rows into its shared memory (the rows are a few KB; every CTA reads
// them from L2 and does the same sums, in the same order, so every CTA holds the same bits) and
// streams its weight rows against them; the first CTA also writes x + residual, the residual stream's
// next value. The weights' first round loads before the wait for the grid before, as the skinny
// kernels' does. Numerics as kernels/rows/rmsnorm.cuh's: x + residual rounded to T, the mean of its
// squares in f32, rstd = rsqrt(mean + eps), T(x' w rstd) as the product's A.
#include <cute_cpp/kernels/gemm/plans.hpp>  // plans::Bf16TN, plans::Bf16TNSwiGLU
#include <cute_cpp/kernels/gemm/simt_gemv.cuh>

#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

namespace cute_cpp::kernels {

/// A normed skinny GEMM's A: rows of x, plus residual where given, normalised by RMSNorm with gain
/// `weight` (K); x + residual (as T) goes to residual_out where given. All (M, K) row-major, K a row.
/// residual_out is a buffer of its own (not in place: one CTA writes it while the others read x and
/// residual; rule gemm.aliasing).
template <class T>
struct RmsNormedRows {
  T const* x = nullptr;
  T const* residual = nullptr;
  T const* weight = nullptr;
  T* residual_out = nullptr;
  float eps = 1e-6f;
};

/// The most shared memory the normed rows may take (M x K x 2 bytes): 8 rows of K = 6144.
inline constexpr std::size_t normed_rows_smem_limit = std::size_t(96) << 10;

namespace gemv {
/// T's 8 values of a 16-byte vector from 8 floats, rounded to nearest.
template <class T>
__device__ __forceinline__ uint4 narrow(float const (&f)[vector]) {
  uint4 raw;
  auto* pairs = reinterpret_cast<unsigned*>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      __nv_bfloat162 const h = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
      pairs[i] = *reinterpret_cast<unsigned const*>(&h);
    } else {
      __half2 const h = __floats2half2_rn(f[2 * i], f[2 * i + 1]);
      pairs[i] = *reinterpret_cast<unsigned const*>(&h);
    }
  }
  return raw;
}

/// The f32 sum of `v` over the `warps` warps that CTA barrier `sync` joins (the first ones), the same
/// in each of their threads; `scratch` holds a float a warp.
template <class Sync>
__device__ __forceinline__ float block_sum(float v, float (&scratch)[warps], Sync const& sync) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  sync();  // the scratch of a row before is read
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  sync();
  float total = 0.0f;
#pragma unroll
  for (int w = 0; w < warps; ++w) total += scratch[w];
  return total;
}

/// The CTA's f32 sum of `v` (every thread's), the same in every thread; `scratch` holds a float a warp.
__device__ __forceinline__ float block_sum(float v, float (&scratch)[warps]) {
  return block_sum(v, scratch, [] { __syncthreads(); });
}

/// Rows [0, rows) of n's normed A into `a` (rows x k of T, shared memory); x + residual also to
/// residual_out where `write_residual`. @pre rows <= Rows. A row takes warps / R warps (R: rows to
/// the next power of two), and all its loads of a round are in flight at once (a lane's R vectors of
/// x and of the residual), so a CTA's rows load together where a CTA-wide loop over the rows loaded
/// them one after another, and a lone row keeps all the warps. The sums in the order of one CTA a
/// row (block_sum's, which models/qwen3/fused_step.cuh's norm matches): the partial of CTA thread
/// 32 w + l over its vectors 32 w + l + threads i is kept by lane l of the warp that takes "virtual
/// warp" w, summed over the warp, and the row's warps' sums added in w's order. A thread's vectors
/// are its own in both passes.
template <int Rows, class T>
__device__ __forceinline__ void normed_rows(RmsNormedRows<T> const& n, int rows, std::int64_t k, T* a,
                                            bool write_residual) {
  static_assert(Rows == 1 || Rows == 2 || Rows == 4 || Rows == 8, "cute-cpp: gemv.norm-rows: Rows is 1, 2, 4 or 8");
  __shared__ float partial[Rows][warps];
  int const per = rows <= 1 ? 1 : rows <= 2 ? 2 : rows <= 4 ? 4 : 8;  // a warp's virtual warps: R
  int const group = warps / per;                                       // warps a row
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  int const s = warp / group, first = warp % group * per;  // the row, and the first of its virtual warps
  std::int64_t const vectors = k / vector;
  bool const mine = s < rows;
  T const* const x = n.x + std::int64_t(s) * k;
  T const* const r = n.residual == nullptr ? nullptr : n.residual + std::int64_t(s) * k;
  uint4* const row = reinterpret_cast<uint4*>(a + std::int64_t(s) * k);
  float squares[Rows] = {};
  for (std::int64_t v0 = 32 * first + lane; mine && v0 < vectors; v0 += threads) {
    uint4 xs[Rows], rs[Rows];  // the round's vectors of x and the residual in flight together
#pragma unroll
    for (int q = 0; q < Rows; ++q) {
      if (q >= per || v0 + 32 * q >= vectors) break;
      xs[q] = __ldg(reinterpret_cast<uint4 const*>(x) + v0 + 32 * q);
      if (r != nullptr) rs[q] = __ldg(reinterpret_cast<uint4 const*>(r) + v0 + 32 * q);
    }
#pragma unroll
    for (int q = 0; q < Rows; ++q) {
      std::int64_t const v = v0 + 32 * q;
      if (q >= per || v >= vectors) break;
      float f[vector];
      widen<T>(xs[q], f);
      if (r != nullptr) {
        float g[vector];
        widen<T>(rs[q], g);
#pragma unroll
        for (int e = 0; e < vector; ++e) f[e] += g[e];
      }
      uint4 const sum = narrow<T>(f);  // x + residual as T: the stream's value, and the norm's input
      if (write_residual) reinterpret_cast<uint4*>(n.residual_out + std::int64_t(s) * k)[v] = sum;
      row[v] = sum;
      widen<T>(sum, f);
#pragma unroll
      for (int e = 0; e < vector; ++e) squares[q] = fmaf(f[e], f[e], squares[q]);
    }
  }
#pragma unroll
  for (int q = 0; q < Rows; ++q) {  // a virtual warp's sum, as block_sum's shuffles make it
    float v = squares[q];
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (mine && lane == 0 && q < per) partial[s][first + q] = v;
  }
  __syncthreads();
  if (mine) {
    float total = 0.0f;
#pragma unroll
    for (int w = 0; w < warps; ++w) total += partial[s][w];
    float const rstd = rsqrtf(__fdividef(total, float(k)) + n.eps);
    for (std::int64_t v0 = 32 * first + lane; v0 < vectors; v0 += threads) {
      uint4 gain[Rows];  // the round's gain vectors in flight together
#pragma unroll
      for (int q = 0; q < Rows; ++q)
        if (q < per && v0 + 32 * q < vectors) gain[q] = __ldg(reinterpret_cast<uint4 const*>(n.weight) + v0 + 32 * q);
#pragma unroll
      for (int q = 0; q < Rows; ++q) {
        std::int64_t const v = v0 + 32 * q;
        if (q >= per || v >= vectors) break;
        float f[vector], w[vector];
        widen<T>(row[v], f);
        widen<T>(gain[q], w);
#pragma unroll
        for (int e = 0; e < vector; ++e) f[e] = f[e] * w[e] * rstd;
        row[v] = narrow<T>(f);
      }
    }
  }
  __syncthreads();
}
}  // namespace gemv

/// C = epilogue(rmsnorm(x + residual) W^T): the skinny product of simt_gemv_kernel (Epilogue
/// epilogue::Identity: one long row an output) or of simt_gemv_gated_kernel (epilogue::Gated: the
/// gate and up rows of an output), against the CTA's normed rows in shared memory. The grid holds
/// the CTAs that fit the GPU at once and each takes blocks blockIdx.x, + gridDim.x, ... of the
/// `blocks` (8 / warps_per_row rows each) in turn, so that the rows are normed once a CTA, not once
/// a block. The first block's first round of weights loads before the wait for the grid before.
/// NOTE: left to itself ptxas held these at 80 registers and spilled up to 24 bytes (8 short rows,
/// gated); the bounds give one short row 80 (3 CTAs an SM) and more rows 128, spill-free.
template <class T, class TC, int Short, class Epilogue>
__global__ void __launch_bounds__(gemv::threads, Short == 1 ? 3 : 2) simt_gemv_normed_kernel(gemv::Problem<T, TC> p,
                                                                         RmsNormedRows<T> const norm,
                                                                         Epilogue const op, std::int64_t blocks) {
  using namespace gemv;
  constexpr bool gated = epilogue::is_gated_v<Epilogue>;
  arch::griddepcontrol_launch_dependents();
  auto const gate_row = [&](WarpPlace const& at) {
    return p.long_op + (gated ? epilogue::gated_gate_row(at.row) : at.row) * p.ld_long;
  };
  WarpPlace const start(p.warps_per_row, blockIdx.x);
  bool const early = p.long_independent && start.row < p.rows;
  uint4 x[round_vectors<Short>];
  if (early) load_long_round(gate_row(start), start.first, std::int64_t(p.warps_per_row) * 32, p.k / vector, x);
  arch::griddepcontrol_wait();  // x and the residual are the grid before's
  extern __shared__ uint4 normed_smem[];
  T* const a = reinterpret_cast<T*>(normed_smem);
  normed_rows<Short>(norm, p.short_rows, p.k, a, blockIdx.x == 0 && norm.residual_out != nullptr);
  p.short_op = a, p.ld_short = p.k;
  __shared__ float first_partial[warps][Short], second_partial[warps][Short];
  for (std::int64_t block = blockIdx.x; block < blocks; block += gridDim.x) {
    WarpPlace const at(p.warps_per_row, block);
    bool const preloaded = early && block == blockIdx.x;
    float first[Short] = {}, second[Short] = {};
    if (at.row < p.rows) {
      accumulate_row<Short, true, true>(p, gate_row(at), at.first, at.slice, preloaded, x, first);
      if constexpr (gated)
        accumulate_row<Short, true, true>(p, p.long_op + epilogue::gated_up_row(at.row) * p.ld_long, at.first,
                                          at.slice, false, x, second);
    }
    warp_sums(first, first_partial);
    if constexpr (gated) warp_sums(second, second_partial);
    __syncthreads();
    int2 const o = output_of(p, at.rows_per_cta);
    std::int64_t const out = block * at.rows_per_cta + o.x;
    if (o.x < at.rows_per_cta && out < p.rows) {
      float const sum = row_sum(first_partial, o.x, o.y, p.warps_per_row);
      if constexpr (gated) {
        p.c[out * p.c_long_stride + o.y * p.c_short_stride] =
            TC(op(sum, row_sum(second_partial, o.x, o.y, p.warps_per_row)));
      } else {
        p.c[out * p.c_long_stride + o.y * p.c_short_stride] = TC(sum);
      }
    }
    __syncthreads();  // the partials are read before the next block's sums overwrite them
  }
}

/// The normed kernel's CTAs resident at once: its launch bounds' count an SM (3 for one short row,
/// else 2), fewer where the normed rows (`smem` bytes a CTA) fill an SM's shared memory.
inline std::int64_t normed_gemv_resident_ctas(int short_rows, std::size_t smem) {
  static int const sms = host::multiprocessor_count();
  static std::int64_t const smem_per_sm = host::shared_memory_per_multiprocessor();
  int const bound = short_rows == 1 ? 3 : 2;
  // 2 KB a CTA besides the rows: the kernel's static shared memory and the CTA's reservation.
  int const fit = int(std::size_t(smem_per_sm) / (smem + 2048));
  return std::int64_t(sms) * std::max(1, std::min(bound, fit));
}

/// Whether run_gemm_normed takes Plan's problem: a plain (Identity) or gated epilogue, 16-bit
/// operands, A and B K-major, C row-major and of the operands' type, whole tiles, at most
/// SimtGemmTile::skinny_rows rows, and the normed rows within normed_rows_smem_limit.
template <class Plan, class Arguments>
constexpr bool normed_gemv_takes(Arguments const& args) {
  using Op = typename Plan::EpilogueOp;
  if constexpr ((!std::is_same_v<Op, epilogue::Identity> && !epilogue::is_gated_v<Op>) || Plan::block_scaled ||
                Plan::quantized_output || sizeof(typename Plan::TA) != 2 ||
                !std::is_same_v<typename Plan::TA, typename Plan::TB> ||
                Plan::major_a != OperandMajorMode::K || Plan::major_b != OperandMajorMode::K ||
                Plan::layout_c != LayoutEnum::RowMajor) {
    return false;
  } else {
    return args.m >= 1 && args.m <= SimtGemmTile::skinny_rows && args.k >= 8 && args.k % 8 == 0 &&
           std::size_t(args.m * args.k) * sizeof(typename Plan::TA) <= normed_rows_smem_limit &&
           (args.decomposition == Decomposition::Heuristic || args.decomposition == Decomposition::DataParallel) &&
           args.k_splits == 0;
  }
}

/// C (M, N) = epilogue(rmsnorm(norm.x + norm.residual) W^T) with W = args.b (N, K), K-major, in one
/// launch (see the file comment); args.a is not read (the normed rows are A). Rule gemm.normed: the
/// problem is one normed_gemv_takes accepts, B, C, x and the gain are device pointers, 16-byte
/// aligned with row strides of 8 elements, the residual and its output given or null (and aligned);
/// rule gemm.aliasing: neither C nor the residual's output overlaps an input or the other.
template <class Plan>
void run_gemm_normed(GemmArguments<Plan> const& args, RmsNormedRows<typename Plan::TA> const& norm,
                     cudaStream_t stream) {
  using T = typename Plan::TA;
  using TC = typename Plan::TC;
  if (!normed_gemv_takes<Plan>(args) || args.b == nullptr || args.c == nullptr || norm.x == nullptr ||
      norm.weight == nullptr || args.ldb < args.k || args.ldb % 8 != 0 || args.n < 1 ||
      args.ldc < (Plan::gated ? args.n / 2 : args.n) || (Plan::gated && args.n % 16 != 0))
    host::argument_error("gemm.normed", "a normed skinny GEMM takes at most 8 rows of a K-major 16-bit A whose "
                                        "rows fit " + std::to_string(normed_rows_smem_limit >> 10) +
                                        " KB, a K-major B, whole tiles, and B, C, x and the gain given (got M=" +
                                        std::to_string(args.m) + ", N=" + std::to_string(args.n) + ", K=" +
                                        std::to_string(args.k) + ")");
  auto const aligned = [](void const* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  if (!aligned(args.b) || !aligned(args.c) || !aligned(norm.x) || !aligned(norm.weight) || !aligned(norm.residual) ||
      !aligned(norm.residual_out) || args.ldc % 8 != 0)
    host::argument_error("gemm.normed", "B, C, x, the gain, the residual and its output must be 16-byte aligned "
                                        "with row strides of 8 elements (the kernel moves 16 bytes at a time)");
  host::PointerArgument pointers[6] = {{"B", args.b}, {"C", args.c}, {"x", norm.x}, {"gain", norm.weight}};
  std::size_t given = 4;
  if (norm.residual != nullptr) pointers[given++] = {"residual", norm.residual};
  if (norm.residual_out != nullptr) pointers[given++] = {"residual_out", norm.residual_out};
  host::check_device_pointers("gemm.normed", std::span<host::PointerArgument const>(pointers, given), stream);
  host::check_stream("gemm.normed", stream);
  // Every CTA reads x, the residual and the gain while CTA 0 writes the residual's next value and
  // all write C: neither output may overlap an input (nor each other).
  std::size_t const rows_bytes = std::size_t(args.m * args.k) * sizeof(T);
  std::size_t const c_bytes =
      host::strided_bytes(std::size_t(args.m), std::size_t(args.ldc), std::size_t(Plan::gated ? args.n / 2 : args.n),
                          sizeof(TC));
  host::ByteRange const inputs[] = {{"x", norm.x, rows_bytes},
                                    {"residual", norm.residual, rows_bytes},
                                    {"gain", norm.weight, std::size_t(args.k) * sizeof(T)},
                                    {"B", args.b, host::strided_bytes(std::size_t(args.n), std::size_t(args.ldb),
                                                                      std::size_t(args.k), sizeof(T))}};
  host::ByteRange const residual_out{"residual_out", norm.residual_out, norm.residual_out != nullptr ? rows_bytes : 0};
  host::ByteRange const c{"C", args.c, c_bytes};
  host::ByteRange const residual_outs[] = {residual_out};
  host::check_disjoint("gemm", residual_out, inputs);
  host::check_disjoint("gemm", c, inputs);
  host::check_disjoint("gemm", c, residual_outs);
  auto p = gemv_problem<Plan>(args, SkinnyShort::a, Plan::gated ? args.n / 2 : args.n);
  host::LaunchConfig config = gemv_launch_config(p, stream);
  config.smem_bytes = std::size_t(args.m * args.k) * sizeof(T);
  std::int64_t const blocks = config.grid.x;
  config.grid.x = unsigned(std::min(blocks, normed_gemv_resident_ctas(p.short_rows, config.smem_bytes)));
  with_short_rows(p.short_rows, [&]<int Short>() {
    host::launch(&simt_gemv_normed_kernel<T, TC, Short, typename Plan::EpilogueOp>, "gemm_simt_gemv_normed", config,
                 p, norm, args.epilogue_op, blocks);
  });
}

// The decoders' two plans, instantiated in gemm_simt_sm90.cu (cute_cpp::gemm): a model includes
// this in most of its files, and each compiled the same eight kernels again.
extern template void run_gemm_normed<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&,
                                                    RmsNormedRows<plans::bf16> const&, cudaStream_t);
extern template void run_gemm_normed<plans::Bf16TNSwiGLU>(GemmArguments<plans::Bf16TNSwiGLU> const&,
                                                          RmsNormedRows<plans::bf16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
