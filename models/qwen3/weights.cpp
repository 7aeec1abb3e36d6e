// SPDX-License-Identifier: Apache-2.0
// models/qwen3/weights.cpp: the Qwen3 weight manifest, its checks against a checkpoint, and the
// host packing of the fused QKV and gate-up weights. Tensor names and shapes follow transformers'
// modeling_qwen3.py (Qwen3ForCausalLM, Qwen3Attention, Qwen3MLP, Qwen3RMSNorm).
#include "models/qwen3/weights.hpp"

#include <algorithm>  // std::min
#include <charconv>   // std::from_chars
#include <cstring>    // std::memcpy, std::memcmp

#include "models/common/config_reader.hpp"  // kRuleConfigUnsupported
#include "models/common/error.hpp"          // LoadError, in_quotes

namespace cute_cpp::models {

namespace {
constexpr char kRuleTensorMissing[] =
    "cute-cpp [qwen3.tensor-missing]: a Qwen3 checkpoint must hold every tensor its config implies";
constexpr char kRuleTensorShape[] =
    "cute-cpp [qwen3.tensor-shape]: a Qwen3 tensor must have the shape its config implies";
constexpr char kRuleTensorDtype[] =
    "cute-cpp [qwen3.tensor-dtype]: a Qwen3 tensor must have the config's dtype (torch_dtype)";
constexpr char kRuleTensorUnexpected[] =
    "cute-cpp [qwen3.tensor-unexpected]: a Qwen3 checkpoint may hold no tensor its config does not imply (rotary "
    "inv_freq buffers aside)";
constexpr char kRulePack[] =
    "cute-cpp [qwen3.pack]: the tensors packed into a fused weight must be 2-D with one dtype and the same columns "
    "(gate and up: the same shape, rows a multiple of 8), and the output must be exactly their size";
constexpr char kEmbed[] = "model.embed_tokens.weight";
constexpr char kFinalNorm[] = "model.norm.weight";
constexpr char kLmHead[] = "lm_head.weight";

// transformers registers inv_freq as a non-persistent buffer; exports from before that saved it.
bool is_rotary_buffer(std::string_view name) { return name.ends_with("rotary_emb.inv_freq"); }

/// A hint for a tensor the manifest does not expect, when its name says why.
std::string unexpected_hint(std::string_view name, const Qwen3Config& c) {
  constexpr std::string_view layers = "model.layers.";
  if (name.substr(0, layers.size()) == layers) {
    std::int64_t layer = -1;
    auto const digits = name.substr(layers.size());
    auto const [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), layer);
    if (ec == std::errc() && layer >= c.num_hidden_layers)
      return "; layer " + std::to_string(layer) + " is past num_hidden_layers (" + std::to_string(c.num_hidden_layers) +
             ")";
    std::string_view const rest(end, static_cast<std::size_t>(digits.data() + digits.size() - end));
    if (rest.find(".self_attn.") != std::string_view::npos && rest.ends_with(".bias"))
      return "; config.json has attention_bias false";
  }
  return "";
}

/// Rows and bytes per row of a 2-D tensor for the packers.
struct Rows {
  std::uint64_t rows = 0;
  std::uint64_t row_bytes = 0;
};
Rows rows_of(const TensorInfo& t, std::string_view what) {
  if (t.shape.size() != 2 || t.shape[0] <= 0 || t.shape[1] <= 0)
    throw LoadError(kRulePack, std::string(what) + ": tensor " + in_quotes(t.name) + " has shape " +
                                   shape_text(t.shape) + ", expected two positive extents");
  auto const rows = static_cast<std::uint64_t>(t.shape[0]);
  return {rows, t.bytes() / rows};
}

void check_out(std::span<std::byte> out, std::uint64_t expected, std::string_view what) {
  if (out.size() != expected)
    throw LoadError(kRulePack, std::string(what) + ": the output buffer holds " + std::to_string(out.size()) +
                                   " bytes, the packed weight " + std::to_string(expected));
}
}  // namespace

// ---- add_qwen3_layer ----

