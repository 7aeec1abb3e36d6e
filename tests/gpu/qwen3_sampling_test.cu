// SPDX-License-Identifier: Apache-2.0
// sample_tokens (models/qwen3/sampling.hpp) against a CPU reference in double: greedy is argmax
// (ties to the smallest id, NaN never over a number) on rows of several vocab sizes and strides;
// top_k = 1 is greedy at any temperature; every draw lies in the reference's kept set; with 8 tokens
// and 20000 steps the frequencies match the reference's probabilities; a (seed, step) reproduces;
// bad arguments throw. Then the time of greedy and top-p at vocab 151936.
#include "models/qwen3/sampling.hpp"

#include "bench/support/bench.hpp"  // bench::hold

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpu/has_device.hpp"
#include "support/error_of.hpp"

namespace {

using cute_cpp::host::cuda_check;
using cute_cpp::host::DeviceBuffer;
using cute_cpp::models::SamplingParams;
using cute_cpp::test::error_of;
using cute_cpp::test::has_device;

constexpr std::uint16_t nan_bits = 0x7FC0, negative_nan_bits = 0xFFC1, inf_bits = 0x7F80, minus_inf_bits = 0xFF80,
                        minus_zero_bits = 0x8000;
constexpr int qwen3_vocab = 151936;

std::uint16_t bf16_bits(float v) {
  __nv_bfloat16_raw const raw = __float2bfloat16_rn(v);
  return raw.x;
}
float bf16_value(std::uint16_t bits) {
  __nv_bfloat16_raw raw;
  raw.x = bits;
  return __bfloat162float(__nv_bfloat16(raw));
}

/// Host logits, bf16 bits, `rows` rows of `vocab` with row stride `ld`.
struct Logits {
  int rows = 0, vocab = 0;
  std::int64_t ld = 0;
  std::vector<std::uint16_t> bits;

  Logits(int rows_, int vocab_, std::int64_t ld_)
      : rows(rows_), vocab(vocab_), ld(ld_), bits(std::size_t(rows_) * std::size_t(ld_), nan_bits) {}
  std::uint16_t& at(int r, int i) { return bits[std::size_t(r) * std::size_t(ld) + std::size_t(i)]; }
  void set(int r, int i, float v) { at(r, i) = bf16_bits(v); }
  [[nodiscard]] std::vector<float> row(int r) const {
    std::vector<float> out(static_cast<std::size_t>(vocab));
    for (int i = 0; i < vocab; ++i) out[std::size_t(i)] = bf16_value(bits[std::size_t(r) * std::size_t(ld) + std::size_t(i)]);
    return out;
  }
  /// Every row: normal(mean, sigma) logits, then `boosted` random tokens raised by 8 to 14 (as a
  /// language model's few likely tokens).
  void fill(std::mt19937_64& rng, float mean, float sigma, int boosted = 0) {
    std::normal_distribution<float> normal(mean, sigma);
    std::uniform_int_distribution<int> id(0, vocab - 1);
    std::uniform_real_distribution<float> lift(8.0f, 14.0f);
    for (int r = 0; r < rows; ++r) {
      for (int i = 0; i < vocab; ++i) set(r, i, normal(rng));
      for (int b = 0; b < boosted; ++b) set(r, id(rng), mean + lift(rng));
    }
  }
};

/// The logits on the device, and draws from them.
class OnDevice {
 public:
  explicit OnDevice(Logits const& host)
      : shape_(host),
        logits_(host.bits.size()),
        workspace_(cute_cpp::models::sampling_workspace_bytes(host.rows, host.vocab)) {
    logits_.upload(host.bits);
  }
  [[nodiscard]] __nv_bfloat16 const* logits() const { return reinterpret_cast<__nv_bfloat16 const*>(logits_.data()); }
  /// Queues a draw into ids (rows ints on the device).
  void queue(SamplingParams const& p, std::uint64_t step, std::int32_t* ids, cudaStream_t stream = nullptr) const {
    cute_cpp::models::sample_tokens(logits(), shape_.ld, shape_.rows, shape_.vocab, p, step, ids, workspace_.data(),
                                    workspace_.bytes(), stream);
  }
  /// The ids of steps [first, first + steps), step-major: [steps][rows].
  [[nodiscard]] std::vector<std::int32_t> draw(SamplingParams const& p, std::uint64_t first, int steps = 1) const {
    DeviceBuffer<std::int32_t> ids(std::size_t(steps) * std::size_t(shape_.rows));
    ids.fill_bytes(0xFF);
    for (int s = 0; s < steps; ++s) queue(p, first + std::uint64_t(s), ids.data() + std::size_t(s) * std::size_t(shape_.rows));
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return ids.download();
  }

