// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The attention backward check's cases and references (fmha_backward_check.cu): a case (shape,
// causal, GQA, varlen lengths, deterministic mode) and the backward computed on the host from the
// values the GPU reads, twice: in double (the reference, and the forward's O and LSE the kernel is
// given) and in float with P and dS rounded to the input type as the kernel rounds them (the
// naive low-precision run whose error sets the tolerance, STYLE.md's rule).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include "tests/support/parallel.hpp"  // parallel_for
#include <type_traits>
#include <vector>

namespace cute_cpp::test::fmha_backward {

/// One check: the shape, the mask, and for varlen the per-sequence lengths.
struct Case {
  int batch, seq_q, seq_k, heads_q, heads_kv, d;
  bool causal = false;
  std::vector<int> lens_q, lens_k;  ///< varlen when not empty (batch entries)
  bool deterministic = false;
  bool fused_qkv = false;  ///< Q, K, V read in place from one [batch, seq, heads_q + 2 heads_kv, d] buffer
  [[nodiscard]] bool varlen() const { return !lens_q.empty(); }
  [[nodiscard]] int len_q(int b) const { return varlen() ? lens_q[std::size_t(b)] : seq_q; }
  [[nodiscard]] int len_k(int b) const { return varlen() ? lens_k[std::size_t(b)] : seq_k; }
  [[nodiscard]] std::string name() const {
    std::string s = "B" + std::to_string(batch) + " Sq" + std::to_string(seq_q) + " Sk" + std::to_string(seq_k) +
                    " H" + std::to_string(heads_q) + "/" + std::to_string(heads_kv) + " D" + std::to_string(d);
    if (causal) s += " causal";
    if (varlen()) {
      s += " varlen(";
      for (std::size_t b = 0; b < lens_q.size(); ++b)
        s += (b ? "," : "") + std::to_string(lens_q[b]) + "/" + std::to_string(lens_k[b]);
      s += ")";
    }
    if (deterministic) s += " deterministic";
    if (fused_qkv) s += " fused-qkv";
    return s;
  }
};

/// Where sequences and their rows lie: packed offsets (varlen) or b * seq.
struct Rows {
  std::vector<int> off_q{0}, off_k{0};
  std::int64_t total_q = 0, total_k = 0;
  explicit Rows(Case const& c) {
    for (int b = 0; b < c.batch; ++b) {
      off_q.push_back(off_q.back() + c.len_q(b));
      off_k.push_back(off_k.back() + c.len_k(b));
    }
    total_q = off_q.back();
    total_k = off_k.back();
  }
};

/// The inputs (as the GPU reads them) and what a backward produces.
struct Tensors {
  std::vector<double> q, k, v, d_o;  ///< [rows, heads, d], the input type's values
  std::vector<double> o, lse;        ///< the forward's O ([rows, heads_q, d]) and LSE (the forward's layout)
  std::vector<double> dq, dk, dv;
};

/// Rounds to T (the kernel's 16-bit P and dS), or not (double).
template <class T>
double round_to(double x) {
  if constexpr (std::is_same_v<T, double>) return x;
  else return double(float(T(float(x))));
}

/// The backward of the case on `t`'s inputs, in Real with P and dS rounded to Round; the forward
/// too when `forward` (O and the LSE in natural log, -inf for a row that sees no key), else
/// t.o / t.lse are read as given. t.dq / dk / dv are overwritten.
template <class Real, class Round>
void backward(Case const& c, Rows const& r, Tensors& t, bool forward) {
  int const d = c.d, hq = c.heads_q, hk = c.heads_kv, group = hq / hk;
  double const scale = 1.0 / std::sqrt(double(d));
  t.dq.assign(std::size_t(r.total_q) * hq * d, 0.0);
  t.dk.assign(std::size_t(r.total_k) * hk * d, 0.0);
  t.dv.assign(std::size_t(r.total_k) * hk * d, 0.0);
  if (forward) {
    t.o.assign(t.dq.size(), 0.0);
    t.lse.assign(std::size_t(r.total_q) * hq, -INFINITY);
  }
  auto const at = [d](std::int64_t row, int heads, int h) { return (std::size_t(row) * heads + h) * d; };
  auto const lse_at = [&](int b, int h, int i) {
    return c.varlen() ? std::size_t(h) * r.total_q + r.off_q[b] + i : (std::size_t(b) * hq + h) * c.seq_q + i;
  };
  auto const work = [&](int b, int g) {
    int const sq = c.len_q(b), sk = c.len_k(b);
    std::vector<Real> p(std::size_t(std::max(sk, 1))), ds(p.size());
    for (int h = g * group; h < (g + 1) * group; ++h) {
      for (int i = 0; i < sq; ++i) {
        std::int64_t const qi = r.off_q[b] + i;
        // S and P of row i (P with the given or computed LSE).
        Real mx = -INFINITY;
        for (int j = 0; j < sk; ++j) {
          if (c.causal && j > i + sk - sq) {
            p[j] = -INFINITY;
            continue;
          }
          Real dot = 0;
          for (int e = 0; e < d; ++e)
            dot += Real(t.q[at(qi, hq, h) + e]) * Real(t.k[at(r.off_k[b] + j, hk, g) + e]);
          p[j] = dot * Real(scale);
          mx = std::max(mx, p[j]);
        }
        if (forward) {
          Real sum = 0;
          for (int j = 0; j < sk; ++j) sum += p[j] == -INFINITY ? Real(0) : std::exp(p[j] - mx);
          t.lse[lse_at(b, h, i)] = sum > 0 ? double(mx + std::log(sum)) : -INFINITY;
        }
        Real const lse = Real(t.lse[lse_at(b, h, i)]);
        for (int j = 0; j < sk; ++j) p[j] = p[j] == -INFINITY ? Real(0) : std::exp(p[j] - lse);
        if (forward) {
          for (int e = 0; e < d; ++e) {
            Real acc = 0;
            for (int j = 0; j < sk; ++j) acc += p[j] * Real(t.v[at(r.off_k[b] + j, hk, g) + e]);
            t.o[at(qi, hq, h) + e] = double(acc);
          }
        }
        Real delta = 0;
        for (int e = 0; e < d; ++e) delta += Real(t.d_o[at(qi, hq, h) + e]) * Real(t.o[at(qi, hq, h) + e]);
        for (int j = 0; j < sk; ++j) {
          Real dp = 0;
          for (int e = 0; e < d; ++e) dp += Real(t.d_o[at(qi, hq, h) + e]) * Real(t.v[at(r.off_k[b] + j, hk, g) + e]);
          ds[j] = Real(round_to<Round>(double(p[j] * (dp - delta))));
          p[j] = Real(round_to<Round>(double(p[j])));
        }
        for (int j = 0; j < sk; ++j) {
          if (p[j] == 0 && ds[j] == 0) continue;
          std::size_t const kj = at(r.off_k[b] + j, hk, g);
          for (int e = 0; e < d; ++e) {
            t.dq[at(qi, hq, h) + e] += double(ds[j] * Real(t.k[kj + e]) * Real(scale));
            t.dk[kj + e] += double(ds[j] * Real(t.q[at(qi, hq, h) + e]) * Real(scale));
            t.dv[kj + e] += double(p[j] * Real(t.d_o[at(qi, hq, h) + e]));
          }
        }
      }
    }
  };
  test::parallel_for(std::size_t(c.batch * hk), [&](std::size_t job) { work(int(job) / hk, int(job) % hk); });
}

/// The FA3-style bound of one output: |got - ref| <= 2 max|naive - ref| + atol, every element, with
/// atol the larger of one rounding of the output type at the largest gradient (`rounding`, relative:
/// 2^-8 for bf16, 2^-11 for f16) and `floor`;
/// and the global similarity 1 - 2 <got, ref> / (|got|² + |ref|²) (DeepGEMM's) beside it. `floor`
/// (a small fraction of the largest gradient of the three) keeps a gradient that is exactly 0 in
/// both references (one query that sees one key: dS = P (dP - D) = 0) from asking the kernel for
/// exact cancellation of dP - D summed in a different order.
struct Bound {
  double atol = 0, similarity_gap = 0;
  std::size_t bad = 0, checked = 0, first_bad = 0;
  double got_at_first_bad = 0, want_at_first_bad = 0, worst = 0;
};
inline Bound check_bound(std::vector<double> const& got, std::vector<double> const& ref,
                         std::vector<double> const& naive, double floor, double rounding) {
  Bound out;
  double naive_err = 0, ref_max = 0, dot = 0, norms = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    naive_err = std::max(naive_err, std::fabs(naive[i] - ref[i]));
    ref_max = std::max(ref_max, std::fabs(ref[i]));
  }
  out.atol = 2 * naive_err + std::max(floor, rounding * ref_max);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    double const e = std::fabs(got[i] - ref[i]);
    ++out.checked;
    dot += got[i] * ref[i];
    norms += got[i] * got[i] + ref[i] * ref[i];
    if (!(e <= out.atol)) {
      if (out.bad++ == 0) {
        out.first_bad = i;
        out.got_at_first_bad = got[i];
        out.want_at_first_bad = ref[i];
      }
    } else {
      out.worst = std::max(out.worst, e);
    }
  }
  out.similarity_gap = norms > 0 ? 1 - 2 * dot / norms : 0;
  return out;
}

}  // namespace cute_cpp::test::fmha_backward
