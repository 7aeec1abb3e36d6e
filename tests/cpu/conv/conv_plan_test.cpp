// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/conv's host-computable pieces: a CPU emulation of the implicit GEMM in the kernel's
// order (block tiles, k-tiles of 32 gathered in 16-byte vectors by conv_gather, the weight packed
// by conv_weight_source / conv_transpose_weight_source, zero fill outside, the epilogue by column)
// against the direct references for ragged sizes, dilations, states and every transposed stride;
// streaming through the emulation; the plans' derived sizes; every host rule.
#include <gtest/gtest.h>

#include <cute_cpp/kernels/conv/conv_args.hpp>
#include <cute_cpp/kernels/conv/conv_plan.hpp>

#include "support/conv_reference.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace ref = cute_cpp::test::conv;

namespace {

std::vector<double> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& e : v) e = dist(rng);
  return v;
}

/// The GEMM's operands and shape as the kernel sees them: W packed (n_cols, taps * c_in); column n
/// takes the epilogue parameters of channel n % c_out.
struct GemmProblem {
  kn::ConvGeometry g;
  int n_cols = 0, c_out = 0;
  std::vector<double> packed;
};

/// The implicit GEMM as the kernel walks it: Plan's block tiles of (time, column), k-tiles of 32
/// gathered in vectors of 8 (one conv_gather a vector, its 8 elements consecutive channels).
template <class Plan>
std::vector<double> emulate(GemmProblem const& p, ref::Sequences const& x, std::vector<double> const& state,
                            ref::Epilogue const& epi) {
  constexpr int BM = Plan::tile_m, BN = Plan::tile_n, BK = Plan::tile_k, V = Plan::vec;
  std::int64_t const K = p.g.k_total();
  int const P = p.g.state_len();
  std::vector<double> y(std::size_t(x.batch) * x.length * p.n_cols, 0.0);
  for (int b = 0; b < x.batch; ++b)
    for (int m0 = 0; m0 < x.length; m0 += BM)
      for (int n0 = 0; n0 < p.n_cols; n0 += BN) {
        std::vector<double> acc(BM * BN, 0.0);
        for (std::int64_t k0 = 0; k0 < K; k0 += BK) {
          std::vector<double> a(BM * BK, 0.0), w(BN * BK, 0.0);
          for (int r = 0; r < BM; ++r)
            for (int c = 0; c < BK; c += V) {
              std::int64_t const kk = k0 + c;
              if (m0 + r >= x.length || kk >= K) continue;
              auto const s = kn::conv_gather(p.g, m0 + r, kk, !state.empty());
              for (int e = 0; e < V; ++e) {
                if (s.kind == kn::ConvSource::input) a[r * BK + c + e] = x.at(b, s.row, s.ci + e);
                if (s.kind == kn::ConvSource::state)
                  a[r * BK + c + e] = state[(std::size_t(b) * P + s.row) * p.g.c_in + s.ci + e];
              }
            }
          for (int r = 0; r < BN; ++r)
            for (int c = 0; c < BK; ++c)
              if (n0 + r < p.n_cols && k0 + c < K) w[r * BK + c] = p.packed[std::size_t(n0 + r) * K + k0 + c];
          for (int i = 0; i < BM; ++i)
            for (int j = 0; j < BN; ++j)
              for (int c = 0; c < BK; ++c) acc[i * BN + j] += a[i * BK + c] * w[j * BK + c];
        }
        for (int i = 0; i < BM && m0 + i < x.length; ++i)
          for (int j = 0; j < BN && n0 + j < p.n_cols; ++j)
            y[(std::size_t(b) * x.length + m0 + i) * p.n_cols + n0 + j] = epi(acc[i * BN + j], (n0 + j) % p.c_out);
      }
  return y;
}

GemmProblem conv_problem(std::vector<double> const& w, int c_in, int c_out, int K, int d) {
  GemmProblem p{{c_in, K, d}, c_out, c_out, {}};
  p.packed.resize(std::size_t(c_out) * K * c_in);
  for (int n = 0; n < c_out; ++n)
    for (std::int64_t kk = 0; kk < p.g.k_total(); ++kk)
      p.packed[std::size_t(n) * p.g.k_total() + kk] = w[kn::conv_weight_source(c_in, K, n, kk)];
  return p;
}

GemmProblem transpose_problem(std::vector<double> const& w, int c_in, int c_out, int s, int K) {
  GemmProblem p{{c_in, K / s, 1}, s * c_out, c_out, {}};
  p.packed.resize(std::size_t(p.n_cols) * p.g.k_total());
  for (int n = 0; n < p.n_cols; ++n)
    for (std::int64_t kk = 0; kk < p.g.k_total(); ++kk)
      p.packed[std::size_t(n) * p.g.k_total() + kk] = w[kn::conv_transpose_weight_source(c_in, c_out, s, K, n, kk)];
  return p;
}

