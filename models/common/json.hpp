// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/json.hpp: a strict RFC 8259 JSON reader for checkpoint headers, index files and
// config.json. Every value remembers where it came from (the file and its path in the document),
// so a typed accessor that finds the wrong type names both:
//   cute-cpp [json.type]: config.json: "num_attention_heads" is a string, expected an integer
// Syntax errors give line:column. Input is read through bounds-checked views only.
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <filesystem>   // std::filesystem::path
#include <memory>       // std::shared_ptr
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <utility>      // std::pair
#include <variant>      // std::variant
#include <vector>       // std::vector

namespace cute_cpp::models {

/// Bounds on what parse_json accepts, so a hostile file costs bounded time and stack.
struct JsonLimits {
  std::size_t max_bytes = 100'000'000;  // the safetensors reference's header cap
  int max_depth = 128;                  // arrays and objects nested deeper are rejected
  // NOTE: safetensors headers want their own duplicate-name error naming the tensor, so their
  // reader keeps duplicates (in document order; find() returns the first) and checks itself.
  bool allow_duplicate_keys = false;
};

// ---- Json ----

/// One JSON value. Numbers written without fraction or exponent that fit in int64 are integers;
/// every other number is a double. Objects keep document order; their keys are unique unless
/// JsonLimits::allow_duplicate_keys was set.
class Json {
 public:
  enum class Kind : std::uint8_t { null, boolean, integer, number, string, array, object };
  using Array = std::vector<Json>;
  using Member = std::pair<std::string, Json>;
  using Object = std::vector<Member>;

  Json() = default;

  [[nodiscard]] Kind kind() const noexcept { return static_cast<Kind>(value_.index()); }
  [[nodiscard]] bool is_null() const noexcept { return kind() == Kind::null; }
  [[nodiscard]] bool is_object() const noexcept { return kind() == Kind::object; }
  [[nodiscard]] bool is_array() const noexcept { return kind() == Kind::array; }
  [[nodiscard]] bool is_string() const noexcept { return kind() == Kind::string; }

  /// Typed accessors.
  /// @pre the value has that kind [json.type]; as_double also takes an integer.
  [[nodiscard]] bool as_bool() const;
  [[nodiscard]] std::int64_t as_int() const;
  [[nodiscard]] double as_double() const;
  [[nodiscard]] const std::string& as_string() const;
  [[nodiscard]] const Array& as_array() const;
  [[nodiscard]] const Object& as_object() const;

  /// Members of an object (linear search: fine for configs, iterate large objects instead).
  ///   parse_json(R"({"a": 1})", "x.json").at("a").as_int()  ->  1
  /// @pre an object [json.type]; at: the key is present [json.missing].
  [[nodiscard]] const Json* find(std::string_view key) const;
  [[nodiscard]] const Json& at(std::string_view key) const;
  /// Elements of an array. @pre an array [json.type], i < size() [json.missing].
  [[nodiscard]] const Json& at(std::size_t i) const;
  /// Elements of an array or members of an object. @pre one of those [json.type].
  [[nodiscard]] std::size_t size() const;

  /// Where the value is: `"model"."layers"[3]`, or "the document" for the root.
  [[nodiscard]] std::string where() const;
  /// The file or name given to parse_json.
  [[nodiscard]] const std::string& source() const;
  /// "an integer", "a string", ... as used in the messages.
  [[nodiscard]] static std::string_view kind_name(Kind kind) noexcept;
  /// kind_name(kind()), or "an integer outside the 64-bit range" for such a number.
  [[nodiscard]] std::string_view kind_text() const noexcept;

 private:
  friend class JsonParser;
  [[noreturn]] void type_error(std::string_view expected) const;

  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
  bool integer_out_of_range_ = false;  // written as an integer, stored as a double
  std::string path_;                   // empty for the root
  std::shared_ptr<const std::string> source_;
};

/// Parses one JSON document; `source` names it in every error.
///   parse_json("[1, 2.5, \"\\u00e9\"]", "t.json")  ->  an array: 1 (integer), 2.5, "é"
/// @pre text.size() <= limits.max_bytes [json.size]; well-formed RFC 8259 JSON, UTF-8, one value
///      and nothing after it but whitespace [json.syntax]; no duplicate key unless allowed [json.duplicate-key];
///      nesting at most limits.max_depth [json.depth].
[[nodiscard]] Json parse_json(std::string_view text, std::string_view source, JsonLimits limits = {});

/// Reads and parses a file; errors name it by its file name.
/// @pre the file is readable [json.file], and parse_json's preconditions.
[[nodiscard]] Json read_json_file(const std::filesystem::path& path, JsonLimits limits = {});

}  // namespace cute_cpp::models
