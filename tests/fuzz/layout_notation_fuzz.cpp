// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: the layout notation parser on arbitrary text. A parse either fails with the
// rule's error or yields a value whose printed form parses back to the same printed form.
#include <cute_cpp/layout/notation.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

template <class Parse>
void round_trip(std::string_view text, Parse parse) {
  std::string printed;
  try {
    printed = cute_cpp::to_string(parse(text));
  } catch (std::invalid_argument const&) {
    return;  // rejected input, with a message naming the rule
  }
  // What was printed must parse, and print the same.
  if (cute_cpp::to_string(parse(printed)) != printed) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  round_trip(text, [](std::string_view s) { return cute_cpp::parse_int_tuple(s); });
  round_trip(text, [](std::string_view s) { return cute_cpp::parse_layout_value(s); });
  round_trip(text, [](std::string_view s) { return cute_cpp::parse_tiler(s); });
  return 0;
}
