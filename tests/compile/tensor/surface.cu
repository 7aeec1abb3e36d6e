// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The tensor, copy, warp-MMA and shared-memory surface compiles in device code on every target:
// a cp.async tiled copy with a predicated tail, ldmatrix operand loads, mma.sync for bf16, f16,
// tf32 (once and 3xTF32) and fp8, register tiles with conversions, and warp and block reductions.
// cute-cpp-archs: 90a 100a 120a
#include <cute_cpp/copy.hpp>
#include <cute_cpp/mma/mma_sync.hpp>
#include <cute_cpp/tensor.hpp>

namespace cc = cute_cpp;
using cc::C;

template <class T, class Atom>
__global__ void tile_gemm(T const* a, T const* b, float* c, int m) {
  constexpr int bk = 64 * 2 / int(sizeof(T));  // 64 bf16, 32 tf32, 128 fp8: 128 bytes of K
  using Mma = cc::TiledMma<Atom, 2, 2, 64, 64, bk>;
  using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyG2SOp<16>, T>,
                             cc::Layout<cc::Shape<C<16>, C<8>>, cc::Stride<C<8>, C<1>>>,
                             cc::Layout<cc::Shape<C<1>, C<16 / int(sizeof(T))>>, cc::Stride<C<0>, C<1>>>>;
  extern __shared__ __align__(128) unsigned char smem[];
  cc::SmemAllocator alloc(smem);
  auto sA = alloc.allocate_tensor<T>(cc::RowMajor<64, bk>{});  // (BM,BK)
  auto sB = alloc.allocate_tensor<T>(cc::RowMajor<64, bk>{});  // (BN,BK)
  auto gA = cc::make_tensor(a, cc::make_layout(cc::make_shape(m, C<bk>{}), cc::make_stride(bk, C<1>{})));  // (M,BK)
  auto gB = cc::make_tensor(b, cc::RowMajor<64, bk>{});
  auto thr = Copy::get_slice(int(threadIdx.x));
  auto tAgA = thr.partition_S(cc::local_tile(gA, cc::make_shape(C<64>{}, C<bk>{}), cc::make_coord(int(blockIdx.x), 0)));
  auto tAsA = thr.partition_D(sA);  // (CPY,CPY_M,CPY_K)
  int const rows_left = m - int(blockIdx.x) * 64;
  cc::copy_if(Copy{}, [&](int vm, int vn, int rm, int rn) { return cc::get<0>(thr.coord(vm, vn, rm, rn)) < rows_left; },
              tAgA, tAsA);
  cc::copy_g2s(Copy{}, thr.partition_S(gB), thr.partition_D(sB));
  cc::cp_async_commit_group();
  cc::cp_async_wait_group<0>();
  __syncthreads();
  auto mma = Mma::get_slice(int(threadIdx.x));
  typename Mma::FragmentC acc = Mma::FragmentC::ZERO;
  typename Mma::FragmentA fa;
  typename Mma::FragmentB fb;
  mma.copy_s2r_A(sA, 0, fa);
  mma.copy_s2r_B(sB, 0, fb);
  cc::gemm(Mma{}, acc, fa, fb);
  for (int am = 0; am < Mma::atoms_m; ++am)
    for (int an = 0; an < Mma::atoms_n; ++an)
      for (int i = 0; i < 4; ++i) c[mma.row_of(am, i) * 64 + mma.col_of(an, i)] = acc.v[am][an][i];
}

template __global__ void tile_gemm<cc::bf16, cc::warp::MmaF16BF16Op<cc::bf16>>(cc::bf16 const*, cc::bf16 const*, float*, int);
template __global__ void tile_gemm<cc::f16, cc::warp::MmaF16BF16Op<cc::f16>>(cc::f16 const*, cc::f16 const*, float*, int);
template __global__ void tile_gemm<float, cc::warp::MmaTF32Op>(float const*, float const*, float*, int);
template __global__ void tile_gemm<float, cc::warp::MmaTF32x3Op>(float const*, float const*, float*, int);
template __global__ void tile_gemm<cc::e4m3, cc::warp::MmaFP8Op<cc::e4m3>>(cc::e4m3 const*, cc::e4m3 const*, float*, int);

/// Accumulators back through shared memory with stmatrix, then out with 16-byte stores.
__global__ void epilogue_through_smem(cc::bf16* out) {
  using Store = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, cc::bf16>,
                              cc::Layout<cc::Shape<C<16>, C<8>>, cc::Stride<C<8>, C<1>>>,
                              cc::Layout<cc::Shape<C<1>, C<8>>, cc::Stride<C<0>, C<1>>>>;
  __shared__ __align__(16) cc::bf16 tile[16 * 64];
  auto const sC = cc::make_tensor(tile, cc::RowMajor<16, 64>{});  // (16,64)
  std::uint32_t regs[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};
  int const lane = int(threadIdx.x % 32);
  cc::StMatrix8x8x16bOp<4>::copy(regs, &sC(lane % 16, (lane / 16) * 8 + int(threadIdx.x / 32) * 16));
  __syncthreads();
  auto const thr = Store::get_slice(int(threadIdx.x));
  cc::copy_s2g(Store{}, thr.partition_S(sC), thr.partition_D(cc::make_tensor(out, cc::RowMajor<16, 64>{})));
}

__global__ void tiles_and_reductions(cc::bf16 const* x, float* out) {
  __shared__ cc::SmemArray<float, 32> scratch;
  auto v = cc::RegisterTile<cc::bf16, 8>::load_vector(x + threadIdx.x * 8).to<float>();
  auto sq = v * v;
  float s = cc::block_reduction_sum<256>(sq.reduce_sum(), scratch.data);
  float mx = cc::warp_reduction_max(v.reduce_max());
  (v * s + mx).to<cc::bf16>().to<cc::e4m3>().to<float>().store_vector(out + threadIdx.x * 8);
}
