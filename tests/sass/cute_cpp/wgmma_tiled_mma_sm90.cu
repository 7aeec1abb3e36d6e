// SPDX-License-Identifier: Apache-2.0
// WgmmaTiledMma for every input kind it takes (bf16, f16, e4m3, e5m2, tf32), K- and MN-major:
// each becomes the wgmma of its kind and N.
// cute-cpp-arch: 90a
// expect-sass: {{"HGMMA\.64x128x16\.F32\.BF16"}}
// expect-sass: {{"HGMMA\.64x256x16\.F32\.BF16"}}
// expect-sass: {{"HGMMA\.64x64x16\.F32 "}}
// expect-sass: {{"QGMMA\.64x128x32\.F32\.E4M3\.E4M3"}}
// expect-sass: {{"QGMMA\.64x64x32\.F32\.E5M2\.E5M2"}}
// expect-sass: {{"HGMMA\.64x64x8\.F32\.TF32"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>

namespace cc = cute_cpp;

template <class T, class ASmem, class BSmem, int N>
__device__ void product(T const* a, T const* b, float* out) {
  using Mma = cc::sm90::WgmmaTiledMma<T, T, float, ASmem, BSmem, 1, N>;
  typename Mma::FragmentC acc;
  acc.fill(0.0f);
  Mma::warpgroup_arrive(acc);
  Mma::gemm(acc, a, b, 0);
  Mma::commit_group();
  Mma::template wait_group<0>(acc);
  out[threadIdx.x] = acc(0, 0) + float(Mma::get_slice(threadIdx.x % 128).row(0, 3));
}

__global__ void kinds(float* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  using bf16 = __nv_bfloat16;
  using e4m3 = __nv_fp8_e4m3;
  using e5m2 = __nv_fp8_e5m2;
  product<bf16, cc::SmemKMajor<bf16, 64, 64>, cc::SmemKMajor<bf16, 128, 64>, 128>(
      reinterpret_cast<bf16*>(smem), reinterpret_cast<bf16*>(smem + 8192), out);
  product<bf16, cc::SmemMNMajor<bf16, 64, 64>, cc::SmemMNMajor<bf16, 256, 64>, 256>(
      reinterpret_cast<bf16*>(smem), reinterpret_cast<bf16*>(smem + 8192), out);
  product<__half, cc::SmemKMajor<__half, 64, 32, 64>, cc::SmemKMajor<__half, 64, 32, 64>, 64>(
      reinterpret_cast<__half*>(smem), reinterpret_cast<__half*>(smem + 8192), out);
  product<e4m3, cc::SmemKMajor<e4m3, 64, 128>, cc::SmemKMajor<e4m3, 128, 128>, 128>(
      reinterpret_cast<e4m3*>(smem), reinterpret_cast<e4m3*>(smem + 8192), out);
  product<e5m2, cc::SmemKMajor<e5m2, 64, 128>, cc::SmemKMajor<e5m2, 64, 128>, 64>(
      reinterpret_cast<e5m2*>(smem), reinterpret_cast<e5m2*>(smem + 8192), out);
  product<float, cc::SmemKMajor<float, 64, 32>, cc::SmemKMajor<float, 64, 32>, 64>(
      reinterpret_cast<float*>(smem), reinterpret_cast<float*>(smem + 8192), out);
}
