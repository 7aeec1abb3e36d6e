// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// ldmatrix reads rows of K: an (M,K) operand tile stored column-major (M contiguous) is rejected.
#include <cute_cpp/mma/mma_sync.hpp>
// expected-error {{"mma\.warp\.smem-k-major.*\n.*with KMajor=false"}}
namespace cc = cute_cpp;
using Mma = cc::TiledMma<cc::warp::MmaF16BF16Op<cc::bf16>, 2, 2, 64, 64, 32>;
__global__ void f(cc::bf16* s) {
  typename Mma::FragmentA a;
  Mma::get_slice(int(threadIdx.x)).copy_s2r_A(cc::make_tensor(s, cc::ColMajor<64, 32>{}), 0, a);
}