 private:
  struct Shape {
    int rows, vocab;
    std::int64_t ld;
    explicit Shape(Logits const& l) : rows(l.rows), vocab(l.vocab), ld(l.ld) {}
  } shape_;
  DeviceBuffer<std::uint16_t> logits_;
  DeviceBuffer<std::byte> workspace_;
};

// ---- the CPU reference ----

/// torch.argmax with NaN below every number: the first id of the largest logit; 0 if all are NaN.
int reference_argmax(std::vector<float> const& row) {
  int best = -1;
  for (int i = 0; i < int(row.size()); ++i) {
    float const v = row[std::size_t(i)];
    if (!std::isnan(v) && (best < 0 || v > row[std::size_t(best)])) best = i;
  }
  return best < 0 ? 0 : best;
}

/// Each id's probability under `p`, in double: the tokens that are not NaN ordered by logit (larger
/// first) and id (smaller first); top-k keeps the first k; top-p the first ones whose probability
/// before them is below top_p (times 1 + slack) of what top-k kept; softmax((x - max) / T) over the rest.
std::vector<double> reference_probabilities(std::vector<float> const& row, SamplingParams const& p, double slack = 0) {
  std::vector<int> order;
  for (int i = 0; i < int(row.size()); ++i)
    if (!std::isnan(row[std::size_t(i)])) order.push_back(i);
  std::vector<double> probability(row.size(), 0.0);
  if (order.empty()) return probability;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return row[std::size_t(a)] > row[std::size_t(b)]; });
  double const largest = row[std::size_t(order[0])];
  std::vector<double> w(order.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    double const x = row[std::size_t(order[j])];
    w[j] = x == largest ? 1.0 : std::exp((x - largest) / double(p.temperature));
  }
  std::size_t kept = order.size();
  if (p.top_k > 0) kept = std::min(kept, std::size_t(p.top_k));
  if (p.top_p < 1.0f) {
    double const total = std::accumulate(w.begin(), w.begin() + std::ptrdiff_t(kept), 0.0);
    double before = 0;
    std::size_t n = 0;
    while (n < kept && before < double(p.top_p) * (1 + slack) * total) before += w[n++];
    kept = n;
  }
  double const total = std::accumulate(w.begin(), w.begin() + std::ptrdiff_t(kept), 0.0);
  for (std::size_t j = 0; j < kept; ++j) probability[std::size_t(order[j])] = w[j] / total;
  return probability;
}

/// Logits with planted cases: a tie at the max (row 0), NaNs among numbers (1), all NaN (2), -inf
/// and NaN only (3), the max a tie of -0 and +0 (4), +inf among NaNs at the last id (5), the max at
/// the last id (6); random beyond.
Logits planted(int rows, int vocab, std::int64_t ld, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Logits l(rows, vocab, ld);
  l.fill(rng, 0.0f, 4.0f);
  std::uniform_int_distribution<int> id(0, vocab - 1);
  auto const row_max = [&](int r) {
    float m = -std::numeric_limits<float>::infinity();
    for (float v : l.row(r)) m = std::isnan(v) ? m : std::max(m, v);
    return m;
  };
  if (rows > 0 && vocab >= 2) {  // a tie at the max: the smaller id wins
    int const a = id(rng) % (vocab - 1), b = a + 1 + id(rng) % (vocab - 1 - a);
    float const top = row_max(0) + 1.0f;
    l.set(0, b, top);
    l.set(0, a, top);
  }
  if (rows > 1) {
    for (int i = 0; i < vocab; i += 3) l.at(1, i) = (i / 3) % 2 ? nan_bits : negative_nan_bits;
    l.at(1, vocab - 1) = 0x7FFF;  // a NaN with every mantissa bit set
  }
  if (rows > 2)
    for (int i = 0; i < vocab; ++i) l.at(2, i) = nan_bits;
  if (rows > 3)
    for (int i = 0; i < vocab; ++i) l.at(3, i) = i % 5 == 0 ? nan_bits : minus_inf_bits;
  if (rows > 4) {
    for (int i = 0; i < vocab; ++i) l.set(4, i, -1.0f - std::fabs(bf16_value(l.at(4, i))));
    l.at(4, vocab / 2) = minus_zero_bits;
    l.set(4, vocab - 1, 0.0f);
  }
  if (rows > 5) {
    for (int i = 0; i < vocab; ++i) l.at(5, i) = nan_bits;
    l.at(5, vocab - 1) = inf_bits;
  }
  if (rows > 6) l.set(6, vocab - 1, row_max(6) + 0.5f);
  return l;
}

