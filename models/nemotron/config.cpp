// SPDX-License-Identifier: Apache-2.0
// models/nemotron/config.cpp: the Nemotron-H config reader. What each field means and which
// relations hold were read from transformers' configuration_nemotron_h.py (NemotronHConfig: the
// pattern, the legacy mamba_* spellings, time_step_limit's default) and modeling_nemotron_h.py
// (NemotronHMamba2Mixer's sizes, NemotronHMoE.route_tokens_to_experts, NemotronHExperts).
#include "models/nemotron/config.hpp"

#include <algorithm>  // std::count

#include "models/common/config_reader.hpp"  // ConfigReader, the config rules
#include "models/common/error.hpp"          // LoadError, in_quotes

namespace cute_cpp::models {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

/// The kind of one pattern character, or of one layers_block_type name (legacy and current).
bool kind_of_char(char c, NemotronHLayerKind& kind) {
  switch (c) {
    case 'M': kind = NemotronHLayerKind::mamba; return true;
    case 'E': kind = NemotronHLayerKind::moe; return true;
    case '*': kind = NemotronHLayerKind::attention; return true;
    case '-': kind = NemotronHLayerKind::mlp; return true;
    default: return false;
  }
}
bool kind_of_name(std::string_view name, NemotronHLayerKind& kind) {
  if (name == "mamba" || name == "linear_attention") return kind = NemotronHLayerKind::mamba, true;
  if (name == "moe") return kind = NemotronHLayerKind::moe, true;
  if (name == "attention" || name == "full_attention") return kind = NemotronHLayerKind::attention, true;
  if (name == "mlp") return kind = NemotronHLayerKind::mlp, true;
  return false;
}

/// The layer kinds, from hybrid_override_pattern or layers_block_type (NemotronHConfig.__post_init__
/// takes layers_block_type when both are given; here they must agree).
std::vector<NemotronHLayerKind> parse_layers(const ConfigReader& r) {
  auto const* pattern = r.optional("hybrid_override_pattern");
  auto const* block_types = r.optional("layers_block_type");
  if (pattern == nullptr && block_types == nullptr) (void)r.json().at("hybrid_override_pattern");  // json.missing
  std::vector<NemotronHLayerKind> from_pattern, from_list;
  if (pattern != nullptr) {
    std::string const& p = pattern->as_string();
    for (std::size_t i = 0; i < p.size(); ++i) {
      NemotronHLayerKind kind{};
      if (!kind_of_char(p[i], kind))
        r.fail(kRuleConfigValue, "\"hybrid_override_pattern\" has " + in_quotes(std::string(1, p[i])) + " at layer " +
                                     num(std::int64_t(i)) +
                                     "; expected 'M' (Mamba-2), 'E' (MoE), '*' (attention) or '-' (MLP)");
      from_pattern.push_back(kind);
    }
  }
  if (block_types != nullptr) {
    auto const& list = block_types->as_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      NemotronHLayerKind kind{};
      if (!kind_of_name(list[i].as_string(), kind))
        r.fail(kRuleConfigValue, "\"layers_block_type\" has " + in_quotes(list[i].as_string()) + " at layer " +
                                     num(std::int64_t(i)) + "; expected \"mamba\", \"moe\", \"attention\" or \"mlp\"");
      from_list.push_back(kind);
    }
  }
  if (pattern != nullptr && block_types != nullptr && from_pattern != from_list)
    r.fail(kRuleConfigValue,
           "\"hybrid_override_pattern\" and \"layers_block_type\" describe different layers; give one");
  auto layers = block_types != nullptr ? from_list : from_pattern;
  if (layers.empty()) r.fail(kRuleConfigValue, "the layer pattern is empty; a decoder needs at least one layer");
  if (auto const* n = r.optional("num_hidden_layers"); n != nullptr && n->as_int() != std::int64_t(layers.size()))
    r.fail(kRuleConfigValue, "\"num_hidden_layers\" is " + num(n->as_int()) + " but the layer pattern has " +
                                 num(std::int64_t(layers.size())) + " layers");
  return layers;
}

/// A field under its current name, or its older mamba_* name, which transformers lets win.
std::string_view spelled(const ConfigReader& r, std::string_view key, std::string_view legacy) {
  return r.json().find(legacy) != nullptr ? legacy : key;
}

void unsupported_if(const ConfigReader& r, bool condition, const std::string& what) {
  if (condition) r.fail(kRuleConfigUnsupported, what);
}

