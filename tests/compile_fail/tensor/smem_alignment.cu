// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Shared-memory pieces align to powers of two: 48 bytes is rejected.
#include <cute_cpp/smem/allocator.hpp>
// expected-error {{"smem\.alignment.*\n.*with Align=48"}}
namespace cc = cute_cpp;
std::size_t f() {
  cc::SmemAllocator plan;
  plan.allocate<48>(100);
  return plan.size_in_bytes();
}
