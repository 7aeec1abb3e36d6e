// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/nemotron/device_weights_sm90.cu: the Nemotron-H weights' way to the device (device_weights.hpp).
#include "models/nemotron/device_weights.hpp"

#include "models/common/device_upload.hpp"   // Uploader
#include "models/common/error.hpp"           // LoadError
#include "models/common/random_weights.cuh"  // fill_random_bf16

#include <cute_cpp/host/error.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace cute_cpp::models {

namespace {

using bf16 = __nv_bfloat16;
using host::cuda_check;
using host::DeviceBuffer;

/// A small F32 or BF16 tensor (A_log, D, dt_bias) as floats; the manifest allowed only these dtypes.
std::vector<float> to_floats(const TensorInfo& t) {
  std::vector<float> out(std::size_t(t.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (t.dtype == Dtype::F32) {
      std::memcpy(&out[i], t.data + 4 * i, 4);
    } else if (t.dtype == Dtype::BF16) {
      std::uint16_t half = 0;
      std::memcpy(&half, t.data + 2 * i, 2);
      std::uint32_t const bits = std::uint32_t(half) << 16;
      std::memcpy(&out[i], &bits, 4);
    } else {
      throw std::logic_error("cute-cpp: " + t.name + " is neither F32 nor BF16 after validation");
    }
  }
  return out;
}

DeviceBuffer<float> floats_on_device(std::vector<float> const& v) {
  DeviceBuffer<float> d(v.size());
  d.upload(std::span<const float>(v));
  return d;
}

/// Tensors one after another in one buffer (q, k, v; each expert's up or down weight).
std::vector<PackPiece> stacked(const Checkpoint& checkpoint, std::vector<std::string> const& names) {
  std::vector<PackPiece> pieces;
  std::uint64_t offset = 0;
  for (std::string const& name : names) {
    TensorInfo const& t = checkpoint.at(name);
    pieces.push_back({std::span<const std::byte>(t.data, t.bytes()), offset, t.bytes(), t.bytes()});
    offset += t.bytes();
  }
  return pieces;
}

std::uint64_t bytes_of(std::vector<PackPiece> const& pieces) {
  std::uint64_t n = 0;
  for (PackPiece const& p : pieces) n += p.src.size();
  return n;
}

}  // namespace

NemotronWeights nemotron_checkpoint_weights(const std::filesystem::path& folder, const NemotronHWeightManifest& manifest) {
  Checkpoint const checkpoint = Checkpoint::open(folder);
  manifest.validate(checkpoint);
  Uploader uploader;
  NemotronWeights w;
  w.embed = uploader.upload(checkpoint.at(manifest.embedding()));
  w.final_norm = uploader.upload(checkpoint.at(manifest.final_norm()));
  if (manifest.output_weight() != manifest.embedding()) w.lm_head = uploader.upload(checkpoint.at(manifest.output_weight()));
  auto const whole = [&](std::string const& name) { return uploader.upload(checkpoint.at(name)); };
  auto const stack = [&](std::vector<std::string> const& names) {
    auto const pieces = stacked(checkpoint, names);
    return uploader.upload(bytes_of(pieces), pieces);
  };
  for (NemotronHLayerTensors const& names : manifest.layers()) {
    NemotronLayerWeights l;
    l.kind = names.kind;
    l.norm = whole(names.norm);
    switch (names.kind) {
      case NemotronHLayerKind::mamba: {
        auto const& m = names.mamba;
        l.in_proj = whole(m.in_proj);
        l.conv_weight = whole(m.conv1d_weight);  // [conv_dim, 1, width]: the same bytes as [conv_dim, width]
        if (!m.conv1d_bias.empty()) l.conv_bias = whole(m.conv1d_bias);
        l.A_log = floats_on_device(to_floats(checkpoint.at(m.A_log)));
        l.D = floats_on_device(to_floats(checkpoint.at(m.D)));
        l.dt_bias = floats_on_device(to_floats(checkpoint.at(m.dt_bias)));
        l.gated_norm = whole(m.norm);
        l.out_proj = whole(m.out_proj);
        break;
      }
      case NemotronHLayerKind::attention:
        l.qkv = stack({names.attention.q_proj, names.attention.k_proj, names.attention.v_proj});
        l.o = whole(names.attention.o_proj);
        break;
      case NemotronHLayerKind::moe: {
        auto const& e = names.moe;
        l.router = whole(e.router);
        l.correction_bias = uploader.upload<float>(checkpoint.at(e.e_score_correction_bias));  // F32 always
        std::vector<std::string> ups, downs;
        for (NemotronHMlpTensors const& x : e.experts) ups.push_back(x.up_proj), downs.push_back(x.down_proj);
        l.experts_up = stack(ups);
        l.experts_down = stack(downs);
        l.shared_up = whole(e.shared.up_proj);
        l.shared_down = whole(e.shared.down_proj);
        break;
      }
      case NemotronHLayerKind::mlp:
        l.up = whole(names.mlp.up_proj);
        l.down = whole(names.mlp.down_proj);
        break;
    }
    w.layers.push_back(std::move(l));
  }
  uploader.finish();
  return w;
}

NemotronWeights nemotron_random_weights(const NemotronHWeightManifest& manifest, std::uint64_t seed) {
  constexpr float stddev = 0.02f;
  std::uint64_t tensor = 0;
  auto const fill = [&](std::uint64_t n, float mean) {
    DeviceBuffer<bf16> d(n);
    fill_random_bf16(d.data(), n, seed, tensor++, mean, stddev, nullptr);
    return d;
  };
  auto const elems = [&](std::string const& name) {
    std::uint64_t n = 1;
    for (std::int64_t const e : manifest.find(name)->shape) n *= std::uint64_t(e);
    return n;
  };
  auto const matrix = [&](std::string const& name) { return fill(elems(name), 0.0f); };
  auto const norm = [&](std::string const& name) { return fill(elems(name), 1.0f); };
  NemotronHConfig const& c = manifest.config();
  NemotronWeights w;
  w.embed = matrix(manifest.embedding());
  w.final_norm = norm(manifest.final_norm());
  if (manifest.output_weight() != manifest.embedding()) w.lm_head = matrix(manifest.output_weight());
  // transformers' Mamba-2 initialization: A = 1..heads, D = 1, dt log-uniform in [time_step_min,
  // time_step_max] (here spread evenly), dt_bias its inverse softplus.
  std::vector<float> a_log, d_skip, dt_bias;
  for (std::int64_t h = 0; h < c.mamba.num_heads; ++h) {
    double const f = c.mamba.num_heads > 1 ? double(h) / double(c.mamba.num_heads - 1) : 0.5;
    double const dt = std::max(c.mamba.time_step_floor,
                               std::exp(std::log(c.mamba.time_step_min) +
                                        f * (std::log(c.mamba.time_step_max) - std::log(c.mamba.time_step_min))));
    a_log.push_back(float(std::log(double(h + 1))));
    d_skip.push_back(1.0f);
    dt_bias.push_back(float(dt + std::log(-std::expm1(-dt))));
  }
  for (NemotronHLayerTensors const& names : manifest.layers()) {
    NemotronLayerWeights l;
    l.kind = names.kind;
    l.norm = norm(names.norm);
    switch (names.kind) {
      case NemotronHLayerKind::mamba:
        l.in_proj = matrix(names.mamba.in_proj);
        l.conv_weight = matrix(names.mamba.conv1d_weight);
        if (!names.mamba.conv1d_bias.empty()) l.conv_bias = matrix(names.mamba.conv1d_bias);
        l.A_log = floats_on_device(a_log);
        l.D = floats_on_device(d_skip);
        l.dt_bias = floats_on_device(dt_bias);
        l.gated_norm = norm(names.mamba.norm);
        l.out_proj = matrix(names.mamba.out_proj);
        break;
      case NemotronHLayerKind::attention: {
        auto const& a = names.attention;
        l.qkv = fill(elems(a.q_proj) + elems(a.k_proj) + elems(a.v_proj), 0.0f);
        l.o = matrix(a.o_proj);
        break;
      }
      case NemotronHLayerKind::moe: {
        auto const& e = names.moe;
        std::uint64_t const experts = e.experts.size();
        l.router = matrix(e.router);
        l.correction_bias = floats_on_device(std::vector<float>(experts, 0.0f));
        l.experts_up = fill(experts * elems(e.experts.front().up_proj), 0.0f);
        l.experts_down = fill(experts * elems(e.experts.front().down_proj), 0.0f);
        l.shared_up = matrix(e.shared.up_proj);
        l.shared_down = matrix(e.shared.down_proj);
        break;
      }
      case NemotronHLayerKind::mlp:
        l.up = matrix(names.mlp.up_proj);
        l.down = matrix(names.mlp.down_proj);
        break;
    }
    w.layers.push_back(std::move(l));
  }
  // NOTE: the fills run on the legacy default stream, which the model's non-blocking stream does not wait for.
  cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}

}  // namespace cute_cpp::models