NemotronHMambaConfig parse_mamba(const ConfigReader& r) {
  NemotronHMambaConfig m;
  m.num_heads = r.positive_int("mamba_num_heads");
  m.head_dim = r.positive_int("mamba_head_dim");
  m.ssm_state_size = r.positive_int("ssm_state_size");
  auto const groups_key = spelled(r, "n_groups", "mamba_n_groups");
  m.n_groups = r.positive_int(groups_key);
  // NemotronHMamba2Mixer repeats each group's B and C for num_heads / n_groups heads.
  if (m.num_heads % m.n_groups != 0)
    r.fail(kRuleConfigValue, in_quotes(groups_key) + " (" + num(m.n_groups) + ") does not divide " +
                                 "\"mamba_num_heads\" (" + num(m.num_heads) + ")");
  m.conv_kernel = r.positive_int(spelled(r, "conv_kernel", "mamba_d_conv"));
  m.chunk_size = r.positive_int(spelled(r, "chunk_size", "mamba_chunk_size"));
  // NOTE: transformers sizes the mixer by mamba_num_heads * mamba_head_dim and never reads expand
  // (Nemotron-3 Nano: 64 x 64 = 4096, while expand x hidden_size = 5376), so no relation is checked.
  m.expand = r.positive_int(spelled(r, "expand", "mamba_expand"));
  m.use_conv_bias = r.boolean(spelled(r, "use_conv_bias", "mamba_conv_bias"), true);
  m.hidden_act = r.string("mamba_hidden_act");
  unsupported_if(r, m.hidden_act != "silu",
                 "\"mamba_hidden_act\" is " + in_quotes(m.hidden_act) + "; the Mamba-2 layers implement \"silu\"");
  auto const dt_min_key = spelled(r, "time_step_min", "mamba_dt_min");
  auto const dt_max_key = spelled(r, "time_step_max", "mamba_dt_max");
  m.time_step_min = r.real_or(dt_min_key, 0.001);
  m.time_step_max = r.real_or(dt_max_key, 0.1);
  m.time_step_floor = r.real_or(spelled(r, "time_step_floor", "mamba_dt_init_floor"), 1e-4);
  if (!(m.time_step_min > 0) || !(m.time_step_max >= m.time_step_min) || !(m.time_step_floor >= 0))
    r.fail(kRuleConfigValue, in_quotes(dt_min_key) + " " + std::to_string(m.time_step_min) + ", " +
                                 in_quotes(dt_max_key) + " " + std::to_string(m.time_step_max) + " and floor " +
                                 std::to_string(m.time_step_floor) + ": expected 0 < min <= max and floor >= 0");
  auto const limit_key = spelled(r, "time_step_limit", "mamba_dt_limit");
  if (auto const* limit = r.optional(limit_key)) {
    if (limit->size() != 2)
      r.fail(kRuleConfigValue, in_quotes(limit_key) + " has " + num(std::int64_t(limit->size())) +
                                   " elements, expected two: [low, high]");
    m.time_step_limit = {limit->at(std::size_t{0}).as_double(), limit->at(std::size_t{1}).as_double()};
    if (!(m.time_step_limit[0] >= 0) || !(m.time_step_limit[1] >= m.time_step_limit[0]))
      r.fail(kRuleConfigValue, in_quotes(limit_key) + " is [" + std::to_string(m.time_step_limit[0]) + ", " +
                                   std::to_string(m.time_step_limit[1]) + "], expected 0 <= low <= high");
  }
  unsupported_if(r, r.boolean("mamba_proj_bias", false) || r.boolean("use_bias", false),
                 "\"mamba_proj_bias\" or \"use_bias\" is true; the Mamba-2 layers' in_proj and out_proj have no bias");
  return m;
}

NemotronHMoeConfig parse_moe(const ConfigReader& r) {
  NemotronHMoeConfig m;
  m.n_routed_experts = r.positive_int("n_routed_experts");
  m.num_experts_per_tok = r.int_in("num_experts_per_tok", 1, m.n_routed_experts,
                                   "1 to \"n_routed_experts\" (" + num(m.n_routed_experts) + ")");
  m.moe_intermediate_size = r.positive_int("moe_intermediate_size");
  m.moe_shared_expert_intermediate_size = r.positive_int("moe_shared_expert_intermediate_size");
  // NOTE: transformers' NemotronHMoE builds one shared expert of moe_shared_expert_intermediate_size
  // whatever n_shared_experts says, while vLLM multiplies the width by it; 1 is where they agree.
  m.n_shared_experts = r.json().at("n_shared_experts").as_int();
  unsupported_if(r, m.n_shared_experts != 1,
                 "\"n_shared_experts\" is " + num(m.n_shared_experts) + "; the MoE layers implement one shared expert");
  unsupported_if(r, r.optional("moe_latent_size") != nullptr,
                 "\"moe_latent_size\" is set; the MoE layers implement experts over hidden_size "
                 "(no latent projections)");
  m.norm_topk_prob = r.boolean("norm_topk_prob", true);
  m.routed_scaling_factor = r.positive_real("routed_scaling_factor");
  // route_tokens_to_experts: scores viewed as [n_group, experts / n_group], each group ranked by the
  // sum of its best two, topk_group groups kept, then top-k among their experts.
  m.n_group = r.int_in("n_group", 1, m.n_routed_experts / 2,
                       "1 to half of \"n_routed_experts\" (" + num(m.n_routed_experts / 2) +
                           "): each group's score is the sum of its best two experts");
  if (m.n_routed_experts % m.n_group != 0)
    r.fail(kRuleConfigValue, "\"n_group\" (" + num(m.n_group) + ") does not divide \"n_routed_experts\" (" +
                                 num(m.n_routed_experts) + ")");
  m.topk_group = r.int_in("topk_group", 1, m.n_group, "1 to \"n_group\" (" + num(m.n_group) + ")");
  if (m.topk_group * (m.n_routed_experts / m.n_group) < m.num_experts_per_tok)
    r.fail(kRuleConfigValue, "\"topk_group\" (" + num(m.topk_group) + ") groups of " +
                                 num(m.n_routed_experts / m.n_group) + " experts hold fewer than " +
                                 "\"num_experts_per_tok\" (" + num(m.num_experts_per_tok) + ")");
  return m;
}

