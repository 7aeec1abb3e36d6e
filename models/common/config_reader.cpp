// SPDX-License-Identifier: Apache-2.0
// models/common/config_reader.cpp: the typed config.json reads shared by the config parsers.
#include "models/common/config_reader.hpp"

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

const Json* ConfigReader::optional(std::string_view key) const {
  auto const* v = config_.find(key);
  return v == nullptr || v->is_null() ? nullptr : v;
}

std::int64_t ConfigReader::positive_int(std::string_view key) const {
  return int_in(key, 1, kConfigIntMax, "a positive integer");
}

std::int64_t ConfigReader::int_in(std::string_view key, std::int64_t lo, std::int64_t hi,
                                  std::string_view range) const {
  std::int64_t const v = config_.at(key).as_int();
  if (v < lo || v > hi)
    fail(kRuleConfigValue, in_quotes(key) + " is " + std::to_string(v) + ", expected " + std::string(range));
  return v;
}

double ConfigReader::positive_real(std::string_view key) const {
  double const v = config_.at(key).as_double();
  if (!(v > 0)) fail(kRuleConfigValue, in_quotes(key) + " is " + std::to_string(v) + ", expected a positive number");
  return v;
}

bool ConfigReader::boolean(std::string_view key, bool absent) const {
  auto const* v = optional(key);
  return v == nullptr ? absent : v->as_bool();
}

double ConfigReader::real_or(std::string_view key, double absent) const {
  auto const* v = optional(key);
  return v == nullptr ? absent : v->as_double();
}

const std::string& ConfigReader::string(std::string_view key) const { return config_.at(key).as_string(); }

std::string ConfigReader::torch_dtype() const {
  // NOTE: transformers >= 4.56 writes "dtype" where older versions wrote "torch_dtype".
  auto const* torch_dtype = config_.find("torch_dtype");
  auto const* dtype = config_.find("dtype");
  if (torch_dtype == nullptr && dtype == nullptr) (void)config_.at("torch_dtype");  // the json.missing error
  std::string const value = (torch_dtype != nullptr ? torch_dtype : dtype)->as_string();
  if (torch_dtype != nullptr && dtype != nullptr && dtype->as_string() != value)
    fail(kRuleConfigValue,
         "\"torch_dtype\" is " + in_quotes(value) + " but \"dtype\" is " + in_quotes(dtype->as_string()));
  if (value != "bfloat16" && value != "float16" && value != "float32")
    fail(kRuleConfigValue,
         "\"torch_dtype\" is " + in_quotes(value) + ", expected \"bfloat16\", \"float16\" or \"float32\"");
  return value;
}

void ConfigReader::fail(std::string_view rule, const std::string& detail) const {
  throw LoadError(rule, file() + ": " + detail);
}

std::vector<std::int32_t> config_eos_ids(const std::filesystem::path& folder) {
  Json const config = read_json_file(folder / "config.json");
  std::vector<std::int32_t> ids;
  if (const Json* eos = config.find("eos_token_id"); eos != nullptr && !eos->is_null()) {
    if (eos->is_array()) {
      for (const Json& e : eos->as_array()) ids.push_back(std::int32_t(e.as_int()));
    } else {
      ids.push_back(std::int32_t(eos->as_int()));
    }
  }
  return ids;
}

}  // namespace cute_cpp::models
