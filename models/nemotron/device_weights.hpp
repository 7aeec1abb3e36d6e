// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/nemotron/device_weights.hpp: the Nemotron-H decoder's weights on the device, as its forward
// pass reads them, and the two ways they get there: from a checkpoint (checked against
// NemotronHWeightManifest, copied through the shared pinned staging, models/common/device_upload.hpp)
// or filled from a seed at the manifest's shapes (bench --random-weights).
#include "models/nemotron/weights.hpp"  // NemotronHWeightManifest

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cuda_bf16.h>               // __nv_bfloat16

#include <cstdint>
#include <filesystem>
#include <vector>

namespace cute_cpp::models {

/// One decoder layer's weights on the device; only its kind's buffers are filled.
struct NemotronLayerWeights {
  using bf16 = __nv_bfloat16;
  NemotronHLayerKind kind{};
  host::DeviceBuffer<bf16> norm;  ///< the pre-mixer RMSNorm [hidden]
  // Mamba-2: in_proj whole [z | x B C | dt rows, hidden] (the SSM kernels read each part in place
  // through row strides), the depthwise conv [conv_dim, width], the gated norm, out_proj.
  host::DeviceBuffer<bf16> in_proj, conv_weight, conv_bias, gated_norm, out_proj;
  host::DeviceBuffer<float> A_log, D, dt_bias;  ///< [heads] f32, as kernels/ssm reads them
  // Attention: q, k, v stacked [(heads + 2 kv_heads) head_dim, hidden], and o.
  host::DeviceBuffer<bf16> qkv, o;
  // MoE in kernels/moe's layouts: router [E, hidden], each expert's up [F, hidden] one after
  // another, each expert's down [hidden, F] likewise, the shared expert's up and down.
  host::DeviceBuffer<bf16> router, experts_up, experts_down, shared_up, shared_down;
  host::DeviceBuffer<float> correction_bias;  ///< [E] f32
  // Dense MLP: down(relu(up x)^2).
  host::DeviceBuffer<bf16> up, down;
};

/// The decoder's weights on the device.
struct NemotronWeights {
  using bf16 = __nv_bfloat16;
  host::DeviceBuffer<bf16> embed, final_norm, lm_head;  ///< lm_head empty when tied
  std::vector<NemotronLayerWeights> layers;
  [[nodiscard]] bf16 const* output() const noexcept { return lm_head.size() != 0 ? lm_head.data() : embed.data(); }
};

/// The checkpoint in `folder`, validated against `manifest` before any GPU work, on the device.
/// A_log, D and dt_bias are converted to f32 on the host (they are F32 or the checkpoint's dtype).
NemotronWeights nemotron_checkpoint_weights(const std::filesystem::path& folder, const NemotronHWeightManifest& manifest);
/// Weights of the manifest's shapes filled on the device from `seed` (models/common/random_weights.cuh):
/// matrices of standard deviation 0.02, norms 1 + that noise, and the Mamba-2 parameters as
/// transformers initializes them (A_log = log(1..heads), D = 1, dt_bias = softplus^-1 of a dt in
/// [time_step_min, time_step_max]); the correction bias 0.
NemotronWeights nemotron_random_weights(const NemotronHWeightManifest& manifest, std::uint64_t seed);

}  // namespace cute_cpp::models
