// SPDX-License-Identifier: Apache-2.0
// models/qwen3/model_rank_sm90.cu: the Qwen3 decoder as rank r of N (tensor_parallel.md): the rank's
// shapes and options, and the LM head on its vocabulary rows gathered into [N, rows, ld] (on one
// device, tp_ null, the plain GEMM). The rank's embedding is model_forward_sm90.cu's embed. The class
// is model_impl.hpp's.
#include "models/qwen3/model_impl.hpp"

#include "models/common/linear.cuh"  // linear_tn
#include "models/qwen3/weights.hpp"  // Qwen3WeightManifest

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cute_cpp::models::qwen3_detail {

/// The rank's shapes (tensor_parallel.hpp); the kernels are the one-device ones on them.
void Model::setup_rank(Qwen3Rank const& rank) {
  Qwen3WeightManifest const m(config_);
  plan_.emplace(m, rank.ranks, rank.rank, rank.ranks);
  tp_ = rank.collectives, rank_ = rank.rank;
  heads_ = int(plan_->q_heads()), kv_heads_ = int(plan_->kv_heads()), vocab_rows_ = plan_->vocab_rows();
  bool const dense_mlp = std::any_of(m.layers().begin(), m.layers().end(),
                                     [](Qwen3LayerTensors const& l) { return l.experts.empty(); });
  if (dense_mlp) ffn_ = int(plan_->intermediate());  // a MoE model's dense layers (mlp_only_layers) too
  // The emulation's host barrier cannot be in a graph, and its ranks run without PDL as before. NCCL's
  // ranks keep PDL: record_decode_graph leaves the edges into and out of the collectives' nodes
  // (collective(), foreign_nodes_) full dependencies, since NCCL's kernels do not call
  // griddepcontrol.wait (tensor_parallel.md, the PDL exception).
  if (!tp_->capturable()) options_.cuda_graphs = false, options_.programmatic_launch = false;
}


void Model::lm_head(bf16 const* in, std::int64_t rows) {
  std::size_t const ranks = tp_ != nullptr ? std::size_t(tp_->ranks()) : 1;
  std::int64_t const ld = tp_ != nullptr ? padded_vocab_rows(vocab_rows_) : config_.vocab_size;
  std::size_t const shard = std::size_t(rows) * std::size_t(ld);
  if (logits_.size() < ranks * shard) {
    logits_ = DeviceBuffer<bf16>(ranks * shard);
    ++buffer_moves_;
  }
  if (tp_ == nullptr) {
    linear(in, weights_.output(), logits_.data(), rows, config_.vocab_size, hidden_);
    mark("lm head");
    return;
  }
  if (rank_logits_.size() < shard) {
    rank_logits_ = DeviceBuffer<bf16>(shard);
    ++buffer_moves_;
  }
  // The rank's padded rows (zeros; never read): the output rows stay 16-byte aligned (padded_vocab_rows).
  linear(in, weights_.output(), rank_logits_.data(), rows, ld, hidden_);
  mark("lm head");
  collective([&] { tp_->all_gather(rank_, rank_logits_.data(), logits_.data(), shard, stream_); });
  mark("all-gather");
  logits_layout_ = gathered_logits(rows, vocab_rows_, ld);
}

}  // namespace cute_cpp::models::qwen3_detail
