// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Scale factors are read as bytes (four a 32-bit register): a float scale tile is rejected.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.smem-operand.*\n.*with ElementBytes=4, KContiguous=true"}}
namespace cc = cute_cpp;
using Mma = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 2, 2, 64, 64, 128>;
__global__ void f(float* s) {
  typename Mma::FragmentSFA sfa;
  Mma::get_slice(int(threadIdx.x)).copy_s2r_SFA(cc::make_tensor(s, cc::RowMajor<64, 8>{}), 0, sfa);
}
