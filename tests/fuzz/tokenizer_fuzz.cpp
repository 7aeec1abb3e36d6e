// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: the tokenizer. The first byte picks what the rest is:
//   even  a tokenizer.json document for Tokenizer::from_json (a bad one is an error naming the rule);
//   odd   text for a fixed byte-level BPE tokenizer: encode must not crash, and for valid UTF-8,
//         decode(encode(text)) is the text (byte-level BPE without a normalizer loses nothing).
#include "cpu/models/tokenizer_json.hpp"
#include "models/common/tokenizer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

cute_cpp::models::Tokenizer const& fixed_tokenizer() {
  static cute_cpp::models::Tokenizer const tokenizer = [] {
    cute_cpp::test::Spec s;
    s.tokens = {"he", "ll", "hell", "hello", " w", "or", " wor", "ld", " world", "12", "123", "\xc3\xa9", "\xc3\xa9t"};
    s.merges = {{"h", "e"},      {"l", "l"},   {"he", "ll"}, {"hell", "o"}, {" ", "w"},
                {"o", "r"},      {" w", "or"}, {"l", "d"},   {" wor", "ld"}, {"1", "2"},
                {"12", "3"},     {"\xc3", "\xa9"}, {"\xc3\xa9", "t"}};
    s.normalizer = "null";
    return cute_cpp::models::Tokenizer::from_json(cute_cpp::test::make_json(s), "fuzz.json");
  }();
  return tokenizer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view const rest(reinterpret_cast<char const*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    try {
      (void)cute_cpp::models::Tokenizer::from_json(rest, "fuzz.json");
    } catch (std::invalid_argument const&) {
    }
    return 0;
  }
  auto const& tokenizer = fixed_tokenizer();
  std::vector<std::int32_t> ids;
  try {
    ids = tokenizer.encode(rest);
  } catch (std::invalid_argument const&) {
    return 0;  // not UTF-8: an error naming the rule
  }
  if (tokenizer.decode(ids) != rest) std::abort();
  return 0;
}
