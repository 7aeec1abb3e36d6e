// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer_files.hpp: a Qwen2 tokenizer from vocab.json, merges.txt and
// tokenizer_config.json gives the ids of the tokenizer.json holding the same vocabulary, merges and
// added tokens (tests/cpu/models/tokenizer_json.hpp's documents), and its errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/json.hpp"
#include "models/common/tokenizer.hpp"
#include "models/common/tokenizer_files.hpp"
#include "tests/cpu/models/st_writer.hpp"
#include "tests/cpu/models/tokenizer_json.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::added;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::json_string;
using cute_cpp::test::make_json;
using cute_cpp::test::mapped;
using cute_cpp::test::Spec;
using cute_cpp::test::write_file;

namespace {

Spec spec() {
  Spec s;
  s.tokens = {"he", "ll", "hell", "hello", " w", " wo", "or", " wor", "ld", " world", "\n\n"};
  s.merges = {{"h", "e"}, {"l", "l"}, {"he", "ll"}, {"hell", "o"}, {" ", "w"}, {" w", "o"}, {"o", "r"},
              {" wo", "r"}, {"l", "d"}, {" wor", "ld"}, {"\n", "\n"}};
  s.added_tokens = "[" + added(267, "<|im_start|>", true) + ", " + added(268, "<|im_end|>", true) + ", " +
                   added(269, "<tts_pad>", true, false, true, true) + "]";
  return s;
}

/// The slow tokenizer's three files for `s`.
struct SlowFiles {
  std::string vocab, merges, config;
};
SlowFiles slow_files(const Spec& s) {
  SlowFiles f;
  f.vocab = "{";
  for (int b = 0; b < 256; ++b)
    f.vocab += (b ? ", " : "") + json_string(mapped(std::string(1, char(b)))) + ": " + std::to_string(b);
  for (std::size_t i = 0; i < s.tokens.size(); ++i)
    f.vocab += ", " + json_string(mapped(s.tokens[i])) + ": " + std::to_string(256 + i);
  f.vocab += "}";
  f.merges = "#version: 0.2\n";
  for (auto const& [a, b] : s.merges) f.merges += mapped(a) + " " + mapped(b) + "\n";
  f.config = R"({"added_tokens_decoder": {
    "268": {"content": "<|im_end|>", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false, "special": true},
    "267": {"content": "<|im_start|>", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false, "special": true},
    "269": {"content": "<tts_pad>", "lstrip": true, "normalized": false, "rstrip": true, "single_word": false, "special": true}},
    "tokenizer_class": "Qwen2Tokenizer"})";
  return f;
}

class TokenizerFiles : public cute_cpp::test::ScratchDir {};

TEST_F(TokenizerFiles, SlowFilesGiveTheTokenizerJsonIds) {
  Spec const s = spec();
  SlowFiles const f = slow_files(s);
  write_file(dir_ / "vocab.json", f.vocab);
  write_file(dir_ / "merges.txt", f.merges);
  write_file(dir_ / "tokenizer_config.json", f.config);
  cm::Tokenizer const slow = cm::load_tokenizer(dir_);
  cm::Tokenizer const fast = cm::Tokenizer::from_json(make_json(s));
  for (std::string const text : {"hello world", "<|im_start|>assistant\nhello world<|im_end|>\n",
                                 "say  <tts_pad>  hello\n\nworld", "héllo wörld 123", ""}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(slow.encode(text), fast.encode(text));
  }
  EXPECT_EQ(slow.encode("hello world"), (std::vector<std::int32_t>{256 + 3, 256 + 9}));
  EXPECT_EQ(slow.token_to_id("<tts_pad>"), 269);
  EXPECT_EQ(slow.vocab_size(), 270);
  // With a tokenizer.json beside them, the folder's tokenizer.json wins.
  write_file(dir_ / "tokenizer.json", make_json(Spec{}));
  EXPECT_EQ(cm::load_tokenizer(dir_).vocab_size(), 256);
}

TEST_F(TokenizerFiles, Errors) {
  expect_load_error([&] { (void)cm::load_tokenizer(dir_); }, "[tokenizer.files]",
                    "no tokenizer.json, and no vocab.json and merges.txt either");
  SlowFiles const f = slow_files(spec());
  expect_load_error([&] { (void)cm::qwen2_tokenizer_json(f.vocab, "#version: 0.2\nh e\nl l x\n", cm::parse_json("{}", "c.json")); },
                    "[tokenizer.merges]", "merges.txt line 3 has 3 tokens, expected 2");
  expect_load_error([&] {
    (void)cm::qwen2_tokenizer_json(f.vocab, "", cm::parse_json(R"({"added_tokens_decoder": {"x1": {"content": "a"}}})",
                                                               "tokenizer_config.json"));
  }, "[tokenizer.added-token]", "added_tokens_decoder key \"x1\" is not a token id");
  // A merge of tokens outside the vocabulary: Tokenizer's own check.
  expect_load_error([&] { (void)cm::Tokenizer::from_json(cm::qwen2_tokenizer_json(f.vocab, "q z\n", cm::parse_json("{}", "c.json"))); },
                    "[tokenizer.merges]", "");
}

}  // namespace
