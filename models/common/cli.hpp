// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/cli.hpp: the command line the decoder programs share (cute-cpp-qwen3,
// cute-cpp-nemotron): `PROGRAM COMMAND --name value ... --flag`, id lists "1,2;3,4",
// --random-weights SEED. Every error is a LoadError under the program's usage rule. Host only.
#include <cstdint>      // std::int32_t, std::uint64_t
#include <functional>   // std::less
#include <map>          // std::map
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace cute_cpp::models {

/// A parsed command line: the command, --name value pairs, and flags (value "").
struct CliArgs {
  std::string command;
  std::map<std::string, std::string, std::less<>> values;
  std::string rule;   ///< the program's usage rule text (its id in brackets, then what it requires)
  std::string usage;  ///< the program's usage text, appended to some errors
  [[nodiscard]] bool has(const std::string& k) const { return values.count(k) != 0; }
  /// The value of --k. @pre given [usage rule: "--k is required"].
  [[nodiscard]] std::string get(const std::string& k) const;
  /// --k read whole as an integer (or `fallback` when absent). @pre an integer [usage rule].
  [[nodiscard]] long long number(const std::string& k, long long fallback) const;
  /// --k read whole as a number (or `fallback` when absent). @pre a number [usage rule].
  [[nodiscard]] double real(const std::string& k, double fallback) const;
};

/// argv[1] as the command, then --name value pairs; names in `flags` take no value.
/// @pre a command; every other argument starts with --; each non-flag has a value [usage rule].
[[nodiscard]] CliArgs parse_cli(int argc, char** argv, std::span<const char* const> flags, std::string rule,
                                std::string usage);

/// "1,2,3;4,5" -> {{1,2,3},{4,5}} (spaces separate too). @pre 32-bit integers [args.rule].
[[nodiscard]] std::vector<std::vector<std::int32_t>> parse_id_lists(const std::string& text, const CliArgs& args);

/// --random-weights SEED (for the commands that take it): a seed of 0 or more, or none. @pre 0 or more [usage rule].
[[nodiscard]] std::optional<std::uint64_t> random_weights_seed(const CliArgs& args);

/// One command of a program: its name, what runs it (the exit status), and whether it takes
/// --random-weights (bench's figures do not depend on the values; another command's output would come
/// from random weights, unless checks ask for them, as cute-cpp-qwen3's tensor-parallel ones do).
struct CliCommand {
  std::string_view name;
  int (*run)(const CliArgs&);
  bool random_weights = false;
};

/// A model program's main: the command line from `parse`, "help" / "--help" printing its usage, then
/// the named command of `commands`; --random-weights for a command that does not take it and unknown
/// commands are usage errors. Any error is printed on stderr and gives exit status 2.
int run_cli(int argc, char** argv, CliArgs (*parse)(int, char**), std::span<const CliCommand> commands);

}  // namespace cute_cpp::models
