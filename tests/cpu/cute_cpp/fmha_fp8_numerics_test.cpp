// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The FP8 attention forward's GPU check before any GPU has run it: a host model of the kernel's
// arithmetic (key blocks of the plan's tile, last first, the running maximum, P scaled by 2^8 and rounded to
// e4m3 against it, float sums, O rescaled, O · dv / sum to bf16, the LSE) passes fmha_fp8_check's
// comparison (fmha_fp8_reference.hpp) on its kinds of case, and the same model with keys in the
// wrong order (what a wrong fp8_p_key or transpose would do) fails it: the tolerance admits the
// kernel's rounding and not a layout bug.
#include "tests/gpu/attention/fmha_fp8_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

namespace f = cute_cpp::test::fmha_fp8;
using cute_cpp::Fp8DescaleLayout;
using cute_cpp::test::fmha::Case;

/// One query row of the model: block by block as the kernel walks them; `swap` mixes keys 2 apart.
void model_row(f::Fp8Case const& fc, f::CaseData const& d, int b, int h, int i, bool swap, f::Outputs& out) {
  Case const& c = fc.shape;
  bool const varlen = !c.lens_q.empty(), per_tensor = fc.layout == Fp8DescaleLayout::per_tensor;
  int const group = c.heads_q / c.heads_kv, sq = varlen ? c.lens_q[b] : c.seq_q, sk = varlen ? c.lens_k[b] : c.seq_k;
  std::int64_t const q0 = varlen ? d.off_q[b] : std::int64_t(b) * c.seq_q;
  std::int64_t const k0 = varlen ? d.off_k[b] : std::int64_t(b) * c.seq_k;
  std::size_t const di = per_tensor ? 0 : std::size_t(b) * c.heads_kv + h / group;
  float const dq = fc.descales ? d.q.descale[di] : 1.0f, dk = fc.descales ? d.k.descale[di] : 1.0f;
  float const dv = fc.descales ? d.v.descale[di] : 1.0f;
  float const scale_log2 = float(1.0 / std::sqrt(double(c.d))) * float(M_LOG2E) * dq * dk;
  int const diagonal = i + sk - sq;
  float row_max = -INFINITY, row_sum = 0;
  std::vector<float> o(std::size_t(c.dv), 0.0f);
  auto const key = [&](int j) { return std::size_t(k0 + j) * c.heads_kv + h / group; };
  int const bn = c.d == 256 ? 64 : 128;  // the plan's key tile (fmha_fp8_plans)
  for (int n = (sk + bn - 1) / bn - 1; n >= 0; --n) {
    float s[128], block_max = row_max;
    for (int jj = 0; jj < bn; ++jj) {
      int const j = n * bn + jj;
      bool const seen = j < sk && (c.window_left < 0 || j >= diagonal - c.window_left) &&
                        (c.window_right < 0 || j <= diagonal + c.window_right) && (!c.causal || j <= diagonal);
      float acc = 0;
      for (int e = 0; seen && e < c.d; ++e)
        acc += float(d.q.bytes[(std::size_t(q0 + i) * c.heads_q + h) * c.d + e]) * float(d.k.bytes[key(j) * c.d + e]);
      s[jj] = seen ? acc : -INFINITY;
      block_max = std::max(block_max, s[jj]);
    }
    float const top = block_max == -INFINITY ? 0.0f : block_max * scale_log2;
    float const correction = std::exp2(row_max * scale_log2 - top);
    row_max = block_max;
    row_sum *= correction;
    for (auto& x : o) x *= correction;
    for (int jj = 0; jj < bn; ++jj) {
      float const p = std::exp2(s[jj] * scale_log2 - (top - float(cute_cpp::fp8_p_log2_max)));
      row_sum += p;
      float const p8 = float(__nv_fp8_e4m3(p));
      int const j = swap ? std::min((n * bn + jj) ^ 2, sk - 1) : n * bn + jj;
      for (int e = 0; p8 != 0 && e < c.dv; ++e) o[std::size_t(e)] += p8 * float(d.v.bytes[key(j) * c.dv + e]);
    }
  }
  float const factor = row_sum > 0 ? dv / row_sum : 0.0f;
  for (int e = 0; e < c.dv; ++e)
    out.o[(std::size_t(q0 + i) * c.heads_q + h) * c.dv + e] = __nv_bfloat16(o[std::size_t(e)] * factor);
  std::size_t const row = std::size_t(h) * (varlen ? d.off_q.back() : c.seq_q) + std::size_t(varlen ? q0 + i : i) +
                          (varlen ? 0 : std::size_t(b) * c.heads_q * c.seq_q);
  out.lse[row] = row_sum > 0
                     ? (row_max * scale_log2 + std::log2(row_sum) - float(cute_cpp::fp8_p_log2_max)) * float(M_LN2)
                     : -INFINITY;
}

bool model_passes(f::Fp8Case const& fc, std::mt19937_64& rng, bool swap) {
  Case const& c = fc.shape;
  f::CaseData const d = f::make_case_data(fc, rng);
  f::Outputs out;
  out.o.assign(std::size_t(d.rows_q * c.heads_q * c.dv), __nv_bfloat16(0.0f));
  out.lse.assign(std::size_t(d.rows_q * c.heads_q), 0.0f);
  for (int b = 0; b < c.batch; ++b)
    for (int h = 0; h < c.heads_q; ++h)
      for (int i = 0; i < (c.lens_q.empty() ? c.seq_q : c.lens_q[b]); ++i) model_row(fc, d, b, h, i, swap, out);
  return f::compare(fc, out, f::reference_of(fc, d, out));
}

std::vector<f::Fp8Case> cases() {
  return {
      {{1, 1, 1, 1, 1, 128, 128, false, -1, -1, {}, {}}, Fp8DescaleLayout::per_tensor},
      {{2, 17, 17, 2, 2, 128, 128, true, -1, -1, {}, {}}, Fp8DescaleLayout::per_kv_head},
      {{1, 130, 300, 4, 2, 128, 128, true, -1, -1, {}, {}}, Fp8DescaleLayout::per_kv_head},
      {{1, 200, 200, 2, 1, 64, 64, false, 64, 16, {}, {}}, Fp8DescaleLayout::per_kv_head},
      {{3, 0, 0, 2, 1, 64, 64, true, -1, -1, {1, 150, 60}, {5, 300, 60}}, Fp8DescaleLayout::per_kv_head},
      {{1, 100, 260, 2, 2, 128, 128, false, -1, -1, {}, {}}, Fp8DescaleLayout::per_tensor, false},
      {{1, 90, 200, 2, 1, 256, 256, true, -1, -1, {}, {}}, Fp8DescaleLayout::per_kv_head},
  };
}

TEST(FmhaFp8Numerics, ModelOfTheKernelPassesTheCheck) {
  for (int seed = 0; seed < 3; ++seed) {
    std::mt19937_64 rng(20261205 + seed);
    for (auto const& fc : cases()) EXPECT_TRUE(model_passes(fc, rng, false)) << fc.shape.name() << " seed " << seed;
  }
}

TEST(FmhaFp8Numerics, KeysInTheWrongOrderFailTheCheck) {
  std::mt19937_64 rng(20261205);
  for (auto const& fc : cases()) {
    if (fc.shape.seq_k > 4 || !fc.shape.lens_k.empty()) {
      EXPECT_FALSE(model_passes(fc, rng, true)) << fc.shape.name();
    }
  }
}

}  // namespace