void expect_near_all(std::vector<double> const& got, std::vector<double> const& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-10) << "at " << i;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ConvPlan, GatherAndPackByHand) {
  auto const s = kn::conv_gather({4, 3, 2}, 1, 5, true);  // the doc comment's example
  EXPECT_EQ(s.kind, kn::ConvSource::state);
  EXPECT_EQ(s.row, 3);
  EXPECT_EQ(s.ci, 1);
  EXPECT_EQ(kn::conv_gather({4, 3, 2}, 1, 5, false).kind, kn::ConvSource::zero);
  auto const in = kn::conv_gather({4, 3, 2}, 5, 2, false);  // tap 0: x[5 - 4]
  EXPECT_EQ(in.kind, kn::ConvSource::input);
  EXPECT_EQ(in.row, 1);
  EXPECT_EQ(in.ci, 2);
  EXPECT_EQ(kn::conv_transpose_weight_source(3, 2, 3, 6, 5, 0), (0 * 2 + 1) * 6 + 5);
  EXPECT_EQ(kn::conv_transpose_weight_source(3, 2, 3, 6, 5, 3 + 2), (2 * 2 + 1) * 6 + 2);  // tap 1 (j 0), ci 2
  EXPECT_EQ(kn::conv_weight_source(3, 7, 2, 3 * 4 + 1), (2 * 3 + 1) * 7 + 4);
}

TEST(ConvPlan, DerivedSizes) {
  EXPECT_EQ(kn::ConvWidePlan::threads, 256);
  EXPECT_EQ(kn::ConvWidePlan::smem_bytes, 3u * (128 + 128) * 40 * 2);
  EXPECT_EQ(kn::ConvWidePlan::a_copies, 2);
  EXPECT_EQ(kn::ConvNarrowPlan::threads, 128);
  EXPECT_EQ(kn::ConvNarrowPlan::smem_bytes, 4u * (128 + 64) * 40 * 2);
  EXPECT_EQ(kn::ConvNarrowPlan::b_copies, 2);
  using T8 = kn::ConvTransposePlan<8, 16>;
  EXPECT_EQ(T8::taps, 2);
  EXPECT_EQ(T8::trim_right, 8);
  EXPECT_EQ(kn::conv_transpose_output_length(37, 5), 185);
}

// The emulated implicit GEMM equals the direct conv: ragged lengths, channel counts that are not
// multiples of the tiles, the decoder's kernel sizes and dilations, zero and carried context.
TEST(ConvPlan, ImplicitGemmEqualsDirectConv) {
  std::mt19937_64 rng(20260147);
  struct Case {
    int length, c_in, c_out, K, d;
  };
  for (Case c : {Case{37, 8, 5, 7, 1}, Case{130, 24, 70, 7, 3}, Case{61, 40, 1, 7, 9}, Case{129, 16, 130, 3, 1},
                 Case{5, 8, 3, 1, 1}, Case{1, 32, 9, 7, 9}}) {
    for (bool with_state : {false, true}) {
      SCOPED_TRACE("L " + std::to_string(c.length) + " c_in " + std::to_string(c.c_in) + " c_out " +
                   std::to_string(c.c_out) + " K " + std::to_string(c.K) + " d " + std::to_string(c.d) +
                   (with_state ? " state" : ""));
      ref::Sequences const x{2, c.length, c.c_in, random_vector(std::size_t(2) * c.length * c.c_in, rng)};
      auto const w = random_vector(std::size_t(c.c_out) * c.c_in * c.K, rng);
      std::vector<double> state;
      if (with_state) state = random_vector(std::size_t(2) * (c.K - 1) * c.d * c.c_in, rng);
      ref::Epilogue const epi{2, random_vector(c.c_out, rng), random_vector(c.c_out, rng), random_vector(c.c_out, rng)};
      auto const want = ref::causal_conv1d(x, w, c.c_out, c.K, c.d, epi, state);
      auto const p = conv_problem(w, c.c_in, c.c_out, c.K, c.d);
      expect_near_all(emulate<kn::ConvWidePlan>(p, x, state, epi), want);
      expect_near_all(emulate<kn::ConvNarrowPlan>(p, x, state, epi), want);
    }
  }
}

// The transposed conv as a causal conv over its s output phases (N = s c_out, K/s taps), read as
// (length s, c_out), equals ConvTranspose1d's scatter with Qwen3-TTS's right trim of K - s, for
// the decoder's strides (8, 5, 4, 3 with K = 2 s; 2 with K = s) and a ragged length.
TEST(ConvPlan, TransposedAsPhaseGemmEqualsScatter) {
  std::mt19937_64 rng(8543);
  for (auto [s, K] : {std::pair{8, 16}, std::pair{5, 10}, std::pair{4, 8}, std::pair{3, 6}, std::pair{2, 2},
                      std::pair{3, 9}}) {
    SCOPED_TRACE("s " + std::to_string(s) + " K " + std::to_string(K));
    int const c_in = 16, c_out = 11, L = 23;
    ref::Sequences const x{2, L, c_in, random_vector(std::size_t(2) * L * c_in, rng)};
    auto const w = random_vector(std::size_t(c_in) * c_out * K, rng);
    ref::Epilogue const epi{1, random_vector(c_out, rng), {}, {}};
    auto const want = ref::conv_transpose1d(x, w, c_out, K, s, 0, K - s, epi);
    ASSERT_EQ(want.size(), std::size_t(2) * kn::conv_transpose_output_length(L, s) * c_out);
    expect_near_all(emulate<kn::ConvWidePlan>(transpose_problem(w, c_in, c_out, s, K), x, {}, epi), want);
  }
}

