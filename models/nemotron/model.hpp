// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/model.hpp: the Nemotron-H decoder on the GPU (sm_90a): weights from a Hugging Face
// checkpoint (or a seed), the hybrid layers as the config's pattern lists them (Mamba-2, MoE,
// attention without positional encoding, dense ReLU^2 MLP), per-sequence conv and SSM states beside
// the attention layers' paged KV cache, varlen prefill of new prompts, prefill that continues
// sequences (states and cache carried), and batched decode steps replayed from CUDA graphs.
// Host-facing: no kernel is declared here.
#include <cstdint>     // std::int32_t, std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <memory>      // std::unique_ptr
#include <span>        // std::span
#include <vector>      // std::vector

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include "models/common/logits_rows.hpp"  // LogitsRows
#include "models/nemotron/config.hpp"     // NemotronHConfig
#include "models/nemotron/runtime.hpp"    // NemotronOptions, check_prompts, kNemotronInputRule

namespace cute_cpp::models {

/// The Nemotron-H decoder, weights on the device. Not thread-safe; one stream.
///   auto model = NemotronModel::load("Nemotron-3-Nano-30B-A3B", {.max_batch = 8});
///   std::vector<int> slots = model->prefill({{prompt ids}}, LogitsRows::Last);
///   model->extend(slots, {{more ids}}, LogitsRows::Last);   // the same sequence, states carried
///   model->decode(slots, {next id});
class NemotronModel {
 public:
  /// Reads config.json, checks what the decoder supports (check_nemotron_support), validates the
  /// checkpoint (NemotronHWeightManifest) and loads the weights.
  /// @pre [nemotron.dtype], [nemotron.shape], [nemotron.mamba], [nemotron.attention], [nemotron.moe],
  ///      [nemotron.options], and the checkpoint's [nemotron.tensor-*] rules.
  [[nodiscard]] static std::unique_ptr<NemotronModel> load(const std::filesystem::path& folder,
                                                           NemotronOptions options = {});
  /// For benchmarks: `folder`'s config.json alone, the weights filled on the device from `seed`
  /// (nemotron_random_weights); its timings are a checkpoint's, its outputs mean nothing.
  [[nodiscard]] static std::unique_ptr<NemotronModel> with_random_weights(const std::filesystem::path& folder,
                                                                          std::uint64_t seed,
                                                                          NemotronOptions options = {});
  virtual ~NemotronModel() = default;

  [[nodiscard]] virtual const NemotronHConfig& config() const noexcept = 0;
  [[nodiscard]] virtual const NemotronOptions& options() const noexcept = 0;
  /// Bytes of weights (the manifest's), of the conv and SSM states, and of the KV cache.
  [[nodiscard]] virtual std::uint64_t weight_bytes() const noexcept = 0;
  [[nodiscard]] virtual std::uint64_t state_bytes() const noexcept = 0;
  [[nodiscard]] virtual std::uint64_t kv_cache_bytes() const noexcept = 0;

  /// Starts one sequence per prompt (its states zeroed) and runs them together. Returns their slots.
  /// @pre check_prompts passes; all fit max_prefill_tokens and max_batch [nemotron.input]; free
  ///      slots and pages exist [qwen3.kv-cache] (the shared page allocator's rule).
  [[nodiscard]] virtual std::vector<int> prefill(std::span<const std::vector<std::int32_t>> prompts,
                                                 LogitsRows rows) = 0;
  /// Continues sequences: `chunks[i]` appended to slot `slots[i]`, from its carried conv and SSM
  /// states and cached keys; logits() as prefill leaves them.
  /// @pre the slots distinct and in use, each chunk non-empty with valid ids, and each sequence still
  ///      fitting max_seq [nemotron.input].
  virtual void extend(std::span<const int> slots, std::span<const std::vector<std::int32_t>> chunks,
                      LogitsRows rows) = 0;
  /// One token for each of `slots` (ids on the host, or on the device when `device_ids` is set);
  /// logits() then holds one row per slot, in order.
  /// @pre the slots distinct and in use, ids in [0, vocab_size), each sequence with room [nemotron.input].
  virtual void decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                      const std::int32_t* device_ids = nullptr) = 0;
  /// decode(), with the step recorded as a CUDA graph that has an event between every two phases
  /// (the embedding, each add + rmsnorm, each Mamba-2 mixer's in_proj / conv + SSM update / gated
  /// norm / out_proj, each attention's qkv / KV append + decode / o, each MoE block's router /
  /// experts / shared expert / combine, the LM head) and replayed `replays` times (each replay the
  /// same step again): where a step's time goes, each phase summed over the layers. The events keep
  /// the kernels of two phases from overlapping, so the phases add up to a little more than a step.
  /// @pre decode()'s, and replays >= 1 [nemotron.input].
  [[nodiscard]] virtual std::vector<NemotronPhase> profile_decode(std::span<const int> slots,
                                                              std::span<const std::int32_t> ids, int replays) = 0;
  /// decode()'s step recorded as the decode graphs are (PDL and all), replayed `replays` times whole
  /// and with each of profile_decode's phases' launches disabled in turn: what each phase costs the
  /// step as it runs (models/common/step_marks.cuh's marginal). @pre as profile_decode's.
  [[nodiscard]] virtual MarginalProfile marginal_decode(std::span<const int> slots,
                                                        std::span<const std::int32_t> ids, int replays) = 0;
  /// Ends a sequence: its slot (states) and pages are free again.
  virtual void release(int slot) = 0;
  /// The tokens a sequence has seen.
  [[nodiscard]] virtual int length(int slot) const = 0;

  /// The last forward pass's logits: bf16 [logits_rows(), vocab_size] on the device, row-major.
  [[nodiscard]] virtual const __nv_bfloat16* logits() const noexcept = 0;
  [[nodiscard]] virtual int logits_rows() const noexcept = 0;
  [[nodiscard]] virtual cudaStream_t stream() const noexcept = 0;
};

}  // namespace cute_cpp::models
