// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/checkpoint.hpp: a Hugging Face checkpoint folder: its weights (model.safetensors,
// or model.safetensors.index.json with its shards), looked up by tensor name across shards, and
// its config.json (Qwen3Config for the dense Qwen3 decoder).
#include <cstdint>      // std::int64_t
#include <filesystem>   // std::filesystem::path
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/json.hpp"         // Json, read_json_file
#include "models/common/safetensors.hpp"  // SafetensorsFile, TensorInfo

namespace cute_cpp::models {

// ---- Checkpoint ----

/// The weights of a checkpoint folder, every shard mapped and validated, and the index checked
/// against the shards' contents.
///   auto ckpt = Checkpoint::open("Qwen3-8B/");
///   const TensorInfo& w = ckpt.at("model.layers.0.mlp.up_proj.weight");  // BF16 [12288, 4096]
class Checkpoint {
 public:
  /// As transformers does, model.safetensors is used when present, else the index.
  /// @pre the folder holds model.safetensors or model.safetensors.index.json [checkpoint.folder];
  ///      the index has a "weight_map" object of tensor name -> shard file name, a plain file
  ///      name in the folder [checkpoint.index]; each shard exists [checkpoint.shard-missing] and
  ///      is a valid safetensors file (SafetensorsFile::open); each listed tensor is in the shard
  ///      the index names [checkpoint.tensor-missing]; each tensor in a shard is listed for that
  ///      shard [checkpoint.tensor-unlisted]; no tensor is in two shards
  ///      [checkpoint.duplicate-tensor].
  [[nodiscard]] static Checkpoint open(const std::filesystem::path& folder);

  /// The tensor called `name`, or nullptr.
  [[nodiscard]] const TensorInfo* find(std::string_view name) const noexcept;
  /// @pre the checkpoint holds `name` [checkpoint.missing].
  [[nodiscard]] const TensorInfo& at(std::string_view name) const;
  /// Every tensor, sorted by name.
  [[nodiscard]] const std::vector<const TensorInfo*>& tensors() const noexcept { return tensors_; }
  /// The mapped files: one, or the index's shards in the order of their file names.
  [[nodiscard]] const std::vector<SafetensorsFile>& shards() const noexcept { return shards_; }
  /// The index's "metadata" object (null when absent or without an index).
  [[nodiscard]] const Json& index_metadata() const noexcept { return index_metadata_; }
  [[nodiscard]] const std::filesystem::path& folder() const noexcept { return folder_; }

 private:
  std::filesystem::path folder_;
  std::vector<SafetensorsFile> shards_;
  std::vector<const TensorInfo*> tensors_;  // into shards_; SafetensorsFile moves keep them valid
  Json index_metadata_;
};

// ---- Qwen3Config ----

/// YaRN RoPE scaling: a `rope_scaling` (or transformers 5's `rope_parameters`) of "rope_type" (or
/// "type") "yarn", its optional fields filled in as transformers 5 fills them. Qwen's 131072-token
/// setting adds {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}.
/// rope_frequencies (models/common/rope.hpp) turns it into inverse frequencies and a cos/sin scale.
struct YarnScaling {
  double factor = 1;  ///< "factor" as written (null: max_position_embeddings / original_max_position_embeddings)
  std::int64_t original_max_position_embeddings = 0;  ///< absent: max_position_embeddings
  std::optional<double> attention_factor;             ///< absent or null: derived from factor (and the mscales)
  double mscale = 0, mscale_all_dim = 0;              ///< 0 (or absent, null): unset; used when both are set
  double beta_fast = 32, beta_slow = 1;               ///< absent, null or 0: 32 and 1
  bool truncate = true;                               ///< the correction range floored and ceiled (null: false)
  bool operator==(const YarnScaling&) const = default;
};

/// The fields of a Qwen3 (dense) config.json that a decoder needs.
/// The mixture-of-experts fields of a Qwen3-MoE config (model_type "qwen3_moe").
struct Qwen3MoeConfig {
  std::int64_t num_experts = 0;
  std::int64_t num_experts_per_tok = 0;    ///< top-k
  std::int64_t moe_intermediate_size = 0;  ///< each expert's width
  bool norm_topk_prob = false;             ///< the top-k weights renormalized to sum to 1
  std::int64_t decoder_sparse_step = 1;
  std::vector<std::int64_t> mlp_only_layers;  ///< layers with a dense MLP of intermediate_size
  /// Whether decoder layer `layer` holds the MoE block, as transformers' Qwen3MoeDecoderLayer
  /// decides: not in mlp_only_layers, with experts, and (layer + 1) a multiple of decoder_sparse_step.
  [[nodiscard]] bool sparse_layer(std::int64_t layer) const noexcept;
};

struct Qwen3Config {
  std::int64_t hidden_size = 0;
  std::int64_t intermediate_size = 0;
  std::int64_t num_hidden_layers = 0;
  std::int64_t num_attention_heads = 0;
  std::int64_t num_key_value_heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t vocab_size = 0;
  std::int64_t max_position_embeddings = 0;
  double rms_norm_eps = 0;
  double rope_theta = 0;
  bool tie_word_embeddings = false;
  bool attention_bias = false;  // optional in config.json; false when absent
  std::string torch_dtype;      // "bfloat16", "float16" or "float32"
  std::string model_type;       // "qwen3"
  std::optional<YarnScaling> yarn;  // RoPE scaling; empty: plain RoPE
  std::optional<Qwen3MoeConfig> moe;  // model_type "qwen3_moe"; empty: the dense family

  /// The longest sequence the config describes: max_position_embeddings, or with YaRN the longer of
  /// that and factor x original_max_position_embeddings (the context YaRN is set for: Qwen3-8B's
  /// 40960 with Qwen's setting above gives 131072).
  [[nodiscard]] std::int64_t max_positions() const noexcept;
};

/// Reads the fields from a parsed config.json; `Json::source()` names the file in errors.
///   parse_qwen3_config(read_json_file("Qwen3-8B/config.json")).head_dim  ->  128
/// @pre each field is present [json.missing] (attention_bias and tie_word_embeddings may be absent:
///      false) with its JSON type [json.type] (torch_dtype may be
///      spelled "dtype", as newer transformers write it); model_type is "qwen3" or "qwen3_moe"
///      [config.model-type]; sizes are positive, num_attention_heads is a multiple of
///      num_key_value_heads, rms_norm_eps and rope_theta are positive, torch_dtype is bfloat16,
///      float16 or float32 [config.value]; RoPE is plain or YaRN [config.unsupported]: rope_scaling
///      and rope_parameters are absent, null, or of "rope_type" (or "type") "default" or "yarn"; a
///      YaRN one has "factor" (a number, or null), and factor, original_max_position_embeddings and
///      attention_factor, where given, are positive [config.value]; when both are given, they
///      describe the same RoPE [config.value] (transformers 5 would take rope_scaling). A qwen3_moe
///      config also has num_experts, num_experts_per_tok (1..num_experts) and moe_intermediate_size,
///      positive, and may have norm_topk_prob (false when absent), decoder_sparse_step (positive, 1
///      when absent) and mlp_only_layers (layer indices within num_hidden_layers, none when absent)
///      [config.value].
[[nodiscard]] Qwen3Config parse_qwen3_config(const Json& config);
/// read_json_file(path) then parse_qwen3_config; `path` is config.json or the folder holding it.
[[nodiscard]] Qwen3Config read_qwen3_config(const std::filesystem::path& path);

}  // namespace cute_cpp::models
