// SPDX-License-Identifier: Apache-2.0
// models/qwen3/model_sm90.cu: the Qwen3 decoder's forward passes on the library's kernels. Per layer:
//   h = rmsnorm(x + delta)                 kernels/rows/rmsnorm.cuh (the residual add fused; x keeps the sum)
//   qkv = h Wqkv^T                          kernels/gemm (bf16 TN dispatch)
//   q, k = rope(rmsnorm_head(q, k))         layer_kernels.cuh, in place in qkv
//   K/V cache <- k, v                       prefill: kernels/attention/decode's run_kv_append (paged);
//                                           decode: the rope kernel above, in the same launch
//   a = attention(q, k, v)                  prefill: kernels/attention/prefill varlen on qkv; decode: paged decode
//   delta = a Wo^T                          kernels/gemm
//   h = rmsnorm(x + delta); delta = ffn(h)  rmsnorm, then kernels/gemm/ffn.cuh (gate-up GEMM with the
//                                           SwiGLU epilogue, down GEMM)
// and after the last layer rmsnorm(x + delta) and the LM head GEMM for the rows asked.
// This file: the set-up (options, shapes, weights, the KV cache) and the loaders. The class:
// model_impl.hpp; the pass over the layers above: model_forward_sm90.cu; the decode steps' graphs:
// model_decode_sm90.cu; a tensor-parallel rank's set-up and LM head: model_rank_sm90.cu.
#include "models/qwen3/model_impl.hpp"

#include <cute_cpp/kernels/moe/moe_shape.hpp>  // max_experts, max_top_k
#include "models/common/error.hpp"
#include "models/common/linear.cuh"  // linear_tn
#include "models/common/rope.hpp"
#include "models/qwen3/dense_ffn.cuh"  // kSkinnyFfnRows
#include "models/qwen3/weights.hpp"

#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::models {

