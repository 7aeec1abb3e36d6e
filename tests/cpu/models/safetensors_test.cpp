// SPDX-License-Identifier: Apache-2.0
// models/common/safetensors.hpp: a round trip through files this test writes, and one file per
// validation rule, each checked for its rule id and its message.
#include "models/common/safetensors.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::pattern;
using cute_cpp::test::safetensors_bytes;
using cute_cpp::test::well_formed;
using cute_cpp::test::write_file;

namespace {
class Safetensors : public cute_cpp::test::ScratchDir {
 protected:
  // Writes `bytes` as `name` and opens it.
  cm::SafetensorsFile open(const std::string& bytes, const std::string& name = "m.safetensors") {
    write_file(dir_ / name, bytes);
    return cm::SafetensorsFile::open(dir_ / name);
  }
  void expect_error(const std::string& header, const std::string& data, const std::string& rule,
                    const std::string& text) {
    SCOPED_TRACE(header);
    expect_load_error([&] { (void)open(safetensors_bytes(header, data)); }, rule, text);
  }
};

std::string bytes_of(const cm::TensorInfo& t) { return std::string(reinterpret_cast<const char*>(t.data), t.bytes()); }
}  // namespace

TEST(SafetensorsDtype, NamesBitsAndParsing) {
  EXPECT_EQ(cm::dtype_name(cm::Dtype::BF16), "BF16");
  EXPECT_EQ(cm::dtype_bits(cm::Dtype::BF16), 16);
  EXPECT_EQ(cm::dtype_bits(cm::Dtype::F8_E4M3), 8);
  EXPECT_EQ(cm::dtype_bits(cm::Dtype::F4), 4);
  EXPECT_EQ(cm::dtype_bits(cm::Dtype::F6_E3M2), 6);
  EXPECT_EQ(cm::dtype_bits(cm::Dtype::C64), 64);
  EXPECT_EQ(cm::parse_dtype("F8_E4M3"), cm::Dtype::F8_E4M3);
  EXPECT_EQ(cm::parse_dtype("bf16"), std::nullopt);  // spellings are case-sensitive, as in the format
  for (int d = 0; d <= static_cast<int>(cm::Dtype::F6_E3M2); ++d)
    EXPECT_EQ(cm::parse_dtype(cm::dtype_name(static_cast<cm::Dtype>(d))), static_cast<cm::Dtype>(d));
}

TEST_F(Safetensors, RoundTripNamesShapesDtypesBytesAndMetadata) {
  auto const f = open(well_formed({{"model.embed_tokens.weight", "BF16", {4, 3}, pattern(24, 1)},
                                   {"scale", "F32", {}, pattern(4, 2)},
                                   {"empty", "F16", {0, 5}, ""},
                                   {"q", "F8_E4M3", {7}, pattern(7, 3)},
                                   {"packed", "F4", {2, 3}, pattern(3, 4)},
                                   {"ids", "I64", {2}, pattern(16, 5)}},
                                  R"({"format": "pt", "note": "\u00e9"})"));
  ASSERT_EQ(f.tensors().size(), 6u);
  EXPECT_EQ(f.data_offset() % 8, 0u);
  EXPECT_EQ(f.file_size(), f.data_offset() + 24 + 4 + 7 + 3 + 16);
  auto const& w = f.at("model.embed_tokens.weight");
  EXPECT_EQ(w.dtype, cm::Dtype::BF16);
  EXPECT_EQ(w.shape, (std::vector<std::int64_t>{4, 3}));
  EXPECT_EQ(w.numel(), 12);
  EXPECT_EQ(w.begin, 0u);
  EXPECT_EQ(w.end, 24u);
  EXPECT_EQ(bytes_of(w), pattern(24, 1));
  auto const& s = f.at("scale");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(bytes_of(s), pattern(4, 2));
  auto const& e = f.at("empty");
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.bytes(), 0u);
  EXPECT_EQ(e.begin, 28u);
  EXPECT_EQ(bytes_of(f.at("q")), pattern(7, 3));
  EXPECT_EQ(f.at("packed").numel(), 6);
  EXPECT_EQ(bytes_of(f.at("packed")), pattern(3, 4));
  EXPECT_EQ(bytes_of(f.at("ids")), pattern(16, 5));
  // The pointer is into the mapping: data_offset + begin from the start of the file.
  EXPECT_EQ(f.at("ids").begin, 24u + 4 + 7 + 3);
  // tensors() is in data-buffer order; the empty tensor sorts before the one starting at its offset.
  std::vector<std::string> order;
  for (auto const& t : f.tensors()) order.push_back(t.name);
  EXPECT_EQ(order, (std::vector<std::string>{"model.embed_tokens.weight", "scale", "empty", "q", "packed", "ids"}));
  ASSERT_EQ(f.metadata().size(), 2u);
  EXPECT_EQ(f.metadata()[0], (std::pair<std::string, std::string>{"format", "pt"}));
  EXPECT_EQ(f.metadata()[1].second, "\xc3\xa9");
  EXPECT_EQ(f.find("nope"), nullptr);
  expect_load_error([&] { (void)f.at("nope"); }, "[safetensors.missing]",
                    "m.safetensors: no tensor \"nope\" (the file holds 6 tensors)");
}

