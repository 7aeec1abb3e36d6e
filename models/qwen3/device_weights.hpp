// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/device_weights.hpp: the Qwen3 decoder's weights on the device, as its forward pass
// reads them, and the two ways they get there: from a checkpoint (checked against the manifest,
// copied through pinned staging buffers, q/k/v and gate/up packed on the way; a MoE layer's experts
// into kernels/moe's layouts) or filled from a seed at the manifest's shapes.
#include "models/qwen3/weights.hpp"  // Qwen3WeightManifest
#include "models/common/device_upload.hpp"  // Uploader

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cuda_bf16.h>                  // __nv_bfloat16

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace cute_cpp::models {

using host::DeviceBuffer;
using bf16 = __nv_bfloat16;

/// One layer's weights on the device: a dense MLP (gate_up, down) or, in a Qwen3-MoE layer with
/// the MoE block, the router and the experts' weights one after another (kernels/moe's layouts).
struct LayerWeights {
  DeviceBuffer<bf16> input_norm, qkv, q_norm, k_norm, o, post_norm, gate_up, down;
  DeviceBuffer<bf16> router, experts_gate_up, experts_down;  // empty in a dense layer
  [[nodiscard]] bool sparse() const noexcept { return router.size() != 0; }
};

/// The decoder's weights on the device, as the forward pass reads them: per layer the fused QKV
/// and the interleaved gate-up weights (weights.hpp's pack_qkv, pack_gate_up), and the LM head's
/// own matrix unless the embedding serves as it.
struct Weights {
  DeviceBuffer<bf16> embed, final_norm, lm_head;  // lm_head empty when the embedding serves
  std::vector<LayerWeights> layers;
  [[nodiscard]] bf16 const* output() const noexcept { return lm_head.size() != 0 ? lm_head.data() : embed.data(); }
};


/// One Qwen3 layer's weights from the mapped checkpoint, q/k/v and gate/up packed on the way
/// (qkv_bytes, gate_up_bytes: the fused weights' sizes); the copies may be in flight until
/// uploader.finish(). Shared with the decoders built of Qwen3 layers (models/qwen3_tts).
LayerWeights upload_layer(Uploader& uploader, const Checkpoint& checkpoint, const Qwen3LayerTensors& names,
                          std::uint64_t qkv_bytes, std::uint64_t gate_up_bytes);

/// Seeded bf16 tensors filled on the device, numbered in the order they are asked for
/// (random_weights.cuh): matrices of mean 0, RMSNorm weights of mean 1, standard deviation 0.02
/// (transformers' initializer_range for Qwen3).
struct RandomFiller {
  std::uint64_t seed = 0;
  std::uint64_t tensor = 0;
  DeviceBuffer<bf16> fill(std::span<const std::int64_t> shape, float mean);
  DeviceBuffer<bf16> matrix(std::span<const std::int64_t> shape) { return fill(shape, 0.0f); }
  DeviceBuffer<bf16> norm(std::span<const std::int64_t> shape) { return fill(shape, 1.0f); }
};

/// One dense or MoE Qwen3 layer's weights at `config`'s shapes, from `filler`, in upload_layer's layouts.
LayerWeights random_layer(RandomFiller& filler, const Qwen3Config& config, const Qwen3LayerTensors& names);

/// The checkpoint in `folder`, validated against `manifest` before any GPU work, on the device.
Weights checkpoint_weights(const std::filesystem::path& folder, const Qwen3WeightManifest& manifest);
/// Weights of the manifest's shapes filled on the device from `seed` (random_weights.cuh).
Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed);

class ShardPlan;  // tensor_parallel.hpp

/// Tensor parallelism (rank_weights_sm90.cu): `plan`'s rank's weights on the current device, at its
/// shapes (heads, kv heads, intermediate columns, vocabulary rows, experts), from the checkpoint in
/// `folder` one buffer at a time (read_rank_buffer). Layouts as checkpoint_weights'.
/// @pre as checkpoint_weights; a tied checkpoint stores no other lm_head.weight [tp.lm-head].
Weights checkpoint_weights(const std::filesystem::path& folder, const Qwen3WeightManifest& manifest,
                           const ShardPlan& plan);
/// `plan`'s rank's part of random_weights(manifest, seed): the same values at the same places of
/// the whole model (each buffer filled straight at the rank's shape; padding rows zeros).
Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed, const ShardPlan& plan);

}  // namespace cute_cpp::models
