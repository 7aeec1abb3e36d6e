// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A feed-forward block on warp MMA: y = (silu(x Wg^T) * (x Wu^T)) Wd^T for x (M, D), Wg and Wu
// (F, D), Wd (D, F), all bf16 row-major (nn.Linear weights), f32 accumulation.
// Two launches of one GEMM kernel template:
//   1. the dual GEMM: each block computes a 128 x 64 tile of both x Wg^T and x Wu^T, and its
//      epilogue stores h = silu(gate) * up (the activation fused in registers) as bf16 (M, F);
//   2. the plain GEMM: y = h Wd^T in 128 x 128 tiles.
// Steps of the kernel: (1) a 4-stage cp.async ring of (BM,32) A and (BN,32) B tiles in padded
// shared memory (TiledCopy, rows past M or N zero-filled); (2) per stage, ldmatrix.x4 operand
// loads and m16n8k16 bf16 mma.sync over 8 warps (2 x 4); (3) the epilogue from the accumulators'
// coordinates, predicated on M and N. Blocks are ordered in groups of 8 M-tiles so that a wave
// shares A and B tiles in L2. Constraints: D and F multiples of 32 [ffn.shape]; M any.
#include "examples/common/align.hpp"

#include <cute_cpp/copy.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/mma/mma_sync.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/tensor.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace cute_cpp::examples {

/// The tile plan of the FFN GEMMs; Dual: two B operands and the SwiGLU epilogue.
template <bool Dual>
struct FfnGemmPlan {
  static constexpr int block_m = 128, block_n = Dual ? 64 : 128, block_k = 32;
  static constexpr int stages = 4, threads = 256, group_m = 8;
  static constexpr int num_b = Dual ? 2 : 1;
  // NOTE: rows padded from 64 to 80 bytes: the 8 row addresses of each ldmatrix phase then fall in
  // 8 distinct 16-byte bank groups (conflict-free), without a swizzle.
  static constexpr int pitch = block_k + 8;
  using SmemLayoutA = Layout<Shape<C<block_m>, C<block_k>>, Stride<C<pitch>, C<1>>>;  // (BM,BK)
  using SmemLayoutB = Layout<Shape<C<block_n>, C<block_k>>, Stride<C<pitch>, C<1>>>;  // (BN,BK)
  using Mma = TiledMma<warp::MmaF16BF16Op<bf16>, 2, 4, block_m, block_n, block_k>;
  using Copy = TiledCopy<CopyAtom<CopyG2SOp<16>, bf16>, Layout<Shape<C<64>, C<4>>, Stride<C<4>, C<1>>>,
                         Layout<Shape<C<1>, C<8>>, Stride<C<0>, C<1>>>>;  // 256 threads, a 64 x 32 tile
  static_assert(Copy::threads == threads && Mma::threads == threads);
  static constexpr int a_elems = int(decltype(cosize(SmemLayoutA{}))::value);
  static constexpr int b_elems = int(decltype(cosize(SmemLayoutB{}))::value);

  /// The carve of dynamic shared memory, for the kernel (base) and the launch (no base).
  struct Smem {
    bf16* a;
    bf16* b[num_b];
    CUTE_CPP_HD explicit Smem(SmemAllocator& alloc) : a(alloc.allocate_array<bf16, std::size_t(a_elems) * stages, 128>()) {
      for (int i = 0; i < num_b; ++i) b[i] = alloc.allocate_array<bf16, std::size_t(b_elems) * stages, 128>();
    }
  };
  static std::size_t smem_bytes() {
    SmemAllocator plan;
    Smem const carve(plan);
    (void)carve;
    return plan.size_in_bytes();
  }
};

