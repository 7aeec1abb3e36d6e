// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/config_reader.hpp: typed, range-checked reads of a config.json's fields, shared by
// the model families' config parsers (parse_qwen3_config, parse_nemotron_h_config), and the config
// rules they report: config.value, config.unsupported, config.model-type.
#include <cstdint>      // std::int64_t, std::int32_t
#include <filesystem>   // std::filesystem::path
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/json.hpp"  // Json

namespace cute_cpp::models {

inline constexpr char kRuleConfigModelType[] =
    "cute-cpp [config.model-type]: the config's model_type must be the model being loaded";
inline constexpr char kRuleConfigValue[] =
    "cute-cpp [config.value]: a config field must hold a value the decoder supports";
inline constexpr char kRuleConfigUnsupported[] =
    "cute-cpp [config.unsupported]: the config asks for a feature the decoder does not implement";

// ---- ConfigReader ----

/// Reads one config.json object's fields; every error names the file (Json::source()) and the field.
///   ConfigReader r(read_json_file("config.json"));
///   r.positive_int("hidden_size")  ->  4096
///   r.positive_int("vocab_size")   // "vocab_size": 0 -> cute-cpp [config.value]: config.json:
///                                  //   "vocab_size" is 0, expected a positive integer
class ConfigReader {
 public:
  /// @pre config is an object [json.type] (checked at the first read).
  explicit ConfigReader(const Json& config) : config_(config) {}

  [[nodiscard]] const Json& json() const noexcept { return config_; }
  [[nodiscard]] const std::string& file() const { return config_.source(); }
  /// The field, or nullptr when absent or null (transformers takes both as "use the default").
  [[nodiscard]] const Json* optional(std::string_view key) const;

  /// @pre present [json.missing], an integer [json.type], > 0 [config.value].
  [[nodiscard]] std::int64_t positive_int(std::string_view key) const;
  /// @pre present [json.missing], an integer [json.type] in [lo, hi] [config.value]; `range` says
  ///      what is expected in the message ("1 to \"num_experts\" (128)").
  [[nodiscard]] std::int64_t int_in(std::string_view key, std::int64_t lo, std::int64_t hi,
                                    std::string_view range) const;
  /// @pre present [json.missing], a number [json.type], > 0 [config.value].
  [[nodiscard]] double positive_real(std::string_view key) const;
  /// The boolean, or `absent` when the field is absent or null. @pre a boolean [json.type].
  [[nodiscard]] bool boolean(std::string_view key, bool absent) const;
  /// The number, or `absent` when the field is absent or null. @pre a number [json.type].
  [[nodiscard]] double real_or(std::string_view key, double absent) const;
  /// The string. @pre present [json.missing], a string [json.type].
  [[nodiscard]] const std::string& string(std::string_view key) const;

  /// "torch_dtype", or "dtype" as transformers >= 4.56 writes it.
  /// @pre one of them is present [json.missing]; both agree when both are given, and the value is
  ///      "bfloat16", "float16" or "float32" [config.value].
  [[nodiscard]] std::string torch_dtype() const;

  /// Throws LoadError(rule, "<file>: <detail>").
  [[noreturn]] void fail(std::string_view rule, const std::string& detail) const;

 private:
  const Json& config_;
};

/// The largest value int_in accepts as "any": sizes past it would overflow products of shapes.
inline constexpr std::int64_t kConfigIntMax = std::int64_t(1) << 62;

/// The stop ids config.json names: its eos_token_id, a number or a list (none when null or absent).
[[nodiscard]] std::vector<std::int32_t> config_eos_ids(const std::filesystem::path& folder);

}  // namespace cute_cpp::models
