// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/weights.hpp: what a Qwen3 dense checkpoint (transformers' Qwen3ForCausalLM, model_type
// qwen3) must hold, derived from its Qwen3Config and checked against a Checkpoint, plus the host-side
// packing a GPU loader does once per layer: q/k/v concatenated into one QKV weight, and gate/up
// interleaved in blocks of 8 rows for the SwiGLU epilogue (include/cute_cpp/epilogue/fusion.hpp,
// kernels/gemm/ffn.cuh's pack_gate_up).
#include <array>        // std::array
#include <cstddef>      // std::byte
#include <cstdint>      // std::int64_t, std::uint64_t
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/checkpoint.hpp"   // Checkpoint, Qwen3Config
#include "models/common/manifest.hpp"     // ExpectedTensor, TensorList
#include "models/common/safetensors.hpp"  // Dtype, TensorInfo

namespace cute_cpp::models {

// ---- Qwen3WeightManifest ----

/// One expert's weights in a Qwen3-MoE layer: gate and up [moe_intermediate_size, hidden_size],
/// down [hidden_size, moe_intermediate_size].
struct Qwen3ExpertTensors {
  std::string gate_proj, up_proj, down_proj;
};

/// The names of one decoder layer's tensors, as a GPU loader groups them: q/k/v become one fused
/// QKV weight (pack_qkv), gate/up one interleaved gate-up weight (pack_gate_up); the rest load as
/// they are. A Qwen3-MoE layer with the MoE block (Qwen3MoeConfig::sparse_layer) has the router
/// and the experts in place of gate/up/down (left empty).
struct Qwen3LayerTensors {
  std::string input_layernorm;           // [hidden]
  std::string q_proj, k_proj, v_proj;    // [heads * head_dim | kv_heads * head_dim, hidden] -> fused QKV
  std::string q_norm, k_norm;            // [head_dim]
  std::string o_proj;                    // [hidden, heads * head_dim]
  std::string post_attention_layernorm;  // [hidden]
  std::string gate_proj, up_proj;        // [intermediate, hidden] -> interleaved gate-up
  std::string down_proj;                 // [hidden, intermediate]
  std::string router;                    // MoE: mlp.gate.weight [num_experts, hidden]
  std::vector<Qwen3ExpertTensors> experts;  // MoE: mlp.experts.N.*, N = 0 .. num_experts - 1
};

/// Adds one decoder layer's tensors, named `prefix` + transformers' names within a Qwen3DecoderLayer
/// ("input_layernorm.weight", "self_attn.q_proj.weight", ...; "model.layers.3." for Qwen3-8B's layer 3),
/// shaped from `config` in `dtype`, to `list`; returns their names as a loader groups them. Other
/// decoders built of Qwen3 layers under their own prefixes (Qwen3-TTS's talker and code predictor)
/// use it too. `layer` decides, in a Qwen3-MoE config, whether the layer holds the MoE block.
Qwen3LayerTensors add_qwen3_layer(TensorList& list, std::string const& prefix, const Qwen3Config& config,
                                  std::int64_t layer, Dtype dtype);

/// The complete list of tensors of a Qwen3 checkpoint (dense, or Qwen3-MoE with per-expert tensors as
/// the published checkpoints hold them), as transformers names them, from its config.
///   Qwen3WeightManifest m(read_qwen3_config("Qwen3-8B"));
///   m.tensors().size()  ->  399    m.total_bytes()  ->  16381470720 (the index's total_size)
///   m.validate(Checkpoint::open("Qwen3-8B"));
/// Tied embeddings (tie_word_embeddings true): lm_head.weight is not expected. A checkpoint may
/// still hold one (vLLM reports Qwen3-0.6B does); it must then be [vocab_size, hidden_size] in the
/// config's dtype, and output_weight() says which tensor the logits use, as transformers 5 decides.
/// Rotary inv_freq buffers (names ending in rotary_emb.inv_freq, written by old exports) are ignored.
class Qwen3WeightManifest {
 public:
  /// @pre attention_bias is false [config.unsupported]: no Qwen3 release sets it, and the decoder
  ///      adds no projection biases; torch_dtype is bfloat16, float16 or float32 [config.value].
  explicit Qwen3WeightManifest(const Qwen3Config& config);

  [[nodiscard]] const Qwen3Config& config() const noexcept { return config_; }
  /// The dtype every tensor must have: the config's torch_dtype (BF16 for bfloat16).
  [[nodiscard]] Dtype dtype() const noexcept { return dtype_; }
  /// Every expected tensor: the embedding, layer by layer, the final norm, then lm_head unless tied.
  [[nodiscard]] const std::vector<ExpectedTensor>& tensors() const noexcept { return list_.tensors(); }
  /// The expected tensor called `name`, or nullptr.
  [[nodiscard]] const ExpectedTensor* find(std::string_view name) const noexcept { return list_.find(name); }
  /// The tensor names of each layer, index = layer.
  [[nodiscard]] const std::vector<Qwen3LayerTensors>& layers() const noexcept { return layers_; }
  /// Bytes of tensors(): the weights the decoder reads (with tied embeddings, no lm_head).
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return list_.total_bytes(); }