/// out (M, N) = A (M, K) B0^T, or silu(A B0^T) * (A B1^T) when Dual; B0, B1 are (N, K).
template <bool Dual>
__global__ void __launch_bounds__(256, 1)
ffn_gemm_kernel(bf16 const* __restrict__ a, bf16 const* __restrict__ b0, bf16 const* __restrict__ b1,
                bf16* __restrict__ out, int m, int n, int k) {
  using P = FfnGemmPlan<Dual>;
  static_assert(verify_plan<P>());
  using Mma = typename P::Mma;
  extern __shared__ __align__(128) unsigned char smem_raw[];
  SmemAllocator alloc(smem_raw);
  typename P::Smem const smem(alloc);

  // ---- which tile: groups of group_m M-tiles, M fastest within a group ----
  int const tiles_m = (m + P::block_m - 1) / P::block_m, tiles_n = (n + P::block_n - 1) / P::block_n;
  int const per_group = P::group_m * tiles_n;
  int const first_m = int(blockIdx.x) / per_group * P::group_m;
  int const group_size = min(tiles_m - first_m, P::group_m);
  int const bm = first_m + int(blockIdx.x) % per_group % group_size;
  int const bn = int(blockIdx.x) % per_group / group_size;
  int const m_left = m - bm * P::block_m, n_left = n - bn * P::block_n;

  auto const gA = make_tensor(a, make_layout(make_shape(m, k), make_stride(k, C<1>{})));  // (M,K)
  bf16 const* const bs[2] = {b0, b1};
  int const tid = int(threadIdx.x);
  auto const thr_copy = P::Copy::get_slice(tid);

  // ---- producer: one stage of A and B tiles, rows past M / N zero-filled ----
  auto load_stage = [&](int stage, int kt) {
    auto const sA = make_tensor(smem.a + stage * P::a_elems, typename P::SmemLayoutA{});  // (BM,BK)
    auto const gAk = local_tile(gA, make_shape(C<P::block_m>{}, C<P::block_k>{}), make_coord(bm, kt));  // (BM,BK)
    copy_if(typename P::Copy{}, [&](int vm, int vn, int rm, int rn) { return get<0>(thr_copy.coord(vm, vn, rm, rn)) < m_left; },
            thr_copy.partition_S(gAk), thr_copy.partition_D(sA));
#pragma unroll
    for (int i = 0; i < P::num_b; ++i) {
      auto const gB = make_tensor(bs[i], make_layout(make_shape(n, k), make_stride(k, C<1>{})));  // (N,K)
      auto const gBk = local_tile(gB, make_shape(C<P::block_n>{}, C<P::block_k>{}), make_coord(bn, kt));  // (BN,BK)
      auto const sB = make_tensor(smem.b[i] + stage * P::b_elems, typename P::SmemLayoutB{});  // (BN,BK)
      copy_if(typename P::Copy{}, [&](int vm, int vn, int rm, int rn) { return get<0>(thr_copy.coord(vm, vn, rm, rn)) < n_left; },
              thr_copy.partition_S(gBk), thr_copy.partition_D(sB));
    }
  };

  // ---- mainloop: stages - 1 tiles in flight while one is multiplied ----
  int const k_tiles = k / P::block_k;
#pragma unroll
  for (int s = 0; s < P::stages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit_group();
  }
  auto const mma = Mma::get_slice(tid);
  typename Mma::FragmentC acc[P::num_b];
#pragma unroll
  for (int i = 0; i < P::num_b; ++i) acc[i] = Mma::FragmentC::ZERO;
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait_group<P::stages - 2>();
    __syncthreads();  // stage kt landed for every thread; stage kt - 1 is free to refill
    if (kt + P::stages - 1 < k_tiles) load_stage((kt + P::stages - 1) % P::stages, kt + P::stages - 1);
    cp_async_commit_group();
    int const stage = kt % P::stages;
    typename Mma::FragmentA fa;
    mma.copy_s2r_A(make_tensor(smem.a + stage * P::a_elems, typename P::SmemLayoutA{}), 0, fa);
#pragma unroll
    for (int i = 0; i < P::num_b; ++i) {
      typename Mma::FragmentB fb;
      mma.copy_s2r_B(make_tensor(smem.b[i] + stage * P::b_elems, typename P::SmemLayoutB{}), 0, fb);
      gemm(Mma{}, acc[i], fa, fb);
    }
  }

  // ---- epilogue: two adjacent columns per store, predicated on M and N ----
  auto const gOut = make_tensor(out, make_layout(make_shape(m, n), make_stride(n, C<1>{})));  // (M,N)
#pragma unroll
  for (int am = 0; am < Mma::atoms_m; ++am)
#pragma unroll
    for (int an = 0; an < Mma::atoms_n; ++an)
#pragma unroll
      for (int i = 0; i < 4; i += 2) {
        int const row = bm * P::block_m + mma.row_of(am, i), col = bn * P::block_n + mma.col_of(an, i);
        if (row >= m || col >= n) continue;
        RegisterTile<float, 2> v{{acc[0].v[am][an][i], acc[0].v[am][an][i + 1]}};
        if constexpr (Dual) {
          RegisterTile<float, 2> const up{{acc[P::num_b - 1].v[am][an][i], acc[P::num_b - 1].v[am][an][i + 1]}};
          v = v.map([](float g) { return g / (1.f + __expf(-g)); }) * up;
        }
        v.to<bf16>().store_vector<2>(&gOut(row, col));
      }
}

namespace detail {
template <bool Dual>
void launch_ffn_gemm(bf16 const* a, bf16 const* b0, bf16 const* b1, bf16* out, int m, int n, int k, cudaStream_t stream) {
  using P = FfnGemmPlan<Dual>;
  host::LaunchConfig config;
  std::size_t const tiles = std::size_t((m + P::block_m - 1) / P::block_m) * std::size_t((n + P::block_n - 1) / P::block_n);
  config.grid = dim3(unsigned(tiles));
  config.block = dim3(P::threads);
  config.smem_bytes = P::smem_bytes();
  config.stream = stream;
  host::launch(&ffn_gemm_kernel<Dual>, Dual ? "ffn_gemm_kernel<dual>" : "ffn_gemm_kernel", config, a, b0, b1, out, m, n, k);
}
}  // namespace detail

/// y (M, D) = (silu(x Wg^T) * (x Wu^T)) Wd^T, with h (M, F) the caller's scratch.
/// @pre D % 32 == 0 and F % 32 == 0 [ffn.shape]; every pointer 16-byte aligned [ffn.alignment].
inline void ffn(bf16 const* x, bf16 const* wg, bf16 const* wu, bf16 const* wd, bf16* h, bf16* y, std::size_t m,
                std::size_t d, std::size_t f, cudaStream_t stream = nullptr) {
  if (m == 0) return;
  if (d % 32 != 0 || f % 32 != 0 || d == 0 || f == 0)
    throw std::invalid_argument("cute-cpp [ffn.shape]: the model and hidden sizes must be multiples of 32");
  if (!(aligned16(x) && aligned16(wg) && aligned16(wu) && aligned16(wd) && aligned16(h) && aligned16(y)))
    throw std::invalid_argument("cute-cpp [ffn.alignment]: every pointer must be 16-byte aligned");
  if (m > 0x7fffffffu || d > 0x7fffffffu || f > 0x7fffffffu)
    throw std::invalid_argument("cute-cpp [ffn.shape]: sizes must be below 2^31");
  detail::launch_ffn_gemm<true>(x, wg, wu, h, int(m), int(f), int(d), stream);
  detail::launch_ffn_gemm<false>(h, wd, nullptr, y, int(m), int(d), int(f), stream);
}

}  // namespace cute_cpp::examples
