// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/pre_tokenizer.hpp: byte-level BPE's text side: GPT-2's byte-level alphabet and the
// pre-tokenizer regexes of Qwen2 (\p{N}) and Llama 3 (\p{N}{1,3}), matched by hand over the
// generated character classes as a backtracking engine would (checked against `tokenizers` by
// tests/cpu/models/tokenizer_reference.py).
#include <algorithm>    // std::max
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t
#include <optional>     // std::optional
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/unicode_text.hpp"  // next_code_point, regex_class

namespace cute_cpp::models::text {

/// The Split patterns match_at implements, as tokenizer.json holds them once its escapes are read:
/// Qwen2's (max_digits 1) and Llama 3's (\p{N}{1,3}, max_digits 3).
inline constexpr std::string_view qwen2_regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
inline constexpr std::string_view llama3_regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+)"
    R"(|\s+(?!\S)|\s+)";

/// GPT-2's byte-level alphabet: bytes 0x21-0x7E, 0xA1-0xAC and 0xAE-0xFF stand for themselves;
/// the other 68 bytes, in order, for U+0100 upwards.
///   byte_to_unicode(' ')  ->  U+0120 'Ġ'      byte_to_unicode('\n')  ->  U+010A 'Ċ'
[[nodiscard]] char32_t byte_to_unicode(std::uint8_t byte) noexcept;
/// The inverse of byte_to_unicode, or nullopt for a character outside the alphabet.
[[nodiscard]] std::optional<std::uint8_t> unicode_to_byte(char32_t c) noexcept;

/// A code point of the text being split, with its regex class.
struct Cp {
  char32_t c;
  unicode::RegexClass cls;
};

/// The end (a code point index) of the regex's match at i, trying its alternatives in order as a
/// backtracking engine does. Every code point starts a match, so the split has no gaps.
std::size_t match_at(const std::vector<Cp>& t, std::size_t i, int max_digits);

/// Calls f with each pre-token of valid UTF-8 text, in order, for the regex with max_digits (1:
/// Qwen2's, 3: Llama 3's).
template <class F>
void for_each_pre_token(std::string_view text, int max_digits, F&& f) {
  std::vector<Cp> cps;
  std::vector<std::size_t> offsets;
  cps.reserve(text.size());
  offsets.reserve(text.size() + 1);
  for (std::size_t i = 0; i < text.size();) {
    offsets.push_back(i);
    char32_t const c = next_code_point(text, i);
    cps.push_back({c, regex_class(c)});
  }
  offsets.push_back(text.size());
  for (std::size_t i = 0; i < cps.size();) {
    // Never empty: an empty match would loop forever.
    std::size_t const e = std::max(match_at(cps, i, max_digits), i + 1);
    f(text.substr(offsets[i], offsets[e] - offsets[i]));
    i = e;
  }
}

/// The pre-tokens of Qwen2's regex (max_digits 1), or Llama 3's (\p{N}{1,3}, max_digits 3):
///   split_pre_tokens("I'm 42!\n\n  ok")  ->  {"I", "'m", " ", "4", "2", "!\n\n", " ", " ok"}
/// @pre text is valid UTF-8.
[[nodiscard]] std::vector<std::string_view> split_pre_tokens(std::string_view text, int max_digits = 1);

}  // namespace cute_cpp::models::text
