// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A TiledCopy's value layout is (VM,VN); a rank-1 layout of 8 values is rejected.
#include <cute_cpp/copy/tiled_copy.hpp>
// expected-error {{"copy\.tv\.rank.*\n.*with ThrRank=2, ValRank=1"}}
namespace cc = cute_cpp;
using Bad = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, short>,
                          cc::Layout<cc::Shape<cc::C<8>, cc::C<4>>, cc::Stride<cc::C<4>, cc::C<1>>>,
                          cc::Layout<cc::Shape<cc::C<8>>, cc::Stride<cc::C<1>>>>;
static_assert(Bad::threads == 32);
