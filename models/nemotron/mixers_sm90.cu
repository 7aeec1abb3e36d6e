// SPDX-License-Identifier: Apache-2.0
// models/nemotron/mixers_sm90.cu: each Nemotron-H layer kind's mixer on the library's kernels, from
// normed_ (rmsnorm(h)) to delta_ (what the next norm adds to h):
//   Mamba-2    zxbcdt = h Win^T (rows z | x B C | dt, read in place through row strides); x B C =
//              silu(conv1d) (kernels/ssm: prefill from each sequence's conv state, or the decode
//              update); y = the SSD scan (prefill) or the selective state update (decode), f32
//              states in each sequence's slot, dt clamped below at time_step_min as transformers'
//              torch path; gated RMSNorm of y by silu(z) per group; delta = out_proj.
//   attention  qkv = h Wqkv^T; K, V into the paged cache; no positional encoding (NemotronHAttention
//              applies none); new prompts: varlen attention on qkv; extend: varlen queries against
//              the paged cache (the cached keys first); decode: paged decode attention; delta = o_proj.
//   MoE        kernels/moe's block: f32 sigmoid router with the correction bias, ReLU^2 experts, the
//              shared expert, the scaled weighted sum.
//   MLP        delta = down(relu(up h)^2).
#include "models/nemotron/model_impl.hpp"

#include "models/common/linear.cuh"           // linear_tn
#include "models/common/paged_kv_layer.hpp"   // PagedKvLayer
#include "models/nemotron/layer_kernels.cuh"  // relu2_in_place

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/moe/moe.cuh>
#include <cute_cpp/kernels/ssm/ssm.cuh>

#include <cmath>
#include <limits>

