// SPDX-License-Identifier: Apache-2.0
// models/nemotron/runtime.hpp: the GPU decoder's host side on the published Nemotron-3 Nano config:
// the cache layout walked from the pattern, the state and KV bytes, a decode step's bytes against
// the manifest's own count, the options, the prompts' checks and every support rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/nemotron/runtime.hpp"
#include "models/nemotron/weights.hpp"
#include "tests/cpu/models/nemotron_nano_config.hpp"
#include "tests/cpu/models/qwen3_8b_config.hpp"  // with_line
#include "tests/cpu/models/st_writer.hpp"        // expect_load_error

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::nemotron_nano_config;
using cute_cpp::test::with_line;

namespace {

cm::NemotronHConfig nano() { return cm::parse_nemotron_h_config(cm::parse_json(nemotron_nano_config(), "config.json")); }
cm::NemotronHConfig nano_with(const std::string& key, const std::string& line) {
  return cm::parse_nemotron_h_config(cm::parse_json(with_line(nemotron_nano_config(), key, line), "config.json"));
}

}  // namespace

// "MEMEM*EMEMEM*E...": Mamba-2 layers at 0, 2, 4, 7, ...; attention at 5, 12, ...
TEST(NemotronCacheLayout, WalksTheNanoPattern) {
  cm::NemotronCacheLayout const c(nano());
  EXPECT_EQ(c.mamba_layers(), 23);
  EXPECT_EQ(c.attention_layers(), 6);
  EXPECT_EQ(c.mamba_index(0), 0);
  EXPECT_EQ(c.mamba_index(1), -1);  // MoE
  EXPECT_EQ(c.mamba_index(2), 1);
  EXPECT_EQ(c.mamba_index(4), 2);
  EXPECT_EQ(c.mamba_index(5), -1);  // attention
  EXPECT_EQ(c.attention_index(5), 0);
  EXPECT_EQ(c.mamba_index(7), 3);
  EXPECT_EQ(c.attention_index(12), 1);
  EXPECT_EQ(c.attention_index(0), -1);
  EXPECT_EQ(c.mamba_index(50), 22);     // the pattern ends "...MEME": layer 50 is the last M
  EXPECT_EQ(c.attention_index(42), 5);  // the sixth '*'
  EXPECT_THROW((void)c.mamba_index(52), std::out_of_range);
}

TEST(NemotronCacheLayout, StateAndKvSizes) {
  cm::NemotronCacheLayout const c(nano());
  // conv: 3 x (4096 + 2 x 8 x 128) bf16; SSM: 64 heads x 64 x 128 f32; K: 2 heads x 128.
  EXPECT_EQ(c.conv_state_elems(), 3 * 6144);
  EXPECT_EQ(c.ssm_state_elems(), 524288);
  EXPECT_EQ(c.kv_token_elems(), 256);
  EXPECT_EQ(c.state_bytes(1), 23u * (36864u + 2097152u));
  EXPECT_EQ(c.state_bytes(32), 32u * 49082368u);
  EXPECT_EQ(c.kv_bytes(10, 64), 6u * 2u * 640u * 256u * 2u);
}

// The step's weights at batch 1, from the manifest's published total (6243 tensors): all routed
// experts out, 6 per MoE layer in; the embedding's one row instead of all of it; dt_bias in f32.
TEST(NemotronStepBytes, MatchesTheManifestAtBatchOne) {
  auto const config = nano();
  cm::NemotronHWeightManifest const m(config);
  ASSERT_EQ(m.total_bytes(), 63155892352u);
  double const expert = 2.0 * 1856 * 2688 * 2;  // up and down, bf16
  double const embedding = 131072.0 * 2688 * 2;
  double const expected = double(m.total_bytes()) - 23 * 128 * expert + 23 * 6 * expert - embedding + 2688 * 2 +
                          23 * 64 * 2;
  auto const s = cm::decode_step_bytes(config, 1, 512);
  EXPECT_DOUBLE_EQ(s.weights, expected);
  EXPECT_DOUBLE_EQ(s.weights, 6455529728.0);
  EXPECT_DOUBLE_EQ(s.states, 2.0 * 23 * (36864 + 2097152));  // read and written
  EXPECT_DOUBLE_EQ(s.kv, 6.0 * 512 * 2 * 256 * 2);
  EXPECT_DOUBLE_EQ(s.total(), s.weights + s.states + s.kv);
}

// A large batch touches every expert: the whole manifest but the embedding (its rows instead).
TEST(NemotronStepBytes, LargeBatchesReadEveryExpert) {
  auto const config = nano();
  cm::NemotronHWeightManifest const m(config);
  int const batch = 4096;
  double const expected = double(m.total_bytes()) - 131072.0 * 2688 * 2 + batch * 2688.0 * 2 + 23 * 64 * 2;
  EXPECT_NEAR(cm::decode_step_bytes(config, batch, 1).weights / expected, 1.0, 1e-9);
  // Batch 32 lies between: more than 6 experts a layer, fewer than 128.
  auto const b32 = cm::decode_step_bytes(config, 32, 512).weights;
  EXPECT_GT(b32, cm::decode_step_bytes(config, 1, 512).weights);
  EXPECT_LT(b32, expected);
}

