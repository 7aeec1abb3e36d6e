// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The FP8 attention forward's check, its host half (fmha_fp8_check on the GPU, and the CPU test
// of the tolerance, tests/cpu/cute_cpp/fmha_fp8_numerics_test.cpp): a case (fmha_case.hpp's shape,
// mask and varlen lengths, and the descale layout), its data quantized to e4m3, the reference in
// double from the dequantized values, and the comparison.
// Tolerance, per element of O: |o - ref| <= max(2 max|naive - ref|, 2^-6 sum_j p_j |v_j|)
// + 2 e_s sum_j p_j |v_j| + 2^-8 |ref| + 1e-6. naive is the reference with P rounded as the kernel
// rounds it (P 2^8 to e4m3, nearest even; the row sums of the unrounded P) and O rounded to bf16:
// the error P's e4m3 rounding and O's bf16 rounding bring, FA3's rule (STYLE.md); the kernel rounds
// P against the running maximum, not the final one, so its roundings are another draw of the same
// size. e4m3 keeps 3 mantissa bits, so each rounded P is within 2^-4 of itself (fp8_e4m3_half_ulp)
// and |O's error| <= 2^-4 sum_j p_j |v_j| always; the floor of a quarter of that keeps a case of
// few elements (whose naive draw may be lucky) from failing by chance, while a wrong key order
// (errors of the order of |v|) stays far outside. e_s bounds the scores' error from the float
// accumulation: FP8 wgmma keeps about 14 bits of the sum (DeepSeek-V3's report), so e_s =
// 2^-12 scale dq dk max_j sum_e |q_e k_je| (4x margin); a score off by e_s moves each p_j by at
// most a factor e^(2 e_s). LSE: |lse - ref| <= e_s + 1e-4 |ref| + 1e-4.
#pragma once
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include "tests/gpu/attention/fmha_case.hpp"  // Case
#include "tests/support/check.hpp"

#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include "tests/support/parallel.hpp"  // parallel_for
#include <vector>

namespace cute_cpp::test::fmha_fp8 {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using fmha::Case;

struct Fp8Case {
  Case shape;
  Fp8DescaleLayout layout = Fp8DescaleLayout::per_kv_head;
  bool descales = true;  ///< false: null descale pointers (factors of 1)
};

/// One tensor quantized: e4m3 bytes and the descale of each (sequence, kv head) (one for per_tensor).
struct Quantized {
  std::vector<__nv_fp8_e4m3> bytes;
  std::vector<float> descale;
  std::vector<double> value;  ///< the dequantized values the reference reads: float(byte) · descale
};

/// Random values in [-1, 1] times a factor per (sequence, head) of 2^-2 .. 2^2, quantized with
/// descale = amax / 448 per group of `group_heads` heads (a kv head's q heads for Q), per tensor
/// when `per_tensor`; without descales, the values themselves (in e4m3's range) rounded.
inline Quantized quantize(std::int64_t rows, int heads, int dim, int group_heads, std::vector<int> const& row_batch,
                          int batches, bool per_tensor, bool descales, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0), exponent(-2.0, 2.0);
  std::vector<double> head_factor(std::size_t(batches) * heads);
  for (auto& f : head_factor) f = std::exp2(exponent(rng));
  int const groups = heads / group_heads;
  std::vector<double> x(std::size_t(rows) * heads * dim);
  std::vector<double> amax(per_tensor ? 1 : std::size_t(batches) * groups, 0.0);
  for (std::int64_t r = 0; r < rows; ++r)
    for (int h = 0; h < heads; ++h)
      for (int e = 0; e < dim; ++e) {
        double const v = unit(rng) * head_factor[std::size_t(row_batch[std::size_t(r)]) * heads + h];
        x[(std::size_t(r) * heads + h) * dim + e] = v;
        double& m = amax[per_tensor ? 0 : std::size_t(row_batch[std::size_t(r)]) * groups + h / group_heads];
        m = std::max(m, std::fabs(v));
      }
  Quantized q;
  q.descale.resize(amax.size());
  for (std::size_t i = 0; i < amax.size(); ++i) q.descale[i] = descales && amax[i] > 0 ? float(amax[i] / 448.0) : 1.0f;
  q.bytes.resize(x.size());
  q.value.resize(x.size());
  for (std::int64_t r = 0; r < rows; ++r)
    for (int h = 0; h < heads; ++h) {
      float const d = q.descale[per_tensor ? 0 : std::size_t(row_batch[std::size_t(r)]) * groups + h / group_heads];
      for (int e = 0; e < dim; ++e) {
        std::size_t const i = (std::size_t(r) * heads + h) * dim + e;
        q.bytes[i] = __nv_fp8_e4m3(float(x[i] / d));
        q.value[i] = double(float(q.bytes[i])) * d;
      }
    }
  return q;
}

