// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Correctness helpers shared by the examples: fresh random inputs (never zeros), and an
// elementwise comparison that counts every element, unwritten (NaN-poisoned) ones included.
#include "tests/support/parallel.hpp"  // parallel_for

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cute_cpp::kernels {

/// A seed that differs on every run, printed so that a failure can be replayed.
inline std::uint64_t fresh_seed() {
  std::uint64_t const seed = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ std::random_device{}();
  return seed;
}

/// n values uniform in [lo, hi) with no exact zeros, converted to T. One draw from rng seeds a
/// counter-based stream (splitmix64 of the seed and the index), so that a model's 10^9 weights fill
/// on every core and a run's seed still replays them.
template <class T>
std::vector<T> random_values(std::size_t n, std::mt19937_64& rng, double lo = -2.0, double hi = 2.0) {
  std::uint64_t const seed = rng();
  std::vector<T> values(n);
  constexpr std::size_t chunk = std::size_t(1) << 16;
  test::parallel_for((n + chunk - 1) / chunk, [&](std::size_t c) {
    for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
      std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      double x = lo + (hi - lo) * (double(z >> 11) * 0x1.0p-53);
      if (x == 0.0) x = 0.5;
      values[i] = static_cast<T>(static_cast<float>(x));
    }
  });
  return values;
}

/// The result of comparing every element with a reference.
struct CheckResult {
  std::size_t checked = 0;
  std::size_t bad = 0;
  std::size_t first_bad = 0;
  double worst_error = 0.0;
  double got_at_first_bad = 0.0;
  double want_at_first_bad = 0.0;

  [[nodiscard]] bool ok() const { return bad == 0 && checked > 0; }
  [[nodiscard]] std::string summary() const {
    char text[256];
    if (ok()) {
      std::snprintf(text, sizeof text, "all %zu elements within tolerance (worst error %.3g)", checked, worst_error);
    } else {
      std::snprintf(text, sizeof text, "%zu of %zu elements wrong; first at %zu: got %.9g, want %.9g", bad, checked,
                    first_bad, got_at_first_bad, want_at_first_bad);
    }
    return text;
  }
};

/// The relative tolerance of a row kernel's output of type T computed in f32: a few units in
/// the last place of T.
template <class T>
constexpr double row_kernel_rtol() {
  if constexpr (std::is_same_v<T, float>) return 1e-5;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return 1.0 / 64;
  else return 1.0 / 512;
}

/// check.template operator()<T>() for the row kernels' element types, bf16, f16 and f32, in
/// that order, stopping at the first that fails.
template <class Check>
bool check_row_types(Check&& check) {
  return check.template operator()<__nv_bfloat16>() && check.template operator()<__half>() &&
         check.template operator()<float>();
}

/// |got - want| <= atol(i) + rtol * |want| for every element i; NaN never passes.
template <class T, class Atol>
CheckResult check_close_each(std::span<T const> got, std::span<double const> want, double rtol, Atol const& atol) {
  CheckResult result;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double const g = i < got.size() ? static_cast<double>(static_cast<float>(got[i])) : NAN;
    double const error = std::fabs(g - want[i]);
    bool const good = error <= atol(i) + rtol * std::fabs(want[i]);  // false for NaN
    if (!good) {
      if (result.bad == 0) {
        result.first_bad = i;
        result.got_at_first_bad = g;
        result.want_at_first_bad = want[i];
      }
      ++result.bad;
    } else if (error > result.worst_error) {
      result.worst_error = error;
    }
    ++result.checked;
  }
  return result;
}

/// |got - want| <= atol + rtol * |want| for every element; NaN never passes.
template <class T>
CheckResult check_close(std::span<T const> got, std::span<double const> want, double rtol, double atol) {
  return check_close_each(got, want, rtol, [atol](std::size_t) { return atol; });
}

/// Whether `call()` refuses its arguments with std::invalid_argument naming `rule` ("[id]"), as a
/// check line: "ok", "WRONG RULE" (another rule's error) or "NOT RAISED".
template <class Call>
bool expect_rule(char const* rule, Call&& call) {
  try {
    call();
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find(rule) != std::string::npos;
    std::printf("  error %-32s %s: %s\n", rule, named ? "ok" : "WRONG RULE", e.what());
    return named;
  }
  std::printf("  error %-32s NOT RAISED\n", rule);
  return false;
}

}  // namespace cute_cpp::kernels
