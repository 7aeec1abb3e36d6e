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
#include "tests/gpu/attention/fmha_case.hpp"
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

using cute_cpp::test::fmha::Case;

/// Runs a case through run_attention (sm_90a).
template <class T>
bool check_case(Case const& c, std::mt19937_64& rng) {
  return cute_cpp::test::fmha::check_case<T>(c, rng,
                                             [](kn::FmhaArguments<T> const& a) { kn::run_attention<T>(a, nullptr); });
}

/// Bad arguments are errors naming the rule, and nothing is launched.
bool check_errors() {
  host::DeviceBuffer<__nv_bfloat16> buf(1 << 16);
  kn::FmhaArguments<__nv_bfloat16> a;
  a.q = a.k = a.v = buf.data();
  a.o = buf.data();
  a.batch = 1, a.seq_q = a.seq_k = 16, a.heads_q = 4, a.heads_kv = 4, a.head_dim = a.head_dim_v = 64;
  auto const expect = [](char const* rule, auto args) {  // rule: "[id]"
    return kn::expect_rule(rule, [&] { kn::run_attention(args, nullptr); });
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
