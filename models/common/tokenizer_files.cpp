// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer_files.cpp: a Qwen2 tokenizer.json from vocab.json, merges.txt and
// tokenizer_config.json (tokenizer_files.hpp).
#include "models/common/tokenizer_files.hpp"

#include <algorithm>  // std::sort
#include <charconv>   // std::from_chars
#include <cstdio>     // std::snprintf
#include <fstream>    // std::ifstream
#include <sstream>    // std::ostringstream
#include <utility>    // std::pair
#include <vector>     // std::vector

#include "models/common/error.hpp"          // LoadError, in_quotes
#include "models/common/pre_tokenizer.hpp"  // text::qwen2_regex

namespace cute_cpp::models {

namespace {
constexpr char kRuleFiles[] =
    "cute-cpp [tokenizer.files]: a tokenizer folder holds tokenizer.json, or vocab.json and merges.txt";
constexpr char kRuleMerges[] = "cute-cpp [tokenizer.merges]: each line of merges.txt is two tokens";
constexpr char kRuleAdded[] =
    "cute-cpp [tokenizer.added-token]: added_tokens_decoder's keys are token ids and its entries have content";

/// `s` as a JSON string literal.
std::string json_quoted(std::string_view s) {
  std::string out = "\"";
  for (char const ch : s) {
    auto const c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\', out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  if (!f) throw LoadError(kRuleFiles, path.string() + ": cannot be read");
  return s.str();
}

std::string merges_array(std::string_view merges_txt) {
  std::string out = "[";
  bool first_line = true, first_merge = true;
  std::size_t line_no = 0;
  while (!merges_txt.empty()) {
    std::size_t const end = merges_txt.find('\n');
    std::string_view line = merges_txt.substr(0, end);
    merges_txt = end == std::string_view::npos ? std::string_view() : merges_txt.substr(end + 1);
    ++line_no;
    auto const space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    while (!line.empty() && space(line.front())) line.remove_prefix(1);
    while (!line.empty() && space(line.back())) line.remove_suffix(1);
    bool const header = first_line && line.starts_with("#version:");
    first_line = false;
    if (header || line.empty()) continue;
    std::vector<std::string_view> parts;
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && space(line[i])) ++i;
      std::size_t j = i;
      while (j < line.size() && !space(line[j])) ++j;
      if (j > i) parts.push_back(line.substr(i, j - i));
      i = j;
    }
    if (parts.size() != 2)
      throw LoadError(kRuleMerges, "merges.txt line " + std::to_string(line_no) + " has " +
                                       std::to_string(parts.size()) + " tokens, expected 2");
    out += (first_merge ? "" : ", ") + json_quoted(std::string(parts[0]) + " " + std::string(parts[1]));
    first_merge = false;
  }
  return out + "]";
}

std::string added_tokens_array(const Json& config) {
  auto const* decoder = config.find("added_tokens_decoder");
  if (decoder == nullptr || decoder->is_null()) return "[]";
  std::vector<std::pair<std::int64_t, const Json*>> entries;
  for (auto const& [key, entry] : decoder->as_object()) {
    std::int64_t id = -1;
    auto const [end, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
    if (ec != std::errc() || end != key.data() + key.size() || id < 0)
      throw LoadError(kRuleAdded, config.source() + ": added_tokens_decoder key " + in_quotes(key) + " is not a token id");
    entries.emplace_back(id, &entry);
  }
  std::sort(entries.begin(), entries.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
  std::string out = "[";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Json const& e = *entries[i].second;
    auto const flag = [&](std::string_view key, bool absent) {
      auto const* v = e.find(key);
      return v == nullptr || v->is_null() ? absent : v->as_bool();
    };
    out += (i ? ", " : "") + std::string("{\"id\": ") + std::to_string(entries[i].first) +
           ", \"content\": " + json_quoted(e.at("content").as_string()) + ", \"single_word\": false" +
           ", \"lstrip\": " + (flag("lstrip", false) ? "true" : "false") +
           ", \"rstrip\": " + (flag("rstrip", false) ? "true" : "false") +
           ", \"normalized\": " + (flag("normalized", false) ? "true" : "false") +
           ", \"special\": " + (flag("special", true) ? "true" : "false") + "}";
  }
  return out + "]";
}
}  // namespace

std::string qwen2_tokenizer_json(std::string_view vocab_json, std::string_view merges_txt,
                                 const Json& tokenizer_config) {
  std::string const byte_level =
      R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false})";
  return std::string(R"({"version": "1.0", "truncation": null, "padding": null, "added_tokens": )") +
         added_tokens_array(tokenizer_config) + R"(, "normalizer": {"type": "NFC"}, )" +
         R"("pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Split", "pattern": {"Regex": )" +
         json_quoted(text::qwen2_regex) + R"(}, "behavior": "Isolated", "invert": false}, )" + byte_level + "]}, " +
         R"("post_processor": )" + byte_level + R"(, "decoder": )" + byte_level + ", " +
         R"("model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": "", )" +
         R"("end_of_word_suffix": "", "fuse_unk": false, "byte_fallback": false, "ignore_merges": false, )" +
         R"("vocab": )" + std::string(vocab_json) + R"(, "merges": )" + merges_array(merges_txt) + "}}";
}

Tokenizer load_tokenizer(const std::filesystem::path& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec) || std::filesystem::exists(folder / "tokenizer.json", ec))
    return Tokenizer::from_file(folder);
  auto const vocab = folder / "vocab.json", merges = folder / "merges.txt", config = folder / "tokenizer_config.json";
  if (!std::filesystem::exists(vocab, ec) || !std::filesystem::exists(merges, ec))
    throw LoadError(kRuleFiles, folder.string() + ": no tokenizer.json, and no vocab.json and merges.txt either");
  Json const settings = std::filesystem::exists(config, ec) ? read_json_file(config) : parse_json("{}", "tokenizer_config.json");
  return Tokenizer::from_json(qwen2_tokenizer_json(read_text(vocab), read_text(merges), settings),
                              (folder / "vocab.json").string());
}

}  // namespace cute_cpp::models
