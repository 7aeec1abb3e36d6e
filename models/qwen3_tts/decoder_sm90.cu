// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3_tts/decoder_sm90.cu: Decoder, one sequence through Qwen3 layers (decoder.hpp). The
// layer is models/qwen3/model_sm90.cu's:
//   h = rmsnorm(x + delta); qkv = h Wqkv^T; q, k = rope(rmsnorm_head(q, k)); K/V -> cache;
//   a = attention(q, K, V); delta = a Wo^T; h = rmsnorm(x + delta); delta = down(swiglu(h Wgu^T))
// with the input embeddings in place of the token embedding and the cache one sequence's pages
// (a block table 0, 1, 2, ...).
#include "models/qwen3_tts/decoder.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>
#include <cute_cpp/host/error.hpp>

#include <numeric>
#include <span>
#include <string>

#include "models/common/error.hpp"
#include "models/common/linear.cuh"  // linear_tn, gated_linear_tn, normed_linear_tn, normed_gated_linear_tn
#include "models/common/paged_kv_layer.hpp"  // PagedKvLayer
#include "models/common/rope.hpp"
#include "models/qwen3/dense_ffn.cuh"  // dense_swiglu_ffn
#include "models/qwen3/layer_kernels.cuh"

namespace cute_cpp::models::qwen3_tts {

namespace {
namespace kn = cute_cpp::kernels;
using host::cuda_check;
constexpr char kRuleDecoder[] =
    "cute-cpp [tts.decoder]: the GPU decoder runs bfloat16 weights with head_dim 64, 128 or 256 and widths "
    "that are multiples of 8";
constexpr char kRuleInput[] = "cute-cpp [tts.input]: a pass must fit the decoder's max_tokens and max_seq";
/// The weights are written by no kernel of a pass or a frame: a projection may load them before its
/// predecessor ends (an early start under a graph's programmatic edges; the same order otherwise).
constexpr kn::IndependentOperand kWeights = kn::IndependentOperand::B;
}  // namespace


void gather(bf16 const* table, std::int64_t table_rows, std::int32_t const* ids, bf16* out, std::int64_t count,
            int width, cudaStream_t stream) {
  gather_rows(table, table_rows, ids, out, count, width, stream);
}

Decoder::Decoder(const Qwen3Config& config, std::vector<LayerWeights> layers, DeviceBuffer<bf16> final_norm,
                 int max_seq, int max_tokens, const std::vector<std::int8_t>& rope_component, cudaStream_t stream,
                 bool fused_steps)
    : config_(config), layers_(std::move(layers)), final_norm_(std::move(final_norm)), stream_(stream),
      max_seq_(max_seq), max_tokens_(max_tokens), hidden_(int(config.hidden_size)),
      heads_(int(config.num_attention_heads)), kv_heads_(int(config.num_key_value_heads)),
      head_dim_(int(config.head_dim)), ffn_(int(config.intermediate_size)),
      qkv_width_((heads_ + 2 * kv_heads_) * head_dim_) {
  if (config.torch_dtype != "bfloat16" || (head_dim_ != 64 && head_dim_ != 128 && head_dim_ != 256) ||
      hidden_ % 8 != 0 || ffn_ % 8 != 0 || max_seq < 1 || max_tokens < 1)
    throw LoadError(kRuleDecoder, "torch_dtype " + in_quotes(config.torch_dtype) + ", head_dim " +
                                      std::to_string(head_dim_) + ", hidden_size " + std::to_string(hidden_) +
                                      ", intermediate_size " + std::to_string(ffn_) + ", max_seq " +
                                      std::to_string(max_seq) + ", max_tokens " + std::to_string(max_tokens));
  RopeFrequencies const rope = rope_frequencies(config_);
  inv_freq_ = DeviceBuffer<float>(rope.inv_freq.size());
  inv_freq_.upload(std::span<const float>(rope.inv_freq));
  if (!rope_component.empty()) {
    rope_component_ = DeviceBuffer<std::int8_t>(rope_component.size());
    rope_component_.upload(std::span<const std::int8_t>(rope_component));
  }
  pages_ = (max_seq_ + page_size_ - 1) / page_size_;
  std::vector<std::int32_t> table(static_cast<std::size_t>(pages_), 0);
  std::iota(table.begin(), table.end(), 0);
  block_table_ = DeviceBuffer<std::int32_t>(table.size());
  block_table_.upload(std::span<const std::int32_t>(table));
  cu_seqlens_ = DeviceBuffer<std::int32_t>(2);
  prefill_length_ = DeviceBuffer<std::int32_t>(1);
  layer_cache_elems_ = std::int64_t(pages_) * page_size_ * kv_heads_ * head_dim_;
  k_cache_ = DeviceBuffer<bf16>(std::size_t(layer_cache_elems_) * layers_.size());
  v_cache_ = DeviceBuffer<bf16>(std::size_t(layer_cache_elems_) * layers_.size());
  auto const rows = [&](int width) { return std::size_t(max_tokens_) * std::size_t(width); };
  residual_.buffer[0] = DeviceBuffer<bf16>(rows(hidden_));
  residual_.buffer[1] = DeviceBuffer<bf16>(rows(hidden_));
  delta_ = DeviceBuffer<bf16>(rows(hidden_));
  normed_ = DeviceBuffer<bf16>(rows(hidden_));
  qkv_ = DeviceBuffer<bf16>(rows(qkv_width_));
  attn_ = DeviceBuffer<bf16>(rows(heads_ * head_dim_));
  ffn_hidden_ = DeviceBuffer<bf16>(rows(ffn_));
  gate_up_ = DeviceBuffer<bf16>(std::size_t(std::min<std::int64_t>(max_tokens_, kSkinnyFfnRows)) * 2 *
                                std::size_t(ffn_));
  FusedStepShape const shape{int(layers_.size()), hidden_, heads_, kv_heads_, head_dim_, ffn_};
  use_fused_ = fused_steps;
  if (FusedStep::refusal(shape).empty()) {
    QkNormRopeParams rope;
    rope.heads_q = heads_, rope.heads_kv = kv_heads_;
    rope.eps = float(config_.rms_norm_eps);
    rope.inv_freq = inv_freq_.data();
    rope.rope_component = rope_component_.size() != 0 ? rope_component_.data() : nullptr;
    rope.cache.max_pages_per_seq = pages_, rope.cache.page_size = page_size_, rope.cache.num_pages = pages_;
    fused_.emplace(shape, fused_layers(layers_, k_cache_.data(), v_cache_.data(), layer_cache_elems_), rope,
                   float(config_.rms_norm_eps));
  }
}

void Decoder::prefill(bf16 const* input, int tokens, std::int32_t const* positions) {
  if (tokens < 1 || tokens > max_tokens_ || tokens > max_seq_)
    throw LoadError(kRuleInput, std::to_string(tokens) + " tokens; max_tokens " + std::to_string(max_tokens_) +
                                    ", max_seq " + std::to_string(max_seq_));
  h_cu_seqlens_ = {0, tokens};
  cuda_check(cudaMemcpyAsync(cu_seqlens_.data(), h_cu_seqlens_.data(), 2 * sizeof(std::int32_t),
                             cudaMemcpyHostToDevice, stream_),
             "cudaMemcpyAsync(cu_seqlens)");
  cuda_check(cudaMemcpyAsync(prefill_length_.data(), &h_cu_seqlens_[1], sizeof(std::int32_t), cudaMemcpyHostToDevice,
                             stream_),
             "cudaMemcpyAsync(length)");
  layers(Mode::prefill, tokens, positions, prefill_length_.data(), input);
}

void Decoder::step(bf16 const* input, std::int32_t const* positions, std::int32_t const* length, bool final_norm) {
  if (fused()) return fused_step(input, positions, length, final_norm);
  layers(Mode::step, 1, positions, length, input, final_norm);
}

/// The step as one launch: the residual stream's buffers, the activations and the token's place as
/// the layered step has them, so that hidden() and final_rows() read the same rows after either.
void Decoder::fused_step(bf16 const* input, std::int32_t const* positions, std::int32_t const* length,
                         bool final_norm) {
  FusedStepIo io;
  io.input = input;
  io.residual[0] = residual_.buffer[0].data(), io.residual[1] = residual_.buffer[1].data();
  io.delta = delta_.data(), io.qkv = qkv_.data(), io.ffn_hidden = ffn_hidden_.data();
  io.final_norm = final_norm ? final_norm_.data() : nullptr;
  io.normed = normed_.data();
  io.positions = positions, io.length = length, io.block_table = block_table_.data();
  fused_->run(io, stream_);
  residual_.after(fused_->norms(final_norm));
}

kn::RmsNormedRows<bf16> Decoder::final_rows() {
  return residual_.normed_rows(delta_.data(), final_norm_.data(), float(config_.rms_norm_eps));
}

/// h = rmsnorm(x + delta) into normed_, the sum the new x; the first layer's x is delta alone.
void Decoder::add_norm(bf16 const* delta, bf16 const* weight, int t) {
  residual_.add_norm(delta, weight, normed_.data(), t, hidden_, float(config_.rms_norm_eps), stream_);
}

void Decoder::layers(Mode mode, int t, std::int32_t const* positions, std::int32_t const* length, bf16 const* input,
                     bool final_norm) {
  residual_.begin();
  QkNormRopeParams rope;
  rope.tokens = t;
  rope.row_stride = qkv_width_;
  rope.heads_q = heads_;
  rope.heads_kv = kv_heads_;
  rope.eps = float(config_.rms_norm_eps);
  rope.inv_freq = inv_freq_.data();
  rope.rope_component = rope_component_.size() != 0 ? rope_component_.data() : nullptr;
  rope.position_plane = t;
  if (mode == Mode::step) {  // one token: the rope kernel appends its k and v to the cache as well
    rope.cache.block_table = block_table_.data();
    rope.cache.max_pages_per_seq = pages_;
    rope.cache.page_size = page_size_;
    rope.cache.num_pages = pages_;
  }
  // A step's few rows: each RMSNorm inside the projection after it (kernels/gemm/simt_gemv_norm.cuh).
  bool const fuse_norms = normed_linear_takes(t, hidden_);
  float const eps = float(config_.rms_norm_eps);
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    LayerWeights const& w = layers_[l];
    // The first layer's delta is the input itself (not copied: a copy would break a graph's PDL chain).
    bf16 const* const delta = l == 0 ? input : delta_.data();
    if (fuse_norms) {
      normed_linear_tn(residual_.normed_rows(delta, w.input_norm.data(), eps), w.qkv.data(), qkv_.data(), t,
                       qkv_width_, hidden_, stream_, kWeights);
    } else {
      add_norm(delta, w.input_norm.data(), t);
      linear_tn(normed_.data(), w.qkv.data(), qkv_.data(), t, qkv_width_, hidden_, gemm_workspace_, stream_,
                kWeights);
    }
    if (mode == Mode::step) {
      rope.cache.k = k_cache_.data() + std::int64_t(l) * layer_cache_elems_;
      rope.cache.v = v_cache_.data() + std::int64_t(l) * layer_cache_elems_;
    }
    qk_norm_rope(qkv_.data(), positions, w.q_norm.data(), w.k_norm.data(), rope, head_dim_, stream_);
    attention(mode, int(l), t, length);
    linear_tn(attn_.data(), w.o.data(), delta_.data(), t, hidden_, std::int64_t(heads_) * head_dim_, gemm_workspace_,
              stream_, kWeights);
    if (fuse_norms) {
      normed_gated_linear_tn(residual_.normed_rows(delta_.data(), w.post_norm.data(), eps), w.gate_up.data(),
                             ffn_hidden_.data(), t, ffn_, hidden_, stream_, kWeights);
      linear_tn(ffn_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, ffn_, gemm_workspace_, stream_, kWeights);
    } else {
      add_norm(delta_.data(), w.post_norm.data(), t);
      mlp(w, t);
    }
  }
  if (final_norm) add_norm(delta_.data(), final_norm_.data(), t);
  cuda_check(cudaGetLastError(), "qwen3_tts decoder pass");
}

