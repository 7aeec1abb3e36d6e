// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A 16-byte atom moves 8 bf16 values, but each thread owns only 4 contiguous ones.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.atom\.vector-width.*\n.*with AtomBytes=16, ElemBytes=2, ContiguousValues=4"}}
namespace cc = cute_cpp;
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, cc::bf16>,
                           cc::Layout<cc::Shape<cc::C<8>, cc::C<4>>, cc::Stride<cc::C<4>, cc::C<1>>>,
                           cc::Layout<cc::Shape<cc::C<1>, cc::C<4>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
void f(cc::bf16 const* src, cc::bf16* dst) {
  auto thr = Copy::get_slice(0);
  cc::copy(Copy{}, thr.partition_S(cc::make_tensor(src, cc::RowMajor<8, 16>{})), thr.partition_D(cc::make_tensor(dst, cc::RowMajor<8, 16>{})));
}
