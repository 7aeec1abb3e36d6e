// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of named barriers (barrier.*).
// The values under test are the template arguments, so the compiler prints them on the first
// context line.

namespace cute_cpp::diag {

template <int Id, int Threads>
struct named_barrier_plan {
  static_assert(Id >= 0 && Id <= 15, "cute-cpp [barrier.id]: a named barrier id is 0..15");
  static_assert(Threads > 0 && Threads % 32 == 0 && Threads <= 1024,
                "cute-cpp [barrier.threads]: a named barrier's thread count is a multiple of 32 up to 1024");
  static constexpr bool ok = true;
};

/// Rule barrier.ids: a kernel's named-barrier users ask for IdsUsed ids, handed out from 1.
template <int IdsUsed>
struct named_barrier_ids {
  static_assert(IdsUsed <= 15,
                "cute-cpp [barrier.ids]: a CTA has named barriers 1..15 besides __syncthreads' 0; the kernel's "
                "users ask for more");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
