// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/config.hpp: the config.json of a Nemotron-H checkpoint (model_type nemotron_h,
// transformers' NemotronHForCausalLM; Nemotron-3 Nano 30B-A3B is the target): the layer pattern
// (Mamba-2, MoE, attention, dense MLP layers) and each kind's fields, checked against what the
// decoder implements. Field meanings follow transformers' configuration_nemotron_h.py and
// modeling_nemotron_h.py (NemotronHMamba2Mixer, NemotronHMoE, NemotronHTopkRouter,
// NemotronHAttention, NemotronHMLP, NemotronHBlock).
#include <array>        // std::array
#include <cstdint>      // std::int64_t
#include <filesystem>   // std::filesystem::path
#include <limits>       // std::numeric_limits
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/json.hpp"  // Json

namespace cute_cpp::models {

// ---- layer kinds ----

/// What a decoder layer's mixer is. hybrid_override_pattern writes one character per layer:
/// 'M' Mamba-2, 'E' mixture of experts, '*' attention, '-' dense MLP.
enum class NemotronHLayerKind : char { mamba = 'M', moe = 'E', attention = '*', mlp = '-' };

/// "mamba", "moe", "attention" or "mlp" (transformers' legacy block-type names).
[[nodiscard]] std::string_view layer_kind_name(NemotronHLayerKind kind) noexcept;

// ---- NemotronHConfig ----

/// The Mamba-2 mixer's fields (read when the pattern has an 'M').
struct NemotronHMambaConfig {
  std::int64_t num_heads = 0;       ///< mamba_num_heads
  std::int64_t head_dim = 0;        ///< mamba_head_dim
  std::int64_t ssm_state_size = 0;  ///< N, the state per head and channel
  std::int64_t n_groups = 0;        ///< B and C groups; num_heads / n_groups heads share one
  std::int64_t conv_kernel = 0;     ///< the causal depthwise convolution's width
  std::int64_t chunk_size = 0;      ///< the chunked scan's chunk length
  std::int64_t expand = 0;          ///< read, unused: transformers sizes the mixer by num_heads * head_dim
  bool use_conv_bias = true;        ///< conv1d has a bias
  std::string hidden_act;           ///< the convolution's activation: "silu"
  double time_step_min = 0, time_step_max = 0, time_step_floor = 0;  ///< dt_bias's initialization range
  /// The range dt is clamped to after softplus in the fused kernels' path (transformers' dt_limit);
  /// default (0, inf): no clamp. transformers' torch path clamps below at time_step_min instead.
  std::array<double, 2> time_step_limit{0, std::numeric_limits<double>::infinity()};

  /// d_inner = num_heads * head_dim: x's, z's (the gate's) and y's width, the gated norm's size.
  [[nodiscard]] std::int64_t intermediate_size() const noexcept { return num_heads * head_dim; }
  /// The convolution's channels: x, B and C, d_inner + 2 n_groups N.
  [[nodiscard]] std::int64_t conv_dim() const noexcept { return intermediate_size() + 2 * n_groups * ssm_state_size; }
  /// in_proj's rows: z (d_inner), then x B C (conv_dim), then dt (num_heads); no extra MLP part (d_mlp 0).
  [[nodiscard]] std::int64_t in_proj_size() const noexcept { return intermediate_size() + conv_dim() + num_heads; }
  /// The gated RMSNorm normalizes each of n_groups groups of this many channels separately.
  [[nodiscard]] std::int64_t norm_group_size() const noexcept { return intermediate_size() / n_groups; }
};

/// The MoE mixer's fields (read when the pattern has an 'E'): sigmoid router with a score
/// correction bias, group-limited top-k, non-gated ReLU^2 experts and one shared expert.
struct NemotronHMoeConfig {
  std::int64_t n_routed_experts = 0;
  std::int64_t num_experts_per_tok = 0;  ///< top-k
  std::int64_t moe_intermediate_size = 0;                ///< each routed expert's width
  std::int64_t moe_shared_expert_intermediate_size = 0;  ///< the shared expert's width
  std::int64_t n_shared_experts = 0;     ///< 1 (transformers builds one shared expert whatever it says)
  bool norm_topk_prob = true;            ///< the top-k sigmoid scores renormalized to sum to 1
  double routed_scaling_factor = 0;      ///< the routed experts' weights are multiplied by it
  std::int64_t n_group = 0;              ///< expert groups for group-limited routing
  std::int64_t topk_group = 0;           ///< groups kept (by the sum of their best two scores)
};

/// The fields of a Nemotron-H config.json that the decoder needs.
struct NemotronHConfig {
  std::string model_type;  ///< "nemotron_h"
  std::int64_t hidden_size = 0;
  std::int64_t vocab_size = 0;
  std::int64_t num_hidden_layers = 0;       ///< the pattern's length
  std::vector<NemotronHLayerKind> layers;   ///< one per layer, from hybrid_override_pattern
  std::int64_t max_position_embeddings = 0;
  double layer_norm_epsilon = 0;            ///< every RMSNorm's, the Mamba gated norm's included
  bool tie_word_embeddings = false;
  bool residual_in_fp32 = false;            ///< read; transformers' NemotronHBlock does not use it
  std::string torch_dtype;                  ///< "bfloat16", "float16" or "float32"

