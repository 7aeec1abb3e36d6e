// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// gemm_fp4_check_sm100: checks the sm_100a block-scaled FP4 GEMM (kernels/gemm/gemm_fp4_sm100.hpp)
// on fresh random data: random bf16 A (M x K) and B (N x K) quantized on the CPU to NVFP4 or MXFP4
// (gemm_fp4_operands.hpp, the quantizer's code), the factors moved into the sm_100a layout with
// fp4_scales_to_sm100, then run_gemm_fp4_sm100 on both tiles against the reference in double over
// the same quantized operands, every element, within bf16's rounding plus the f32 accumulation's;
// sizes not multiples of the tile; D NaN-poisoned first. And the calls the entry point refuses.
// Built for 100a only: no sm_100a GPU has run it yet.
//   gemm_fp4_check_sm100 [--seed N] [--small]
#include "tests/gpu/gemm/gemm_fp4_operands.hpp"
#include "bench/support/bench.hpp"  // print_plan_kernels
#include "tests/support/cli.hpp"
#include "tests/support/error_of.hpp"
#include <cute_cpp/kernels/gemm/gemm_fp4_sm100.hpp>
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>  // Fp4Instantiated, for --kernels

#include <cute_cpp/host/buffer.hpp>

#include <cuda_bf16.h>

#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::gemm_fp4_sm100 {
namespace {
namespace kn = cute_cpp::kernels;

Fp4Format test_format(kn::Fp4Format f) { return f == kn::Fp4Format::nvfp4 ? Fp4Format::nvfp4 : Fp4Format::mxfp4; }
char const* name_of(kn::Fp4Format f) { return f == kn::Fp4Format::nvfp4 ? "nvfp4" : "mxfp4"; }
char const* name_of(kn::Fp4Sm100Tile t) { return t == kn::Fp4Sm100Tile::tile128x128 ? "128x128" : "128x256"; }

/// One quantized operand on the device: packed data, factors in the sm_100a layout, tensor scale.
struct Operand {
  Fp4Matrix cpu;
  host::DeviceBuffer<std::uint8_t> data, scales;
  host::DeviceBuffer<float> global{1};
};

Operand make_operand(std::int64_t rows, std::int64_t k, kn::Fp4Format format, std::mt19937_64& rng) {
  std::vector<float> f = fp4_test_values(rows, k, rng);
  for (float& v : f) v = __bfloat162float(__float2bfloat16_rn(v));  // what a bf16 source holds
  Operand op{quantize_fp4(f, rows, k, test_format(format)), host::DeviceBuffer<std::uint8_t>(std::size_t(rows * k / 2)),
             host::DeviceBuffer<std::uint8_t>(std::size_t(kn::fp4_sm100_scale_bytes(format, rows, k)))};
  std::vector<std::uint8_t> scales(op.scales.size());
  kn::fp4_scales_to_sm100(format, op.cpu.sf.data(), rows, k, scales.data());
  op.data.upload(op.cpu.packed);
  op.scales.upload(scales);
  op.global.upload(std::vector<float>{op.cpu.global_decode});
  return op;
}

/// One GEMM against the reference (count_fp4_errors' bound).
bool check_product(kn::Fp4Format format, kn::Fp4Sm100Tile tile, std::int64_t m, std::int64_t n, std::int64_t k,
                   std::mt19937_64& rng) {
  Operand a = make_operand(m, k, format, rng), b = make_operand(n, k, format, rng);
  std::int64_t const ldd = (n + 7) / 8 * 8;
  host::DeviceBuffer<__nv_bfloat16> d(std::size_t(m * ldd));
  d.fill_bytes(0xFF);
  bool const nv = format == kn::Fp4Format::nvfp4;
  kn::Fp4GemmArguments const args{{a.data.data(), a.scales.data(), nv ? a.global.data() : nullptr},
                                  {b.data.data(), b.scales.data(), nv ? b.global.data() : nullptr},
                                  d.data(), m, n, k, ldd};
  kn::run_gemm_fp4_sm100(format, args, nullptr, tile);
  auto const out = d.download();
  std::size_t const bad = count_fp4_errors(
      a.cpu, b.cpu, [&](std::int64_t i, std::int64_t j) { return double(__bfloat162float(out[std::size_t(i * ldd + j)])); });
  std::printf("gemm_fp4_sm100 %s %s m=%lld n=%lld k=%lld: %zu of %lld wrong\n", name_of(format), name_of(tile),
              (long long)m, (long long)n, (long long)k, bad, (long long)(m * n));
  return bad == 0;
}

bool check_rejections() {
  // Each call must be refused with std::invalid_argument naming gemm.fp4.arguments.
  auto const refuses = [](char const* what, auto call) {
    return cute_cpp::test::refuses(what, "gemm.fp4.arguments", call);
  };
  host::DeviceBuffer<std::uint8_t> bytes(1 << 16);
  host::DeviceBuffer<__nv_bfloat16> d(1 << 12);
  kn::Fp4GemmArguments const good{{bytes.data(), bytes.data() + 8192, nullptr},
                                  {bytes.data() + 16384, bytes.data() + 24576, nullptr}, d.data(), 16, 32, 256, 32};
  auto with = [&](auto change) {
    auto g = good;
    change(g);
    return g;
  };
  auto const nv = kn::Fp4Format::nvfp4;
  bool ok = true;
  ok &= refuses("K = 128", [&] { kn::run_gemm_fp4_sm100(nv, with([](auto& g) { g.k = 128; })); });
  ok &= refuses("ldd = 36", [&] { kn::run_gemm_fp4_sm100(nv, with([](auto& g) { g.ldd = 36; })); });
  ok &= refuses("factors not 16-byte aligned",
                [&] { kn::run_gemm_fp4_sm100(nv, with([&](auto& g) { g.a.scales = bytes.data() + 8; })); });
  ok &= refuses("A misaligned",
                [&] { kn::run_gemm_fp4_sm100(nv, with([&](auto& g) { g.a.data = bytes.data() + 8; })); });
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejections();
  for (auto format : {kn::Fp4Format::nvfp4, kn::Fp4Format::mxfp4})
    for (auto tile : {kn::Fp4Sm100Tile::tile128x128, kn::Fp4Sm100Tile::tile128x256}) {
      ok &= check_product(format, tile, 128, 128, 256, rng);
      ok &= check_product(format, tile, 200, 136, 512, rng);  // ragged M and N, 2 K blocks
      ok &= check_product(format, tile, 1, 300, 256, rng);
      if (!small) ok &= check_product(format, tile, 515, 1000, 1024, rng);  // several tiles a CTA
    }
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::gemm_fp4_sm100

int main(int argc, char** argv) {
  if (cute_cpp::kernels::print_plan_kernels(argc, argv, cute_cpp::kernels::plans::sm100::Fp4Instantiated{})) return 0;
  return cute_cpp::kernels::run_check(
      "gemm_fp4_check_sm100", argc, argv,
      [](std::mt19937_64& rng, cute_cpp::kernels::ProgramOptions const& options) {
        return cute_cpp::test::gemm_fp4_sm100::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
