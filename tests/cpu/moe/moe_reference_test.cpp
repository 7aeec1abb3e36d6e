// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// tests/support/moe_reference.hpp against cases worked by hand: logits are chosen as logit(p) =
// ln(p / (1 - p)), so each expert's sigmoid score is the p written beside it.
#include "support/moe_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ref = cute_cpp::test::moe_ref;

namespace {

double logit(double p) { return std::log(p / (1 - p)); }
std::vector<double> logits_of(std::vector<double> const& scores) {
  std::vector<double> z;
  for (double p : scores) z.push_back(logit(p));
  return z;
}
ref::Routing nemotron_like(int experts, int k) {
  return {.sigmoid = true, .experts = experts, .top_k = k, .renormalize = true, .scaling = 2.5};
}

TEST(MoeReference, TopKTakesTheLowerIndexAmongEqualValues) {
  EXPECT_EQ(ref::top_k_indices({1, 3, 3, 2, 3}, 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(ref::top_k_indices({0, 0, 0, 0}, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ref::top_k_indices({-INFINITY, 5, -1}, 3), (std::vector<int>{1, 2, 0}));
}

TEST(MoeReference, SigmoidScoresNormalizedAndScaled) {
  // Scores 0.5, 0.75, 0.25, 0.9: the top two are experts 3 and 1; weights 0.9 / 1.65 and
  // 0.75 / 1.65, times 2.5.
  auto const c = ref::route_sigmoid(logits_of({0.5, 0.75, 0.25, 0.9}), {}, nemotron_like(4, 2));
  ASSERT_EQ(c.ids, (std::vector<int>{3, 1}));
  EXPECT_NEAR(c.weights[0], 2.5 * 0.9 / 1.65, 1e-12);
  EXPECT_NEAR(c.weights[1], 2.5 * 0.75 / 1.65, 1e-12);
}

TEST(MoeReference, SigmoidWithoutNormalizationIsScoreTimesScaling) {
  auto r = nemotron_like(4, 2);
  r.renormalize = false;
  auto const c = ref::route_sigmoid(logits_of({0.5, 0.75, 0.25, 0.9}), {}, r);
  ASSERT_EQ(c.ids, (std::vector<int>{3, 1}));
  EXPECT_NEAR(c.weights[0], 2.5 * 0.9, 1e-12);
  EXPECT_NEAR(c.weights[1], 2.5 * 0.75, 1e-12);
}

TEST(MoeReference, CorrectionBiasChoosesButDoesNotWeigh) {
  // Bias +1 on expert 2 (score 0.25): its choice value 1.25 is the highest, so experts 2 and 3
  // are chosen; the weights come from the scores 0.25 and 0.9 (sum 1.15), not from 1.25.
  auto const c = ref::route_sigmoid(logits_of({0.5, 0.75, 0.25, 0.9}), {0, 0, 1.0, 0}, nemotron_like(4, 2));
  ASSERT_EQ(c.ids, (std::vector<int>{2, 3}));
  EXPECT_NEAR(c.weights[0], 2.5 * 0.25 / 1.15, 1e-12);
  EXPECT_NEAR(c.weights[1], 2.5 * 0.9 / 1.15, 1e-12);
}

TEST(MoeReference, TiesInTheBiasedChoiceGoToTheLowerExpert) {
  // Choice values 0.75 + 0 and 0.25 + 0.5 are equal (and both exact in binary): k = 1 takes expert 0.
  auto const c = ref::route_sigmoid(logits_of({0.75, 0.25}), {0, 0.5}, nemotron_like(2, 1));
  ASSERT_EQ(c.ids, (std::vector<int>{0}));
  EXPECT_NEAR(c.weights[0], 2.5, 1e-12);  // one choice, normalized: 1 times the scaling
  auto const swapped = ref::route_sigmoid(logits_of({0.25, 0.75}), {0.5, 0}, nemotron_like(2, 1));
  EXPECT_EQ(swapped.ids, (std::vector<int>{0}));
}

TEST(MoeReference, GroupLimitedChoiceSkipsTheBestExpertOfAWeakGroup) {
  // Four groups of two: {0.9, 0.1} sums 1.0, {0.6, 0.6} 1.2, {0.55, 0.5} 1.05, {0.2, 0.2} 0.4. The
  // two best groups are 1 and 2, so the top two are experts 2 and 3 (0.6 each), not expert 0 (0.9).
  auto r = nemotron_like(8, 2);
  r.groups = 4, r.top_groups = 2;
  auto const c = ref::route_sigmoid(logits_of({0.9, 0.1, 0.6, 0.6, 0.55, 0.5, 0.2, 0.2}), {}, r);
  ASSERT_EQ(c.ids, (std::vector<int>{2, 3}));
  EXPECT_NEAR(c.weights[0], 1.25, 1e-12);
  // k = 3 reaches into group 2 (0.55), still not group 0.
  r.top_k = 3;
  EXPECT_EQ(ref::route_sigmoid(logits_of({0.9, 0.1, 0.6, 0.6, 0.55, 0.5, 0.2, 0.2}), {}, r).ids,
            (std::vector<int>{2, 3, 4}));
  // With one group the same scores give plain top k.
  r.groups = 1, r.top_groups = 1;
  EXPECT_EQ(ref::route_sigmoid(logits_of({0.9, 0.1, 0.6, 0.6, 0.55, 0.5, 0.2, 0.2}), {}, r).ids,
            (std::vector<int>{0, 2, 3}));
}

TEST(MoeReference, EqualGroupsKeepTheLowerGroup) {
  // Groups {0.5, 0.5} and {0.75, 0.25} both sum to 1 (exact); topk_group 1 keeps group 0.
  auto r = nemotron_like(4, 1);
  r.groups = 2, r.top_groups = 1;
  EXPECT_EQ(ref::route_sigmoid(logits_of({0.5, 0.5, 0.75, 0.25}), {}, r).ids, (std::vector<int>{0}));
}

TEST(MoeReference, SoftmaxRouting) {
  // Logits ln 1, ln 2, ln 5: probabilities 1/8, 2/8, 5/8; top 2 = experts 2, 1.
  ref::Routing r{.experts = 3, .top_k = 2, .renormalize = false};
  auto const c = ref::route_softmax({0.0, std::log(2.0), std::log(5.0)}, r);
  ASSERT_EQ(c.ids, (std::vector<int>{2, 1}));
  EXPECT_NEAR(c.weights[0], 5.0 / 8, 1e-12);
  EXPECT_NEAR(c.weights[1], 2.0 / 8, 1e-12);
  r.renormalize = true;
  EXPECT_NEAR(ref::route_softmax({0.0, std::log(2.0), std::log(5.0)}, r).weights[0], 5.0 / 7, 1e-12);
}

TEST(MoeReference, Relu2BlockWithSharedExpertByHand) {
  // H = 8, F = Fs = 1, E = 2, k = 1; x = (1, 2, 0, ...). Expert 0's up row (1, -1, 0...) gives
  // -1 -> relu^2 0; expert 1's (1, 1, 0...) gives 3 -> 9. The router makes expert 1 the choice;
  // the shared expert's up row (0, 1, 0...) gives 2 -> 4. down columns: expert 1 (1, 2, 0...),
  // shared (1, 1, 0...). y = 2.5 * 9 * (1, 2) + 4 * (1, 1) = (26.5, 49), zeros after.
  std::vector<double> router(16, 0.0), first(16, 0.0), down(16, 0.0), shared_first(8, 0.0), shared_down(8, 0.0);
  router[8] = 1.0;  // expert 1's logit = x_0 = 1 > expert 0's 0
  first[0] = 1, first[1] = -1, first[8] = 1, first[9] = 1;
  down[8] = 1, down[9] = 2;  // expert 1's (H, 1) column
  shared_first[1] = 1;
  shared_down[0] = 1, shared_down[1] = 1;
  ref::Block<double> b;
  b.routing = nemotron_like(2, 1);
  b.hidden = 8, b.ffn = 1, b.shared_ffn = 1;
  b.router = router, b.first = first, b.down = down, b.shared_first = shared_first, b.shared_down = shared_down;
  std::vector<double> x(8, 0.0);
  x[0] = 1, x[1] = 2;
  auto const y = ref::block(b, x);
  EXPECT_NEAR(y[0], 26.5, 1e-12);
  EXPECT_NEAR(y[1], 49.0, 1e-12);
  for (int c = 2; c < 8; ++c) EXPECT_EQ(y[std::size_t(c)], 0.0);
  // Without the shared expert: the routed part alone.
  b.shared_ffn = 0;
  EXPECT_NEAR(ref::block(b, x)[0], 22.5, 1e-12);
}

TEST(MoeReference, SwigluExpertReadsTheInterleavedWeight) {
  // F = 8: the fused weight's rows 0..7 are the gate, 8..15 the up. Gate row 0 = (1, 0...), up row
  // 0 (fused row 8) = (0, 1, 0...): h_0 = silu(x_0) x_1; the others 0. down (H, 8): column 0 = 1.
  std::vector<double> first(16 * 8, 0.0), down(8 * 8, 0.0), x{2, 3, 0, 0, 0, 0, 0, 0};
  first[0 * 8 + 0] = 1, first[8 * 8 + 1] = 1;
  for (int c = 0; c < 8; ++c) down[std::size_t(c) * 8] = 1;
  auto const out = ref::ffn_row(x.data(), first.data(), down.data(), true, 8, 8, [](double v) { return v; });
  double const want = 2 / (1 + std::exp(-2.0)) * 3;
  for (double v : out) EXPECT_NEAR(v, want, 1e-12);
}

}  // namespace
