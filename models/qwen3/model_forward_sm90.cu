// SPDX-License-Identifier: Apache-2.0
// models/qwen3/model_forward_sm90.cu: the pass over the layers (model_sm90.cu's file comment), with the
// embedding (on a rank: its vocabulary rows, summed over the ranks), each layer's attention (prefill:
// the KV append and varlen attention on the QKV activation; decode: paged attention) and MLP (the
// dense SwiGLU FFN at three sizes, or kernels/moe's block). The class is model_impl.hpp's.
#include "models/qwen3/model_impl.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/ffn.cuh>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/moe/moe.cuh>
#include "models/common/linear.cuh"  // normed_linear_tn, normed_gated_linear_tn
#include "models/common/paged_kv_layer.hpp"  // PagedKvLayer
#include "models/qwen3/dense_ffn.cuh"  // dense_swiglu_ffn
#include "models/qwen3/layer_kernels.cuh"

#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace cute_cpp::models::qwen3_detail {

using host::cuda_check;

/// The pass over the uploaded batch: only launches on stream_ (and, outside a graph's recording,
/// buffers that grow), so that a decode step can be recorded as a CUDA graph.
void Model::forward(Batch const& batch, LogitsRows rows) {
  std::int64_t const t = batch.tokens;
  ++routing_pass_;
  residual_.begin();
  float const eps = float(config_.rms_norm_eps);
  embed(t);  // marks "embedding" (and a rank's "all-reduce")
  if (fused_ && batch.decode && t == 1) return fused_forward();
  // The residual stream (models/common/residual_stream.cuh): the first layer's sum is the embedding.
  auto const add_norm = [&](bf16 const* w) {
    residual_.add_norm(delta_.data(), w, normed_.data(), t, hidden_, eps, stream_);
    mark("add + rmsnorm");
  };
  QkNormRopeParams rope;
  rope.tokens = t;
  rope.row_stride = qkv_width_;
  rope.heads_q = heads_;
  rope.heads_kv = kv_heads_;
  rope.eps = eps;
  rope.inv_freq = inv_freq_.data();
  rope.cos_sin_scale = cos_sin_scale_;
  if (batch.decode) {  // one token per sequence: the rope kernel appends k and v to the cache as well
    rope.cache.block_table = block_table_.data();
    rope.cache.max_pages_per_seq = pages_.shape().max_pages_per_seq;
    rope.cache.page_size = options_.page_size;
    rope.cache.num_pages = options_.num_pages + 1;  // and the scratch page of padded rows
  }
  // A decode step's few rows: an RMSNorm inside the projection after it (one launch less each), the
  // QKV and dense gate-up projections' where asked for, a sparse layer's router's by default.
  bool const few_rows = normed_linear_takes(t, hidden_);
  bool const fuse_dense = options_.fuse_dense_norms && few_rows, fuse_router = options_.fuse_norms && few_rows;
  for (std::size_t l = 0; l < weights_.layers.size(); ++l) {
    LayerWeights const& w = weights_.layers[l];
    if (fuse_dense) {
      normed_linear_tn(residual_.normed_rows(delta_.data(), w.input_norm.data(), eps), w.qkv.data(), qkv_.data(), t,
                       qkv_width_, hidden_, stream_, early_weights());
      mark("add + rmsnorm + qkv gemm");
    } else {
      add_norm(w.input_norm.data());
      linear(normed_.data(), w.qkv.data(), qkv_.data(), t, qkv_width_, hidden_);
      mark("qkv gemm");
    }
    if (batch.decode) {
      rope.cache.k = k_cache_.data() + std::int64_t(l) * layer_cache_elems_;
      rope.cache.v = v_cache_.data() + std::int64_t(l) * layer_cache_elems_;
    }
    qk_norm_rope(qkv_.data(), positions_.data(), w.q_norm.data(), w.k_norm.data(), rope, head_dim_, stream_);
    mark(batch.decode ? "q/k norm, rope, kv" : "q/k norm + rope");
    attention(batch, int(l));
    linear(attn_.data(), w.o.data(), delta_.data(), t, hidden_, std::int64_t(heads_) * head_dim_);
    mark("o gemm");
    all_reduce(delta_.data(), t);  // the heads' partial sums; the residual is added after, once
    if (fuse_dense && !w.sparse()) {
      normed_gated_linear_tn(residual_.normed_rows(delta_.data(), w.post_norm.data(), eps), w.gate_up.data(),
                             ffn_hidden_.data(), t, ffn_, hidden_, stream_, early_weights());
      mark("add + rmsnorm + gate-up gemm + swiglu");
      linear(ffn_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, ffn_);
      mark("down gemm");
    } else if (fuse_router && w.sparse()) {  // the MoE block norms the rows in its router's launch
      mlp(w, t, residual_.normed_rows(delta_.data(), w.post_norm.data(), eps));
    } else {
      add_norm(w.post_norm.data());
      mlp(w, t);
    }
    all_reduce(delta_.data(), t);  // the columns' (or experts') partial sums
  }
  add_norm(weights_.final_norm.data());
  bf16 const* head_in = normed_.data();
  logits_rows_ = int(t);
  if (rows == LogitsRows::Last && !batch.decode) {
    last_ = DeviceBuffer<bf16>(std::size_t(batch.sequences) * hidden_);
    gather_rows(normed_.data(), t, last_rows_.data(), last_.data(), batch.sequences, hidden_, stream_);
    head_in = last_.data();
    logits_rows_ = batch.sequences;
  }
  lm_head(head_in, logits_rows_);  // marks "lm head" (and a rank's "all-gather")
  cuda_check(cudaGetLastError(), "forward");
}

