// SPDX-License-Identifier: Apache-2.0
// models/common/rope.hpp: RoPE's inverse frequencies and cos/sin scale, plain and YaRN, for configs
// read from config.json text, against values computed independently of the C++ code.
#include "models/common/rope.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/common/json.hpp"
#include "tests/cpu/models/qwen3_8b_config.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::kQwenYarn;
using cute_cpp::test::qwen3_8b_config;
using cute_cpp::test::with_line;

namespace {
// The expected inverse frequencies, as printed by tests/cpu/models/rope_reference.py (numpy 2.2.6):
// transformers 5's _compute_yarn_parameters written out in numpy, each step rounded to float32 as
// torch rounds it, theta^(2i/d) rounded to float32 from float64. Here they agree bit for bit with
// rope_frequencies (glibc's powf is correctly rounded at these points); the test allows 4 ulps.

// kQwen3_8b: head_dim 128, theta 1e+06, max_position_embeddings 40960;
//   factor 4.0, original_max_position_embeddings 32768:
//   correction range [23, 40], cos/sin scale 1.13862944
constexpr float kQwen3_8b[64] = {
    1.0f, 0.805842221f, 0.649381638f, 0.523299158f, 0.421696514f, 0.339820832f,
    0.273841977f, 0.220673397f, 0.177827939f, 0.143301263f, 0.115478203f, 0.0930572003f,
    0.0749894157f, 0.0604296438f, 0.0486967526f, 0.0392418988f, 0.0316227786f, 0.0254829675f,
    0.0205352511f, 0.0165481716f, 0.0133352149f, 0.0107460786f, 0.00865964312f, 0.00697830599f,
    0.00537532149f, 0.0041317381f, 0.00316842273f, 0.00242342241f, 0.00184827659f, 0.00140511245f,
    0.00106436096f, 0.000802959781f, 0.000602941145f, 0.000450323569f, 0.000334240554f, 0.000246258394f,
    0.000179841154f, 0.000129931475f, 9.26230132e-05f, 6.4903943e-05f, 4.44569851e-05f, 3.58253164e-05f,
    2.88695483e-05f, 2.32643015e-05f, 1.87473561e-05f, 1.51074091e-05f, 1.21741887e-05f, 9.81047469e-06f,
    7.90569356e-06f, 6.37074163e-06f, 5.13381246e-06f, 4.13704265e-06f, 3.33380353e-06f, 2.68651957e-06f,
    2.16491094e-06f, 1.74457659e-06f, 1.40585337e-06f, 1.13289593e-06f, 9.1293532e-07f, 7.35681795e-07f,
    5.92843435e-07f, 4.7773824e-07f, 3.84981632e-07f, 3.10234441e-07f,
};
// kMscaleUntruncated: head_dim 64, theta 10000, max_position_embeddings 4096;
//   factor 8.0, original_max_position_embeddings 2048, mscale 0.707, mscale_all_dim 1.0, beta_fast 16,
//   beta_slow 2, truncate False:
//   correction range [10.4722, 17.697], cos/sin scale 0.949560881
constexpr float kMscaleUntruncated[32] = {
    1.0f, 0.749894202f, 0.562341332f, 0.421696514f, 0.316227764f, 0.237137362f,
    0.177827939f, 0.133352146f, 0.100000001f, 0.0749894157f, 0.0562341288f, 0.0394742489f,
    0.0257716179f, 0.0164539684f, 0.0101850266f, 0.00602263911f, 0.00330522214f, 0.00157035538f,
    0.000702926656f, 0.000527120603f, 0.000395284733f, 0.000296421727f, 0.000222284929f, 0.000166690181f,
    0.000125000006f, 9.37367731e-05f, 7.02926627e-05f, 5.2712061e-05f, 3.95284733e-05f, 2.96421731e-05f,
    2.22284925e-05f, 1.66690188e-05f,
};
// kTinyYarn: head_dim 64, theta 1e+06, max_position_embeddings 1024;
//   factor 4.0, original_max_position_embeddings 256:
//   correction range [0, 9], cos/sin scale 1.13862944
constexpr float kTinyYarn[32] = {
    1.0f, 0.595266521f, 0.351413757f, 0.205381483f, 0.118551962f, 0.0673622787f,
    0.0374947079f, 0.0202903133f, 0.0105409259f, 0.00513381278f, 0.00333380373f, 0.00216491078f,
    0.00140585331f, 0.000912935357f, 0.000592843455f, 0.000384981628f, 0.000250000012f, 0.000162345415f,
    0.000105424122f, 6.84604893e-05f, 4.44569851e-05f, 2.88695483e-05f, 1.87473561e-05f, 1.21741887e-05f,
    7.90569356e-06f, 5.13381246e-06f, 3.33380353e-06f, 2.16491094e-06f, 1.40585337e-06f, 9.1293532e-07f,
    5.92843435e-07f, 3.84981632e-07f,
};
// kEqualBetas: head_dim 64, theta 1e+06, max_position_embeddings 4096;
//   factor 2.0, beta_fast 8, beta_slow 8, truncate False:
//   correction range [10.1925, 10.1935], cos/sin scale 1.06931472
constexpr float kEqualBetas[32] = {
    1.0f, 0.649381638f, 0.421696514f, 0.273841977f, 0.177827939f, 0.115478203f,
    0.0749894157f, 0.0486967526f, 0.0316227786f, 0.0205352511f, 0.0133352149f, 0.00432982156f,
    0.00281170662f, 0.00182587071f, 0.00118568691f, 0.000769963255f, 0.000500000024f, 0.000324690831f,
    0.000210848244f, 0.000136920979f, 8.89139701e-05f, 5.77390965e-05f, 3.74947122e-05f, 2.43483773e-05f,
    1.58113871e-05f, 1.02676249e-05f, 6.66760707e-06f, 4.32982188e-06f, 2.81170674e-06f, 1.82587064e-06f,
    1.18568687e-06f, 7.69963265e-07f,
};

/// The Qwen3-8B config with each (key, line) replaced or added, parsed.
cm::Qwen3Config parse(const std::vector<std::pair<std::string, std::string>>& lines) {
  std::string text = qwen3_8b_config();
  for (auto const& [key, line] : lines) text = with_line(text, key, line);
  return cm::parse_qwen3_config(cm::parse_json(text, "config.json"));
}

std::pair<std::string, std::string> rope_scaling(const std::string& object) {
  return {"hidden_act", "  \"rope_scaling\": " + object};
}

void expect_inv_freq(const cm::RopeFrequencies& r, std::span<const float> expected) {
  ASSERT_EQ(r.inv_freq.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(r.inv_freq[i], expected[i]) << "pair " << i;
}
}  // namespace

TEST(RopeFrequencies, PlainRopeIsThetaToTheMinus2iOverD) {
  auto const r = cm::rope_frequencies(parse({}));
  ASSERT_EQ(r.inv_freq.size(), 64u);
  EXPECT_EQ(r.cos_sin_scale, 1.0f);
  for (int i = 0; i < 64; ++i) EXPECT_FLOAT_EQ(r.inv_freq[std::size_t(i)], float(std::pow(1e6, -2.0 * i / 128))) << i;
}

// Qwen's 131072-token setting on the published Qwen3-8B config (max_position_embeddings 40960):
// factor 4 as written, the correction range [23, 40] over 32768 positions, scale 0.1 ln 4 + 1.
// (transformers before its PR #40320 replaced the factor by 40960 / 32768 = 1.25 here: scale 1.0223.)
TEST(RopeFrequencies, Qwen3_8bWithQwensYarnSetting) {
  auto const r = cm::rope_frequencies(parse({rope_scaling(kQwenYarn)}));
  expect_inv_freq(r, kQwen3_8b);
  EXPECT_FLOAT_EQ(r.cos_sin_scale, 1.13862944f);
  EXPECT_EQ(r.inv_freq[0], 1.0f);  // pairs below the range keep plain RoPE's frequency
  EXPECT_FLOAT_EQ(r.inv_freq[63], float(std::pow(1e6, -126.0 / 128) / 4));  // above it: divided by the factor
}

// attention_factor given: it is the scale as it stands (and with max_position_embeddings 131072 the
// frequencies are the same: the factor is 4 either way).
TEST(RopeFrequencies, AttentionFactorGivenIsTheScale) {
  auto const r = cm::rope_frequencies(
      parse({{"max_position_embeddings", "  \"max_position_embeddings\": 131072"},
             rope_scaling(R"({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, )"
                          R"("attention_factor": 1.25})")}));
  expect_inv_freq(r, kQwen3_8b);
  EXPECT_EQ(r.cos_sin_scale, 1.25f);
}

// mscale / mscale_all_dim set the scale; betas 16 and 2; the correction range [10.47, 17.70] kept
// fractional (truncate false).
TEST(RopeFrequencies, MscaleRatioAndAnUntruncatedRange) {
  auto const r = cm::rope_frequencies(
      parse({{"head_dim", "  \"head_dim\": 64"},
             {"rope_theta", "  \"rope_theta\": 10000"},
             {"max_position_embeddings", "  \"max_position_embeddings\": 4096"},
             rope_scaling(R"({"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 2048, )"
                          R"("mscale": 0.707, "mscale_all_dim": 1.0, "beta_fast": 16, "beta_slow": 2, )"
                          R"("truncate": false})")}));
  expect_inv_freq(r, kMscaleUntruncated);
  EXPECT_FLOAT_EQ(r.cos_sin_scale, 0.949560881f);  // (0.0707 ln 8 + 1) / (0.1 ln 8 + 1)
}

