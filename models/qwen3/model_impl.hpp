// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/model_impl.hpp: the decoder's implementation class (Qwen3Model), shared by its
// translation units: model_sm90.cu (set-up, the loaders), model_forward_sm90.cu (the pass over the
// layers: embedding, attention, MLP), model_decode_sm90.cu (prefill, the decode steps and their CUDA
// graphs, profiling) and model_rank_sm90.cu (a tensor-parallel rank's shapes and gathered LM head).
// Private to models/qwen3.
#include "models/qwen3/model.hpp"

#include <cute_cpp/kernels/gemm/gemm_arguments.hpp>  // IndependentOperand
#include <cute_cpp/kernels/moe/moe_shape.hpp>  // MoeShape
#include "models/common/device_workspace.hpp"  // GrowingWorkspace
#include "models/common/kv_pages.hpp"
#include "models/common/residual_stream.cuh"  // ResidualStream
#include "models/common/step_marks.cuh"  // StepMarks
#include "models/qwen3/collectives.hpp"     // Collectives
#include "models/qwen3/device_weights.hpp"
#include "models/qwen3/fused_step.hpp"  // FusedStep
#include "models/qwen3/tensor_parallel.hpp"  // ShardPlan

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/graph_pdl.hpp>  // nodes_added_by

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace cute_cpp::models::qwen3_detail {

namespace kn = cute_cpp::kernels;
using host::DeviceBuffer;

using Workspace = GrowingWorkspace;  // models/common/device_workspace.hpp

class Model final : public Qwen3Model {
 public:
  /// The checkpoint's weights, or with `random_seed` random ones (Qwen3Model::with_random_weights).
  /// With `rank`, one rank of a tensor-parallel model (Qwen3Model::load_rank).
  Model(const std::filesystem::path& folder, Qwen3Options options, std::optional<std::uint64_t> random_seed,
        std::optional<Qwen3Rank> rank = std::nullopt);
  ~Model() override {
    for (auto& [rows, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }

  const Qwen3Config& config() const noexcept override { return config_; }
  const Qwen3Options& options() const noexcept override { return options_; }
  std::uint64_t weight_bytes() const noexcept override { return weight_bytes_; }
  std::uint64_t kv_cache_bytes() const noexcept override { return k_cache_.bytes() + v_cache_.bytes(); }
  bool fused_decode() const noexcept override { return fused_.has_value(); }
  std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) override;
  void decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) override;
  MarginalProfile marginal_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                  int replays) override;
  std::vector<StepPhase> profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                        int replays) override;
  void release(int slot) override { pages_.release(slot); }
  int length(int slot) const override { return pages_.length(slot); }
  const bf16* logits() const noexcept override { return logits_.data(); }
  int logits_rows() const noexcept override { return logits_rows_; }
  cudaStream_t stream() const noexcept override { return stream_; }
  LogitsLayout logits_layout() const noexcept override { return logits_layout_; }

 private:
  /// The tokens of one forward pass: `tokens` rows of the activations.
  struct Batch {
    std::int64_t tokens = 0;
    int sequences = 0;
    bool decode = false;  ///< one new token per sequence after its cached ones; else fresh prompts
    int max_len = 0;      ///< the longest sequence after this pass
    /// A decode step as a CUDA graph records it: max_len is max_seq, so that the launches do not
    /// depend on the lengths (the kernels read them from seqlens_), and no host copy of the
    /// tables is checked (they change between replays).
    bool graph = false;
  };

  // ---- model_sm90.cu: set-up ----
  void grow_activations(std::int64_t tokens);
  void check_ids(std::span<const std::int32_t> ids) const;
  void linear(bf16 const* in, bf16 const* weight, bf16* out, std::int64_t m, std::int64_t n, std::int64_t k);
  /// The weights: no kernel of the step writes them, so they may stream before the wait (PDL).
  kn::IndependentOperand early_weights() const {
    return options_.programmatic_launch && options_.prefetch_weights ? kn::IndependentOperand::B
                                                                     : kn::IndependentOperand::None;
  }

  // ---- model_forward_sm90.cu: the pass over the layers ----
  /// The pass over the uploaded batch: only launches on stream_ (and, outside a graph's recording,
  /// buffers that grow), so that a decode step can be recorded as a CUDA graph.
  void forward(Batch const& batch, LogitsRows rows);
  /// The embedding rows of the pass's ids into delta_: on a rank, its vocabulary's rows (zeros for
  /// the rest) summed over the ranks.
  void embed(std::int64_t t);
  void attention(Batch const& batch, int layer);
  /// The MoE block's sizes for a pass of `tokens` rows (config_.moe set).
  [[nodiscard]] kn::moe::MoeShape moe_shape(std::int64_t tokens) const;
  /// A layer's MLP on normed_ into delta_: the dense SwiGLU FFN, or the MoE block. With `norm` (a
  /// MoE layer's), the block norms those rows into normed_ itself (kernels/moe's moe_layer_normed).
  void mlp(LayerWeights const& w, std::int64_t tokens,
           std::optional<kernels::RmsNormedRows<bf16>> const& norm = std::nullopt);
  /// Qwen3Options::routing_stats: the choices each expert of `layer` received in this pass (the MoE
  /// block's expert offsets in `scratch`), one line to stderr.
  void print_routing(kn::moe::MoeShape const& s, void* scratch, int layer);

  // ---- model_decode_sm90.cu: the batches' uploads, the decode steps' graphs, profiling ----
  void upload(Batch const& batch);
  /// The decode step of the uploaded batch's `n` sequences, padded to the batch size of a CUDA
  /// graph; the first step of each size runs eagerly and records the graph, later ones replay it.
  /// Without graphs (Qwen3Options::cuda_graphs false) the same padded launches run eagerly.
  void decode_step(int n);
  /// decode_step's recording of `batch` (run eagerly once already) into graphs_; on failure
  /// graphs_off_, and later steps run eagerly.
  void record_decode_graph(Batch const& batch);
  /// decode()'s checks and the step's host tables for `slots` (the sequences grown by one token);
  /// returns their count.
  int stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids);
  /// The staged step's `n` sequences padded to the batch size of a CUDA graph, uploaded.
  Batch upload_decode(int n);
  /// profile_decode's step: the uploaded batch recorded with marks and replayed.
  std::vector<StepPhase> profile_step(Batch const& batch, int replays);
  /// While profile_step records: an event recorded on the stream, closing the phase `name`.
  void mark(const char* name);

  // ---- model_rank_sm90.cu: tensor parallelism (tensor_parallel.md) ----
  /// Load-time: plan_, tp_ and the per-rank widths of `rank`, and the options a rank runs with.
  void setup_rank(Qwen3Rank const& rank);
  /// Load-time: fused_ where Qwen3Options::fused_steps asks for it and the fused step takes the model.
  void setup_fused_step();
  /// A decode step of one sequence as one launch (fused_), then the LM head.
  void fused_forward();
  /// The ranks' partial sums of `rows` activations of width hidden_ summed on every rank. Nothing
  /// on one device (tp_ null), where delta_ is already the whole sum. A phase of its own in a profiled
  /// step (bench --profile), so that the collectives' share of a rank's step is read, not guessed.
  void all_reduce(bf16* x, std::int64_t rows) {
    if (tp_ == nullptr) return;
    collective([&] { tp_->all_reduce_sum(rank_, x, std::size_t(rows * hidden_), stream_); });
    mark("all-reduce");
  }
  /// Enqueues a collective on stream_; while a decode graph records, its nodes join foreign_nodes_,
  /// whose edges stay full dependencies under PDL (NCCL's kernels do not call griddepcontrol.wait).
  template <class Enqueue>
  void collective(Enqueue&& enqueue) {
    std::vector<cudaGraphNode_t> const added = host::nodes_added_by(stream_, enqueue);
    foreign_nodes_.insert(foreign_nodes_.end(), added.begin(), added.end());
  }
  /// The LM head on `rows` rows of `in` into logits_: on a rank, its vocabulary rows, then gathered.
  void lm_head(bf16 const* in, std::int64_t rows);

  Qwen3Config config_;
  Qwen3Options options_;
  // Tensor parallelism: this rank's plan and collectives (none on one device, where vocab_rows_ is
  // vocab_size and logits_layout_ row-major).
  std::optional<ShardPlan> plan_;
  Collectives* tp_ = nullptr;
  int rank_ = 0;
  std::int64_t vocab_rows_ = 0;
  DeviceBuffer<bf16> rank_logits_;  ///< a rank's own [rows, vocab_rows_] before the gather
  LogitsLayout logits_layout_{};
  int heads_ = 0, kv_heads_ = 0, head_dim_ = 0, hidden_ = 0, ffn_ = 0, qkv_width_ = 0;
  std::uint64_t weight_bytes_ = 0;
  cudaStream_t stream_ = nullptr;

  Weights weights_;
  DeviceBuffer<float> inv_freq_;
  float cos_sin_scale_ = 1.0f;  // YaRN's attention factor; 1 for plain RoPE

  KvPages pages_;
  DeviceBuffer<bf16> k_cache_, v_cache_;  // [layers, pages, page_size, kv_heads, head_dim]
  std::int64_t layer_cache_elems_ = 0;

  // Activations, for up to capacity_ tokens.
  std::int64_t capacity_ = 0;
  ResidualStream residual_;
  std::optional<FusedStep> fused_;  // Qwen3Options::fused_steps where the fused step takes the model
  DeviceBuffer<bf16> delta_, normed_, qkv_, attn_, ffn_hidden_, gate_up_, last_;
  DeviceBuffer<bf16> logits_;
  int logits_rows_ = 0;
  // The batch's description on the device (and the host copies the kernels' checks read).
  DeviceBuffer<std::int32_t> ids_, positions_, cu_seqlens_, seqlens_, block_table_, last_rows_;
  std::vector<std::int32_t> h_ids_, h_positions_, h_cu_seqlens_, h_seqlens_, h_block_table_, h_last_rows_;
  Workspace gemm_workspace_, decode_workspace_, moe_workspace_;
  /// Decode steps' graphs by padded batch size; graphs_off_ after a capture failed. A graph holds
  /// the buffers' addresses: when one moves (buffer_moves_ counts), every graph is recorded again.
  std::map<int, cudaGraphExec_t> graphs_;
  /// The nodes the collectives added to the decode graph being recorded (none on one device).
  std::vector<cudaGraphNode_t> foreign_nodes_;
  int routing_pass_ = 0;  ///< forward passes so far, for Qwen3Options::routing_stats
  bool graphs_off_ = false;
  int buffer_moves_ = 0, graphs_recorded_at_ = 0;
  void drop_stale_graphs() {
    if (graphs_recorded_at_ == buffer_moves_) return;
    for (auto& [rows, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
    graphs_.clear();
    graphs_recorded_at_ = buffer_moves_;
  }
  /// The page padded rows of a graph's batch write to and read: one past the allocator's pages.
  std::int32_t scratch_page_ = 0;
  // profile_step's recording: whether mark() records, and the marks so far.
  StepMarks marks_;  ///< the events between a profiled step's phases
};

}  // namespace cute_cpp::models::qwen3_detail
