// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/weights.hpp: what a Nemotron-H checkpoint must hold, derived from its
// NemotronHConfig and checked against a Checkpoint, with the names grouped per layer and kind for
// a GPU loader (the fused layouts the kernels will read are not decided yet).
#include <cstdint>      // std::uint64_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/checkpoint.hpp"  // Checkpoint
#include "models/common/manifest.hpp"    // ExpectedTensor, TensorList
#include "models/nemotron/config.hpp"    // NemotronHConfig, NemotronHLayerKind

namespace cute_cpp::models {

// ---- per-layer tensor names ----

/// A Mamba-2 layer's mixer (d_inner = mamba_num_heads * mamba_head_dim, conv_dim = d_inner + 2 n_groups N).
struct NemotronHMambaTensors {
  std::string in_proj;        ///< [d_inner + conv_dim + heads, hidden]: rows z, then x B C, then dt
  std::string conv1d_weight;  ///< [conv_dim, 1, conv_kernel], depthwise
  std::string conv1d_bias;    ///< [conv_dim]; empty when use_conv_bias is false
  std::string A_log;          ///< [heads], A = -exp(A_log)
  std::string D;              ///< [heads], the skip connection
  std::string dt_bias;        ///< [heads], dt = softplus(dt + dt_bias)
  std::string norm;           ///< [d_inner], the gated RMSNorm's weight (n_groups groups)
  std::string out_proj;       ///< [hidden, d_inner]
};

/// An attention layer's mixer (no biases, no positional encoding).
struct NemotronHAttentionTensors {
  std::string q_proj, k_proj, v_proj;  ///< [heads * head_dim | kv_heads * head_dim, hidden]
  std::string o_proj;                  ///< [hidden, heads * head_dim]
};

/// One non-gated ReLU^2 expert (or the dense MLP, or the shared expert): down(relu(up x)^2).
struct NemotronHMlpTensors {
  std::string up_proj;    ///< [width, hidden]
  std::string down_proj;  ///< [hidden, width]
};

/// A MoE layer's mixer.
struct NemotronHMoeTensors {
  std::string router;                   ///< gate.weight [n_routed_experts, hidden]
  std::string e_score_correction_bias;  ///< gate.e_score_correction_bias [n_routed_experts], F32
  std::vector<NemotronHMlpTensors> experts;  ///< experts.E.*, width moe_intermediate_size
  NemotronHMlpTensors shared;           ///< shared_experts.*, width moe_shared_expert_intermediate_size
};

/// One decoder layer: its pre-mixer RMSNorm and the mixer of its kind (the other kinds' names empty).
struct NemotronHLayerTensors {
  NemotronHLayerKind kind{};
  std::string norm;  ///< [hidden]
  NemotronHMambaTensors mamba;
  NemotronHAttentionTensors attention;
  NemotronHMoeTensors moe;
  NemotronHMlpTensors mlp;
};

// ---- NemotronHWeightManifest ----

/// The complete list of tensors of a Nemotron-H checkpoint, named as the published checkpoints
/// (and transformers' conversion mapping for nemotron_h) name them: backbone.embeddings.weight,
/// backbone.layers.N.norm.weight, backbone.layers.N.mixer.*, backbone.norm_f.weight, lm_head.weight
/// (unless tied), experts one tensor each.
///   NemotronHWeightManifest m(read_nemotron_h_config("Nemotron-3-Nano-30B-A3B"));
///   m.tensors().size()  ->  6243    m.total_bytes()  ->  63155892352
///   m.validate(Checkpoint::open("Nemotron-3-Nano-30B-A3B"));
/// Dtypes: every tensor has the config's torch_dtype, except the router's e_score_correction_bias,
/// always F32 (transformers keeps it in float32, _keep_in_fp32_modules_strict), and A_log and D,
/// F32 as the published BF16 checkpoint stores them, or torch_dtype as transformers' save_pretrained
/// of a model built in that dtype writes them; dt_bias may likewise be F32. total_bytes() counts the
/// published dtypes. Tensors under mtp. (multi-token prediction, which transformers ignores) are ignored.
class NemotronHWeightManifest {
 public:
  /// @pre torch_dtype is bfloat16, float16 or float32 [config.value].
  explicit NemotronHWeightManifest(const NemotronHConfig& config);

  [[nodiscard]] const NemotronHConfig& config() const noexcept { return config_; }
  /// The config's torch_dtype as a safetensors dtype (BF16 for bfloat16).
  [[nodiscard]] Dtype dtype() const noexcept { return dtype_; }
  /// Every expected tensor: the embedding, layer by layer, the final norm, then lm_head unless tied.
  [[nodiscard]] const std::vector<ExpectedTensor>& tensors() const noexcept { return list_.tensors(); }
  /// The expected tensor called `name`, or nullptr.
  [[nodiscard]] const ExpectedTensor* find(std::string_view name) const noexcept { return list_.find(name); }
  /// The tensor names of each layer, index = layer.
  [[nodiscard]] const std::vector<NemotronHLayerTensors>& layers() const noexcept { return layers_; }
  /// Bytes of tensors(), each in its ExpectedTensor::dtype.
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return list_.total_bytes(); }
  [[nodiscard]] const std::string& embedding() const noexcept { return list_.tensors().front().name; }
  [[nodiscard]] const std::string& final_norm() const noexcept { return final_norm_; }
  /// lm_head.weight, or the embedding when tied.
  [[nodiscard]] const std::string& output_weight() const noexcept { return output_; }

  /// Checks `checkpoint` against the manifest; the first problem found is thrown, naming the
  /// tensor, its file (shard) and the values.
  /// @pre every expected tensor is present [nemotron.tensor-missing]; each present expected tensor
  ///      (and a tied checkpoint's lm_head.weight) has the expected shape [nemotron.tensor-shape]
  ///      and dtype [nemotron.tensor-dtype]; no other tensor is present except under mtp.
  ///      [nemotron.tensor-unexpected].
  void validate(const Checkpoint& checkpoint) const;

 private:
  void add_layer(std::int64_t layer);

  NemotronHConfig config_;
  Dtype dtype_{};
  TensorList list_;
  std::vector<NemotronHLayerTensors> layers_;
  std::string final_norm_, output_;
};

}  // namespace cute_cpp::models
