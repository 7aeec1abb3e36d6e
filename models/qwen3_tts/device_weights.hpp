// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/device_weights.hpp: the decoder's weights on the device, in the layouts its
// kernels read, prepared once at load time:
//   - the quantizer folded into one table a codebook: table[q][e] = output_proj(embedding_q[e]) with
//     embedding = embedding_sum / max(cluster_usage, 1e-5) (the 1x1 conv is linear and has no
//     bias, so projecting each entry once equals projecting the sum of a frame's entries);
//   - convs packed for the implicit GEMM (kernels/conv: (c_out, taps * c_in)); k = 1 convs and the
//     depthwise conv keep PyTorch's bytes;
//   - the layer scales (transformer) and ConvNeXt's gamma folded into the rows of o_proj, down_proj
//     and pwconv2 (and pwconv2's bias): s * (W x + b) = (s W) x + s b;
//   - q, k, v stacked; gate and up interleaved for the SwiGLU GEMM (kernels/gemm/ffn.cuh);
//   - biases and SnakeBeta's log-parameters as f32, everything else bf16.
#include "models/qwen3_tts/weights.hpp"  // CodecWeightManifest

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cuda_bf16.h>               // __nv_bfloat16

#include <cstdint>
#include <filesystem>
#include <vector>

namespace cute_cpp::models::qwen3_tts {

using bf16 = __nv_bfloat16;
template <class T>
using DeviceBuffer = host::DeviceBuffer<T>;

struct DeviceSnake {
  DeviceBuffer<float> alpha_log, beta_log;  ///< [channels], as stored (logs)
};

struct DeviceLayer {
  DeviceBuffer<bf16> input_norm, post_norm;  ///< [hidden]
  DeviceBuffer<bf16> qkv;                    ///< [(heads + 2 kv_heads) head_dim, hidden]
  DeviceBuffer<bf16> o;                      ///< [hidden, heads head_dim], rows times the attention's layer scale
  DeviceBuffer<bf16> gate_up;                ///< [2 intermediate, hidden], gate and up rows interleaved by 8
  DeviceBuffer<bf16> down;                   ///< [hidden, intermediate], rows times the MLP's layer scale
};

struct DeviceUpsampler {
  DeviceBuffer<bf16> up;        ///< packed (2 latent, latent): the k = s = 2 transposed conv
  DeviceBuffer<float> up_bias;  ///< [latent]
  DeviceBuffer<bf16> dw;        ///< [latent, 7]
  DeviceBuffer<float> dw_bias;
  DeviceBuffer<bf16> norm_w, norm_b;  ///< LayerNorm [latent]
  DeviceBuffer<bf16> pw1;             ///< [4 latent, latent]
  DeviceBuffer<float> pw1_bias;
  DeviceBuffer<bf16> pw2;             ///< [latent, 4 latent], rows times gamma
  DeviceBuffer<float> pw2_bias;       ///< times gamma
};

struct DeviceResidualUnit {
  DeviceSnake act1, act2;
  DeviceBuffer<bf16> conv1;  ///< packed (width, 7 width)
  DeviceBuffer<float> conv1_bias;
  DeviceBuffer<bf16> conv2;  ///< [width, width]
  DeviceBuffer<float> conv2_bias;
};

struct DeviceBlock {
  DeviceSnake snake;
  DeviceBuffer<bf16> up;  ///< packed (rate out, 2 in) for the causal transposed conv
  DeviceBuffer<float> up_bias;
  std::vector<DeviceResidualUnit> units;
};

struct CodecDeviceWeights {
  DeviceBuffer<bf16> tables;  ///< [num_quantizers, codebook_size, codebook_dim]
  DeviceBuffer<bf16> pre_conv;  ///< packed (latent, 3 codebook_dim)
  DeviceBuffer<float> pre_conv_bias;
  DeviceBuffer<bf16> input_proj;  ///< [hidden, latent]
  DeviceBuffer<float> input_proj_bias;
  std::vector<DeviceLayer> layers;
  DeviceBuffer<bf16> final_norm;
  DeviceBuffer<bf16> output_proj;  ///< [latent, hidden]
  DeviceBuffer<float> output_proj_bias;
  std::vector<DeviceUpsampler> upsamplers;
  DeviceBuffer<bf16> decoder_in;  ///< packed (decoder_dim, 7 latent)
  DeviceBuffer<float> decoder_in_bias;
  std::vector<DeviceBlock> blocks;
  DeviceSnake final_snake;
  DeviceBuffer<bf16> decoder_out;  ///< packed (1, 7 out_dim)
  DeviceBuffer<float> decoder_out_bias;
  DeviceBuffer<float> inv_freq;  ///< RoPE's [head_dim / 2]: theta^(-2i / head_dim)
};

/// The checkpoint in `folder` (validated against `manifest`), prepared as above.
CodecDeviceWeights codec_checkpoint_weights(const std::filesystem::path& folder, const CodecWeightManifest& manifest);
/// Seeded random weights of the same shapes, written on the device (benchmarks): matrices with
/// standard deviation 1 / sqrt(fan-in), norms 1, scales 0.1, SnakeBeta's logs 0.
CodecDeviceWeights codec_random_weights(const CodecWeightManifest& manifest, std::uint64_t seed);

}  // namespace cute_cpp::models::qwen3_tts