struct Shape {
  int vocab;
  std::int64_t ld;
};
// Odd strides leave rows unaligned to 16 bytes; 4097 takes two blocks a row, 151936 eight.
std::vector<Shape> const greedy_shapes = {{qwen3_vocab, qwen3_vocab}, {qwen3_vocab, qwen3_vocab + 3}, {1000, 1003},
                                          {37, 37},   {37, 40},  {4097, 4101}, {8, 8}, {1, 1}, {9000, 9001}};

// ---- greedy ----

TEST(Qwen3Sampling, GreedyIsArgmaxWithTiesAndNaNs) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  for (Shape const shape : greedy_shapes) {
    SCOPED_TRACE("vocab " + std::to_string(shape.vocab) + ", ld " + std::to_string(shape.ld));
    Logits const l = planted(9, shape.vocab, shape.ld, 1000 + std::uint64_t(shape.ld));
    std::vector<std::int32_t> const ids = OnDevice(l).draw(SamplingParams{}, 0);
    for (int r = 0; r < l.rows; ++r) EXPECT_EQ(ids[std::size_t(r)], reference_argmax(l.row(r))) << "row " << r;
    if (shape.vocab >= 8) {  // the planted cases, spelled out
      EXPECT_EQ(ids[2], 0) << "a row of NaNs";
      EXPECT_EQ(ids[3], 1) << "-inf and NaN: the first -inf";
      EXPECT_EQ(ids[4], shape.vocab / 2) << "-0 and +0 tie";
      EXPECT_EQ(ids[5], shape.vocab - 1) << "+inf among NaNs";
      EXPECT_EQ(ids[6], shape.vocab - 1) << "the max at the last id";
    }
  }
}

TEST(Qwen3Sampling, TopKOneIsGreedyAtAnyTemperature) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  for (Shape const shape : greedy_shapes) {
    SCOPED_TRACE("vocab " + std::to_string(shape.vocab) + ", ld " + std::to_string(shape.ld));
    OnDevice const d(planted(9, shape.vocab, shape.ld, 2000 + std::uint64_t(shape.ld)));
    std::vector<std::int32_t> const greedy = d.draw(SamplingParams{}, 0);
    for (float const temperature : {0.25f, 1.0f, 4.0f})
      for (float const top_p : {1.0f, 0.5f}) {
        SamplingParams const p{.temperature = temperature, .top_k = 1, .top_p = top_p, .seed = 11};
        std::vector<std::int32_t> const ids = d.draw(p, 0, 5);
        for (std::size_t i = 0; i < ids.size(); ++i)
          EXPECT_EQ(ids[i], greedy[i % greedy.size()])
              << "temperature " << temperature << ", top_p " << top_p << ", step " << i / greedy.size() << ", row "
              << i % greedy.size();
      }
  }
}

// ---- sampling ----

/// Draws `steps` times with `p` and checks every id lies in the reference's kept set (with top_p
/// raised by 1e-5 of itself: the kernel sums fp32 weights, the reference double ones) and that
/// every token of probability above 5% was drawn.
void expect_draws_kept(OnDevice const& d, Logits const& l, SamplingParams const& p, int steps) {
  SCOPED_TRACE("temperature " + std::to_string(p.temperature) + ", top_k " + std::to_string(p.top_k) + ", top_p " +
               std::to_string(p.top_p));
  std::vector<std::int32_t> const ids = d.draw(p, 0, steps);
  for (int r = 0; r < l.rows; ++r) {
    std::vector<double> const probability = reference_probabilities(l.row(r), p, 1e-5);
    std::set<int> drawn;
    for (int s = 0; s < steps; ++s) {
      int const id = ids[std::size_t(s) * std::size_t(l.rows) + std::size_t(r)];
      ASSERT_TRUE(id >= 0 && id < l.vocab) << "row " << r << " step " << s << ": id " << id;
      EXPECT_GT(probability[std::size_t(id)], 0.0) << "row " << r << " step " << s << ": id " << id << " is not kept";
      drawn.insert(id);
    }
    for (int i = 0; i < l.vocab; ++i)
      if (probability[std::size_t(i)] > 0.05) EXPECT_TRUE(drawn.count(i)) << "row " << r << ": id " << i << " never drawn";
  }
}

