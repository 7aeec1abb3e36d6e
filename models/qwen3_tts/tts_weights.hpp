// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/tts_weights.hpp: what a Qwen3-TTS checkpoint must hold for the talker and its code
// predictor, named as qwen-tts 0.1.1's Qwen3TTSForConditionalGeneration state dict names them
// (talker.model.*, talker.text_projection.*, talker.codec_head.*, talker.code_predictor.*), shaped
// from the config, and checked against a Checkpoint. The speaker encoder's tensors (speaker_encoder.*,
// in the Base models for voice cloning) are not used here and are skipped.
#include <cstdint>      // std::int64_t, std::uint64_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/checkpoint.hpp"  // Checkpoint
#include "models/common/manifest.hpp"    // ExpectedTensor, TensorList
#include "models/qwen3/weights.hpp"      // Qwen3LayerTensors, add_qwen3_layer
#include "models/qwen3_tts/tts_config.hpp"   // Qwen3TtsConfig

namespace cute_cpp::models::qwen3_tts {

/// The names of the tensors outside the decoder layers.
struct TtsTensorNames {
  // The talker (hidden H, codec vocabulary V, text vocabulary Vt of width Ht).
  std::string codec_embedding = "talker.model.codec_embedding.weight";  // [V, H]
  std::string text_embedding = "talker.model.text_embedding.weight";    // [Vt, Ht]
  std::string talker_norm = "talker.model.norm.weight";                 // [H]
  std::string text_fc1_weight = "talker.text_projection.linear_fc1.weight", text_fc1_bias =
      "talker.text_projection.linear_fc1.bias";  // [Ht, Ht], [Ht]
  std::string text_fc2_weight = "talker.text_projection.linear_fc2.weight", text_fc2_bias =
      "talker.text_projection.linear_fc2.bias";   // [H, Ht], [H]
  std::string codec_head = "talker.codec_head.weight";  // [V, H]
  // The code predictor (hidden h, codebook entries E, groups G): the projection only when h != H.
  std::string predictor_norm = "talker.code_predictor.model.norm.weight";                       // [h]
  std::string projection_weight = "talker.code_predictor.small_to_mtp_projection.weight";       // [h, H]
  std::string projection_bias = "talker.code_predictor.small_to_mtp_projection.bias";           // [h]
  std::vector<std::string> predictor_embeddings;  // talker.code_predictor.model.codec_embedding.i.weight [E, H]
  std::vector<std::string> predictor_heads;       // talker.code_predictor.lm_head.i.weight [E, h], i < G - 1
};

/// Every tensor the talker and the code predictor read, from the config.
///   TtsWeightManifest m(read_qwen3_tts_config("Qwen3-TTS-12Hz-1.7B-CustomVoice"));
///   m.talker_layers().size() -> 28, m.predictor_layers().size() -> 5
class TtsWeightManifest {
 public:
  /// @pre the config's dtype is bfloat16, float16 or float32 [config.value].
  explicit TtsWeightManifest(const Qwen3TtsConfig& config);

  [[nodiscard]] const Qwen3TtsConfig& config() const noexcept { return config_; }
  [[nodiscard]] Dtype dtype() const noexcept { return dtype_; }
  [[nodiscard]] const std::vector<ExpectedTensor>& tensors() const noexcept { return list_.tensors(); }
  [[nodiscard]] const ExpectedTensor* find(std::string_view name) const noexcept { return list_.find(name); }
  [[nodiscard]] const TtsTensorNames& names() const noexcept { return names_; }
  [[nodiscard]] const std::vector<Qwen3LayerTensors>& talker_layers() const noexcept { return talker_layers_; }
  [[nodiscard]] const std::vector<Qwen3LayerTensors>& predictor_layers() const noexcept { return predictor_layers_; }
  /// Bytes of tensors().
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return list_.total_bytes(); }

  /// Checks `checkpoint`: every expected tensor present [tts.tensor-missing] with its shape
  /// [tts.tensor-shape] and dtype [tts.tensor-dtype]; nothing else but the speaker
  /// encoder's tensors and rotary inv_freq buffers [tts.tensor-unexpected].
  void validate(const Checkpoint& checkpoint) const;

 private:
  Qwen3TtsConfig config_;
  Dtype dtype_{};
  TensorList list_;
  TtsTensorNames names_;
  std::vector<Qwen3LayerTensors> talker_layers_, predictor_layers_;
};

}  // namespace cute_cpp::models::qwen3_tts
