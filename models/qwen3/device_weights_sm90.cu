// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3/device_weights_sm90.cu: the weights' way to the device (device_weights.hpp).
#include "models/qwen3/device_weights.hpp"

#include "models/common/device_upload.hpp"
#include "models/common/random_weights.cuh"

#include <cute_cpp/host/error.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace cute_cpp::models {

using host::cuda_check;

/// The checkpoint in `folder`, checked against the manifest (before any GPU work) and copied to the
/// device, q/k/v and gate/up packed on the way.
LayerWeights upload_layer(Uploader& uploader, const Checkpoint& checkpoint, const Qwen3LayerTensors& names,
                          std::uint64_t qkv_bytes, std::uint64_t gate_up_bytes) {
  LayerWeights l;
  l.input_norm = uploader.upload(checkpoint.at(names.input_layernorm));
  l.qkv = uploader.upload(qkv_bytes, qkv_pieces(checkpoint.at(names.q_proj), checkpoint.at(names.k_proj),
                                                checkpoint.at(names.v_proj)));
  l.q_norm = uploader.upload(checkpoint.at(names.q_norm));
  l.k_norm = uploader.upload(checkpoint.at(names.k_norm));
  l.o = uploader.upload(checkpoint.at(names.o_proj));
  l.post_norm = uploader.upload(checkpoint.at(names.post_attention_layernorm));
  if (!names.experts.empty()) {
    Qwen3LayerTensors const& n = names;
    std::uint64_t gate_up = 0, down = 0;
    for (Qwen3ExpertTensors const& e : n.experts) {
      gate_up += 2 * checkpoint.at(e.gate_proj).bytes();
      down += checkpoint.at(e.down_proj).bytes();
    }
    l.router = uploader.upload(checkpoint.at(names.router));
    l.experts_gate_up = uploader.upload(gate_up, experts_gate_up_pieces(checkpoint, names));
    l.experts_down = uploader.upload(down, experts_down_pieces(checkpoint, names));
  } else {
    l.gate_up = uploader.upload(gate_up_bytes,
                                gate_up_pieces(checkpoint.at(names.gate_proj), checkpoint.at(names.up_proj)));
    l.down = uploader.upload(checkpoint.at(names.down_proj));
  }
  return l;
}

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
  for (Qwen3LayerTensors const& names : manifest.layers())
    w.layers.push_back(upload_layer(uploader, checkpoint, names, manifest.qkv_bytes(), manifest.gate_up_bytes()));
  uploader.finish();
  return w;
}

DeviceBuffer<bf16> RandomFiller::fill(std::span<const std::int64_t> shape, float mean) {
  constexpr float stddev = 0.02f;
  std::uint64_t n = 1;
  for (std::int64_t const e : shape) n *= std::uint64_t(e);
  DeviceBuffer<bf16> d(n);
  fill_random_bf16(d.data(), n, seed, tensor++, mean, stddev, nullptr);
  return d;
}

LayerWeights random_layer(RandomFiller& filler, const Qwen3Config& c, const Qwen3LayerTensors& names) {
  std::int64_t const hidden = c.hidden_size, head_dim = c.head_dim;
  std::int64_t const q_rows = c.num_attention_heads * head_dim;
  LayerWeights l;
  l.input_norm = filler.norm(std::array{hidden});
  l.qkv = filler.matrix(std::array{(c.num_attention_heads + 2 * c.num_key_value_heads) * head_dim, hidden});
  l.q_norm = filler.norm(std::array{head_dim});
  l.k_norm = filler.norm(std::array{head_dim});
  l.o = filler.matrix(std::array{hidden, q_rows});
  l.post_norm = filler.norm(std::array{hidden});
  if (!names.experts.empty()) {
    std::int64_t const experts = c.moe->num_experts, width = c.moe->moe_intermediate_size;
    l.router = filler.matrix(std::array{experts, hidden});
    l.experts_gate_up = filler.matrix(std::array{experts, 2 * width, hidden});
    l.experts_down = filler.matrix(std::array{experts, hidden, width});
  } else {
    l.gate_up = filler.matrix(std::array{2 * c.intermediate_size, hidden});
    l.down = filler.matrix(std::array{hidden, c.intermediate_size});
  }
  return l;
}

/// Weights of the manifest's shapes, in checkpoint_weights' layouts, filled on the device from
/// `seed` (random_weights.cuh): each buffer is one tensor of the hash, numbered in the order below.
/// Matrices have mean 0 and standard deviation 0.02 (transformers' initializer_range for Qwen3),
/// RMSNorm weights 1 + the same noise; tied embeddings serve as the LM head, as a checkpoint's do.
Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed) {
  RandomFiller filler{seed, 0};
  auto const shape_of = [&](std::string const& name) {
    return std::span<const std::int64_t>(manifest.find(name)->shape);
  };
  Qwen3Config const& c = manifest.config();
  Weights w;
  w.embed = filler.matrix(shape_of("model.embed_tokens.weight"));
  w.final_norm = filler.norm(shape_of("model.norm.weight"));
  if (!c.tie_word_embeddings) w.lm_head = filler.matrix(shape_of("lm_head.weight"));
  for (Qwen3LayerTensors const& names : manifest.layers()) w.layers.push_back(random_layer(filler, c, names));
  // NOTE: the fills run on the legacy default stream, which the model's non-blocking stream does
  // not wait for.
  cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}

}  // namespace cute_cpp::models