  /// The fused weights' shapes: QKV [(heads + 2 kv_heads) * head_dim, hidden], gate-up
  /// [2 * intermediate, hidden]; and their bytes in dtype().
  [[nodiscard]] std::array<std::int64_t, 2> qkv_shape() const noexcept;
  [[nodiscard]] std::array<std::int64_t, 2> gate_up_shape() const noexcept;
  [[nodiscard]] std::uint64_t qkv_bytes() const noexcept;
  [[nodiscard]] std::uint64_t gate_up_bytes() const noexcept;
  /// A Qwen3-MoE layer's experts as the grouped GEMMs read them: the interleaved gate-up weights
  /// one expert after another [num_experts, 2 * moe_intermediate, hidden], the down weights
  /// [num_experts, hidden, moe_intermediate]; their bytes in dtype(). @pre config().moe is set.
  [[nodiscard]] std::array<std::int64_t, 3> experts_gate_up_shape() const noexcept;
  [[nodiscard]] std::array<std::int64_t, 3> experts_down_shape() const noexcept;
  [[nodiscard]] std::uint64_t experts_gate_up_bytes() const noexcept;
  [[nodiscard]] std::uint64_t experts_down_bytes() const noexcept;

  /// Checks `checkpoint` against the manifest; the first problem found is thrown, naming the
  /// tensor, its file (shard) and the values.
  /// @pre every expected tensor is present [qwen3.tensor-missing]; each present expected tensor
  ///      (and a tied checkpoint's lm_head.weight) has the expected shape [qwen3.tensor-shape] and
  ///      dtype() [qwen3.tensor-dtype]; no other tensor is present except rotary inv_freq buffers
  ///      [qwen3.tensor-unexpected].
  void validate(const Checkpoint& checkpoint) const;

  /// The weight the logits are computed with (logits = h W^T, W [vocab, hidden]): lm_head.weight
  /// when untied. Tied: model.embed_tokens.weight, unless the checkpoint also holds an
  /// lm_head.weight with different bytes; transformers 5 (PreTrainedModel.tie_weights in
  /// from_pretrained) then warns and does not tie, so that lm_head.weight is returned.
  /// @pre validate(checkpoint) passed.
  [[nodiscard]] const TensorInfo& output_weight(const Checkpoint& checkpoint) const;

 private:
  Qwen3Config config_;
  Dtype dtype_{};
  TensorList list_;
  std::vector<Qwen3LayerTensors> layers_;
};

// ---- packing the fused weights (host, from the mapped checkpoint) ----

// PackPiece (models/common/manifest.hpp): one source tensor's place in a packed weight.

/// pack_qkv's layout as pieces (q, k, v), after the same checks; their bytes add up to the packed weight's.
std::array<PackPiece, 3> qkv_pieces(const TensorInfo& q, const TensorInfo& k, const TensorInfo& v);
/// pack_gate_up's layout as pieces (gate, up), after the same checks.
std::array<PackPiece, 2> gate_up_pieces(const TensorInfo& gate, const TensorInfo& up);

/// A MoE layer's experts' gate-up weights as pieces of one [E, 2F, C] buffer: expert e's
/// interleaved gate-up weight (gate_up_pieces) at e x its bytes. @pre the layer's expert tensors
/// are in `checkpoint` (Qwen3WeightManifest::validate passed) [qwen3.pack].
std::vector<PackPiece> experts_gate_up_pieces(const Checkpoint& checkpoint, const Qwen3LayerTensors& layer);
/// A MoE layer's experts' down weights [C, F] one after another, as pieces of one [E, C, F] buffer.
std::vector<PackPiece> experts_down_pieces(const Checkpoint& checkpoint, const Qwen3LayerTensors& layer);

/// The fused QKV weight: q's rows, then k's, then v's, so one GEMM x W^T gives [q | k | v] per token.
///   q [H*D, C], k and v [Hkv*D, C]  ->  out [(H + 2 Hkv) D, C]; out row H*D + i is k's row i.
/// @pre q, k, v are 2-D with one dtype and the same number of columns; out.size() is the sum of
///      their bytes [qwen3.pack].
void pack_qkv(const TensorInfo& q, const TensorInfo& k, const TensorInfo& v, std::span<std::byte> out);

/// The interleaved gate-up weight [2F, C]: blocks of 8 gate rows and 8 up rows alternate, so gate
/// row r is out row gated_gate_row(r) = r / 8 * 16 + r % 8 and up row r is out row
/// gated_up_row(r) = r / 8 * 16 + 8 + r % 8 (include/cute_cpp/epilogue/fusion.hpp), as
/// kernels/gemm/ffn.cuh's pack_gate_up lays it out on the device.
/// @pre gate and up are 2-D [F, C] with one dtype and shape, F a multiple of 8; out.size() is twice
///      gate's bytes [qwen3.pack].
void pack_gate_up(const TensorInfo& gate, const TensorInfo& up, std::span<std::byte> out);

}  // namespace cute_cpp::models
