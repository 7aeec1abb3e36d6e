// SPDX-License-Identifier: Apache-2.0
// TuneCache: entries survive a write and a read; a file that does not parse whole is ignored with a
// warning naming its line; bad keys are refused; the default path follows the environment.
#include <cute_cpp/host/tune_cache.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace host = cute_cpp::host;
namespace fs = std::filesystem;

namespace {
host::TuneEntry entry(std::int64_t m, std::string plan, double us) {
  return {{"NVIDIA H200", 19, "gemm bf16 TN", m, 4096, 4096}, std::move(plan), us};
}

/// A scratch folder per test, removed after it.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("cute_cpp_tune_" + std::to_string(std::random_device{}()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void write(std::string const& name, std::string const& text) const { std::ofstream(dir / name) << text; }
};
}  // namespace

TEST(TuneCache, EntriesSurviveAWriteAndARead) {
  Scratch scratch;
  host::TuneCache cache;
  cache.put(entry(1, "128x16x64s12c1 swapped split 4", 15.25));
  cache.put(entry(4096, "128x256x64s4c2", 185.75));
  cache.put(entry(1, "128x16x64s12c1 swapped split 2", 15.0));  // replaces the first
  EXPECT_EQ(cache.size(), 2u);
  fs::path const path = scratch.dir / "sub" / "tune.txt";  // the folder is made
  cache.write(path);
  std::string warning;
  auto const back = host::TuneCache::read(path, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(back.size(), 2u);
  auto const* found = back.find(entry(1, "", 1).key);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->plan, "128x16x64s12c1 swapped split 2");
  EXPECT_DOUBLE_EQ(found->microseconds, 15.0);
  auto other_clock = entry(1, "", 1).key;
  other_clock.clock_class = 17;
  EXPECT_EQ(back.find(other_clock), nullptr);  // another clock class is another key
  for (auto const& e : fs::directory_iterator(path.parent_path()))
    EXPECT_EQ(e.path().filename(), "tune.txt") << "a temporary file was left";
}

TEST(TuneCache, AMissingFileIsAnEmptyCache) {
  Scratch scratch;
  std::string warning;
  EXPECT_EQ(host::TuneCache::read(scratch.dir / "none.txt", &warning).size(), 0u);
  EXPECT_EQ(warning, "");
}

TEST(TuneCache, AFileThatDoesNotParseWholeIsIgnored) {
  Scratch scratch;
  std::string const good = "NVIDIA H200\t19\tgemm bf16 TN\t1\t4096\t4096\tplan\t15.5\n";
  struct Case {
    std::string text, line;
  } const cases[] = {
      {"cute-cpp tune cache 0\n" + good, "line 1"},                                      // another version
      {"cute-cpp tune cache 1\n" + good + "NVIDIA H200\t19\tgemm\t1\t4096\n", "line 3"},  // torn
      {"cute-cpp tune cache 1\nNVIDIA H200\t19\tgemm\t1x\t4096\t4096\tplan\t15.5\n", "line 2"},
      {"cute-cpp tune cache 1\nNVIDIA H200\t19\tgemm\t0\t4096\t4096\tplan\t15.5\n", "line 2"},
      {"cute-cpp tune cache 1\nNVIDIA H200\t19\tgemm\t1\t4096\t4096\tplan\t-3\n", "line 2"},
      {"cute-cpp tune cache 1\nNVIDIA H200\t19\tgemm\t1\t4096\t4096\t\t15.5\n", "line 2"},
      {"cute-cpp tune cache 1\nNVIDIA H200\t19\tgemm\t1\t4096\t4096\tplan\t15.5\textra\n", "line 2"},
      {"", "line 1"},
  };
  for (auto const& c : cases) {
    scratch.write("tune.txt", c.text);
    std::string warning;
    EXPECT_EQ(host::TuneCache::read(scratch.dir / "tune.txt", &warning).size(), 0u) << c.text;
    EXPECT_NE(warning.find("cute-cpp [tune.cache]"), std::string::npos) << warning;
    EXPECT_NE(warning.find(c.line), std::string::npos) << warning;
  }
  scratch.write("tune.txt", "cute-cpp tune cache 1\n" + good);
  std::string warning;
  EXPECT_EQ(host::TuneCache::read(scratch.dir / "tune.txt", &warning).size(), 1u);
  EXPECT_EQ(warning, "");
}

TEST(TuneCache, BadKeysAreRefused) {
  host::TuneCache cache;
  auto tab = entry(1, "plan", 1.0);
  tab.key.gpu = "NVIDIA\tH200";
  EXPECT_THROW(cache.put(tab), std::invalid_argument);
  EXPECT_THROW(cache.put(entry(0, "plan", 1.0)), std::invalid_argument);
  EXPECT_THROW(cache.put(entry(1, "", 1.0)), std::invalid_argument);
  EXPECT_THROW(cache.put(entry(1, "plan", 0.0)), std::invalid_argument);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(TuneCache, TheDefaultPathFollowsTheEnvironment) {
  ::setenv("CUTE_CPP_TUNE_CACHE", "/tmp/x/tune.txt", 1);
  EXPECT_EQ(host::default_tune_cache_path(), fs::path("/tmp/x/tune.txt"));
  ::unsetenv("CUTE_CPP_TUNE_CACHE");
  ::setenv("XDG_CACHE_HOME", "/tmp/cache", 1);
  EXPECT_EQ(host::default_tune_cache_path(), fs::path("/tmp/cache/cute-cpp/tune.txt"));
  ::unsetenv("XDG_CACHE_HOME");
}
