// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// decode_check: checks the Hopper decode attention (1 to 8 new query tokens per sequence against a
// KV cache) against a CPU reference in double on fresh random data with NaN-poisoned outputs: paged
// caches (shuffled pages; spare pages, unused table entries and the slots past each sequence's end
// all NaN) and contiguous ones, mixed lengths in one batch, GQA / MHA / MQA, more than one 64-row
// block per kv head, every head dim, MLA, an e4m3 cache, forced and automatic splits, strided q and
// o, the LSE, run_kv_append; and that bad arguments are errors.
//   decode_check [--seed N] [--small]   (--small: a few short sequences, for compute-sanitizer)
// Its timings: bench/attention/bench_attention.cu (against a device copy) and bench_sdpa_decode.py
// (against PyTorch's SDPA).
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include "bench/support/bench.hpp"  // print_plan_kernels, dtype_name
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include "tests/support/parallel.hpp"  // parallel_for
#include <type_traits>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::AttentionStrides;

namespace {

/// One check: the batch's key lengths (each at least q_tokens), the heads, the cache's layout, and
/// the split counts run on the same data.
struct Case {
  std::vector<int> lens;  ///< keys per sequence, the new tokens' included; the batch is its size
  int q_tokens = 1, heads_q = 32, heads_kv = 8, d = 128;
  bool mla = false;             ///< MLA: one cache tensor of D 576, V its first 512 columns
  int page_size = 16;           ///< 0: a contiguous cache [batch, extent, heads_kv, d]
  std::vector<int> splits{0};   ///< num_splits of each run (0: automatic)
  bool seqlens = true;          ///< false: seqlens_k null (contiguous; every sequence fills the extent)
  bool kv_interleaved = false;  ///< paged: K and V of a page in one [pages, 2, page_size, heads_kv, d] buffer
  bool strided_qo = false;      ///< q inside a [batch, q_tokens, heads_q + 2 heads_kv, d] QKV buffer; o's heads padded
  bool causal = true;
  bool lse = true;
  float scale = 0.0f;  ///< 0: 1 / sqrt(d)
  bool append = false;  ///< the new tokens' K and V reach the cache through run_kv_append

  [[nodiscard]] int batch() const { return int(lens.size()); }
  [[nodiscard]] int max_len() const { return *std::max_element(lens.begin(), lens.end()); }
  [[nodiscard]] int dv() const { return mla ? 512 : d; }
  [[nodiscard]] std::string name() const {
    std::string s = "B" + std::to_string(batch()) + " q" + std::to_string(q_tokens) + " H" + std::to_string(heads_q) +
                    "/" + std::to_string(heads_kv) + " D" + std::to_string(d) + (mla ? " MLA" : "");
    s += page_size > 0 ? " page" + std::to_string(page_size) : std::string(" contiguous");
    if (!seqlens) s += " no-seqlens";
    if (kv_interleaved) s += " kv-interleaved";
    if (strided_qo) s += " strided-q/o";
    if (!causal) s += " non-causal";
    if (!lse) s += " no-lse";
    if (scale > 0) s += " scale " + std::to_string(scale).substr(0, 4);
    if (append) s += " appended";
    for (std::size_t i = 0; i < lens.size(); ++i) s += (i == 0 ? " lens " : ",") + std::to_string(lens[i]);
    return s;
  }
};

/// The element's bits as an unsigned integer of its size.
template <class T>
auto bits_of(T const& value) {
  if constexpr (sizeof(T) == 1) return std::bit_cast<std::uint8_t>(value);
  else return std::bit_cast<std::uint16_t>(value);
}

/// A NaN: all ones in bf16 and f16, 0x7F in e4m3.
template <class T>
T nan_bits() {
  if constexpr (sizeof(T) == 1) return std::bit_cast<T>(std::uint8_t{0x7F});
  else return std::bit_cast<T>(std::uint16_t{0xFFFF});
}

template <class T>
bool is_nan_bits(T const& value) {
  return bits_of(value) == bits_of(nan_bits<T>());
}

/// The element offset of (outer, seq, head) under strides: outer is a batch entry or a page.
std::int64_t at(AttentionStrides const& s, std::int64_t outer, std::int64_t seq, std::int64_t head) {
  return outer * s.batch + seq * s.seq + head * s.head;
}

// ---- inputs and the reference ----

/// The problem in logical order, as the reference reads it. The cache's K and V are KV: the
/// sources themselves, or (an e4m3 cache) the sources divided by their kv head's scale and rounded
/// as run_kv_append rounds them.
template <class T, class KV>
struct Inputs {
  std::vector<T> q;                          ///< [batch, q_tokens, heads_q, d]
  std::vector<std::vector<T>> k_src, v_src;  ///< per sequence: [len, heads_kv, d] (MLA: v empty)
  std::vector<std::vector<KV>> k, v;         ///< as the cache holds them
  std::vector<float> k_scale, v_scale;       ///< per kv head (1 for a 16-bit cache)
};

/// x / scale in e4m3, as run_kv_append computes it (x times the float inverse, rounded to nearest,
/// saturated).
template <class KV, class T>
std::vector<KV> quantize(std::vector<T> const& x, int heads_kv, int d, std::vector<float> const& scale) {
  std::vector<KV> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_same_v<KV, T>) out[i] = x[i];
    else out[i] = KV(float(x[i]) * (1.0f / scale[i / std::size_t(d) % std::size_t(heads_kv)]));
  }
  return out;
}

