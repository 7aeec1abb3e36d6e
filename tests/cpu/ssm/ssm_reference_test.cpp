// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The state-space references (tests/support/ssm_reference.hpp) against each other and by hand:
// the chunked SSD algorithm (the kernels' five steps) equals the sequential recurrence to 1e-10
// on varlen batches with lengths that are not multiples of the chunk, empty sequences and initial
// states; decode steps continue a prefill; the conv1d by hand, split prefill = whole, decode steps
// = prefill; the gated norm by hand.
#include <gtest/gtest.h>

#include "support/ssm_reference.hpp"

#include <cmath>
#include <random>
#include <vector>

namespace ref = cute_cpp::test::ssm;

namespace {

std::vector<double> uniform(std::size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& e : v) e = d(rng);
  return v;
}

std::vector<int> offsets(std::vector<int> const& lengths) {
  std::vector<int> cu{0};
  for (int l : lengths) cu.push_back(cu.back() + l);
  return cu;
}

ref::SsdProblem random_ssd(std::vector<int> const& lengths, bool initial, std::mt19937_64& rng) {
  ref::SsdProblem q;
  q.heads = 4, q.head_dim = 8, q.state = 16, q.groups = 2;
  q.cu_seqlens = offsets(lengths);
  std::size_t const T = std::size_t(q.tokens());
  q.x = uniform(T * q.heads * q.head_dim, rng, -1, 1);
  q.dt = uniform(T * q.heads, rng, -4, 1);
  q.B = uniform(T * q.groups * q.state, rng, -1, 1);
  q.C = uniform(T * q.groups * q.state, rng, -1, 1);
  q.dt_bias = uniform(q.heads, rng, -1, 1);
  q.A_log = uniform(q.heads, rng, -2, 0.7);
  q.D = uniform(q.heads, rng, 0.5, 1.5);
  if (initial) q.initial = uniform(lengths.size() * q.state_elems(), rng, -1, 1);
  return q;
}

/// |got - want| <= 1e-10 (1 + |want|) everywhere, and the sizes agree.
void expect_close(std::vector<double> const& got, std::vector<double> const& want, char const* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-10 * (1.0 + std::fabs(want[i]))) << what << " at " << i;
}

}  // namespace

// The chunk-local recurrence (segment sums, chunk states, passing, output) is the recurrence.
TEST(SsmReference, ChunkedEqualsSequentialVarlenWithInitialStates) {
  std::mt19937_64 rng(46001);
  for (int chunk : {16, 128}) {
    for (bool initial : {false, true}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + " initial " + std::to_string(initial));
      auto const q = random_ssd({130, 1, 0, 257, 128, 17}, initial, rng);
      auto const seq = ref::ssd_sequential(q);
      auto const chunked = ref::ssd_chunked(q, chunk);
      expect_close(chunked.y, seq.y, "y");
      expect_close(chunked.final_states, seq.final_states, "final states");
    }
  }
}

// The dt limits (a floor and a ceiling, as NemotronH's torch path and time_step_limit clamp) and
// torch's softplus threshold take the same path in both.
TEST(SsmReference, ChunkedEqualsSequentialWithDtLimitsAndLargeDt) {
  std::mt19937_64 rng(46002);
  auto q = random_ssd({200, 33}, true, rng);
  q.dt_lo = 0.001, q.dt_hi = 0.1;
  q.dt[5] = 25.0;  // above torch's threshold: softplus is the input itself, then clamped
  expect_close(ref::ssd_chunked(q, 64).y, ref::ssd_sequential(q).y, "y");
  // The clamp changes the result (it is not vacuous on these inputs).
  auto r = q;
  r.dt_lo = 0.0, r.dt_hi = INFINITY;
  EXPECT_GT(std::fabs(ref::ssd_sequential(r).y[100] - ref::ssd_sequential(q).y[100]), 1e-6);
}

