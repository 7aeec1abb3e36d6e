// SPDX-License-Identifier: Apache-2.0
// models/common/json.hpp: values, escapes, numbers, the strictness rules and their messages.
#include "models/common/json.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using Kind = cm::Json::Kind;

TEST(Json, ParsesEveryKindInDocumentOrder) {
  auto const j = cm::parse_json(R"( {"b": true, "a": [null, false, -3, 2.5, "x"], "o": {}} )", "t.json");
  ASSERT_EQ(j.kind(), Kind::object);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j.as_object()[0].first, "b");
  EXPECT_EQ(j.as_object()[1].first, "a");
  EXPECT_TRUE(j.at("b").as_bool());
  auto const& a = j.at("a");
  ASSERT_EQ(a.size(), 5u);
  EXPECT_TRUE(a.at(std::size_t{0}).is_null());
  EXPECT_FALSE(a.at(1).as_bool());
  EXPECT_EQ(a.at(2).as_int(), -3);
  EXPECT_EQ(a.at(3).as_double(), 2.5);
  EXPECT_EQ(a.at(4).as_string(), "x");
  EXPECT_EQ(j.at("o").size(), 0u);
  EXPECT_EQ(j.find("zz"), nullptr);
  EXPECT_EQ(a.at(3).where(), "\"a\"[3]");
  EXPECT_EQ(j.where(), "the document");
  EXPECT_EQ(j.source(), "t.json");
}

TEST(Json, DecodesEveryEscape) {
  auto const j = cm::parse_json(R"("q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20ac")", "t.json");
  EXPECT_EQ(j.as_string(), "q\" b\\ s/ \b\f\n\r\t A\xc3\xa9\xe2\x82\xac");
}

TEST(Json, DecodesSurrogatePairsToFourByteUtf8) {
  // U+1F600 is \ud83d\ude00; U+10FFFF (the last code point) is \udbff\udfff.
  EXPECT_EQ(cm::parse_json(R"("\ud83d\ude00")", "t").as_string(), "\xf0\x9f\x98\x80");
  EXPECT_EQ(cm::parse_json(R"("\uDBFF\uDFFF")", "t").as_string(), "\xf4\x8f\xbf\xbf");
  EXPECT_EQ(cm::parse_json(R"("\u0000")", "t").as_string(), std::string(1, '\0'));
  // Raw UTF-8 passes through unchanged.
  EXPECT_EQ(cm::parse_json("\"\xe6\x97\xa5\xf0\x9f\x98\x80\"", "t").as_string(), "\xe6\x97\xa5\xf0\x9f\x98\x80");
}

TEST(Json, RejectsBrokenSurrogatesAndEscapes) {
  expect_load_error([] { (void)cm::parse_json(R"("\ud83d")", "t.json"); }, "[json.syntax]",
                    "t.json:1:2: a high surrogate");
  expect_load_error([] { (void)cm::parse_json(R"("\ud83dx")", "t.json"); }, "[json.syntax]", "without a low surrogate");
  expect_load_error([] { (void)cm::parse_json(R"("\ud83d\u0041")", "t.json"); }, "[json.syntax]",
                    "not a low surrogate");
  expect_load_error([] { (void)cm::parse_json(R"("\ude00")", "t.json"); }, "[json.syntax]", "a low surrogate");
  expect_load_error([] { (void)cm::parse_json(R"("\u12g4")", "t.json"); }, "[json.syntax]",
                    "1:6: unexpected 'g' in a \\u escape");
  expect_load_error([] { (void)cm::parse_json(R"("\u12)", "t.json"); }, "[json.syntax]",
                    "unexpected end of input in a \\u escape");
  expect_load_error([] { (void)cm::parse_json(R"("\x")", "t.json"); }, "[json.syntax]", "invalid escape \\x");
  expect_load_error([] { (void)cm::parse_json("\"a\tb\"", "t.json"); }, "[json.syntax]",
                    "unescaped control character byte 0x09");
}

TEST(Json, RejectsInvalidUtf8) {
  for (std::string const bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80", "\xff"}) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    expect_load_error([&] { (void)cm::parse_json("\"" + bad + "\"", "t.json"); }, "[json.syntax]", "invalid UTF-8");
  }
}

