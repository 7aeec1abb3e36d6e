// SPDX-License-Identifier: Apache-2.0
// models/common/unicode_text.cpp: UTF-8, the regex classes and NFC (unicode_text.hpp). What NFC must
// reproduce is Unicode's canonical decomposition, ordering and composition (UAX #15), from the
// tables tools/gen_unicode_tables.py writes.
#include "models/common/unicode_text.hpp"

#include <algorithm>  // std::upper_bound, std::lower_bound, std::stable_sort
#include <array>      // std::array
#include <cstdint>    // std::uint8_t
#include <iterator>   // std::prev
#include <utility>    // std::pair
#include <vector>     // std::vector

namespace cute_cpp::models::text {

using unicode::RegexClass;

namespace {

RegexClass regex_class_in_tables(char32_t c) noexcept {
  auto const ranges = unicode::regex_class_ranges();
  auto const it = std::upper_bound(ranges.begin(), ranges.end(), c,
                                   [](char32_t v, const unicode::ClassRange& r) { return v < r.first; });
  if (it == ranges.begin() || std::prev(it)->last < c) return RegexClass::other;
  return std::prev(it)->cls;
}

std::uint8_t combining_class(char32_t c) noexcept {
  if (c < 0x300) return 0;
  auto const ranges = unicode::combining_class_ranges();
  auto const it = std::upper_bound(ranges.begin(), ranges.end(), c,
                                   [](char32_t v, const unicode::CombiningClassRange& r) { return v < r.first; });
  if (it == ranges.begin() || std::prev(it)->last < c) return 0;
  return std::prev(it)->ccc;
}

bool nfc_quick_check_yes(char32_t c) noexcept {
  if (c < 0x300) return true;  // the generator asserts that nothing below U+0300 is listed
  auto const ranges = unicode::nfc_quick_check_ranges();
  auto const it = std::upper_bound(ranges.begin(), ranges.end(), c,
                                   [](char32_t v, const unicode::CodeRange& r) { return v < r.first; });
  return it == ranges.begin() || std::prev(it)->last < c;
}

// Hangul syllables decompose and compose by arithmetic (Unicode ch. 3.12), not by table.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kSCount = kLCount * kVCount * kTCount;

void decompose(char32_t c, std::vector<char32_t>& out) {
  if (c >= kSBase && c < kSBase + kSCount) {
    char32_t const s = c - kSBase;
    out.push_back(kLBase + s / (kVCount * kTCount));
    out.push_back(kVBase + (s % (kVCount * kTCount)) / kTCount);
    if (s % kTCount != 0) out.push_back(kTBase + s % kTCount);
    return;
  }
  auto const table = unicode::canonical_decompositions();
  auto const it = std::lower_bound(table.begin(), table.end(), c,
                                   [](const unicode::Decomposition& d, char32_t v) { return d.code < v; });
  if (it == table.end() || it->code != c) {
    out.push_back(c);
    return;
  }
  decompose(it->first, out);
  if (it->second != 0) decompose(it->second, out);
}

/// The primary composite of a + b, or 0.
char32_t compose(char32_t a, char32_t b) noexcept {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase && b < kTBase + kTCount)
    return a + (b - kTBase);
  auto const table = unicode::canonical_compositions();
  auto const it = std::lower_bound(table.begin(), table.end(), std::pair{a, b},
                                   [](const unicode::Composition& x, std::pair<char32_t, char32_t> v) {
                                     return std::pair{x.first, x.second} < v;
                                   });
  return it != table.end() && it->first == a && it->second == b ? it->composite : 0;
}

}  // namespace

char32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
  auto const b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int const len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2;
  char32_t c = b0 & (0x7F >> len);
  for (int k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return c;
}

std::size_t previous_start(std::string_view s, std::size_t i) noexcept {
  --i;
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

int utf8_sequence(std::string_view s, std::size_t i) noexcept {
  auto const b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  int len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range allowed for the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return -1;
  }
  for (int k = 1; k < len; ++k) {
    if (i + k >= s.size()) return -k;
    auto const b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return -k;
  }
  return len;
}

std::size_t first_invalid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    int const n = utf8_sequence(s, i);
    if (n < 0) return i;
    i += static_cast<std::size_t>(n);
  }
  return std::string_view::npos;
}

// ---- Unicode tables ----

RegexClass regex_class(char32_t c) noexcept {
  // NOTE: most text is ASCII; a flat table (filled from the generated ranges) skips the search.
  static const std::array<RegexClass, 128> ascii = [] {
    std::array<RegexClass, 128> t{};
    for (char32_t k = 0; k < 128; ++k) t[k] = regex_class_in_tables(k);
    return t;
  }();
  return c < 128 ? ascii[c] : regex_class_in_tables(c);
}

bool is_white_space(char32_t c) noexcept { return regex_class(c) == RegexClass::space; }

bool is_nfc_quick(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    if (!nfc_quick_check_yes(next_code_point(s, i))) return false;
  }
  return true;
}

std::string nfc(std::string_view text) {
  if (is_nfc_quick(text)) return std::string(text);
  std::vector<char32_t> cps;
  cps.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) decompose(next_code_point(text, i), cps);
  // Canonical order: a stable sort of each run of non-starters by combining class.
  for (std::size_t i = 0; i < cps.size();) {
    if (combining_class(cps[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < cps.size() && combining_class(cps[j]) != 0) ++j;
    std::stable_sort(cps.begin() + static_cast<std::ptrdiff_t>(i), cps.begin() + static_cast<std::ptrdiff_t>(j),
                     [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    i = j;
  }
  // Canonical composition: each character joins the last starter unless blocked, i.e. unless a
  // character between them has class 0 or a class >= its own.
  std::vector<char32_t> out;
  out.reserve(cps.size());
  std::ptrdiff_t starter = -1;
  std::uint8_t last_class = 0;
  for (char32_t const c : cps) {
    std::uint8_t const cc = combining_class(c);
    bool const adjacent = starter >= 0 && static_cast<std::size_t>(starter) + 1 == out.size();
    if (starter >= 0 && (last_class < cc || (last_class == 0 && adjacent))) {
      if (char32_t const composite = compose(out[static_cast<std::size_t>(starter)], c); composite != 0) {
        out[static_cast<std::size_t>(starter)] = composite;
        continue;
      }
    }
    if (cc == 0) starter = static_cast<std::ptrdiff_t>(out.size());
    last_class = cc;
    out.push_back(c);
  }
  std::string s;
  s.reserve(text.size());
  for (char32_t const c : out) append_utf8(s, c);
  return s;
}

std::string utf8_lossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    int const n = utf8_sequence(bytes, i);
    if (n > 0) {
      out.append(bytes.substr(i, static_cast<std::size_t>(n)));
      i += static_cast<std::size_t>(n);
    } else {
      out += "\xEF\xBF\xBD";
      i += static_cast<std::size_t>(-n);
    }
  }
  return out;
}

}  // namespace cute_cpp::models::text
