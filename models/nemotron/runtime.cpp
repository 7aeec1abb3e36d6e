// SPDX-License-Identifier: Apache-2.0
// models/nemotron/runtime.cpp: the GPU decoder's host-side rules, cache layout and step bytes
// (runtime.hpp).
#include "models/nemotron/runtime.hpp"

#include <algorithm>  // std::min, std::max
#include <cmath>      // std::pow
#include <string>     // std::string, std::to_string

#include "models/common/error.hpp"  // LoadError, in_quotes

namespace cute_cpp::models {

namespace {

constexpr const char* kRuleDtype = "cute-cpp [nemotron.dtype]: the GPU decoder runs bfloat16 checkpoints";
constexpr const char* kRuleShape =
    "cute-cpp [nemotron.shape]: hidden_size and a dense MLP's intermediate_size are multiples of 8 (the GEMMs' "
    "16-byte rows)";
constexpr const char* kRuleMamba =
    "cute-cpp [nemotron.mamba]: the Mamba-2 kernels are compiled for mamba_head_dim 64, ssm_state_size 128 and "
    "conv_kernel 4, and in_proj's rows need mamba_num_heads a multiple of 8";
constexpr const char* kRuleAttention = "cute-cpp [nemotron.attention]: the attention kernels take head_dim 64, 128 or 256";
constexpr const char* kRuleMoe =
    "cute-cpp [nemotron.moe]: the MoE block takes at most 256 experts (a multiple of 4), a top-k of at most 16, expert "
    "and shared-expert widths that are multiples of 8, and n_group at most 32";
constexpr const char* kRuleOptions =
    "cute-cpp [nemotron.options]: max_batch, max_seq, max_prefill_tokens and page_size are positive, max_seq at most "
    "max_position_embeddings, page_size a multiple of 128 (the paged prefill attention's key tile), num_pages >= 0";

std::string num(std::int64_t v) { return std::to_string(v); }

}  // namespace

void check_nemotron_support(const NemotronHConfig& c) {
  if (c.torch_dtype != "bfloat16") throw LoadError(kRuleDtype, "config.json: torch_dtype is " + in_quotes(c.torch_dtype));
  if (c.hidden_size % 8 != 0 || (c.has(NemotronHLayerKind::mlp) && c.intermediate_size % 8 != 0))
    throw LoadError(kRuleShape, "config.json: hidden_size " + num(c.hidden_size) + ", intermediate_size " +
                                    num(c.intermediate_size));
  if (c.has(NemotronHLayerKind::mamba)) {
    auto const& m = c.mamba;
    if (m.head_dim != kNemotronMambaHeadDim || m.ssm_state_size != kNemotronSsmState ||
        m.conv_kernel != kNemotronConvKernel || m.num_heads % 8 != 0)
      throw LoadError(kRuleMamba, "config.json: mamba_head_dim " + num(m.head_dim) + ", ssm_state_size " +
                                      num(m.ssm_state_size) + ", conv_kernel " + num(m.conv_kernel) +
                                      ", mamba_num_heads " + num(m.num_heads));
  }
  if (c.has(NemotronHLayerKind::attention) && c.head_dim != 64 && c.head_dim != 128 && c.head_dim != 256)
    throw LoadError(kRuleAttention, "config.json: head_dim " + num(c.head_dim));
  if (c.has(NemotronHLayerKind::moe)) {
    auto const& e = c.moe;
    if (e.n_routed_experts > 256 || e.n_routed_experts % 4 != 0 || e.num_experts_per_tok > 16 ||
        e.moe_intermediate_size % 8 != 0 || e.moe_shared_expert_intermediate_size % 8 != 0 || e.n_group > 32)
      throw LoadError(kRuleMoe, "config.json: n_routed_experts " + num(e.n_routed_experts) + ", num_experts_per_tok " +
                                    num(e.num_experts_per_tok) + ", moe_intermediate_size " +
                                    num(e.moe_intermediate_size) + ", moe_shared_expert_intermediate_size " +
                                    num(e.moe_shared_expert_intermediate_size) + ", n_group " + num(e.n_group));
  }
}

NemotronOptions resolve_options(const NemotronHConfig& c, NemotronOptions o) {
  std::int64_t const positions = std::min<std::int64_t>(c.max_position_embeddings, std::int64_t(1) << 30);
  if (o.max_seq == 0) o.max_seq = int(positions);
  if (o.max_batch <= 0 || o.max_seq <= 0 || o.max_prefill_tokens <= 0 || o.page_size <= 0 || o.page_size % 128 != 0 ||
      o.max_seq > positions || o.num_pages < 0)
    throw LoadError(kRuleOptions, "max_batch " + num(o.max_batch) + ", max_seq " + num(o.max_seq) +
                                      " (max_position_embeddings " + num(c.max_position_embeddings) +
                                      "), max_prefill_tokens " + num(o.max_prefill_tokens) + ", page_size " +
                                      num(o.page_size) + ", num_pages " + num(o.num_pages));
  if (o.num_pages == 0) o.num_pages = (o.max_seq + o.page_size - 1) / o.page_size * o.max_batch;
  return o;
}

void check_prompts(const NemotronHConfig& c, int max_seq, std::span<const std::vector<std::int32_t>> prompts,
                   int max_new_tokens) {
  std::int64_t const limit =
      max_seq > 0 ? std::min<std::int64_t>(max_seq, c.max_position_embeddings) : c.max_position_embeddings;
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    auto const& p = prompts[i];
    if (p.empty()) throw LoadError(kNemotronInputRule, "prompt " + num(std::int64_t(i)) + " is empty");
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (p[j] < 0 || p[j] >= c.vocab_size)
        throw LoadError(kNemotronInputRule, "prompt " + num(std::int64_t(i)) + ": id " + num(p[j]) + " at position " +
                                                num(std::int64_t(j)) + " is outside [0, " + num(c.vocab_size) + ")");
    }
    std::int64_t const need = std::int64_t(p.size()) + std::max(max_new_tokens, 0);
    if (need > limit)
      throw LoadError(kNemotronInputRule, "prompt " + num(std::int64_t(i)) + ": " + num(std::int64_t(p.size())) +
                                              " tokens and " + num(std::max(max_new_tokens, 0)) +
                                              " new ones exceed the sequence limit " + num(limit) + " (max_seq " +
                                              num(max_seq) + ", max_position_embeddings " +
                                              num(c.max_position_embeddings) + ")");
  }
}