void Model::fused_forward() {
  FusedStepIo io;
  io.input = delta_.data();  // the embedding: read before the step writes delta_
  io.residual[0] = residual_.buffer[0].data(), io.residual[1] = residual_.buffer[1].data();
  io.delta = delta_.data(), io.qkv = qkv_.data(), io.ffn_hidden = ffn_hidden_.data();
  io.final_norm = weights_.final_norm.data(), io.normed = normed_.data();
  io.positions = positions_.data(), io.length = seqlens_.data(), io.block_table = block_table_.data();
  fused_->run(io, stream_);
  residual_.after(fused_->norms(true));
  mark("fused step");
  logits_rows_ = 1;
  lm_head(normed_.data(), 1);
  cuda_check(cudaGetLastError(), "forward (fused step)");
}

void Model::embed(std::int64_t t) {
  if (tp_ == nullptr) {
    gather_rows(weights_.embed.data(), config_.vocab_size, ids_.data(), delta_.data(), t, hidden_, stream_);
    mark("embedding");
    return;
  }
  gather_vocab_rows(weights_.embed.data(), plan_->vocab_begin(), plan_->vocab_end(), ids_.data(), delta_.data(), t,
                    hidden_, stream_);
  mark("embedding");
  all_reduce(delta_.data(), t);
}

kn::moe::MoeShape Model::moe_shape(std::int64_t tokens) const {
  kn::moe::MoeShape s;
  s.tokens = tokens;
  s.hidden = hidden_;
  s.ffn = config_.moe->moe_intermediate_size;
  s.experts = int(std::min<std::int64_t>(config_.moe->num_experts, std::int64_t(1) << 30));
  s.top_k = int(std::min<std::int64_t>(config_.moe->num_experts_per_tok, std::int64_t(1) << 30));
  s.renormalize = config_.moe->norm_topk_prob;
  if (plan_ && plan_->ranks() > 1) s.expert_begin = int(plan_->expert_begin()), s.local_experts = int(plan_->experts());
  return s;
}

void Model::print_routing(kn::moe::MoeShape const& s, void* scratch, int layer) {
  auto const base = (reinterpret_cast<std::uintptr_t>(scratch) + 255) / 256 * 256;
  kn::moe::MoeScratch const m(reinterpret_cast<void*>(base), s);
  // Counted from the choices themselves: a decode step's experts run from them without the
  // per-expert offsets the grouped path's permutation writes.
  std::vector<std::int32_t> ids(std::size_t(s.rows()));
  cuda_check(cudaMemcpyAsync(ids.data(), m.ids, ids.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream_),
             "cudaMemcpyAsync(routing)");
  cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(routing)");
  std::vector<std::int32_t> chosen(std::size_t(s.experts), 0);
  for (std::int32_t const e : ids)
    if (e >= 0 && e < s.experts) ++chosen[std::size_t(e)];
  std::string counts;
  std::int32_t most = 0, fewest = chosen.empty() ? 0 : chosen[0], used = 0;
  for (std::size_t e = 0; e < chosen.size(); ++e) {
    std::int32_t const n = chosen[e];
    most = std::max(most, n), fewest = std::min(fewest, n), used += n > 0;
    counts += (e == 0 ? "" : " ") + std::to_string(n);
  }
  double const mean = double(s.rows()) / double(s.experts);
  std::fprintf(stderr, "routing pass %d layer %d: %lld tokens x top %d; %d of %d experts used, most %d (%.2fx the "
               "mean %.1f), fewest %d; per expert: %s\n", routing_pass_, layer, static_cast<long long>(s.tokens),
               s.top_k, used, s.experts, most, mean > 0 ? most / mean : 0.0, mean, fewest, counts.c_str());
}