/// P · 2^fp8_p_log2_max rounded to e4m3 (nearest even) and scaled back: what the kernel multiplies V by.
inline double rounded_p(double p) {
  double const scaled = p * std::exp2(fp8_p_log2_max);
  return double(float(__nv_fp8_e4m3(float(scaled)))) / std::exp2(fp8_p_log2_max);
}

/// For every (sequence, head, query): O and the LSE in double, naive O (P rounded, O to bf16), the
/// sum over keys of p |v| per output, and the score bound e_s per row.
struct Reference {
  std::vector<double> o, naive, p_abs_v, lse, score_error;
};

inline void reference(Case const& c, Quantized const& q, Quantized const& k, Quantized const& v,
                      std::vector<int> const& off_q, std::vector<int> const& off_k, Reference& r) {
  double const scale = 1.0 / std::sqrt(double(c.d));
  int const group = c.heads_q / c.heads_kv;
  bool const varlen = !c.lens_q.empty();
  auto const work = [&](int b, int h) {
    int const sq = varlen ? c.lens_q[b] : c.seq_q, sk = varlen ? c.lens_k[b] : c.seq_k;
    std::int64_t const q0 = varlen ? off_q[b] : std::int64_t(b) * c.seq_q;
    std::int64_t const k0 = varlen ? off_k[b] : std::int64_t(b) * c.seq_k;
    std::vector<double> s(std::size_t(std::max(sk, 1))), p(s.size());
    for (int i = 0; i < sq; ++i) {
      int const diagonal = i + sk - sq;
      double mx = -INFINITY, magnitude = 0;
      double const* qi = &q.value[(std::size_t(q0 + i) * c.heads_q + h) * c.d];
      for (int j = 0; j < sk; ++j) {
        bool const visible = (c.window_left < 0 || j >= diagonal - c.window_left) &&
                             (c.window_right < 0 || j <= diagonal + c.window_right) && (!c.causal || j <= diagonal);
        if (!visible) {
          s[j] = -INFINITY;
          continue;
        }
        double const* kj = &k.value[(std::size_t(k0 + j) * c.heads_kv + h / group) * c.d];
        double dot = 0, dot_abs = 0;
        for (int e = 0; e < c.d; ++e) {
          dot += qi[e] * kj[e];
          dot_abs += std::fabs(qi[e] * kj[e]);
        }
        s[j] = dot * scale;
        magnitude = std::max(magnitude, dot_abs * scale);
        mx = std::max(mx, s[j]);
      }
      std::size_t const row = std::size_t(h) * (varlen ? off_q.back() : c.seq_q) + (varlen ? q0 + i : i) +
                              (varlen ? 0 : std::size_t(b) * c.heads_q * c.seq_q);
      double sum = 0;
      for (int j = 0; j < sk; ++j) sum += (p[j] = s[j] == -INFINITY ? 0.0 : std::exp(s[j] - mx));
      r.lse[row] = sum > 0 ? mx + std::log(sum) : -INFINITY;
      r.score_error[row] = std::exp2(-12.0) * magnitude;
      for (int e = 0; e < c.dv; ++e) {
        double acc = 0, naive = 0, abs_acc = 0;
        for (int j = 0; j < sk; ++j) {
          if (p[j] == 0) continue;
          double const vj = v.value[(std::size_t(k0 + j) * c.heads_kv + h / group) * c.dv + e];
          acc += p[j] * vj;
          naive += rounded_p(p[j]) * vj;
          abs_acc += p[j] * std::fabs(vj);
        }
        std::size_t const at = (std::size_t(q0 + i) * c.heads_q + h) * c.dv + e;
        r.o[at] = sum > 0 ? acc / sum : 0.0;
        r.naive[at] = sum > 0 ? double(float(__nv_bfloat16(float(naive / sum)))) : 0.0;
        r.p_abs_v[at] = sum > 0 ? abs_acc / sum : 0.0;
      }
    }
  };
  test::parallel_for(std::size_t(c.batch * c.heads_q),
                     [&](std::size_t job) { work(int(job) / c.heads_q, int(job) % c.heads_q); });
}

/// What the kernel wrote.
struct Outputs {
  std::vector<__nv_bfloat16> o;
  std::vector<float> lse;
};

