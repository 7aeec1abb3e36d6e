// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the epilogue's cross-CTA reductions (split-k.*).
// The values under test are the template arguments, so the compiler prints them on the first
// context line.

namespace cute_cpp::diag {

template <int Floats>
struct split_k_fragment {
  static_assert(Floats % 4 == 0,
                "cute-cpp [split-k.fragment]: a thread's accumulators are moved in float4s: Floats % 4 == 0");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