TEST_F(Safetensors, HeaderOrderNeedNotBeOffsetOrder) {
  // Older writers ordered the header by name; only the ranges must tile the buffer.
  std::string const header =
      R"({"b":{"dtype":"U8","shape":[2],"data_offsets":[3,5]},"a":{"dtype":"U8","shape":[3],"data_offsets":[0,3]}})";
  auto const f = open(safetensors_bytes(header, "ABCDE"));
  EXPECT_EQ(bytes_of(f.at("a")), "ABC");
  EXPECT_EQ(bytes_of(f.at("b")), "DE");
  EXPECT_EQ(f.tensors()[0].name, "a");
}

TEST_F(Safetensors, EmptyFileWithOnlyAHeader) {
  auto const f = open(safetensors_bytes("{}      ", ""));
  EXPECT_TRUE(f.tensors().empty());
  EXPECT_TRUE(f.metadata().empty());
}

TEST_F(Safetensors, MovedFileKeepsItsMapping) {
  auto f = open(well_formed({{"t", "U8", {3}, "xyz"}}));
  cm::SafetensorsFile g = std::move(f);
  EXPECT_EQ(bytes_of(g.at("t")), "xyz");
  cm::SafetensorsFile h = open(well_formed({{"u", "U8", {1}, "k"}}), "other.safetensors");
  h = std::move(g);
  EXPECT_EQ(bytes_of(h.at("t")), "xyz");
  EXPECT_EQ(h.path().filename(), "m.safetensors");
}

TEST_F(Safetensors, FileErrors) {
  expect_load_error([&] { (void)cm::SafetensorsFile::open(dir_ / "absent.safetensors"); }, "[safetensors.file]",
                    "absent.safetensors: cannot open: No such file or directory");
  expect_load_error([&] { (void)cm::SafetensorsFile::open(dir_); }, "[safetensors.file]", "not a regular file");
}

TEST_F(Safetensors, HeaderLengthErrors) {
  expect_load_error([&] { (void)open(std::string(5, '\0')); }, "[safetensors.header-length]",
                    "m.safetensors: the file is 5 bytes, shorter than the 8-byte header length");
  expect_load_error([&] { (void)open(safetensors_bytes("{}", "", 100'000'001)); }, "[safetensors.header-length]",
                    "header length 100000001 is more than the limit of 100000000");
  expect_load_error([&] { (void)open(safetensors_bytes("{}", "", ~std::uint64_t{0})); }, "[safetensors.header-length]",
                    "header length 18446744073709551615 is more than the limit");
  expect_load_error([&] { (void)open(safetensors_bytes("{}", "", 3)); }, "[safetensors.header-length]",
                    "m.safetensors: header length 3 runs past the end of the file (10 bytes)");
}

TEST_F(Safetensors, HeaderMustBeAJsonObject) {
  expect_error("[]", "", "[safetensors.header]", "m.safetensors: the header is an array, expected an object");
  expect_error("{\"a\":", "", "[safetensors.header]",
               "cute-cpp [safetensors.header]: m.safetensors header:1:6: unexpected end of input");
  expect_error("{} x", "", "[safetensors.header]", "m.safetensors header:1:4: unexpected 'x' after the JSON value");
  // A length that cuts the header short: the JSON is truncated, never read past N.
  std::string const header = R"({"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})";
  expect_load_error([&] { (void)open(safetensors_bytes(header, "z", header.size() - 1)); }, "[safetensors.header]",
                    "m.safetensors header:1:");
}

