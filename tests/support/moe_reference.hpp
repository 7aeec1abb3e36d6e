// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A float64 reference of the MoE block (kernels/moe/moe.cuh), written from the formulas (transformers'
// Qwen3MoeSparseMoeBlock and NemotronHMoE) and not from the kernels: the router's logits, the
// softmax and the sigmoid routers (correction bias for the choice only, group-limited top k,
// normalization, scaling), the experts' FFNs (SwiGLU with the fused interleaved weight, or the
// squared ReLU), the shared expert, and the weighted sum. Top k is torch.topk's set on CUDA: the
// values above the k-th, then the ones equal to it by increasing index. tests/cpu/moe proves it by
// hand; tests/gpu/gemm/nemotron_moe_check.cu checks the kernels on it, rounding what they store
// (the `round` argument).
#include "tests/support/parallel.hpp"  // parallel_for

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <type_traits>
#include <vector>

namespace cute_cpp::test::moe_ref {

/// The router of a block (MoeShape's routing fields, in double).
struct Routing {
  bool sigmoid = false;  ///< false: softmax (Qwen3); true: sigmoid with correction bias (Nemotron-H)
  int experts = 0, top_k = 0;
  bool renormalize = true;
  double scaling = 1.0;
  int groups = 1, top_groups = 1;
};

/// One token's choices: expert ids and weights, in choice order.
struct Choice {
  std::vector<int> ids;
  std::vector<double> weights;
};

/// The indices of the k largest values: descending, equal values by increasing index.
inline std::vector<int> top_k_indices(std::vector<double> const& v, int k) {
  std::vector<int> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v[std::size_t(a)] > v[std::size_t(b)]; });
  order.resize(std::size_t(k));
  return order;
}

inline double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

/// The sigmoid router's choice values of one token: sigmoid(logit) + bias (bias empty: zeros).
inline std::vector<double> choice_values(std::vector<double> const& logits, std::vector<double> const& bias) {
  std::vector<double> choice(logits.size());
  for (std::size_t e = 0; e < logits.size(); ++e) choice[e] = sigmoid(logits[e]) + (bias.empty() ? 0.0 : bias[e]);
  return choice;
}

/// Each of n_group groups of E / n_group contiguous experts scored by its two best choice values.
inline std::vector<double> group_scores(std::vector<double> const& choice, int groups) {
  std::size_t const size = choice.size() / std::size_t(groups);
  std::vector<double> out(static_cast<std::size_t>(groups));
  for (std::size_t g = 0; g < out.size(); ++g) {
    std::vector<double> members(choice.begin() + std::ptrdiff_t(g * size), choice.begin() + std::ptrdiff_t((g + 1) * size));
    auto const best = top_k_indices(members, 2);
    out[g] = members[std::size_t(best[0])] + members[std::size_t(best[1])];
  }
  return out;
}

/// The sigmoid router for one token (NemotronHMoE.route_tokens_to_experts): scores sigmoid(logit);
/// choice values score + bias; with n_group > 1, all but the topk_group best groups (group_scores)
/// masked to -inf; the top k of the choice values; weights the scores, / (sum + 1e-20) when
/// renormalizing, times the scaling.
inline Choice route_sigmoid(std::vector<double> const& logits, std::vector<double> const& bias, Routing const& r) {
  std::size_t const e_count = std::size_t(r.experts), size = e_count / std::size_t(r.groups);
  std::vector<double> choice = choice_values(logits, bias);
  if (r.groups > 1) {
    std::vector<char> kept(std::size_t(r.groups), 0);
    for (int g : top_k_indices(group_scores(choice, r.groups), r.top_groups)) kept[std::size_t(g)] = 1;
    for (std::size_t e = 0; e < e_count; ++e)
      if (!kept[e / size]) choice[e] = -INFINITY;
  }
  Choice c;
  c.ids = top_k_indices(choice, r.top_k);
  double sum = 0;
  for (int id : c.ids) sum += sigmoid(logits[std::size_t(id)]);
  for (int id : c.ids) {
    double const score = sigmoid(logits[std::size_t(id)]);
    c.weights.push_back((r.renormalize ? score / (sum + 1e-20) : score) * r.scaling);
  }
  return c;
}

/// The softmax router for one token (Qwen3MoeSparseMoeBlock): probabilities softmax(logits), the top
/// k, their probabilities renormalized to sum 1 when asked.
inline Choice route_softmax(std::vector<double> const& logits, Routing const& r) {
  double const top = *std::max_element(logits.begin(), logits.end());
  std::vector<double> p(logits.size());
  double sum = 0;
  for (std::size_t e = 0; e < p.size(); ++e) sum += p[e] = std::exp(logits[e] - top);
  for (double& v : p) v /= sum;
  Choice c;
  c.ids = top_k_indices(p, r.top_k);
  double chosen = 0;
  for (int id : c.ids) chosen += p[std::size_t(id)];
  for (int id : c.ids) c.weights.push_back(r.renormalize ? p[std::size_t(id)] / chosen : p[std::size_t(id)]);
  return c;
}

/// A weight element in double: doubles as they are, bf16 (or any type with a float conversion) through float.
template <class W>
double as_double(W v) {
  if constexpr (std::is_same_v<W, double>) return v;
  else return double(static_cast<float>(v));
}

