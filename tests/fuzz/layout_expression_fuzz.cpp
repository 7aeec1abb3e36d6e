// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: the layout tool's evaluator (`op(arg, ...)` in notation) on arbitrary text.
// Bad input must be an error naming the rule, never a crash, undefined behaviour or a hang.
#include <cute_cpp/layout/expression.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  try {
    (void)cute_cpp::evaluate_layout_expression(text);
  } catch (std::invalid_argument const&) {
  }
  return 0;
}