  // Attention layers ('*'): GQA without positional encoding (transformers' NemotronHAttention
  // applies no RoPE; rope_theta and partial_rotary_factor are read for completeness only).
  std::int64_t num_attention_heads = 0;
  std::int64_t num_key_value_heads = 0;
  std::int64_t head_dim = 0;
  double rope_theta = 10000;
  double partial_rotary_factor = 1;

  NemotronHMambaConfig mamba;  ///< read when the pattern has an 'M'
  NemotronHMoeConfig moe;      ///< read when the pattern has an 'E'

  // Dense MLP layers ('-') and the experts: down(relu(up x)^2), no gate.
  std::int64_t intermediate_size = 0;  ///< the dense MLP's width (read when the pattern has a '-')
  std::string mlp_hidden_act;          ///< "relu2" (read when the pattern has an 'E' or a '-')

  /// Layers of that kind.
  [[nodiscard]] std::int64_t count(NemotronHLayerKind kind) const noexcept;
  /// Whether any layer is of that kind.
  [[nodiscard]] bool has(NemotronHLayerKind kind) const noexcept { return count(kind) > 0; }
  /// The pattern again, one character per layer.
  [[nodiscard]] std::string pattern() const;
};

/// Reads the fields from a parsed config.json; `Json::source()` names the file in errors.
///   parse_nemotron_h_config(read_json_file("Nemotron-3-Nano/config.json")).count(NemotronHLayerKind::moe) -> 23
/// @pre model_type is "nemotron_h" [config.model-type]; the layer pattern is given as
///      hybrid_override_pattern (a string of 'M', 'E', '*', '-') or as transformers 5's
///      layers_block_type (a list of "mamba"/"linear_attention", "moe", "attention"/"full_attention",
///      "mlp"), not empty, the two agreeing when both are given, and num_hidden_layers (optional) is
///      its length [config.value]; each field a present kind needs is present [json.missing] with
///      its JSON type [json.type]; sizes are positive; num_attention_heads is a multiple of
///      num_key_value_heads; n_groups divides mamba_num_heads; num_experts_per_tok is at most
///      n_routed_experts; n_group divides n_routed_experts into groups of at least 2 experts,
///      topk_group is 1 to n_group and the kept groups hold at least top-k experts;
///      routed_scaling_factor, layer_norm_epsilon (and norm_eps, which must equal it), rope_theta
///      are positive; partial_rotary_factor is in (0, 1]; time_step_min <= time_step_max, both
///      positive, time_step_floor >= 0; time_step_limit is two numbers 0 <= lo <= hi; torch_dtype
///      (or dtype) is bfloat16, float16 or float32 [config.value]; the decoder implements it
///      [config.unsupported]: mamba_hidden_act "silu", mlp_hidden_act "relu2", n_shared_experts 1,
///      no moe_latent_size, and no projection biases (attention_bias, mlp_bias, use_bias,
///      mamba_proj_bias all false). Transformers' older spellings (mamba_n_groups, mamba_d_conv,
///      mamba_expand, mamba_dt_min, mamba_dt_max, mamba_dt_limit, mamba_dt_init_floor,
///      mamba_conv_bias, mamba_chunk_size) are read, and win, as transformers lets them.
[[nodiscard]] NemotronHConfig parse_nemotron_h_config(const Json& config);
/// read_json_file(path) then parse_nemotron_h_config; `path` is config.json or the folder holding it.
[[nodiscard]] NemotronHConfig read_nemotron_h_config(const std::filesystem::path& path);

}  // namespace cute_cpp::models
