// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/model.hpp: the Qwen3 dense decoder on the GPU (sm_90a): its weights loaded from a
// Hugging Face checkpoint, a paged KV cache, batched prefill of new prompts and batched decode
// steps, every operation a cute-cpp kernel (kernels/: the GEMM and FFN, rmsnorm, attention prefill
// and decode; layer_kernels.cuh for the embedding gather and q/k-norm + RoPE).
// Host-facing: no kernel is declared here.
#include <cstdint>     // std::int32_t, std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <memory>      // std::unique_ptr
#include <optional>    // std::optional
#include <span>        // std::span
#include <vector>      // std::vector

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include "models/common/checkpoint.hpp"   // Qwen3Config
#include "models/common/logits_rows.hpp"  // LogitsRows
#include "models/common/step_profile.hpp"  // StepPhase
#include "models/qwen3/prompts.hpp"      // check_prompts, kQwen3InputRule
#include "models/qwen3/vocab_shards.hpp"  // LogitsLayout

namespace cute_cpp::models {

/// The decoder's run-time sizes: what the KV cache and the activations are allocated for.
struct Qwen3Options {
  int max_batch = 32;                ///< sequences held (and decoded together) at once
  int max_seq = 4096;                ///< tokens per sequence, prompt and generated; 0: Qwen3Config::max_positions
  int max_prefill_tokens = 8192;     ///< tokens of all prompts of one prefill call
  int page_size = 64;                ///< tokens per KV-cache page (a multiple of 16)
  int num_pages = 0;                 ///< 0: enough for max_batch sequences of max_seq tokens
  /// Decode steps replay CUDA graphs, one per padded batch size (1, 2, 4, ... max_batch), each
  /// recorded at its first step; one kernel launch's host cost a step instead of hundreds.
  bool cuda_graphs = true;
  /// The decode graphs' kernel-to-kernel edges are programmatic (PDL): each kernel launches while
  /// the one before it runs and waits for its memory in griddepcontrol.wait (host/graph_pdl.hpp).
  /// With the early weight loads, 3% faster decode on the H200 (the bench times it beside without).
  bool programmatic_launch = true;
  /// With programmatic_launch: each GEMM loads its first stages' weight tiles before it waits
  /// for the kernel before it (gemm IndependentOperand).
  bool prefetch_weights = true;
  /// Passes of at most 8 tokens (decode steps) fold the add + RMSNorm before a Qwen3-MoE sparse
  /// layer's router into the router's launch (kernels/moe's moe_layer_normed).
  bool fuse_norms = true;
  /// Passes of at most 8 tokens fold the add + RMSNorm before the QKV and dense gate-up projections
  /// into the projection's kernel (kernels/gemm/simt_gemv_norm.cuh): a launch less each, yet the step
  /// is slower with it at batch 1 (models/qwen3/README.md), so only where asked for.
  bool fuse_dense_norms = false;
  /// Decode steps of one sequence run as one launch (fused_step.hpp) where the fused step takes the
  /// model (one device, its widths; dense and Qwen3-MoE layers); otherwise, and for more sequences,
  /// the layered step.
  bool fused_steps = false;
  /// Qwen3-MoE: after each pass, per layer, how many of its tokens' choices each expert received,
  /// printed to stderr (load imbalance shows); the decode steps run eagerly (a graph holds no
  /// host read). A debugging aid: each sparse layer waits for the device.
  bool routing_stats = false;
};

class Collectives;  // collectives.hpp

/// One rank of a tensor-parallel model (tensor_parallel_model.hpp runs the N of them): its part of
/// the weights (ShardPlan(manifest, ranks, rank, ranks)) and the collectives it calls.
struct Qwen3Rank {
  int ranks = 1;
  int rank = 0;
  Collectives* collectives = nullptr;  ///< not owned; ranks() == ranks
};

/// One phase of a decode step as Qwen3Model::profile_decode times it (models/common/step_profile.hpp).
using StepPhase = models::StepPhase;
/// A decode step's phases as Qwen3Model::marginal_decode times them (models/common/step_profile.hpp).
using MarginalProfile = models::MarginalProfile;
/// The rule a marginal profile of a tensor-parallel step names.
inline constexpr char const* kTpProfileRule =
    "cute-cpp [tp.profile]: a marginal profile disables one phase's launches at a time, and a rank left without its "
    "collectives would wait for the others forever (profile one device)";

/// The Qwen3 dense decoder, weights on the device. Not thread-safe; one stream.
///   auto model = Qwen3Model::load("Qwen3-8B", {.max_batch = 8});
///   std::vector<int> slots = model->prefill({{prompt ids}}, LogitsRows::Last);
///   model->logits();  // [1, vocab] bf16 on the device
///   model->decode(slots, {next id});
class Qwen3Model {
 public:
  /// Reads config.json, validates the checkpoint (Qwen3WeightManifest) and loads the weights,
  /// fusing q/k/v and gate/up as the GEMMs read them.
  /// @pre a Qwen3 checkpoint in bfloat16 [qwen3.dtype]; head_dim 64, 128 or 256 [qwen3.head-dim];
  ///      options within the config [qwen3.options].
  [[nodiscard]] static std::unique_ptr<Qwen3Model> load(const std::filesystem::path& folder, Qwen3Options options = {});
  /// For benchmarks: the decoder of `folder`'s config.json alone (no safetensors), its weights at
  /// the checkpoint's shapes and packed layouts, filled on the device from `seed` (matrices of mean
  /// 0 and standard deviation 0.02, RMSNorm weights 1 + that noise), so that no host memory or disk
  /// holds them. Its timings are a checkpoint's of that config; its outputs mean nothing.
  /// @pre as load(), without the checkpoint.
  [[nodiscard]] static std::unique_ptr<Qwen3Model> with_random_weights(const std::filesystem::path& folder,
                                                                       std::uint64_t seed, Qwen3Options options = {});
  /// One rank of a tensor-parallel model, on the current device: the weights of its ShardPlan (from
  /// the checkpoint, or with `random_seed` the rank's part of with_random_weights' values), attention
  /// on its heads, the MLP on its columns or experts, the LM head on its vocabulary rows, and the
  /// collectives between (tensor_parallel.md). Every rank's calls must be made together, one thread
  /// a rank. logits() holds the all-gathered logits in logits_layout(). The decode graphs are kept
  /// when the collectives are capturable (NCCL), and programmatic launch is off (NCCL's kernels do
  /// not wait in griddepcontrol.wait).
  /// @pre as load() or with_random_weights(); ShardPlan's tp.* rules for rank.ranks.
  [[nodiscard]] static std::unique_ptr<Qwen3Model> load_rank(const std::filesystem::path& folder,
                                                             Qwen3Options options,
                                                             std::optional<std::uint64_t> random_seed, Qwen3Rank rank);
  virtual ~Qwen3Model() = default;

