// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's operands (kernels/moe/moe.cuh), shared by its check (tests/gpu/gemm/moe_check.cu)
// and its benchmark (bench/gemm/bench_ffn_moe.cu): a layer's input and weights on the host and the
// device, its scratch, and a device-to-host copy for reading the routing back.
#include <cute_cpp/kernels/moe/moe.cuh>
#include "tests/support/fill.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace cute_cpp::test::moe_block {

namespace kn = cute_cpp::kernels;
namespace moe = cute_cpp::kernels::moe;
namespace host = cute_cpp::host;
using moe::bf16;

inline double val(bf16 v) { return double(static_cast<float>(v)); }

/// A layer's weights and input on the host and the device.
struct Layer {
  moe::MoeShape s;
  std::vector<bf16> x, router, gate_up, down;  // gate_up: each expert's (2F, H), gate and up rows in blocks of 8
  host::DeviceBuffer<bf16> dx, drouter, dgate_up, ddown, dy;
  host::DeviceBuffer<unsigned char> scratch;
  Layer(moe::MoeShape const& shape, std::mt19937_64& rng) : s(shape) {
    auto const e = std::size_t(s.experts), h = std::size_t(s.hidden), f = std::size_t(s.ffn);
    x = kn::random_values<bf16>(std::size_t(s.tokens) * h, rng, -1.0, 1.0);
    router = kn::random_values<bf16>(e * h, rng, -3.0 / std::sqrt(double(h)), 3.0 / std::sqrt(double(h)));
    gate_up = kn::random_values<bf16>(e * 2 * f * h, rng, -2.0 / std::sqrt(double(h)), 2.0 / std::sqrt(double(h)));
    down = kn::random_values<bf16>(e * h * f, rng, -1.0 / std::sqrt(double(f)), 1.0 / std::sqrt(double(f)));
    auto up = [](host::DeviceBuffer<bf16>& d, std::vector<bf16> const& v) {
      d = host::DeviceBuffer<bf16>(v.size());
      d.upload(std::span<bf16 const>(v));
    };
    up(dx, x), up(drouter, router), up(dgate_up, gate_up), up(ddown, down);
    dy = host::DeviceBuffer<bf16>(std::size_t(s.tokens) * h);
    scratch = host::DeviceBuffer<unsigned char>(moe::moe_scratch_bytes(s));
    scratch.fill_bytes(0);
  }
  [[nodiscard]] moe::MoeWeights weights() const { return {drouter.data(), dgate_up.data(), ddown.data()}; }
  [[nodiscard]] moe::MoeScratch carved() const {
    auto const base = (reinterpret_cast<std::uintptr_t>(scratch.data()) + 255) / 256 * 256;
    return moe::MoeScratch(reinterpret_cast<void*>(base), s);
  }
  void run(cudaStream_t stream = nullptr) { moe::moe_layer(dx.data(), weights(), s, dy.data(), scratch.data(), stream); }
};

template <class T>
std::vector<T> download(T const* p, std::size_t n) {
  std::vector<T> v(n);
  host::cuda_check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return v;
}

}  // namespace cute_cpp::test::moe_block
