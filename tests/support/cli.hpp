// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The shape every example program shares: `NAME [--no-bench] [--json FILE] [--seed N] [flags]`,
// a fresh seed printed for replay, a clean exit 2 without a GPU, checks first (exit 1 if any
// fails), then the benchmark table and its JSON records for scripts/gpu-check.
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
struct ExampleOptions {
  bool bench = true;
  std::string json;
  std::uint64_t seed = 0;
  std::set<std::string, std::less<>> flags;  ///< the example's own flags that were given
  [[nodiscard]] bool has(std::string_view flag) const { return flags.count(flag) != 0; }
};

/// Runs an example: `checks(rng, options)` returns whether every check passed;
/// `benchmarks(rng, options, records)` appends one Record per figure. Returns the exit code.
template <class Checks, class Benchmarks>
int run_example(char const* name, int argc, char** argv, Checks&& checks, Benchmarks&& benchmarks,
                std::initializer_list<std::string_view> extra_flags = {}) {
  ExampleOptions options;
  options.seed = fresh_seed();
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    bool const known_flag = std::find(extra_flags.begin(), extra_flags.end(), arg) != extra_flags.end();
    if (arg == "--no-bench") options.bench = false;
    else if (arg == "--json" && i + 1 < argc) options.json = argv[++i];
    else if (arg == "--seed" && i + 1 < argc) options.seed = std::stoull(argv[++i]);
    else if (known_flag) options.flags.insert(arg);
    else {
      std::string usage = std::string("usage: ") + argv[0] + " [--no-bench] [--json FILE] [--seed N]";
      for (auto flag : extra_flags) usage += " [" + std::string(flag) + "]";
      std::fprintf(stderr, "%s\n", usage.c_str());
      return 2;
    }
  }
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "%s: no CUDA device; nothing to run\n", name);
      return 2;
    }
    std::printf("%s: seed %llu\n", name, static_cast<unsigned long long>(options.seed));
    std::mt19937_64 rng(options.seed);
    if (!checks(rng, options)) {
      std::printf("%s: CHECK FAILED\n", name);
      return 1;
    }
    if (options.bench) {
      std::vector<Record> records;
      benchmarks(rng, options, records);
      print_table(records);
      if (!options.json.empty()) write_json(options.json, records);
    }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
  return 0;
}

}  // namespace cute_cpp::kernels