template <class T, class KV>
Inputs<T, KV> make_inputs(Case const& c, std::mt19937_64& rng) {
  Inputs<T, KV> in;
  in.q = kn::random_values<T>(std::size_t(c.batch()) * c.q_tokens * c.heads_q * c.d, rng, -1.0, 1.0);
  // An e4m3 cache: per head, |x| / scale reaches 200-450 of e4m3's 448 (the largest saturate).
  std::uniform_real_distribution<float> spread(1.0f / 450, 1.0f / 200);
  for (int h = 0; h < c.heads_kv; ++h) {
    in.k_scale.push_back(std::is_same_v<KV, T> ? 1.0f : spread(rng));
    in.v_scale.push_back(std::is_same_v<KV, T> ? 1.0f : spread(rng));
  }
  for (int len : c.lens) {
    std::size_t const n = std::size_t(len) * c.heads_kv * c.d;
    in.k_src.push_back(kn::random_values<T>(n, rng, -1.0, 1.0));
    in.k.push_back(quantize<KV>(in.k_src.back(), c.heads_kv, c.d, in.k_scale));
    if (c.mla) continue;
    in.v_src.push_back(kn::random_values<T>(n, rng, -1.0, 1.0));
    in.v.push_back(quantize<KV>(in.v_src.back(), c.heads_kv, c.d, in.v_scale));
  }
  return in;
}

/// O [batch, q_tokens, heads_q, dv] and LSE [batch, q_tokens, heads_q] in double: query token t of
/// sequence b sees keys [0, len - q_tokens + t] (causal) or all of them.
template <class T, class KV>
void reference(Case const& c, Inputs<T, KV> const& in, std::vector<double>& o, std::vector<double>& lse) {
  double const scale = c.scale > 0 ? double(c.scale) : 1.0 / std::sqrt(double(c.d));
  int const group = c.heads_q / c.heads_kv, rows_per_seq = c.q_tokens * c.heads_q;
  auto const work = [&](int row) {  // row = (b * q_tokens + t) * heads_q + h
    int const b = row / rows_per_seq, t = row / c.heads_q % c.q_tokens, h = row % c.heads_q, hk = h / group;
    int const len = c.lens[std::size_t(b)];
    int const visible = c.causal ? len - c.q_tokens + t + 1 : len;
    auto const key = [&](std::vector<KV> const& cache, int j, int e) {
      return double(float(cache[(std::size_t(j) * c.heads_kv + hk) * c.d + std::size_t(e)]));
    };
    double const k_scale = in.k_scale[std::size_t(hk)], v_scale = c.mla ? k_scale : in.v_scale[std::size_t(hk)];
    T const* qrow = in.q.data() + std::size_t(row) * c.d;
    std::vector<double> s(static_cast<std::size_t>(visible));
    double mx = -INFINITY;
    for (int j = 0; j < visible; ++j) {
      double dot = 0;
      for (int e = 0; e < c.d; ++e) dot += double(float(qrow[e])) * key(in.k[std::size_t(b)], j, e);
      s[std::size_t(j)] = dot * k_scale * scale;
      mx = std::max(mx, s[std::size_t(j)]);
    }
    double sum = 0;
    for (auto& x : s) sum += (x = std::exp(x - mx));
    lse[std::size_t(row)] = mx + std::log(sum);
    auto const& values = c.mla ? in.k[std::size_t(b)] : in.v[std::size_t(b)];
    for (int e = 0; e < c.dv(); ++e) {
      double acc = 0;
      for (int j = 0; j < visible; ++j) acc += s[std::size_t(j)] * key(values, j, e);
      o[std::size_t(row) * c.dv() + std::size_t(e)] = acc * v_scale / sum;
    }
  };
  cute_cpp::test::parallel_for(std::size_t(c.batch() * rows_per_seq), [&](std::size_t row) { work(int(row)); });
}

// ---- the device problem ----

/// The buffers a check's arguments point at, and the host copies of the lengths and the table.
template <class T, class KV>
struct Problem {
  std::vector<std::int32_t> lens, table;
  host::DeviceBuffer<T> q, o;
  host::DeviceBuffer<KV> kv;
  host::DeviceBuffer<float> scales;  ///< k's per kv head, then v's (an e4m3 cache)
  host::DeviceBuffer<float> lse;
  host::DeviceBuffer<std::int32_t> dlens, dtable;
  host::DeviceBuffer<unsigned char> workspace;
  bool append_ok = true;  ///< with Case::append: the cache after run_kv_append is the full one, bit for bit
  AttentionStrides q_stride, o_stride;  ///< as laid out (the arguments' may be 0: contiguous)
  kn::DecodeArguments<T, KV> args;
};

