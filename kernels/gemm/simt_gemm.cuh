// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The GEMM for problems too small for the tensor-core kernel's fixed costs: fp32 FMAs on CUDA
// cores, operands loaded straight from global memory. A tiny GEMM (6 x 10 x 8, or K of 8 to 32
// beside a few thousand outputs) is a chain of latencies, not of throughput; the wgmma kernel adds
// to it setmaxnreg, barrier set-up, TMA descriptor fetches, a TMA store and its wait; cuBLAS takes
// a SIMT kernel there too. One CTA computes a 32 x 64 tile of C in K chunks of 32, the next chunk's
// loads issued before the current one is multiplied. Any operand major-ness and C layout; M or N
// of at most 8 beside a K-major other operand goes to the skinny kernel (simt_gemv.cuh,
// skinny_short_operand).
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/simt_gemv.cuh>

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/host/launch.hpp>

namespace cute_cpp::kernels {

namespace simt {
using Tile = SimtGemmTile;
inline constexpr int block_m = Tile::block_m, block_n = Tile::block_n, block_k = Tile::block_k;
inline constexpr int threads = Tile::threads;
/// Outputs a thread holds: rows_per_thread rows of cols_per_thread adjacent columns.
inline constexpr int rows_per_thread = 2, cols_per_thread = 4;
static_assert(block_m * block_n == threads * rows_per_thread * cols_per_thread,
              "cute-cpp [gemm.simt-tile]: the threads' outputs must cover the tile once");
/// Operand elements each thread loads per K chunk.
inline constexpr int a_loads = block_m * block_k / threads, b_loads = block_n * block_k / threads;
/// Row lengths of the shared tiles: padded so that a warp storing a K-major chunk (32 values of
/// one row, one per K) spreads over banks, while rows stay 8 (A) and 16 (B) byte aligned for the
/// vector reads.
inline constexpr int a_row = block_m + 2, b_row = block_n + 4;

/// Element (row, kk) of an operand whose rows are M (A) or N (B) and whose K-major form is
/// row-major: K-major at row * ld + kk, MN-major at kk * ld + row.
template <OperandMajorMode Major>
__device__ __forceinline__ std::int64_t offset(std::int64_t row, std::int64_t kk, std::int64_t ld) {
  return Major == OperandMajorMode::K ? row * ld + kk : kk * ld + row;
}

/// Loads this thread's elements of one operand's Rows x block_k chunk, zero outside the problem.
/// Consecutive threads take consecutive elements along the operand's contiguous direction.
template <OperandMajorMode Major, int Rows, int Count, class T>
__device__ __forceinline__ void load_chunk(float (&to)[Count], T const* from, std::int64_t ld, std::int64_t row0,
                                           std::int64_t rows, std::int64_t k0, std::int64_t k) {
#pragma unroll
  for (int i = 0; i < Count; ++i) {
    int const e = int(threadIdx.x) + i * threads;
    int const r = Major == OperandMajorMode::K ? e / block_k : e % Rows;
    int const kk = Major == OperandMajorMode::K ? e % block_k : e / Rows;
    bool const inside = row0 + r < rows && k0 + kk < k;
    to[i] = inside ? float(from[offset<Major>(row0 + r, k0 + kk, ld)]) : 0.0f;
  }
}

/// Stores loaded elements into the chunk's shared tile, [kk][row].
template <OperandMajorMode Major, int Rows, int Row, int Count>
__device__ __forceinline__ void store_chunk(float (&tile)[block_k][Row], float const (&from)[Count]) {
#pragma unroll
  for (int i = 0; i < Count; ++i) {
    int const e = int(threadIdx.x) + i * threads;
    int const r = Major == OperandMajorMode::K ? e / block_k : e % Rows;
    int const kk = Major == OperandMajorMode::K ? e % block_k : e / Rows;
    tile[kk][r] = from[i];
  }
}
}  // namespace simt

template <class Plan>
__global__ void __launch_bounds__(simt::threads) simt_gemm_kernel(GemmArguments<Plan> const args) {
  using namespace simt;
  constexpr auto MA = Plan::major_a, MB = Plan::major_b;
  __shared__ float a_tile[block_k][a_row];
  __shared__ float b_tile[block_k][b_row];
  // Programmatic dependent launch, as in simt_gemv_kernel: A and B may be the previous grid's output.
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const m0 = std::int64_t(blockIdx.y) * block_m, n0 = std::int64_t(blockIdx.x) * block_n;
  int const row = int(threadIdx.x) / (block_n / cols_per_thread) * rows_per_thread;
  int const col = int(threadIdx.x) % (block_n / cols_per_thread) * cols_per_thread;
  float acc[rows_per_thread][cols_per_thread] = {};
  float a_next[a_loads], b_next[b_loads];
  load_chunk<MA, block_m>(a_next, args.a, args.lda, m0, args.m, 0, args.k);
  load_chunk<MB, block_n>(b_next, args.b, args.ldb, n0, args.n, 0, args.k);
  for (std::int64_t k0 = 0; k0 < args.k; k0 += block_k) {
    store_chunk<MA, block_m>(a_tile, a_next);
    store_chunk<MB, block_n>(b_tile, b_next);
    __syncthreads();
    if (k0 + block_k < args.k) {  // the next chunk's loads fly while this one is multiplied
      load_chunk<MA, block_m>(a_next, args.a, args.lda, m0, args.m, k0 + block_k, args.k);
      load_chunk<MB, block_n>(b_next, args.b, args.ldb, n0, args.n, k0 + block_k, args.k);
    }
#pragma unroll 8
    for (int kk = 0; kk < block_k; ++kk) {
      float2 const a = *reinterpret_cast<float2 const*>(&a_tile[kk][row]);
      float4 const b = *reinterpret_cast<float4 const*>(&b_tile[kk][col]);
      float const av[2] = {a.x, a.y}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int i = 0; i < rows_per_thread; ++i)
#pragma unroll
        for (int j = 0; j < cols_per_thread; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
  using TC = typename Plan::TC;
  // A row-major C's cols_per_thread adjacent outputs go out as one vector store: C's rows start
  // 16-byte aligned (check_gemm_arguments) and col is a multiple of cols_per_thread.
  struct alignas(cols_per_thread * sizeof(TC)) Vector {
    TC v[cols_per_thread];
  };
#pragma unroll
  for (int i = 0; i < rows_per_thread; ++i) {
    std::int64_t const m = m0 + row + i;
    if (m >= args.m) break;
    std::int64_t const n = n0 + col;
    if (Plan::layout_c == LayoutEnum::RowMajor && n + cols_per_thread <= args.n) {
      Vector out;
#pragma unroll
      for (int j = 0; j < cols_per_thread; ++j) out.v[j] = TC(acc[i][j]);
      *reinterpret_cast<Vector*>(args.c + m * args.ldc + n) = out;
      continue;
    }
#pragma unroll
    for (int j = 0; j < cols_per_thread; ++j) {
      if (n + j >= args.n) break;
      std::int64_t const at = Plan::layout_c == LayoutEnum::RowMajor ? m * args.ldc + n + j : (n + j) * args.ldc + m;
      args.c[at] = TC(acc[i][j]);
    }
  }
}

/// run_gemm_unchecked for a SIMT plan: the same checks as the tensor-core kernel's after
/// check_gemm_arguments (run_gemm's), no workspace.
template <class Plan>
void run_simt_gemm(GemmArguments<Plan> const& args, cudaStream_t stream) {
  host::PointerArgument const pointers[] = {{"A", args.a}, {"B", args.b}, {"C", args.c}};
  host::check_device_pointers("gemm", pointers, stream);
  host::check_stream("gemm", stream);
  if (args.decomposition == Decomposition::SplitK || args.decomposition == Decomposition::StreamK || args.k_splits != 0)
    host::argument_error("gemm.k-splits", "the SIMT GEMM takes whole tiles only (Heuristic or DataParallel)");
  if (args.block_scales.a != nullptr || args.block_scales.b != nullptr || args.output_scales.data != nullptr)
    host::argument_error("gemm.block-scales", "the SIMT GEMM scales nothing");
  SkinnyShort const skinny = skinny_short_operand(args.m, args.n, args.k, Plan::major_a, Plan::major_b);
  if (skinny != SkinnyShort::none) return run_simt_gemv<Plan>(args, skinny, stream);
  std::int64_t const tiles_n = (args.n + simt::block_n - 1) / simt::block_n;
  std::int64_t const tiles_m = (args.m + simt::block_m - 1) / simt::block_m;
  if (tiles_n > std::int64_t(0x7fffffff) || tiles_m > 65535)
    host::argument_error("gemm.shape", "the SIMT GEMM's grid takes at most 65535 x 32 rows (got " +
                                           std::to_string(args.m) + ")");
  host::LaunchConfig config;
  config.grid = dim3(unsigned(tiles_n), unsigned(tiles_m));
  config.block = dim3(simt::threads);
  config.stream = stream;
  host::launch(&simt_gemm_kernel<Plan>, "gemm_simt", config, args);
}

}  // namespace cute_cpp::kernels
