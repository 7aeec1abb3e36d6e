// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The attention backward check's host reference (tests/gpu/attention/fmha_backward_case.hpp), which
// the GPU check trusts, against central differences of L = sum(dO ∘ O) on tiny cases: causal with
// seq_q above and below seq_k, GQA, varlen with a sequence of one query, and no mask.
#include "tests/gpu/attention/fmha_backward_case.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {
namespace fb = cute_cpp::test::fmha_backward;

TEST(FmhaBackwardReference, AgreesWithCentralDifferences) {
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<fb::Case> const cases = {{1, 5, 7, 4, 2, 8, true, {}, {}},
                                       {2, 6, 4, 2, 1, 8, true, {}, {}},
                                       {3, 0, 0, 4, 2, 8, true, {3, 1, 5}, {4, 2, 5}},
                                       {2, 5, 5, 2, 2, 8, false, {}, {}}};
  for (auto const& c : cases) {
    SCOPED_TRACE(c.name());
    fb::Rows const r(c);
    fb::Tensors t;
    auto const random = [&](std::int64_t n) {
      std::vector<double> x(std::size_t(n) * c.d);
      for (auto& e : x) e = u(rng);
      return x;
    };
    t.q = random(r.total_q * c.heads_q);
    t.k = random(r.total_k * c.heads_kv);
    t.v = random(r.total_k * c.heads_kv);
    t.d_o = random(r.total_q * c.heads_q);
    fb::Tensors g = t;
    fb::backward<double, double>(c, r, g, /*forward=*/true);
    auto const loss = [&](fb::Tensors x) {
      fb::backward<double, double>(c, r, x, true);
      double s = 0;
      for (std::size_t i = 0; i < x.o.size(); ++i) s += x.o[i] * t.d_o[i];
      return s;
    };
    std::vector<double> fb::Tensors::* const inputs[] = {&fb::Tensors::q, &fb::Tensors::k, &fb::Tensors::v};
    std::vector<double> fb::Tensors::* const grads[] = {&fb::Tensors::dq, &fb::Tensors::dk, &fb::Tensors::dv};
    for (int w = 0; w < 3; ++w) {
      for (std::size_t i = 0; i < (t.*inputs[w]).size(); ++i) {
        fb::Tensors plus = t, minus = t;
        double const h = 1e-5;
        (plus.*inputs[w])[i] += h;
        (minus.*inputs[w])[i] -= h;
        double const numeric = (loss(plus) - loss(minus)) / (2 * h);
        ASSERT_NEAR((g.*grads[w])[i], numeric, 1e-7) << "input " << w << " element " << i;
      }
    }
  }
}

}  // namespace
