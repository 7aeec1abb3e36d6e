// SPDX-License-Identifier: Apache-2.0
// models/common/checkpoint.cpp: the checkpoint folder (single file or index + shards) and the
// Qwen3 config reader.
#include "models/common/checkpoint.hpp"

#include <algorithm>      // std::sort, std::lower_bound, std::max
#include <cmath>          // std::floor
#include <unordered_map>  // std::unordered_map
#include <utility>        // std::pair

#include "models/common/config_reader.hpp"  // ConfigReader, the config rules
#include "models/common/error.hpp"          // LoadError

namespace cute_cpp::models {

namespace {
constexpr char kRuleFolder[] =
    "cute-cpp [checkpoint.folder]: a checkpoint folder holds model.safetensors or model.safetensors.index.json";
constexpr char kRuleIndex[] =
    "cute-cpp [checkpoint.index]: the index's weight_map maps each tensor name to a shard's file name in the same "
    "folder";
constexpr char kRuleShardMissing[] = "cute-cpp [checkpoint.shard-missing]: every shard the index names must exist";
constexpr char kRuleTensorMissing[] =
    "cute-cpp [checkpoint.tensor-missing]: every tensor the index lists must be in the shard it names";
constexpr char kRuleTensorUnlisted[] =
    "cute-cpp [checkpoint.tensor-unlisted]: every tensor in a shard must be listed in the index";
constexpr char kRuleDuplicateTensor[] = "cute-cpp [checkpoint.duplicate-tensor]: a tensor may be in only one shard";
constexpr char kRuleMissing[] = "cute-cpp [checkpoint.missing]: a tensor looked up by name must be in the checkpoint";

constexpr char kSingle[] = "model.safetensors";
constexpr char kIndex[] = "model.safetensors.index.json";

bool plain_file_name(const std::string& s) {
  return !s.empty() && s != "." && s != ".." && s.find('/') == std::string::npos && s.find('\0') == std::string::npos;
}
}  // namespace

// ---- Checkpoint ----

Checkpoint Checkpoint::open(const std::filesystem::path& folder) {
  Checkpoint c;
  c.folder_ = folder;
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) throw LoadError(kRuleFolder, folder.string() + ": not a folder");
  auto const single = folder / kSingle;
  auto const index = folder / kIndex;

