// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's operands (kernels/moe/moe.cuh), shared by its checks (tests/gpu/gemm/moe_check.cu,
// nemotron_moe_check.cu) and its benchmark (bench/gemm/bench_ffn_moe.cu): a layer's input and weights
// on the host and the device, its scratch, a device-to-host copy for reading the routing back, and
// the check of the experts' offsets and rows.
#include <cute_cpp/kernels/moe/moe.cuh>
#include "tests/support/fill.hpp"
#include "tests/support/moe_reference.hpp"

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

template <class T>
void upload(host::DeviceBuffer<T>& d, std::vector<T> const& v) {
  d = host::DeviceBuffer<T>(v.size());
  d.upload(std::span<T const>(v));
}

/// A layer of any MoeShape (its routing, activation and shared expert) and its weights: the
/// experts' first weight is the fused gate-up (2F, H) for SwiGLU or the up (F, H) for ReLU^2, the
/// same for the shared expert with Fs; the correction bias f32 in [-bias_range, bias_range] (sigmoid
/// routing only). `router_scale` 0 gives all-zero logits (every expert ties).
struct FullLayer {
  moe::MoeShape s;
  std::vector<bf16> x, router, first, down, shared_first, shared_down;
  std::vector<float> bias;
  host::DeviceBuffer<bf16> dx, drouter, dfirst, ddown, dshared_first, dshared_down, dy;
  host::DeviceBuffer<float> dbias;
  host::DeviceBuffer<unsigned char> scratch;
  FullLayer(moe::MoeShape const& shape, std::mt19937_64& rng, double bias_range = 0.1, double router_scale = 3.0)
      : s(shape) {
    auto const e = std::size_t(s.experts), h = std::size_t(s.hidden), f = std::size_t(s.ffn);
    auto const fs = std::size_t(s.shared_ffn), gates = std::size_t(s.gated() ? 2 : 1);
    double const rh = 1.0 / std::sqrt(double(h));
    x = kn::random_values<bf16>(std::size_t(s.tokens) * h, rng, -1.0, 1.0);
    router = router_scale > 0 ? kn::random_values<bf16>(e * h, rng, -router_scale * rh, router_scale * rh)
                              : std::vector<bf16>(e * h, bf16(0.0f));
    first = kn::random_values<bf16>(e * gates * f * h, rng, -2.0 * rh, 2.0 * rh);
    down = kn::random_values<bf16>(e * h * f, rng, -1.0 / std::sqrt(double(f)), 1.0 / std::sqrt(double(f)));
    if (fs > 0) {
      shared_first = kn::random_values<bf16>(gates * fs * h, rng, -2.0 * rh, 2.0 * rh);
      shared_down = kn::random_values<bf16>(h * fs, rng, -1.0 / std::sqrt(double(fs)), 1.0 / std::sqrt(double(fs)));
    }
    if (s.routing == moe::MoeRouting::sigmoid && bias_range > 0)
      bias = kn::random_values<float>(e, rng, -bias_range, bias_range);
    upload(dx, x), upload(drouter, router), upload(dfirst, first), upload(ddown, down);
    if (fs > 0) upload(dshared_first, shared_first), upload(dshared_down, shared_down);
    if (!bias.empty()) upload(dbias, bias);
    dy = host::DeviceBuffer<bf16>(std::size_t(s.tokens) * h);
    scratch = host::DeviceBuffer<unsigned char>(moe::moe_scratch_bytes(s));
    scratch.fill_bytes(0);
  }
  [[nodiscard]] moe::MoeWeights weights() const {
    bool const shared = s.shared_ffn > 0;
    return {.router = drouter.data(),
            .gate_up = s.gated() ? dfirst.data() : nullptr,
            .down = ddown.data(),
            .up = s.gated() ? nullptr : dfirst.data(),
            .correction_bias = bias.empty() ? nullptr : dbias.data(),
            .shared_up = shared ? dshared_first.data() : nullptr,
            .shared_down = shared ? dshared_down.data() : nullptr};
  }
  [[nodiscard]] moe::MoeScratch carved() const {
    auto const base = (reinterpret_cast<std::uintptr_t>(scratch.data()) + 255) / 256 * 256;
    return moe::MoeScratch(reinterpret_cast<void*>(base), s);
  }
  void run(cudaStream_t stream = nullptr) { moe::moe_layer(dx.data(), weights(), s, dy.data(), scratch.data(), stream); }
  /// The layer as tests/support/moe_reference.hpp reads it (views of the host weights).
  [[nodiscard]] moe_ref::Block<bf16> reference() const {
    moe_ref::Block<bf16> b;
    b.routing = {.sigmoid = s.routing == moe::MoeRouting::sigmoid, .experts = s.experts, .top_k = s.top_k,
                 .renormalize = s.renormalize, .scaling = double(s.routed_scaling), .groups = s.groups,
                 .top_groups = s.top_groups};
    b.gated = s.gated(), b.hidden = s.hidden, b.ffn = s.ffn, b.shared_ffn = s.shared_ffn;
    b.router = router, b.first = first, b.down = down, b.shared_first = shared_first, b.shared_down = shared_down;
    b.bias.assign(bias.begin(), bias.end());
    return b;
  }
  /// x in double.
  [[nodiscard]] std::vector<double> reference_x() const {
    std::vector<double> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = val(x[i]);
    return out;
  }
};

/// Nemotron-3 Nano's MoE block (nemotron-3-nano-30b-a3b.json: 128 experts, top 6, F 1856, a shared
/// expert of 3712, relu2, sigmoid routing normalized and scaled by 2.5, one group) at T tokens.
inline moe::MoeShape nemotron3_nano_shape(std::int64_t tokens) {
  return {.tokens = tokens, .hidden = 2688, .ffn = 1856, .experts = 128, .top_k = 6, .renormalize = true,
          .routing = moe::MoeRouting::sigmoid, .activation = moe::MoeActivation::relu2, .routed_scaling = 2.5f,
          .groups = 1, .top_groups = 1, .shared_ffn = 3712};
}

/// The choices that break the permutation: an expert's end row (offsets) that is not the running
/// count of its choices, or a choice's row outside its expert's range or taken twice.
inline std::size_t count_bad_rows(std::vector<std::int32_t> const& ids, std::vector<std::int32_t> const& offsets,
                                  std::vector<std::int32_t> const& rows) {
  std::vector<std::int64_t> count(offsets.size(), 0);
  for (std::int32_t id : ids) ++count[std::size_t(id)];
  std::size_t bad = 0;
  std::int64_t end = 0;
  for (std::size_t e = 0; e < offsets.size(); ++e) bad += offsets[e] != (end += count[e]);
  std::vector<char> seen(ids.size(), 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto const e = std::size_t(ids[i]);
    std::int64_t const lo = e ? offsets[e - 1] : 0, r = rows[i];
    bool const ok = r >= lo && r < offsets[e] && r < std::int64_t(ids.size()) && !seen[std::size_t(r)];
    if (ok) seen[std::size_t(r)] = 1;
    bad += !ok;
  }
  return bad;
}

}  // namespace cute_cpp::test::moe_block