/// Q in its buffer (NaN around it: the QKV buffer's K and V heads are never Q's), and O's buffer.
template <class T, class KV>
void place_q_and_o(Case const& c, Inputs<T, KV> const& in, Problem<T, KV>& p) {
  std::int64_t const q_heads = c.strided_qo ? c.heads_q + 2 * c.heads_kv : c.heads_q;
  std::int64_t const o_head = c.strided_qo ? c.dv() + 8 : c.dv();  // 16 bytes of padding after each head
  p.q_stride = {c.q_tokens * q_heads * c.d, q_heads * c.d, c.d};
  p.o_stride = {c.q_tokens * c.heads_q * o_head, c.heads_q * o_head, o_head};
  std::vector<T> q(std::size_t(c.batch() * p.q_stride.batch), nan_bits<T>());
  for (int b = 0; b < c.batch(); ++b)
    for (int t = 0; t < c.q_tokens; ++t)
      for (int h = 0; h < c.heads_q; ++h)
        std::copy_n(in.q.begin() + ((std::ptrdiff_t(b) * c.q_tokens + t) * c.heads_q + h) * c.d, c.d,
                    q.begin() + at(p.q_stride, b, t, h));
  p.q = host::DeviceBuffer<T>(q.size());
  p.q.upload(std::span<T const>(q));
  p.o = host::DeviceBuffer<T>(std::size_t(c.batch() * p.o_stride.batch));
  p.lse = host::DeviceBuffer<float>(std::size_t(c.batch()) * c.q_tokens * c.heads_q);
  auto& a = p.args;
  a.q = p.q.data();
  a.o = p.o.data();
  a.lse = c.lse ? p.lse.data() : nullptr;
  if (c.strided_qo) {
    a.q_stride = p.q_stride;
    a.o_stride = p.o_stride;
  }
}

/// A shuffled page table: each sequence's pages drawn from a random permutation of more pages than
/// the batch needs; each row has entries past its sequence's pages, and they point at spare pages.
struct PageTable {
  int num_pages = 0, max_pages = 0;
  std::vector<std::int32_t> entries;  ///< [batch, max_pages]
};

PageTable make_page_table(std::vector<int> const& lens, int page_size, std::mt19937_64& rng) {
  int needed = 0, widest = 0;
  for (int len : lens) {
    needed += (len + page_size - 1) / page_size;
    widest = std::max(widest, (len + page_size - 1) / page_size);
  }
  int const spare = needed / 4 + 2;
  PageTable t{needed + spare, widest + 1, {}};
  std::vector<std::int32_t> order(std::size_t(t.num_pages));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  int next = 0, next_spare = 0;
  for (int len : lens)
    for (int i = 0; i < t.max_pages; ++i)
      t.entries.push_back(i < (len + page_size - 1) / page_size ? order[std::size_t(next++)]
                                                                : order[std::size_t(needed + next_spare++ % spare)]);
  return t;
}

/// Where K and V live in the one cache buffer: per unit (a page, or a sequence when contiguous),
/// K's [unit_rows, heads_kv, d] and V's, either as two regions or interleaved per page (MLA: K's
/// alone, V the same).
struct CacheLayout {
  AttentionStrides k, v;
  std::int64_t k_base = 0, v_base = 0, elems = 0;
};

CacheLayout cache_layout(Case const& c, std::int64_t units, std::int64_t unit_rows) {
  std::int64_t const row = std::int64_t(c.heads_kv) * c.d, unit = unit_rows * row;
  CacheLayout l;
  if (c.mla) {
    l.k = l.v = {unit, row, c.d};
    l.elems = units * unit;
    return l;
  }
  if (c.kv_interleaved) {  // [units, 2, unit_rows, heads_kv, d]
    l.k = l.v = {2 * unit, row, c.d};
    l.v_base = unit;
  } else {  // K's [units, unit_rows, heads_kv, d], then V's
    l.k = l.v = {unit, row, c.d};
    l.v_base = units * unit;
  }
  l.elems = 2 * units * unit;
  return l;
}

/// run_kv_append of the new tokens (the last q_tokens keys of each sequence, as a [batch, q_tokens,
/// heads_kv, d] projection output) into the cache; the cache must then be `full`, bit for bit:
/// every new slot written, nothing else touched.
template <class T, class KV>
void append_new_tokens(Case const& c, Inputs<T, KV> const& in, Problem<T, KV>& p, std::int64_t k_base,
                       std::int64_t v_base, std::vector<KV> const& full) {
  std::size_t const row = std::size_t(c.heads_kv) * c.d;
  std::vector<T> k_new, v_new;
  for (int b = 0; b < c.batch(); ++b) {
    std::size_t const first = std::size_t(c.lens[std::size_t(b)] - c.q_tokens) * row;
    auto const& k_src = in.k_src[std::size_t(b)];
    k_new.insert(k_new.end(), k_src.begin() + std::ptrdiff_t(first), k_src.end());
    if (c.mla) continue;
    auto const& v_src = in.v_src[std::size_t(b)];
    v_new.insert(v_new.end(), v_src.begin() + std::ptrdiff_t(first), v_src.end());
  }
  host::DeviceBuffer<T> dk(k_new.size()), dv(v_new.size());
  dk.upload(std::span<T const>(k_new));
  if (!c.mla) dv.upload(std::span<T const>(v_new));
  auto const& a = p.args;
  kn::KvAppendArguments<T, KV> ap;
  ap.k_new = dk.data();
  ap.k = p.kv.data() + k_base;
  if (!c.mla) {  // MLA: a K-only append
    ap.v_new = dv.data();
    ap.v = p.kv.data() + v_base;
  }
  ap.k_stride = a.k_stride;
  ap.v_stride = a.v_stride;
  ap.batch = c.batch();
  ap.q_tokens = c.q_tokens;
  ap.heads_kv = c.heads_kv;
  ap.head_dim = ap.head_dim_v = c.d;
  ap.seqlens_k = p.dlens.data();
  ap.max_seq_k = a.max_seq_k;
  ap.block_table = a.block_table;
  ap.page_size = a.page_size;
  ap.max_pages_per_seq = a.max_pages_per_seq;
  ap.num_pages = a.num_pages;
  ap.k_scale = a.k_scale;
  ap.v_scale = a.v_scale;
  kn::run_kv_append<T>(ap, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "kv_append");
  auto const after = p.kv.download();
  p.append_ok = std::equal(after.begin(), after.end(), full.begin(),
                           [](KV const& x, KV const& y) { return bits_of(x) == bits_of(y); });
}