TEST(Qwen3Sampling, DrawsStayInTheKeptSet) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  for (Shape const shape : {Shape{qwen3_vocab, qwen3_vocab + 5}, Shape{1000, 1000}, Shape{37, 37}}) {
    SCOPED_TRACE("vocab " + std::to_string(shape.vocab));
    std::mt19937_64 rng(7 + std::uint64_t(shape.vocab));
    Logits l(4, shape.vocab, shape.ld);
    l.fill(rng, 0.0f, 2.5f, 20);
    for (int i = 0; i < shape.vocab; i += 11) l.at(3, i) = nan_bits;
    OnDevice const d(l);
    for (SamplingParams const p : {SamplingParams{.temperature = 0.7f, .top_k = 20, .seed = 1},
                                   SamplingParams{.temperature = 1.0f, .top_p = 0.9f, .seed = 2},
                                   SamplingParams{.temperature = 0.6f, .top_k = 20, .top_p = 0.95f, .seed = 3},
                                   SamplingParams{.temperature = 1.5f, .top_k = 50, .top_p = 0.5f, .seed = 4},
                                   SamplingParams{.temperature = 1.0f, .seed = 5},
                                   SamplingParams{.temperature = 3.0f, .top_k = 2000, .top_p = 0.3f, .seed = 6}})
      expect_draws_kept(d, l, p, 300);
  }
}

TEST(Qwen3Sampling, TopKTieAtTheBoundaryKeepsTheSmallerId) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  std::mt19937_64 rng(99);
  Logits l(4, qwen3_vocab, qwen3_vocab);
  l.fill(rng, -5.0f, 1.0f);
  for (int r = 0; r < l.rows; ++r) {
    l.set(r, 500, 10.0f);
    for (int i : {100, 70000, 90000}) l.set(r, i, 9.5f);  // the 2nd to 4th largest: top-3 keeps 100 and 70000
  }
  OnDevice const d(l);
  SamplingParams const p{.temperature = 1.0f, .top_k = 3, .seed = 5};
  std::vector<std::int32_t> const ids = d.draw(p, 0, 200);
  std::set<int> const drawn(ids.begin(), ids.end());
  EXPECT_EQ(drawn, (std::set<int>{100, 500, 70000}));
}

/// The frequency of each id over 20000 steps of 4 identical rows against the reference's
/// probability: within 0.01 (over 7 standard deviations at 80000 draws), and never an id the
/// reference drops.
void expect_frequencies(std::vector<float> const& values, SamplingParams const& p) {
  SCOPED_TRACE("temperature " + std::to_string(p.temperature) + ", top_k " + std::to_string(p.top_k) + ", top_p " +
               std::to_string(p.top_p));
  constexpr int rows = 4, steps = 20000;
  int const vocab = int(values.size());
  Logits l(rows, vocab, vocab);
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < vocab; ++i) l.set(r, i, values[std::size_t(i)]);
  std::vector<std::int32_t> const ids = OnDevice(l).draw(p, 0, steps);
  std::vector<double> count(std::size_t(vocab), 0.0);
  for (std::int32_t id : ids) {
    ASSERT_TRUE(id >= 0 && id < vocab) << "id " << id;
    count[std::size_t(id)] += 1;
  }
  std::vector<double> const probability = reference_probabilities(l.row(0), p);
  double const draws = double(ids.size());
  double chi2 = 0;
  for (int i = 0; i < vocab; ++i) {
    double const f = count[std::size_t(i)] / draws, q = probability[std::size_t(i)];
    if (q == 0) {
      EXPECT_EQ(count[std::size_t(i)], 0) << "id " << i << " is not kept";
      continue;
    }
    EXPECT_NEAR(f, q, 0.01) << "id " << i;
    chi2 += (count[std::size_t(i)] - q * draws) * (count[std::size_t(i)] - q * draws) / (q * draws);
  }
  std::printf("  T %.2f top_k %d top_p %.2f: chi-square %.1f over %d ids (%.0f draws)\n", double(p.temperature), p.top_k,
              double(p.top_p), chi2, int(std::count_if(probability.begin(), probability.end(), [](double q) { return q > 0; })),
              draws);
}