void Model::mlp(LayerWeights const& w, std::int64_t t, std::optional<kn::RmsNormedRows<bf16>> const& norm) {
  if (w.sparse()) {
    // Router, softmax and top-k, the experts through the grouped GEMMs, the weighted combine: all on
    // the device, so a decode step's graph records it like the dense layers.
    kn::moe::MoeShape const s = moe_shape(t);
    std::size_t const bytes = kn::moe::moe_scratch_bytes(s);
    void* const scratch = moe_workspace_.ensure(bytes, stream_);
    kn::moe::MoeWeights const weights{w.router.data(), w.experts_gate_up.data(), w.experts_down.data()};
    // Its parts are marked as they are launched (moe router, moe experts, and past a decode step's
    // tokens moe combine), so that a profiled step splits them as Nemotron's does.
    auto const marks = [this](char const* name) { mark(name); };
    if (norm) kn::moe::moe_layer_normed(*norm, normed_.data(), weights, s, delta_.data(), scratch, stream_, marks);
    else kn::moe::moe_layer(normed_.data(), weights, s, delta_.data(), scratch, stream_, marks);
    if (options_.routing_stats) print_routing(s, scratch, int(&w - weights_.layers.data()));
  } else {
    DenseFfn const f{w.gate_up.data(), w.down.data(), hidden_, ffn_, ffn_hidden_.data(), gate_up_.data()};
    dense_swiglu_ffn(normed_.data(), f, delta_.data(), t, gemm_workspace_, stream_, early_weights(),
                     [this](char const* name) { mark(name); });
  }
}

void Model::attention(Batch const& batch, int layer) {
  std::int64_t const q_width = std::int64_t(heads_) * head_dim_;
  bf16* const q = qkv_.data();
  bf16* const k = q + q_width;
  bf16* const v = k + std::int64_t(kv_heads_) * head_dim_;
  int const max_pages = pages_.shape().max_pages_per_seq;
  PagedKvLayer const cache{k_cache_.data() + layer * layer_cache_elems_, v_cache_.data() + layer * layer_cache_elems_,
                           kv_heads_, head_dim_, options_.page_size, max_pages, options_.num_pages + 1};

  // Prefill: the new tokens' K and V into their pages, per sequence (each has its own number of
  // tokens). A decode step's qk_norm_rope appended them already.
  if (!batch.decode) {
    kn::KvAppendArguments<bf16> append = cache.append(qkv_width_);
    for (int b = 0; b < batch.sequences; ++b) {
      std::int64_t const first = h_cu_seqlens_[std::size_t(b)];
      append.k_new = k + first * qkv_width_, append.v_new = v + first * qkv_width_;
      append.batch = 1, append.q_tokens = h_seqlens_[std::size_t(b)];
      append.seqlens_k = seqlens_.data() + b;
      append.block_table = block_table_.data() + std::int64_t(b) * max_pages;
      kn::run_kv_append(append, stream_);
    }
  }

  if (batch.decode) {
    kn::DecodeArguments<bf16> a = cache.decode(q, qkv_width_, attn_.data(), heads_, batch.sequences, seqlens_.data(),
                                               batch.max_len, block_table_.data());
    if (!batch.graph) a.seqlens_k_host = h_seqlens_.data(), a.block_table_host = h_block_table_.data();
    a.workspace_bytes = kn::decode_workspace_bytes(a);
    a.workspace = decode_workspace_.ensure(a.workspace_bytes, stream_);
    kn::run_decode_attention(a, stream_);
    mark("decode attention");
  } else {
    // Fresh prompts attend to their own tokens only: varlen attention on the QKV activation,
    // which holds exactly the keys the cache just received.
    kn::FmhaArguments<bf16> a;
    a.q = q, a.k = k, a.v = v, a.o = attn_.data();
    a.q_stride = a.k_stride = a.v_stride = {0, qkv_width_, head_dim_};
    a.o_stride = {0, q_width, head_dim_};
    a.batch = batch.sequences, a.seq_q = a.seq_k = batch.max_len;
    a.heads_q = heads_, a.heads_kv = kv_heads_;
    a.head_dim = a.head_dim_v = head_dim_;
    a.causal = true;
    a.cu_seqlens_q = a.cu_seqlens_k = cu_seqlens_.data();
    a.total_q = a.total_k = batch.tokens;
    a.cu_seqlens_q_host = a.cu_seqlens_k_host = h_cu_seqlens_.data();
    kn::run_attention(a, stream_);
  }
}

}  // namespace cute_cpp::models::qwen3_detail