TEST(Json, NumbersAreInt64WhenIntegralAndInRangeElseDouble) {
  auto const j = cm::parse_json(
      "[0, -0, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 1e3, 1E+2, 2.5e-3, -0.0, 1e-06]",
      "t");
  EXPECT_EQ(j.at(std::size_t{0}).kind(), Kind::integer);
  EXPECT_EQ(j.at(1).as_int(), 0);
  EXPECT_EQ(j.at(2).as_int(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(j.at(3).as_int(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(j.at(4).kind(), Kind::number);
  EXPECT_EQ(j.at(4).as_double(), 9223372036854775808.0);
  EXPECT_EQ(j.at(5).kind(), Kind::number);
  EXPECT_EQ(j.at(5).as_double(), 1.0);
  EXPECT_EQ(j.at(6).as_double(), 1000.0);
  EXPECT_EQ(j.at(7).as_double(), 100.0);
  EXPECT_EQ(j.at(8).as_double(), 0.0025);
  EXPECT_TRUE(std::signbit(j.at(9).as_double()));
  EXPECT_EQ(j.at(10).as_double(), 1e-06);
  EXPECT_EQ(j.at(2).as_double(), 9223372036854775807.0);  // integers read as doubles too
  expect_load_error([&] { (void)j.at(4).as_int(); }, "[json.type]",
                    "t: [4] is an integer outside the 64-bit range, expected an integer");
  expect_load_error([&] { (void)j.at(5).as_int(); }, "[json.type]",
                    "[5] is a number with a fraction or exponent, expected an integer");
}

TEST(Json, RejectsMalformedNumbers) {
  for (std::string const bad :
       {"01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "-Infinity", "1.5.2"}) {
    SCOPED_TRACE(bad);
    expect_load_error([&] { (void)cm::parse_json(bad, "t.json"); }, "[json.syntax]", "t.json:1:");
  }
  expect_load_error([] { (void)cm::parse_json("1e400", "t.json"); }, "[json.syntax]", "outside the range of a double");
}

TEST(Json, RejectsTrailingGarbageAndTruncatedInput) {
  expect_load_error([] { (void)cm::parse_json("{} x", "t.json"); }, "[json.syntax]",
                    "t.json:1:4: unexpected 'x' after the JSON value");
  expect_load_error([] { (void)cm::parse_json("[1] [2]", "t.json"); }, "[json.syntax]", "after the JSON value");
  expect_load_error([] { (void)cm::parse_json(std::string("{}\0", 3), "t.json"); }, "[json.syntax]",
                    "unexpected byte 0x00");
  std::string const full = R"({"a": [1, 2, {"b": "cd"}], "e": true})";
  for (std::size_t n = 0; n < full.size(); ++n) {
    SCOPED_TRACE(full.substr(0, n));
    // A copy in an allocation of exactly n bytes (no terminator) lets ASan catch a read past the end.
    auto const cut = std::make_unique<char[]>(n);
    std::copy_n(full.data(), n, cut.get());
    expect_load_error([&] { (void)cm::parse_json(std::string_view(cut.get(), n), "t.json"); }, "[json.syntax]",
                      "t.json:1:");
  }
  EXPECT_NO_THROW((void)cm::parse_json(full, "t.json"));
}

TEST(Json, SyntaxErrorsGiveLineAndColumn) {
  expect_load_error([] { (void)cm::parse_json("{\n  \"a\": 1,\n  \"b\" 2\n}", "config.json"); }, "[json.syntax]",
                    "config.json:3:7: unexpected '2', expected ':' after the key \"b\"");
  expect_load_error([] { (void)cm::parse_json("[1,\n 2,]", "x.json"); }, "[json.syntax]",
                    "x.json:2:4: unexpected ']', expected a JSON value");
  expect_load_error([] { (void)cm::parse_json("", "x.json"); }, "[json.syntax]", "x.json:1:1: unexpected end of input");
  expect_load_error([] { (void)cm::parse_json("{\"a\" : tru}", "x.json"); }, "[json.syntax]", "x.json:1:8:");
  expect_load_error([] { (void)cm::parse_json("{'a': 1}", "x.json"); }, "[json.syntax]", "expected a string key");
  expect_load_error([] { (void)cm::parse_json("\xef\xbb\xbf{}", "x.json"); }, "[json.syntax]", "unexpected byte 0xef");
}

TEST(Json, RejectsDuplicateKeysUnlessAllowed) {
  expect_load_error([] { (void)cm::parse_json("{\"o\": {\"k\": 1,\n \"k\": 2}}", "d.json"); }, "[json.duplicate-key]",
                    "d.json:2:2: duplicate key \"k\" in \"o\"");
  cm::JsonLimits allow;
  allow.allow_duplicate_keys = true;
  auto const j = cm::parse_json(R"({"k": 1, "k": 2})", "d.json", allow);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j.at("k").as_int(), 1);
  EXPECT_EQ(j.as_object()[1].second.as_int(), 2);
}

TEST(Json, DepthLimitRejectsDeepNesting) {
  cm::JsonLimits limits;
  limits.max_depth = 4;
  EXPECT_NO_THROW((void)cm::parse_json("[[[{\"a\": 1}]]]", "t", limits));
  expect_load_error([&] { (void)cm::parse_json("[[[[[1]]]]]", "t.json", limits); }, "[json.depth]",
                    "t.json:1:5: arrays and objects nested more than 4 deep");
  // The default limit (128) stops a hostile document long before the stack would overflow.
  std::string const deep = std::string(100000, '[') + std::string(100000, ']');
  expect_load_error([&] { (void)cm::parse_json(deep, "t.json"); }, "[json.depth]", "nested more than 128 deep");
  std::string const ok = std::string(128, '[') + std::string(128, ']');
  EXPECT_NO_THROW((void)cm::parse_json(ok, "t.json"));
}

TEST(Json, SizeLimit) {
  cm::JsonLimits limits;
  limits.max_bytes = 8;
  EXPECT_NO_THROW((void)cm::parse_json("[1,2,3]", "t", limits));
  expect_load_error([&] { (void)cm::parse_json("[1,2,3,4]", "t.json", limits); }, "[json.size]",
                    "t.json: 9 bytes, more than the limit of 8");
}

TEST(Json, TypedAccessorsNameTheFileAndPath) {
  auto const j =
      cm::parse_json(R"({"num_attention_heads": "32", "rope": {"theta": [1, "x"]}, "n": null})", "config.json");
  expect_load_error([&] { (void)j.at("num_attention_heads").as_int(); }, "[json.type]",
                    "config.json: \"num_attention_heads\" is a string, expected an integer");
  expect_load_error([&] { (void)j.at("rope").at("theta").at(1).as_double(); }, "[json.type]",
                    "config.json: \"rope\".\"theta\"[1] is a string, expected a number");
  expect_load_error([&] { (void)j.at("n").as_bool(); }, "[json.type]", "\"n\" is null, expected a boolean");
  expect_load_error([&] { (void)j.at("rope").as_array(); }, "[json.type]", "\"rope\" is an object, expected an array");
  expect_load_error([&] { (void)j.at("rope").at("theta").as_object(); }, "[json.type]",
                    "is an array, expected an object");
  expect_load_error([&] { (void)j.as_string(); }, "[json.type]",
                    "config.json: the document is an object, expected a string");
  expect_load_error([&] { (void)j.at("head_dim"); }, "[json.missing]", "config.json: \"head_dim\" is missing");
  expect_load_error([&] { (void)j.at("rope").at("scale"); }, "[json.missing]", "\"scale\" is missing in \"rope\"");
  expect_load_error([&] { (void)j.at("rope").at("theta").at(2); }, "[json.missing]",
                    "\"rope\".\"theta\" has 2 elements, element 2 is missing");
  expect_load_error([&] { (void)j.at("n").size(); }, "[json.type]", "expected an array or an object");
}

TEST(Json, ReadJsonFileNamesTheFile) {
  expect_load_error([] { (void)cm::read_json_file("/nonexistent/dir/config.json"); }, "[json.file]",
                    "/nonexistent/dir/config.json: cannot read");
}
