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
#include "models/qwen3/model.hpp"

#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cute_cpp/kernels/gemm/ffn.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/moe/moe.cuh>
#include <cute_cpp/kernels/rows/rmsnorm.cuh>
#include "models/common/device_workspace.hpp"  // GrowingWorkspace
#include "models/common/error.hpp"
#include "models/common/residual_stream.cuh"  // ResidualStream
#include "models/common/rope.hpp"
#include "models/common/kv_pages.hpp"
#include "models/common/linear.cuh"  // linear_tn, gated_linear_tn
#include "models/common/step_marks.cuh"  // StepMarks
#include "models/qwen3/layer_kernels.cuh"
#include "models/qwen3/device_weights.hpp"
#include "models/qwen3/weights.hpp"
#include "models/qwen3/collectives.hpp"     // Collectives
#include "models/qwen3/tensor_parallel.hpp"  // ShardPlan

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/graph_pdl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::models {

namespace {

namespace kn = cute_cpp::kernels;
using host::cuda_check;
using host::DeviceBuffer;

constexpr const char* kRuleDtype = "cute-cpp [qwen3.dtype]: the GPU decoder runs bfloat16 checkpoints";
constexpr const char* kRuleHeadDim = "cute-cpp [qwen3.head-dim]: the attention kernels take head_dim 64, 128 or 256";
constexpr const char* kRuleMoe =
    "cute-cpp [qwen3.moe]: the MoE block takes at most 256 experts, a top-k of at most 16 and an expert width "
    "that is a multiple of 8";
constexpr const char* kRuleEmulatedProfile =
    "cute-cpp [tp.emulate]: the emulated ranks' collectives wait on the host, so no CUDA graph can hold them "
    "(--profile needs one)";
constexpr const char* kRuleOptions =
    "cute-cpp [qwen3.options]: max_batch, max_seq, max_prefill_tokens and page_size are positive, max_seq at most "
    "the config's positions (max_position_embeddings, or YaRN's if longer), page_size a multiple of 16";

/// Passes of at most this many tokens (decode steps) run the FFN as three launches: the swapped
/// skinny GEMMs (kernels/gemm's tiles for at most 64 rows) read the weights at the memory
/// rate, where the fused SwiGLU GEMM's 128-row tiles would leave most CTAs idle. Up to
/// SimtGemmTile::skinny_rows tokens the gated skinny kernel does gate-up and SwiGLU in one launch.
constexpr std::int64_t kSkinnyRows = 64;

using Workspace = GrowingWorkspace;  // models/common/device_workspace.hpp

template <class T>
void upload_async(DeviceBuffer<T>& d, const std::vector<T>& h, cudaStream_t stream) {
  cuda_check(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync(batch)");
}


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
  std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) override;
  void decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) override;
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
  void check_ids(std::span<const std::int32_t> ids) const;
  void upload(Batch const& batch);
  void forward(Batch const& batch, LogitsRows rows);
  /// The decode step of the uploaded batch's `n` sequences, padded to the batch size of a CUDA
  /// graph; the first step of each size runs eagerly and records the graph, later ones replay it.
  /// Without graphs (Qwen3Options::cuda_graphs false) the same padded launches run eagerly.
  void decode_step(int n);
  /// decode()'s checks and the step's host tables for `slots` (the sequences grown by one token);
  /// returns their count.
  int stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids);
  /// The staged step's `n` sequences padded to the batch size of a CUDA graph, uploaded.
  Batch upload_decode(int n);
  /// profile_decode's step: the uploaded batch recorded with marks and replayed.
  std::vector<StepPhase> profile_step(Batch const& batch, int replays);
  /// While profile_step records: an event recorded on the stream, closing the phase `name`.
  void mark(const char* name);
  void attention(Batch const& batch, int layer);
  void linear(bf16 const* in, bf16 const* weight, bf16* out, std::int64_t m, std::int64_t n, std::int64_t k);
  /// out (m, f) = silu(in gate^T) * (in up^T) of the interleaved gate-up weight (2f, k), fused.
  void gated_linear(bf16 const* in, bf16 const* gate_up, bf16* out, std::int64_t m, std::int64_t f, std::int64_t k);
  /// The weights: no kernel of the step writes them, so they may stream before the wait (PDL).
  kn::IndependentOperand early_weights() const {
    return options_.programmatic_launch && options_.prefetch_weights ? kn::IndependentOperand::B
                                                                     : kn::IndependentOperand::None;
  }
  void grow_activations(std::int64_t tokens);
  /// The MoE block's sizes for a pass of `tokens` rows (config_.moe set).
  [[nodiscard]] kn::moe::MoeShape moe_shape(std::int64_t tokens) const;
  /// A layer's MLP on normed_ into delta_: the dense SwiGLU FFN, or the MoE block.
  void mlp(LayerWeights const& w, std::int64_t tokens);
  /// Qwen3Options::routing_stats: the choices each expert of `layer` received in this pass (the MoE
  /// block's expert offsets in `scratch`), one line to stderr.
  void print_routing(kn::moe::MoeShape const& s, void* scratch, int layer);
  /// Tensor parallelism: the ranks' partial sums of `rows` activations of width hidden_ summed on
  /// every rank. Nothing on one device (tp_ null), where delta_ is already the whole sum.
  void all_reduce(bf16* x, std::int64_t rows) {
    if (tp_ != nullptr) tp_->all_reduce_sum(rank_, x, std::size_t(rows * hidden_), stream_);
  }
  /// The embedding rows of the pass's ids into delta_: on a rank, its vocabulary's rows (zeros for
  /// the rest) summed over the ranks.
  void embed(std::int64_t t);
  /// Load-time: plan_, tp_ and the per-rank widths of `rank`, and the options a rank runs with.
  void setup_rank(Qwen3Rank const& rank);
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

