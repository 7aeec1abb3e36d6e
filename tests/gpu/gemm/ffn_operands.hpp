// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The FFN block's operands (kernels/gemm/ffn.cuh), shared by its check (tests/gpu/gemm/ffn_check.cu)
// and its benchmark (bench/gemm/bench_ffn_moe.cu): x and the weights on the host and the device,
// the fused gate-up weight packed once, and the check of chosen rows of y against the host in double
// (the benchmark checks sampled rows of each timed shape with it).
#include <cute_cpp/kernels/gemm/ffn.cuh>
#include "tests/support/check.hpp"
#include "tests/support/fill.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

namespace cute_cpp::test::ffn_block {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using cute_cpp::bf16;

/// The problem's buffers on the device and their host values.
struct Problem {
  std::size_t m, d, f;
  std::vector<bf16> x, wg, wu, wd;
  host::DeviceBuffer<bf16> dx, dwg, dwu, dwd, dwgu, dh, dy;
  host::DeviceBuffer<unsigned char> workspace;  // the GEMMs' stream-K / split-K, zeroed once
  Problem(std::size_t m_, std::size_t d_, std::size_t f_, std::mt19937_64& rng)
      : m(m_), d(d_), f(f_),
        x(kn::random_values<bf16>(m * d, rng)),
        wg(kn::random_values<bf16>(f * d, rng, -1.0 / std::sqrt(double(d)), 1.0 / std::sqrt(double(d)))),
        wu(kn::random_values<bf16>(f * d, rng, -1.0 / std::sqrt(double(d)), 1.0 / std::sqrt(double(d)))),
        wd(kn::random_values<bf16>(d * f, rng, -1.0 / std::sqrt(double(f)), 1.0 / std::sqrt(double(f)))),
        dx(m * d), dwg(f * d), dwu(f * d), dwd(d * f), dwgu(2 * f * d), dh(m * f), dy(m * d),
        workspace(std::max<std::size_t>(kn::ffn_workspace_bytes(m, d, f), 1)) {
    dx.upload(std::span<bf16 const>(x));
    dwg.upload(std::span<bf16 const>(wg));
    dwu.upload(std::span<bf16 const>(wu));
    dwd.upload(std::span<bf16 const>(wd));
    workspace.fill_bytes(0);
    kn::pack_gate_up(dwg.data(), dwu.data(), dwgu.data(), f, d);  // once, as a model loading its weights
  }
  void run_ours(cudaStream_t stream = nullptr) {
    kn::ffn(dx.data(), {dwgu.data(), dwd.data()}, dh.data(), dy.data(), m, d, f, workspace.data(), workspace.bytes(),
            stream);
  }

  /// Row r of y in double, with h rounded to bf16 as the kernels store it.
  std::vector<double> reference_row(std::size_t r) const {
    std::vector<double> h(f), y(d);
    auto val = [](bf16 v) { return double(static_cast<float>(v)); };
    for (std::size_t j = 0; j < f; ++j) {
      double g = 0, u = 0;
      for (std::size_t k = 0; k < d; ++k) {
        g += val(x[r * d + k]) * val(wg[j * d + k]);
        u += val(x[r * d + k]) * val(wu[j * d + k]);
      }
      h[j] = val(static_cast<bf16>(static_cast<float>(g / (1 + std::exp(-g)) * u)));
    }
    for (std::size_t c = 0; c < d; ++c) {
      double acc = 0;
      for (std::size_t j = 0; j < f; ++j) acc += h[j] * val(wd[c * f + j]);
      y[c] = acc;
    }
    return y;
  }
};

/// Checks the listed rows of y against the reference (every element of those rows).
inline bool check_rows(Problem& p, std::vector<std::size_t> const& rows, char const* what) {
  p.dy.fill_bytes(0xFF);
  p.dh.fill_bytes(0xFF);
  p.run_ours();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const got = p.dy.download();
  std::vector<bf16> got_rows;
  std::vector<double> want;
  for (std::size_t r : rows) {
    auto const w = p.reference_row(r);
    want.insert(want.end(), w.begin(), w.end());
    got_rows.insert(got_rows.end(), got.begin() + std::ptrdiff_t(r * p.d), got.begin() + std::ptrdiff_t((r + 1) * p.d));
  }
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  // NOTE: y is rounded to bf16 (2^-9 relative), and h's bf16 rounding may differ from the
  // reference's where f32 and double accumulation straddle a rounding boundary.
  auto const res = kn::check_close(std::span<bf16 const>(got_rows), std::span<double const>(want), 1.0 / 128, scale * 0.01);
  std::printf("check ffn %-28s M=%-6zu D=%-5zu F=%-6zu rows checked=%-5zu %s\n", what, p.m, p.d, p.f, rows.size(),
              res.summary().c_str());
  return res.ok();
}

}  // namespace cute_cpp::test::ffn_block
