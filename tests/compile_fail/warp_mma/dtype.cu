// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// MmaF16BF16Op takes f16 or bf16 operands; float operands need MmaTF32Op.
#include <cute_cpp/mma/mma_sync.hpp>
// expected-error {{"mma\.warp\.dtype.*\n.*with ABBytes=4, Allowed=false"}}
namespace cc = cute_cpp;
static_assert(cc::warp::MmaF16BF16Op<float>::k == 16);