namespace {
/// Whether `call()` throws std::invalid_argument naming rule models.profile and `words`.
template <class Call>
void refuses_profile(Call&& call, char const* words) {
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("[models.profile]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(StepPhases, SumsEachNameAndTakesTheMedianReplay) {
  // A step of two layers: the opening mark, then each phase's closing mark in launch order.
  std::vector<const char*> const names{"start", "embedding", "add + rmsnorm", "mamba in_proj", "add + rmsnorm",
                                       "moe experts", "add + rmsnorm", "lm head"};
  std::vector<std::vector<double>> const gaps{{1, 2, 10, 3, 40, 2, 100},
                                              {1, 4, 30, 4, 50, 2, 110},
                                              {1, 2, 20, 2, 45, 3, 90}};
  auto const phases = cm::step_phases(names, gaps);
  ASSERT_EQ(phases.size(), 5u);
  EXPECT_EQ(phases[0].name, "embedding");
  EXPECT_EQ(phases[1].name, "add + rmsnorm");  // the order of first appearance
  EXPECT_EQ(phases[1].count, 3);
  EXPECT_DOUBLE_EQ(phases[1].microseconds, 7.0);  // the replays' sums 7, 10, 7
  EXPECT_EQ(phases[2].name, "mamba in_proj");
  EXPECT_DOUBLE_EQ(phases[2].microseconds, 20.0);
  EXPECT_EQ(phases[3].count, 1);
  EXPECT_DOUBLE_EQ(phases[4].microseconds, 100.0);
  // Two replays: the upper middle one.
  std::vector<std::vector<double>> const two{gaps[0], gaps[1]};
  EXPECT_DOUBLE_EQ(cm::step_phases(names, two)[2].microseconds, 30.0);
  std::vector<std::vector<double>> const short_replay{{1, 2}};
  refuses_profile([&] { (void)cm::step_phases(names, short_replay); }, "a replay has 2 phase times for 7 phases");
  refuses_profile([&] { (void)cm::step_phases(names, std::vector<std::vector<double>>{}); }, "a replay");
}

TEST(MarginalPhases, TakesTheMedianOfPairedDifferences) {
  // Three replays of a step whole and without each of two phases: a phase costs whole - without in
  // the same replay (a slow replay of the whole step is slow without the phase too).
  std::vector<std::string> const names{"moe router", "moe experts"};
  std::vector<int> const counts{48, 48};
  std::vector<double> const whole{3500, 3600, 3450};
  std::vector<std::vector<double>> const without{{3480, 3570, 3440}, {1800, 1900, 1700}};
  auto const m = cm::marginal_phases(names, counts, whole, without);
  EXPECT_DOUBLE_EQ(m.step_microseconds, 3500.0);
  ASSERT_EQ(m.phases.size(), 2u);
  EXPECT_EQ(m.phases[0].name, "moe router");
  EXPECT_EQ(m.phases[0].count, 48);
  EXPECT_DOUBLE_EQ(m.phases[0].microseconds, 20.0);  // differences 20, 30, 10: not the medians' 3500 - 3480
  EXPECT_DOUBLE_EQ(m.phases[1].microseconds, 1700.0);  // 1700, 1700, 1750
  // A phase that PDL hides entirely may cost nothing, or less than nothing in noise: kept as measured.
  std::vector<std::vector<double>> const hidden{{3510, 3600, 3460}, {1800, 1900, 1700}};
  EXPECT_DOUBLE_EQ(cm::marginal_phases(names, counts, whole, hidden).phases[0].microseconds, -10.0);
  refuses_profile([&] { (void)cm::marginal_phases(names, counts, std::vector<double>{}, without); },
                  "at least one replay");
  std::vector<std::vector<double>> const one{without[0]};
  refuses_profile([&] { (void)cm::marginal_phases(names, counts, whole, one); },
                  "2 phase names, 2 counts and 1 phases'");
  std::vector<std::vector<double>> const ragged{without[0], {1800, 1900}};
  refuses_profile([&] { (void)cm::marginal_phases(names, counts, whole, ragged); },
                  "phase \"moe experts\" has 2 replays for the whole step's 3");
}

TEST(MarginalPhases, ReportPrintsThePhasesOrSaysNotMeasured) {
  cm::MarginalProfile given;
  given.step_microseconds = 3500;
  given.phases = {{"moe router", 20.0, 48}, {"moe experts", 1700.0, 48}};
  testing::internal::CaptureStdout();
  auto const m = cm::report_marginal(1, [&] { return given; });
  std::string const printed = testing::internal::GetCapturedStdout();
  ASSERT_EQ(m.phases.size(), 2u);
  EXPECT_DOUBLE_EQ(m.phases[1].microseconds, 1700.0);
  EXPECT_NE(printed.find("marginal batch 1: moe experts"), std::string::npos) << printed;
  EXPECT_NE(printed.find("(the phases' sum 1720.0 us)"), std::string::npos) << printed;
  // A driver that refuses disabled nodes: the bench goes on without the profile.
  testing::internal::CaptureStdout();
  auto const none = cm::report_marginal(8, []() -> cm::MarginalProfile {
    throw std::runtime_error("cute-cpp [models.profile]: refused");
  });
  std::string const said = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(none.phases.empty());
  EXPECT_NE(said.find("marginal batch 8: not measured: cute-cpp [models.profile]: refused"), std::string::npos) << said;
}

TEST(NemotronOptions, ResolvesAndChecks) {
  auto const config = nano();
  auto const o = cm::resolve_options(config, {});
  EXPECT_EQ(o.max_seq, 4096);
  EXPECT_EQ(o.page_size, 128);
  EXPECT_EQ(o.num_pages, 32 * 32);  // 4096 tokens in pages of 128, for 32 sequences
  EXPECT_TRUE(o.cuda_graphs);
  EXPECT_TRUE(o.programmatic_launch);  // PDL decode graphs: checked bit-equal to plain ones (H100, 224d1a7)
  EXPECT_EQ(cm::resolve_options(config, {.max_seq = 0}).max_seq, 262144);
  expect_load_error([&] { (void)cm::resolve_options(config, {.page_size = 64}); }, "[nemotron.options]",
                    "page_size 64");
  expect_load_error([&] { (void)cm::resolve_options(config, {.max_seq = 262145}); }, "[nemotron.options]",
                    "max_seq 262145 (max_position_embeddings 262144)");
  expect_load_error([&] { (void)cm::resolve_options(config, {.max_batch = 0}); }, "[nemotron.options]",
                    "max_batch 0");
}

TEST(NemotronPrompts, ChecksEachPrompt) {
  auto const config = nano();
  std::vector<std::vector<std::int32_t>> ok{{1, 2, 3}, {131071}};
  EXPECT_NO_THROW(cm::check_prompts(config, 8, ok, 5));
  expect_load_error([&] { cm::check_prompts(config, 8, ok, 6); }, "[nemotron.input]",
                    "prompt 0: 3 tokens and 6 new ones exceed the sequence limit 8");
  std::vector<std::vector<std::int32_t>> const empty{{1}, {}};
  expect_load_error([&] { cm::check_prompts(config, 0, empty, 0); }, "[nemotron.input]", "prompt 1 is empty");
  std::vector<std::vector<std::int32_t>> const big{{1, 131072}};
  expect_load_error([&] { cm::check_prompts(config, 0, big, 0); }, "[nemotron.input]",
                    "prompt 0: id 131072 at position 1 is outside [0, 131072)");
}

TEST(NemotronSupport, NanoIsSupported) { EXPECT_NO_THROW(cm::check_nemotron_support(nano())); }

TEST(NemotronSupport, RefusesWhatTheKernelsDoNotTake) {
  expect_load_error([] { cm::check_nemotron_support(nano_with("torch_dtype", "\"torch_dtype\": \"float32\"")); },
                    "[nemotron.dtype]", "torch_dtype is \"float32\"");
  expect_load_error([] { cm::check_nemotron_support(nano_with("hidden_size", "\"hidden_size\": 2692")); },
                    "[nemotron.shape]", "hidden_size 2692");
  expect_load_error([] { cm::check_nemotron_support(nano_with("mamba_head_dim", "\"mamba_head_dim\": 32")); },
                    "[nemotron.mamba]", "mamba_head_dim 32");
  expect_load_error([] { cm::check_nemotron_support(nano_with("ssm_state_size", "\"ssm_state_size\": 64")); },
                    "[nemotron.mamba]", "ssm_state_size 64");
  // 36 heads in 4 groups: a valid config, but in_proj's 36 dt rows break the 16-byte row rule.
  std::string const heads36 = with_line(with_line(nemotron_nano_config(), "mamba_num_heads", "\"mamba_num_heads\": 36"),
                                        "n_groups", "\"n_groups\": 4");
  expect_load_error([&] { cm::check_nemotron_support(cm::parse_nemotron_h_config(cm::parse_json(heads36, "c"))); },
                    "[nemotron.mamba]", "mamba_num_heads 36");
  expect_load_error([] { cm::check_nemotron_support(nano_with("head_dim", "\"head_dim\": 96")); },
                    "[nemotron.attention]", "head_dim 96");
  expect_load_error([] { cm::check_nemotron_support(nano_with("n_routed_experts", "\"n_routed_experts\": 130")); },
                    "[nemotron.moe]", "n_routed_experts 130");
  expect_load_error(
      [] { cm::check_nemotron_support(nano_with("moe_intermediate_size", "\"moe_intermediate_size\": 1860")); },
      "[nemotron.moe]", "moe_intermediate_size 1860");
}
