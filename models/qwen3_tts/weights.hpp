// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/weights.hpp: what the 12 Hz tokenizer's checkpoint must hold for its decoder,
// derived from a CodecConfig, named as the reference's state dict names them (the tokenizer model's
// decoder.* tensors), grouped per part for the GPU loader, and checked against a Checkpoint.
#include <cstdint>      // std::uint64_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/checkpoint.hpp"  // Checkpoint
#include "models/common/manifest.hpp"    // ExpectedTensor, TensorList
#include "models/qwen3_tts/config.hpp"   // CodecConfig

namespace cute_cpp::models::qwen3_tts {

// ---- per-part tensor names ----

/// One codebook: entry e is embedding_sum[e] / max(cluster_usage[e], 1e-5).
struct CodebookTensors {
  std::string embedding_sum;  ///< [codebook_size, codebook_dim / 2]
  std::string cluster_usage;  ///< [codebook_size]
};

/// One pre-transformer layer (no biases; the layer scales multiply each branch's output).
struct TransformerLayerTensors {
  std::string input_layernorm, post_attention_layernorm;  ///< [hidden]
  std::string q_proj, k_proj, v_proj;                     ///< [heads * head_dim | kv_heads * head_dim, hidden]
  std::string o_proj;                                     ///< [hidden, heads * head_dim]
  std::string attn_scale, mlp_scale;                      ///< [hidden]
  std::string gate_proj, up_proj;                         ///< [intermediate, hidden]
  std::string down_proj;                                  ///< [hidden, intermediate]
};

/// A ConvNeXt upsampler: the transposed conv (kernel = stride = ratio), then the block.
struct UpsamplerTensors {
  std::string up_weight, up_bias;        ///< [latent, latent, ratio] (ConvTranspose1d: in, out, k), [latent]
  std::string dw_weight, dw_bias;        ///< [latent, 1, 7], [latent]
  std::string norm_weight, norm_bias;    ///< [latent]
  std::string pw1_weight, pw1_bias;      ///< [4 latent, latent], [4 latent]
  std::string pw2_weight, pw2_bias;      ///< [latent, 4 latent], [latent]
  std::string gamma;                     ///< [latent]
};

/// A SnakeBeta activation's parameters, stored as logs (the reference exponentiates them).
struct SnakeTensors {
  std::string alpha, beta;  ///< [channels]
};

/// One decoder residual unit: SnakeBeta, conv k7 dilated, SnakeBeta, conv k1, + input.
struct ResidualUnitTensors {
  SnakeTensors act1, act2;
  std::string conv1_weight, conv1_bias;  ///< [width, width, 7], [width]
  std::string conv2_weight, conv2_bias;  ///< [width, width, 1], [width]
};

/// One decoder block: SnakeBeta(in), causal transposed conv in -> in / 2 (k 2 rate, stride rate),
/// residual units at dilations 1, 3, 9.
struct DecoderBlockTensors {
  SnakeTensors snake;
  std::string up_weight, up_bias;  ///< [in, in / 2, 2 rate], [in / 2]
  std::vector<ResidualUnitTensors> units;
};

// ---- CodecWeightManifest ----

/// The decoder's tensors of a tokenizer checkpoint (model.safetensors of Qwen3-TTS-Tokenizer-12Hz):
///   decoder.quantizer.rvq_first.vq.layers.0._codebook.{embedding_sum,cluster_usage},
///   decoder.quantizer.rvq_{first,rest}.output_proj.weight, decoder.pre_conv.conv.{weight,bias},
///   decoder.pre_transformer.{input_proj,layers.N.*,norm,output_proj}, decoder.upsample.I.{0,1}.*,
///   decoder.decoder.{0..len(rates)+2}.*.
///   CodecWeightManifest m(read_codec_config("Qwen3-TTS-Tokenizer-12Hz"));
///   m.validate(Checkpoint::open("Qwen3-TTS-Tokenizer-12Hz"));
/// Dtypes: float32 (what the tokenizer is saved in) or bfloat16, tensor by tensor; total_bytes()
/// counts float32. Tensors it does not list (the encoder's, the quantizer's encode-only input_proj)
/// are not read.
class CodecWeightManifest {
 public:
  explicit CodecWeightManifest(const CodecConfig& config);

  [[nodiscard]] const CodecConfig& config() const noexcept { return config_; }
  [[nodiscard]] const std::vector<ExpectedTensor>& tensors() const noexcept { return list_.tensors(); }
  [[nodiscard]] const ExpectedTensor* find(std::string_view name) const noexcept { return list_.find(name); }
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return list_.total_bytes(); }

  /// num_quantizers codebooks: index 0 is rvq_first's, 1.. rvq_rest's.
  [[nodiscard]] const std::vector<CodebookTensors>& codebooks() const noexcept { return codebooks_; }
  /// [codebook_dim, codebook_dim / 2, 1]: rvq_first's and rvq_rest's 1x1 output convs (no bias).
  std::string first_output_proj, rest_output_proj;
  std::string pre_conv_weight, pre_conv_bias;       ///< [latent, codebook_dim, 3], [latent]
  std::string input_proj_weight, input_proj_bias;   ///< [hidden, latent], [hidden]
  std::string final_norm;                           ///< [hidden]
  std::string output_proj_weight, output_proj_bias; ///< [latent, hidden], [latent]
  [[nodiscard]] const std::vector<TransformerLayerTensors>& layers() const noexcept { return layers_; }
  [[nodiscard]] const std::vector<UpsamplerTensors>& upsamplers() const noexcept { return upsamplers_; }
  std::string decoder_in_weight, decoder_in_bias;   ///< [decoder_dim, latent, 7], [decoder_dim]
  [[nodiscard]] const std::vector<DecoderBlockTensors>& blocks() const noexcept { return blocks_; }
  SnakeTensors final_snake;                         ///< [decoder_dim / 2^blocks]
  std::string decoder_out_weight, decoder_out_bias; ///< [1, decoder_dim / 2^blocks, 7], [1]

  /// Checks `checkpoint`; the first problem found is thrown, naming the tensor, its file and the values.
  /// @pre every listed tensor is present [tts-codec.tensor-missing] with its shape
  ///      [tts-codec.tensor-shape] and dtype F32 or BF16 [tts-codec.tensor-dtype].
  void validate(const Checkpoint& checkpoint) const;

 private:
  const std::string& add(std::string name, std::vector<std::int64_t> shape, std::string_view dims);
  void add_quantizer();
  void add_transformer();
  void add_upsamplers();
  void add_decoder();
  SnakeTensors add_snake(const std::string& prefix, std::int64_t width);

  CodecConfig config_;
  TensorList list_;
  std::vector<CodebookTensors> codebooks_;
  std::vector<TransformerLayerTensors> layers_;
  std::vector<UpsamplerTensors> upsamplers_;
  std::vector<DecoderBlockTensors> blocks_;
};

/// The dilations of a decoder block's residual units, in order.
inline constexpr std::int64_t kResidualDilations[] = {1, 3, 9};
/// The kernel sizes the reference fixes: pre_conv, ConvNeXt's depthwise conv, the decoder's convs.
inline constexpr std::int64_t kPreConvKernel = 3, kDepthwiseKernel = 7, kDecoderKernel = 7;

}  // namespace cute_cpp::models::qwen3_tts
