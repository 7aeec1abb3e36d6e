// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_120a block-scaled tiled MMA (sm120::BlockScaledTiledMma) over shared-memory byte tiles:
// ldmatrix operand loads, 32-bit scale loads, and the block-scaled mma.sync as ptxas emits it,
// NVFP4 (UE4M3, 4X), MXFP4 through kind::mxf4 and through kind::mxf4nvf4 (UE8M0, both byte-ids).
// cute-cpp-arch: 120a
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.UE4M3\.4X "}}
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.E8 "}}
// expect-sass: {{"LDSM\.16\.M88\.4"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
#include <cute_cpp/tensor.hpp>

#include <cstdint>

namespace cc = cute_cpp;
using cc::C;

template <class Atom>
__global__ void block_scaled_tile(std::uint8_t const* in, float* out) {
  using M = cc::sm120::BlockScaledTiledMma<Atom, 2, 2, 64, 64, 128>;
  // (rows, K bytes) tiles with 16 bytes of padding a row: ldmatrix reads 8 rows of 16 bytes
  // from 8 distinct bank groups.
  __shared__ __align__(128) std::uint8_t a[64 * 80], b[64 * 80], sfa[64 * 16], sfb[64 * 16];
  for (int i = int(threadIdx.x); i < 64 * 80; i += M::threads) a[i] = in[i], b[i] = in[i + 64 * 80];
  for (int i = int(threadIdx.x); i < 64 * 16; i += M::threads) sfa[i] = in[i + 128 * 80], sfb[i] = in[i + 128 * 80 + 1024];
  __syncthreads();
  using Operand = cc::Layout<cc::Shape<C<64>, C<64>>, cc::Stride<C<80>, C<1>>>;
  using Scales = cc::Layout<cc::Shape<C<64>, C<M::sf_k_bytes>>, cc::Stride<C<16>, C<1>>>;
  auto const sA = cc::make_tensor(static_cast<std::uint8_t const*>(a), Operand{});    // (BM,BK/2)
  auto const sB = cc::make_tensor(static_cast<std::uint8_t const*>(b), Operand{});    // (BN,BK/2)
  auto const sSFA = cc::make_tensor(static_cast<std::uint8_t const*>(sfa), Scales{});  // (BM,BK/vec)
  auto const sSFB = cc::make_tensor(static_cast<std::uint8_t const*>(sfb), Scales{});  // (BN,BK/vec)
  auto const thr = M::get_slice(int(threadIdx.x));
  typename M::FragmentA fa;
  typename M::FragmentB fb;
  typename M::FragmentSFA fsa;
  typename M::FragmentSFB fsb;
  typename M::FragmentC acc{};
  thr.copy_s2r_A(sA, 0, fa);
  thr.copy_s2r_B(sB, 0, fb);
  thr.copy_s2r_SFA(sSFA, 0, fsa);
  thr.copy_s2r_SFB(sSFB, 0, fsb);
  cc::sm120::gemm(M{}, acc, fa, fb, fsa, fsb);
  for (int am = 0; am < M::atoms_m; ++am)
    for (int an = 0; an < M::atoms_n; ++an)
      for (int i = 0; i < 4; ++i) out[thr.row_of(am, i) * 64 + thr.col_of(an, i)] = acc.v[am][an][i];
}

template __global__ void block_scaled_tile<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>>(std::uint8_t const*, float*);
template __global__ void block_scaled_tile<cc::warp::MmaMXF4Op<>>(std::uint8_t const*, float*);
template __global__ void block_scaled_tile<cc::warp::MmaMXF4NVF4Op<cc::quant::ue8m0>>(std::uint8_t const*, float*);
