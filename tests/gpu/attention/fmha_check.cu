// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// fmha_check: checks the Hopper attention forward against a CPU reference in double on fresh random
// data with NaN-poisoned outputs: every head dim, no mask / causal / sliding window, GQA, lengths
// that are not multiples of the tiles, seq_q != seq_k, varlen batches, a fused QKV buffer read in
// place, paged K/V, the LSE; and that bad arguments are errors.
//   fmha_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Its timings: bench/attention/bench_sdpa_fmha.py (PyTorch's cuDNN attention is the reference; it
// times both in one process through libcute_cpp_fmha).
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;

namespace {

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
  std::vector<std::thread> pool;
  unsigned const workers = std::max(1u, std::thread::hardware_concurrency());
  int const jobs = c.batch * c.heads_q;
  for (unsigned w = 0; w < workers; ++w)
    pool.emplace_back([&, w] {
      for (int job = int(w); job < jobs; job += int(workers)) work(job / c.heads_q, job % c.heads_q);
    });
  for (auto& t : pool) t.join();
}

template <class T>
bool check_case(Case const& c, std::mt19937_64& rng) {
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
  kn::run_attention<T>(a, nullptr);
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

/// Bad arguments are errors naming the rule, and nothing is launched.
bool check_errors() {
  host::DeviceBuffer<__nv_bfloat16> buf(1 << 16);
  kn::FmhaArguments<__nv_bfloat16> a;
  a.q = a.k = a.v = buf.data();
  a.o = buf.data();
  a.batch = 1, a.seq_q = a.seq_k = 16, a.heads_q = 4, a.heads_kv = 4, a.head_dim = a.head_dim_v = 64;
  auto const expect = [](char const* rule, auto args) {  // rule: "[id]"
    try {
      kn::run_attention(args, nullptr);
    } catch (std::invalid_argument const& e) {
      bool const named = std::string(e.what()).find(rule) != std::string::npos;
      std::printf("  error %-24s %s: %s\n", rule, named ? "ok" : "WRONG RULE", e.what());
      return named;
    }
    std::printf("  error %-24s NOT RAISED\n", rule);
    return false;
  };
  bool ok = true;
  auto b = a;
  b.head_dim = b.head_dim_v = 96;
  ok &= expect("[attention.head-dim]", b);
  b = a;
  b.heads_kv = 3;
  ok &= expect("[attention.gqa]", b);
  b = a;
  b.q = reinterpret_cast<__nv_bfloat16 const*>(reinterpret_cast<char const*>(buf.data()) + 2);
  ok &= expect("[tma.global.address]", b);
  b = a;
  b.q_stride = {0, 4 * 64 + 4, 64};
  ok &= expect("[tma.global.stride]", b);
  b = a;
  std::vector<int> bad{0, 9, 5};
  b.batch = 2;
  b.cu_seqlens_q = b.cu_seqlens_k = reinterpret_cast<int const*>(buf.data());
  b.cu_seqlens_q_host = b.cu_seqlens_k_host = bad.data();
  b.total_q = b.total_k = 16;
  ok &= expect("[attention.cu-seqlens]", b);
  // A paged cache: a page size that splits the key tile; a table entry past the cache.
  std::vector<int> table{0, 1, 7}, lengths{100};
  b = a;
  b.block_table = b.seqlens_k = reinterpret_cast<int const*>(buf.data());
  b.page_size = 48, b.max_pages_per_seq = 3, b.num_pages = 4;
  ok &= expect("[attention.page-size]", b);
  b.page_size = 128;
  b.block_table_host = table.data();
  b.seqlens_k_host = lengths.data();
  lengths[0] = 300;
  ok &= expect("[attention.block-table]", b);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using bf16 = __nv_bfloat16;
  if (kn::print_plan_kernels(argc, argv, kn::fmha_plans::Instantiated{})) return 0;
  return kn::run_check(
      "fmha_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) {
          // For compute-sanitizer (memcheck, racecheck): every head-dim plan, masks, varlen, ragged.
          bool ok = check_case<bf16>({1, 130, 200, 2, 1, 64, 64, true}, rng);
          ok &= check_case<bf16>({2, 0, 0, 2, 2, 128, 128, false, 16, -1, {33, 140}, {90, 140}}, rng);
          ok &= check_case<bf16>({1, 70, 1100, 2, 1, 128, 128, true}, rng);  // past d128_short_keys
          ok &= check_case<bf16>({1, 65, 65, 1, 1, 256, 256}, rng);
          ok &= check_case<__half>({1, 100, 100, 2, 2, 192, 128, true}, rng);
          ok &= check_case<bf16>({2, 0, 0, 2, 1, 128, 128, true, -1, -1, {20, 60}, {150, 260}, false, 128}, rng);
          return ok;
        }
        bool ok = check_errors();
        std::vector<Case> cases = {
            {1, 1, 1, 1, 1, 64, 64},
            {2, 17, 17, 2, 2, 64, 64, true},
            {2, 257, 257, 4, 4, 64, 64},
            {2, 257, 257, 4, 4, 128, 128, true},
            {1, 300, 300, 2, 2, 256, 256},
            {1, 300, 300, 2, 2, 256, 256, true},
            {1, 127, 1000, 8, 2, 128, 128, true},
            {1, 1000, 127, 8, 1, 128, 128, true},  // rows before the diagonal see no key: O 0, LSE -inf
            {1, 700, 700, 4, 1, 128, 128, false, 64, 16},
            // D128 past d128_short_keys: the 160-key plan (1025 keys: one key in its last block).
            {1, 1025, 1025, 4, 2, 128, 128},
            {1, 1300, 1200, 4, 1, 128, 128, false, 64, 16},
            {3, 0, 0, 4, 2, 128, 128, false, -1, -1, {1, 1100, 300}, {5, 1030, 2000}},
            {2, 4097, 4097, 1, 1, 128, 128, true},
            {3, 0, 0, 4, 2, 128, 128, true, -1, -1, {1, 300, 129}, {5, 1000, 129}},
            {4, 0, 0, 2, 2, 64, 64, false, -1, -1, {17, 1, 127, 640}, {17, 33, 127, 640}},
            {3, 0, 0, 2, 1, 64, 64, true, -1, -1, {1, 8192, 2500}, {1, 8192, 2500}},
            {2, 200, 200, 4, 4, 128, 128, true, -1, -1, {}, {}, true},
            {2, 333, 333, 4, 2, 192, 128, true},
            {3, 0, 0, 2, 1, 192, 128, false, -1, -1, {70, 1, 250}, {70, 400, 250}},
            {3, 0, 0, 8, 2, 128, 128, true, -1, -1, {1, 100, 700}, {1, 300, 1000}, false, 128},
            {2, 0, 0, 4, 4, 64, 64, true, -1, -1, {129, 33}, {129, 500}, false, 256},
            {2, 0, 0, 2, 1, 256, 256, false, -1, -1, {5, 90}, {77, 190}, false, 64},
        };
        for (auto const& c : cases) ok &= check_case<bf16>(c, rng);
        ok &= check_case<__half>({2, 257, 300, 4, 2, 128, 128, true}, rng);
        ok &= check_case<__half>({1, 129, 129, 2, 2, 64, 64}, rng);
        return ok;
      },
      {"--small"});
}