void Model::mark(const char* name) { marks_.mark(name, stream_); }

std::vector<StepPhase> Model::profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                             int replays) {
  if (replays < 1) throw LoadError(kQwen3InputRule, "profile_decode needs at least one replay");
  if (tp_ != nullptr && !tp_->capturable())
    throw LoadError(kRuleEmulatedProfile, "profile_decode records the step as a CUDA graph");
  int const n = stage_decode(slots, ids, nullptr);
  if (n == 0) return {};
  std::vector<StepPhase> phases = profile_step(upload_decode(n), replays);
  logits_rows_ = n;
  return phases;
}

std::vector<StepPhase> Model::profile_step(Batch const& batch, int replays) {
  forward(batch, LogitsRows::All);  // sizes every workspace outside the recording
  return marks_.profile([&] { forward(batch, LogitsRows::All); }, stream_, replays);
}

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
}

/// The rank's shapes (tensor_parallel.hpp); the kernels are the one-device ones on them.
void Model::setup_rank(Qwen3Rank const& rank) {
  Qwen3WeightManifest const m(config_);
  plan_.emplace(m, rank.ranks, rank.rank, rank.ranks);
  tp_ = rank.collectives, rank_ = rank.rank;
  heads_ = int(plan_->q_heads()), kv_heads_ = int(plan_->kv_heads()), vocab_rows_ = plan_->vocab_rows();
  bool const dense_mlp = std::any_of(m.layers().begin(), m.layers().end(),
                                     [](Qwen3LayerTensors const& l) { return l.experts.empty(); });
  if (dense_mlp) ffn_ = int(plan_->intermediate());  // a MoE model's dense layers (mlp_only_layers) too
  if (!tp_->capturable()) options_.cuda_graphs = false;  // the emulation's host barrier
  // NOTE: the graph's programmatic edges would join NCCL's kernels, which do not wait in
  // griddepcontrol.wait (tensor_parallel.md, the PDL exception): every edge stays a full dependency.
  options_.programmatic_launch = false;
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
  gate_up_ = DeviceBuffer<bf16>(std::size_t(std::min<std::int64_t>(capacity_, kSkinnyRows)) * 2 * std::size_t(ffn_));
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

void Model::gated_linear(bf16 const* in, bf16 const* gate_up, bf16* out, std::int64_t m, std::int64_t f,
                         std::int64_t k) {
  gated_linear_tn(in, gate_up, out, m, f, k, gemm_workspace_, stream_, early_weights());
}

std::vector<int> Model::prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) {
  std::int64_t total = 0;
  int longest = 0;
  check_prompts(config_, options_.max_seq, prompts, 0);
  for (auto const& p : prompts) {
    total += std::int64_t(p.size());
    longest = std::max(longest, int(p.size()));
  }
  if (prompts.empty()) return {};
  if (total > options_.max_prefill_tokens)
    throw LoadError(kQwen3InputRule, std::to_string(total) + " prompt tokens exceed max_prefill_tokens " +
                                    std::to_string(options_.max_prefill_tokens));
  if (prompts.size() > std::size_t(options_.max_batch))
    throw LoadError(kQwen3InputRule, std::to_string(prompts.size()) + " prompts exceed max_batch " +
                                    std::to_string(options_.max_batch));
  std::vector<int> slots;
  try {
    for (auto const& p : prompts) {
      slots.push_back(pages_.add_sequence());
      pages_.grow(slots.back(), int(p.size()));
    }
  } catch (...) {
    for (int s : slots) pages_.release(s);
    throw;
  }
  grow_activations(total);
  h_ids_.clear(), h_positions_.clear(), h_seqlens_.clear(), h_block_table_.clear(), h_last_rows_.clear();
  h_cu_seqlens_.assign(1, 0);
  for (std::size_t b = 0; b < prompts.size(); ++b) {
    auto const& p = prompts[b];
    h_ids_.insert(h_ids_.end(), p.begin(), p.end());
    for (std::size_t i = 0; i < p.size(); ++i) h_positions_.push_back(std::int32_t(i));
    h_cu_seqlens_.push_back(h_cu_seqlens_.back() + std::int32_t(p.size()));
    h_seqlens_.push_back(std::int32_t(p.size()));
    h_last_rows_.push_back(h_cu_seqlens_.back() - 1);
    auto const row = pages_.row(slots[b]);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  Batch const batch{.tokens = total, .sequences = int(prompts.size()), .decode = false, .max_len = longest};
  upload(batch);
  forward(batch, rows);
  return slots;
}

void Model::decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) {
  if (int const n = stage_decode(slots, ids, device_ids); n > 0) decode_step(n);
}