TEST(Qwen3Sampling, FrequenciesMatchTheProbabilities) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  float const nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> const mixed = {1.0f, 2.0f, 0.5f, 2.0f, -1.0f, 0.25f, 3.0f, nan};
  expect_frequencies(mixed, {.temperature = 1.0f, .seed = 1});
  expect_frequencies(mixed, {.temperature = 0.7f, .top_k = 2, .seed = 2});  // 1 and 3 tie: 1 is kept
  expect_frequencies(mixed, {.temperature = 1.3f, .top_p = 0.8f, .seed = 3});
  expect_frequencies(mixed, {.temperature = 1.0f, .top_k = 5, .top_p = 0.7f, .seed = 4});
  expect_frequencies(std::vector<float>(8, 0.0f), {.temperature = 1.0f, .top_p = 0.5f, .seed = 5});  // ids 0 to 3
  expect_frequencies({0.0f, -inf, 1.0f, -inf, -0.5f, 2.0f, -inf, 1.0f}, {.temperature = 0.5f, .seed = 6});
  expect_frequencies({-inf, -inf, nan, -inf}, {.temperature = 1.0f, .seed = 7});  // the max is -inf: uniform
}

TEST(Qwen3Sampling, ASeedAndStepReproduce) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  constexpr int rows = 64;
  std::mt19937_64 rng(5);
  Logits l(rows, 1000, 1000);
  std::vector<float> one(1000);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& v : one) v = normal(rng);
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < 1000; ++i) l.set(r, i, one[std::size_t(i)]);  // identical rows
  OnDevice const d(l);
  for (SamplingParams const p : {SamplingParams{.temperature = 1.0f, .seed = 42},
                                 SamplingParams{.temperature = 1.0f, .top_k = 200, .top_p = 0.9f, .seed = 42}}) {
    SCOPED_TRACE("top_k " + std::to_string(p.top_k));
    std::vector<std::int32_t> const a = d.draw(p, 7), again = d.draw(p, 7), next = d.draw(p, 8);
    SamplingParams other_seed = p;
    other_seed.seed = 43;
    std::vector<std::int32_t> const b = d.draw(other_seed, 7);
    EXPECT_EQ(a, again);
    auto const differing = [&](std::vector<std::int32_t> const& x) {
      int n = 0;
      for (int r = 0; r < rows; ++r) n += a[std::size_t(r)] != x[std::size_t(r)];
      return n;
    };
    EXPECT_GE(differing(next), rows / 2) << "steps 7 and 8";
    EXPECT_GE(differing(b), rows / 2) << "seeds 42 and 43";
    EXPECT_GE(std::set<std::int32_t>(a.begin(), a.end()).size(), std::size_t(rows / 2)) << "identical rows, one step";
  }
}

// ---- arguments ----

TEST(Qwen3Sampling, BadArgumentsThrow) {
  // Checked before any launch: no device needed.
  auto const* const logits = reinterpret_cast<__nv_bfloat16 const*>(std::uintptr_t(256));
  auto* const ids = reinterpret_cast<std::int32_t*>(std::uintptr_t(512));
  struct Call {
    int rows = 2, vocab = 100;
    std::int64_t ld = 100;
    SamplingParams p{.temperature = 1.0f};
    __nv_bfloat16 const* logits;
    std::int32_t* ids;
  };
  auto const error = [&](auto change) {
    Call c{.logits = logits, .ids = ids};
    change(c);
    return error_of([&] {
      cute_cpp::models::sample_tokens(c.logits, c.ld, c.rows, c.vocab, c.p, 0, c.ids, nullptr, 0, nullptr);
    });
  };
  std::string const prefix = "cute-cpp [qwen3.sampling]: ";
  auto const expect = [&](std::string const& got, std::string const& says) {
    EXPECT_EQ(got.rfind(prefix, 0), 0u) << got;
    EXPECT_NE(got.find(says), std::string::npos) << got;
  };
  expect(error([](Call& c) { c.rows = 0; }), "rows is 0");
  expect(error([](Call& c) { c.vocab = 0; }), "vocab is 0");
  expect(error([](Call& c) { c.vocab = c.ld = (1 << 23) + 1; }), "vocab is 8388609");
  expect(error([](Call& c) { c.ld = 99; }), "ld is 99");
  expect(error([](Call& c) { c.p.temperature = -0.5f; }), "temperature is -0.5");
  expect(error([](Call& c) { c.p.temperature = std::numeric_limits<float>::quiet_NaN(); }), "temperature is nan");
  expect(error([](Call& c) { c.p.temperature = std::numeric_limits<float>::infinity(); }), "temperature is inf");
  expect(error([](Call& c) { c.p.top_k = -1; }), "top_k is -1");
  expect(error([](Call& c) { c.p.top_p = 0.0f; }), "top_p is 0");
  expect(error([](Call& c) { c.p.top_p = 1.5f; }), "top_p is 1.5");
  expect(error([](Call& c) { c.p.top_p = std::numeric_limits<float>::quiet_NaN(); }), "top_p is nan");
  expect(error([](Call& c) { c.logits = nullptr; }), "logits is null");
  expect(error([](Call& c) { c.ids = nullptr; }), "ids is null");
  expect(error_of([] { (void)cute_cpp::models::sampling_workspace_bytes(0, 10); }), "rows is 0");
  EXPECT_EQ(cute_cpp::models::sampling_workspace_bytes(64, qwen3_vocab), 0u);
}

