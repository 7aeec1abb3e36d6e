// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A 16-byte vector copy from a row-major tile into a column-major one: no mode is contiguous in both.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.atom\.contiguous.*\n.*with AtomElems=8, Mode0Unit=false, Mode1Unit=false"}}
namespace cc = cute_cpp;
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, cc::bf16>,
                           cc::Layout<cc::Shape<cc::C<8>, cc::C<4>>, cc::Stride<cc::C<4>, cc::C<1>>>,
                           cc::Layout<cc::Shape<cc::C<1>, cc::C<8>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
void f(cc::bf16 const* src, cc::bf16* dst) {
  auto thr = Copy::get_slice(0);
  cc::copy(Copy{}, thr.partition_S(cc::make_tensor(src, cc::RowMajor<8, 32>{})),
           thr.partition_D(cc::make_tensor(dst, cc::ColMajor<8, 32>{})));
}
