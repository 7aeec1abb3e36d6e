// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// fmha_fp8_check: checks the Hopper FP8 attention forward (run_attention_fp8) on fresh random data,
// quantized to e4m3 on the host with per-(sequence, kv head) or per-tensor descales (each head
// its own amplitude, so the factors differ), O and LSE NaN-poisoned, every element of O (bf16)
// and the LSE checked against a reference in double from the dequantized inputs: no mask / causal
// / window, GQA, lengths that are not multiples of the tiles, seq_q != seq_k, varlen; and that
// bad arguments are errors naming their rules.
//   fmha_fp8_check [--seed N] [--small]   (--small: a few small cases, for compute-sanitizer)
// Tolerance (FA3's rule, STYLE.md): O's error may be twice the largest of a naive same-precision
// forward's (the reference with P rounded to e4m3 as the kernel rounds it, P · 2^8 to nearest,
// and O to bf16), plus what the scores' float accumulation may add (fmha_fp8_case.hpp).
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/gpu/attention/fmha_fp8_case.hpp"
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

using cute_cpp::test::fmha_fp8::Fp8Case;

/// Bad arguments are errors naming the rule, and nothing is launched.
bool check_errors() {
  host::DeviceBuffer<__nv_fp8_e4m3> buf(1 << 17);
  host::DeviceBuffer<__nv_bfloat16> out(1 << 16);
  kn::FmhaFp8Arguments a;
  a.q = a.k = a.v = buf.data();
  a.o = out.data();
  a.batch = 1, a.seq_q = a.seq_k = 16, a.heads_q = 4, a.heads_kv = 4, a.head_dim = a.head_dim_v = 128;
  auto const expect = [](char const* rule, kn::FmhaFp8Arguments const& args) {  // rule: "[id]"
    return kn::expect_rule(rule, [&] { kn::run_attention_fp8(args, nullptr); });
  };
  bool ok = true;
  auto b = a;
  b.head_dim = b.head_dim_v = 96;
  ok &= expect("[attention.fp8.head-dim]", b);
  b.head_dim = 256, b.head_dim_v = 128;
  ok &= expect("[attention.fp8.head-dim]", b);
  b = a;
  b.heads_kv = 3;
  ok &= expect("[attention.gqa]", b);
  b = a;
  b.descale_layout = static_cast<cute_cpp::Fp8DescaleLayout>(7);
  ok &= expect("[attention.fp8.descale]", b);
  b = a;
  std::vector<float> host_scale(4, 1.0f);
  b.k_descale = host_scale.data();  // pageable host memory
  ok &= expect("[attention.fp8.descale.pointers]", b);
  b = a;
  b.block_table = b.seqlens_k = reinterpret_cast<int const*>(buf.data());
  b.page_size = 128, b.max_pages_per_seq = 1, b.num_pages = 1;
  ok &= expect("[attention.fp8.paged]", b);
  b = a;
  b.q = buf.data() + 8;  // 8 bytes: not 16-byte aligned
  ok &= expect("[tma.global.address]", b);
  b = a;
  b.k_stride = {0, 4 * 128 + 8, 128};  // 8-byte row stride remainder
  ok &= expect("[tma.global.stride]", b);
  b = a;
  std::vector<int> bad{0, 9, 5};
  b.batch = 2;
  b.cu_seqlens_q = b.cu_seqlens_k = reinterpret_cast<int const*>(buf.data());
  b.cu_seqlens_q_host = b.cu_seqlens_k_host = bad.data();
  b.total_q = b.total_k = 16;
  ok &= expect("[attention.cu-seqlens]", b);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using Layout = cute_cpp::Fp8DescaleLayout;
  if (kn::print_plan_kernels(argc, argv, kn::fmha_fp8_plans::Instantiated{})) return 0;
  return kn::run_check(
      "fmha_fp8_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        auto const run = [&](Fp8Case const& c) { return cute_cpp::test::fmha_fp8::check_case(c, rng); };
        if (options.has("--small")) {
          // For compute-sanitizer (memcheck, racecheck, initcheck): ragged, causal GQA, varlen.
          bool ok = run({{1, 130, 200, 2, 1, 128, 128, true}, Layout::per_kv_head});
          ok &= run({{2, 0, 0, 2, 2, 128, 128, false, -1, -1, {33, 140}, {90, 140}}, Layout::per_tensor});
          ok &= run({{1, 70, 300, 4, 2, 128, 128, false, 64, 16}, Layout::per_kv_head});
          ok &= run({{1, 100, 250, 2, 1, 64, 64, true}, Layout::per_kv_head});
          ok &= run({{1, 65, 150, 2, 2, 256, 256}, Layout::per_tensor});
          return ok;
        }
        bool ok = check_errors();
        std::vector<Fp8Case> const cases = {
            {{1, 1, 1, 1, 1, 128, 128}, Layout::per_tensor},
            {{2, 17, 17, 2, 2, 128, 128, true}, Layout::per_kv_head},
            {{2, 257, 257, 4, 4, 128, 128}, Layout::per_kv_head},
            {{2, 257, 257, 4, 4, 128, 128, true}, Layout::per_tensor},
            {{1, 127, 1000, 8, 2, 128, 128, true}, Layout::per_kv_head},
            {{1, 1000, 127, 8, 1, 128, 128, true}, Layout::per_kv_head},  // rows that see no key: O 0, LSE -inf
            {{1, 700, 700, 4, 1, 128, 128, false, 64, 16}, Layout::per_kv_head},
            {{1, 1300, 1200, 4, 2, 128, 128}, Layout::per_kv_head},
            {{2, 4097, 4097, 2, 1, 128, 128, true}, Layout::per_kv_head},
            {{3, 0, 0, 4, 2, 128, 128, false, -1, -1, {1, 1100, 300}, {5, 1030, 2000}}, Layout::per_kv_head},
            {{3, 0, 0, 8, 2, 128, 128, true, -1, -1, {1, 300, 129}, {5, 1000, 129}}, Layout::per_kv_head},
            {{4, 0, 0, 2, 2, 128, 128, true, -1, -1, {17, 1, 127, 640}, {17, 33, 127, 640}}, Layout::per_tensor},
            {{1, 1, 1, 1, 1, 64, 64}, Layout::per_kv_head},
            {{2, 257, 300, 4, 2, 64, 64, true}, Layout::per_kv_head},
            {{1, 1000, 1000, 4, 4, 64, 64}, Layout::per_tensor},
            {{1, 500, 700, 8, 1, 64, 64, false, 100, 0}, Layout::per_kv_head},
            {{3, 0, 0, 4, 2, 64, 64, true, -1, -1, {1, 640, 300}, {5, 700, 2000}}, Layout::per_kv_head},
            {{1, 300, 300, 2, 2, 256, 256}, Layout::per_kv_head},
            {{1, 300, 300, 2, 2, 256, 256, true}, Layout::per_tensor},
            {{2, 0, 0, 4, 1, 256, 256, false, -1, -1, {5, 90}, {77, 190}}, Layout::per_kv_head},
        };
        for (auto const& c : cases) ok &= run(c);
        // No descales at all (factors of 1): the inputs as they are, within e4m3's range.
        ok &= run({{1, 300, 300, 2, 2, 128, 128, true}, Layout::per_tensor, false});
        return ok;
      },
      {"--small"});
}
