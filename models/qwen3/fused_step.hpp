// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/fused_step.hpp: FusedStep, a Qwen3 decoder's one-sequence decode step in one launch
// (fused_step.cuh says how), for the decoders whose steps are launch-bound: Qwen3-TTS's code
// predictor and talker, Qwen3-0.6B. The caller keeps the layered step for what it refuses.
#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/qwen3/device_weights.hpp"  // LayerWeights
#include "models/qwen3/fused_step.cuh"      // FusedLayer, FusedStepParams, FusedStepIo

namespace cute_cpp::models {

/// The fused step's view of the layers' weights (dense, or a sparse layer's router and experts) and of
/// their KV caches (layer l's K at k_cache + l layer_elems, [pages, page_size, heads_kv, head_dim]; V
/// likewise).
inline std::vector<FusedLayer> fused_layers(std::vector<LayerWeights> const& layers, bf16* k_cache, bf16* v_cache,
                                            std::int64_t layer_elems) {
  std::vector<FusedLayer> fused(layers.size());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    LayerWeights const& w = layers[l];
    fused[l] = {w.input_norm.data(), w.qkv.data(), w.q_norm.data(), w.k_norm.data(), w.o.data(), w.post_norm.data(),
                w.gate_up.data(), w.down.data(), k_cache + std::int64_t(l) * layer_elems,
                v_cache + std::int64_t(l) * layer_elems};
    if (w.sparse())
      fused[l].router = w.router.data(), fused[l].experts_gate_up = w.experts_gate_up.data(),
      fused[l].experts_down = w.experts_down.data();
  }
  return fused;
}

/// A decoder's fused decode step: its layers, the splits' scratch and counts, and the grid barrier's count.
class FusedStep {
 public:
  /// Why the fused step does not take `shape` on the current device, or empty (rule qwen3.fused-step).
  [[nodiscard]] static std::string refusal(FusedStepShape const& shape);
  /// `rope`: the decoder's RoPE (inv_freq, cos/sin scale, multimodal components, eps of q/k norm) and
  /// its cache's geometry (pages, page size, pages a sequence); `eps`: the layers' RMSNorm epsilon.
  /// @pre refusal(shape) is empty; one FusedLayer a layer (sparse ones only where shape.experts).
  FusedStep(FusedStepShape shape, std::vector<FusedLayer> const& layers, QkNormRopeParams const& rope, float eps);

  /// One step over `io`'s rows. Launched cooperatively (the grid waits at barriers); a graph the
  /// caller records with programmatic edges starts it early.
  void run(FusedStepIo const& io, cudaStream_t stream);

  /// Final RMSNorms the residual stream has taken after a step (its two per layer, and the final
  /// one where the step does it): what ResidualStream::after is told.
  [[nodiscard]] int norms(bool final_norm) const noexcept { return 2 * fixed_.shape.layers + (final_norm ? 1 : 0); }

 private:
  int grid_ = 0;
  std::int64_t smem_ = 0;
  FusedStepParams fixed_;
  host::DeviceBuffer<FusedLayer> layers_;
  host::DeviceBuffer<float> partials_;
  host::DeviceBuffer<std::uint32_t> arrivals_;
  host::DeviceBuffer<bf16> attention_out_;
  host::DeviceBuffer<bf16> router_logits_, expert_h_;
  host::DeviceBuffer<std::uint64_t> barrier_count_;
};

}  // namespace cute_cpp::models
