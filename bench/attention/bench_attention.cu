// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// bench_attention: the attention kernels' benchmark. Decode attention (kernels/attention/decode)
// against a device copy of as many bytes (the K/V it reads, Q and O: its bandwidth bound) on random
// data, L2 flushed before every timed call; prints the table and writes the records scripts/gpu-check
// keeps (kernel "decode_attention_sm90", the names the example program gave them). Prefill's
// reference is PyTorch's cuDNN attention, so bench_sdpa_fmha.py beside this file times it (and
// bench_sdpa_decode.py decode against PyTorch's SDPA). Their checks: tests/gpu/attention.
//   bench_attention [--json FILE] [--seed N] [--sweep] [--sweep-e4m3] [--mla] [--profile]
//   --sweep: the D128 candidate plans (decode_candidates.hpp) on a few shapes, over a bf16 and an
//   e4m3 cache; --sweep-e4m3: over the e4m3 cache only; --mla: the MLA rows only; --profile: a few
//   plain launches for ncu, nothing timed.
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include "decode_candidates.hpp"
#include "bench/support/bench.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/fill.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;

namespace decode_bench {

/// The benchmark's shapes: bf16, D128, 32 q heads on 8 kv heads, one query token, every sequence
/// the full length; each batch x length on each page size, then one contiguous row.
constexpr int bench_heads_q = 32, bench_heads_kv = 8, bench_d = 128;
constexpr int bench_batches[] = {1, 8, 32, 128};
constexpr int bench_lengths[] = {1024, 4096, 32768};
constexpr int bench_page_sizes[] = {16, 64};
/// Larger caches are skipped: the copy reference needs as much again.
constexpr double bench_max_cache_bytes = 40e9;

/// The benchmark's lengths (every sequence `len` keys) and, with pages, a table over the batch's
/// pages (shuffled or in order), on the device; place(a) points the arguments at them.
struct BenchTable {
  int len = 0, page_size = 0;
  host::DeviceBuffer<std::int32_t> lens, table;
  BenchTable(int batch, int len_, int page_size_, bool shuffled, std::mt19937_64& rng)
      : len(len_), page_size(page_size_), lens(std::size_t(batch)),
        table(page_size_ > 0 ? std::size_t(batch) * std::size_t(len_ / page_size_) : 0) {
    std::vector<std::int32_t> const host_lens(lens.size(), len);
    lens.upload(std::span<std::int32_t const>(host_lens));
    if (table.size() == 0) return;
    std::vector<std::int32_t> pages(table.size());
    std::iota(pages.begin(), pages.end(), 0);
    if (shuffled) std::shuffle(pages.begin(), pages.end(), rng);
    table.upload(std::span<std::int32_t const>(pages));
  }
  template <class Arguments>
  void place(Arguments& a) const {
    a.seqlens_k = lens.data(), a.max_seq_k = len;
    if (page_size == 0) return;
    a.block_table = table.data(), a.page_size = page_size;
    a.max_pages_per_seq = len / page_size, a.num_pages = int(table.size());
  }
};

/// A workspace of `bytes` for the arguments, which point at it.
template <class Arguments>
host::DeviceBuffer<unsigned char> attach_workspace(Arguments& a, std::size_t bytes) {
  host::DeviceBuffer<unsigned char> workspace(bytes);
  a.workspace = workspace.data(), a.workspace_bytes = bytes;
  return workspace;
}

/// GB/s of one shape against a device copy of as many bytes: the K and V the kernel reads, Q and O.
/// NOTE: the bench helper flushes L2 before every timed call, so the small caches (B1 KV1024: 4 MB)
/// are read from HBM too; their time is mostly launch and tail, not bandwidth.
/// `candidate` >= 0 times that plan of decode_candidates.hpp instead of run_decode_attention's. KV
/// e4m3: an FP8 cache (half the bytes) with per-head scales.
template <class T, class KV = T>
void bench(int batch, int len, int page_size, std::mt19937_64& rng, std::vector<kn::Record>& records,
           int candidate = -1, bool shuffled = true, bool profile = false) {
  constexpr bool fp8 = !std::is_same_v<KV, T>;
  std::size_t const tokens = std::size_t(batch) * len;
  std::size_t const cache_bytes = tokens * bench_heads_kv * (bench_d + bench_d) * sizeof(KV);
  std::string const shape = "B" + std::to_string(batch) + " H" + std::to_string(bench_heads_q) + "/" +
                            std::to_string(bench_heads_kv) + " KV" + std::to_string(len) + " D" +
                            std::to_string(bench_d) +
                            (page_size > 0 ? " page" + std::to_string(page_size) : std::string(" contiguous")) +
                            (candidate >= 0 ? std::string(" plan ") + kn::decode_candidate_name<KV>(candidate) : "") +
                            (shuffled ? "" : " in order") + (fp8 ? " e4m3 cache" : "");
  if (double(cache_bytes) > bench_max_cache_bytes) {
    std::printf("  bench %s: skipped (cache of %.1f GB)\n", shape.c_str(), double(cache_bytes) / 1e9);
    return;
  }
  std::size_t const q_elems = std::size_t(batch) * bench_heads_q * bench_d;
  host::DeviceBuffer<T> q(q_elems), o(q_elems);
  host::DeviceBuffer<KV> k(tokens * bench_heads_kv * bench_d), v(k.size());
  host::DeviceBuffer<float> scales(2 * bench_heads_kv);
  kn::fill_random_tiled(scales.data(), scales.size(), rng, 0.5 / 448, 1.0 / 448);
  kn::fill_random_tiled(q.data(), q.size(), rng, -1.0, 1.0);
  kn::fill_random_tiled(k.data(), k.size(), rng, -1.0, 1.0);
  kn::fill_random_tiled(v.data(), v.size(), rng, -1.0, 1.0);
  BenchTable const table(batch, len, page_size, shuffled, rng);
  kn::DecodeArguments<T, KV> a;
  a.q = q.data(), a.k = k.data(), a.v = v.data(), a.o = o.data();
  if (fp8) a.k_scale = scales.data(), a.v_scale = scales.data() + bench_heads_kv;
  a.batch = batch, a.heads_q = bench_heads_q, a.heads_kv = bench_heads_kv, a.head_dim = a.head_dim_v = bench_d;
  table.place(a);
  std::size_t workspace_bytes = kn::decode_workspace_bytes(a);
  if constexpr (std::is_same_v<T, __nv_bfloat16>)
    if (candidate >= 0) workspace_bytes = kn::decode_candidate_workspace_bytes(candidate, a);
  auto const workspace = attach_workspace(a, workspace_bytes);
  std::size_t const bytes = cache_bytes + (q.size() + o.size()) * sizeof(T);
  if (profile) {  // a few plain launches for a profiler (ncu -k regex:decode_kernel)
    std::printf("  profile %s\n", shape.c_str());
    for (int i = 0; i < 3; ++i) kn::run_decode_attention<T>(a, nullptr);
    host::cuda_check(cudaDeviceSynchronize(), "profile");
    return;
  }
  if (candidate >= 0) {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      records.push_back(kn::bench_against_copy("decode_attention_sm90", shape, kn::dtype_name<T>(), bytes,
                                               [&] { kn::run_decode_candidate(candidate, a, nullptr); }));
    }
    return;
  }
  std::printf("  bench %-34s %d splits\n", shape.c_str(), kn::decode_num_splits(a));
  records.push_back(kn::bench_against_copy("decode_attention_sm90", shape, kn::dtype_name<T>(), bytes,
                                           [&] { kn::run_decode_attention<T>(a, nullptr); }));
}

