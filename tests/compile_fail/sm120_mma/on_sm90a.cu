// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The block-scaled tiled MMA issues mma.sync .block_scale, which exists only on sm_120a: a sm_90a
// pass that uses it fails naming the instruction and the target.
// cute-cpp-arch: 90a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"target\.sm120a-only.*block_scale"}}
namespace cc = cute_cpp;
using Mma = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 1, 1, 16, 16, 64>;
__global__ void f(float* out) {
  typename Mma::FragmentA a{};
  typename Mma::FragmentB b{};
  typename Mma::FragmentSFA sfa{};
  typename Mma::FragmentSFB sfb{};
  typename Mma::FragmentC c{};
  cc::sm120::gemm(Mma{}, c, a, b, sfa, sfb);
  out[threadIdx.x] = c.v[0][0][0];
}