/// The cache: every slot NaN, then each sequence's keys and values written where the table (or the
/// contiguous layout) puts them. A kernel that reads a spare page, a slot past a sequence's end,
/// or a table entry past its pages, and lets it reach O, writes NaN.
template <class T, class KV>
void place_cache(Case const& c, Inputs<T, KV> const& in, Problem<T, KV>& p, std::mt19937_64& rng) {
  bool const paged = c.page_size > 0;
  int const extent = c.seqlens ? c.max_len() + 7 : c.max_len();  // contiguous: NaN past every sequence
  PageTable table = paged ? make_page_table(c.lens, c.page_size, rng) : PageTable{};
  CacheLayout const l = cache_layout(c, paged ? table.num_pages : c.batch(), paged ? c.page_size : extent);
  auto const slot = [&](int b, int j) -> std::pair<std::int64_t, std::int64_t> {  // (unit, row) of key j
    if (!paged) return {b, j};
    return {table.entries[std::size_t(b) * table.max_pages + std::size_t(j / c.page_size)], j % c.page_size};
  };
  // With append, the cache first holds every key but the new tokens' (their slots NaN), and
  // `full` what it must hold after run_kv_append.
  std::vector<KV> cache(std::size_t(l.elems), nan_bits<KV>()), full;
  auto const write_keys = [&](std::vector<KV>& to, bool new_tokens) {
    for (int b = 0; b < c.batch(); ++b)
      for (int j = 0; j < c.lens[std::size_t(b)]; ++j) {
        if (!new_tokens && j >= c.lens[std::size_t(b)] - c.q_tokens) continue;
        for (int h = 0; h < c.heads_kv; ++h) {
          auto const [unit, row] = slot(b, j);
          std::ptrdiff_t const from = (std::ptrdiff_t(j) * c.heads_kv + h) * c.d;
          std::copy_n(in.k[std::size_t(b)].begin() + from, c.d, to.begin() + l.k_base + at(l.k, unit, row, h));
          if (!c.mla)
            std::copy_n(in.v[std::size_t(b)].begin() + from, c.d, to.begin() + l.v_base + at(l.v, unit, row, h));
        }
      }
  };
  if (c.append) {
    full = cache;
    write_keys(full, true);
  }
  write_keys(cache, !c.append);
  p.kv = host::DeviceBuffer<KV>(cache.size());
  p.kv.upload(std::span<KV const>(cache));
  p.lens.assign(c.lens.begin(), c.lens.end());
  p.dlens = host::DeviceBuffer<std::int32_t>(p.lens.size());
  p.dlens.upload(std::span<std::int32_t const>(p.lens));
  auto& a = p.args;
  a.k = p.kv.data() + l.k_base;
  a.v = p.kv.data() + l.v_base;
  if constexpr (!std::is_same_v<KV, T>) {
    std::vector<float> scales = in.k_scale;
    scales.insert(scales.end(), in.v_scale.begin(), in.v_scale.end());
    p.scales = host::DeviceBuffer<float>(scales.size());
    p.scales.upload(std::span<float const>(scales));
    a.k_scale = p.scales.data();
    a.v_scale = p.scales.data() + c.heads_kv;
  }
  if (c.kv_interleaved) {
    a.k_stride = l.k;
    a.v_stride = l.v;
  }
  a.seqlens_k = c.seqlens ? p.dlens.data() : nullptr;
  a.seqlens_k_host = c.seqlens ? p.lens.data() : nullptr;
  a.max_seq_k = paged ? c.max_len() : extent;
  if (paged) {
    p.table = std::move(table.entries);
    p.dtable = host::DeviceBuffer<std::int32_t>(p.table.size());
    p.dtable.upload(std::span<std::int32_t const>(p.table));
    a.block_table = p.dtable.data();
    a.block_table_host = p.table.data();
    a.page_size = c.page_size;
    a.max_pages_per_seq = table.max_pages;
    a.num_pages = table.num_pages;
  }
  if (c.append) append_new_tokens(c, in, p, l.k_base, l.v_base, full);
}

