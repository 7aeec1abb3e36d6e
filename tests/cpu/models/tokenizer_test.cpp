// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer.hpp: the byte-level alphabet, the pre-tokenizer regex, NFC, lossy UTF-8,
// BPE merge order, added tokens, decoding and the errors, on small hand-made tokenizer.json files.
// Expected splits and NFC forms were taken from the Python tokenizers 0.23.3 and unicodedata;
// tokenizer_reference.py checks whole tokenizers against that package.
#include "models/common/tokenizer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/pre_tokenizer.hpp"  // text::byte_to_unicode, unicode_to_byte, split_pre_tokens
#include "models/common/unicode_text.hpp"   // text::nfc, utf8_lossy
#include "tests/cpu/models/st_writer.hpp"
#include "tests/cpu/models/tokenizer_json.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::added;
using cute_cpp::test::bytes_of;
using cute_cpp::test::concat;
using cute_cpp::test::Ids;
using cute_cpp::test::json_string;
using cute_cpp::test::kQwen2Regex;
using cute_cpp::test::make_json;
using cute_cpp::test::mapped;
using cute_cpp::test::Spec;
using cute_cpp::test::utf8;
using Words = std::vector<std::string_view>;

namespace {

constexpr char kLlama3Regex[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+)"
    R"(|\s+(?!\S)|\s+)";

cm::Tokenizer load(const Spec& s) { return cm::Tokenizer::from_json(make_json(s), "t.json"); }

/// "hello world" merges to {hello, " w", o, r, l, d}; three special tokens and <think> follow.
Spec hello_spec() {
  Spec s;
  s.tokens = {"he", "ll", "hell", "hello", " w"};  // ids 256..260
  s.merges = {{"h", "e"}, {"l", "l"}, {"he", "ll"}, {"hell", "o"}, {" ", "w"}};
  s.added_tokens = "[" + added(261, "<|endoftext|>", true) + ", " + added(262, "<|im_start|>", true) + ", " +
                   added(263, "<|im_end|>", true) + ", " + added(264, "<think>", false) + "]";
  return s;
}

}  // namespace

// ---- the byte-level alphabet ----

TEST(TokenizerByteLevel, PrintableBytesStandForThemselvesTheRestCountUpFromU0100) {
  EXPECT_EQ(cm::text::byte_to_unicode('!'), U'!');
  EXPECT_EQ(cm::text::byte_to_unicode('~'), U'~');
  EXPECT_EQ(cm::text::byte_to_unicode(0xE9), U'\u00e9');
  EXPECT_EQ(cm::text::byte_to_unicode(0x00), U'\u0100');
  EXPECT_EQ(cm::text::byte_to_unicode('\n'), U'\u010a');  // Ċ
  EXPECT_EQ(cm::text::byte_to_unicode(' '), U'\u0120');   // Ġ
  EXPECT_EQ(cm::text::byte_to_unicode(0x7F), U'\u0121');
  EXPECT_EQ(cm::text::byte_to_unicode(0xA0), U'\u0142');
  EXPECT_EQ(cm::text::byte_to_unicode(0xAD), U'\u0143');  // the last of the 68
  for (int b = 0; b < 256; ++b) {
    auto const c = cm::text::byte_to_unicode(static_cast<std::uint8_t>(b));
    EXPECT_EQ(cm::text::unicode_to_byte(c), std::optional<std::uint8_t>(b)) << b;
  }
  EXPECT_EQ(cm::text::unicode_to_byte(U'\u0144'), std::nullopt);
  EXPECT_EQ(cm::text::unicode_to_byte(U' '), std::nullopt);
  EXPECT_EQ(cm::text::unicode_to_byte(U'\u00ad'), std::nullopt);
  EXPECT_EQ(cm::text::unicode_to_byte(U'\u4f60'), std::nullopt);
}

// ---- the pre-tokenizer regex (expected splits from tokenizers' Split with the same regex) ----