/// A block's weights (views, in W: double, or the kernels' bf16), each expert's after the one
/// before, row-major as nn.Linear's: router (E, H); first: SwiGLU each expert's (2F, H) with gate
/// and up rows interleaved in blocks of 8, ReLU^2 each expert's up (F, H); down each expert's (H, F);
/// the shared expert's the same with Fs (Fs = 0: none); bias (E) or empty.
template <class W = double>
struct Block {
  Routing routing;
  bool gated = false;  ///< SwiGLU experts (else the squared ReLU)
  std::int64_t hidden = 0, ffn = 0, shared_ffn = 0;
  std::span<W const> router, first, down, shared_first, shared_down;
  std::vector<double> bias;
};

/// x (T, H) W^T for W (N, H); a token a job on every core.
template <class W>
std::vector<double> linear(std::vector<double> const& x, std::span<W const> w, std::int64_t hidden, std::int64_t n) {
  std::size_t const t_count = x.size() / std::size_t(hidden), h = std::size_t(hidden);
  std::vector<double> out(t_count * std::size_t(n), 0.0);
  parallel_for(t_count, [&](std::size_t t) {
    for (std::size_t r = 0; r < std::size_t(n); ++r) {
      double acc = 0;
      for (std::size_t c = 0; c < h; ++c) acc += x[t * h + c] * as_double(w[r * h + c]);
      out[t * std::size_t(n) + r] = acc;
    }
  });
  return out;
}

inline double relu2(double v) { return v > 0 ? v * v : 0.0; }

/// One row through one FFN: h = act(first x) (rounded by `round`, as a kernel stores h), out =
/// down h (rounded by `round`). `first` and `down` point at this expert's weights.
template <class W, class Round>
std::vector<double> ffn_row(double const* x, W const* first, W const* down, bool gated, std::int64_t hidden,
                            std::int64_t f, Round const& round) {
  std::size_t const h = std::size_t(hidden), fw = std::size_t(f);
  std::vector<double> act(fw);
  auto const dot = [&](std::size_t row) {
    double acc = 0;
    for (std::size_t c = 0; c < h; ++c) acc += x[c] * as_double(first[row * h + c]);
    return acc;
  };
  for (std::size_t r = 0; r < fw; ++r) {
    if (gated) {
      std::size_t const gate = r / 8 * 16 + r % 8;  // the interleaved weight's gate row; up is 8 rows on
      double const g = dot(gate);
      act[r] = round(g / (1 + std::exp(-g)) * dot(gate + 8));
    } else {
      act[r] = round(relu2(dot(r)));
    }
  }
  std::vector<double> out(h);
  for (std::size_t c = 0; c < h; ++c) {
    double acc = 0;
    for (std::size_t r = 0; r < fw; ++r) acc += act[r] * as_double(down[c * fw + r]);
    out[c] = round(acc);
  }
  return out;
}

/// y (T, H) of x (T, H) for the given choices: the shared expert's row plus the weighted sum of the
/// chosen experts' rows (each rounded by `round` as the kernels store them; y itself is not). A token
/// a job on every core (`round` is called from several threads).
template <class W, class Round>
std::vector<double> block_output(Block<W> const& b, std::vector<double> const& x, std::vector<Choice> const& choices,
                                 Round const& round) {
  std::size_t const h = std::size_t(b.hidden), f = std::size_t(b.ffn), fs = std::size_t(b.shared_ffn);
  std::size_t const first_rows = (b.gated ? 2 : 1) * f;
  std::vector<double> y(x.size(), 0.0);
  parallel_for(choices.size(), [&](std::size_t t) {
    if (fs > 0) {
      auto const s = ffn_row(&x[t * h], b.shared_first.data(), b.shared_down.data(), b.gated, b.hidden, b.shared_ffn,
                             round);
      for (std::size_t c = 0; c < h; ++c) y[t * h + c] += s[c];
    }
    for (std::size_t j = 0; j < choices[t].ids.size(); ++j) {
      auto const e = std::size_t(choices[t].ids[j]);
      auto const o = ffn_row(&x[t * h], &b.first[e * first_rows * h], &b.down[e * h * f], b.gated, b.hidden, b.ffn,
                             round);
      for (std::size_t c = 0; c < h; ++c) y[t * h + c] += choices[t].weights[j] * o[c];
    }
  });
  return y;
}

/// Every token's choices from the logits (T, E).
template <class W>
std::vector<Choice> route_all(Block<W> const& b, std::vector<double> const& logits) {
  std::size_t const e_count = std::size_t(b.routing.experts);
  std::vector<Choice> out;
  for (std::size_t t = 0; t < logits.size() / e_count; ++t) {
    std::vector<double> const row(logits.begin() + std::ptrdiff_t(t * e_count),
                                  logits.begin() + std::ptrdiff_t((t + 1) * e_count));
    out.push_back(b.routing.sigmoid ? route_sigmoid(row, b.bias, b.routing) : route_softmax(row, b.routing));
  }
  return out;
}

/// The whole block in double: logits, routing, experts, shared expert, sum.
template <class W>
std::vector<double> block(Block<W> const& b, std::vector<double> const& x) {
  auto const choices = route_all(b, linear(x, b.router, b.hidden, b.routing.experts));
  return block_output(b, x, choices, [](double v) { return v; });
}

}  // namespace cute_cpp::test::moe_ref
