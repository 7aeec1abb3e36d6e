// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/weights.cpp: the decoder's weight manifest. Names and shapes were read from
// qwen-tts 0.1.1's Qwen3TTSTokenizerV2Decoder (quantizer: SplitResidualVectorQuantizer with
// force_projection, so both halves have 1x1 output_proj convs without bias, and codebooks of
// codebook_dim / 2; pre_conv, pre_transformer, upsample (CausalTransConvNet, ConvNeXtBlock),
// decoder (CausalConvNet, DecoderBlock: SnakeBeta, CausalTransConvNet, residual units)) under the
// tokenizer model's "decoder." prefix.
#include "models/qwen3_tts/weights.hpp"

#include "models/common/error.hpp"  // LoadError

namespace cute_cpp::models::qwen3_tts {

namespace {
constexpr char kRuleTensorMissing[] =
    "cute-cpp [tts-codec.tensor-missing]: a Qwen3-TTS tokenizer checkpoint must hold every decoder tensor its config implies";
constexpr char kRuleTensorShape[] =
    "cute-cpp [tts-codec.tensor-shape]: a Qwen3-TTS decoder tensor must have the shape its config implies";
constexpr char kRuleTensorDtype[] =
    "cute-cpp [tts-codec.tensor-dtype]: a Qwen3-TTS decoder tensor must be float32 or bfloat16";

constexpr std::string_view kDtypeNote = "the decoder reads float32 or bfloat16 tensors";

std::string num(std::int64_t v) { return std::to_string(v); }
}  // namespace

CodecWeightManifest::CodecWeightManifest(const CodecConfig& config) : config_(config) {
  add_quantizer();
  add_transformer();
  add_upsamplers();
  add_decoder();
  list_.index();
}

const std::string& CodecWeightManifest::add(std::string name, std::vector<std::int64_t> shape, std::string_view dims) {
  return list_.add({std::move(name), std::move(shape), dims, Dtype::F32, Dtype::BF16, kDtypeNote});
}

void CodecWeightManifest::add_quantizer() {
  auto const& c = config_;
  std::int64_t const entry = c.codebook_entry_dim();
  auto const codebook = [&](std::string const& rvq, std::int64_t layer) {
    std::string const p = "decoder.quantizer." + rvq + ".vq.layers." + num(layer) + "._codebook.";
    codebooks_.push_back({add(p + "embedding_sum", {c.codebook_size, entry}, "[codebook_size, codebook_dim / 2]"),
                          add(p + "cluster_usage", {c.codebook_size}, "[codebook_size]")});
  };
  codebook("rvq_first", 0);
  for (std::int64_t q = 1; q < c.num_quantizers; ++q) codebook("rvq_rest", q - 1);
  first_output_proj = add("decoder.quantizer.rvq_first.output_proj.weight", {c.codebook_dim, entry, 1},
                          "[codebook_dim, codebook_dim / 2, 1]");
  rest_output_proj = add("decoder.quantizer.rvq_rest.output_proj.weight", {c.codebook_dim, entry, 1},
                         "[codebook_dim, codebook_dim / 2, 1]");
  pre_conv_weight = add("decoder.pre_conv.conv.weight", {c.latent_dim, c.codebook_dim, kPreConvKernel},
                        "[latent_dim, codebook_dim, 3]");
  pre_conv_bias = add("decoder.pre_conv.conv.bias", {c.latent_dim}, "[latent_dim]");
}

void CodecWeightManifest::add_transformer() {
  auto const& c = config_;
  std::int64_t const hidden = c.hidden_size, q_rows = c.attention_width(), kv_rows = c.kv_width();
  std::string const t = "decoder.pre_transformer.";
  input_proj_weight = add(t + "input_proj.weight", {hidden, c.latent_dim}, "[hidden_size, latent_dim]");
  input_proj_bias = add(t + "input_proj.bias", {hidden}, "[hidden_size]");
  for (std::int64_t i = 0; i < c.num_hidden_layers; ++i) {
    std::string const p = t + "layers." + num(i) + ".";
    TransformerLayerTensors l;
    l.input_layernorm = add(p + "input_layernorm.weight", {hidden}, "[hidden_size]");
    l.q_proj = add(p + "self_attn.q_proj.weight", {q_rows, hidden}, "[num_attention_heads * head_dim, hidden_size]");
    l.k_proj = add(p + "self_attn.k_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
    l.v_proj = add(p + "self_attn.v_proj.weight", {kv_rows, hidden}, "[num_key_value_heads * head_dim, hidden_size]");
    l.o_proj = add(p + "self_attn.o_proj.weight", {hidden, q_rows}, "[hidden_size, num_attention_heads * head_dim]");
    l.attn_scale = add(p + "self_attn_layer_scale.scale", {hidden}, "[hidden_size]");
    l.post_attention_layernorm = add(p + "post_attention_layernorm.weight", {hidden}, "[hidden_size]");
    l.gate_proj = add(p + "mlp.gate_proj.weight", {c.intermediate_size, hidden}, "[intermediate_size, hidden_size]");
    l.up_proj = add(p + "mlp.up_proj.weight", {c.intermediate_size, hidden}, "[intermediate_size, hidden_size]");
    l.down_proj = add(p + "mlp.down_proj.weight", {hidden, c.intermediate_size}, "[hidden_size, intermediate_size]");
    l.mlp_scale = add(p + "mlp_layer_scale.scale", {hidden}, "[hidden_size]");
    layers_.push_back(std::move(l));
  }
  final_norm = add(t + "norm.weight", {hidden}, "[hidden_size]");
  output_proj_weight = add(t + "output_proj.weight", {c.latent_dim, hidden}, "[latent_dim, hidden_size]");
  output_proj_bias = add(t + "output_proj.bias", {c.latent_dim}, "[latent_dim]");
}

void CodecWeightManifest::add_upsamplers() {
  std::int64_t const l = config_.latent_dim;
  for (std::size_t i = 0; i < config_.upsampling_ratios.size(); ++i) {
    std::string const p = "decoder.upsample." + num(std::int64_t(i)) + ".";
    UpsamplerTensors u;
    u.up_weight = add(p + "0.conv.weight", {l, l, config_.upsampling_ratios[i]}, "[latent_dim, latent_dim, ratio]");
    u.up_bias = add(p + "0.conv.bias", {l}, "[latent_dim]");
    u.dw_weight = add(p + "1.dwconv.conv.weight", {l, 1, kDepthwiseKernel}, "[latent_dim, 1, 7]");
    u.dw_bias = add(p + "1.dwconv.conv.bias", {l}, "[latent_dim]");
    u.norm_weight = add(p + "1.norm.weight", {l}, "[latent_dim]");
    u.norm_bias = add(p + "1.norm.bias", {l}, "[latent_dim]");
    u.pw1_weight = add(p + "1.pwconv1.weight", {4 * l, l}, "[4 latent_dim, latent_dim]");
    u.pw1_bias = add(p + "1.pwconv1.bias", {4 * l}, "[4 latent_dim]");
    u.pw2_weight = add(p + "1.pwconv2.weight", {l, 4 * l}, "[latent_dim, 4 latent_dim]");
    u.pw2_bias = add(p + "1.pwconv2.bias", {l}, "[latent_dim]");
    u.gamma = add(p + "1.gamma", {l}, "[latent_dim]");
    upsamplers_.push_back(std::move(u));
  }
}

SnakeTensors CodecWeightManifest::add_snake(const std::string& prefix, std::int64_t width) {
  return {add(prefix + "alpha", {width}, "[channels]"), add(prefix + "beta", {width}, "[channels]")};
}

void CodecWeightManifest::add_decoder() {
  auto const& c = config_;
  decoder_in_weight = add("decoder.decoder.0.conv.weight", {c.decoder_dim, c.latent_dim, kDecoderKernel},
                          "[decoder_dim, latent_dim, 7]");
  decoder_in_bias = add("decoder.decoder.0.conv.bias", {c.decoder_dim}, "[decoder_dim]");
  std::size_t const blocks = c.upsample_rates.size();
  for (std::size_t i = 0; i < blocks; ++i) {
    std::string const p = "decoder.decoder." + num(std::int64_t(i) + 1) + ".block.";
    std::int64_t const in = c.block_width(i), out = c.block_width(i + 1), rate = c.upsample_rates[i];
    DecoderBlockTensors b;
    b.snake = add_snake(p + "0.", in);
    b.up_weight = add(p + "1.conv.weight", {in, out, 2 * rate}, "[decoder_dim / 2^i, decoder_dim / 2^(i+1), 2 rate]");
    b.up_bias = add(p + "1.conv.bias", {out}, "[decoder_dim / 2^(i+1)]");
    for (std::size_t u = 0; u < std::size(kResidualDilations); ++u) {
      std::string const r = p + num(std::int64_t(u) + 2) + ".";
      ResidualUnitTensors t;
      t.act1 = add_snake(r + "act1.", out);
      t.conv1_weight = add(r + "conv1.conv.weight", {out, out, kDecoderKernel}, "[width, width, 7]");
      t.conv1_bias = add(r + "conv1.conv.bias", {out}, "[width]");
      t.act2 = add_snake(r + "act2.", out);
      t.conv2_weight = add(r + "conv2.conv.weight", {out, out, 1}, "[width, width, 1]");
      t.conv2_bias = add(r + "conv2.conv.bias", {out}, "[width]");
      b.units.push_back(std::move(t));
    }
    blocks_.push_back(std::move(b));
  }
  std::int64_t const out_dim = c.block_width(blocks);
  final_snake = add_snake("decoder.decoder." + num(std::int64_t(blocks) + 1) + ".", out_dim);
  std::string const p = "decoder.decoder." + num(std::int64_t(blocks) + 2) + ".conv.";
  decoder_out_weight = add(p + "weight", {1, out_dim, kDecoderKernel}, "[1, decoder_dim / 2^blocks, 7]");
  decoder_out_bias = add(p + "bias", {1}, "[1]");
}

void CodecWeightManifest::validate(const Checkpoint& checkpoint) const {
  ManifestRules const rules{kRuleTensorMissing, kRuleTensorShape, kRuleTensorDtype};
  list_.check_present(checkpoint, rules, "float32");
}

}  // namespace cute_cpp::models::qwen3_tts