NemotronCacheLayout::NemotronCacheLayout(const NemotronHConfig& c) {
  for (NemotronHLayerKind const kind : c.layers) {
    mamba_.push_back(kind == NemotronHLayerKind::mamba ? mamba_layers_++ : -1);
    attention_.push_back(kind == NemotronHLayerKind::attention ? attention_layers_++ : -1);
  }
  if (mamba_layers_ > 0) {
    conv_elems_ = (c.mamba.conv_kernel - 1) * c.mamba.conv_dim();
    ssm_elems_ = c.mamba.num_heads * c.mamba.head_dim * c.mamba.ssm_state_size;
  }
  if (attention_layers_ > 0) kv_token_elems_ = c.num_key_value_heads * c.head_dim;
}

std::uint64_t NemotronCacheLayout::state_bytes(int slots) const noexcept {
  return std::uint64_t(mamba_layers_) * std::uint64_t(slots) *
         (std::uint64_t(conv_elems_) * 2 + std::uint64_t(ssm_elems_) * 4);
}

std::uint64_t NemotronCacheLayout::kv_bytes(int pages, int page_size) const noexcept {
  return std::uint64_t(attention_layers_) * 2 * std::uint64_t(pages) * std::uint64_t(page_size) *
         std::uint64_t(kv_token_elems_) * 2;
}

NemotronStepBytes decode_step_bytes(const NemotronHConfig& c, int batch, int context) {
  double const h = double(c.hidden_size), b = double(batch);
  NemotronStepBytes s;
  // The embedding's rows of the batch, the final norm, and the LM head read whole.
  s.weights = b * h * 2 + h * 2 + double(c.vocab_size) * h * 2;
  NemotronCacheLayout const layout(c);
  for (NemotronHLayerKind const kind : c.layers) {
    s.weights += h * 2;  // the layer's norm
    switch (kind) {
      case NemotronHLayerKind::mamba: {
        auto const& m = c.mamba;
        double const inner = double(m.intermediate_size()), conv = double(m.conv_dim());
        s.weights += double(m.in_proj_size()) * h * 2 + conv * double(m.conv_kernel) * 2 +
                     (m.use_conv_bias ? conv * 2 : 0) + 3 * double(m.num_heads) * 4 + inner * 2 + h * inner * 2;
        s.states += 2 * b * (double(layout.conv_state_elems()) * 2 + double(layout.ssm_state_elems()) * 4);
        break;
      }
      case NemotronHLayerKind::attention: {
        double const q = double(c.num_attention_heads * c.head_dim), kv = double(c.num_key_value_heads * c.head_dim);
        s.weights += (q + 2 * kv) * h * 2 + h * q * 2;
        s.kv += b * double(context) * 2 * kv * 2;
        break;
      }
      case NemotronHLayerKind::moe: {
        auto const& e = c.moe;
        double const experts = double(e.n_routed_experts), k = double(e.num_experts_per_tok);
        double const chosen = experts * (1 - std::pow(1 - k / experts, b));
        s.weights += experts * h * 2 + experts * 4 + 2 * double(e.moe_shared_expert_intermediate_size) * h * 2 +
                     chosen * 2 * double(e.moe_intermediate_size) * h * 2;
        break;
      }
      case NemotronHLayerKind::mlp: s.weights += 2 * double(c.intermediate_size) * h * 2; break;
    }
  }
  return s;
}

}  // namespace cute_cpp::models
