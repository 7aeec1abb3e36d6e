// SPDX-License-Identifier: Apache-2.0
// tests/cpu/models/tokenizer_check.cpp: the C++ half of the cross-check with the Python
// `tokenizers` package (tokenizer_reference.py). Loads a tokenizer.json with Tokenizer::from_file,
// runs the cases of a JSON file and prints one line per case, which the script compares with what
// tokenizers gives:
//   models_tokenizer_check <tokenizer.json> <cases.json>
//   cases.json: {"encode": [{"text": "...", "add_special_tokens": false}, ...],
//                "decode": [{"ids": [1, 2], "skip_special_tokens": false}, ...]}
//   output:     "E <id> <id> ..." per encode case, then "D <hex of the UTF-8 bytes>" per decode case.
// Exit status 0; 3 with "LOAD-ERROR <message>" when the tokenizer.json is rejected; 1 on any other
// error. The encoding time goes to stderr.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/json.hpp"
#include "models/common/tokenizer.hpp"

namespace cm = cute_cpp::models;

namespace {
std::string hex(std::string_view s) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    auto const b = static_cast<unsigned char>(ch);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <tokenizer.json> <cases.json>\n", argv[0]);
    return 2;
  }
  std::optional<cm::Tokenizer> tok;
  try {
    tok.emplace(cm::Tokenizer::from_file(argv[1]));
  } catch (const cm::LoadError& e) {
    std::printf("LOAD-ERROR %s\n", e.what());
    return 3;
  }
  try {
    auto const cases = cm::read_json_file(argv[2]);
    std::string out;
    std::size_t bytes = 0;
    auto const t0 = std::chrono::steady_clock::now();
    for (auto const& c : cases.at("encode").as_array()) {
      auto const& text = c.at("text").as_string();
      bytes += text.size();
      out += 'E';
      for (auto const id : tok->encode(text, c.at("add_special_tokens").as_bool())) out += ' ' + std::to_string(id);
      out += '\n';
    }
    auto const t1 = std::chrono::steady_clock::now();
    for (auto const& c : cases.at("decode").as_array()) {
      std::vector<std::int32_t> ids;
      for (auto const& id : c.at("ids").as_array()) ids.push_back(static_cast<std::int32_t>(id.as_int()));
      out += "D " + hex(tok->decode(ids, c.at("skip_special_tokens").as_bool())) + '\n';
    }
    std::fputs(out.c_str(), stdout);
    double const ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    std::fprintf(stderr, "encoded %zu bytes in %.1f ms (%.1f MB/s)\n", bytes, ms, ms > 0 ? bytes / ms / 1e3 : 0.0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR %s\n", e.what());
    return 1;
  }
  return 0;
}