// check_qwen3.py's tiny-yarn checkpoint: the range [0, 9] starts at the first pair.
TEST(RopeFrequencies, TheGpuChecksTinyYarn) {
  auto const r = cm::rope_frequencies(
      parse({{"head_dim", "  \"head_dim\": 64"},
             {"max_position_embeddings", "  \"max_position_embeddings\": 1024"},
             rope_scaling(R"({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 256})")}));
  expect_inv_freq(r, kTinyYarn);
  EXPECT_FLOAT_EQ(r.cos_sin_scale, 1.13862944f);
}

// beta_fast == beta_slow, untruncated: low == high, so high moves up by 0.001 and the ramp is a step
// between pairs 10 and 11.
TEST(RopeFrequencies, AnEmptyRangeIsAStep) {
  auto const r = cm::rope_frequencies(
      parse({{"head_dim", "  \"head_dim\": 64"},
             {"max_position_embeddings", "  \"max_position_embeddings\": 4096"},
             rope_scaling(R"({"rope_type": "yarn", "factor": 2.0, "beta_fast": 8, "beta_slow": 8, )"
                          R"("truncate": false})")}));
  expect_inv_freq(r, kEqualBetas);
  EXPECT_FLOAT_EQ(r.cos_sin_scale, 1.06931472f);
  EXPECT_FLOAT_EQ(r.inv_freq[10], float(std::pow(1e6, -20.0 / 64)));
  EXPECT_FLOAT_EQ(r.inv_freq[11], float(std::pow(1e6, -22.0 / 64) / 2));
}
