// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// fmha_check_sm100: checks the Blackwell (sm_100a) attention forward against the CPU reference in
// double (fmha_case.hpp, shared with fmha_check) on fresh random data with NaN-poisoned O and LSE:
// every head-dim plan, no mask / causal / sliding window, GQA, lengths that are not multiples of
// the 128-row Q tile or the key tile, seq_q != seq_k (rows that see no key), varlen batches, a
// fused QKV buffer read in place, f16 and bf16, the LSE; and that bad arguments are errors.
// Built only when CUTE_CPP_ARCHS holds 100a; never run here (no Blackwell GPU has been lent).
//   fmha_check_sm100 [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/gpu/attention/fmha_case.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;

namespace {

using cute_cpp::test::fmha::Case;

/// Runs a case through run_attention_sm100.
template <class T>
bool check_case(Case const& c, std::mt19937_64& rng) {
  return cute_cpp::test::fmha::check_case<T>(
      c, rng, [](kn::FmhaArguments<T> const& a) { kn::run_attention_sm100<T>(a, nullptr); });
}

/// Bad arguments are errors naming the rule, and nothing is launched.
bool check_errors() {
  host::DeviceBuffer<__nv_bfloat16> buf(1 << 16);
  kn::FmhaArguments<__nv_bfloat16> a;
  a.q = a.k = a.v = buf.data();
  a.o = buf.data();
  a.batch = 1, a.seq_q = a.seq_k = 16, a.heads_q = 4, a.heads_kv = 4, a.head_dim = a.head_dim_v = 64;
  auto const expect = [](char const* rule, auto args) {  // rule: "[id]"
    return kn::expect_rule(rule, [&] { kn::run_attention_sm100(args, nullptr); });
  };
  bool ok = true;
  auto b = a;
  b.head_dim = b.head_dim_v = 96;
  ok &= expect("[attention.head-dim]", b);
  b = a;
  b.heads_kv = 3;
  ok &= expect("[attention.gqa]", b);
  b = a;
  b.o_stride = {16 * 4 * 68, 4 * 68, 68};  // rows of 68 elements: not whole 16-byte units
  ok &= expect("[attention.sm100.o-alignment]", b);
  b = a;
  std::vector<int> table{0}, lengths{16};
  b.block_table = b.seqlens_k = reinterpret_cast<int const*>(buf.data());
  b.page_size = 128, b.max_pages_per_seq = 1, b.num_pages = 1;
  ok &= expect("[attention.sm100.paged]", b);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using bf16 = __nv_bfloat16;
  if (kn::print_plan_kernels(argc, argv, kn::fmha_sm100_plans::Instantiated{})) return 0;
  return kn::run_check(
      "fmha_check_sm100", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        if (options.has("--small")) {
          // For compute-sanitizer: every head-dim plan, causal, varlen, ragged lengths.
          bool ok = check_case<bf16>({1, 130, 200, 2, 1, 64, 64, true}, rng);
          ok &= check_case<bf16>({2, 0, 0, 2, 2, 128, 128, false, -1, -1, {33, 140}, {90, 140}}, rng);
          ok &= check_case<bf16>({1, 65, 65, 1, 1, 256, 256}, rng);
          ok &= check_case<__half>({1, 100, 100, 2, 2, 192, 128, true}, rng);
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
            {1, 1025, 1025, 4, 2, 128, 128},  // one key in the last block
            {3, 0, 0, 4, 2, 128, 128, false, -1, -1, {1, 1100, 300}, {5, 1030, 2000}},
            {2, 4097, 4097, 1, 1, 128, 128, true},
            {3, 0, 0, 4, 2, 128, 128, true, -1, -1, {1, 300, 129}, {5, 1000, 129}},
            {4, 0, 0, 2, 2, 64, 64, false, -1, -1, {17, 1, 127, 640}, {17, 33, 127, 640}},
            {2, 200, 200, 4, 4, 128, 128, true, -1, -1, {}, {}, true},
            {2, 333, 333, 4, 2, 192, 128, true},
            {3, 0, 0, 2, 1, 192, 128, false, -1, -1, {70, 1, 250}, {70, 400, 250}},
            {2, 0, 0, 2, 1, 256, 256, true, -1, -1, {5, 90}, {77, 190}},
        };
        for (auto const& c : cases) ok &= check_case<bf16>(c, rng);
        ok &= check_case<__half>({2, 257, 300, 4, 2, 128, 128, true}, rng);
        ok &= check_case<__half>({1, 129, 129, 2, 2, 64, 64}, rng);
        return ok;
      },
      {"--small"});
}
