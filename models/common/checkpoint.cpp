// SPDX-License-Identifier: Apache-2.0
// models/common/checkpoint.cpp: the checkpoint folder (single file or index + shards) and the
// Qwen3 config reader.
#include "models/common/checkpoint.hpp"

#include <algorithm>      // std::sort, std::lower_bound
#include <unordered_map>  // std::unordered_map

#include "models/common/error.hpp"  // LoadError

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
constexpr char kRuleModelType[] =
    "cute-cpp [config.model-type]: the config's model_type must be the model being loaded";
constexpr char kRuleValue[] = "cute-cpp [config.value]: a config field must hold a value the decoder supports";
constexpr char kRuleUnsupported[] =
    "cute-cpp [config.unsupported]: the config asks for a feature the decoder does not implement";

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

Qwen3Config parse_qwen3_config(const Json& config) {
  std::string const& file = config.source();
  Qwen3Config c;
  c.model_type = config.at("model_type").as_string();
  if (c.model_type != "qwen3")
    throw LoadError(kRuleModelType, file + ": \"model_type\" is " + in_quotes(c.model_type) + ", expected \"qwen3\"");

  auto positive = [&](std::string_view key) {
    std::int64_t const v = config.at(key).as_int();
    if (v <= 0)
      throw LoadError(kRuleValue,
                      file + ": " + in_quotes(key) + " is " + std::to_string(v) + ", expected a positive integer");
    return v;
  };
  c.hidden_size = positive("hidden_size");
  c.intermediate_size = positive("intermediate_size");
  c.num_hidden_layers = positive("num_hidden_layers");
  c.num_attention_heads = positive("num_attention_heads");
  c.num_key_value_heads = positive("num_key_value_heads");
  c.head_dim = positive("head_dim");
  c.vocab_size = positive("vocab_size");
  c.max_position_embeddings = positive("max_position_embeddings");
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    throw LoadError(kRuleValue, file + ": \"num_attention_heads\" (" + std::to_string(c.num_attention_heads) +
                                    ") is not a multiple of \"num_key_value_heads\" (" +
                                    std::to_string(c.num_key_value_heads) + ")");

  auto positive_real = [&](std::string_view key) {
    double const v = config.at(key).as_double();
    if (!(v > 0))
      throw LoadError(kRuleValue,
                      file + ": " + in_quotes(key) + " is " + std::to_string(v) + ", expected a positive number");
    return v;
  };
  c.rms_norm_eps = positive_real("rms_norm_eps");
  // NOTE: transformers 5 writes RoPE's settings as "rope_parameters": {"rope_theta": ..., "rope_type":
  // "default"} where the published configs have a top-level "rope_theta"; either is read.
  auto const* rope_parameters = config.find("rope_parameters");
  if (rope_parameters != nullptr && rope_parameters->is_null()) rope_parameters = nullptr;
  if (rope_parameters != nullptr) {
    if (auto const* type = rope_parameters->find("rope_type"); type != nullptr && type->as_string() != "default")
      throw LoadError(kRuleUnsupported, file + ": \"rope_parameters\" has \"rope_type\" " +
                                            in_quotes(type->as_string()) +
                                            "; the decoder implements plain RoPE only (\"default\")");
  }
  if (rope_parameters == nullptr || config.find("rope_theta") != nullptr) {
    c.rope_theta = positive_real("rope_theta");
  } else {
    double const theta = rope_parameters->at("rope_theta").as_double();
    if (!(theta > 0))
      throw LoadError(kRuleValue, file + ": \"rope_parameters\" \"rope_theta\" is " + std::to_string(theta) +
                                      ", expected a positive number");
    c.rope_theta = theta;
  }
  if (rope_parameters != nullptr && config.find("rope_theta") != nullptr) {
    if (auto const* theta = rope_parameters->find("rope_theta"); theta != nullptr && theta->as_double() != c.rope_theta)
      throw LoadError(kRuleValue, file + ": \"rope_theta\" is " + std::to_string(c.rope_theta) +
                                      " but \"rope_parameters\" has " + std::to_string(theta->as_double()));
  }
  // NOTE: optional, false when absent: transformers writes a config's fields that differ from its
  // defaults, and an untied model's false is PretrainedConfig's default, so save_pretrained may
  // leave it out.
  if (auto const* tie = config.find("tie_word_embeddings")) c.tie_word_embeddings = tie->as_bool();
  if (auto const* bias = config.find("attention_bias")) c.attention_bias = bias->as_bool();

  // NOTE: transformers >= 4.56 writes "dtype" where older versions wrote "torch_dtype".
  auto const* torch_dtype = config.find("torch_dtype");
  auto const* dtype = config.find("dtype");
  if (torch_dtype == nullptr && dtype == nullptr) (void)config.at("torch_dtype");  // the json.missing error
  c.torch_dtype = (torch_dtype != nullptr ? torch_dtype : dtype)->as_string();
  if (torch_dtype != nullptr && dtype != nullptr && dtype->as_string() != c.torch_dtype)
    throw LoadError(kRuleValue, file + ": \"torch_dtype\" is " + in_quotes(c.torch_dtype) + " but \"dtype\" is " +
                                    in_quotes(dtype->as_string()));
  if (c.torch_dtype != "bfloat16" && c.torch_dtype != "float16" && c.torch_dtype != "float32")
    throw LoadError(kRuleValue, file + ": \"torch_dtype\" is " + in_quotes(c.torch_dtype) +
                                    ", expected \"bfloat16\", \"float16\" or \"float32\"");

  // Plain RoPE may also be spelled as a rope_scaling of type "default" (transformers 5 writes one).
  if (auto const* scaling = config.find("rope_scaling"); scaling != nullptr && !scaling->is_null()) {
    auto const* type = scaling->is_object() ? scaling->find("rope_type") : nullptr;
    if (type == nullptr && scaling->is_object()) type = scaling->find("type");
    if (type == nullptr || !type->is_string() || type->as_string() != "default")
      throw LoadError(kRuleUnsupported, file + ": \"rope_scaling\" is set; the decoder implements plain RoPE only "
                                               "(rope_scaling null or of type \"default\")");
  }
  return c;
}

Qwen3Config read_qwen3_config(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "config.json" : path;
  return parse_qwen3_config(read_json_file(file));
}

}  // namespace cute_cpp::models
