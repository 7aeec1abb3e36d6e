// SPDX-License-Identifier: Apache-2.0
// models/nemotron/weights.cpp: the Nemotron-H weight manifest and its checks against a checkpoint.
// Names and shapes were read from transformers' modeling_nemotron_h.py (NemotronHMamba2Mixer:
// in_proj [d_inner + conv_dim + heads, hidden] split z | xBC | dt with d_mlp 0, conv1d
// [conv_dim, 1, kernel], A_log, D, dt_bias [heads], a Zamba2RMSNormGated norm [d_inner], out_proj;
// NemotronHAttention: q/k/v/o_proj, no bias; NemotronHMoE: gate (NemotronHTopkRouter: weight and the
// e_score_correction_bias buffer), experts (up_proj, down_proj), shared_experts (NemotronHMLP);
// NemotronHBlock: norm and mixer; NemotronHModel: embeddings, layers, norm_f), with the published
// checkpoint's prefix and per-expert tensors from transformers' conversion mapping for nemotron_h
// ("backbone." -> "model.", experts.*.up_proj.weight merged), and the dtypes from
// NemotronHPreTrainedModel._keep_in_fp32_modules_strict.
#include "models/nemotron/weights.hpp"

#include <charconv>  // std::from_chars

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

namespace {
constexpr char kRuleTensorMissing[] =
    "cute-cpp [nemotron.tensor-missing]: a Nemotron-H checkpoint must hold every tensor its config implies";
constexpr char kRuleTensorShape[] =
    "cute-cpp [nemotron.tensor-shape]: a Nemotron-H tensor must have the shape its config implies";
constexpr char kRuleTensorDtype[] =
    "cute-cpp [nemotron.tensor-dtype]: a Nemotron-H tensor must have the config's dtype (torch_dtype), except the "
    "router's e_score_correction_bias (float32) and the Mamba A_log, D and dt_bias (float32 allowed)";
constexpr char kRuleTensorUnexpected[] =
    "cute-cpp [nemotron.tensor-unexpected]: a Nemotron-H checkpoint may hold no tensor its config does not imply "
    "(multi-token-prediction mtp. tensors aside)";

constexpr char kEmbed[] = "backbone.embeddings.weight";
constexpr char kFinalNorm[] = "backbone.norm_f.weight";
constexpr char kLmHead[] = "lm_head.weight";
constexpr std::string_view kLayers = "backbone.layers.";

constexpr std::string_view kF32Published =
    "the published checkpoint stores it in float32; transformers' save_pretrained writes torch_dtype";
constexpr std::string_view kF32Allowed = "torch_dtype, or float32 as the Mamba-2 parameters may be kept";
constexpr std::string_view kF32Kept = "transformers keeps e_score_correction_bias in float32";

/// A hint for a tensor the manifest does not expect, when its name says why.
std::string unexpected_hint(std::string_view name, const NemotronHConfig& c) {
  if (name.starts_with("model.") || name.starts_with("backbone.embedding."))
    return "; the published names start with backbone. (backbone.embeddings.weight, backbone.layers.N.mixer.*), "
           "as transformers' save_pretrained writes them back";
  if (!name.starts_with(kLayers)) return "";
  std::int64_t layer = -1;
  auto const digits = name.substr(kLayers.size());
  auto const [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), layer);
  if (ec != std::errc()) return "";
  if (layer >= c.num_hidden_layers)
    return "; layer " + std::to_string(layer) + " is past the pattern's " + std::to_string(c.num_hidden_layers) +
           " layers";
  auto const kind = c.layers[static_cast<std::size_t>(layer)];
  return "; layer " + std::to_string(layer) + " is " + std::string(layer_kind_name(kind)) + " ('" +
         static_cast<char>(kind) + "' in " + in_quotes(c.pattern()) + ")";
}
}  // namespace

// ---- NemotronHWeightManifest ----

NemotronHWeightManifest::NemotronHWeightManifest(const NemotronHConfig& config)
    : config_(config), dtype_(dtype_of_torch_dtype(config.torch_dtype)) {
  auto const hidden = config.hidden_size;
  list_.add({kEmbed, {config.vocab_size, hidden}, "[vocab_size, hidden_size]", dtype_, std::nullopt, {}});
  for (std::int64_t i = 0; i < config.num_hidden_layers; ++i) add_layer(i);
  final_norm_ = list_.add({kFinalNorm, {hidden}, "[hidden_size]", dtype_, std::nullopt, {}});
  output_ = kEmbed;
  if (!config.tie_word_embeddings)
    output_ = list_.add({kLmHead, {config.vocab_size, hidden}, "[vocab_size, hidden_size]", dtype_, std::nullopt, {}});
  list_.index();
}

