// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Threads (4,8):(1,2) map both (2,0) and (0,1) to thread 2: its value 0 would be copied twice.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.tv\.coverage.*\n.*with TileM=4, TileN=64, Threads=32, Values=8, BadThread=2, BadValue=0, Hits=2"}}
namespace cc = cute_cpp;
using Bad = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, short>,
                          cc::Layout<cc::Shape<cc::C<4>, cc::C<8>>, cc::Stride<cc::C<1>, cc::C<2>>>,
                          cc::Layout<cc::Shape<cc::C<1>, cc::C<8>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
static_assert(Bad::threads == 32);