// The initial state matters, an empty sequence carries it unchanged, and the states differ per sequence.
TEST(SsmReference, EmptySequenceCarriesItsInitialState) {
  std::mt19937_64 rng(46003);
  auto const q = random_ssd({3, 0, 5}, true, rng);
  auto const r = ref::ssd_chunked(q, 16);
  std::size_t const E = q.state_elems();
  for (std::size_t e = 0; e < E; ++e) ASSERT_EQ(r.final_states[E + e], q.initial[E + e]);
  auto zero = q;
  zero.initial.clear();
  EXPECT_GT(std::fabs(ref::ssd_sequential(zero).y[0] - ref::ssd_sequential(q).y[0]), 1e-6);
}

// Decode steps from a prefill's final state give the recurrence over the whole sequence.
TEST(SsmReference, DecodeStepsContinueThePrefill) {
  std::mt19937_64 rng(46004);
  auto const whole = random_ssd({150}, true, rng);
  auto const want = ref::ssd_sequential(whole);
  auto prefix = whole;
  int const k = 140, H = whole.heads, P = whole.head_dim;
  prefix.cu_seqlens = {0, k};
  auto state = ref::ssd_chunked(prefix, 128).final_states;
  for (int t = k; t < 150; ++t) {
    auto const y = ref::state_update(state, whole, t);
    for (int i = 0; i < H * P; ++i)
      ASSERT_NEAR(y[i], want.y[std::size_t(t) * H * P + i], 1e-10 * (1 + std::fabs(want.y[std::size_t(t) * H * P + i])));
  }
  expect_close(state, want.final_states, "final state");
}

// One step by hand: S = exp(dt A) S + dt B x, y = C S + D x with H = P = N = G = 1.
TEST(SsmReference, OneStepByHand) {
  ref::SsdProblem q;
  q.heads = q.head_dim = q.state = q.groups = 1;
  q.cu_seqlens = {0, 1};
  q.x = {2.0}, q.dt = {0.0}, q.B = {3.0}, q.C = {0.5}, q.dt_bias = {0.0}, q.A_log = {0.0}, q.D = {0.25};
  q.initial = {4.0};
  double const dt = std::log(2.0);  // softplus(0)
  double const S = std::exp(-dt) * 4.0 + dt * 3.0 * 2.0;
  auto const r = ref::ssd_sequential(q);
  EXPECT_NEAR(r.final_states[0], 2.0 + 6.0 * std::log(2.0), 1e-14);
  EXPECT_NEAR(r.final_states[0], S, 1e-14);
  EXPECT_NEAR(r.y[0], 0.5 * S + 0.5, 1e-14);
}

// ---- conv1d ----

// width 4, weights 1 2 3 4, bias 0.5: pre-activations by hand.
TEST(SsmReference, ConvByHand) {
  ref::ConvProblem q;
  q.channels = 1, q.width = 4, q.cu_seqlens = {0, 3};
  q.x = {1, 2, 3}, q.weight = {1, 2, 3, 4}, q.bias = {0.5};
  auto r = ref::conv1d_direct(q);
  EXPECT_NEAR(r.y[0], ref::silu(4.5), 1e-14);
  EXPECT_NEAR(r.y[1], ref::silu(11.5), 1e-14);
  EXPECT_NEAR(r.y[2], ref::silu(20.5), 1e-14);
  EXPECT_EQ(r.final_states, (std::vector<double>{1, 2, 3}));
  q.initial = {-1, 0.5, 2};  // t0: 1*-1 + 2*0.5 + 3*2 + 4*1 + 0.5
  r = ref::conv1d_direct(q);
  EXPECT_NEAR(r.y[0], ref::silu(10.5), 1e-14);
  EXPECT_NEAR(r.y[1], ref::silu(0.5 * 1 + 2 * 2 + 3 * 1 + 4 * 2 + 0.5), 1e-14);
  q.x = {7}, q.cu_seqlens = {0, 1};  // shorter than the state: the state shifts by one
  EXPECT_EQ(ref::conv1d_direct(q).final_states, (std::vector<double>{0.5, 2, 7}));
}

