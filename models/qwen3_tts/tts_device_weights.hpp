// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/tts_device_weights.hpp: the talker's and the code predictor's weights on the
// device, from a checkpoint (checked against TtsWeightManifest first; each layer's q/k/v and gate/up
// packed as models/qwen3's decoder reads them) or filled from a seed at the manifest's shapes.
#include <cstdint>     // std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <vector>      // std::vector

#include "models/qwen3/device_weights.hpp"  // LayerWeights, DeviceBuffer, bf16
#include "models/qwen3_tts/tts_weights.hpp"     // TtsWeightManifest

namespace cute_cpp::models::qwen3_tts {

struct TtsDeviceWeights {
  std::vector<LayerWeights> talker_layers, predictor_layers;
  DeviceBuffer<bf16> talker_norm, predictor_norm;
  DeviceBuffer<bf16> codec_embedding, text_embedding, codec_head;   // talker
  DeviceBuffer<bf16> text_fc1, text_fc1_bias, text_fc2, text_fc2_bias;  // text_projection
  DeviceBuffer<bf16> projection, projection_bias;  // small_to_mtp_projection; empty when the widths agree
  std::vector<DeviceBuffer<bf16>> predictor_embeddings, predictor_heads;  // [groups - 1] each
};

/// The checkpoint in `folder`, validated against `manifest` before any GPU work, on the device.
TtsDeviceWeights checkpoint_weights(const std::filesystem::path& folder, const TtsWeightManifest& manifest);
/// Weights of the manifest's shapes filled on the device from `seed` (models/qwen3's RandomFiller:
/// matrices and biases of mean 0, RMSNorm weights of mean 1, standard deviation 0.02).
TtsDeviceWeights random_weights(const TtsWeightManifest& manifest, std::uint64_t seed);

}  // namespace cute_cpp::models::qwen3_tts
