// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Threads (4,8):(16,1) name thread 32 at (2,0) though the layout has 32 threads: a gap.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.tv\.coverage.*\n.*BadThread=32, BadValue=0, Hits=-1"}}
namespace cc = cute_cpp;
using Bad = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, short>,
                          cc::Layout<cc::Shape<cc::C<4>, cc::C<8>>, cc::Stride<cc::C<16>, cc::C<1>>>,
                          cc::Layout<cc::Shape<cc::C<1>, cc::C<8>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
static_assert(Bad::threads == 32);
