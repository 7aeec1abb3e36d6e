// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3/device_weights_sm90.cu: the weights' way to the device (device_weights.hpp).
#include "models/qwen3/device_weights.hpp"

#include "models/common/device_upload.hpp"
#include "models/common/random_weights.cuh"

#include <cute_cpp/host/error.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace cute_cpp::models {

using host::cuda_check;

/// The checkpoint in `folder`, checked against the manifest (before any GPU work) and copied to the
/// device, q/k/v and gate/up packed on the way.
Weights checkpoint_weights(const std::filesystem::path& folder, const Qwen3WeightManifest& manifest) {
  Checkpoint const checkpoint = Checkpoint::open(folder);
  manifest.validate(checkpoint);
  Uploader uploader;
  Weights w;
  w.embed = uploader.upload(checkpoint.at("model.embed_tokens.weight"));
  w.final_norm = uploader.upload(checkpoint.at("model.norm.weight"));
  if (TensorInfo const& out = manifest.output_weight(checkpoint); out.name != "model.embed_tokens.weight")
    w.lm_head = uploader.upload(out);
  for (Qwen3LayerTensors const& names : manifest.layers()) {
    LayerWeights l;
    l.input_norm = uploader.upload(checkpoint.at(names.input_layernorm));
    l.qkv = uploader.upload(manifest.qkv_bytes(), qkv_pieces(checkpoint.at(names.q_proj), checkpoint.at(names.k_proj),
                                                              checkpoint.at(names.v_proj)));
    l.q_norm = uploader.upload(checkpoint.at(names.q_norm));
    l.k_norm = uploader.upload(checkpoint.at(names.k_norm));
    l.o = uploader.upload(checkpoint.at(names.o_proj));
    l.post_norm = uploader.upload(checkpoint.at(names.post_attention_layernorm));
    if (!names.experts.empty()) {
      l.router = uploader.upload(checkpoint.at(names.router));
      l.experts_gate_up = uploader.upload(manifest.experts_gate_up_bytes(), experts_gate_up_pieces(checkpoint, names));
      l.experts_down = uploader.upload(manifest.experts_down_bytes(), experts_down_pieces(checkpoint, names));
    } else {
      l.gate_up = uploader.upload(manifest.gate_up_bytes(),
                                  gate_up_pieces(checkpoint.at(names.gate_proj), checkpoint.at(names.up_proj)));
      l.down = uploader.upload(checkpoint.at(names.down_proj));
    }
    w.layers.push_back(std::move(l));
  }
  uploader.finish();
  return w;
}

/// Weights of the manifest's shapes, in checkpoint_weights' layouts, filled on the device from
/// `seed` (random_weights.cuh): each buffer is one tensor of the hash, numbered in the order below.
/// Matrices have mean 0 and standard deviation 0.02 (transformers' initializer_range for Qwen3),
/// RMSNorm weights 1 + the same noise; tied embeddings serve as the LM head, as a checkpoint's do.
Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed) {
  constexpr float stddev = 0.02f;
  std::uint64_t tensor = 0;
  auto const fill = [&](std::span<const std::int64_t> shape, float mean) {
    std::uint64_t n = 1;
    for (std::int64_t const e : shape) n *= std::uint64_t(e);
    DeviceBuffer<bf16> d(n);
    fill_random_bf16(d.data(), n, seed, tensor++, mean, stddev, nullptr);
    return d;
  };
  auto const matrix = [&](std::span<const std::int64_t> shape) { return fill(shape, 0.0f); };
  auto const norm = [&](std::string const& name) { return fill(manifest.find(name)->shape, 1.0f); };
  auto const shape_of = [&](std::string const& name) {
    return std::span<const std::int64_t>(manifest.find(name)->shape);
  };
  Qwen3Config const& c = manifest.config();
  Weights w;
  w.embed = matrix(shape_of("model.embed_tokens.weight"));
  w.final_norm = norm("model.norm.weight");
  if (!c.tie_word_embeddings) w.lm_head = matrix(shape_of("lm_head.weight"));
  for (Qwen3LayerTensors const& names : manifest.layers()) {
    LayerWeights l;
    l.input_norm = norm(names.input_layernorm);
    l.qkv = matrix(manifest.qkv_shape());
    l.q_norm = norm(names.q_norm);
    l.k_norm = norm(names.k_norm);
    l.o = matrix(shape_of(names.o_proj));
    l.post_norm = norm(names.post_attention_layernorm);
    if (!names.experts.empty()) {
      l.router = matrix(shape_of(names.router));
      l.experts_gate_up = matrix(manifest.experts_gate_up_shape());
      l.experts_down = matrix(manifest.experts_down_shape());
    } else {
      l.gate_up = matrix(manifest.gate_up_shape());
      l.down = matrix(shape_of(names.down_proj));
    }
    w.layers.push_back(std::move(l));
  }
  // NOTE: the fills run on the legacy default stream, which the model's non-blocking stream does
  // not wait for.
  cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}


}  // namespace cute_cpp::models
