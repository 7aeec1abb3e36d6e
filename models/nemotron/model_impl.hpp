// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/model_impl.hpp: the decoder's implementation class, shared by its two translation
// units: model_sm90.cu (set-up, the batches' host tables, prefill / extend / decode, the CUDA
// graphs, the pass over the layers) and mixers_sm90.cu (each layer kind's mixer on the kernels).
// Private to models/nemotron.
#include "models/common/device_workspace.hpp"  // GrowingWorkspace
#include "models/common/kv_pages.hpp"
#include "models/common/residual_stream.cuh"  // ResidualStream
#include "models/common/step_marks.cuh"  // StepMarks
#include "models/nemotron/device_weights.hpp"
#include "models/nemotron/model.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace cute_cpp::models::nemotron_detail {

using bf16 = __nv_bfloat16;
using host::DeviceBuffer;

using Workspace = GrowingWorkspace;  // models/common/device_workspace.hpp

/// What one forward pass runs over: `tokens` rows of the activations.
struct Batch {
  std::int64_t tokens = 0;
  int sequences = 0;
  enum class Kind { fresh, extend, decode } kind = Kind::fresh;
  int max_len = 0;     ///< the longest sequence (its cached and new tokens) after this pass
  bool graph = false;  ///< a decode step a graph may record: no host copies of the tables checked
};

/// The decoder; see NemotronModel.
class Model final : public NemotronModel {
 public:
  Model(const std::filesystem::path& folder, NemotronOptions options, std::optional<std::uint64_t> random_seed);
  ~Model() override;

  const NemotronHConfig& config() const noexcept override { return config_; }
  const NemotronOptions& options() const noexcept override { return options_; }
  std::uint64_t weight_bytes() const noexcept override { return weight_bytes_; }
  std::uint64_t state_bytes() const noexcept override { return conv_states_.bytes() + ssm_states_.bytes(); }
  std::uint64_t kv_cache_bytes() const noexcept override { return k_cache_.bytes() + v_cache_.bytes(); }
  std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) override;
  void extend(std::span<const int> slots, std::span<const std::vector<std::int32_t>> chunks, LogitsRows rows) override;
  void decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) override;
  MarginalProfile marginal_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                  int replays) override;
  std::vector<NemotronPhase> profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                        int replays) override;
  void release(int slot) override { pages_.release(slot); }
  int length(int slot) const override { return pages_.length(slot); }
  const bf16* logits() const noexcept override { return logits_.data(); }
  int logits_rows() const noexcept override { return logits_rows_; }
  cudaStream_t stream() const noexcept override { return stream_; }

 private:
  // ---- model_sm90.cu ----
  /// The host tables of a prefill or extend pass over `slots` (their lengths already grown).
  Batch stage_prompts(std::span<const int> slots, std::span<const std::vector<std::int32_t>> prompts,
                      Batch::Kind kind);
  void check_slots(std::span<const int> slots, std::span<const int> added) const;
  /// All prompts of one pass fit max_prefill_tokens [nemotron.input].
  void check_prefill_tokens(std::span<const std::vector<std::int32_t>> prompts) const;
  void zero_states(int slot);
  void grow_activations(std::int64_t tokens);
  void upload(Batch const& batch);
  /// decode()'s checks and the step's host tables for `slots` (each grown by one token); returns their count.
  int stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids);
  /// The staged step's `n` rows padded to a graph's batch size, uploaded.
  Batch upload_decode(int n);
  void record_or_replay(Batch const& batch);
  /// profile_decode's step: the uploaded batch recorded with marks and replayed.
  std::vector<NemotronPhase> profile_step(Batch const& batch, int replays);
  /// While profile_step records: an event recorded on the stream, closing the phase `name`.
  void mark(const char* name);
  void forward(Batch const& batch, LogitsRows rows);

  // ---- mixers_sm90.cu: each reads normed_ and writes delta_ ----
  void linear(bf16 const* in, bf16 const* weight, bf16* out, std::int64_t m, std::int64_t n, std::int64_t k);
  /// A Mamba or attention layer's input projection of its t rows: of normed_ (add_norm ran), or with
  /// `fold` the add + RMSNorm of delta_ into the residual stream inside the skinny GEMM.
  void input_projection(NemotronLayerWeights const& w, bool fold, bf16 const* weight, bf16* out, std::int64_t t,
                        std::int64_t n);
  void mamba(Batch const& batch, NemotronLayerWeights const& w, int index, bool fold_norm);
  void attention(Batch const& batch, NemotronLayerWeights const& w, int index, bool fold_norm);
  void moe(Batch const& batch, NemotronLayerWeights const& w, bool fold_norm);
  void mlp(Batch const& batch, NemotronLayerWeights const& w);

  NemotronHConfig config_;
  NemotronOptions options_;
  NemotronCacheLayout layout_;
  std::uint64_t weight_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  NemotronWeights weights_;
  int hidden_ = 0;
  // Mamba-2 widths: d_inner, conv_dim, in_proj's rows; attention: the QKV row, the output row.
  std::int64_t inner_ = 0, conv_dim_ = 0, in_proj_width_ = 0, qkv_width_ = 0, attn_width_ = 0;

  KvPages pages_;
  // [mamba layer][slot][conv_kernel - 1][conv_dim] bf16 and [mamba layer][slot][heads][P][N] f32.
  DeviceBuffer<bf16> conv_states_;
  DeviceBuffer<float> ssm_states_;
  // [attention layer][pages + 1 scratch][page_size][kv_heads][head_dim]
  DeviceBuffer<bf16> k_cache_, v_cache_;
  std::int64_t layer_cache_elems_ = 0;
  std::int32_t scratch_page_ = 0;

  std::int64_t capacity_ = 0;
  ResidualStream residual_;
  DeviceBuffer<bf16> delta_, normed_, zxbcdt_, xbc_, y_, gated_, qkv_, attn_, mlp_hidden_, last_, logits_;
  int logits_rows_ = 0;
  // The batch on the device, and the host copies.
  DeviceBuffer<std::int32_t> ids_, cu_seqlens_, seqlens_, block_table_, last_rows_, state_slots_;
  std::vector<std::int32_t> h_ids_, h_cu_seqlens_, h_seqlens_, h_block_table_, h_last_rows_, h_state_slots_;
  Workspace gemm_workspace_, decode_workspace_, moe_workspace_, ssd_workspace_;
  std::map<int, cudaGraphExec_t> graphs_;
  bool graphs_off_ = false;
  int buffer_moves_ = 0, graphs_recorded_at_ = 0;
  // profile_step's recording: whether mark() records, and the marks so far.
  StepMarks marks_;  ///< the events between a profiled step's phases
};

}  // namespace cute_cpp::models::nemotron_detail
