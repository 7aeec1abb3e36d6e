// SPDX-License-Identifier: Apache-2.0
// WgmmaTiledMmaRSFp8 (the FP8 attention's O += P Vᵀ): an fp32 accumulator becomes the e4m3 A
// fragment in place (F2FP.SATFINITE.E4M3 packs, no SHFL: no byte moves between threads) and feeds
// QGMMA with A from registers; and transpose_e4m3_values (V into Vᵀ: LDSM.16.MT88, PRMT, STSM), for
// both row widths.
// cute-cpp-arch: 90a
// expect-sass: {{"QGMMA\.64x128x32\.F32\.E4M3\.E4M3 R[0-9]+, R[0-9]+, gdesc"}}
// expect-sass: {{"QGMMA\.64x64x32\.F32\.E4M3\.E4M3 R[0-9]+, R[0-9]+, gdesc"}}
// expect-sass: {{"F2FP\.SATFINITE\.E4M3\.F32\.PACK_AB"}}
// expect-sass: {{"LDSM\.16\.MT88\.4"}}
// expect-sass: {{"STSM\.16\.M88\.4"}}
// expect-sass: {{"PRMT"}}
// reject-sass: {{"SHFL"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include <cute_cpp/attention/value_transpose.hpp>
#include <cute_cpp/mma/sm90_wgmma_fp8_rs.hpp>

namespace cc = cute_cpp;

template <int N>
__device__ void pv(__nv_fp8_e4m3 const* vt, float* out) {
  using Mma = cc::sm90::WgmmaTiledMmaRSFp8<cc::sm90::BOperand<cc::SmemKMajor<__nv_fp8_e4m3, N, 128>>, 1, N>;
  typename Mma::FragmentK s;
  for (int i = 0; i < 64; ++i) s(i, 0) = out[i] * 256.0f;
  typename Mma::FragmentA a = Mma::make_a_fragment(s);
  typename Mma::FragmentC acc;
  acc.fill(0.0f);
  Mma::warpgroup_arrive(acc, a);
  Mma::gemm(acc, a, vt);
  Mma::commit_group();
  Mma::template wait_group<0>(acc, a);
  out[threadIdx.x] = acc(0, 0) + acc(N / 2 - 1, 0);
}

__global__ void fp8_pv(float* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  auto* const vt = reinterpret_cast<__nv_fp8_e4m3*>(smem);
  pv<128>(vt, out);
  pv<64>(vt, out);
}

__global__ void fp8_value_transpose() {
  extern __shared__ __align__(1024) unsigned char smem[];
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  cc::transpose_e4m3_values<128, 128, 128, 3>(smem, smem + 16384, warp, lane);
  cc::transpose_e4m3_values<128, 64, 64, 3>(smem, smem + 16384, warp, lane);
}