TEST(TokenizerPreTokens, ContractionsFoldOnlyAsciiCase) {
  EXPECT_EQ(cm::text::split_pre_tokens("I'm you're WE'LL 'S they'Ve it'd"),
            (Words{"I", "'m", " you", "'re", " WE", "'LL", " '", "S", " they", "'Ve", " it", "'d"}));
  EXPECT_EQ(cm::text::split_pre_tokens("'sup 'x ''"), (Words{"'s", "up", " '", "x", " ''"}));
  // U+017F (long s) folds to s in Unicode, but the regex engine does not match it for 's.
  EXPECT_EQ(cm::text::split_pre_tokens("'\u017f"), (Words{"'\u017f"}));
}

TEST(TokenizerPreTokens, DigitsOneAtATimeOrUpToThreeForLlama3) {
  EXPECT_EQ(cm::text::split_pre_tokens("I'm 42!\n\n  ok"), (Words{"I", "'m", " ", "4", "2", "!\n\n", " ", " ok"}));
  EXPECT_EQ(cm::text::split_pre_tokens("abc123 4567"), (Words{"abc", "1", "2", "3", " ", "4", "5", "6", "7"}));
  EXPECT_EQ(cm::text::split_pre_tokens("3.14159", 3), (Words{"3", ".", "141", "59"}));
  EXPECT_EQ(cm::text::split_pre_tokens("abc123 4567", 3), (Words{"abc", "123", " ", "456", "7"}));
  // Arabic-Indic digits are \p{N}.
  EXPECT_EQ(cm::text::split_pre_tokens("\u0663\u0664abc"), (Words{"\u0663", "\u0664", "abc"}));
}

TEST(TokenizerPreTokens, CjkEmojiAndMarks) {
  EXPECT_EQ(cm::text::split_pre_tokens("\u4f60\u597d\u4e16\u754c \u4f60\u597d\uff0c\u4e16\u754c\u3002"),
            (Words{"\u4f60\u597d\u4e16\u754c", " \u4f60\u597d", "\uff0c\u4e16\u754c", "\u3002"}));
  EXPECT_EQ(cm::text::split_pre_tokens("\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8"),
            (Words{"\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8"}));
  EXPECT_EQ(cm::text::split_pre_tokens("hi \U0001F600\U0001F600! \U0001F44D\U0001F3FDx"),
            (Words{"hi", " \U0001F600\U0001F600!", " \U0001F44D\U0001F3FD", "x"}));
  // A combining mark is not \p{L}: it prefixes the next word or stands alone.
  EXPECT_EQ(cm::text::split_pre_tokens("e\u0301t\u0301"), (Words{"e", "\u0301t", "\u0301"}));
}

TEST(TokenizerPreTokens, WhiteSpaceRunsAndNewlines) {
  EXPECT_EQ(cm::text::split_pre_tokens("a  \n\n  b"), (Words{"a", "  \n\n", " ", " b"}));
  EXPECT_EQ(cm::text::split_pre_tokens("\r\n"), (Words{"\r\n"}));
  EXPECT_EQ(cm::text::split_pre_tokens("x\r\n\r\ny"), (Words{"x", "\r\n\r\n", "y"}));
  EXPECT_EQ(cm::text::split_pre_tokens("a \nb"), (Words{"a", " \n", "b"}));
  EXPECT_EQ(cm::text::split_pre_tokens("!!!\n\n\nabc"), (Words{"!!!\n\n\n", "abc"}));
  EXPECT_EQ(cm::text::split_pre_tokens("abc   "), (Words{"abc", "   "}));
  EXPECT_EQ(cm::text::split_pre_tokens("   "), (Words{"   "}));
  EXPECT_EQ(cm::text::split_pre_tokens("\t\tx"), (Words{"\t", "\tx"}));
  EXPECT_EQ(cm::text::split_pre_tokens("a\t\tb"), (Words{"a", "\t", "\tb"}));
  EXPECT_EQ(cm::text::split_pre_tokens("  !!  "), (Words{" ", " !!", "  "}));
  EXPECT_EQ(cm::text::split_pre_tokens(" ?!"), (Words{" ?!"}));
  EXPECT_EQ(cm::text::split_pre_tokens(""), (Words{}));
}