namespace cute_cpp::models::nemotron_detail {

namespace kn = cute_cpp::kernels;

void Model::linear(bf16 const* in, bf16 const* weight, bf16* out, std::int64_t m, std::int64_t n, std::int64_t k) {
  // The weight's first loads may start before the kernel ahead ends (PDL graphs): no kernel of a
  // step writes a weight.
  linear_tn(in, weight, out, m, n, k, gemm_workspace_, stream_, kn::IndependentOperand::B);
}

void Model::input_projection(NemotronLayerWeights const& w, bool fold, bf16 const* weight, bf16* out, std::int64_t t,
                             std::int64_t n) {
  if (fold)
    normed_linear_tn(residual_.normed_rows(delta_.data(), w.norm.data(), float(config_.layer_norm_epsilon)), weight,
                     out, t, n, hidden_, stream_, kn::IndependentOperand::B);
  else
    linear(normed_.data(), weight, out, t, n, hidden_);
}

void Model::mamba(Batch const& batch, NemotronLayerWeights const& w, int index, bool fold_norm) {
  auto const& m = config_.mamba;
  int const t = int(batch.tokens), heads = int(m.num_heads), groups = int(m.n_groups);
  std::int64_t const gn = m.n_groups * m.ssm_state_size;
  bf16* const conv_states = conv_states_.data() + std::int64_t(index) * options_.max_batch * layout_.conv_state_elems();
  float* const ssm_states = ssm_states_.data() + std::int64_t(index) * options_.max_batch * layout_.ssm_state_elems();
  input_projection(w, fold_norm, w.in_proj.data(), zxbcdt_.data(), t, in_proj_width_);
  mark("mamba in_proj");
  bf16 const* const z = zxbcdt_.data();
  bf16 const* const xbc_in = z + inner_;
  bf16 const* const dt = xbc_in + conv_dim_;
  bf16 const* const bias = w.conv_bias.size() != 0 ? w.conv_bias.data() : nullptr;
  // x, B and C after the convolution, in place in xbc_ (T, conv_dim).
  bf16 const* const x = xbc_.data();
  bf16 const* const B = x + inner_;
  bf16 const* const C = B + gn;
  float const dt_lo = float(m.time_step_min), dt_hi = std::numeric_limits<float>::infinity();
  if (batch.kind == Batch::Kind::decode) {
    kn::ConvUpdateArguments<bf16> c;
    c.x = xbc_in, c.x_stride = in_proj_width_, c.weight = w.conv_weight.data(), c.bias = bias, c.y = xbc_.data();
    c.states = conv_states, c.state_slots = state_slots_.data(), c.channels = int(conv_dim_), c.batch = t;
    kn::run_causal_conv1d_update<kn::NemotronConvPlan>(c, stream_);
    kn::StateUpdateArguments<bf16> s;
    s.x = x, s.x_stride = conv_dim_, s.dt = dt, s.dt_stride = in_proj_width_, s.B = B, s.C = C, s.bc_stride = conv_dim_;
    s.dt_bias = w.dt_bias.data(), s.A_log = w.A_log.data(), s.D = w.D.data();
    s.states = ssm_states, s.state_slots = state_slots_.data(), s.y = y_.data();
    s.heads = heads, s.groups = groups, s.batch = t, s.dt_lo = dt_lo, s.dt_hi = dt_hi;
    kn::run_selective_state_update<kn::NemotronSsdPlan>(s, stream_);
  } else {
    // Fresh sequences start from the zeroed states of their slots (prefill zeroes them), continued
    // ones from what their last pass left: the states are updated in place either way.
    kn::ConvPrefillArguments<bf16> c;
    c.x = xbc_in, c.x_stride = in_proj_width_, c.weight = w.conv_weight.data(), c.bias = bias, c.y = xbc_.data();
    c.channels = int(conv_dim_), c.total_tokens = t, c.num_seqs = batch.sequences;
    c.cu_seqlens = cu_seqlens_.data(), c.cu_seqlens_host = h_cu_seqlens_.data();
    c.initial_states = conv_states, c.final_states = conv_states, c.state_slots = state_slots_.data();
    kn::run_causal_conv1d_prefill<kn::NemotronConvPlan>(c, stream_);
    kn::SsdPrefillArguments<bf16> s;
    s.x = x, s.x_stride = conv_dim_, s.dt = dt, s.dt_stride = in_proj_width_, s.B = B, s.C = C, s.bc_stride = conv_dim_;
    s.dt_bias = w.dt_bias.data(), s.A_log = w.A_log.data(), s.D = w.D.data(), s.y = y_.data();
    s.heads = heads, s.groups = groups, s.total_tokens = t, s.num_seqs = batch.sequences;
    s.cu_seqlens = cu_seqlens_.data(), s.cu_seqlens_host = h_cu_seqlens_.data();
    s.initial_states = ssm_states, s.final_states = ssm_states, s.state_slots = state_slots_.data();
    s.dt_lo = dt_lo, s.dt_hi = dt_hi;
    s.workspace_bytes = kn::ssd_workspace<kn::NemotronSsdPlan>(t, batch.sequences, heads, groups).bytes;
    s.workspace = ssd_workspace_.ensure(s.workspace_bytes, stream_);  // cudaMalloc's: 256-byte aligned
    kn::run_ssd_prefill<kn::NemotronSsdPlan>(s, stream_);
  }
  mark("mamba conv + ssm");
  kn::GatedRmsNormArguments<bf16> g;
  g.y = y_.data(), g.y_stride = inner_, g.z = z, g.z_stride = in_proj_width_, g.weight = w.gated_norm.data();
  g.out = gated_.data(), g.tokens = t, g.width = int(inner_), g.groups = groups, g.eps = float(config_.layer_norm_epsilon);
  kn::run_gated_rmsnorm(g, stream_);
  mark("mamba gated norm");
  linear(gated_.data(), w.out_proj.data(), delta_.data(), t, hidden_, inner_);
  mark("mamba out_proj");
}

void Model::attention(Batch const& batch, NemotronLayerWeights const& w, int index, bool fold_norm) {
  int const heads = int(config_.num_attention_heads), kv_heads = int(config_.num_key_value_heads);
  int const head_dim = int(config_.head_dim);
  std::int64_t const t = batch.tokens;
  input_projection(w, fold_norm, w.qkv.data(), qkv_.data(), t, qkv_width_);
  mark("attention qkv");
  bf16* const q = qkv_.data();
  bf16* const k = q + attn_width_;
  bf16* const v = k + std::int64_t(kv_heads) * head_dim;
  int const max_pages = pages_.shape().max_pages_per_seq;
  PagedKvLayer const cache{k_cache_.data() + index * layer_cache_elems_, v_cache_.data() + index * layer_cache_elems_,
                           kv_heads, head_dim, options_.page_size, max_pages, options_.num_pages + 1};
  kn::KvAppendArguments<bf16> append = cache.append(qkv_width_);
  if (batch.kind == Batch::Kind::decode) {
    // One token a row: one append for the whole (padded) batch, then paged decode attention.
    append.k_new = k, append.v_new = v, append.batch = int(t), append.q_tokens = 1;
    append.seqlens_k = seqlens_.data(), append.block_table = block_table_.data();
    kn::run_kv_append(append, stream_);
    kn::DecodeArguments<bf16> a = cache.decode(q, qkv_width_, attn_.data(), heads, batch.sequences, seqlens_.data(),
                                               batch.max_len, block_table_.data());
    if (!batch.graph) a.seqlens_k_host = h_seqlens_.data(), a.block_table_host = h_block_table_.data();
    a.workspace_bytes = kn::decode_workspace_bytes(a);
    a.workspace = decode_workspace_.ensure(a.workspace_bytes, stream_);
    kn::run_decode_attention(a, stream_);
  } else {
    // Each sequence's new keys go to its pages (its own token count, so one append each).
    for (int b = 0; b < batch.sequences; ++b) {
      std::int64_t const first = h_cu_seqlens_[std::size_t(b)];
      append.k_new = k + first * qkv_width_, append.v_new = v + first * qkv_width_;
      append.batch = 1, append.q_tokens = h_cu_seqlens_[std::size_t(b) + 1] - h_cu_seqlens_[std::size_t(b)];
      append.seqlens_k = seqlens_.data() + b;
      append.block_table = block_table_.data() + std::int64_t(b) * max_pages;
      kn::run_kv_append(append, stream_);
    }
    kn::FmhaArguments<bf16> a;
    a.q = q, a.o = attn_.data();
    a.q_stride = {0, qkv_width_, head_dim}, a.o_stride = {0, attn_width_, head_dim};
    a.batch = batch.sequences, a.heads_q = heads, a.heads_kv = kv_heads;
    a.head_dim = a.head_dim_v = head_dim, a.causal = true;
    a.cu_seqlens_q = cu_seqlens_.data(), a.cu_seqlens_q_host = h_cu_seqlens_.data(), a.total_q = t;
    int longest_new = 0;
    for (int b = 0; b < batch.sequences; ++b)
      longest_new = std::max(longest_new, h_cu_seqlens_[std::size_t(b) + 1] - h_cu_seqlens_[std::size_t(b)]);
    a.seq_q = longest_new;
    if (batch.kind == Batch::Kind::fresh) {
      // New prompts attend to their own tokens only: varlen attention on the QKV activation.
      a.k = k, a.v = v, a.k_stride = a.v_stride = {0, qkv_width_, head_dim};
      a.seq_k = longest_new, a.cu_seqlens_k = cu_seqlens_.data(), a.cu_seqlens_k_host = h_cu_seqlens_.data();
      a.total_k = t;
    } else {
      // Continued sequences: their queries against the paged cache, the cached keys before the new
      // ones (causal, bottom-right aligned per sequence).
      a.k = cache.k, a.v = cache.v, a.k_stride = a.v_stride = cache.stride();
      a.seq_k = batch.max_len;
      a.block_table = block_table_.data(), a.seqlens_k = seqlens_.data();
      a.page_size = cache.page_size, a.max_pages_per_seq = max_pages, a.num_pages = cache.num_pages;
      a.block_table_host = h_block_table_.data(), a.seqlens_k_host = h_seqlens_.data();
    }
    kn::run_attention(a, stream_);
  }
  mark("attention kv + core");
  linear(attn_.data(), w.o.data(), delta_.data(), t, hidden_, attn_width_);
  mark("attention o");
}

void Model::moe(Batch const& batch, NemotronLayerWeights const& w, bool fold_norm) {
  auto const& e = config_.moe;
  kn::moe::MoeShape s;
  s.tokens = batch.tokens, s.hidden = hidden_, s.ffn = e.moe_intermediate_size;
  s.experts = int(e.n_routed_experts), s.top_k = int(e.num_experts_per_tok), s.renormalize = e.norm_topk_prob;
  s.routing = kn::moe::MoeRouting::sigmoid, s.activation = kn::moe::MoeActivation::relu2;
  s.routed_scaling = float(e.routed_scaling_factor);
  s.groups = int(e.n_group), s.top_groups = int(e.topk_group);
  s.shared_ffn = e.moe_shared_expert_intermediate_size;
  kn::moe::MoeWeights weights;
  weights.router = w.router.data(), weights.up = w.experts_up.data(), weights.down = w.experts_down.data();
  weights.correction_bias = w.correction_bias.data();
  weights.shared_up = w.shared_up.data(), weights.shared_down = w.shared_down.data();
  void* const scratch = moe_workspace_.ensure(kn::moe::moe_scratch_bytes(s), stream_);
  auto const marks = [this](char const* name) { mark(name); };
  if (fold_norm)  // the add + RMSNorm in the router's launch (kernels/moe's moe_layer_normed)
    kn::moe::moe_layer_normed(residual_.normed_rows(delta_.data(), w.norm.data(), float(config_.layer_norm_epsilon)),
                              normed_.data(), weights, s, delta_.data(), scratch, stream_, marks);
  else
    kn::moe::moe_layer(normed_.data(), weights, s, delta_.data(), scratch, stream_, marks);
}

void Model::mlp(Batch const& batch, NemotronLayerWeights const& w) {
  std::int64_t const t = batch.tokens, width = config_.intermediate_size;
  linear(normed_.data(), w.up.data(), mlp_hidden_.data(), t, width, hidden_);
  relu2_in_place(mlp_hidden_.data(), t * width, stream_);
  linear(mlp_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, width);
  mark("mlp");
}

}  // namespace cute_cpp::models::nemotron_detail