/// MLA decode (FlashMLA's workload): one latent cache of D 576 on pages of 64 (V its first 512
/// columns), one query token, every sequence the full length. Bytes: the cache once, Q and O; the
/// FLOPs (2 · rows · keys · (576 + 512)) are printed beside, for the compute-bound shapes.
void bench_mla(int batch, int len, int heads_q, std::mt19937_64& rng, std::vector<kn::Record>& records) {
  using T = __nv_bfloat16;
  constexpr int d = 576, dv = 512, page = 64;
  std::size_t const tokens = std::size_t(batch) * len;
  std::string const shape = "MLA B" + std::to_string(batch) + " H" + std::to_string(heads_q) + " KV" +
                            std::to_string(len) + " page" + std::to_string(page);
  host::DeviceBuffer<T> q(std::size_t(batch) * heads_q * d), o(std::size_t(batch) * heads_q * dv), cache(tokens * d);
  kn::fill_random_tiled(q.data(), q.size(), rng, -1.0, 1.0);
  kn::fill_random_tiled(cache.data(), cache.size(), rng, -1.0, 1.0);
  BenchTable const table(batch, len, page, true, rng);
  kn::DecodeArguments<T> a;
  a.q = q.data(), a.k = a.v = cache.data(), a.o = o.data();
  a.batch = batch, a.heads_q = heads_q, a.heads_kv = 1, a.head_dim = d, a.head_dim_v = dv;
  table.place(a);
  auto const workspace = attach_workspace(a, kn::decode_workspace_bytes(a));
  std::size_t const bytes = (cache.size() + q.size() + o.size()) * sizeof(T);
  records.push_back(kn::bench_against_copy("decode_attention_sm90", shape, kn::dtype_name<T>(), bytes,
                                           [&] { kn::run_decode_attention<T>(a, nullptr); }));
  double const flops = 2.0 * double(batch) * heads_q * len * (d + dv);
  std::printf("  bench %-34s %d splits: %.0f TFLOP/s\n", shape.c_str(), kn::decode_num_splits(a),
              flops / (records.back().microseconds * 1e6));
}