// Streaming through the emulation: chunks of 1, 40, 0 and 90 frames, each from the state of the
// previous (ref::state_after), equal the whole, for a dilated conv and a transposed one.
TEST(ConvPlan, EmulatedStreamingEqualsWhole) {
  std::mt19937_64 rng(31);
  int const c_in = 16, c_out = 9, L = 131;
  ref::Sequences const x{1, L, c_in, random_vector(std::size_t(L) * c_in, rng)};
  for (bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "transposed s 5 K 10" : "conv K 7 d 9");
    auto const w = random_vector(std::size_t(c_out) * c_in * (transposed ? 10 : 7), rng);
    GemmProblem const p = transposed ? transpose_problem(w, c_in, c_out, 5, 10) : conv_problem(w, c_in, c_out, 7, 9);
    ref::Epilogue const epi{0, random_vector(c_out, rng), {}, {}};
    auto const whole = emulate<kn::ConvNarrowPlan>(p, x, {}, epi);
    int const P = p.g.state_len();
    std::vector<double> state(std::size_t(P) * c_in, 0.0), joined;
    int begin = 0;
    for (int len : {1, 40, 0, 90}) {
      ref::Sequences chunk{1, len, c_in, {x.x.begin() + std::size_t(begin) * c_in, x.x.begin() + std::size_t(begin + len) * c_in}};
      auto const part = emulate<kn::ConvNarrowPlan>(p, chunk, state, epi);
      joined.insert(joined.end(), part.begin(), part.end());
      state = ref::state_after(chunk, P, state);
      begin += len;
    }
    expect_near_all(joined, whole);
  }
}

// The epilogue's f32 activations (the kernel's code; the host's sinf stands in for the device's
// __sinf after the same 2 pi reduction) against the float64 references, arguments up to 1000 rad.
TEST(ConvPlan, F32ActivationsMatchReferences) {
  for (double x = -40.0; x <= 40.0; x += 0.37) {
    EXPECT_NEAR(kn::gelu_erf(float(x)), ref::gelu(float(x)), 1e-6 * (1 + std::fabs(x))) << x;
    for (double alpha_log : {-1.0, 0.0, 1.0, 3.2}) {
      for (double beta_log : {-1.0, 0.0, 0.7}) {
        float const a = std::exp(float(alpha_log)), inv_b = 1.0f / (std::exp(float(beta_log)) + 1e-9f);
        double const want = ref::snake_beta(float(x), alpha_log, beta_log);
        EXPECT_NEAR(kn::snake_beta(float(x), a, inv_b), want, 2e-5 * (std::fabs(x) + 1 / std::exp(beta_log)))
            << x << " " << alpha_log << " " << beta_log;
      }
    }
  }
}

TEST(ConvPlan, HostRules) {
  EXPECT_NE(error_of([] { kn::check_conv_geometry(1, 10, 12, 4, 7, 1); }).find("[conv.channels]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_conv_geometry(1, 10, 0, 4, 7, 1); }).find("[conv.channels]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_conv_geometry(-1, 10, 16, 4, 7, 1); }).find("[conv.shape]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_conv_geometry(1, 10, 16, 0, 7, 1); }).find("[conv.shape]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_conv_geometry(1, 10, 16, 4, 7, 0); }).find("[conv.shape]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_conv_geometry(1, 10, 1 << 20, 4, 7, 1 << 10); }).find("[conv.shape]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_conv_geometry(0, 0, 8, 1, 1, 1); }), "");
  EXPECT_NE(error_of([] { kn::check_conv_batch(65536); }).find("[conv.shape]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_conv_batch(65535); }), "");
  kn::ConvEpilogueArguments e;
  e.activation = kn::ConvActivation::snake_beta;
  EXPECT_NE(error_of([&] { kn::check_conv_epilogue(e); }).find("[conv.activation]"), std::string::npos);
  e.activation = static_cast<kn::ConvActivation>(7);
  EXPECT_NE(error_of([&] { kn::check_conv_epilogue(e); }).find("[conv.activation]"), std::string::npos);
  alignas(16) static char buffer[32];
  EXPECT_NE(error_of([] { kn::check_conv_aligned("x", buffer + 2); }).find("[conv.alignment]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_conv_aligned("x", buffer + 16); }), "");
}
