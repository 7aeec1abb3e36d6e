// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A 2-byte atom cannot move 4-byte floats.
#include <cute_cpp/copy/atoms.hpp>
// expected-error {{"copy\.atom\.vector-width.*\n.*with AtomBytes=2, ElemBytes=4"}}
namespace cc = cute_cpp;
constexpr int elems = cc::CopyAtom<cc::CopyUniversalOp<2>, float>::elems;