/// The MLA rows of bench_all (--mla: these alone).
void bench_mla_all(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  for (int batch : {64, 128})
    for (int len : {4096, 8192})
      for (int heads : {16, 64, 128}) bench_mla(batch, len, heads, rng, records);
}

void bench_all(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  using bf16 = __nv_bfloat16;
  for (int page_size : bench_page_sizes)
    for (int batch : bench_batches)
      for (int len : bench_lengths) bench<bf16>(batch, len, page_size, rng, records);
  // Beside B32 KV4096's paged rows: what the pages cost, shuffled and in order, against none.
  bench<bf16>(32, 4096, 16, rng, records, -1, false);
  bench<bf16>(32, 4096, 0, rng, records);
  // An e4m3 cache: half the bytes of each row above, on both page sizes.
  for (int page_size : bench_page_sizes)
    for (int batch : {8, 32, 128})
      for (int len : {4096, 32768}) bench<bf16, __nv_fp8_e4m3>(batch, len, page_size, rng, records);
  bench_mla_all(rng, records);
}

/// --sweep: the D128 candidate plans on a few shapes (how decode_plans::D128 and Fp8Plan were
/// chosen); `--sweep-e4m3` only the e4m3 cache's.
template <class KV>
void sweep(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  struct Shape {
    int batch, len, page_size;
  };
  for (Shape const s : {Shape{1, 4096, 16}, Shape{8, 4096, 16}, Shape{32, 4096, 16}, Shape{128, 4096, 16},
                        Shape{8, 32768, 64}, Shape{32, 4096, 64}, Shape{128, 4096, 64}})
    for (int c = 0; c < kn::decode_candidates<KV>(); ++c) {
      try {
        bench<__nv_bfloat16, KV>(s.batch, s.len, s.page_size, rng, records, c);
      } catch (std::invalid_argument const& e) {  // a plan whose boxes the page size cannot hold
        std::printf("  sweep: plan %s skipped: %s\n", kn::decode_candidate_name<KV>(c), e.what());
      }
    }
}

/// --profile: a few plain launches for a profiler (ncu -k regex:decode_kernel), nothing timed: pages
/// of 16 against 64, e4m3 against bf16, the shapes whose per-box cost is studied.
void profile(std::mt19937_64& rng, std::vector<kn::Record>& records) {
  for (int page_size : {16, 64}) {
    bench<__nv_bfloat16, __nv_fp8_e4m3>(32, 32768, page_size, rng, records, -1, true, true);
    bench<__nv_bfloat16>(32, 32768, page_size, rng, records, -1, true, true);
  }
}

}  // namespace decode_bench

int main(int argc, char** argv) {
  return kn::run_bench(
      "bench_attention", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options, std::vector<kn::Record>& records) {
        if (options.has("--profile")) return decode_bench::profile(rng, records);
        bool const sweep = options.has("--sweep"), sweep_e4m3 = options.has("--sweep-e4m3");
        if (sweep) decode_bench::sweep<__nv_bfloat16>(rng, records);
        if (sweep || sweep_e4m3) decode_bench::sweep<__nv_fp8_e4m3>(rng, records);
        if (options.has("--mla")) decode_bench::bench_mla_all(rng, records);
        else if (!sweep && !sweep_e4m3) {
          decode_bench::bench_all(rng, records);
          std::printf("bench_attention: prefill (fmha) is timed against cuDNN by bench/attention/bench_sdpa_fmha.py "
                      "(scripts/gpu-check's torch-bench part runs it)\n");
        }
      },
      {"--sweep", "--sweep-e4m3", "--mla", "--profile"});
}
