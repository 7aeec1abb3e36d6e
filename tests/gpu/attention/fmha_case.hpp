// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The attention forward checks' cases, shared by fmha_check (sm_90a) and fmha_check_sm100: a case
// (shape, mask, varlen lengths, fused QKV, paged K/V), the reference in double from the values the
// GPU reads, and check_case, which runs one case on fresh random data with NaN-poisoned outputs
// and checks every element of O and the LSE.
#pragma once
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include "tests/support/check.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include "tests/support/parallel.hpp"  // parallel_for
#include <type_traits>
#include <vector>

namespace cute_cpp::test::fmha {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;

/// One check: the shape, the mask, and for varlen the per-sequence lengths.
struct Case {
  int batch, seq_q, seq_k, heads_q, heads_kv, d, dv;
  bool causal = false;
  int window_left = -1, window_right = -1;
  std::vector<int> lens_q, lens_k;  ///< varlen when not empty (batch entries)
  bool fused_qkv = false;           ///< Q, K, V interleaved in one [batch, seq, 3, heads, d] buffer
  int page_size = 0;                ///< > 0: K and V in a paged cache (shuffled pages, NaN in the unused slots)
  [[nodiscard]] std::string name() const {
    std::string s = "B" + std::to_string(batch) + " Sq" + std::to_string(seq_q) + " Sk" + std::to_string(seq_k) +
                    " H" + std::to_string(heads_q) + "/" + std::to_string(heads_kv) + " D" + std::to_string(d);
    if (causal) s += " causal";
    if (window_left >= 0 || window_right >= 0)
      s += " window(" + std::to_string(window_left) + "," + std::to_string(window_right) + ")";
    if (!lens_q.empty()) s += " varlen";
    if (fused_qkv) s += " fused-qkv";
    if (page_size > 0) s += " paged(" + std::to_string(page_size) + ")";
    return s;
  }
};

/// Element offsets of a [batch, seq, heads, dim] tensor.
struct Strides {
  std::int64_t batch, seq, head;
  [[nodiscard]] std::int64_t at(std::int64_t b, std::int64_t s, std::int64_t h) const {
    return b * batch + s * seq + h * head;
  }
};

/// O and LSE in double for every (sequence, head, query), from the values the GPU reads.
template <class T>
void reference(Case const& c, std::vector<T> const& q, std::vector<T> const& k, std::vector<T> const& v, Strides qs,
               Strides ks, Strides vs, std::vector<int> const& off_q, std::vector<int> const& off_k,
               std::vector<double>& o, std::vector<double>& lse) {
  double const scale = 1.0 / std::sqrt(double(c.d));
  int const group = c.heads_q / c.heads_kv;
  bool const varlen = !c.lens_q.empty();
  auto const work = [&](int b, int h) {
    int const sq = varlen ? c.lens_q[b] : c.seq_q, sk = varlen ? c.lens_k[b] : c.seq_k;
    std::int64_t const bq = varlen ? 0 : b, q0 = varlen ? off_q[b] : 0, k0 = varlen ? off_k[b] : 0;
    std::vector<double> s(std::size_t(std::max(sk, 1)));
    for (int i = 0; i < sq; ++i) {
      int const diagonal = i + sk - sq;
      double mx = -INFINITY;
      for (int j = 0; j < sk; ++j) {
        bool const visible = (c.window_left < 0 || j >= diagonal - c.window_left) &&
                             (c.window_right < 0 || j <= diagonal + c.window_right) && (!c.causal || j <= diagonal);
        if (!visible) {
          s[j] = -INFINITY;
          continue;
        }
        double dot = 0;
        for (int e = 0; e < c.d; ++e)
          dot += double(float(q[qs.at(bq, q0 + i, h) + e])) * double(float(k[ks.at(bq, k0 + j, h / group) + e]));
        s[j] = dot * scale;
        mx = std::max(mx, s[j]);
      }
      std::size_t const row = varlen ? std::size_t(h) * off_q.back() + q0 + i
                                     : (std::size_t(b) * c.heads_q + h) * c.seq_q + i;
      double sum = 0;
      for (int j = 0; j < sk; ++j) sum += s[j] == -INFINITY ? 0.0 : std::exp(s[j] - mx);
      lse[row] = sum > 0 ? mx + std::log(sum) : -INFINITY;
      for (int e = 0; e < c.dv; ++e) {
        double acc = 0;
        for (int j = 0; j < sk; ++j)
          if (s[j] != -INFINITY) acc += std::exp(s[j] - mx) * double(float(v[vs.at(bq, k0 + j, h / group) + e]));
        o[((bq * c.seq_q + q0 + i) * c.heads_q + h) * c.dv + e] = sum > 0 ? acc / sum : 0.0;
      }
    }
  };
  test::parallel_for(std::size_t(c.batch * c.heads_q),
                     [&](std::size_t job) { work(int(job) / c.heads_q, int(job) % c.heads_q); });
}

/// Runs one case with `run` (run(FmhaArguments<T>) launches the attention under test) on fresh
/// random data with NaN-poisoned O and LSE, and checks every element against the reference.
template <class T, class Run>
bool check_case(Case const& c, std::mt19937_64& rng, Run const& run) {
  bool const varlen = !c.lens_q.empty();
  std::vector<int> off_q{0}, off_k{0};
  for (int b = 0; varlen && b < c.batch; ++b) {
    off_q.push_back(off_q.back() + c.lens_q[b]);
    off_k.push_back(off_k.back() + c.lens_k[b]);
  }
  std::int64_t const rows_q = varlen ? off_q.back() : std::int64_t(c.batch) * c.seq_q;
  std::int64_t const rows_k = varlen ? off_k.back() : std::int64_t(c.batch) * c.seq_k;
  int const seq_q = varlen ? *std::max_element(c.lens_q.begin(), c.lens_q.end()) : c.seq_q;
  int const seq_k = varlen ? *std::max_element(c.lens_k.begin(), c.lens_k.end()) : c.seq_k;
  // Layouts: contiguous, or one fused [.., 3, heads, d] buffer (q, k, v at 0, H d, 2 H d).
  std::int64_t const fused_row = 3 * std::int64_t(c.heads_q) * c.d;
  Strides qs{std::int64_t(c.seq_q) * c.heads_q * c.d, std::int64_t(c.heads_q) * c.d, c.d};
  Strides ks{std::int64_t(c.seq_k) * c.heads_kv * c.d, std::int64_t(c.heads_kv) * c.d, c.d};
  Strides vs{std::int64_t(c.seq_k) * c.heads_kv * c.dv, std::int64_t(c.heads_kv) * c.dv, c.dv};
  if (c.fused_qkv) qs = ks = vs = {c.seq_q * fused_row, fused_row, c.d};
  std::size_t const q_elems = c.fused_qkv ? std::size_t(rows_q * fused_row) : std::size_t(rows_q * c.heads_q * c.d);
  auto const q = kn::random_values<T>(q_elems, rng, -1.0, 1.0);
  // Fused: K and V live in Q's buffer (k, v are placeholders).
  auto const random = [&](std::int64_t n) { return kn::random_values<T>(std::size_t(n), rng, -1.0, 1.0); };
  auto const k = c.fused_qkv ? std::vector<T>(1) : random(rows_k * c.heads_kv * c.d);
  auto const v = c.fused_qkv ? std::vector<T>(1) : random(rows_k * c.heads_kv * c.dv);
  std::int64_t const k_base = c.fused_qkv ? std::int64_t(c.heads_q) * c.d : 0;
  std::int64_t const v_base = c.fused_qkv ? 2 * std::int64_t(c.heads_q) * c.d : 0;

  host::DeviceBuffer<T> dq(q.size()), dk(k.size()), dv(v.size()), dout(std::size_t(rows_q * c.heads_q * c.dv));
  host::DeviceBuffer<float> dlse(std::size_t(rows_q * c.heads_q));
  host::DeviceBuffer<std::int32_t> dcu_q(off_q.size()), dcu_k(off_k.size());
  dq.upload(std::span<T const>(q));
  dk.upload(std::span<T const>(k));
  dv.upload(std::span<T const>(v));
  dcu_q.upload(std::span<int const>(off_q));
  dcu_k.upload(std::span<int const>(off_k));
  dout.fill_bytes(0xFF);  // NaN
  dlse.fill_bytes(0xFF);

  kn::FmhaArguments<T> a;
  a.q = dq.data();
  a.k = c.fused_qkv ? dq.data() + k_base : dk.data();
  a.v = c.fused_qkv ? dq.data() + v_base : dv.data();
  a.o = dout.data();
  a.lse = dlse.data();
  if (c.fused_qkv) a.q_stride = a.k_stride = a.v_stride = {qs.batch, qs.seq, qs.head};
  a.batch = c.batch;
  a.seq_q = seq_q;
  a.seq_k = seq_k;
  a.heads_q = c.heads_q;
  a.heads_kv = c.heads_kv;
  a.head_dim = c.d;
  a.head_dim_v = c.dv;
  a.causal = c.causal;
  a.window_left = c.window_left;
  a.window_right = c.window_right;
  if (varlen) {
    a.cu_seqlens_q = dcu_q.data();
    a.cu_seqlens_k = dcu_k.data();
    a.total_q = rows_q;
    a.total_k = rows_k;
    a.cu_seqlens_q_host = off_q.data();
    a.cu_seqlens_k_host = off_k.data();
  }
  // Paged: the packed K and V scattered into shuffled pages of a cache whose other slots are NaN.
  std::vector<std::int32_t> table, lengths(c.lens_k.begin(), c.lens_k.end());
  host::DeviceBuffer<T> dcache_k(1), dcache_v(1);
  host::DeviceBuffer<std::int32_t> dtable(1), dlengths(std::max<std::size_t>(lengths.size(), 1));
  if (c.page_size > 0) {
    int const ps = c.page_size;
    int max_pages = 1, pages = 2;  // two spare pages
    for (int len : c.lens_k) {
      max_pages = std::max(max_pages, (len + ps - 1) / ps);
      pages += (len + ps - 1) / ps;
    }
    std::vector<std::int32_t> order(std::size_t(pages), 0);
    for (int i = 0; i < pages; ++i) order[std::size_t(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    table.assign(std::size_t(c.batch) * max_pages, -1);
    std::size_t const row_k = std::size_t(c.heads_kv) * c.d, row_v = std::size_t(c.heads_kv) * c.dv;
    std::vector<T> cache_k(std::size_t(pages) * ps * row_k, T(NAN)), cache_v(std::size_t(pages) * ps * row_v, T(NAN));
    int next = 0;
    for (int b = 0; b < c.batch; ++b) {
      for (int j = 0; j < c.lens_k[b]; ++j) {
        if (j % ps == 0) table[std::size_t(b) * max_pages + j / ps] = order[std::size_t(next++)];
        std::size_t const slot = std::size_t(table[std::size_t(b) * max_pages + j / ps]) * ps + j % ps;
        std::size_t const from = std::size_t(off_k[b] + j);
        std::copy_n(k.begin() + std::ptrdiff_t(from * row_k), row_k, cache_k.begin() + std::ptrdiff_t(slot * row_k));
        std::copy_n(v.begin() + std::ptrdiff_t(from * row_v), row_v, cache_v.begin() + std::ptrdiff_t(slot * row_v));
      }
    }
    for (auto& entry : table) entry = entry < 0 ? order[0] : entry;  // unused slots: any page
    dcache_k = host::DeviceBuffer<T>(cache_k.size());
    dcache_v = host::DeviceBuffer<T>(cache_v.size());
    dtable = host::DeviceBuffer<std::int32_t>(table.size());
    dcache_k.upload(std::span<T const>(cache_k));
    dcache_v.upload(std::span<T const>(cache_v));
    dtable.upload(std::span<std::int32_t const>(table));
    dlengths.upload(std::span<std::int32_t const>(lengths));
    a.k = dcache_k.data();
    a.v = dcache_v.data();
    a.cu_seqlens_k = nullptr;
    a.cu_seqlens_k_host = nullptr;
    a.total_k = 0;
    a.block_table = dtable.data();
    a.seqlens_k = dlengths.data();
    a.page_size = ps;
    a.max_pages_per_seq = max_pages;
    a.num_pages = pages;
    a.block_table_host = table.data();
    a.seqlens_k_host = lengths.data();
  }
  run(a);
  host::cuda_check(cudaDeviceSynchronize(), "fmha_check");

  std::vector<double> want_o(dout.size()), want_lse(dlse.size());
  if (c.fused_qkv) {
    // K and V are Q's buffer from their offsets on, with its strides.
    std::vector<T> const k_view(q.begin() + k_base, q.end()), v_view(q.begin() + v_base, q.end());
    reference<T>(c, q, k_view, v_view, qs, qs, qs, off_q, off_k, want_o, want_lse);
  } else {
    reference<T>(c, q, k, v, qs, ks, vs, off_q, off_k, want_o, want_lse);
  }
  auto const got_o = dout.download();
  auto const got_lse = dlse.download();
  // O: P rounds to 16 bits before P V, O to T; LSE in float.
  auto const r_o = kn::check_close<T>(std::span<T const>(got_o), want_o, 2e-2, 1e-2);
  std::vector<float> lse_f(got_lse.begin(), got_lse.end());
  kn::CheckResult r_l;
  for (std::size_t i = 0; i < want_lse.size(); ++i) {
    double const g = lse_f[i], w = want_lse[i];
    bool const good = (std::isinf(w) && g == w) || std::fabs(g - w) <= 1e-3 + 1e-4 * std::fabs(w);
    if (!good && r_l.bad++ == 0) {
      r_l.first_bad = i;
      r_l.got_at_first_bad = g;
      r_l.want_at_first_bad = w;
    }
    if (good && !std::isinf(w)) r_l.worst_error = std::max(r_l.worst_error, std::fabs(g - w));
    ++r_l.checked;
  }
  bool const ok = r_o.ok() && r_l.ok();
  std::printf("  %-6s %-48s O: %s; LSE: %s\n", std::is_same_v<T, __half> ? "f16" : "bf16", c.name().c_str(),
              r_o.summary().c_str(), r_l.summary().c_str());
  return ok;
}

}  // namespace cute_cpp::test::fmha