template <class T, class KV>
void set_shape(Case const& c, kn::DecodeArguments<T, KV>& a) {
  a.batch = c.batch();
  a.q_tokens = c.q_tokens;
  a.heads_q = c.heads_q;
  a.heads_kv = c.heads_kv;
  a.head_dim = c.d;
  a.head_dim_v = c.dv();
  a.softmax_scale = c.scale;
  a.causal = c.causal;
}

// ---- one run and its comparison ----

/// What one run wrote: O in logical order, the LSE, and how many of o's padding elements changed.
template <class T>
struct Output {
  int splits = 0;
  std::vector<T> o;  ///< [batch, q_tokens, heads_q, dv]
  std::vector<float> lse;
  std::size_t padding_written = 0;
};

/// Runs with num_splits on poisoned outputs and a poisoned workspace (a partial O or LSE that the
/// combine reads without a split having written it is NaN).
template <class T, class KV>
Output<T> run(Case const& c, Problem<T, KV>& p, int num_splits) {
  auto& a = p.args;
  a.num_splits = num_splits;
  std::size_t const bytes = kn::decode_workspace_bytes(a);
  p.workspace = host::DeviceBuffer<unsigned char>(bytes);
  if (bytes > 0) p.workspace.fill_bytes(0xFF);
  a.workspace = p.workspace.data();
  a.workspace_bytes = bytes;
  p.o.fill_bytes(0xFF);
  p.lse.fill_bytes(0xFF);
  Output<T> out;
  out.splits = kn::decode_num_splits(a);
  kn::run_decode_attention<T>(a, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "decode_check");
  auto const o = p.o.download();
  for (int b = 0; b < c.batch(); ++b)
    for (int t = 0; t < c.q_tokens; ++t)
      for (int h = 0; h < c.heads_q; ++h) {
        auto const row = o.begin() + at(p.o_stride, b, t, h);
        out.o.insert(out.o.end(), row, row + c.dv());
        out.padding_written += std::size_t(std::count_if(row + c.dv(), row + p.o_stride.head,
                                                         [](T const& x) { return !is_nan_bits(x); }));
      }
  if (c.lse) out.lse = p.lse.download();
  return out;
}

/// |got - want| <= rtol |want| + atol for every element of O, atol a fraction of the largest |want|
/// of its row. NOTE: O of a long sequence averages thousands of V rows and is small (|O| ~ 0.01 at
/// 32k keys), so fmha's fixed atol of 1e-2 would pass an O of zeros; P and O round to 16 bits
/// relative to the row's scale.
template <class T>
kn::CheckResult check_o(std::span<T const> got, std::span<double const> want, int d) {
  kn::CheckResult all;
  for (std::size_t first = 0; first < want.size(); first += std::size_t(d)) {
    auto const w = want.subspan(first, std::size_t(d));
    double row_max = 0;
    for (double x : w) row_max = std::max(row_max, std::fabs(x));
    auto const r = kn::check_close<T>(got.subspan(first, std::size_t(d)), w, 2e-2, 2e-2 * row_max);
    if (r.bad > 0 && all.bad == 0) {
      all.first_bad = first + r.first_bad;
      all.got_at_first_bad = r.got_at_first_bad;
      all.want_at_first_bad = r.want_at_first_bad;
    }
    all.bad += r.bad;
    all.checked += r.checked;
    all.worst_error = std::max(all.worst_error, r.worst_error);
  }
  return all;
}

/// The LSE within 1e-3 + 1e-4 |want| (float accumulation over up to 32k keys); NaN never passes.
kn::CheckResult check_lse(std::span<float const> got, std::span<double const> want) {
  kn::CheckResult r;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double const g = got[i], error = std::fabs(g - want[i]);
    bool const good = error <= 1e-3 + 1e-4 * std::fabs(want[i]);
    if (!good && r.bad++ == 0) {
      r.first_bad = i;
      r.got_at_first_bad = g;
      r.want_at_first_bad = want[i];
    }
    if (good) r.worst_error = std::max(r.worst_error, error);
    ++r.checked;
  }
  return r;
}

template <class T>
std::vector<double> as_double(std::vector<T> const& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (auto const& x : values) out.push_back(double(float(x)));
  return out;
}

