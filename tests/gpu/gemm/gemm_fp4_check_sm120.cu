// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_fp4_check: checks the sm_120a FP4 family (kernels/gemm/gemm_fp4.hpp) on fresh random data:
// the device quantizer's bytes, factors and tensor scale equal the CPU's (quant/fp4.hpp, the same
// code), and the NVFP4 / MXFP4 GEMM (sizes not multiples of the tile) and GEMV (M = 1..16) match
// the reference in double over the quantized operands (gemm_fp4_operands.hpp) within bf16's
// rounding plus the f32 accumulation's; D is NaN-poisoned first. And the calls the entry points
// refuse. Built for 120a only: no sm_120a GPU has run it yet.
//   gemm_fp4_check [--seed N] [--small]
#include "bench/support/bench.hpp"  // print_kernels
#include "tests/gpu/gemm/gemm_fp4_operands.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/error_of.hpp"
#include <cute_cpp/kernels/gemm/gemm_fp4.hpp>
#include <cute_cpp/kernels/gemm/gemm_fp4_sm120.cuh>  // the plans, for --kernels

#include <cute_cpp/host/buffer.hpp>

#include <cuda_bf16.h>

#include <cstdio>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_fp4 {
namespace {
namespace kn = cute_cpp::kernels;

Fp4Format test_format(kn::Fp4Format f) { return f == kn::Fp4Format::nvfp4 ? Fp4Format::nvfp4 : Fp4Format::mxfp4; }
char const* name_of(kn::Fp4Format f) { return f == kn::Fp4Format::nvfp4 ? "nvfp4" : "mxfp4"; }

/// A bf16 operand on the device, its values as floats (what the CPU quantizer reads), and the
/// device quantization of it, checked byte for byte against the CPU's.
struct Operand {
  host::DeviceBuffer<__nv_bfloat16> x;
  host::DeviceBuffer<std::uint8_t> data, scales;
  host::DeviceBuffer<float> global{1}, amax{1};
  Fp4Matrix cpu;
  bool same = false;
};

Operand make_operand(std::int64_t rows, std::int64_t k, kn::Fp4Format format, std::mt19937_64& rng) {
  std::vector<float> f = fp4_test_values(rows, k, rng);
  std::vector<__nv_bfloat16> bf(f.size());
  for (std::size_t i = 0; i < bf.size(); ++i) bf[i] = __float2bfloat16_rn(f[i]), f[i] = __bfloat162float(bf[i]);
  int const block = kn::fp4_scale_block(format);
  Operand op{host::DeviceBuffer<__nv_bfloat16>(bf.size()), host::DeviceBuffer<std::uint8_t>(std::size_t(rows * k / 2)),
             host::DeviceBuffer<std::uint8_t>(std::size_t(rows * k / block))};
  op.x.upload(bf);
  kn::quantize_fp4(format, op.x.data(), k, rows, k, {op.data.data(), op.scales.data(), op.global.data(), op.amax.data()});
  op.cpu = quantize_fp4(f, rows, k, test_format(format));
  op.same = op.data.download() == op.cpu.packed && op.scales.download() == op.cpu.sf &&
            (format == kn::Fp4Format::mxfp4 || op.global.download()[0] == op.cpu.global_decode);
  return op;
}

/// One GEMM (or GEMV) against the reference (count_fp4_errors' bound).
bool check_product(kn::Fp4Format format, bool gemv, std::int64_t m, std::int64_t n, std::int64_t k, std::mt19937_64& rng) {
  Operand a = make_operand(m, k, format, rng), b = make_operand(n, k, format, rng);
  host::DeviceBuffer<__nv_bfloat16> d(std::size_t(m * n));
  d.fill_bytes(0xFF);
  bool const nv = format == kn::Fp4Format::nvfp4;
  kn::Fp4GemmArguments const args{{a.data.data(), a.scales.data(), nv ? a.global.data() : nullptr},
                                  {b.data.data(), b.scales.data(), nv ? b.global.data() : nullptr},
                                  d.data(), m, n, k, n};
  if (gemv) kn::run_gemv_fp4(format, args);
  else kn::run_gemm_fp4(format, args);
  auto const out = d.download();
  std::size_t const bad = count_fp4_errors(
      a.cpu, b.cpu, [&](std::int64_t i, std::int64_t j) { return double(__bfloat162float(out[std::size_t(i * n + j)])); });
  std::printf("%s %s m=%lld n=%lld k=%lld: quantizer %s, %zu of %lld wrong\n", gemv ? "gemv" : "gemm", name_of(format),
              (long long)m, (long long)n, (long long)k, a.same && b.same ? "same as CPU" : "DIFFERS", bad, (long long)(m * n));
  return a.same && b.same && bad == 0;
}

bool check_rejections() {
  // Each call must be refused with std::invalid_argument naming gemm.fp4.arguments.
  auto const refuses = [](char const* what, auto call) {
    return cute_cpp::test::refuses(what, "gemm.fp4.arguments", call);
  };
  host::DeviceBuffer<std::uint8_t> bytes(1 << 16);
  host::DeviceBuffer<__nv_bfloat16> d(1 << 12);
  kn::Fp4GemmArguments good{{bytes.data(), bytes.data() + 8192, nullptr}, {bytes.data() + 16384, bytes.data() + 24576, nullptr},
                            d.data(), 16, 32, 128, 32};
  auto with = [&](auto change) { auto g = good; change(g); return g; };
  bool ok = true;
  ok &= refuses("K = 96", [&] { kn::run_gemm_fp4(kn::Fp4Format::nvfp4, with([](auto& g) { g.k = 96; })); });
  ok &= refuses("GEMV M = 17", [&] { kn::run_gemv_fp4(kn::Fp4Format::nvfp4, with([](auto& g) { g.m = 17; })); });
  ok &= refuses("null A", [&] { kn::run_gemm_fp4(kn::Fp4Format::mxfp4, with([](auto& g) { g.a.data = nullptr; })); });
  ok &= refuses("odd ldd", [&] { kn::run_gemm_fp4(kn::Fp4Format::mxfp4, with([](auto& g) { g.ldd = 33; })); });
  ok &= refuses("A misaligned", [&] { kn::run_gemm_fp4(kn::Fp4Format::nvfp4, with([&](auto& g) { g.a.data = bytes.data() + 8; })); });
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejections();
  for (auto format : {kn::Fp4Format::nvfp4, kn::Fp4Format::mxfp4}) {
    ok &= check_product(format, false, 128, 128, 128, rng);
    ok &= check_product(format, false, 200, 136, 384, rng);
    ok &= check_product(format, false, 1, 257, 256, rng);
    if (!small) ok &= check_product(format, false, 515, 1000, 1024, rng);
    for (std::int64_t m : {1, 7, 16}) ok &= check_product(format, true, m, small ? 72 : 1000, 512, rng);
  }
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_fp4

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  using kn::Fp4Format;
  if (kn::print_kernels(argc, argv,
                        {kn::plan_smem<kn::GemmFp4TilePlan<Fp4Format::nvfp4>>(),
                         kn::plan_smem<kn::GemmFp4TilePlan<Fp4Format::mxfp4>>(),
                         kn::plan_smem<kn::GemvFp4TilePlan<Fp4Format::nvfp4>>(),
                         kn::plan_smem<kn::GemvFp4TilePlan<Fp4Format::mxfp4>>()}))
    return 0;
  return cute_cpp::kernels::run_check(
      "gemm_fp4_check", argc, argv,
      [](std::mt19937_64& rng, cute_cpp::kernels::ProgramOptions const& options) {
        return cute_cpp::test::gemm_fp4::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
