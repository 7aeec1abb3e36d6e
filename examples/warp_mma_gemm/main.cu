// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// warp_mma_gemm: C = A * B^T with A (M, K) and B (N, K) bf16, both K-major (row-major), C (M, N)
// float, on the warp-level tensor-core MMA (mma.sync m16n8k16, fp32 accumulation) of every target.
// Each block computes a 64 x 64 tile of C with 4 warps (2 x 2, 32 x 32 each), walking K in steps
// of 32: a TiledCopy of cp.async 16-byte copies fills one of two shared stages while the warps
// read the other with ldmatrix and multiply. M, N and K need not be multiples of the tile (K a
// multiple of 8): the copies zero-fill what lies outside A and B, the epilogue skips C's outside.
// Checked on fresh random data against a CPU reference in double.
//   warp_mma_gemm            (needs a GPU; without one it says so and exits 0)
#include <cute_cpp/copy.hpp>            // TiledCopy, CopyAtom, CopyG2SOp, copy_if, cp_async_*
#include <cute_cpp/host.hpp>            // DeviceBuffer, launch, cuda_check
#include <cute_cpp/layout.hpp>          // Layout, Shape, Stride, C, _, make_layout, local_tile
#include <cute_cpp/mma/mma_sync.hpp>    // warp::MmaF16BF16Op, TiledMma, gemm
#include <cute_cpp/smem/allocator.hpp>  // SmemArray
#include <cute_cpp/tensor.hpp>          // make_tensor

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace cc = cute_cpp;
using cc::C;
using bf16 = cc::bf16;

// ---- the plan ----
constexpr int BM = 64, BN = 64, BK = 32, Stages = 2;
// 2 x 2 warps, each 32 x 32 of C: 2 x 4 atoms of m16n8k16, 2 k-atoms per BK.
using Mma = cc::TiledMma<cc::warp::MmaF16BF16Op<bf16>, 2, 2, BM, BN, BK>;
// NOTE: shared rows padded from 32 to 40 elements (80 bytes): the 8 row addresses of one ldmatrix
// then start in 8 different groups of 4 banks; at 64 bytes a row, two rows would share each group.
constexpr int RowStride = BK + 8;
template <int Rows>  // (ROWS,BK,PIPE): Stages tiles of Rows x BK, K contiguous
using SmemStages =
    cc::Layout<cc::Shape<C<Rows>, C<BK>, C<Stages>>, cc::Stride<C<RowStride>, C<1>, C<Rows * RowStride>>>;
using SmemA = SmemStages<BM>;  // (BM,BK,PIPE)
using SmemB = SmemStages<BN>;  // (BN,BK,PIPE)
// 32 x 4 threads, 8 bf16 (16 bytes) each: a 32 x 32 copy tile, repeated over a 64 x 32 stage.
using Load = cc::TiledCopy<cc::CopyAtom<cc::CopyG2SOp<16>, bf16>,
                           cc::Layout<cc::Shape<C<32>, C<4>>, cc::Stride<C<4>, C<1>>>,  // (32,4) -> thread
                           cc::Layout<cc::Shape<C<1>, C<8>>, cc::Stride<C<0>, C<1>>>>;  // (1,8) -> value
static_assert(Load::threads == Mma::threads, "cute-cpp: the copy and the MMA must use the block's threads alike");
static_assert(BM % Load::tile_m == 0 && BN % Load::tile_m == 0 && BK == Load::tile_n,
              "cute-cpp: a stage of A and of B must be whole copy tiles");
static_assert(RowStride * sizeof(bf16) % 16 == 0, "cute-cpp: padded shared rows must keep 16-byte alignment");

