// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// FastDivmod: division of 31-bit unsigned values by a divisor fixed for a launch, as a multiply-high
// and a shift whose constants the host computes (Granlund and Montgomery's method with the
// multiplier rounded up). A kernel that divides by a run-time divisor otherwise derives those
// constants itself, and a persistent kernel keeps them in registers for its whole life (or
// spills them); passed as a kernel parameter they stay in the constant bank.
// CuTeDSL: cute.fast_divmod / FastDivmodDivisor (CUTLASS C++: cutlass::FastDivmod).
#include <cute_cpp/config.hpp>

#include <cstdint>

namespace cute_cpp {

/// Division by `divisor` (>= 1) of values below 2^31.
struct FastDivmod {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 0;  ///< 0: the divisor is 1
  std::uint32_t shift = 0;

  constexpr FastDivmod() = default;
  /// @pre 1 <= d < 2^31
  constexpr explicit FastDivmod(std::uint32_t d) : divisor(d) {
    if (d <= 1) return;
    std::uint32_t log2_ceil = 0;
    while ((std::uint64_t{1} << log2_ceil) < d) ++log2_ceil;
    // p = 31 + ceil(log2 d): m = ceil(2^p / d) < 2^32, and n * m >> p is exact for n < 2^31.
    std::uint32_t const p = 31 + log2_ceil;
    multiplier = std::uint32_t(((std::uint64_t{1} << p) + d - 1) / d);
    shift = p - 32;
  }

  /// n / divisor, for n < 2^31.
  [[nodiscard]] CUTE_CPP_HD constexpr std::uint32_t divide(std::uint32_t n) const {
    if (multiplier == 0) return n;
#if defined(__CUDA_ARCH__)
    return __umulhi(n, multiplier) >> shift;
#else
    return std::uint32_t((std::uint64_t(n) * multiplier) >> 32) >> shift;
#endif
  }
  /// n / divisor and n % divisor, for n < 2^31.
  CUTE_CPP_HD constexpr void divmod(std::uint32_t n, std::uint32_t& quotient, std::uint32_t& remainder) const {
    quotient = divide(n);
    remainder = n - quotient * divisor;
  }
};

}  // namespace cute_cpp
