// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// ldmatrix reads rows of K bytes: an (M, K/2) operand tile stored column-major is rejected.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.smem-operand.*\n.*with ElementBytes=1, KContiguous=false"}}
namespace cc = cute_cpp;
using Mma = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 2, 2, 64, 64, 128>;
__global__ void f(std::uint8_t* s) {
  typename Mma::FragmentA a;
  Mma::get_slice(int(threadIdx.x)).copy_s2r_A(cc::make_tensor(s, cc::ColMajor<64, 64>{}), 0, a);
}