/// Every run of a case (one per split count) against the reference, and against the first run.
template <class T, class KV = T>
bool check_case(Case const& c, std::mt19937_64& rng) {
  bool const all_full = std::all_of(c.lens.begin(), c.lens.end(), [&](int len) { return len == c.max_len(); });
  if (*std::min_element(c.lens.begin(), c.lens.end()) < c.q_tokens || (!c.seqlens && !all_full))
    throw std::logic_error("decode_check: case " + c.name() +
                           ": each length must hold the query tokens, and without seqlens_k be the extent");
  auto const in = make_inputs<T, KV>(c, rng);
  Problem<T, KV> p;
  set_shape(c, p.args);
  place_q_and_o(c, in, p);
  place_cache(c, in, p, rng);
  std::vector<double> want_o(p.lse.size() * std::size_t(c.dv())), want_lse(p.lse.size());
  reference(c, in, want_o, want_lse);
  // The element names printed: the query's, and the cache's when it differs.
  std::string const dtype = std::string(kn::dtype_name<T>()) + (std::is_same_v<KV, T> ? "" : "/e4m3");
  bool ok = p.append_ok;
  if (c.append)
    std::printf("  %-4s %s: the cache after run_kv_append %s\n", dtype.c_str(), c.name().c_str(),
                p.append_ok ? "is the full cache, bit for bit" : "DIFFERS from the full cache");
  std::vector<double> first_o;
  for (int splits : c.splits) {
    auto const out = run(c, p, splits);
    auto const r_o = check_o<T>(out.o, want_o, c.dv());
    auto const r_l = c.lse ? check_lse(out.lse, want_lse) : kn::CheckResult{};
    bool const pad_ok = out.padding_written == 0;
    ok &= r_o.ok() && (!c.lse || r_l.ok()) && pad_ok;
    std::printf("  %-4s %s, splits %d%s\n       O: %s; LSE: %s%s\n", dtype.c_str(), c.name().c_str(),
                out.splits, splits == 0 ? " (auto)" : "", r_o.summary().c_str(),
                c.lse ? r_l.summary().c_str() : "not asked for",
                pad_ok ? "" : ("; WROTE " + std::to_string(out.padding_written) + " elements of o's padding").c_str());
    if (first_o.empty()) {
      first_o = as_double(out.o);
      continue;
    }
    auto const same = check_o<T>(out.o, first_o, c.dv());
    ok &= same.ok();
    std::printf("       O against the run with splits %d: %s\n", c.splits.front(), same.summary().c_str());
  }
  return ok;
}

// ---- the checks ----

/// Bad arguments are errors naming the rule, thrown before anything is launched.
bool check_errors() {
  using bf16 = __nv_bfloat16;
  // A valid paged problem: 250 keys (four 64-key tiles) in 16 of 20 pages of 16 keys.
  host::DeviceBuffer<bf16> in(std::size_t(1) << 20), out(std::size_t(1) << 16);
  in.fill_bytes(0);
  std::vector<std::int32_t> table(16), lens{250};
  std::iota(table.begin(), table.end(), 0);
  host::DeviceBuffer<std::int32_t> dtable(table.size()), dlens(lens.size());
  dtable.upload(std::span<std::int32_t const>(table));
  dlens.upload(std::span<std::int32_t const>(lens));
  kn::DecodeArguments<bf16> a;
  a.q = a.k = a.v = in.data();
  a.o = out.data();
  a.batch = 1, a.q_tokens = 1, a.heads_q = 4, a.heads_kv = 4, a.head_dim = a.head_dim_v = 128;
  a.seqlens_k = dlens.data(), a.seqlens_k_host = lens.data(), a.max_seq_k = 250;
  a.block_table = dtable.data(), a.block_table_host = table.data();
  a.page_size = 16, a.max_pages_per_seq = 16, a.num_pages = 20;
  a.num_splits = 1;
  // The control: these arguments run, so each error below comes from the one thing changed.
  kn::run_decode_attention(a, nullptr);
  host::cuda_check(cudaDeviceSynchronize(), "decode_check");
  auto const expect = [](char const* rule, auto const& args) {  // rule: "[id]"
    return kn::expect_rule(rule, [&] {
      if constexpr (requires { args.k_new; }) kn::run_kv_append(args, nullptr);
      else kn::run_decode_attention(args, nullptr);
    });
  };
  bool ok = true;
  auto b = a;
  b.head_dim = b.head_dim_v = 96;
  ok &= expect("[attention.head-dim]", b);
  b = a;
  b.heads_q = 6;
  ok &= expect("[attention.gqa]", b);
  b = a;
  b.page_size = 24;
  ok &= expect("[attention.page-size]", b);
  b = a;
  auto bad_table = table;
  bad_table[3] = 20;  // one past the cache's pages, within the sequence's 16
  b.block_table_host = bad_table.data();
  ok &= expect("[attention.block-table]", b);
  b = a;
  std::vector<std::int32_t> const long_lens{16 * 16 + 1};  // one key past the table's 16 pages
  b.seqlens_k_host = long_lens.data();
  ok &= expect("[attention.block-table]", b);
  b = a;  // MLA's plan reads V from K: another v is refused
  b.heads_q = b.heads_kv = 1, b.head_dim = 576, b.head_dim_v = 512, b.page_size = 64;
  b.v = in.data() + 64;
  ok &= expect("[attention.mla-value]", b);
  b = a;
  b.q_tokens = 9;
  ok &= expect("[attention.q-tokens]", b);
  b = a;
  b.num_splits = 4;
  std::size_t const need = kn::decode_workspace_bytes(b);
  if (need == 0) {
    std::printf("  error [attention.workspace]     WRONG: decode_workspace_bytes is 0 for 4 splits\n");
    return false;
  }
  host::DeviceBuffer<unsigned char> workspace(need);  // room enough, but one byte fewer declared
  b.workspace = workspace.data();
  b.workspace_bytes = need - 1;
  ok &= expect("[attention.workspace]", b);
  // An e4m3 cache: head dim 64 has no plan (its boxes are 128 columns); its append takes scales.
  using fp8 = __nv_fp8_e4m3;
  auto* const bytes = reinterpret_cast<fp8*>(in.data());
  kn::DecodeArguments<bf16, fp8> f;
  f.q = a.q, f.o = a.o, f.k = f.v = bytes;
  f.batch = a.batch, f.q_tokens = a.q_tokens, f.heads_q = a.heads_q, f.heads_kv = a.heads_kv;
  f.head_dim = f.head_dim_v = 64;
  f.seqlens_k = a.seqlens_k, f.seqlens_k_host = a.seqlens_k_host, f.max_seq_k = a.max_seq_k;
  f.block_table = a.block_table, f.block_table_host = a.block_table_host;
  f.page_size = a.page_size, f.max_pages_per_seq = a.max_pages_per_seq, f.num_pages = a.num_pages;
  f.num_splits = 1;
  ok &= expect("[attention.head-dim]", f);
  kn::KvAppendArguments<bf16, fp8> ap;
  ap.k_new = ap.v_new = in.data();
  ap.k = ap.v = bytes;
  ap.heads_kv = 4, ap.head_dim = ap.head_dim_v = 128;
  ap.seqlens_k = dlens.data(), ap.max_seq_k = 250;
  ok &= expect("[attention.kv-scale]", ap);
  return ok;
}

