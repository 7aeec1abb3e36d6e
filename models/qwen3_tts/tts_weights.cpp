// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/tts_weights.cpp: the Qwen3-TTS weight manifest. Names and shapes follow qwen-tts
// 0.1.1's modules: Qwen3TTSTalkerModel (codec_embedding, text_embedding, layers, norm),
// Qwen3TTSTalkerForConditionalGeneration (text_projection: a Qwen3TTSTalkerResizeMLP with biases,
// codec_head), Qwen3TTSTalkerCodePredictorModelForConditionalGeneration (model.layers, model.norm,
// model.codec_embedding.i, lm_head.i, small_to_mtp_projection when the widths differ).
#include "models/qwen3_tts/tts_weights.hpp"

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models::qwen3_tts {

namespace {
constexpr char kRuleMissing[] =
    "cute-cpp [tts.tensor-missing]: a Qwen3-TTS checkpoint must hold every tensor its config implies";
constexpr char kRuleShape[] =
    "cute-cpp [tts.tensor-shape]: a Qwen3-TTS tensor must have the shape its config implies";
constexpr char kRuleDtype[] =
    "cute-cpp [tts.tensor-dtype]: a Qwen3-TTS tensor must have the config's dtype (torch_dtype)";
constexpr char kRuleUnexpected[] =
    "cute-cpp [tts.tensor-unexpected]: a Qwen3-TTS checkpoint may hold no tensor its config does not imply "
    "(the speaker encoder's and rotary inv_freq buffers aside)";

bool skipped(std::string_view name) {
  return name.starts_with("speaker_encoder.") || name.ends_with("rotary_emb.inv_freq");
}
}  // namespace

TtsWeightManifest::TtsWeightManifest(const Qwen3TtsConfig& config)
    : config_(config), dtype_(dtype_of_torch_dtype(config.talker.decoder.torch_dtype)) {
  Qwen3Config const& t = config.talker.decoder;
  Qwen3Config const& p = config.code_predictor;
  std::int64_t const groups = config.talker.num_code_groups;
  std::int64_t const text_width = config.talker.text_hidden_size;
  auto add = [&](std::string const& name, std::vector<std::int64_t> shape, std::string_view dims) {
    list_.add({name, std::move(shape), dims, dtype_, std::nullopt, {}});
  };
  TtsTensorNames& n = names_;
  add(n.codec_embedding, {t.vocab_size, t.hidden_size}, "[talker vocab_size, talker hidden_size]");
  add(n.text_embedding, {config.talker.text_vocab_size, text_width}, "[text_vocab_size, text_hidden_size]");
  for (std::int64_t i = 0; i < t.num_hidden_layers; ++i)
    talker_layers_.push_back(add_qwen3_layer(list_, "talker.model.layers." + std::to_string(i) + ".", t, i, dtype_));
  add(n.talker_norm, {t.hidden_size}, "[talker hidden_size]");
  add(n.text_fc1_weight, {text_width, text_width}, "[text_hidden_size, text_hidden_size]");
  add(n.text_fc1_bias, {text_width}, "[text_hidden_size]");
  add(n.text_fc2_weight, {t.hidden_size, text_width}, "[talker hidden_size, text_hidden_size]");
  add(n.text_fc2_bias, {t.hidden_size}, "[talker hidden_size]");
  add(n.codec_head, {t.vocab_size, t.hidden_size}, "[talker vocab_size, talker hidden_size]");

  for (std::int64_t i = 0; i < p.num_hidden_layers; ++i)
    predictor_layers_.push_back(
        add_qwen3_layer(list_, "talker.code_predictor.model.layers." + std::to_string(i) + ".", p, i, dtype_));
  add(n.predictor_norm, {p.hidden_size}, "[code predictor hidden_size]");
  for (std::int64_t g = 0; g + 1 < groups; ++g) {
    n.predictor_embeddings.push_back("talker.code_predictor.model.codec_embedding." + std::to_string(g) + ".weight");
    add(n.predictor_embeddings.back(), {p.vocab_size, t.hidden_size},
        "[code predictor vocab_size, talker hidden_size]");
  }
  for (std::int64_t g = 0; g + 1 < groups; ++g) {
    n.predictor_heads.push_back("talker.code_predictor.lm_head." + std::to_string(g) + ".weight");
    add(n.predictor_heads.back(), {p.vocab_size, p.hidden_size}, "[code predictor vocab_size, code predictor hidden_size]");
  }
  if (config.projects_to_predictor()) {
    add(n.projection_weight, {p.hidden_size, t.hidden_size}, "[code predictor hidden_size, talker hidden_size]");
    add(n.projection_bias, {p.hidden_size}, "[code predictor hidden_size]");
  }
  list_.index();
}

void TtsWeightManifest::validate(const Checkpoint& checkpoint) const {
  list_.check_present(checkpoint, {kRuleMissing, kRuleShape, kRuleDtype}, config_.talker.decoder.torch_dtype);
  for (auto const* t : checkpoint.tensors()) {
    if (find(t->name) != nullptr || skipped(t->name)) continue;
    throw LoadError(kRuleUnexpected, file_of(checkpoint, *t) + ": tensor " + in_quotes(t->name) + " " +
                                         shape_text(t->shape) + " " + std::string(dtype_name(t->dtype)) +
                                         " is not a Qwen3-TTS talker or code predictor weight for this config (" +
                                         std::to_string(config_.talker.decoder.num_hidden_layers) + " talker layers, " +
                                         std::to_string(config_.code_predictor.num_hidden_layers) +
                                         " code predictor layers, " + std::to_string(config_.talker.num_code_groups) +
                                         " code groups)");
  }
}

}  // namespace cute_cpp::models::qwen3_tts
