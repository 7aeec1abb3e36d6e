// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: parse_json on arbitrary bytes. Bad input must be an error, never a crash, an
// out-of-bounds read, unbounded recursion or a hang (JsonLimits bounds depth and size).
#include "models/common/json.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  try {
    auto const doc = cute_cpp::models::parse_json(text, "fuzz.json");
    (void)doc.kind();
  } catch (std::invalid_argument const&) {
  }
  return 0;
}