TEST(TokenizerPreTokens, UnicodeWhiteSpaceIsTheWhiteSpaceProperty) {
  EXPECT_EQ(cm::text::split_pre_tokens("\u3000abc"), (Words{"\u3000abc"}));
  EXPECT_EQ(cm::text::split_pre_tokens("x\u00a0y"), (Words{"x", "\u00a0y"}));
  EXPECT_EQ(cm::text::split_pre_tokens("x\u00a0\u00a0y"), (Words{"x", "\u00a0", "\u00a0y"}));
  // U+001C is a separator to Python's str.isspace but not White_Space: it is punctuation here.
  EXPECT_EQ(cm::text::split_pre_tokens("x\x1cy"), (Words{"x", "\x1cy"}));
  EXPECT_EQ(cm::text::split_pre_tokens("x \x1c"), (Words{"x", " \x1c"}));
}

// ---- NFC ----

TEST(TokenizerNfc, ComposesReordersAndExcludes) {
  EXPECT_EQ(cm::text::nfc("e\u0301"), "\u00e9");
  EXPECT_EQ(cm::text::nfc("a\u0316\u0301"), "\u00e1\u0316");
  EXPECT_EQ(cm::text::nfc("a\u0301\u0316"), "\u00e1\u0316");
  EXPECT_EQ(cm::text::nfc("q\u0307\u0323"), "q\u0323\u0307");  // reordered, nothing composes
  EXPECT_EQ(cm::text::nfc("\u1100\u1161\u11a8"), "\uac01");    // Hangul jamo
  EXPECT_EQ(cm::text::nfc("\u212b\u2126"), "\u00c5\u03a9");    // singletons
  EXPECT_EQ(cm::text::nfc("\u0958"), "\u0915\u093c");          // composition exclusion
  EXPECT_EQ(cm::text::nfc("\u0344"), "\u0308\u0301");          // non-starter decomposition
  EXPECT_EQ(cm::text::nfc("\u304b\u3099"), "\u304c");          // kana with dakuten
  EXPECT_EQ(cm::text::nfc("plain ASCII, caf\u00e9, \u4f60\u597d"), "plain ASCII, caf\u00e9, \u4f60\u597d");
  EXPECT_EQ(cm::text::nfc(""), "");
}

// ---- lossy UTF-8 (expected from Python's bytes.decode("utf-8", "replace"), the same rule) ----