// A prefill split in two (the second from the first's final states) equals the whole prefill,
// including sequences shorter than the state; decode steps equal the prefill too.
TEST(SsmReference, ConvSplitPrefillAndDecodeEqualWhole) {
  std::mt19937_64 rng(46005);
  int const C = 6, W = 4;
  std::vector<int> const first{5, 1, 0, 9}, second{4, 2, 3, 1};
  ref::ConvProblem whole;
  whole.channels = C, whole.width = W;
  whole.weight = uniform(C * W, rng, -1, 1), whole.bias = uniform(C, rng, -1, 1);
  whole.initial = uniform(first.size() * (W - 1) * C, rng, -1, 1);
  std::vector<int> lengths;
  for (std::size_t s = 0; s < first.size(); ++s) lengths.push_back(first[s] + second[s]);
  whole.cu_seqlens = offsets(lengths);
  whole.x = uniform(std::size_t(whole.cu_seqlens.back()) * C, rng, -2, 2);
  auto const want = ref::conv1d_direct(whole);

  ref::ConvProblem a = whole, b = whole;
  a.cu_seqlens = offsets(first), b.cu_seqlens = offsets(second);
  a.x.clear(), b.x.clear();
  for (std::size_t s = 0; s < first.size(); ++s) {
    auto const at = whole.x.begin() + std::ptrdiff_t(whole.cu_seqlens[s]) * C;
    a.x.insert(a.x.end(), at, at + first[s] * C);
    b.x.insert(b.x.end(), at + first[s] * C, at + lengths[s] * C);
  }
  auto const ra = ref::conv1d_direct(a);
  b.initial = ra.final_states;
  auto const rb = ref::conv1d_direct(b);
  expect_close(rb.final_states, want.final_states, "final states");
  for (std::size_t s = 0; s < first.size(); ++s)
    for (int t = 0; t < lengths[s]; ++t)
      for (int c = 0; c < C; ++c) {
        double const got = t < first[s] ? ra.y[(std::size_t(a.cu_seqlens[s]) + t) * C + c]
                                         : rb.y[(std::size_t(b.cu_seqlens[s]) + t - first[s]) * C + c];
        ASSERT_NEAR(got, want.y[(std::size_t(whole.cu_seqlens[s]) + t) * C + c], 1e-12);
      }
  // Decode: sequence 3 token by token from its initial state.
  std::vector<double> state(whole.initial.begin() + 3 * (W - 1) * C, whole.initial.begin() + 4 * (W - 1) * C);
  for (int t = whole.cu_seqlens[3]; t < whole.cu_seqlens[4]; ++t) {
    std::vector<double> const x(whole.x.begin() + std::ptrdiff_t(t) * C, whole.x.begin() + std::ptrdiff_t(t + 1) * C);
    auto const y = ref::conv1d_step(state, x, whole);
    for (int c = 0; c < C; ++c) ASSERT_NEAR(y[c], want.y[std::size_t(t) * C + c], 1e-12);
  }
  std::vector<double> const last(want.final_states.begin() + 3 * (W - 1) * C, want.final_states.end());
  expect_close(state, last, "decoded state");
}

// ---- gated norm ----

// z = ln 3 everywhere: silu(z) = 0.75 ln 3 scales both groups and cancels (eps 0), so group
// [1, -2] normalises to [1, -2] / sqrt(2.5) and [3, 4] to [3, 4] / sqrt(12.5).
TEST(SsmReference, GatedNormByHand) {
  std::vector<double> const y{1, -2, 3, 4}, z(4, std::log(3.0)), w{1, 2, 0.5, -1};
  auto const out = ref::gated_rmsnorm(y, z, w, 4, 2, 0.0);
  EXPECT_NEAR(out[0], 0.6324555320336759, 1e-14);
  EXPECT_NEAR(out[1], -2 * 1.2649110640673518, 1e-14);
  EXPECT_NEAR(out[2], 0.5 * 0.8485281374238570, 1e-14);
  EXPECT_NEAR(out[3], -1.1313708498984760, 1e-14);
  EXPECT_NEAR(ref::silu(std::log(3.0)), 0.75 * std::log(3.0), 1e-15);
  // One group of 4: mean of squares (1 + 4 + 9 + 16) / 4 = 7.5.
  auto const one = ref::gated_rmsnorm(y, z, w, 4, 1, 0.0);
  EXPECT_NEAR(one[3], -4 / std::sqrt(7.5), 1e-14);
}
