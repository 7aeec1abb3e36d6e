// SPDX-License-Identifier: Apache-2.0
// models/common/cli.cpp: the decoder programs' shared command line (cli.hpp).
#include "models/common/cli.hpp"

#include <climits>    // INT32_MIN, INT32_MAX
#include <cstdio>     // std::fputs, std::fprintf
#include <exception>  // std::exception

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

namespace {

/// The value of --k read whole by `read` (std::stoll, std::stod), or an error naming the flag.
template <class Read>
auto parsed(const CliArgs& a, const std::string& k, const char* what, Read read) {
  std::string const v = a.get(k);
  std::size_t used = 0;
  decltype(read(v, &used)) x{};
  try {
    x = read(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty()) throw LoadError(a.rule, "--" + k + " takes " + what + ", got " + in_quotes(v));
  return x;
}

/// The names of the commands that take --random-weights: "bench", "generate, logits and bench".
std::string random_weights_commands(std::span<const CliCommand> commands) {
  std::vector<std::string_view> names;
  for (CliCommand const& c : commands)
    if (c.random_weights) names.push_back(c.name);
  if (names.empty()) return "no command";
  std::string text(names.front());
  for (std::size_t i = 1; i < names.size(); ++i) {
    text += i + 1 < names.size() ? ", " : " and ";
    text += names[i];
  }
  return text;
}

}  // namespace

std::string CliArgs::get(const std::string& k) const {
  auto const it = values.find(k);
  if (it == values.end()) throw LoadError(rule, "--" + k + " is required\n" + usage);
  return it->second;
}

long long CliArgs::number(const std::string& k, long long fallback) const {
  return has(k) ? parsed(*this, k, "an integer", [](const std::string& v, std::size_t* used) { return std::stoll(v, used); })
                : fallback;
}

double CliArgs::real(const std::string& k, double fallback) const {
  return has(k) ? parsed(*this, k, "a number", [](const std::string& v, std::size_t* used) { return std::stod(v, used); })
                : fallback;
}

CliArgs parse_cli(int argc, char** argv, std::span<const char* const> flags, std::string rule, std::string usage) {
  CliArgs a;
  a.rule = std::move(rule);
  a.usage = std::move(usage);
  if (argc < 2) throw LoadError(a.rule, std::string("no command\n") + a.usage);
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string const arg = argv[i];
    if (arg.rfind("--", 0) != 0) throw LoadError(a.rule, "unexpected argument " + in_quotes(arg) + "\n" + a.usage);
    std::string const name = arg.substr(2);
    bool is_flag = false;
    for (const char* f : flags) is_flag = is_flag || name == f;
    if (is_flag) {
      a.values[name] = "";
    } else {
      if (i + 1 >= argc) throw LoadError(a.rule, arg + " needs a value");
      a.values[name] = argv[++i];
    }
  }
  return a;
}

std::vector<std::vector<std::int32_t>> parse_id_lists(const std::string& text, const CliArgs& args) {
  std::vector<std::vector<std::int32_t>> lists(1);
  std::string number;
  auto const flush = [&] {
    if (number.empty()) return;
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != number.size() || v < INT32_MIN || v > INT32_MAX)
      throw LoadError(args.rule, "--ids: " + in_quotes(number) + " is not a 32-bit integer");
    lists.back().push_back(std::int32_t(v));
    number.clear();
  };
  for (char c : text) {
    if (c == ',' || c == ' ') {
      flush();
    } else if (c == ';') {
      flush();
      lists.emplace_back();
    } else {
      number += c;
    }
  }
  flush();
  return lists;
}

std::optional<std::uint64_t> random_weights_seed(const CliArgs& a) {
  if (!a.has("random-weights")) return std::nullopt;
  long long const seed = a.number("random-weights", 0);
  if (seed < 0) throw LoadError(a.rule, "--random-weights takes a seed of 0 or more, got " + std::to_string(seed));
  return std::uint64_t(seed);
}

int run_cli(int argc, char** argv, CliArgs (*parse)(int, char**), std::span<const CliCommand> commands) {
  try {
    CliArgs const a = parse(argc, argv);
    if (a.command == "--help" || a.command == "help") {
      std::fputs(a.usage.c_str(), stdout);
      return 0;
    }
    for (CliCommand const& c : commands) {
      if (a.command != c.name) continue;
      if (a.has("random-weights") && !c.random_weights)
        throw LoadError(a.rule, "--random-weights is accepted by " + random_weights_commands(commands) + " only: " +
                                    a.command + "'s output would come from random weights\n" + a.usage);
      return c.run(a);
    }
    throw LoadError(a.rule, "unknown command " + in_quotes(a.command) + "\n" + a.usage);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}

}  // namespace cute_cpp::models