TEST_F(Safetensors, EntryErrors) {
  expect_error(R"({"t": [1]})", "", "[safetensors.entry]",
               "m.safetensors: tensor \"t\" is an array, expected an object");
  expect_error(R"({"t": {"dtype":"U8","shape":[1]}})", "z", "[safetensors.entry]",
               "tensor \"t\": \"data_offsets\" is missing");
  expect_error(R"({"t": {"dtype":"U8","shape":[1],"data_offsets":[0,1],"offsets":[0,1]}})", "z", "[safetensors.entry]",
               "tensor \"t\": unexpected key \"offsets\"");
  expect_error(R"({"t": {"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "z", "[safetensors.entry]",
               "tensor \"t\": key \"dtype\" appears twice");
  expect_error(R"({"t": {"dtype":8,"shape":[1],"data_offsets":[0,1]}})", "z", "[safetensors.entry]",
               "tensor \"t\": \"dtype\" is an integer, expected a string");
  expect_error(R"({"t": {"dtype":"U8","shape":1,"data_offsets":[0,1]}})", "z", "[safetensors.entry]",
               "\"shape\" is an integer, expected an array");
  expect_error(R"({"t": {"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", "z", "[safetensors.entry]",
               "tensor \"t\": \"shape\"[0] must be a non-negative integer, is -1");
  expect_error(R"({"t": {"dtype":"U8","shape":[1.0],"data_offsets":[0,1]}})", "z", "[safetensors.entry]",
               "\"shape\"[0] must be a non-negative integer, is a number with a fraction or exponent");
  expect_error(R"({"t": {"dtype":"U8","shape":[1],"data_offsets":[0,1,2]}})", "z", "[safetensors.entry]",
               "\"data_offsets\" must be an array of two integers");
  expect_error(R"({"t": {"dtype":"U8","shape":[1],"data_offsets":["0",1]}})", "z", "[safetensors.entry]",
               "\"data_offsets\"[0] must be a non-negative integer, is a string");
}

TEST_F(Safetensors, UnknownDtype) {
  expect_error(R"({"w": {"dtype":"BF8","shape":[1],"data_offsets":[0,1]}})", "z", "[safetensors.dtype]",
               "m.safetensors: tensor \"w\": unknown dtype \"BF8\" (known: BOOL, U8, I8, F8_E5M2, F8_E4M3");
}

TEST_F(Safetensors, DuplicateName) {
  expect_error(
      R"({"w": {"dtype":"U8","shape":[1],"data_offsets":[0,1]}, "w": {"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
      "zz", "[safetensors.duplicate-name]", "m.safetensors: tensor \"w\" appears twice in the header");
}

TEST_F(Safetensors, ShapeMustMatchTheSpan) {
  // The example of the issue: a [12288, 4096] BF16 weight whose offsets span two bytes too few.
  std::string const header =
      R"({"model.layers.0.mlp.up_proj.weight": {"dtype":"BF16","shape":[12288,4096],"data_offsets":[0,100663294]}})";
  expect_load_error(
      [&] { (void)open(safetensors_bytes(header, ""), "model-00001-of-00004.safetensors"); }, "[safetensors.shape]",
      "cute-cpp [safetensors.shape]: model-00001-of-00004.safetensors: tensor \"model.layers.0.mlp.up_proj.weight\": "
      "shape [12288, 4096] of BF16 is 100663296 bytes, data_offsets span 100663294");
  expect_error(R"({"s": {"dtype":"F32","shape":[],"data_offsets":[0,8]}})", pattern(8), "[safetensors.shape]",
               "tensor \"s\": shape [] of F32 is 4 bytes, data_offsets span 8");
  expect_error(R"({"e": {"dtype":"F32","shape":[0,4],"data_offsets":[0,4]}})", pattern(4), "[safetensors.shape]",
               "shape [0, 4] of F32 is 0 bytes, data_offsets span 4");
  expect_error(R"({"f": {"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", pattern(2), "[safetensors.shape]",
               "tensor \"f\": shape [3] of F4 is 12 bits, not a whole number of bytes");
  expect_error(R"({"o": {"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", pattern(8),
               "[safetensors.shape]", "shape [4294967296, 4294967296] of F64 has more bytes than 64 bits can count");
}