void NemotronHWeightManifest::add_layer(std::int64_t i) {
  NemotronHConfig const& c = config_;
  auto const hidden = c.hidden_size;
  std::string const p = std::string(kLayers) + std::to_string(i) + ".";
  std::string const x = p + "mixer.";
  auto add = [&](std::string name, std::vector<std::int64_t> shape, std::string_view dims) {
    return list_.add({std::move(name), std::move(shape), dims, dtype_, std::nullopt, {}});
  };
  // A tensor whose dtype is not simply torch_dtype (`dtype`, or also `also` when that differs).
  auto add_as = [&](std::string name, std::vector<std::int64_t> shape, std::string_view dims, Dtype dtype,
                    Dtype also, std::string_view note) {
    std::optional<Dtype> const second = also == dtype ? std::nullopt : std::optional<Dtype>(also);
    return list_.add({std::move(name), std::move(shape), dims, dtype, second, note});
  };
  NemotronHLayerTensors l;
  l.kind = c.layers[static_cast<std::size_t>(i)];
  l.norm = add(p + "norm.weight", {hidden}, "[hidden_size]");
  switch (l.kind) {
    case NemotronHLayerKind::mamba: {
      auto const& m = c.mamba;
      auto& t = l.mamba;
      t.in_proj = add(x + "in_proj.weight", {m.in_proj_size(), hidden},
                      "[2 mamba_num_heads mamba_head_dim + 2 n_groups ssm_state_size + mamba_num_heads, hidden_size]");
      t.conv1d_weight = add(x + "conv1d.weight", {m.conv_dim(), 1, m.conv_kernel},
                            "[mamba_num_heads mamba_head_dim + 2 n_groups ssm_state_size, 1, conv_kernel]");
      if (m.use_conv_bias)
        t.conv1d_bias =
            add(x + "conv1d.bias", {m.conv_dim()}, "[mamba_num_heads mamba_head_dim + 2 n_groups ssm_state_size]");
      t.A_log = add_as(x + "A_log", {m.num_heads}, "[mamba_num_heads]", Dtype::F32, dtype_, kF32Published);
      t.D = add_as(x + "D", {m.num_heads}, "[mamba_num_heads]", Dtype::F32, dtype_, kF32Published);
      t.dt_bias = add_as(x + "dt_bias", {m.num_heads}, "[mamba_num_heads]", dtype_, Dtype::F32, kF32Allowed);
      t.norm = add(x + "norm.weight", {m.intermediate_size()}, "[mamba_num_heads mamba_head_dim]");
      t.out_proj = add(x + "out_proj.weight", {hidden, m.intermediate_size()},
                       "[hidden_size, mamba_num_heads mamba_head_dim]");
      break;
    }
    case NemotronHLayerKind::attention: {
      auto const q_rows = c.num_attention_heads * c.head_dim;
      auto const kv_rows = c.num_key_value_heads * c.head_dim;
      auto& t = l.attention;
      t.q_proj = add(x + "q_proj.weight", {q_rows, hidden}, "[num_attention_heads * head_dim, hidden_size]");
      t.k_proj = add(x + "k_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
      t.v_proj = add(x + "v_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
      t.o_proj = add(x + "o_proj.weight", {hidden, q_rows}, "[hidden_size, num_attention_heads * head_dim]");
      break;
    }
    case NemotronHLayerKind::moe: {
      auto const& m = c.moe;
      auto& t = l.moe;
      t.router = add(x + "gate.weight", {m.n_routed_experts, hidden}, "[n_routed_experts, hidden_size]");
      t.e_score_correction_bias = add_as(x + "gate.e_score_correction_bias", {m.n_routed_experts},
                                         "[n_routed_experts]", Dtype::F32, Dtype::F32, kF32Kept);
      auto const width = m.moe_intermediate_size;
      for (std::int64_t e = 0; e < m.n_routed_experts; ++e) {
        std::string const ex = x + "experts." + std::to_string(e) + ".";
        t.experts.push_back({add(ex + "up_proj.weight", {width, hidden}, "[moe_intermediate_size, hidden_size]"),
                             add(ex + "down_proj.weight", {hidden, width}, "[hidden_size, moe_intermediate_size]")});
      }
      auto const shared = m.moe_shared_expert_intermediate_size;
      t.shared = {add(x + "shared_experts.up_proj.weight", {shared, hidden},
                      "[moe_shared_expert_intermediate_size, hidden_size]"),
                  add(x + "shared_experts.down_proj.weight", {hidden, shared},
                      "[hidden_size, moe_shared_expert_intermediate_size]")};
      break;
    }
    case NemotronHLayerKind::mlp:
      l.mlp = {add(x + "up_proj.weight", {c.intermediate_size, hidden}, "[intermediate_size, hidden_size]"),
               add(x + "down_proj.weight", {hidden, c.intermediate_size}, "[hidden_size, intermediate_size]")};
      break;
  }
  layers_.push_back(std::move(l));
}

void NemotronHWeightManifest::validate(const Checkpoint& checkpoint) const {
  ManifestRules const rules{kRuleTensorMissing, kRuleTensorShape, kRuleTensorDtype};
  list_.check_present(checkpoint, rules, config_.torch_dtype);
  for (auto const* t : checkpoint.tensors()) {
    // NOTE: transformers skips mtp.* on load (_keys_to_ignore_on_load_unexpected); so does the decoder.
    if (find(t->name) != nullptr || t->name.starts_with("mtp.")) continue;
    if (config_.tie_word_embeddings && t->name == kLmHead) {
      check_tensor(checkpoint, *t,
                   {kLmHead, {config_.vocab_size, config_.hidden_size},
                    "[vocab_size, hidden_size] (tie_word_embeddings is true; a stored lm_head.weight must still have "
                    "the embedding's shape)",
                    dtype_, std::nullopt, {}},
                   rules, config_.torch_dtype);
      continue;
    }
    throw LoadError(kRuleTensorUnexpected, file_of(checkpoint, *t) + ": tensor " + in_quotes(t->name) + " " +
                                               shape_text(t->shape) + " " + std::string(dtype_name(t->dtype)) +
                                               " is not a Nemotron-H weight for this config (" +
                                               std::to_string(config_.num_hidden_layers) + " layers " +
                                               in_quotes(config_.pattern()) + ", " +
                                               (config_.tie_word_embeddings ? "tied" : "untied") + " embeddings)" +
                                               unexpected_hint(t->name, config_));
  }
}

}  // namespace cute_cpp::models