void parse_attention(const ConfigReader& r, NemotronHConfig& c) {
  c.num_attention_heads = r.positive_int("num_attention_heads");
  c.num_key_value_heads = r.positive_int("num_key_value_heads");
  c.head_dim = r.positive_int("head_dim");
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    r.fail(kRuleConfigValue, "\"num_attention_heads\" (" + num(c.num_attention_heads) +
                                 ") is not a multiple of \"num_key_value_heads\" (" + num(c.num_key_value_heads) + ")");
  unsupported_if(r, r.boolean("attention_bias", false),
                 "\"attention_bias\" is true; the attention layers have no projection biases");
  if (r.optional("rope_theta") != nullptr) c.rope_theta = r.positive_real("rope_theta");
  c.partial_rotary_factor = r.real_or("partial_rotary_factor", 1.0);
  if (!(c.partial_rotary_factor > 0 && c.partial_rotary_factor <= 1))
    r.fail(kRuleConfigValue, "\"partial_rotary_factor\" is " + std::to_string(c.partial_rotary_factor) +
                                 ", expected a number in (0, 1]");
}

}  // namespace

std::string_view layer_kind_name(NemotronHLayerKind kind) noexcept {
  switch (kind) {
    case NemotronHLayerKind::mamba: return "mamba";
    case NemotronHLayerKind::moe: return "moe";
    case NemotronHLayerKind::attention: return "attention";
    case NemotronHLayerKind::mlp: return "mlp";
  }
  return "?";
}

std::int64_t NemotronHConfig::count(NemotronHLayerKind kind) const noexcept {
  return std::count(layers.begin(), layers.end(), kind);
}

std::string NemotronHConfig::pattern() const {
  std::string s;
  for (auto const kind : layers) s += static_cast<char>(kind);
  return s;
}

NemotronHConfig parse_nemotron_h_config(const Json& config) {
  ConfigReader const r(config);
  NemotronHConfig c;
  c.model_type = r.string("model_type");
  if (c.model_type != "nemotron_h")
    r.fail(kRuleConfigModelType, "\"model_type\" is " + in_quotes(c.model_type) + ", expected \"nemotron_h\"");
  c.hidden_size = r.positive_int("hidden_size");
  c.vocab_size = r.positive_int("vocab_size");
  c.layers = parse_layers(r);
  c.num_hidden_layers = std::int64_t(c.layers.size());
  c.max_position_embeddings = r.positive_int("max_position_embeddings");
  c.layer_norm_epsilon = r.positive_real("layer_norm_epsilon");
  // NOTE: the published config also writes norm_eps; transformers reads layer_norm_epsilon alone.
  if (auto const* eps = r.optional("norm_eps"); eps != nullptr && eps->as_double() != c.layer_norm_epsilon)
    r.fail(kRuleConfigValue, "\"norm_eps\" is " + std::to_string(eps->as_double()) + " but \"layer_norm_epsilon\" is " +
                                 std::to_string(c.layer_norm_epsilon));
  c.tie_word_embeddings = r.boolean("tie_word_embeddings", false);
  c.residual_in_fp32 = r.boolean("residual_in_fp32", false);
  c.torch_dtype = r.torch_dtype();

  if (c.has(NemotronHLayerKind::attention)) parse_attention(r, c);
  if (c.has(NemotronHLayerKind::mamba)) c.mamba = parse_mamba(r);
  if (c.has(NemotronHLayerKind::moe)) c.moe = parse_moe(r);
  if (c.has(NemotronHLayerKind::mlp)) c.intermediate_size = r.positive_int("intermediate_size");
  if (c.has(NemotronHLayerKind::moe) || c.has(NemotronHLayerKind::mlp)) {
    c.mlp_hidden_act = r.string("mlp_hidden_act");
    unsupported_if(r, c.mlp_hidden_act != "relu2",
                   "\"mlp_hidden_act\" is " + in_quotes(c.mlp_hidden_act) +
                       "; the MLP and expert layers implement \"relu2\" (relu(x)^2)");
    unsupported_if(r, r.boolean("mlp_bias", false), "\"mlp_bias\" is true; the MLP and expert layers have no biases");
  }
  return c;
}

NemotronHConfig read_nemotron_h_config(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "config.json" : path;
  return parse_nemotron_h_config(read_json_file(file));
}

}  // namespace cute_cpp::models