int Model::stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                        const std::int32_t* device_ids) {
  int const n = int(slots.size());
  if (n == 0) return 0;
  if (n > options_.max_batch)
    throw LoadError(kQwen3InputRule, std::to_string(n) + " sequences exceed max_batch " + std::to_string(options_.max_batch));
  if (device_ids == nullptr) {
    if (ids.size() != slots.size())
      throw LoadError(kQwen3InputRule, std::to_string(ids.size()) + " ids for " + std::to_string(n) + " sequences");
    check_ids(ids);
  }
  std::vector<int> seen(slots.begin(), slots.end());
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
    throw LoadError(kQwen3InputRule, "a sequence slot appears twice in one decode step");
  for (int s : slots) {
    int const len = pages_.length(s) + 1;
    if (len > options_.max_seq || len > config_.max_positions())
      throw LoadError(kQwen3InputRule, "sequence slot " + std::to_string(s) + " would hold " + std::to_string(len) +
                                      " tokens; max_seq is " + std::to_string(options_.max_seq) + ", " +
                                      positions_text(config_));
  }
  for (int s : slots) pages_.grow(s, pages_.length(s) + 1);
  grow_activations(options_.max_batch);  // before ids_ is written: decode_step pads to at most max_batch rows
  h_ids_.assign(ids.begin(), ids.end());
  h_positions_.clear(), h_seqlens_.clear(), h_block_table_.clear(), h_last_rows_.clear();
  h_cu_seqlens_.clear();
  for (int s : slots) {
    h_positions_.push_back(pages_.length(s) - 1);
    h_seqlens_.push_back(pages_.length(s));
    auto const row = pages_.row(s);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  if (device_ids != nullptr)
    cuda_check(cudaMemcpyAsync(ids_.data(), device_ids, std::size_t(n) * sizeof(std::int32_t),
                               cudaMemcpyDeviceToDevice, stream_),
               "cudaMemcpyAsync(ids)");
  return n;
}

Model::Batch Model::upload_decode(int n) {
  // Padded to a power of two (or max_batch), so that a handful of graphs serve every batch size.
  int rows = 1;
  while (rows < n) rows *= 2;
  rows = std::min(rows, options_.max_batch);
  // Padding rows: token 0 at position 0 of a one-token sequence in the scratch page.
  int const max_pages = pages_.shape().max_pages_per_seq;
  if (!h_ids_.empty()) h_ids_.resize(std::size_t(rows), 0);
  h_positions_.resize(std::size_t(rows), 0);
  h_seqlens_.resize(std::size_t(rows), 1);
  for (int r = n; r < rows; ++r) {
    h_block_table_.push_back(scratch_page_);
    h_block_table_.insert(h_block_table_.end(), std::size_t(max_pages - 1), -1);
  }
  Batch const batch{.tokens = rows, .sequences = rows, .decode = true, .max_len = options_.max_seq, .graph = true};
  upload(batch);
  return batch;
}

void Model::decode_step(int n) {
  Batch const batch = upload_decode(n);
  drop_stale_graphs();
  auto const found = graphs_.find(batch.sequences);
  if (!options_.cuda_graphs || graphs_off_) {
    forward(batch, LogitsRows::All);
  } else if (found != graphs_.end()) {
    cuda_check(cudaGraphLaunch(found->second, stream_), "cudaGraphLaunch(decode step)");
  } else {
    // This step runs eagerly, sizing every workspace; then the same launches are recorded.
    forward(batch, LogitsRows::All);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaError_t e = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed);
    if (e == cudaSuccess) {
      bool recorded = true;
      try {
        forward(batch, LogitsRows::All);
      } catch (std::exception const& error) {
        recorded = false;  // a partial graph must not be replayed
        std::fprintf(stderr, "cute-cpp-qwen3: recording the decode step failed (%s)\n", error.what());
      }
      e = cudaStreamEndCapture(stream_, &graph);
      if (!recorded && e == cudaSuccess) e = cudaErrorStreamCaptureInvalidated;
    }
    if (e == cudaSuccess && graph != nullptr && options_.programmatic_launch)
      host::make_kernel_edges_programmatic(graph);
    if (e == cudaSuccess && graph != nullptr) e = cudaGraphInstantiate(&exec, graph, 0);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    if (e == cudaSuccess && exec != nullptr) {
      graphs_.emplace(batch.sequences, exec);
      graphs_recorded_at_ = buffer_moves_;
    } else {
      (void)cudaGetLastError();
      graphs_off_ = true;
      std::fprintf(stderr, "cute-cpp-qwen3: no CUDA graph for the decode step (%s); decoding eagerly\n",
                   cudaGetErrorString(e));
    }
  }
  logits_rows_ = n;
}

