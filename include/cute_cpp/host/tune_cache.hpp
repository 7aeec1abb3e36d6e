// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TuneCache: an autotuner's winners on disk, one per (GPU, clock class, problem, shape), so that
// later calls and later processes run the measured plan without timing again. CuTeDSL's
// autotune_jit keeps its results in memory; ours chooses among compiled plans only and keeps them
// in a text file (one tab-separated entry per line under a version line). A file that does not
// parse whole (another version, a torn write, a hand edit) is ignored with a warning, never partly
// trusted; a writer replaces the file by renaming a complete copy over it.
#include <cute_cpp/host/error.hpp>  // argument_error

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace cute_cpp::host {

/// What a tuned plan was measured for.
struct TuneKey {
  std::string gpu;          ///< the device's name, e.g. "NVIDIA H200"
  int clock_class = 0;      ///< the maximum SM clock in 100 MHz steps: another class tunes again
  std::string problem;      ///< the kernel family with its types and layouts, e.g. "gemm bf16 TN"
  std::int64_t m = 0, n = 0, k = 0;
  friend bool operator==(TuneKey const&, TuneKey const&) = default;
};

/// A measured winner: the plan's name (as the tuner's candidates name it) and its time.
struct TuneEntry {
  TuneKey key;
  std::string plan;
  double microseconds = 0.0;
};

/// The winners of one cache file (see the file comment).
class TuneCache {
 public:
  static constexpr std::string_view version_line = "cute-cpp tune cache 1";

  /// The cache in `path`: empty when there is no such file; empty with `*warning` set when the
  /// file does not parse whole.
  static TuneCache read(std::filesystem::path const& path, std::string* warning) {
    TuneCache cache;
    std::ifstream in(path);
    if (!in) return cache;
    std::string line;
    int number = 1;
    auto const reject = [&](std::string const& why) {
      if (warning != nullptr)
        *warning = "cute-cpp [tune.cache]: ignoring " + path.string() + ": line " + std::to_string(number) + " " + why;
      return TuneCache{};
    };
    if (!std::getline(in, line) || line != version_line) return reject("is not \"" + std::string(version_line) + "\"");
    while (std::getline(in, line)) {
      ++number;
      std::optional<TuneEntry> entry = parse(line);
      if (!entry) return reject("is not an entry (gpu, clock class, problem, m, n, k, plan, microseconds)");
      cache.put(std::move(*entry));
    }
    return cache;
  }

  /// The entry for `key`, or null.
  [[nodiscard]] TuneEntry const* find(TuneKey const& key) const {
    for (TuneEntry const& e : entries_)
      if (e.key == key) return &e;
    return nullptr;
  }

  /// Adds `entry`, replacing the one of its key. Text fields may hold no tab or line break, sizes
  /// are at least 1 and the time positive [tune.key].
  void put(TuneEntry entry) {
    if (!names_valid(entry))
      argument_error("tune.key", "the GPU, problem and plan names must be non-empty, without tabs or line breaks");
    if (!values_valid(entry))
      argument_error("tune.key", "sizes must be at least 1, the clock class at least 0 and the time positive");
    for (TuneEntry& e : entries_) {
      if (e.key == entry.key) {
        e = std::move(entry);
        return;
      }
    }
    entries_.push_back(std::move(entry));
  }

  /// Writes every entry to a temporary file beside `path` (its folder made if missing) and renames
  /// it over `path`, so a reader sees the old file or the new one, whole. std::runtime_error when
  /// the file cannot be written.
  void write(std::filesystem::path const& path) const {
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    std::filesystem::path const temporary = path.string() + ".tmp" + std::to_string(temporary_suffix());
    {
      std::ofstream out(temporary, std::ios::trunc);
      out << version_line << '\n';
      for (TuneEntry const& e : entries_) {
        std::ostringstream time;
        time.precision(17);
        time << e.microseconds;
        out << e.key.gpu << '\t' << e.key.clock_class << '\t' << e.key.problem << '\t' << e.key.m << '\t' << e.key.n
            << '\t' << e.key.k << '\t' << e.plan << '\t' << time.str() << '\n';
      }
      if (!out.flush()) {
        std::filesystem::remove(temporary, ec);
        throw std::runtime_error("cute-cpp [tune.cache]: cannot write " + temporary.string());
      }
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
      std::filesystem::remove(temporary, ec);
      throw std::runtime_error("cute-cpp [tune.cache]: cannot replace " + path.string());
    }
  }

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }

 private:
  static std::optional<TuneEntry> parse(std::string_view line) {
    std::vector<std::string_view> fields;
    for (std::size_t start = 0;;) {
      std::size_t const tab = line.find('\t', start);
      fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (fields.size() != 8) return std::nullopt;
    auto const integer = [](std::string_view s, std::int64_t& out) {
      auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      return ec == std::errc{} && end == s.data() + s.size();
    };
    TuneEntry e;
    std::int64_t clock_class = 0;
    if (!integer(fields[1], clock_class) || !integer(fields[3], e.key.m) || !integer(fields[4], e.key.n) ||
        !integer(fields[5], e.key.k) || clock_class > 1'000'000)
      return std::nullopt;
    std::string const time(fields[7]);
    char* end = nullptr;
    e.microseconds = std::strtod(time.c_str(), &end);
    if (time.empty() || end != time.c_str() + time.size()) return std::nullopt;
    e.key.gpu = fields[0];
    e.key.clock_class = int(clock_class);
    e.key.problem = fields[2];
    e.plan = fields[6];
    if (!names_valid(e) || !values_valid(e)) return std::nullopt;
    return e;
  }

  /// What put() takes and parse() accepts [tune.key]: names non-empty without tabs or line breaks
  /// (the file's separators); sizes at least 1, the clock class at least 0, a positive finite time.
  static bool names_valid(TuneEntry const& e) {
    for (std::string const* field : {&e.key.gpu, &e.key.problem, &e.plan})
      if (field->empty() || field->find_first_of("\t\r\n") != std::string::npos) return false;
    return true;
  }
  static bool values_valid(TuneEntry const& e) {
    return e.key.m >= 1 && e.key.n >= 1 && e.key.k >= 1 && e.key.clock_class >= 0 && e.microseconds > 0.0 &&
           std::isfinite(e.microseconds);
  }

  /// Distinct per write, so that two writers at once (threads or processes) do not share a
  /// temporary file: a random start per process, counted up.
  static unsigned long long temporary_suffix() {
    static std::atomic<unsigned long long> next{(static_cast<unsigned long long>(std::random_device{}()) << 32) ^
                                                std::random_device{}()};
    return next++;
  }

  std::vector<TuneEntry> entries_;
};

/// Where the tuner keeps its cache: $CUTE_CPP_TUNE_CACHE, else $XDG_CACHE_HOME/cute-cpp/tune.txt,
/// else $HOME/.cache/cute-cpp/tune.txt, else tune.txt in the working folder.
inline std::filesystem::path default_tune_cache_path() {
  auto const env = [](char const* name) -> std::string {
    char const* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string();
  };
  if (std::string const p = env("CUTE_CPP_TUNE_CACHE"); !p.empty()) return p;
  if (std::string const p = env("XDG_CACHE_HOME"); !p.empty()) return std::filesystem::path(p) / "cute-cpp" / "tune.txt";
  if (std::string const p = env("HOME"); !p.empty()) return std::filesystem::path(p) / ".cache" / "cute-cpp" / "tune.txt";
  return "tune.txt";
}

}  // namespace cute_cpp::host
