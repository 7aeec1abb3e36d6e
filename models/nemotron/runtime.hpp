// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/runtime.hpp: the host side of the Nemotron-H GPU decoder that needs no GPU: what
// the decoder supports of a config (its rules), its run-time options, where each layer's cache
// lives (the pattern walked once: Mamba-2 layers hold conv and SSM states per sequence slot,
// attention layers the paged KV cache, MoE and MLP layers nothing), the prompts' checks, and the
// bytes a decode step must read (the benchmark's limit arithmetic).
#include <cstdint>  // std::int32_t, std::int64_t, std::uint64_t
#include <span>     // std::span
#include <string>   // std::string
#include <vector>   // std::vector

#include "models/nemotron/config.hpp"  // NemotronHConfig
#include "models/common/step_profile.hpp"  // StepPhase, step_phases

namespace cute_cpp::models {

/// The rule every refused prompt, id, slot or sequence length names.
inline constexpr char const* kNemotronInputRule =
    "cute-cpp [nemotron.input]: prompts are non-empty, ids lie in [0, vocab_size), slots are distinct and in use, and "
    "every sequence fits max_seq and max_position_embeddings";

/// The Mamba-2 plan compiled into cute_cpp::ssm (kernels/ssm: NemotronSsdPlan, NemotronConvPlan).
inline constexpr int kNemotronMambaHeadDim = 64, kNemotronSsmState = 128, kNemotronConvKernel = 4;

/// The decoder's run-time sizes: what the caches and the activations are allocated for.
struct NemotronOptions {
  int max_batch = 32;             ///< sequences held (and decoded together) at once: state slots
  int max_seq = 4096;             ///< tokens per sequence; 0: max_position_embeddings
  int max_prefill_tokens = 8192;  ///< tokens of all prompts of one prefill call
  int page_size = 128;            ///< tokens per KV-cache page (a multiple of 128: extend()'s paged attention tiles)
  int num_pages = 0;              ///< 0: enough for max_batch sequences of max_seq tokens
  /// Decode steps replay CUDA graphs, one per padded batch size (1, 2, 4, ... max_batch).
  bool cuda_graphs = true;
  /// The decode graphs' kernel-to-kernel edges are programmatic (PDL, host/graph_pdl.hpp): each kernel
  /// launches while the one before it runs and waits for its memory in griddepcontrol.wait. A batch-1
  /// step is ~500 short dependent kernels, so the launch gaps are much of it. On since the H100 run at
  /// 224d1a7: bit-equal logits to the plain graphs, the same ids as eager steps, 1.066x at batch 1.
  bool programmatic_launch = true;
  /// A decode step's Mamba and attention layers run their add + RMSNorm inside the input projection's
  /// skinny GEMM (kernels/gemm/simt_gemv_norm.cuh), not as a kernel of its own; the MoE and MLP layers,
  /// whose normed rows several kernels read, and passes of more than 8 tokens keep it.
  bool fuse_norms = true;
};

/// Throws unless the GPU decoder runs `config`:
/// @pre torch_dtype bfloat16 [nemotron.dtype]; hidden_size a multiple of 8 [nemotron.shape];
///      Mamba-2 layers with mamba_head_dim 64, ssm_state_size 128, conv_kernel 4 (the compiled plan)
///      and mamba_num_heads a multiple of 8 (in_proj's rows are 16-byte multiples) [nemotron.mamba];
///      attention head_dim 64, 128 or 256 [nemotron.attention]; MoE layers within kernels/moe's
///      limits (at most 256 experts, a multiple of 4, top-k at most 16, expert and shared widths
///      multiples of 8, n_group at most 32) [nemotron.moe]; a dense MLP width a multiple of 8 [nemotron.shape].
void check_nemotron_support(const NemotronHConfig& config);

/// `options` with max_seq 0 and num_pages 0 resolved (max_position_embeddings; max_batch full sequences).
/// @pre max_batch, max_seq, max_prefill_tokens, page_size positive, page_size a multiple of 128,
///      max_seq at most max_position_embeddings, num_pages >= 0 [nemotron.options].
[[nodiscard]] NemotronOptions resolve_options(const NemotronHConfig& config, NemotronOptions options);

/// Checks prompts against a config: non-empty, ids in [0, vocab_size), each fits `max_seq` (0: the
/// config's positions) with `max_new_tokens` more [nemotron.input].
void check_prompts(const NemotronHConfig& config, int max_seq, std::span<const std::vector<std::int32_t>> prompts,
                   int max_new_tokens);

/// Where each layer's cache lives, from the layer pattern.
///   NemotronCacheLayout c(read_nemotron_h_config("Nemotron-3-Nano"));   // "MEMEM*E..."
///   c.mamba_index(4) -> 2    c.attention_index(5) -> 0    c.mamba_index(1) -> -1 (a MoE layer)
class NemotronCacheLayout {
 public:
  explicit NemotronCacheLayout(const NemotronHConfig& config);
  /// The layer's place among the Mamba-2 layers (its states), or -1.
  [[nodiscard]] int mamba_index(int layer) const { return mamba_.at(std::size_t(layer)); }
  /// The layer's place among the attention layers (its KV pages), or -1.
  [[nodiscard]] int attention_index(int layer) const { return attention_.at(std::size_t(layer)); }
  [[nodiscard]] int mamba_layers() const noexcept { return mamba_layers_; }
  [[nodiscard]] int attention_layers() const noexcept { return attention_layers_; }
  /// One slot's conv state in one layer, bf16 elements: (conv_kernel - 1) x conv_dim.
  [[nodiscard]] std::int64_t conv_state_elems() const noexcept { return conv_elems_; }
  /// One slot's SSM state in one layer, f32 elements: heads x head_dim x state.
  [[nodiscard]] std::int64_t ssm_state_elems() const noexcept { return ssm_elems_; }
  /// K (or V) elements of one token in one attention layer: kv_heads x head_dim.
  [[nodiscard]] std::int64_t kv_token_elems() const noexcept { return kv_token_elems_; }
  /// Bytes of the conv (bf16) and SSM (f32) states of `slots` sequence slots over every Mamba-2 layer.
  [[nodiscard]] std::uint64_t state_bytes(int slots) const noexcept;
  /// Bytes of the K and V pages (bf16) of every attention layer.
  [[nodiscard]] std::uint64_t kv_bytes(int pages, int page_size) const noexcept;

 private:
  std::vector<int> mamba_, attention_;
  int mamba_layers_ = 0, attention_layers_ = 0;
  std::int64_t conv_elems_ = 0, ssm_elems_ = 0, kv_token_elems_ = 0;
};

/// What one decode step of `batch` sequences of `context` tokens each must read (and, for the
/// states, write back), in bytes: the limit a step's time is set against at the memory rate.
struct NemotronStepBytes {
  double weights = 0;  ///< every weight but the routed experts, plus the experts the batch's tokens choose
  double states = 0;   ///< conv and SSM states, read and written
  double kv = 0;       ///< the attention layers' K and V of the context
  [[nodiscard]] double total() const noexcept { return weights + states + kv; }
};

/// The step's bytes, in bf16 weights (f32 A_log, D, dt_bias and correction bias) with the routed
/// experts' share as uniform routing gives it: E (1 - (1 - k/E)^batch) distinct experts a MoE layer.
[[nodiscard]] NemotronStepBytes decode_step_bytes(const NemotronHConfig& config, int batch, int context);

/// One phase of a decode step as NemotronModel::profile_decode times it (models/common/step_profile.hpp).
using NemotronPhase = StepPhase;

}  // namespace cute_cpp::models
