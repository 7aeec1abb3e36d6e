// SPDX-License-Identifier: Apache-2.0
// models/common/pre_tokenizer.cpp: the byte-level alphabet and the pre-tokenizer regex's matcher
// (pre_tokenizer.hpp). What each must reproduce was read from huggingface/tokenizers
// (pre_tokenizers/byte_level.rs) and checked against the Python package.
#include "models/common/pre_tokenizer.hpp"

#include <array>    // std::array
#include <cstdint>  // std::int16_t

namespace cute_cpp::models::text {

using unicode::RegexClass;

namespace {

constexpr bool stands_for_itself(unsigned b) noexcept {
  return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

constexpr std::array<char32_t, 256> kByteToUnicode = [] {
  std::array<char32_t, 256> t{};
  char32_t next = 0x100;
  for (unsigned b = 0; b < 256; ++b) t[b] = stands_for_itself(b) ? char32_t(b) : next++;
  return t;
}();

// The inverse, over U+0000..U+0143 (the 68 remapped bytes end at U+0143); -1 off the alphabet.
constexpr std::array<std::int16_t, 0x144> kUnicodeToByte = [] {
  std::array<std::int16_t, 0x144> t{};
  t.fill(-1);
  for (unsigned b = 0; b < 256; ++b) t[kByteToUnicode[b]] = static_cast<std::int16_t>(b);
  return t;
}();

char32_t ascii_lower(char32_t c) noexcept { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
bool is_cr_lf(char32_t c) noexcept { return c == '\r' || c == '\n'; }

}  // namespace

char32_t byte_to_unicode(std::uint8_t byte) noexcept { return kByteToUnicode[byte]; }

std::optional<std::uint8_t> unicode_to_byte(char32_t c) noexcept {
  if (c >= kUnicodeToByte.size() || kUnicodeToByte[c] < 0) return std::nullopt;
  return static_cast<std::uint8_t>(kUnicodeToByte[c]);
}

std::size_t match_at(const std::vector<Cp>& t, std::size_t i, int max_digits) {
  std::size_t const n = t.size();
  auto is = [&](std::size_t k, RegexClass cls) { return k < n && t[k].cls == cls; };
  auto run = [&](std::size_t k, RegexClass cls) {
    while (is(k, cls)) ++k;
    return k;
  };
  // (?i:'s|'t|'re|'ve|'m|'ll|'d): only ASCII letters fold (checked: "'ſ" does not match).
  if (t[i].c == '\'' && i + 1 < n) {
    char32_t const a = ascii_lower(t[i + 1].c);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return i + 2;
    if (i + 2 < n) {
      char32_t const b = ascii_lower(t[i + 2].c);
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return i + 3;
    }
  }
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (is(i, RegexClass::letter)) return run(i + 1, RegexClass::letter);
  if (!is(i, RegexClass::number) && !is_cr_lf(t[i].c) && is(i + 1, RegexClass::letter))
    return run(i + 2, RegexClass::letter);
  // \p{N}, or \p{N}{1,3}
  if (is(i, RegexClass::number)) {
    std::size_t k = i + 1;
    while (k - i < static_cast<std::size_t>(max_digits) && is(k, RegexClass::number)) ++k;
    return k;
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n]*
  std::size_t k = i;
  if (t[k].c == ' ' && is(k + 1, RegexClass::other)) ++k;
  if (is(k, RegexClass::other)) {
    k = run(k, RegexClass::other);
    while (k < n && is_cr_lf(t[k].c)) ++k;
    return k;
  }
  // What is left starts with white space. \s*[\r\n]+ backtracks to the last CR or LF of the run.
  std::size_t const w = run(i, RegexClass::space);
  for (std::size_t e = w; e > i; --e)
    if (is_cr_lf(t[e - 1].c)) return e;
  // \s+(?!\S) leaves the run's last white space to the word after it; \s+ takes a lone one.
  if (w == n || w - i == 1) return w;
  return w - 1;
}

std::vector<std::string_view> split_pre_tokens(std::string_view text, int max_digits) {
  std::vector<std::string_view> out;
  for_each_pre_token(text, max_digits, [&](std::string_view w) { out.push_back(w); });
  return out;
}

}  // namespace cute_cpp::models::text
