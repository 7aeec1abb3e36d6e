// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3_tts/tts_device_weights_sm90.cu: the Qwen3-TTS weights' way to the device.
#include "models/qwen3_tts/tts_device_weights.hpp"

#include <cute_cpp/host/error.hpp>

#include <span>

#include "models/common/device_upload.hpp"

namespace cute_cpp::models::qwen3_tts {

namespace {
/// The fused QKV and gate-up weights' bytes of a layer of `c` (bf16).
std::uint64_t qkv_bytes(const Qwen3Config& c) {
  return std::uint64_t((c.num_attention_heads + 2 * c.num_key_value_heads) * c.head_dim * c.hidden_size) * 2;
}
std::uint64_t gate_up_bytes(const Qwen3Config& c) { return std::uint64_t(2 * c.intermediate_size * c.hidden_size) * 2; }
}  // namespace

TtsDeviceWeights checkpoint_weights(const std::filesystem::path& folder, const TtsWeightManifest& manifest) {
  Checkpoint const checkpoint = Checkpoint::open(folder);
  manifest.validate(checkpoint);
  Qwen3TtsConfig const& c = manifest.config();
  TtsTensorNames const& n = manifest.names();
  Uploader up;
  auto const one = [&](std::string const& name) { return up.upload(checkpoint.at(name)); };
  TtsDeviceWeights w;
  for (Qwen3LayerTensors const& l : manifest.talker_layers())
    w.talker_layers.push_back(
        upload_layer(up, checkpoint, l, qkv_bytes(c.talker.decoder), gate_up_bytes(c.talker.decoder)));
  for (Qwen3LayerTensors const& l : manifest.predictor_layers())
    w.predictor_layers.push_back(
        upload_layer(up, checkpoint, l, qkv_bytes(c.code_predictor), gate_up_bytes(c.code_predictor)));
  w.talker_norm = one(n.talker_norm);
  w.predictor_norm = one(n.predictor_norm);
  w.codec_embedding = one(n.codec_embedding);
  w.text_embedding = one(n.text_embedding);
  w.codec_head = one(n.codec_head);
  w.text_fc1 = one(n.text_fc1_weight);
  w.text_fc1_bias = one(n.text_fc1_bias);
  w.text_fc2 = one(n.text_fc2_weight);
  w.text_fc2_bias = one(n.text_fc2_bias);
  if (c.projects_to_predictor()) {
    w.projection = one(n.projection_weight);
    w.projection_bias = one(n.projection_bias);
  }
  for (std::string const& name : n.predictor_embeddings) w.predictor_embeddings.push_back(one(name));
  for (std::string const& name : n.predictor_heads) w.predictor_heads.push_back(one(name));
  up.finish();
  return w;
}

TtsDeviceWeights random_weights(const TtsWeightManifest& manifest, std::uint64_t seed) {
  RandomFiller filler{seed, 0};
  Qwen3TtsConfig const& c = manifest.config();
  TtsTensorNames const& n = manifest.names();
  auto const shape = [&](std::string const& name) { return std::span<const std::int64_t>(manifest.find(name)->shape); };
  TtsDeviceWeights w;
  for (Qwen3LayerTensors const& l : manifest.talker_layers())
    w.talker_layers.push_back(random_layer(filler, c.talker.decoder, l));
  for (Qwen3LayerTensors const& l : manifest.predictor_layers())
    w.predictor_layers.push_back(random_layer(filler, c.code_predictor, l));
  w.talker_norm = filler.norm(shape(n.talker_norm));
  w.predictor_norm = filler.norm(shape(n.predictor_norm));
  w.codec_embedding = filler.matrix(shape(n.codec_embedding));
  w.text_embedding = filler.matrix(shape(n.text_embedding));
  w.codec_head = filler.matrix(shape(n.codec_head));
  w.text_fc1 = filler.matrix(shape(n.text_fc1_weight));
  w.text_fc1_bias = filler.matrix(shape(n.text_fc1_bias));
  w.text_fc2 = filler.matrix(shape(n.text_fc2_weight));
  w.text_fc2_bias = filler.matrix(shape(n.text_fc2_bias));
  if (c.projects_to_predictor()) {
    w.projection = filler.matrix(shape(n.projection_weight));
    w.projection_bias = filler.matrix(shape(n.projection_bias));
  }
  for (std::string const& name : n.predictor_embeddings) w.predictor_embeddings.push_back(filler.matrix(shape(name)));
  for (std::string const& name : n.predictor_heads) w.predictor_heads.push_back(filler.matrix(shape(name)));
  // NOTE: the fills run on the legacy default stream, which the model's non-blocking stream does not wait for.
  host::cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}

}  // namespace cute_cpp::models::qwen3_tts
