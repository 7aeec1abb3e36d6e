// SPDX-License-Identifier: Apache-2.0
// models/common/cli's run_cli: the named command runs; --random-weights only where the command takes
// it (cute-cpp-qwen3's logits and generate do, for check_qwen3_tp.py's random Qwen3-0.6B; the other
// programs' bench alone), refused elsewhere with the commands that take it named.
#include "models/common/cli.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cm = cute_cpp::models;

namespace {

constexpr const char* kRule = "cute-cpp [toy.usage]: the command line of a toy program";

int ran = 0;
int run_counted(const cm::CliArgs&) { return ++ran, 0; }

cm::CliArgs parse(int argc, char** argv) {
  static const char* const flags[] = {"eager"};
  return cm::parse_cli(argc, argv, flags, kRule, "usage: toy ...");
}

/// run_cli over `commands` with `args` after the program's name: the exit status and stderr.
template <std::size_t N>
std::pair<int, std::string> run(const cm::CliCommand (&commands)[N], std::vector<std::string> args) {
  args.insert(args.begin(), "toy");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  int const status = cm::run_cli(int(argv.size()), argv.data(), parse, commands);
  return {status, testing::internal::GetCapturedStderr()};
}

constexpr cm::CliCommand kBenchOnly[] = {{"logits", run_counted}, {"bench", run_counted, true}};
constexpr cm::CliCommand kEvery[] = {
    {"generate", run_counted, true}, {"logits", run_counted, true}, {"bench", run_counted, true}};

}  // namespace

TEST(RunCli, RandomWeightsWhereTheCommandTakesThem) {
  ran = 0;
  EXPECT_EQ(run(kBenchOnly, {"bench", "--random-weights", "7"}).first, 0);
  EXPECT_EQ(run(kEvery, {"logits", "--random-weights", "7"}).first, 0);
  EXPECT_EQ(run(kEvery, {"generate", "--eager", "--random-weights", "7"}).first, 0);
  EXPECT_EQ(ran, 3);
}

TEST(RunCli, RandomWeightsRefusedElsewhereNamingTheCommandsThatTakeThem) {
  ran = 0;
  auto const [status, err] = run(kBenchOnly, {"logits", "--random-weights", "7"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("cute-cpp [toy.usage]: --random-weights is accepted by bench only: logits's output would "
                      "come from random weights\nusage: toy ...", 0),
            0u)
      << err;
  EXPECT_EQ(ran, 0);
}

TEST(RunCli, AnUnknownCommandIsNamedBeforeItsOptions) {
  auto const [status, err] = run(kBenchOnly, {"serve", "--random-weights", "7"});
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("cute-cpp [toy.usage]: unknown command \"serve\"", 0), 0u) << err;
}
