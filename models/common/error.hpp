// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/error.hpp: the one exception type of the checkpoint loader. Each rule is a string
// literal next to its check, `cute-cpp [area.rule]: what the rule requires` in quotes (so that
// tools/gen_verification_doc.py lists it); the thrown text is `cute-cpp [area.rule]: ` followed by
// the specifics: the file, the tensor or field, and the values.
#include <stdexcept>    // std::invalid_argument
#include <string>       // std::string
#include <string_view>  // std::string_view

namespace cute_cpp::models {

/// A checkpoint, config or JSON document that cannot be used as it is.
///   LoadError(kRuleDtype, "m.safetensors: tensor \"w\": unknown dtype \"BF8\"").what()
///     -> cute-cpp [safetensors.dtype]: m.safetensors: tensor "w": unknown dtype "BF8"
///   where kRuleDtype is the rule's literal, cute-cpp [safetensors.dtype]: <what it requires>.
/// @pre rule_text holds the id in brackets, [<id>]; otherwise the whole text is taken as the id.
class LoadError : public std::invalid_argument {
 public:
  LoadError(std::string_view rule_text, const std::string& detail)
      : LoadError(std::string(id_of(rule_text)), detail, 0) {}
  /// The rule id, e.g. "json.syntax".
  [[nodiscard]] const std::string& rule() const noexcept { return rule_; }
  /// The message without the `cute-cpp [rule]: ` prefix, for wrapping into another error.
  [[nodiscard]] const std::string& detail() const noexcept { return detail_; }

 private:
  LoadError(std::string rule, const std::string& detail, int)
      : std::invalid_argument("cute-cpp [" + rule + "]: " + detail), rule_(std::move(rule)), detail_(detail) {}
  static std::string_view id_of(std::string_view text) noexcept {
    auto const open = text.find('[');
    auto const close = text.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return text;
    return text.substr(open + 1, close - open - 1);
  }
  std::string rule_;
  std::string detail_;
};

/// s in double quotes, as the loader's messages name tensors, keys and files.
inline std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace cute_cpp::models
