// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The shape the kernels' programs share: a fresh seed printed for replay, a clean exit 2 without
// a GPU. A check program (run_check) exits 1 if a check fails; a benchmark (run_bench) prints its
// table and writes its JSON records for scripts/gpu-check.
#include "bench/support/bench.hpp"
#include "tests/support/check.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cute_cpp::kernels {

/// What the command line asked for.
struct ProgramOptions {
  std::string json;
  std::uint64_t seed = 0;
  std::set<std::string, std::less<>> flags;  ///< the program's own flags that were given
  [[nodiscard]] bool has(std::string_view flag) const { return flags.count(flag) != 0; }
};

namespace detail {
/// Reads `[--json FILE] [--seed N] [flags]` (--json where `timed`); false after printing the usage
/// for anything else.
inline bool parse_program_options(int argc, char** argv, bool timed, std::initializer_list<std::string_view> extra_flags,
                                  ProgramOptions& options) {
  options.seed = fresh_seed();
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    bool const known_flag = std::find(extra_flags.begin(), extra_flags.end(), arg) != extra_flags.end();
    if (timed && arg == "--json" && i + 1 < argc) options.json = argv[++i];
    else if (arg == "--seed" && i + 1 < argc) options.seed = std::stoull(argv[++i]);
    else if (known_flag) options.flags.insert(arg);
    else {
      std::string usage = std::string("usage: ") + argv[0] + (timed ? " [--json FILE]" : "") + " [--seed N]";
      for (auto flag : extra_flags) usage += " [" + std::string(flag) + "]";
      std::fprintf(stderr, "%s\n", usage.c_str());
      return false;
    }
  }
  return true;
}

/// Runs `body(rng)` with a fresh (or the given) seed printed for replay: 2 without a GPU, 1 on an
/// exception (printed), else what `body` returns. stdout is line-buffered, so that a log of both
/// streams shows an error after the check lines printed before it (a file is otherwise written in
/// blocks, and the last ones land after stderr's message).
template <class Body>
int with_device(char const* name, ProgramOptions const& options, Body&& body) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "%s: no CUDA device; nothing to run\n", name);
      return 2;
    }
    std::printf("%s: seed %llu\n", name, static_cast<unsigned long long>(options.seed));
    std::mt19937_64 rng(options.seed);
    return body(rng);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}
}  // namespace detail

/// A kernel check program (tests/gpu/<family>): `NAME [--seed N] [flags]`; `checks(rng, options)`
/// returns whether every check passed. Exit 0, 1 when a check failed, 2 without a GPU.
template <class Checks>
int run_check(char const* name, int argc, char** argv, Checks&& checks,
              std::initializer_list<std::string_view> extra_flags = {}) {
  ProgramOptions options;
  if (!detail::parse_program_options(argc, argv, false, extra_flags, options)) return 2;
  return detail::with_device(name, options, [&](std::mt19937_64& rng) {
    if (checks(rng, options)) return 0;
    std::printf("%s: CHECK FAILED\n", name);
    return 1;
  });
}

/// A kernel family's benchmark (bench/<family>): `NAME [--json FILE] [--seed N] [flags]`;
/// `benchmarks(rng, options, records)` appends one Record per figure, printed as a table and
/// written to FILE for scripts/gpu-check.
template <class Benchmarks>
int run_bench(char const* name, int argc, char** argv, Benchmarks&& benchmarks,
              std::initializer_list<std::string_view> extra_flags = {}) {
  ProgramOptions options;
  if (!detail::parse_program_options(argc, argv, true, extra_flags, options)) return 2;
  return detail::with_device(name, options, [&](std::mt19937_64& rng) {
    std::vector<Record> records;
    benchmarks(rng, options, records);
    print_table(records);
    if (!options.json.empty()) write_json(options.json, records);
    return 0;
  });
}

}  // namespace cute_cpp::kernels