  if (std::filesystem::exists(single, ec)) {
    c.shards_.push_back(SafetensorsFile::open(single));
  } else if (std::filesystem::exists(index, ec)) {
    Json const idx = read_json_file(index);
    if (auto const* meta = idx.find("metadata")) c.index_metadata_ = *meta;
    auto const& weight_map = idx.at("weight_map").as_object();

    // The shards, each opened once, in file-name order.
    std::vector<std::string> names;
    for (auto const& [tensor, shard] : weight_map) {
      if (!plain_file_name(shard.as_string()))
        throw LoadError(kRuleIndex, std::string(kIndex) + ": tensor " + in_quotes(tensor) + " names the shard " +
                                        in_quotes(shard.as_string()) + ", not a file name in the checkpoint folder");
      names.push_back(shard.as_string());
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (auto const& name : names) {
      if (!std::filesystem::exists(folder / name, ec)) {
        std::size_t count = 0;
        for (auto const& [tensor, shard] : weight_map) count += shard.as_string() == name;
        throw LoadError(kRuleShardMissing, std::string(kIndex) + ": the shard " + in_quotes(name) + " (" +
                                               std::to_string(count) + " tensors) is not in " + folder.string());
      }
      c.shards_.push_back(SafetensorsFile::open(folder / name));
    }

    // Where each tensor really is, then the index checked against it both ways.
    std::unordered_map<std::string_view, std::size_t> shard_of;
    for (std::size_t s = 0; s < c.shards_.size(); ++s)
      for (auto const& t : c.shards_[s].tensors()) {
        auto const [it, fresh] = shard_of.emplace(t.name, s);
        if (!fresh)
          throw LoadError(kRuleDuplicateTensor,
                          "tensor " + in_quotes(t.name) + " is in both " + names[it->second] + " and " + names[s]);
      }
    std::unordered_map<std::string_view, std::string_view> listed;
    for (auto const& [tensor, shard] : weight_map) {
      listed.emplace(tensor, shard.as_string());
      auto const it = shard_of.find(tensor);
      if (it == shard_of.end())
        throw LoadError(kRuleTensorMissing, std::string(kIndex) + ": tensor " + in_quotes(tensor) + " is listed in " +
                                                shard.as_string() +
                                                ", which does not hold it (nor does any other shard)");
      if (names[it->second] != shard.as_string())
        throw LoadError(kRuleTensorMissing, std::string(kIndex) + ": tensor " + in_quotes(tensor) + " is listed in " +
                                                shard.as_string() + ", which does not hold it; it is in " +
                                                names[it->second]);
    }
    for (std::size_t s = 0; s < c.shards_.size(); ++s)
      for (auto const& t : c.shards_[s].tensors())
        if (!listed.contains(t.name))
          throw LoadError(kRuleTensorUnlisted, names[s] + ": tensor " + in_quotes(t.name) + " is not listed in " + kIndex);
  } else {
    throw LoadError(kRuleFolder, folder.string() + ": holds neither " + kSingle + " nor " + kIndex);
  }

  for (auto const& shard : c.shards_)
    for (auto const& t : shard.tensors()) c.tensors_.push_back(&t);
  std::sort(c.tensors_.begin(), c.tensors_.end(),
            [](const TensorInfo* a, const TensorInfo* b) { return a->name < b->name; });
  return c;
}

const TensorInfo* Checkpoint::find(std::string_view name) const noexcept {
  auto const it = std::lower_bound(tensors_.begin(), tensors_.end(), name,
                                   [](const TensorInfo* t, std::string_view n) { return t->name < n; });
  return it != tensors_.end() && (*it)->name == name ? *it : nullptr;
}

const TensorInfo& Checkpoint::at(std::string_view name) const {
  if (auto const* t = find(name)) return *t;
  throw LoadError(kRuleMissing, folder_.string() + ": no tensor " + in_quotes(name) + " in " +
                                    std::to_string(shards_.size()) + (shards_.size() == 1 ? " file" : " shards"));
}

// ---- Qwen3Config ----

namespace {
/// The RoPE an object of rope_scaling / rope_parameters (named `key`) asks for: plain RoPE (empty)
/// or YaRN with transformers 5's defaults; `c` holds max_position_embeddings already.
std::optional<YarnScaling> parse_rope_type(const Qwen3Config& c, const Json& rope, std::string_view key) {
  std::string const& file = rope.source();
  std::string const where = file + ": " + in_quotes(key);
  auto const* type = rope.find("rope_type");
  if (type == nullptr) type = rope.find("type");
  if (auto const* partial = rope.find("partial_rotary_factor");
      partial != nullptr && !partial->is_null() && partial->as_double() != 1.0)
    throw LoadError(kRuleConfigUnsupported, where + " has \"partial_rotary_factor\" " +
                                                std::to_string(partial->as_double()) +
                                                "; the decoder rotates whole heads (1)");
  // NOTE: transformers takes a rope_parameters without a type as plain RoPE (and writes the type
  // itself); a rope_scaling without one is refused rather than guessed at.
  if (type == nullptr && key == "rope_parameters") return std::nullopt;
  if (type == nullptr)
    throw LoadError(kRuleConfigUnsupported, where + " has no \"rope_type\"; the decoder implements plain RoPE "
                                              "(\"default\") and YaRN (\"yarn\")");
  std::string const& name = type->as_string();
  if (name == "default") return std::nullopt;
  if (name != "yarn")
    throw LoadError(kRuleConfigUnsupported, where + " has \"rope_type\" " + in_quotes(name) +
                                          "; the decoder implements plain RoPE (\"default\") and YaRN (\"yarn\")");

  // transformers 5's _compute_yarn_parameters: the factor as written (derived from the lengths only
  // when null), the original length defaulting to max_position_embeddings (its standardize_rope_params),
  // and `x or default` for the betas and mscales (0 and null count as unset).
  YarnScaling y;
  auto const optional = [&](std::string_view field) -> const Json* {
    auto const* v = rope.find(field);
    return v == nullptr || v->is_null() ? nullptr : v;
  };
  auto const positive = [&](std::string_view field, double v) {
    if (!(v > 0))
      throw LoadError(kRuleConfigValue, where + " " + in_quotes(field) + " is " + std::to_string(v) +
                                      ", expected a positive number");
    return v;
  };
  y.original_max_position_embeddings = c.max_position_embeddings;
  if (auto const* original = rope.find("original_max_position_embeddings")) {
    y.original_max_position_embeddings = original->as_int();
    if (y.original_max_position_embeddings <= 0)
      throw LoadError(kRuleConfigValue, where + " \"original_max_position_embeddings\" is " +
                                      std::to_string(y.original_max_position_embeddings) +
                                      ", expected a positive integer");
  }
  auto const* factor = rope.find("factor");
  if (factor == nullptr)
    throw LoadError(kRuleConfigValue, where + " is of type \"yarn\" and has no \"factor\"; YaRN needs one "
                                        "(Qwen's 131072-token setting: 4.0)");
  y.factor = factor->is_null() ? double(c.max_position_embeddings) / double(y.original_max_position_embeddings)
                               : positive("factor", factor->as_double());
  if (auto const* v = optional("attention_factor")) y.attention_factor = positive("attention_factor", v->as_double());
  if (auto const* v = optional("mscale")) y.mscale = v->as_double();
  if (auto const* v = optional("mscale_all_dim")) y.mscale_all_dim = v->as_double();
  if (auto const* v = optional("beta_fast"); v != nullptr && v->as_double() != 0) y.beta_fast = v->as_double();
  if (auto const* v = optional("beta_slow"); v != nullptr && v->as_double() != 0) y.beta_slow = v->as_double();
  if (auto const* v = rope.find("truncate")) y.truncate = !v->is_null() && v->as_bool();
  return y;
}

// The MoE fields of a qwen3_moe config (parse_qwen3_config's contract).
Qwen3MoeConfig parse_moe(const ConfigReader& r, std::int64_t layers) {
  Qwen3MoeConfig m;
  m.num_experts = r.positive_int("num_experts");
  m.num_experts_per_tok = r.int_in("num_experts_per_tok", 1, m.num_experts,
                                   "1 to \"num_experts\" (" + std::to_string(m.num_experts) + ")");
  m.moe_intermediate_size = r.positive_int("moe_intermediate_size");
  m.norm_topk_prob = r.boolean("norm_topk_prob", false);
  if (r.json().find("decoder_sparse_step") != nullptr) m.decoder_sparse_step = r.positive_int("decoder_sparse_step");
  if (auto const* v = r.optional("mlp_only_layers")) {
    for (Json const& layer : v->as_array()) {
      std::int64_t const i = layer.as_int();
      if (i < 0 || i >= layers)
        r.fail(kRuleConfigValue, "\"mlp_only_layers\" holds " + std::to_string(i) + ", expected layer indices 0 to " +
                               std::to_string(layers - 1));
      m.mlp_only_layers.push_back(i);
    }
  }
  return m;
}

}  // namespace

bool Qwen3MoeConfig::sparse_layer(std::int64_t layer) const noexcept {
  return num_experts > 0 && (layer + 1) % decoder_sparse_step == 0 &&
         std::find(mlp_only_layers.begin(), mlp_only_layers.end(), layer) == mlp_only_layers.end();
}

std::int64_t Qwen3Config::max_positions() const noexcept {
  if (!yarn) return max_position_embeddings;
  double const scaled = std::floor(yarn->factor * double(yarn->original_max_position_embeddings));
  constexpr double cap = double(std::int64_t(1) << 62);
  return std::max(max_position_embeddings, scaled >= cap ? std::int64_t(1) << 62 : std::int64_t(scaled));
}

Qwen3Config parse_qwen3_config(const Json& config) {
  std::string const& file = config.source();
  Qwen3Config c;
  c.model_type = config.at("model_type").as_string();
  if (c.model_type != "qwen3" && c.model_type != "qwen3_moe")
    throw LoadError(kRuleConfigModelType, file + ": \"model_type\" is " + in_quotes(c.model_type) +
                                        ", expected \"qwen3\" or \"qwen3_moe\"");

  ConfigReader const r(config);
  c.hidden_size = r.positive_int("hidden_size");
  c.intermediate_size = r.positive_int("intermediate_size");
  c.num_hidden_layers = r.positive_int("num_hidden_layers");
  c.num_attention_heads = r.positive_int("num_attention_heads");
  c.num_key_value_heads = r.positive_int("num_key_value_heads");
  c.head_dim = r.positive_int("head_dim");
  c.vocab_size = r.positive_int("vocab_size");
  c.max_position_embeddings = r.positive_int("max_position_embeddings");
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    throw LoadError(kRuleConfigValue, file + ": \"num_attention_heads\" (" + std::to_string(c.num_attention_heads) +
                                    ") is not a multiple of \"num_key_value_heads\" (" +
                                    std::to_string(c.num_key_value_heads) + ")");

  c.rms_norm_eps = r.positive_real("rms_norm_eps");
  // NOTE: transformers 5 writes RoPE's settings as "rope_parameters": {"rope_theta": ..., "rope_type":
  // "default"} where the published configs have a top-level "rope_theta"; either is read. An empty
  // object counts as absent, as it does in transformers (an empty dict is false).
  auto const rope_object = [&](std::string_view key) -> const Json* {
    auto const* v = config.find(key);
    if (v == nullptr || v->is_null()) return nullptr;
    return v->as_object().empty() ? nullptr : v;
  };
  auto const* rope_parameters = rope_object("rope_parameters");
  auto const* rope_scaling = rope_object("rope_scaling");
  if (rope_parameters == nullptr || config.find("rope_theta") != nullptr) {
    c.rope_theta = r.positive_real("rope_theta");
  } else {
    double const theta = rope_parameters->at("rope_theta").as_double();
    if (!(theta > 0))
      throw LoadError(kRuleConfigValue, file + ": \"rope_parameters\" \"rope_theta\" is " + std::to_string(theta) +
                                      ", expected a positive number");
    c.rope_theta = theta;
  }
  for (auto const& [key, rope] : {std::pair{"rope_parameters", rope_parameters}, std::pair{"rope_scaling", rope_scaling}}) {
    if (rope == nullptr) continue;
    if (auto const* theta = rope->find("rope_theta"); theta != nullptr && theta->as_double() != c.rope_theta)
      throw LoadError(kRuleConfigValue, file + ": \"rope_theta\" is " + std::to_string(c.rope_theta) + " but " +
                                      in_quotes(key) + " has " + std::to_string(theta->as_double()));
  }
  // NOTE: optional, false when absent: transformers writes a config's fields that differ from its
  // defaults, and an untied model's false is PretrainedConfig's default, so save_pretrained may
  // leave it out.
  if (auto const* tie = config.find("tie_word_embeddings")) c.tie_word_embeddings = tie->as_bool();
  if (auto const* bias = config.find("attention_bias")) c.attention_bias = bias->as_bool();

  c.torch_dtype = r.torch_dtype();

  // RoPE's type: plain RoPE may also be spelled as a rope_scaling of type "default" (transformers 5
  // writes one); YaRN is a rope_scaling (as Qwen documents it) or rope_parameters of type "yarn".
  std::optional<YarnScaling> from_parameters, from_scaling;
  if (rope_parameters != nullptr) from_parameters = parse_rope_type(c, *rope_parameters, "rope_parameters");
  if (rope_scaling != nullptr) from_scaling = parse_rope_type(c, *rope_scaling, "rope_scaling");
  if (rope_parameters != nullptr && rope_scaling != nullptr && from_parameters != from_scaling)
    throw LoadError(kRuleConfigValue, file + ": \"rope_scaling\" and \"rope_parameters\" describe different RoPE "
                                             "settings (transformers 5 would read \"rope_scaling\" alone); give one "
                                             "of them");
  c.yarn = rope_scaling != nullptr ? from_scaling : from_parameters;
  if (auto const* partial = config.find("partial_rotary_factor"); partial != nullptr && !partial->is_null() &&
                                                                   partial->as_double() != 1.0)
    throw LoadError(kRuleConfigUnsupported, file + ": \"partial_rotary_factor\" is " +
                                                std::to_string(partial->as_double()) +
                                                "; the decoder rotates whole heads (1)");
  if (c.model_type == "qwen3_moe") c.moe = parse_moe(r, c.num_hidden_layers);
  return c;
}

Qwen3Config read_qwen3_config(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "config.json" : path;
  return parse_qwen3_config(read_json_file(file));
}

}  // namespace cute_cpp::models