/// Every element of O and the LSE against the reference, with the tolerance of the file comment.
inline bool compare(Fp8Case const& fc, Outputs const& out, Reference const& r) {
  Case const& c = fc.shape;
  auto const& got_o = out.o;
  auto const& got_lse = out.lse;
  double naive_error = 0;
  for (std::size_t i = 0; i < r.o.size(); ++i) naive_error = std::max(naive_error, std::fabs(r.naive[i] - r.o[i]));
  double worst_score_error = 0;
  for (double e : r.score_error) worst_score_error = std::max(worst_score_error, e);
  kn::CheckResult r_o, r_l;
  for (std::size_t i = 0; i < r.o.size(); ++i) {
    double const g = double(float(got_o[i])), w = r.o[i];
    double const tol = std::max(2 * naive_error, std::exp2(-6.0) * r.p_abs_v[i]) +
                       2 * worst_score_error * r.p_abs_v[i] + std::exp2(-8.0) * std::fabs(w) + 1e-6;
    double const error = std::fabs(g - w);
    if (!(error <= tol)) {
      if (r_o.bad++ == 0) {
        r_o.first_bad = i;
        r_o.got_at_first_bad = g;
        r_o.want_at_first_bad = w;
      }
    } else {
      r_o.worst_error = std::max(r_o.worst_error, error);
    }
    ++r_o.checked;
  }
  for (std::size_t i = 0; i < r.lse.size(); ++i) {
    double const g = got_lse[i], w = r.lse[i];
    bool const good = (std::isinf(w) && g == w) || std::fabs(g - w) <= r.score_error[i] + 1e-4 * std::fabs(w) + 1e-4;
    if (!good && r_l.bad++ == 0) {
      r_l.first_bad = i;
      r_l.got_at_first_bad = g;
      r_l.want_at_first_bad = w;
    }
    if (good && !std::isinf(w)) r_l.worst_error = std::max(r_l.worst_error, std::fabs(g - w));
    ++r_l.checked;
  }
  bool const ok = r_o.ok() && r_l.ok();
  std::printf("  e4m3 %-44s %-11s O: %s (naive's worst %.3g); LSE: %s\n", c.name().c_str(),
              !fc.descales ? "no-descale" : fc.layout == Fp8DescaleLayout::per_tensor ? "per-tensor" : "per-kv-head",
              r_o.summary().c_str(), naive_error, r_l.summary().c_str());
  return ok;
}

/// A case's data: the packed offsets (varlen), the rows, and Q, K, V quantized.
struct CaseData {
  std::vector<int> off_q{0}, off_k{0};
  std::int64_t rows_q = 0, rows_k = 0;
  Quantized q, k, v;
};

/// Fresh random data for a case, quantized as its descale layout says (quantize).
inline CaseData make_case_data(Fp8Case const& fc, std::mt19937_64& rng) {
  CaseData d;
  Case const& c = fc.shape;
  bool const varlen = !c.lens_q.empty();
  for (int b = 0; varlen && b < c.batch; ++b) {
    d.off_q.push_back(d.off_q.back() + c.lens_q[b]);
    d.off_k.push_back(d.off_k.back() + c.lens_k[b]);
  }
  d.rows_q = varlen ? d.off_q.back() : std::int64_t(c.batch) * c.seq_q;
  d.rows_k = varlen ? d.off_k.back() : std::int64_t(c.batch) * c.seq_k;
  // Each row's sequence (its descales' row).
  std::vector<int> batch_q(static_cast<std::size_t>(d.rows_q)), batch_k(static_cast<std::size_t>(d.rows_k));
  for (int b = 0; b < c.batch; ++b) {
    std::int64_t const q_from = varlen ? d.off_q[b] : std::int64_t(b) * c.seq_q;
    std::int64_t const k_from = varlen ? d.off_k[b] : std::int64_t(b) * c.seq_k;
    std::int64_t const q_to = q_from + (varlen ? c.lens_q[b] : c.seq_q), k_to = k_from + (varlen ? c.lens_k[b] : c.seq_k);
    std::fill(batch_q.begin() + q_from, batch_q.begin() + q_to, b);
    std::fill(batch_k.begin() + k_from, batch_k.begin() + k_to, b);
  }
  bool const per_tensor = fc.layout == Fp8DescaleLayout::per_tensor;
  int const group = c.heads_q / c.heads_kv;
  d.q = quantize(d.rows_q, c.heads_q, c.d, group, batch_q, c.batch, per_tensor, fc.descales, rng);
  d.k = quantize(d.rows_k, c.heads_kv, c.d, 1, batch_k, c.batch, per_tensor, fc.descales, rng);
  d.v = quantize(d.rows_k, c.heads_kv, c.dv, 1, batch_k, c.batch, per_tensor, fc.descales, rng);
  return d;
}

/// The reference of a case's data, sized for the outputs `out`.
inline Reference reference_of(Fp8Case const& fc, CaseData const& d, Outputs const& out) {
  Reference r;
  r.o.assign(out.o.size(), 0.0);
  r.naive = r.p_abs_v = r.o;
  r.lse.assign(out.lse.size(), 0.0);
  r.score_error = r.lse;
  reference(fc.shape, d.q, d.k, d.v, d.off_q, d.off_k, r);
  return r;
}

}  // namespace cute_cpp::test::fmha_fp8
