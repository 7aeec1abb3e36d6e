// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cp.async copies global to shared memory only: copy_s2g with a CopyG2SOp plan is rejected.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.atom\.direction"}}
namespace cc = cute_cpp;
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyG2SOp<16>, cc::bf16>,
                           cc::Layout<cc::Shape<cc::C<8>, cc::C<4>>, cc::Stride<cc::C<4>, cc::C<1>>>,
                           cc::Layout<cc::Shape<cc::C<1>, cc::C<8>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
__global__ void f(cc::bf16 const* src, cc::bf16* dst) {
  auto thr = Copy::get_slice(int(threadIdx.x));
  cc::copy_s2g(Copy{}, thr.partition_S(cc::make_tensor(src, cc::RowMajor<8, 32>{})), thr.partition_D(cc::make_tensor(dst, cc::RowMajor<8, 32>{})));
}