void Model::upload(Batch const& batch) {
  if (!h_ids_.empty()) upload_async(ids_, h_ids_, stream_);
  upload_async(positions_, h_positions_, stream_);
  upload_async(seqlens_, h_seqlens_, stream_);
  upload_async(block_table_, h_block_table_, stream_);
  if (!batch.decode) {
    upload_async(cu_seqlens_, h_cu_seqlens_, stream_);
    upload_async(last_rows_, h_last_rows_, stream_);
  }
}

/// The pass over the uploaded batch: only launches on stream_ (and, outside a graph's recording,
/// buffers that grow), so that a decode step can be recorded as a CUDA graph.
void Model::forward(Batch const& batch, LogitsRows rows) {
  std::int64_t const t = batch.tokens;
  ++routing_pass_;
  residual_.begin();
  float const eps = float(config_.rms_norm_eps);
  embed(t);
  mark("embedding");
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
  // A decode step's few rows: each RMSNorm inside the projection after it (one launch less each).
  bool const fuse_norms = options_.fuse_norms && normed_linear_takes(t, hidden_);
  for (std::size_t l = 0; l < weights_.layers.size(); ++l) {
    LayerWeights const& w = weights_.layers[l];
    if (fuse_norms) {
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
    if (fuse_norms && !w.sparse()) {
      normed_gated_linear_tn(residual_.normed_rows(delta_.data(), w.post_norm.data(), eps), w.gate_up.data(),
                             ffn_hidden_.data(), t, ffn_, hidden_, stream_, early_weights());
      mark("add + rmsnorm + gate-up gemm + swiglu");
      linear(ffn_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, ffn_);
      mark("down gemm");
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
  lm_head(head_in, logits_rows_);
  mark("lm head");
  cuda_check(cudaGetLastError(), "forward");
}

void Model::embed(std::int64_t t) {
  if (tp_ == nullptr) {
    gather_rows(weights_.embed.data(), config_.vocab_size, ids_.data(), delta_.data(), t, hidden_, stream_);
    return;
  }
  gather_vocab_rows(weights_.embed.data(), plan_->vocab_begin(), plan_->vocab_end(), ids_.data(), delta_.data(), t,
                    hidden_, stream_);
  all_reduce(delta_.data(), t);
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
    return;
  }
  if (rank_logits_.size() < shard) {
    rank_logits_ = DeviceBuffer<bf16>(shard);
    ++buffer_moves_;
  }
  // The rank's padded rows (zeros; never read): the output rows stay 16-byte aligned (padded_vocab_rows).
  linear(in, weights_.output(), rank_logits_.data(), rows, ld, hidden_);
  tp_->all_gather(rank_, rank_logits_.data(), logits_.data(), shard, stream_);
  logits_layout_ = gathered_logits(rows, vocab_rows_, ld);
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

void Model::mlp(LayerWeights const& w, std::int64_t t) {
  if (w.sparse()) {
    // Router, softmax and top-k, the experts through the grouped GEMMs, the weighted combine: all on
    // the device, so a decode step's graph records it like the dense layers.
    kn::moe::MoeShape const s = moe_shape(t);
    std::size_t const bytes = kn::moe::moe_scratch_bytes(s);
    void* const scratch = moe_workspace_.ensure(bytes, stream_);
    kn::moe::moe_layer(normed_.data(), {w.router.data(), w.experts_gate_up.data(), w.experts_down.data()}, s,
                       delta_.data(), scratch, stream_);
    mark("moe block");
    if (options_.routing_stats) print_routing(s, scratch, int(&w - weights_.layers.data()));
  } else if (t <= kn::SimtGemmTile::skinny_rows) {
    // A decode step's few rows: gate-up and SwiGLU in the gated skinny kernel, from its fp32 sums.
    gated_linear(normed_.data(), w.gate_up.data(), ffn_hidden_.data(), t, ffn_, hidden_);
    mark("gate-up gemm + swiglu");
    linear(ffn_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, ffn_);
    mark("down gemm");
  } else if (t <= kSkinnyRows) {
    // A few rows: the gate-up product through the swapped skinny GEMM, then SwiGLU.
    linear(normed_.data(), w.gate_up.data(), gate_up_.data(), t, 2 * std::int64_t(ffn_), hidden_);
    mark("gate-up gemm");
    swiglu_interleaved(gate_up_.data(), ffn_hidden_.data(), t, ffn_, stream_);
    mark("swiglu");
    linear(ffn_hidden_.data(), w.down.data(), delta_.data(), t, hidden_, ffn_);
    mark("down gemm");
  } else {
    kn::FfnWeights ffn_weights;
    ffn_weights.gate_up = w.gate_up.data();
    ffn_weights.down = w.down.data();
    std::size_t const bytes = kn::ffn_workspace_bytes(std::size_t(t), std::size_t(hidden_), std::size_t(ffn_));
    kn::ffn(normed_.data(), ffn_weights, ffn_hidden_.data(), delta_.data(), std::size_t(t), std::size_t(hidden_),
            std::size_t(ffn_), gemm_workspace_.ensure(bytes, stream_), bytes, stream_);
  }
}

void Model::attention(Batch const& batch, int layer) {
  std::int64_t const q_width = std::int64_t(heads_) * head_dim_;
  bf16* const q = qkv_.data();
  bf16* const k = q + q_width;
  bf16* const v = k + std::int64_t(kv_heads_) * head_dim_;
  bf16* const k_cache = k_cache_.data() + layer * layer_cache_elems_;
  bf16* const v_cache = v_cache_.data() + layer * layer_cache_elems_;
  int const page_size = options_.page_size, max_pages = pages_.shape().max_pages_per_seq;
  cute_cpp::AttentionStrides const cache_stride{std::int64_t(page_size) * kv_heads_ * head_dim_,
                                          std::int64_t(kv_heads_) * head_dim_, head_dim_};

  // Prefill: the new tokens' K and V into their pages, per sequence (each has its own number of
  // tokens). A decode step's qk_norm_rope appended them already.
  if (!batch.decode) {
    kn::KvAppendArguments<bf16> append;
    append.k_new_stride = append.v_new_stride = {qkv_width_, qkv_width_, head_dim_};
    append.k = k_cache, append.v = v_cache;
    append.k_stride = append.v_stride = cache_stride;
    append.heads_kv = kv_heads_, append.head_dim = append.head_dim_v = head_dim_;
    append.page_size = page_size, append.max_pages_per_seq = max_pages, append.num_pages = options_.num_pages + 1;
    for (int b = 0; b < batch.sequences; ++b) {
      std::int64_t const first = h_cu_seqlens_[std::size_t(b)];
      append.k_new = k + first * qkv_width_, append.v_new = v + first * qkv_width_;
      append.batch = 1, append.q_tokens = h_seqlens_[std::size_t(b)];
      append.seqlens_k = seqlens_.data() + b;
      append.block_table = block_table_.data() + std::int64_t(b) * max_pages;
      kn::run_kv_append(append, stream_);
    }
  }

  cute_cpp::AttentionStrides const q_stride{qkv_width_, qkv_width_, head_dim_};
  cute_cpp::AttentionStrides const o_stride{q_width, q_width, head_dim_};
  if (batch.decode) {
    kn::DecodeArguments<bf16> a;
    a.q = q, a.k = k_cache, a.v = v_cache, a.o = attn_.data();
    a.q_stride = q_stride, a.k_stride = a.v_stride = cache_stride, a.o_stride = o_stride;
    a.batch = batch.sequences, a.q_tokens = 1, a.heads_q = heads_, a.heads_kv = kv_heads_;
    a.head_dim = a.head_dim_v = head_dim_;
    a.causal = true;
    a.seqlens_k = seqlens_.data(), a.max_seq_k = batch.max_len;
    a.block_table = block_table_.data();
    a.page_size = page_size, a.max_pages_per_seq = max_pages, a.num_pages = options_.num_pages + 1;
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

}  // namespace

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