/// For compute-sanitizer (memcheck, racecheck): every head-dim plan, both cache layouts, splits,
/// two 64-row blocks per kv head; short sequences.
bool check_small(std::mt19937_64& rng) {
  using bf16 = __nv_bfloat16;
  bool ok = check_case<bf16>({.lens = {1, 17, 300}, .heads_q = 8, .heads_kv = 2, .splits = {1, 3}}, rng);
  ok &= check_case<bf16>({.lens = {4, 70}, .q_tokens = 4, .heads_q = 4, .heads_kv = 4, .d = 64, .page_size = 0},
                         rng);
  ok &= check_case<__half>({.lens = {2, 65}, .q_tokens = 2, .heads_q = 4, .heads_kv = 1, .d = 256, .page_size = 64},
                           rng);
  ok &= check_case<bf16>({.lens = {4, 40}, .q_tokens = 4, .heads_q = 32, .heads_kv = 1, .append = true}, rng);
  ok &= check_case<bf16>({.lens = {2, 65, 130}, .q_tokens = 2, .heads_q = 16, .heads_kv = 1, .d = 576, .mla = true,
                          .page_size = 64, .splits = {1, 3}, .append = true},
                         rng);
  // MLA with a full 64-row block, on pages of 32.
  ok &= check_case<bf16>({.lens = {3, 100, 161}, .heads_q = 64, .heads_kv = 1, .d = 576, .mla = true, .page_size = 32,
                          .splits = {1, 2}},
                         rng);
  ok &= check_case<bf16, __nv_fp8_e4m3>(
      {.lens = {1, 17, 300}, .heads_q = 8, .heads_kv = 2, .splits = {1, 3}, .append = true}, rng);
  ok &= check_case<__half, __nv_fp8_e4m3>({.lens = {2, 65}, .q_tokens = 2, .heads_q = 4, .heads_kv = 1, .d = 256,
                                           .page_size = 64},
                                          rng);
  return ok;
}