  [[nodiscard]] virtual const Qwen3Config& config() const noexcept = 0;
  [[nodiscard]] virtual const Qwen3Options& options() const noexcept = 0;
  /// Bytes of weights on the device, and of the KV cache.
  [[nodiscard]] virtual std::uint64_t weight_bytes() const noexcept = 0;
  [[nodiscard]] virtual std::uint64_t kv_cache_bytes() const noexcept = 0;

  /// Starts one sequence per prompt and runs them through the model together (varlen attention),
  /// their K and V going into the cache. Returns their slots, in order.
  /// @pre each prompt is non-empty, its ids in [0, vocab_size), and fits max_seq and the config's
  ///      positions (Qwen3Config::max_positions); all of them fit max_prefill_tokens, and free slots and pages
  ///      exist [qwen3.input] / [qwen3.kv-cache].
  [[nodiscard]] virtual std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts,
                                                 LogitsRows rows) = 0;
  /// One token for each of `slots` (ids on the host, or on the device when `device_ids` is set):
  /// appended to its sequence; logits() then holds one row per slot, in order.
  /// @pre the slots are distinct and in use, ids in [0, vocab_size), and each sequence has room
  ///      [qwen3.input].
  virtual void decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                      const std::int32_t* device_ids = nullptr) = 0;
  /// decode(), with the step recorded as a CUDA graph that has an event between every two phases
  /// and replayed `replays` times (each replay the same step again): where a step's time goes.
  /// Events between the launches cost a little and keep kernels from overlapping (no PDL), so
  /// the phases add up to somewhat more than a plain step.
  [[nodiscard]] virtual std::vector<StepPhase> profile_decode(std::span<const int> slots,
                                                              std::span<const std::int32_t> ids, int replays) = 0;
  /// decode()'s step recorded as the decode graphs are (PDL and all), replayed `replays` times whole
  /// and with each phase's launches disabled in turn: what each phase costs the step as it runs
  /// (models/common/step_marks.cuh's marginal). One device only (rule tp.profile).
  [[nodiscard]] virtual MarginalProfile marginal_decode(std::span<const int> slots,
                                                        std::span<const std::int32_t> ids, int replays) = 0;
  /// Ends a sequence: its slot and pages are free again.
  virtual void release(int slot) = 0;
  /// The tokens a sequence holds in the cache.
  [[nodiscard]] virtual int length(int slot) const = 0;

  /// The last forward pass's logits: bf16 [logits_rows(), vocab_size] on the device, row-major on one
  /// device; a tensor-parallel model's are its ranks' gathered shards, in logits_layout().
  [[nodiscard]] virtual const __nv_bfloat16* logits() const noexcept = 0;
  /// Where logits() holds the logit of (row, id) (vocab_shards.hpp); read by sample_tokens.
  [[nodiscard]] virtual LogitsLayout logits_layout() const noexcept { return row_major_logits(config().vocab_size); }
  [[nodiscard]] virtual int logits_rows() const noexcept = 0;
  /// Whether decode steps of one sequence run as one launch (Qwen3Options::fused_steps, where the
  /// fused step takes the model).
  [[nodiscard]] virtual bool fused_decode() const noexcept { return false; }
  [[nodiscard]] virtual cudaStream_t stream() const noexcept = 0;
};

}  // namespace cute_cpp::models