void Decoder::mlp(LayerWeights const& w, int t) {
  DenseFfn const f{w.gate_up.data(), w.down.data(), hidden_, ffn_, ffn_hidden_.data(), gate_up_.data()};
  dense_swiglu_ffn(normed_.data(), f, delta_.data(), t, gemm_workspace_, stream_, kWeights, [](char const*) {});
}

void Decoder::attention(Mode mode, int layer, int t, std::int32_t const* length) {
  std::int64_t const q_width = std::int64_t(heads_) * head_dim_;
  bf16* const q = qkv_.data();
  bf16* const k = q + q_width;
  bf16* const v = k + std::int64_t(kv_heads_) * head_dim_;
  // One sequence: its pages are 0, 1, 2, ... (block_table_), every page of the cache its own.
  PagedKvLayer const cache{k_cache_.data() + layer * layer_cache_elems_, v_cache_.data() + layer * layer_cache_elems_,
                           kv_heads_, head_dim_, page_size_, pages_, pages_};
  if (mode == Mode::prefill) {
    // The prompt's K and V into the cache, then causal attention over the QKV activation itself.
    kn::KvAppendArguments<bf16> append = cache.append(qkv_width_);
    append.k_new = k, append.v_new = v;
    append.batch = 1, append.q_tokens = t;
    append.seqlens_k = length;
    append.block_table = block_table_.data();
    kn::run_kv_append(append, stream_);

    kn::FmhaArguments<bf16> a;
    a.q = q, a.k = k, a.v = v, a.o = attn_.data();
    a.q_stride = a.k_stride = a.v_stride = {0, qkv_width_, head_dim_};
    a.o_stride = {0, q_width, head_dim_};
    a.batch = 1, a.seq_q = a.seq_k = t;
    a.heads_q = heads_, a.heads_kv = kv_heads_;
    a.head_dim = a.head_dim_v = head_dim_;
    a.causal = true;
    a.cu_seqlens_q = a.cu_seqlens_k = cu_seqlens_.data();
    a.total_q = a.total_k = t;
    a.cu_seqlens_q_host = a.cu_seqlens_k_host = h_cu_seqlens_.data();
    kn::run_attention(a, stream_);
    return;
  }
  // One token (its k and v appended by the rope kernel): paged decode attention over the cache,
  // its length read on the device, so that the launch does not depend on it (graphs).
  kn::DecodeArguments<bf16> a =
      cache.decode(q, qkv_width_, attn_.data(), heads_, 1, length, max_seq_, block_table_.data());
  a.workspace_bytes = kn::decode_workspace_bytes(a);
  a.workspace = decode_workspace_.ensure(a.workspace_bytes, stream_);
  kn::run_decode_attention(a, stream_);
}

}  // namespace cute_cpp::models::qwen3_tts