Qwen3LayerTensors add_qwen3_layer(TensorList& list, std::string const& p, const Qwen3Config& config,
                                  std::int64_t layer, Dtype dtype) {
  auto const hidden = config.hidden_size;
  auto const q_rows = config.num_attention_heads * config.head_dim;
  auto const kv_rows = config.num_key_value_heads * config.head_dim;
  auto const inter = config.intermediate_size;
  auto add = [&](std::string name, std::vector<std::int64_t> shape, std::string_view dims) {
    return list.add({std::move(name), std::move(shape), dims, dtype, std::nullopt, {}});
  };
  Qwen3LayerTensors l;
  l.input_layernorm = add(p + "input_layernorm.weight", {hidden}, "[hidden_size]");
  l.q_proj = add(p + "self_attn.q_proj.weight", {q_rows, hidden}, "[num_attention_heads * head_dim, hidden_size]");
  l.k_proj = add(p + "self_attn.k_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
  l.v_proj = add(p + "self_attn.v_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
  l.o_proj = add(p + "self_attn.o_proj.weight", {hidden, q_rows}, "[hidden_size, num_attention_heads * head_dim]");
  l.q_norm = add(p + "self_attn.q_norm.weight", {config.head_dim}, "[head_dim]");
  l.k_norm = add(p + "self_attn.k_norm.weight", {config.head_dim}, "[head_dim]");
  l.post_attention_layernorm = add(p + "post_attention_layernorm.weight", {hidden}, "[hidden_size]");
  if (config.moe && config.moe->sparse_layer(layer)) {
    auto const width = config.moe->moe_intermediate_size;
    l.router = add(p + "mlp.gate.weight", {config.moe->num_experts, hidden}, "[num_experts, hidden_size]");
    for (std::int64_t e = 0; e < config.moe->num_experts; ++e) {
      std::string const x = p + "mlp.experts." + std::to_string(e) + ".";
      Qwen3ExpertTensors t;
      t.gate_proj = add(x + "gate_proj.weight", {width, hidden}, "[moe_intermediate_size, hidden_size]");
      t.up_proj = add(x + "up_proj.weight", {width, hidden}, "[moe_intermediate_size, hidden_size]");
      t.down_proj = add(x + "down_proj.weight", {hidden, width}, "[hidden_size, moe_intermediate_size]");
      l.experts.push_back(std::move(t));
    }
  } else {
    l.gate_proj = add(p + "mlp.gate_proj.weight", {inter, hidden}, "[intermediate_size, hidden_size]");
    l.up_proj = add(p + "mlp.up_proj.weight", {inter, hidden}, "[intermediate_size, hidden_size]");
    l.down_proj = add(p + "mlp.down_proj.weight", {hidden, inter}, "[hidden_size, intermediate_size]");
  }
  return l;
}

// ---- Qwen3WeightManifest ----

Qwen3WeightManifest::Qwen3WeightManifest(const Qwen3Config& config)
    : config_(config), dtype_(dtype_of_torch_dtype(config.torch_dtype)) {
  // NOTE: transformers gives q/k/v/o_proj a bias when attention_bias is set; no Qwen3 release sets
  // it, and the fused QKV GEMM has no bias epilogue, so such a config is refused up front rather
  // than loaded with its biases dropped.
  if (config.attention_bias)
    throw LoadError(kRuleConfigUnsupported,
                    "config.json: \"attention_bias\" is true; the Qwen3 decoder has no attention projection biases");
  auto const hidden = config.hidden_size;
  auto add = [&](std::string name, std::vector<std::int64_t> shape, std::string_view dims) {
    return list_.add({std::move(name), std::move(shape), dims, dtype_, std::nullopt, {}});
  };
  add(kEmbed, {config.vocab_size, hidden}, "[vocab_size, hidden_size]");
  for (std::int64_t i = 0; i < config.num_hidden_layers; ++i)
    layers_.push_back(add_qwen3_layer(list_, "model.layers." + std::to_string(i) + ".", config, i, dtype_));
  add(kFinalNorm, {hidden}, "[hidden_size]");
  if (!config.tie_word_embeddings) add(kLmHead, {config.vocab_size, hidden}, "[vocab_size, hidden_size]");

  list_.index();
}

std::array<std::int64_t, 2> Qwen3WeightManifest::qkv_shape() const noexcept {
  return {(config_.num_attention_heads + 2 * config_.num_key_value_heads) * config_.head_dim, config_.hidden_size};
}
std::array<std::int64_t, 2> Qwen3WeightManifest::gate_up_shape() const noexcept {
  return {2 * config_.intermediate_size, config_.hidden_size};
}
std::array<std::int64_t, 3> Qwen3WeightManifest::experts_gate_up_shape() const noexcept {
  return {config_.moe->num_experts, 2 * config_.moe->moe_intermediate_size, config_.hidden_size};
}
std::array<std::int64_t, 3> Qwen3WeightManifest::experts_down_shape() const noexcept {
  return {config_.moe->num_experts, config_.hidden_size, config_.moe->moe_intermediate_size};
}
std::uint64_t Qwen3WeightManifest::experts_gate_up_bytes() const noexcept {
  return tensor_bytes(experts_gate_up_shape(), dtype_);
}
std::uint64_t Qwen3WeightManifest::experts_down_bytes() const noexcept {
  return tensor_bytes(experts_down_shape(), dtype_);
}
std::uint64_t Qwen3WeightManifest::qkv_bytes() const noexcept { return tensor_bytes(qkv_shape(), dtype_); }
std::uint64_t Qwen3WeightManifest::gate_up_bytes() const noexcept { return tensor_bytes(gate_up_shape(), dtype_); }

void Qwen3WeightManifest::validate(const Checkpoint& checkpoint) const {
  ManifestRules const rules{kRuleTensorMissing, kRuleTensorShape, kRuleTensorDtype};
  list_.check_present(checkpoint, rules, config_.torch_dtype);
  for (auto const* t : checkpoint.tensors()) {
    if (find(t->name) != nullptr || is_rotary_buffer(t->name)) continue;
    // A tied checkpoint's redundant lm_head.weight is allowed, checked as the untied one would be.
    if (config_.tie_word_embeddings && t->name == kLmHead) {
      check_tensor(checkpoint, *t,
                   {kLmHead, {config_.vocab_size, config_.hidden_size},
                    "[vocab_size, hidden_size] (tie_word_embeddings is true; a stored lm_head.weight must still have "
                    "model.embed_tokens.weight's shape)",
                    dtype_, std::nullopt, {}},
                   rules, config_.torch_dtype);
      continue;
    }
    throw LoadError(kRuleTensorUnexpected, file_of(checkpoint, *t) + ": tensor " + in_quotes(t->name) + " " +
                                               shape_text(t->shape) + " " + std::string(dtype_name(t->dtype)) +
                                               " is not a Qwen3 weight for this config (" +
                                               std::to_string(config_.num_hidden_layers) + " layers, " +
                                               (config_.tie_word_embeddings ? "tied" : "untied") + " embeddings)" +
                                               unexpected_hint(t->name, config_));
  }
}

const TensorInfo& Qwen3WeightManifest::output_weight(const Checkpoint& checkpoint) const {
  if (!config_.tie_word_embeddings) return checkpoint.at(kLmHead);
  auto const& embed = checkpoint.at(kEmbed);
  auto const* head = checkpoint.find(kLmHead);
  if (head == nullptr || head->shape != embed.shape || head->dtype != embed.dtype) return embed;
  // NOTE: transformers 5 compares the two with torch.equal; comparing bytes differs from it only
  // for NaNs and signed zeros.
  return std::memcmp(head->data, embed.data, embed.bytes()) == 0 ? embed : *head;
}

// ---- packing ----

std::array<PackPiece, 3> qkv_pieces(const TensorInfo& q, const TensorInfo& k, const TensorInfo& v) {
  constexpr std::string_view what = "pack_qkv";
  for (const TensorInfo* t : {&q, &k, &v}) (void)rows_of(*t, what);
  for (const TensorInfo* t : {&k, &v})
    if (t->dtype != q.dtype || t->shape[1] != q.shape[1])
      throw LoadError(kRulePack, std::string(what) + ": tensor " + in_quotes(t->name) + " is " +
                                     std::string(dtype_name(t->dtype)) + " " + shape_text(t->shape) + " but " +
                                     in_quotes(q.name) + " is " + std::string(dtype_name(q.dtype)) + " " +
                                     shape_text(q.shape) + "; the columns and dtype must agree");
  // Row-major [rows, C] tensors with equal C stack by rows: one contiguous piece each.
  auto const whole = [](const TensorInfo& t, std::uint64_t at) {
    return PackPiece{std::span<const std::byte>(t.data, t.bytes()), at, t.bytes(), t.bytes()};
  };
  return {whole(q, 0), whole(k, q.bytes()), whole(v, q.bytes() + k.bytes())};
}

std::array<PackPiece, 2> gate_up_pieces(const TensorInfo& gate, const TensorInfo& up) {
  constexpr std::string_view what = "pack_gate_up";
  auto const g = rows_of(gate, what);
  (void)rows_of(up, what);
  if (up.dtype != gate.dtype || up.shape != gate.shape)
    throw LoadError(kRulePack, std::string(what) + ": tensor " + in_quotes(up.name) + " is " +
                                   std::string(dtype_name(up.dtype)) + " " + shape_text(up.shape) + " but " +
                                   in_quotes(gate.name) + " is " + std::string(dtype_name(gate.dtype)) + " " +
                                   shape_text(gate.shape) + "; gate and up must agree");
  if (g.rows % 8 != 0)
    throw LoadError(kRulePack, std::string(what) + ": tensor " + in_quotes(gate.name) + " has " +
                                   std::to_string(g.rows) +
                                   " rows, not a multiple of 8 (the SwiGLU epilogue's interleave block)");
  std::uint64_t const block = 8 * g.row_bytes;  // 8 rows of one weight, then 8 of the other
  return {PackPiece{std::span<const std::byte>(gate.data, gate.bytes()), 0, block, 2 * block},
          PackPiece{std::span<const std::byte>(up.data, up.bytes()), block, block, 2 * block}};
}

std::vector<PackPiece> experts_gate_up_pieces(const Checkpoint& checkpoint, const Qwen3LayerTensors& layer) {
  std::vector<PackPiece> pieces;
  std::uint64_t offset = 0;
  for (Qwen3ExpertTensors const& e : layer.experts) {
    TensorInfo const& gate = checkpoint.at(e.gate_proj);
    for (PackPiece p : gate_up_pieces(gate, checkpoint.at(e.up_proj))) {
      p.dst_offset += offset;
      pieces.push_back(p);
    }
    offset += 2 * gate.bytes();
  }
  return pieces;
}

std::vector<PackPiece> experts_down_pieces(const Checkpoint& checkpoint, const Qwen3LayerTensors& layer) {
  std::vector<PackPiece> pieces;
  std::uint64_t offset = 0;
  for (Qwen3ExpertTensors const& e : layer.experts) {
    TensorInfo const& down = checkpoint.at(e.down_proj);
    auto const bytes = down.bytes();
    pieces.push_back(PackPiece{std::span<const std::byte>(down.data, bytes), offset, bytes, bytes});
    offset += bytes;
  }
  return pieces;
}

namespace {
/// Writes the pieces into the host buffer `out` of `expected` bytes.
void scatter(std::span<const PackPiece> pieces, std::span<std::byte> out, std::uint64_t expected,
             std::string_view what) {
  check_out(out, expected, what);
  for (PackPiece const& p : pieces)
    for (std::uint64_t b = 0; b * p.block < p.src.size(); ++b)
      std::memcpy(out.data() + p.dst_offset + b * p.dst_pitch, p.src.data() + b * p.block,
                  std::min<std::uint64_t>(p.block, p.src.size() - b * p.block));
}
}  // namespace

void pack_qkv(const TensorInfo& q, const TensorInfo& k, const TensorInfo& v, std::span<std::byte> out) {
  scatter(qkv_pieces(q, k, v), out, q.bytes() + k.bytes() + v.bytes(), "pack_qkv");
}

void pack_gate_up(const TensorInfo& gate, const TensorInfo& up, std::span<std::byte> out) {
  scatter(gate_up_pieces(gate, up), out, 2 * gate.bytes(), "pack_gate_up");
}

}  // namespace cute_cpp::models
