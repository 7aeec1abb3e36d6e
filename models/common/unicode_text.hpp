// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/unicode_text.hpp: the UTF-8 and Unicode pieces the tokenizer stands on: code points
// read and written, well-formedness (Unicode's maximal subparts, as Rust's from_utf8_lossy), the
// pre-tokenizer regex's character classes and NFC, from the generated tables (unicode_tables.hpp).
#include <cstddef>      // std::size_t
#include <string>       // std::string
#include <string_view>  // std::string_view

#include "models/common/unicode_tables.hpp"  // unicode::RegexClass

namespace cute_cpp::models::text {

/// The code point at s[i] of valid UTF-8; advances i past it.
char32_t next_code_point(std::string_view s, std::size_t& i) noexcept;
/// The start of the code point that ends at s[i - 1] of valid UTF-8.
std::size_t previous_start(std::string_view s, std::size_t i) noexcept;
/// Appends c's UTF-8 bytes.
void append_utf8(std::string& out, char32_t c);
/// Bytes of the well-formed sequence starting at s[i], or the length of its maximal ill-formed
/// subpart as a negative number (Unicode's "U+FFFD substitution of maximal subparts", which is
/// what Rust's from_utf8_lossy does).
int utf8_sequence(std::string_view s, std::size_t i) noexcept;
/// The byte offset of the first ill-formed sequence, or npos.
std::size_t first_invalid_utf8(std::string_view s) noexcept;

/// The pre-tokenizer regex's class of c (letter, number, white space, other).
unicode::RegexClass regex_class(char32_t c) noexcept;
/// Whether c is white space (\s).
bool is_white_space(char32_t c) noexcept;

/// Whether valid UTF-8 text is NFC by the quick check alone (every character "yes").
bool is_nfc_quick(std::string_view s) noexcept;
/// Unicode NFC of valid UTF-8 text.   nfc("e\u0301")  ->  "\u00e9"
[[nodiscard]] std::string nfc(std::string_view text);
/// Bytes to UTF-8 with each maximal ill-formed subpart replaced by U+FFFD (Rust's from_utf8_lossy).
[[nodiscard]] std::string utf8_lossy(std::string_view bytes);

}  // namespace cute_cpp::models::text