TEST_F(Safetensors, OffsetsMustBeOrderedAndInsideTheBuffer) {
  expect_error(R"({"t": {"dtype":"U8","shape":[0],"data_offsets":[2,1]}})", "zz", "[safetensors.offsets]",
               "tensor \"t\": data_offsets [2, 1) end before they begin");
  expect_error(R"({"t": {"dtype":"U8","shape":[4],"data_offsets":[0,4]}})", "zzz", "[safetensors.offsets]",
               "m.safetensors: tensor \"t\": data_offsets [0, 4) reach past the data buffer's 3 bytes");
  expect_error(R"({"t": {"dtype":"U8","shape":[1],"data_offsets":[18446744073709551614,18446744073709551615]}})", "z",
               "[safetensors.entry]",
               "\"data_offsets\"[0] must be a non-negative integer, is an integer outside the 64-bit range");
}

TEST_F(Safetensors, RangesMustNotOverlap) {
  expect_error(
      R"({"a": {"dtype":"U8","shape":[3],"data_offsets":[0,3]}, "b": {"dtype":"U8","shape":[3],"data_offsets":[2,5]}})",
      "zzzzz", "[safetensors.overlap]", "m.safetensors: tensor \"b\" at [2, 5) overlaps tensor \"a\" at [0, 3)");
  expect_error(
      R"({"a": {"dtype":"U8","shape":[2],"data_offsets":[0,2]}, "b": {"dtype":"U8","shape":[2],"data_offsets":[0,2]}})",
      "zz", "[safetensors.overlap]", "tensor \"b\" at [0, 2) overlaps tensor \"a\" at [0, 2)");
  // An empty tensor placed inside another's bytes is rejected too, as by the reference.
  expect_error(
      R"({"a": {"dtype":"U8","shape":[4],"data_offsets":[0,4]}, "e": {"dtype":"U8","shape":[0],"data_offsets":[2,2]}})",
      "zzzz", "[safetensors.overlap]", "tensor \"e\" at [2, 2) overlaps tensor \"a\" at [0, 4)");
}

TEST_F(Safetensors, RangesMustCoverTheBuffer) {
  expect_error(
      R"({"a": {"dtype":"U8","shape":[2],"data_offsets":[0,2]}, "b": {"dtype":"U8","shape":[2],"data_offsets":[3,5]}})",
      "zzzzz", "[safetensors.coverage]", "m.safetensors: bytes [2, 3) of the data buffer belong to no tensor");
  expect_error(R"({"b": {"dtype":"U8","shape":[2],"data_offsets":[1,3]}})", "zzz", "[safetensors.coverage]",
               "bytes [0, 1) of the data buffer belong to no tensor");
  expect_error(R"({"a": {"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", "zzzz", "[safetensors.coverage]",
               "bytes [2, 4) of the data buffer belong to no tensor");
  expect_error("{}", "z", "[safetensors.coverage]", "bytes [0, 1) of the data buffer belong to no tensor");
}

TEST_F(Safetensors, MetadataMustMapStringsToStrings) {
  expect_error(R"({"__metadata__": {"format": 1}})", "", "[safetensors.metadata]",
               "m.safetensors: \"__metadata__\".\"format\" is an integer, expected a string");
  expect_error(R"({"__metadata__": ["pt"]})", "", "[safetensors.metadata]",
               "\"__metadata__\" is an array, expected an object");
  expect_error(R"({"__metadata__": {}, "__metadata__": {}})", "", "[safetensors.metadata]",
               "\"__metadata__\" appears twice");
  expect_error(R"({"__metadata__": {"k": "a", "k": "b"}})", "", "[safetensors.metadata]",
               "\"__metadata__\" holds the key \"k\" twice");
}

TEST_F(Safetensors, EveryTruncationOfAGoodFileIsAnError) {
  std::string const good = well_formed({{"a", "F32", {2, 2}, pattern(16)}, {"b", "BF16", {3}, pattern(6, 7)}});
  (void)open(good);
  for (std::size_t n = 0; n < good.size(); ++n) {
    SCOPED_TRACE(n);
    EXPECT_THROW((void)open(good.substr(0, n)), cm::LoadError);
  }
}