bool check_all(std::mt19937_64& rng) {
  using bf16 = __nv_bfloat16;
  bool ok = check_errors();
  std::vector<Case> const cases = {
      // GQA 32/8 and 32/4 on pages of 16 and 64: the lengths around a page and a tile mixed with a
      // long one in one batch; splits forced to 1 and 3 and automatic on the same data.
      {.lens = {1, 15, 16, 17, 1000, 32768}, .splits = {0, 1, 3}},
      {.lens = {1, 15, 16, 17, 1000, 32768}, .page_size = 64},
      {.lens = {4, 15, 16, 17, 1000, 32768}, .q_tokens = 4, .heads_kv = 4, .page_size = 64, .splits = {0, 1, 3}},
      {.lens = {4, 15, 16, 17, 1000, 32768}, .q_tokens = 4},
      // MHA (one row per token and kv head) without the LSE, and MQA (every q head on one kv head).
      {.lens = {1, 17, 1000}, .heads_q = 8, .heads_kv = 8, .lse = false},
      {.lens = {15, 300, 2049}, .q_tokens = 4, .heads_q = 8, .heads_kv = 1, .page_size = 64},
      // Rows per kv head past one 64-row block: 32 x 4 = 128 (two full), 24 x 3 = 72 (the second
      // nearly empty); and exactly 64 with the most query tokens, 8.
      {.lens = {4, 100, 1000}, .q_tokens = 4, .heads_q = 32, .heads_kv = 1},
      {.lens = {3, 64, 65, 500}, .q_tokens = 3, .heads_q = 24, .heads_kv = 1, .page_size = 64, .splits = {0, 3}},
      {.lens = {8, 129}, .q_tokens = 8, .heads_q = 16, .heads_kv = 2},
      // Head dims 64 and 256 (their own plans).
      {.lens = {2, 63, 64, 65, 700}, .q_tokens = 2, .heads_q = 8, .heads_kv = 2, .d = 64},
      {.lens = {1, 100, 3000}, .heads_q = 16, .heads_kv = 4, .d = 256, .page_size = 64, .splits = {0, 3}},
      {.lens = {4, 250}, .q_tokens = 4, .heads_q = 8, .heads_kv = 8, .d = 256},
      // A contiguous cache: with lengths (NaN past each), with splits; and without (every sequence
      // the full extent).
      {.lens = {1, 500, 2000}, .heads_q = 16, .heads_kv = 4, .page_size = 0, .splits = {0, 3}},
      {.lens = {777, 777, 777}, .q_tokens = 4, .heads_q = 8, .heads_kv = 2, .page_size = 0, .seqlens = false},
      // Strides: K and V interleaved per page (page stride twice a page); q read in place from a
      // QKV projection's output and o written with padded heads (the padding must stay NaN).
      {.lens = {1, 33, 400}, .heads_q = 16, .heads_kv = 4, .kv_interleaved = true},
      {.lens = {4, 200}, .q_tokens = 4, .heads_q = 16, .heads_kv = 4, .strided_qo = true},
      // Every token sees every key; a softmax scale that is not 1/sqrt(d).
      {.lens = {4, 90, 1000}, .q_tokens = 4, .heads_q = 8, .heads_kv = 2, .causal = false},
      {.lens = {1, 1000}, .heads_q = 8, .heads_kv = 2, .scale = 0.3f},
      // The new tokens written by run_kv_append (paged, across a page boundary, and contiguous).
      {.lens = {4, 17, 31, 1000}, .q_tokens = 4, .heads_q = 16, .heads_kv = 4, .append = true},
      {.lens = {1, 64, 65}, .heads_q = 8, .heads_kv = 2, .page_size = 64, .kv_interleaved = true, .append = true},
      {.lens = {2, 300}, .q_tokens = 2, .heads_q = 8, .heads_kv = 2, .d = 64, .page_size = 0, .append = true},
      // MLA (D_qk 576, V the latent's first 512 columns of the one cache): 16 q heads on pages of 64
      // with lengths around a page; 32 heads x 4 tokens (two 64-row blocks); 128 heads with 2
      // tokens in a contiguous cache, appended; every key seen, another scale.
      {.lens = {1, 15, 64, 65, 1000, 5000}, .heads_q = 16, .heads_kv = 1, .d = 576, .mla = true, .page_size = 64,
       .splits = {0, 1, 3}},
      {.lens = {4, 100, 2000}, .q_tokens = 4, .heads_q = 32, .heads_kv = 1, .d = 576, .mla = true, .page_size = 64},
      {.lens = {2, 300, 700}, .q_tokens = 2, .heads_q = 128, .heads_kv = 1, .d = 576, .mla = true, .page_size = 0,
       .splits = {0, 2}, .append = true},
      {.lens = {1, 500}, .heads_q = 64, .heads_kv = 1, .d = 576, .mla = true, .page_size = 128, .causal = false,
       .scale = 0.07f},
  };
  for (auto const& c : cases) ok &= check_case<bf16>(c, rng);
  ok &= check_case<__half>({.lens = {1, 17, 1000, 5000}, .splits = {0, 3}}, rng);
  // An e4m3 cache with per-head scales, against the reference on the dequantized cache: pages of
  // 16 and 64, D128 and D256, contiguous, appended (quantized by run_kv_append, bit for bit as the
  // host quantizes), f16 queries.
  using fp8 = __nv_fp8_e4m3;
  std::vector<Case> const fp8_cases = {
      {.lens = {1, 15, 16, 17, 1000, 32768}, .splits = {0, 1, 3}},
      {.lens = {4, 15, 16, 17, 1000, 5000}, .q_tokens = 4, .heads_kv = 4, .page_size = 64, .splits = {0, 3}},
      {.lens = {1, 100, 3000}, .heads_q = 16, .heads_kv = 4, .d = 256, .page_size = 64, .splits = {0, 3}},
      {.lens = {4, 250}, .q_tokens = 4, .heads_q = 8, .heads_kv = 8, .d = 256},
      {.lens = {1, 500, 2000}, .heads_q = 16, .heads_kv = 4, .page_size = 0, .splits = {0, 3}},
      {.lens = {4, 17, 31, 1000}, .q_tokens = 4, .heads_q = 16, .heads_kv = 4, .append = true},
      {.lens = {1, 64, 65}, .heads_q = 8, .heads_kv = 2, .page_size = 64, .kv_interleaved = true, .append = true},
      // Query rows (tokens x group) filling one 8-row block exactly, and 12 of them in two blocks.
      {.lens = {1, 127, 4097}, .heads_q = 32, .heads_kv = 4, .page_size = 64, .splits = {0, 5}},
      {.lens = {3, 33, 777}, .q_tokens = 3, .heads_q = 32, .heads_kv = 8, .page_size = 32, .splits = {0, 2}},
  };
  for (auto const& c : fp8_cases) ok &= check_case<bf16, fp8>(c, rng);
  ok &= check_case<__half, fp8>({.lens = {1, 17, 1000, 5000}, .splits = {0, 3}}, rng);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (kn::print_plan_kernels(argc, argv, kn::decode_plans::Instantiated{})) return 0;
  return kn::run_check(
      "decode_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return options.has("--small") ? check_small(rng) : check_all(rng);
      },
      {"--small"});
}
