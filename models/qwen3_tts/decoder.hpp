// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/decoder.hpp: a stack of Qwen3 decoder layers over input embeddings for one
// sequence, on the library's kernels (the layer of models/qwen3/model_sm90.cu: fused-residual
// RMSNorm, the bf16 GEMMs, q/k norm + RoPE of layer_kernels.cuh, varlen prefill attention, paged
// decode attention), with its own KV cache. Qwen3-TTS's talker (multimodal RoPE) and code
// predictor (plain RoPE) are each one. A step reads its position and length from the device, so
// that steps can be recorded in a CUDA graph and replayed at later positions.
#include <cstdint>  // std::int32_t, std::int8_t
#include <optional>
#include <vector>   // std::vector

#include <cuda_runtime_api.h>

#include "models/common/checkpoint.hpp"   // Qwen3Config
#include "models/common/device_workspace.hpp"  // GrowingWorkspace
#include "models/common/residual_stream.cuh"  // ResidualStream
#include "models/qwen3/device_weights.hpp"  // LayerWeights, DeviceBuffer, bf16
#include "models/qwen3/fused_step.hpp"      // FusedStep

namespace cute_cpp::models::qwen3_tts {

using cute_cpp::models::GrowingWorkspace;  // models/common/device_workspace.hpp

/// out[r] = table[ids[r]] for `count` rows of `width` (models/qwen3/layer_kernels.cuh's gather_rows; an
/// id outside [0, table_rows) gives a row of zeros).
void gather(bf16 const* table, std::int64_t table_rows, std::int32_t const* ids, bf16* out, std::int64_t count,
            int width, cudaStream_t stream);

class Decoder {
 public:
  /// `rope_component`: multimodal RoPE's pair-to-id table (mrope_components), or empty for plain RoPE.
  /// @pre bf16 weights of `config`'s shapes; head_dim 64, 128 or 256 [tts.decoder].
  /// `fused_steps`: a step runs as one launch (models/qwen3/fused_step.hpp) where FusedStep takes
  /// the decoder's widths on this device (else the layered step, as without it; set_fused_steps
  /// switches later).
  Decoder(const Qwen3Config& config, std::vector<LayerWeights> layers, DeviceBuffer<bf16> final_norm, int max_seq,
          int max_tokens, const std::vector<std::int8_t>& rope_component, cudaStream_t stream,
          bool fused_steps = false);

  /// A fresh sequence of `tokens` rows of `input` ([tokens, hidden], device); positions: [4, tokens]
  /// planes on the device (mrope.hpp's MropePositions; plane 0 must be 0 .. tokens - 1). hidden()
  /// then holds the final-normed rows.
  /// @pre 1 <= tokens <= min(max_tokens, max_seq) [tts.input].
  void prefill(bf16 const* input, int tokens, std::int32_t const* positions);
  /// One more token of the sequence: input [1, hidden]; positions [4, 1] (plane 0: its place, which
  /// must be the cached length); length: the cached tokens after it (= place + 1). All three on the
  /// device, read when the step runs. hidden() row 0 then holds its final-normed row; without
  /// `final_norm` the final RMSNorm is left to final_rows() (or to nothing, where no one reads the row).
  /// @pre the place < max_seq (checked by the caller).
  void step(bf16 const* input, std::int32_t const* positions, std::int32_t const* length, bool final_norm = true);
  /// After step(..., false): the final RMSNorm's rows as a projection that norms them itself takes them
  /// (normed_linear_tn: the same normed values hidden() would hold).
  [[nodiscard]] kernels::RmsNormedRows<bf16> final_rows();

  [[nodiscard]] bf16 const* hidden() const noexcept { return normed_.data(); }
  [[nodiscard]] int hidden_size() const noexcept { return hidden_; }
  [[nodiscard]] int max_seq() const noexcept { return max_seq_; }
  [[nodiscard]] GrowingWorkspace& gemm_workspace() noexcept { return gemm_workspace_; }
  /// Whether steps run fused (asked for, and FusedStep takes the widths).
  [[nodiscard]] bool fused() const noexcept { return use_fused_ && fused_.has_value(); }
  /// Steps from now on fused where FusedStep takes the widths (on), or layered.
  void set_fused_steps(bool on) noexcept { use_fused_ = on; }

 private:
  enum class Mode { prefill, step };
  /// The layers over `input` ([tokens, hidden], read in place as the first layer's delta).
  void layers(Mode mode, int tokens, std::int32_t const* positions, std::int32_t const* length, bf16 const* input,
              bool final_norm = true);
  void add_norm(bf16 const* delta, bf16 const* weight, int tokens);
  void attention(Mode mode, int layer, int tokens, std::int32_t const* length);
  void mlp(LayerWeights const& w, int tokens);
  void fused_step(bf16 const* input, std::int32_t const* positions, std::int32_t const* length, bool final_norm);

  Qwen3Config config_;
  std::vector<LayerWeights> layers_;
  DeviceBuffer<bf16> final_norm_;
  cudaStream_t stream_;
  int max_seq_, max_tokens_, hidden_, heads_, kv_heads_, head_dim_, ffn_, qkv_width_;
  int page_size_ = 64, pages_ = 0;
  DeviceBuffer<float> inv_freq_;
  DeviceBuffer<std::int8_t> rope_component_;  // empty: plain RoPE
  DeviceBuffer<std::int32_t> block_table_, cu_seqlens_, prefill_length_;
  std::vector<std::int32_t> h_cu_seqlens_;
  DeviceBuffer<bf16> k_cache_, v_cache_;  // [layers, pages, page_size, kv_heads, head_dim]
  std::int64_t layer_cache_elems_ = 0;
  ResidualStream residual_;
  DeviceBuffer<bf16> delta_, normed_, qkv_, attn_, ffn_hidden_, gate_up_;
  GrowingWorkspace gemm_workspace_, decode_workspace_;
  std::optional<FusedStep> fused_;  // where FusedStep takes the widths
  bool use_fused_ = false;
};

}  // namespace cute_cpp::models::qwen3_tts