TEST(TokenizerUtf8Lossy, OneReplacementPerMaximalIllFormedSubpart) {
  EXPECT_EQ(cm::text::utf8_lossy("ok \xe4\xbd\xa0"), "ok \xe4\xbd\xa0");
  EXPECT_EQ(cm::text::utf8_lossy("\xff"), "\xef\xbf\xbd");
  EXPECT_EQ(cm::text::utf8_lossy("\xe6\x97"), "\xef\xbf\xbd");
  EXPECT_EQ(cm::text::utf8_lossy("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(cm::text::utf8_lossy("\xf0\x9f\x98x"), "\xef\xbf\xbdx");
  EXPECT_EQ(cm::text::utf8_lossy("a\xc0\xaf"
                                   "b"),
            "a\xef\xbf\xbd\xef\xbf\xbd"
            "b");
  EXPECT_EQ(cm::text::utf8_lossy("\xf4\x90\x80\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

// ---- BPE ----

TEST(TokenizerBpe, MergesWordsAndFallsBackToBytes) {
  auto const tok = load(hello_spec());
  EXPECT_EQ(tok.encode("hello world"), (Ids{259, 260, 'o', 'r', 'l', 'd'}));
  EXPECT_EQ(tok.encode("hell"), (Ids{258}));
  EXPECT_EQ(tok.encode("helo"), (Ids{256, 'l', 'o'}));
  EXPECT_EQ(tok.encode("\xe4\xbd\xa0"), bytes_of("\xe4\xbd\xa0"));
  EXPECT_EQ(tok.encode(""), Ids{});
}

TEST(TokenizerBpe, LowerRankMergesFirst) {
  Spec s;
  s.tokens = {"ab", "bc"};
  s.merges = {{"a", "b"}, {"b", "c"}};
  EXPECT_EQ(load(s).encode("abc"), (Ids{256, 'c'}));
  s.merges = {{"b", "c"}, {"a", "b"}};
  EXPECT_EQ(load(s).encode("abc"), (Ids{'a', 257}));
}

TEST(TokenizerBpe, EqualRanksMergeLeftmostFirst) {
  Spec s;
  s.tokens = {"aa", "aaaa"};
  s.merges = {{"a", "a"}, {"aa", "aa"}};
  auto const tok = load(s);
  EXPECT_EQ(tok.encode("aaa"), (Ids{256, 'a'}));
  EXPECT_EQ(tok.encode("aaaa"), (Ids{257}));
  EXPECT_EQ(tok.encode("aaaaa"), (Ids{257, 'a'}));
  EXPECT_EQ(tok.encode("aaaaaa"), (Ids{257, 256}));
}

TEST(TokenizerBpe, PairAndStringMergesAgree) {
  Spec s = hello_spec();
  auto const strings = load(s);
  s.pair_merges = true;
  auto const pairs = load(s);
  for (std::string_view text : {"hello world", "hellohello", "he ll o", "<|im_start|>hello"})
    EXPECT_EQ(strings.encode(text), pairs.encode(text)) << text;
}

TEST(TokenizerBpe, IgnoreMergesTakesAWholeWordFromTheVocab) {
  // "abc" is in the vocab but no merge leads to it: only ignore_merges produces it.
  Spec s;
  s.tokens = {"ab", "abc"};
  s.merges = {{"a", "b"}};
  EXPECT_EQ(load(s).encode("abc"), (Ids{256, 'c'}));
  s.model_extra = R"("ignore_merges": true, )";
  EXPECT_EQ(load(s).encode("abc"), (Ids{257}));
}

TEST(TokenizerBpe, UnknownCharactersBecomeUnkOrAreDropped) {
  // A vocab without the byte 'z': tokenizers drops it, or emits unk_token (fused with fuse_unk).
  auto without_z = [](std::string extra) {
    Spec s;
    s.tokens = {"<unk>"};
    s.model_extra = std::move(extra);
    auto json = make_json(s);
    auto const key = "\"z\": " + std::to_string('z') + ", ";
    json.erase(json.find(key), key.size());
    return cm::Tokenizer::from_json(json, "t.json");
  };
  EXPECT_EQ(without_z("").encode("azzb"), (Ids{'a', 'b'}));
  EXPECT_EQ(without_z(R"("unk_token": "<unk>", )").encode("azzb"), (Ids{'a', 256, 256, 'b'}));
  EXPECT_EQ(without_z(R"("unk_token": "<unk>", "fuse_unk": true, )").encode("azzb"), (Ids{'a', 256, 'b'}));
}

// ---- added tokens ----

TEST(TokenizerAddedTokens, SplitOutBeforePreTokenization) {
  auto const tok = load(hello_spec());
  EXPECT_EQ(tok.encode("<|im_start|>hello<|im_end|>"), (Ids{262, 259, 263}));
  EXPECT_EQ(tok.encode("a<|endoftext|>b"), (Ids{'a', 261, 'b'}));
  EXPECT_EQ(tok.encode("<|endoftext|><|endoftext|>"), (Ids{261, 261}));
  EXPECT_EQ(tok.encode("<think>\n</think>"), concat({{264}, bytes_of("\n</"), bytes_of("think"), bytes_of(">")}));
  // Not a complete added token: plain text.
  EXPECT_EQ(tok.encode("<|im_start"), concat({bytes_of("<|"), bytes_of("im"), bytes_of("_"), bytes_of("start")}));
  // add_special_tokens adds nothing with a ByteLevel post-processor.
  EXPECT_EQ(tok.encode("hello", true), (Ids{259}));
}

TEST(TokenizerAddedTokens, LongestMatchWins) {
  Spec s = hello_spec();
  s.added_tokens = "[" + added(261, "<|im_start|>", true) + ", " + added(262, "<|im", false) + ", " +
                   added(263, "<|im_start|>x", false) + "]";
  auto const tok = load(s);
  EXPECT_EQ(tok.encode("<|im_start|>"), (Ids{261}));
  EXPECT_EQ(tok.encode("<|im_start|>x"), (Ids{263}));
  EXPECT_EQ(tok.encode("<|im_start|y"),
            concat({{262}, bytes_of("_"), bytes_of("start"), bytes_of("|"), bytes_of("y")}));
}

TEST(TokenizerAddedTokens, LstripAndRstripTakeTheWhiteSpaceAround) {
  Spec s = hello_spec();
  s.added_tokens = "[" + added(261, "[M]", false, false, true, true) + "]";
  auto const tok = load(s);
  EXPECT_EQ(tok.encode("hello  [M] \t hello"), (Ids{259, 261, 259}));
  EXPECT_EQ(tok.encode("[M][M]"), (Ids{261, 261}));
  EXPECT_EQ(tok.encode("\u3000[M]\u3000"), (Ids{261}));
}

TEST(TokenizerAddedTokens, NormalizedTokensMatchTheNfcText) {
  Spec s = hello_spec();
  s.added_tokens = "[" + added(261, "cafe\u0301", false, /*normalized=*/true) + "]";
  auto const tok = load(s);
  EXPECT_EQ(tok.encode("cafe\u0301"), (Ids{261}));
  EXPECT_EQ(tok.encode("caf\u00e9"), (Ids{261}));
  // tokenizers 0.23 decodes the normalized form, through the byte-level decoder: é is byte 0xE9.
  EXPECT_EQ(tok.decode(Ids{261}), "caf\xef\xbf\xbd");
  EXPECT_EQ(tok.id_to_token(261), "cafe\u0301");
}

TEST(TokenizerAddedTokens, SpecialTokensAreSkippedOnRequest) {
  auto const tok = load(hello_spec());
  Ids const ids{262, 259, 264, 263};
  EXPECT_EQ(tok.decode(ids), "<|im_start|>hello<think><|im_end|>");
  EXPECT_EQ(tok.decode(ids, /*skip_special_tokens=*/true), "hello<think>");
}

// ---- the whole tokenizer ----

TEST(Tokenizer, DecodeRoundTrips) {
  auto const tok = load(hello_spec());
  for (std::string_view text : {"hello world", "  hello\n\n\tworld  ", "<|im_start|>user\nhi<|im_end|>",
                                "caf\u00e9 \u4f60\u597d \U0001F600", "I'm 42!\r\n", "\u0663\u0664 \u3000x"})
    EXPECT_EQ(tok.decode(tok.encode(text)), text) << text;
  // NFC is applied, so the round trip gives the composed form.
  EXPECT_EQ(tok.decode(tok.encode("cafe\u0301")), "caf\u00e9");
  // Ids without a token are dropped, as tokenizers does; half a character becomes U+FFFD.
  EXPECT_EQ(tok.decode(Ids{259, 100000, -1, 265}), "hello");
  EXPECT_EQ(tok.decode(Ids{0xE4, 0xBD}), "\xef\xbf\xbd");
}

TEST(Tokenizer, VocabularyLookups) {
  auto const tok = load(hello_spec());
  EXPECT_EQ(tok.vocab_size(), 265);
  EXPECT_EQ(tok.token_to_id("hello"), 259);
  EXPECT_EQ(tok.token_to_id("\u0120w"), 260);
  EXPECT_EQ(tok.token_to_id("<|im_end|>"), 263);
  EXPECT_EQ(tok.token_to_id("nope"), std::nullopt);
  EXPECT_EQ(tok.id_to_token(260), "\u0120w");
  EXPECT_EQ(tok.id_to_token(264), "<think>");
  EXPECT_EQ(tok.id_to_token(265), std::nullopt);
  EXPECT_EQ(tok.id_to_token(-1), std::nullopt);
  ASSERT_EQ(tok.added_tokens().size(), 4u);
  EXPECT_EQ(tok.added_tokens()[3].content, "<think>");
  EXPECT_FALSE(tok.added_tokens()[3].special);
}

TEST(Tokenizer, TemplateProcessingAddsItsTokensWhenAsked) {
  Spec s = hello_spec();
  s.regex = kLlama3Regex;
  s.post_processor =
      R"({"type": "Sequence", "processors": [)" + s.post_processor +
      R"(, {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<|endoftext|>", "type_id": 0}},)"
      R"( {"Sequence": {"id": "A", "type_id": 0}}], "pair": [], "special_tokens": {"<|endoftext|>":)"
      R"( {"id": "<|endoftext|>", "ids": [261], "tokens": ["<|endoftext|>"]}}}]})";
  auto const tok = load(s);
  EXPECT_EQ(tok.encode("hello 12345"), (Ids{259, ' ', '1', '2', '3', '4', '5'}));
  EXPECT_EQ(tok.encode("hello", true), (Ids{261, 259}));
  EXPECT_EQ(cm::text::split_pre_tokens("12345", 3), (Words{"123", "45"}));
}

TEST(Tokenizer, WithoutNormalizerTextIsNotComposed) {
  Spec s = hello_spec();
  s.normalizer = "null";
  EXPECT_EQ(load(s).encode("e\u0301"), concat({{'e'}, bytes_of("\u0301")}));
  EXPECT_EQ(load(hello_spec()).encode("e\u0301"), bytes_of("\u00e9"));
}

TEST(Tokenizer, ConcurrentEncodesAgree) {
  auto const tok = load(hello_spec());
  std::string text;
  for (int i = 0; i < 200; ++i) text += "hello world " + std::to_string(i) + "\n";
  auto const want = tok.encode(text);
  std::vector<Ids> got(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) threads.emplace_back([&, t] { got[t] = tok.encode(text); });
  for (auto& th : threads) th.join();
  for (auto const& g : got) EXPECT_EQ(g, want);
}

class TokenizerFile : public cute_cpp::test::ScratchDir {};

TEST_F(TokenizerFile, ReadsAFileOrTheFolderHoldingIt) {
  cute_cpp::test::write_file(dir_ / "tokenizer.json", make_json(hello_spec()));
  EXPECT_EQ(cm::Tokenizer::from_file(dir_ / "tokenizer.json").encode("hello"), (Ids{259}));
  EXPECT_EQ(cm::Tokenizer::from_file(dir_).encode("hello"), (Ids{259}));
  expect_load_error([&] { (void)cm::Tokenizer::from_file(dir_ / "missing.json"); }, "[json.file]", "missing.json");
}

// ---- errors ----

TEST(TokenizerErrors, MalformedJsonAndMissingParts) {
  expect_load_error([] { (void)cm::Tokenizer::from_json("{\"model\": ", "t.json"); }, "[json.syntax]", "t.json:1:");
  expect_load_error([] { (void)cm::Tokenizer::from_json(R"({"version": "1.0"})", "t.json"); }, "[json.missing]",
                    "\"model\"");
  Spec s = hello_spec();
  s.added_tokens = "{}";
  expect_load_error([&] { (void)load(s); }, "[json.type]", "t.json: \"added_tokens\" is an object, expected an array");
}

TEST(TokenizerErrors, UnsupportedFeaturesNameTheirField) {
  auto fails = [](Spec s, const std::string& text) {
    expect_load_error([&] { (void)load(s); }, "[tokenizer.unsupported]", text);
  };
  Spec s;
  s.model_type = "WordPiece";
  fails(s, "t.json: \"model\".\"type\" is \"WordPiece\"; only BPE");
  s = Spec{};
  s.normalizer = R"({"type": "NFKC"})";
  fails(s, "\"normalizer\".\"type\" is \"NFKC\"");
  s = Spec{};
  s.regex = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
  fails(s, "\"pre_tokenizer\".\"pretokenizers\"[0].\"pattern\".\"Regex\" is");
  s = Spec{};
  s.byte_level = R"({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false})";
  fails(s, "use_regex true (or absent)");
  s = Spec{};
  s.decoder = R"({"type": "Metaspace"})";
  fails(s, "\"decoder\".\"type\" is \"Metaspace\"");
  s = Spec{};
  s.post_processor = R"({"type": "RobertaProcessing"})";
  fails(s, "\"post_processor\".\"type\" is \"RobertaProcessing\"");
  s = Spec{};
  s.model_extra = R"("byte_fallback": true, )";
  fails(s, "\"model\".\"byte_fallback\" is true");
  s = Spec{};
  s.model_extra = R"("dropout": 0.1, )";
  fails(s, "\"model\".\"dropout\" is set");
  s = Spec{};
  s.model_extra = R"("continuing_subword_prefix": "##", )";
  fails(s, "\"model\".\"continuing_subword_prefix\" is \"##\"");
  s = Spec{};
  s.model_extra = R"("cache_capacity": 10, )";
  fails(s, "\"model\" has the key \"cache_capacity\"");
  s = Spec{};
  s.truncation = R"({"max_length": 8})";
  fails(s, "\"truncation\" is set; only null");
  s = Spec{};
  s.top_extra = R"("extra": 1, )";
  fails(s, "t.json: the document has the key \"extra\"");
  s = Spec{};
  s.added_tokens = "[" + added(256, "<m>", false, false, false, false, /*single_word=*/true) + "]";
  fails(s, "\"added_tokens\"[0].\"single_word\" is true (token \"<m>\")");
}

TEST(TokenizerErrors, InconsistentVocabMergesAndAddedTokens) {
  Spec s = hello_spec();
  s.merges.emplace_back("hello", "x");
  expect_load_error([&] { (void)load(s); }, "[tokenizer.merges]",
                    "\"model\".\"merges\"[5]: \"hellox\" is not in the vocab");
  s = hello_spec();
  auto const edited = [&](std::string_view from, std::string_view to) {
    auto json = make_json(s);
    json.replace(json.find(from), from.size(), to);
    return json;
  };
  expect_load_error([&] { (void)cm::Tokenizer::from_json(edited("\"h e\"", "\"h  e\""), "t.json"); },
                    "[tokenizer.merges]", "\"model\".\"merges\"[0] is \"h  e\", not two tokens split by one space");
  expect_load_error([&] { (void)cm::Tokenizer::from_json(edited(": 260", ": 259"), "t.json"); }, "[tokenizer.vocab]",
                    "both have id 259");
  expect_load_error([&] { (void)cm::Tokenizer::from_json(edited(": 260", ": -5"), "t.json"); }, "[tokenizer.vocab]",
                    "is -5, outside [0, 2^24)");
  s.added_tokens = "[" + added(300, "<x>", true) + "]";
  expect_load_error([&] { (void)load(s); }, "[tokenizer.added-token]",
                    "\"<x>\" has id 300; tokenizers would give it 261");
  s.added_tokens = "[" + added(261, "<x>", true) + ", " + added(262, "<x>", false) + "]";
  expect_load_error([&] { (void)load(s); }, "[tokenizer.added-token]", "\"<x>\" is added twice");
  // An added token already in the vocab keeps its vocab id.
  s.added_tokens = "[" + added(259, "hello", true) + "]";
  EXPECT_EQ(load(s).encode("hello", false), (Ids{259}));
  EXPECT_EQ(load(s).decode(Ids{259}, true), "");
}

TEST(TokenizerErrors, InputMustBeUtf8) {
  auto const tok = load(hello_spec());
  expect_load_error([&] { (void)tok.encode("ok\xff"); }, "[tokenizer.input]", "not valid UTF-8 at byte 2");
  expect_load_error([&] { (void)tok.encode("\xed\xa0\x80"); }, "[tokenizer.input]", "at byte 0");
}