TEST(Qwen3Sampling, RandomStreamIsPhilox) {
  // The row's number is Philox-4x32-10 of (step, row) under the seed (sampling.hpp checks the
  // generator against Random123's known answers at compile time).
  cute_cpp::models::Philox4x32Block const r = cute_cpp::models::philox4x32_10({{5, 0, 3, 0}}, 9, 0);
  EXPECT_EQ(cute_cpp::models::sampling_random_bits(9, 5, 3), (std::uint64_t(r.v[0]) << 32) | r.v[1]);
}

// ---- timing ----

TEST(Qwen3Sampling, Timing) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  // A sanitizer's run times nothing that means anything, and racecheck ran it past its limit.
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "timing under compute-sanitizer";
  constexpr int reps = 50;
  for (int const rows : {1, 32, 256}) {
    std::mt19937_64 rng(3);
    Logits l(rows, qwen3_vocab, qwen3_vocab);
    l.fill(rng, 0.0f, 2.5f, 20);
    OnDevice const d(l);
    DeviceBuffer<std::int32_t> ids(static_cast<std::size_t>(rows));
    struct Case {
      char const* name;
      SamplingParams p;
    };
    for (Case const& c : {Case{"greedy", {}}, Case{"T 0.6, top_p 0.95", {.temperature = 0.6f, .top_p = 0.95f}},
                          Case{"T 0.6, top_k 20, top_p 0.95", {.temperature = 0.6f, .top_k = 20, .top_p = 0.95f}},
                          Case{"T 1 (no cut)", {.temperature = 1.0f}}}) {
      for (int w = 0; w < 5; ++w) d.queue(c.p, std::uint64_t(w), ids.data());
      std::vector<cudaEvent_t> events(2 * reps);
      for (cudaEvent_t& e : events) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
      // NOTE: the GPU spins while the host queues every timed launch, so launch overhead is not timed.
      cute_cpp::kernels::bench::hold<<<1, 1>>>(4'000'000);
      for (int i = 0; i < reps; ++i) {
        cuda_check(cudaEventRecord(events[std::size_t(2 * i)]), "cudaEventRecord");
        d.queue(c.p, std::uint64_t(i), ids.data());
        cuda_check(cudaEventRecord(events[std::size_t(2 * i + 1)]), "cudaEventRecord");
      }
      cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      std::vector<float> us(reps);
      for (int i = 0; i < reps; ++i) {
        cuda_check(cudaEventElapsedTime(&us[std::size_t(i)], events[std::size_t(2 * i)], events[std::size_t(2 * i + 1)]),
                   "cudaEventElapsedTime");
        us[std::size_t(i)] *= 1000.0f;
      }
      for (cudaEvent_t e : events) cuda_check(cudaEventDestroy(e), "cudaEventDestroy");
      std::nth_element(us.begin(), us.begin() + reps / 2, us.end());
      std::printf("  qwen3 sampling, vocab %d, rows %2d, %-28s %7.2f us (median of %d)\n", qwen3_vocab, rows, c.name,
                  double(us[std::size_t(reps / 2)]), reps);
    }
  }
}

}  // namespace