__global__ void __launch_bounds__(Mma::threads)
gemm_kernel(bf16 const* a, bf16 const* b, float* c, int m, int n, int k) {
  __shared__ cc::SmemArray<bf16, Stages * BM * RowStride> a_storage;
  __shared__ cc::SmemArray<bf16, Stages * BN * RowStride> b_storage;
  auto const sA = cc::make_tensor(a_storage.data, SmemA{});  // (BM,BK,PIPE)
  auto const sB = cc::make_tensor(b_storage.data, SmemB{});  // (BN,BK,PIPE)
  auto const mA = cc::make_tensor(a, cc::make_layout(cc::make_shape(m, k), cc::make_stride(k, C<1>{})));  // (M,K)
  auto const mB = cc::make_tensor(b, cc::make_layout(cc::make_shape(n, k), cc::make_stride(k, C<1>{})));  // (N,K)
  int const bm = int(blockIdx.y), bn = int(blockIdx.x);

  // ---- producer side: stage `stage` <- k-tile kt of A and B, zero-filled outside the matrices ----
  auto const load = Load::get_slice(int(threadIdx.x));
  auto const load_stage = [&](int kt, int stage) {
    auto const gA = cc::local_tile(mA, cc::make_shape(C<BM>{}, C<BK>{}), cc::make_coord(bm, kt));  // (BM,BK)
    auto const gB = cc::local_tile(mB, cc::make_shape(C<BN>{}, C<BK>{}), cc::make_coord(bn, kt));  // (BN,BK)
    int const rows_a = m - bm * BM, rows_b = n - bn * BN, cols = k - kt * BK;
    cc::copy_if(Load{}, [&](int vm, int vn, int rm, int rn) {
      auto const at = load.coord(vm, vn, rm, rn);
      return cc::get<0>(at) < rows_a && cc::get<1>(at) < cols;
    }, load.partition_S(gA), load.partition_D(sA(cc::_, cc::_, stage)));  // (CPY,CPY_M,CPY_K) = ((1,8),2,1)
    cc::copy_if(Load{}, [&](int vm, int vn, int rm, int rn) {
      auto const at = load.coord(vm, vn, rm, rn);
      return cc::get<0>(at) < rows_b && cc::get<1>(at) < cols;
    }, load.partition_S(gB), load.partition_D(sB(cc::_, cc::_, stage)));
    cc::cp_async_commit_group();
  };

  // ---- main loop: copy k-tile kt + 1 while the warps multiply k-tile kt ----
  auto const mma = Mma::get_slice(int(threadIdx.x));
  auto acc = mma.partition_fragment_C();  // (MMA_M,MMA_N,4) floats, zero
  Mma::FragmentA tCrA;                    // (MMA_M,MMA_K,4) registers of A
  Mma::FragmentB tCrB;                    // (MMA_N,MMA_K,2) registers of B
  int const k_tiles = (k + BK - 1) / BK;
  load_stage(0, 0);
  for (int kt = 0; kt < k_tiles; ++kt) {
    if (kt + 1 < k_tiles) load_stage(kt + 1, (kt + 1) % Stages);
    else cc::cp_async_commit_group();  // an empty group, so that the wait below means the same every step
    cc::cp_async_wait_group<1>();      // this thread's copies of k-tile kt have landed
    __syncthreads();                   // ... and everyone else's
    mma.copy_s2r_A(sA(cc::_, cc::_, kt % Stages), 0, tCrA);  // ldmatrix.x4, 16 rows x 16 k a time
    mma.copy_s2r_B(sB(cc::_, cc::_, kt % Stages), 0, tCrB);
    cc::gemm(Mma{}, acc, tCrA, tCrB);  // 2 x 4 x 2 mma.sync
    __syncthreads();                   // the stage may be refilled at the next step
  }

  // ---- epilogue: each thread's accumulators to C, those inside C ----
  auto const gC = cc::local_tile(cc::make_tensor(c, cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{}))),
                                 cc::make_shape(C<BM>{}, C<BN>{}), cc::make_coord(bm, bn));  // (BM,BN)
  int const rows = m - bm * BM, cols = n - bn * BN;
  for (int am = 0; am < Mma::atoms_m; ++am)
    for (int an = 0; an < Mma::atoms_n; ++an)
      for (int i = 0; i < 4; ++i) {
        int const row = mma.row_of(am, i), col = mma.col_of(an, i);
        if (row < rows && col < cols) gC(row, col) = acc.v[am][an][i];
      }
}

// ---- host ----

bool check(int m, int n, int k, std::mt19937& rng) {
  if (k % 8 != 0) throw std::invalid_argument("K must be a multiple of 8 (16-byte rows)");
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<bf16> ha(std::size_t(m) * k), hb(std::size_t(n) * k);
  for (auto& v : ha) v = __float2bfloat16(dist(rng));
  for (auto& v : hb) v = __float2bfloat16(dist(rng));
  cc::host::DeviceBuffer<bf16> da(ha.size()), db(hb.size());
  cc::host::DeviceBuffer<float> dc(std::size_t(m) * n);
  da.upload(ha);
  db.upload(hb);
  dc.fill_bytes(0xFF);  // poison: NaN until written
  dim3 const grid(unsigned((n + BN - 1) / BN), unsigned((m + BM - 1) / BM));
  cc::host::launch(gemm_kernel, "gemm_kernel", cc::host::LaunchConfig{.grid = grid, .block = dim3(Mma::threads)},
                   da.data(), db.data(), dc.data(), m, n, k);
  cc::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const hc = dc.download();

  std::size_t bad = 0;
  double worst = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0.0, magnitude = 0.0;
      for (int p = 0; p < k; ++p) {
        double const product = double(float(ha[std::size_t(i) * k + p])) * double(float(hb[std::size_t(j) * k + p]));
        want += product;
        magnitude += std::fabs(product);
      }
      // NOTE: bf16 products are exact in fp32; what remains is fp32 summation, far below 1e-4 of the
      // sum of magnitudes for these K, and far below one missing 16-wide k-atom.
      double const got = hc[std::size_t(i) * n + j], error = std::fabs(got - want);
      double const tolerance = 1e-4 * magnitude + 1e-6;
      worst = std::max(worst, error / tolerance);
      if (!(error <= tolerance) && bad++ < 5)
        std::printf("  mismatch at C(%d, %d): got %g, want %g\n", i, j, got, want);
    }
  std::printf("check M=%-5d N=%-5d K=%-5d %s (largest error / tolerance %.3f)\n", m, n, k,
              bad == 0 ? "ok    " : "FAILED", worst);
  return bad == 0;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("warp_mma_gemm: needs a CUDA GPU (sm_90a, sm_100a or sm_120a); none found, nothing run\n");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("warp_mma_gemm: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (auto [m, n, k] : {std::tuple{1, 8, 8}, std::tuple{63, 65, 40}, std::tuple{257, 300, 1000},
                           std::tuple{1024, 512, 1024}})
      ok &= check(m, n, k, rng);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "warp_mma_gemm: %s\n", e.what());
    return 1;
  }
}
