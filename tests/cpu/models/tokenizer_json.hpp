// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Test tokenizer.json documents in Qwen2/Qwen3's format (byte-level BPE: the 256 byte characters
// first, id = byte value), shared by the tokenizer's and the chat prompt's tests, and token-id
// helpers: with no merges each byte is its own id, so expected encodings are written as bytes.
#include "models/common/pre_tokenizer.hpp"  // text::byte_to_unicode

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cute_cpp::test {

using Ids = std::vector<std::int32_t>;

/// The ids of `s` under a vocabulary whose first 256 ids are the bytes.
inline Ids bytes_of(std::string_view s) {
  Ids ids;
  for (char ch : s) ids.push_back(static_cast<unsigned char>(ch));
  return ids;
}

/// The parts one after another.
inline Ids concat(std::initializer_list<Ids> parts) {
  Ids out;
  for (auto const& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

/// Qwen2's pre-tokenizer regex (Qwen3 uses it too).
inline constexpr char kQwen2Regex[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

inline std::string utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

/// A byte string in the byte-level alphabet, as tokenizer.json spells its tokens.
inline std::string mapped(std::string_view raw) {
  std::string s;
  for (char ch : raw) s += utf8(models::text::byte_to_unicode(static_cast<std::uint8_t>(ch)));
  return s;
}

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(ch));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

/// What a test tokenizer.json holds: the 256 byte characters (id = byte value), then `tokens`
/// (raw bytes, ids from 256), merges of raw byte strings, and the other parts as JSON text.
struct Spec {
  std::vector<std::string> tokens;
  std::vector<std::pair<std::string, std::string>> merges;
  bool pair_merges = false;
  std::string added_tokens = "[]";
  std::string normalizer = R"({"type": "NFC"})";
  std::string regex = kQwen2Regex;
  std::string byte_level =
      R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false})";
  std::string post_processor =
      R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false})";
  std::string decoder =
      R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false})";
  std::string model_type = "BPE";
  std::string model_extra =
      R"("dropout": null, "unk_token": null, "continuing_subword_prefix": "", )"
      R"("end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": false, )";
  std::string truncation = "null";
  std::string top_extra;
};

inline std::string make_json(const Spec& s) {
  std::string vocab;
  for (int b = 0; b < 256; ++b)
    vocab += (b ? ", " : "") + json_string(mapped(std::string(1, static_cast<char>(b)))) + ": " + std::to_string(b);
  for (std::size_t i = 0; i < s.tokens.size(); ++i)
    vocab += ", " + json_string(mapped(s.tokens[i])) + ": " + std::to_string(256 + i);
  std::string merges;
  for (auto const& [a, b] : s.merges) {
    if (!merges.empty()) merges += ", ";
    merges += s.pair_merges ? "[" + json_string(mapped(a)) + ", " + json_string(mapped(b)) + "]"
                            : json_string(mapped(a) + " " + mapped(b));
  }
  return R"({"version": "1.0", "truncation": )" + s.truncation + R"(, "padding": null, )" + s.top_extra +
         R"("added_tokens": )" + s.added_tokens + R"(, "normalizer": )" + s.normalizer +
         R"(, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": )" +
         json_string(s.regex) + R"(}, "behavior": "Isolated", "invert": false}, )" + s.byte_level +
         R"(]}, "post_processor": )" + s.post_processor + R"(, "decoder": )" + s.decoder + R"(, "model": {"type": ")" +
         s.model_type + R"(", )" + s.model_extra + R"("vocab": {)" + vocab + R"(}, "merges": [)" + merges + "]}}";
}

inline std::string added(int id, std::string_view content, bool special, bool normalized = false,
                         bool lstrip = false,
                  bool rstrip = false, bool single_word = false) {
  auto b = [](bool v) { return v ? "true" : "false"; };
  return R"({"id": )" + std::to_string(id) + R"(, "content": )" + json_string(content) + R"(, "single_word": )" +
         b(single_word) + R"(, "lstrip": )" + b(lstrip) + R"(, "rstrip": )" + b(rstrip) + R"(, "normalized": )" +
         b(normalized) + R"(, "special": )" + b(special) + "}";
}

}  // namespace cute_cpp::test