namespace qwen3_detail {

namespace {

using host::cuda_check;

constexpr const char* kRuleDtype = "cute-cpp [qwen3.dtype]: the GPU decoder runs bfloat16 checkpoints";
constexpr const char* kRuleHeadDim = "cute-cpp [qwen3.head-dim]: the attention kernels take head_dim 64, 128 or 256";
constexpr const char* kRuleMoe =
    "cute-cpp [qwen3.moe]: the MoE block takes at most 256 experts, a top-k of at most 16 and an expert width "
    "that is a multiple of 8";
constexpr const char* kRuleOptions =
    "cute-cpp [qwen3.options]: max_batch, max_seq, max_prefill_tokens and page_size are positive, max_seq at most "
    "the config's positions (max_position_embeddings, or YaRN's if longer), page_size a multiple of 16";

}  // namespace

Model::Model(const std::filesystem::path& folder, Qwen3Options options, std::optional<std::uint64_t> random_seed,
             std::optional<Qwen3Rank> rank)
    : config_(read_qwen3_config(folder)),
      options_(options),
      pages_([&] {
        Qwen3Config const& c = config_;
        if (options_.max_seq == 0) options_.max_seq = int(std::min<std::int64_t>(c.max_positions(), 1 << 30));
        if (options_.max_batch <= 0 || options_.max_seq <= 0 || options_.max_prefill_tokens <= 0 ||
            options_.page_size <= 0 || options_.page_size % 16 != 0 || options_.max_seq > c.max_positions())
          throw LoadError(kRuleOptions, "max_batch " + std::to_string(options_.max_batch) + ", max_seq " +
                                            std::to_string(options_.max_seq) + " (" + positions_text(c) +
                                            "), max_prefill_tokens " +
                                            std::to_string(options_.max_prefill_tokens) + ", page_size " +
                                            std::to_string(options_.page_size));
        int const per_seq = (options_.max_seq + options_.page_size - 1) / options_.page_size;
        if (options_.num_pages == 0) options_.num_pages = per_seq * options_.max_batch;
        return KvPages::Shape{options_.num_pages, options_.page_size, per_seq, options_.max_batch};
      }()) {
  if (config_.torch_dtype != "bfloat16")
    throw LoadError(kRuleDtype, "config.json: torch_dtype is " + in_quotes(config_.torch_dtype));
  if (config_.head_dim != 64 && config_.head_dim != 128 && config_.head_dim != 256)
    throw LoadError(kRuleHeadDim, "config.json: head_dim is " + std::to_string(config_.head_dim));
  heads_ = int(config_.num_attention_heads);
  kv_heads_ = int(config_.num_key_value_heads);
  head_dim_ = int(config_.head_dim);
  hidden_ = int(config_.hidden_size);
  ffn_ = int(config_.intermediate_size);
  vocab_rows_ = config_.vocab_size;
  if (rank) setup_rank(*rank);
  logits_layout_ = row_major_logits(config_.vocab_size);
  qkv_width_ = (heads_ + 2 * kv_heads_) * head_dim_;
  if (hidden_ % 8 != 0 || ffn_ % 8 != 0)
    throw LoadError(kRuleOptions, "hidden_size " + std::to_string(hidden_) + " and intermediate_size " +
                                      std::to_string(ffn_) + " must be multiples of 8 (the GEMMs' 16-byte rows)");
  if (options_.routing_stats) options_.cuda_graphs = false;  // the statistics read the device each layer
  if (config_.moe) {
    // The MoE block's limits (kernels/moe: moe.shape), before any weight is read.
    kn::moe::MoeShape const s = moe_shape(1);
    if (s.experts > kn::moe::max_experts || s.top_k > kn::moe::max_top_k || s.ffn % 8 != 0)
      throw LoadError(kRuleMoe, "config.json: num_experts " + std::to_string(s.experts) + " (at most " +
                                    std::to_string(kn::moe::max_experts) + "), num_experts_per_tok " +
                                    std::to_string(s.top_k) + " (at most " + std::to_string(kn::moe::max_top_k) +
                                    "), moe_intermediate_size " + std::to_string(s.ffn) + " (a multiple of 8)");
  }

  Qwen3WeightManifest const manifest(config_);
  if (plan_) {
    weights_ = random_seed ? random_weights(manifest, *random_seed, *plan_)
                           : checkpoint_weights(folder, manifest, *plan_);
    weight_bytes_ = plan_->total_bytes();
  } else {
    weights_ = random_seed ? random_weights(manifest, *random_seed) : checkpoint_weights(folder, manifest);
    weight_bytes_ = manifest.total_bytes();
  }
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");

  // RoPE's inverse frequencies and cos/sin scale as transformers computes them (float32): plain or YaRN.
  RopeFrequencies const rope = rope_frequencies(config_);
  inv_freq_ = DeviceBuffer<float>(rope.inv_freq.size());
  inv_freq_.upload(std::span<const float>(rope.inv_freq));
  cos_sin_scale_ = rope.cos_sin_scale;

  scratch_page_ = options_.num_pages;
  layer_cache_elems_ = std::int64_t(options_.num_pages + 1) * options_.page_size * kv_heads_ * head_dim_;
  std::size_t const cache = std::size_t(layer_cache_elems_) * weights_.layers.size();
  k_cache_ = DeviceBuffer<bf16>(cache);
  v_cache_ = DeviceBuffer<bf16>(cache);
  block_table_ = DeviceBuffer<std::int32_t>(std::size_t(options_.max_batch) * pages_.shape().max_pages_per_seq);
  seqlens_ = DeviceBuffer<std::int32_t>(std::size_t(options_.max_batch));
  cu_seqlens_ = DeviceBuffer<std::int32_t>(std::size_t(options_.max_batch) + 1);
  gemm_workspace_.moves = decode_workspace_.moves = moe_workspace_.moves = &buffer_moves_;
  last_rows_ = DeviceBuffer<std::int32_t>(std::size_t(options_.max_batch));
  if (options_.fused_steps) setup_fused_step();
}

/// fused_: the layers' weights and cache, RoPE and the cache's geometry, where the fused step takes a
/// dense model on one device; else a note that decode steps stay layered.
void Model::setup_fused_step() {
  FusedStepShape shape{int(weights_.layers.size()), hidden_, heads_, kv_heads_, head_dim_, ffn_};
  if (config_.moe) {
    shape.experts = int(config_.moe->num_experts), shape.top_k = int(config_.moe->num_experts_per_tok);
    shape.expert_ffn = int(config_.moe->moe_intermediate_size), shape.renormalize = config_.moe->norm_topk_prob;
  }
  std::string const why = plan_                   ? "one GPU (not tensor parallel)"
                          : options_.routing_stats ? "no --routing-stats (its counts come from the layered MoE)"
                                                   : FusedStep::refusal(shape);
  if (!why.empty()) {
    std::fprintf(stderr, "cute-cpp-qwen3: --fused-steps: the fused step needs %s; decode steps stay layered\n",
                 why.c_str());
    return;
  }
  QkNormRopeParams rope;
  rope.heads_q = heads_, rope.heads_kv = kv_heads_;
  rope.eps = float(config_.rms_norm_eps);
  rope.inv_freq = inv_freq_.data();
  rope.cos_sin_scale = cos_sin_scale_;
  rope.cache.max_pages_per_seq = pages_.shape().max_pages_per_seq;
  rope.cache.page_size = options_.page_size;
  rope.cache.num_pages = options_.num_pages + 1;  // and the scratch page
  fused_.emplace(shape, fused_layers(weights_.layers, k_cache_.data(), v_cache_.data(), layer_cache_elems_), rope,
                 float(config_.rms_norm_eps));
}

void Model::grow_activations(std::int64_t tokens) {
  if (tokens <= capacity_) return;
  ++buffer_moves_;
  // Round up, so that a batch growing a token at a time does not reallocate every step.
  capacity_ = std::max<std::int64_t>(tokens, std::max<std::int64_t>(64, capacity_ * 2));
  auto const n = [&](std::int64_t width) { return std::size_t(capacity_ * width); };
  residual_.buffer[0] = DeviceBuffer<bf16>(n(hidden_));
  residual_.buffer[1] = DeviceBuffer<bf16>(n(hidden_));
  delta_ = DeviceBuffer<bf16>(n(hidden_));
  normed_ = DeviceBuffer<bf16>(n(hidden_));
  qkv_ = DeviceBuffer<bf16>(n(qkv_width_));
  attn_ = DeviceBuffer<bf16>(n(std::int64_t(heads_) * head_dim_));
  ffn_hidden_ = DeviceBuffer<bf16>(n(ffn_));
  gate_up_ = DeviceBuffer<bf16>(std::size_t(std::min<std::int64_t>(capacity_, kSkinnyFfnRows)) * 2 * std::size_t(ffn_));
  ids_ = DeviceBuffer<std::int32_t>(std::size_t(capacity_));
  positions_ = DeviceBuffer<std::int32_t>(std::size_t(capacity_));
}

void Model::check_ids(std::span<const std::int32_t> ids) const {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= config_.vocab_size)
      throw LoadError(kQwen3InputRule, "id " + std::to_string(ids[i]) + " at position " + std::to_string(i) +
                                      " is outside [0, " + std::to_string(config_.vocab_size) + ")");
  }
}

void Model::linear(bf16 const* in, bf16 const* weight, bf16* out, std::int64_t m, std::int64_t n, std::int64_t k) {
  linear_tn(in, weight, out, m, n, k, gemm_workspace_, stream_, early_weights());
}

}  // namespace qwen3_detail

using qwen3_detail::Model;

std::unique_ptr<Qwen3Model> Qwen3Model::load(const std::filesystem::path& folder, Qwen3Options options) {
  return std::make_unique<Model>(folder, options, std::nullopt);
}

std::unique_ptr<Qwen3Model> Qwen3Model::load_rank(const std::filesystem::path& folder, Qwen3Options options,
                                                  std::optional<std::uint64_t> random_seed, Qwen3Rank rank) {
  if (rank.collectives == nullptr || rank.collectives->ranks() != rank.ranks)
    throw std::logic_error("cute-cpp: Qwen3Model::load_rank needs the collectives of its ranks");
  return std::make_unique<Model>(folder, options, random_seed, rank);
}

std::unique_ptr<Qwen3Model> Qwen3Model::with_random_weights(const std::filesystem::path& folder, std::uint64_t seed,
                                                            Qwen3Options options) {
  return std::make_unique<Model>(folder, options, seed);
}

}  // namespace cute_cpp::models
