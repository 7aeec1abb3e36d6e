// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3_tts/device_weights_sm90.cu: the decoder's weights to the device (device_weights.hpp).
// The decoder is small (about 120 M parameters at the published widths), so each tensor is read
// into host floats, the folds (codebook normalisation, layer scales, gamma) are done there in f32,
// and the result is rounded to bf16 once; the conv packing and the codebook tables' projection
// run on the device (kernels/conv's packing, the GEMM).
#include "models/qwen3_tts/codec_ops.cuh"  // with_conv_transpose_plan, linear, GemmWorkspace (first: its NOTE)
#include "models/qwen3_tts/device_weights.hpp"

#include "models/common/random_weights.cuh"  // fill_random_bf16, splitmix64

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/kernels/conv/conv.cuh>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <stdexcept>

namespace cute_cpp::models::qwen3_tts {

namespace {

namespace kn = cute_cpp::kernels;
using host::cuda_check;

// ---- host floats ----

/// A tensor as host floats; the manifest admitted only F32 and BF16.
std::vector<float> floats(const Checkpoint& checkpoint, const std::string& name) {
  TensorInfo const& t = checkpoint.at(name);
  std::vector<float> out(std::size_t(t.numel()));
  if (t.dtype == Dtype::F32) {
    std::memcpy(out.data(), t.data, out.size() * 4);
  } else if (t.dtype == Dtype::BF16) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::uint16_t half = 0;
      std::memcpy(&half, t.data + 2 * i, 2);
      std::uint32_t const bits = std::uint32_t(half) << 16;
      std::memcpy(&out[i], &bits, 4);
    }
  } else {
    throw std::logic_error("cute-cpp: " + name + " is neither F32 nor BF16 after validation");
  }
  return out;
}

DeviceBuffer<bf16> to_device_bf16(std::vector<float> const& v) {
  std::vector<bf16> h(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) h[i] = __float2bfloat16_rn(v[i]);
  DeviceBuffer<bf16> d(h.size());
  d.upload(std::span<const bf16>(h));
  return d;
}

DeviceBuffer<float> to_device_f32(std::vector<float> const& v) {
  DeviceBuffer<float> d(v.size());
  d.upload(std::span<const float>(v));
  return d;
}

/// w (rows, cols) with row r multiplied by s[r].
void scale_rows(std::vector<float>& w, std::vector<float> const& s) {
  std::size_t const cols = w.size() / s.size();
  for (std::size_t r = 0; r < s.size(); ++r)
    for (std::size_t c = 0; c < cols; ++c) w[r * cols + c] *= s[r];
}

// ---- the device-side preparation ----

/// A Conv1d weight (c_out, c_in, k) packed for the implicit GEMM: (c_out, k c_in).
DeviceBuffer<bf16> packed_conv(std::vector<float> const& w, int c_out, int c_in, int kernel) {
  DeviceBuffer<bf16> const raw = to_device_bf16(w);
  DeviceBuffer<bf16> packed(raw.size());
  kn::run_conv_pack_weight(raw.data(), packed.data(), c_out, c_in, kernel);
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize(pack)");
  return packed;
}

/// A ConvTranspose1d weight (c_in, c_out, k) packed for the causal transposed conv of stride s.
DeviceBuffer<bf16> packed_conv_transpose(std::vector<float> const& w, int c_in, int c_out, std::int64_t stride,
                                         std::int64_t kernel) {
  DeviceBuffer<bf16> const raw = to_device_bf16(w);
  DeviceBuffer<bf16> packed(raw.size());
  with_conv_transpose_plan(stride, kernel, [&]<class Plan>() {
    kn::run_conv_transpose_pack_weight<Plan>(raw.data(), packed.data(), c_in, c_out);
  });
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize(pack)");
  return packed;
}

/// table[q] = (embedding_sum / max(cluster_usage, 1e-5)) W_q^T for q's output_proj W_q (dim, entry).
DeviceBuffer<bf16> codebook_tables(const Checkpoint& ck, const CodecWeightManifest& m) {
  auto const& c = m.config();
  std::int64_t const size = c.codebook_size, entry = c.codebook_entry_dim(), dim = c.codebook_dim;
  DeviceBuffer<bf16> tables(std::size_t(c.num_quantizers * size * dim));
  DeviceBuffer<bf16> const first = to_device_bf16(floats(ck, m.first_output_proj));
  DeviceBuffer<bf16> const rest = to_device_bf16(floats(ck, m.rest_output_proj));
  GemmWorkspace workspace;
  for (std::int64_t q = 0; q < c.num_quantizers; ++q) {
    auto const& names = m.codebooks()[std::size_t(q)];
    std::vector<float> e = floats(ck, names.embedding_sum);
    std::vector<float> const usage = floats(ck, names.cluster_usage);
    for (std::int64_t i = 0; i < size; ++i) {
      float const inv = 1.0f / std::max(usage[std::size_t(i)], 1e-5f);
      for (std::int64_t j = 0; j < entry; ++j) e[std::size_t(i * entry + j)] *= inv;
    }
    DeviceBuffer<bf16> const embedding = to_device_bf16(e);
    linear_tn(embedding.data(), q == 0 ? first.data() : rest.data(), tables.data() + q * size * dim, size, dim, entry,
           workspace, nullptr);
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize(codebook table)");  // embedding is freed next
  }
  return tables;
}

DeviceSnake snake(const Checkpoint& ck, const SnakeTensors& names) {
  return {to_device_f32(floats(ck, names.alpha)), to_device_f32(floats(ck, names.beta))};
}

DeviceLayer layer(const Checkpoint& ck, const CodecConfig& c, const TransformerLayerTensors& names) {
  DeviceLayer l;
  l.input_norm = to_device_bf16(floats(ck, names.input_layernorm));
  l.post_norm = to_device_bf16(floats(ck, names.post_attention_layernorm));
  std::vector<float> qkv = floats(ck, names.q_proj);
  for (auto const* part : {&names.k_proj, &names.v_proj}) {
    std::vector<float> const p = floats(ck, *part);
    qkv.insert(qkv.end(), p.begin(), p.end());
  }
  l.qkv = to_device_bf16(qkv);
  std::vector<float> o = floats(ck, names.o_proj);
  scale_rows(o, floats(ck, names.attn_scale));
  l.o = to_device_bf16(o);
  DeviceBuffer<bf16> const gate = to_device_bf16(floats(ck, names.gate_proj));
  DeviceBuffer<bf16> const up = to_device_bf16(floats(ck, names.up_proj));
  l.gate_up = DeviceBuffer<bf16>(gate.size() * 2);
  kn::pack_gate_up(gate.data(), up.data(), l.gate_up.data(), std::size_t(c.intermediate_size),
                   std::size_t(c.hidden_size));
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize(gate_up)");
  std::vector<float> down = floats(ck, names.down_proj);
  scale_rows(down, floats(ck, names.mlp_scale));
  l.down = to_device_bf16(down);
  return l;
}

DeviceUpsampler upsampler(const Checkpoint& ck, const CodecConfig& c, const UpsamplerTensors& names,
                          std::int64_t ratio) {
  int const l = int(c.latent_dim);
  DeviceUpsampler u;
  u.up = packed_conv_transpose(floats(ck, names.up_weight), l, l, ratio, ratio);
  u.up_bias = to_device_f32(floats(ck, names.up_bias));
  u.dw = to_device_bf16(floats(ck, names.dw_weight));
  u.dw_bias = to_device_f32(floats(ck, names.dw_bias));
  u.norm_w = to_device_bf16(floats(ck, names.norm_weight));
  u.norm_b = to_device_bf16(floats(ck, names.norm_bias));
  u.pw1 = to_device_bf16(floats(ck, names.pw1_weight));
  u.pw1_bias = to_device_f32(floats(ck, names.pw1_bias));
  std::vector<float> const gamma = floats(ck, names.gamma);
  std::vector<float> pw2 = floats(ck, names.pw2_weight), pw2_bias = floats(ck, names.pw2_bias);
  scale_rows(pw2, gamma);
  for (std::size_t i = 0; i < gamma.size(); ++i) pw2_bias[i] *= gamma[i];
  u.pw2 = to_device_bf16(pw2);
  u.pw2_bias = to_device_f32(pw2_bias);
  return u;
}

DeviceBlock block(const Checkpoint& ck, const CodecConfig& c, const DecoderBlockTensors& names, std::size_t i) {
  int const in = int(c.block_width(i)), out = int(c.block_width(i + 1));
  std::int64_t const rate = c.upsample_rates[i];
  DeviceBlock b;
  b.snake = snake(ck, names.snake);
  b.up = packed_conv_transpose(floats(ck, names.up_weight), in, out, rate, 2 * rate);
  b.up_bias = to_device_f32(floats(ck, names.up_bias));
  for (ResidualUnitTensors const& u : names.units) {
    DeviceResidualUnit d;
    d.act1 = snake(ck, u.act1);
    d.conv1 = packed_conv(floats(ck, u.conv1_weight), out, out, int(kDecoderKernel));
    d.conv1_bias = to_device_f32(floats(ck, u.conv1_bias));
    d.act2 = snake(ck, u.act2);
    d.conv2 = to_device_bf16(floats(ck, u.conv2_weight));  // k = 1: PyTorch's bytes are the packed operand
    d.conv2_bias = to_device_f32(floats(ck, u.conv2_bias));
    b.units.push_back(std::move(d));
  }
  return b;
}

DeviceBuffer<float> rope_inv_freq(const CodecConfig& c) {
  std::vector<float> f(std::size_t(c.head_dim / 2));
  for (std::size_t i = 0; i < f.size(); ++i)
    f[i] = float(1.0 / std::pow(c.rope_theta, double(2 * i) / double(c.head_dim)));
  return to_device_f32(f);
}

}  // namespace

CodecDeviceWeights codec_checkpoint_weights(const std::filesystem::path& folder, const CodecWeightManifest& manifest) {
  Checkpoint const ck = Checkpoint::open(folder);
  manifest.validate(ck);
  auto const& c = manifest.config();
  CodecDeviceWeights w;
  w.tables = codebook_tables(ck, manifest);
  w.pre_conv = packed_conv(floats(ck, manifest.pre_conv_weight), int(c.latent_dim), int(c.codebook_dim),
                           int(kPreConvKernel));
  w.pre_conv_bias = to_device_f32(floats(ck, manifest.pre_conv_bias));
  w.input_proj = to_device_bf16(floats(ck, manifest.input_proj_weight));
  w.input_proj_bias = to_device_f32(floats(ck, manifest.input_proj_bias));
  for (TransformerLayerTensors const& names : manifest.layers()) w.layers.push_back(layer(ck, c, names));
  w.final_norm = to_device_bf16(floats(ck, manifest.final_norm));
  w.output_proj = to_device_bf16(floats(ck, manifest.output_proj_weight));
  w.output_proj_bias = to_device_f32(floats(ck, manifest.output_proj_bias));
  for (std::size_t i = 0; i < manifest.upsamplers().size(); ++i)
    w.upsamplers.push_back(upsampler(ck, c, manifest.upsamplers()[i], c.upsampling_ratios[i]));
  w.decoder_in = packed_conv(floats(ck, manifest.decoder_in_weight), int(c.decoder_dim), int(c.latent_dim),
                             int(kDecoderKernel));
  w.decoder_in_bias = to_device_f32(floats(ck, manifest.decoder_in_bias));
  for (std::size_t i = 0; i < manifest.blocks().size(); ++i) w.blocks.push_back(block(ck, c, manifest.blocks()[i], i));
  w.final_snake = snake(ck, manifest.final_snake);
  int const out_dim = int(c.block_width(c.upsample_rates.size()));
  w.decoder_out = packed_conv(floats(ck, manifest.decoder_out_weight), 1, out_dim, int(kDecoderKernel));
  w.decoder_out_bias = to_device_f32(floats(ck, manifest.decoder_out_bias));
  w.inv_freq = rope_inv_freq(c);
  return w;
}

// ---- random weights ----

namespace {

/// Draws every buffer of one shape: bf16 matrices on the device, small f32 vectors on the host.
class RandomFill {
 public:
  explicit RandomFill(std::uint64_t seed) : seed_(seed) {}
  DeviceBuffer<bf16> matrix(std::int64_t rows, std::int64_t fan_in) {
    DeviceBuffer<bf16> d{std::size_t(rows * fan_in)};
    fill_random_bf16(d.data(), d.size(), seed_, next_++, 0.0f, float(1.0 / std::sqrt(double(fan_in))), nullptr);
    return d;
  }
  DeviceBuffer<bf16> constant_bf16(std::int64_t n, float value) {
    DeviceBuffer<bf16> d{std::size_t(n)};
    fill_random_bf16(d.data(), d.size(), seed_, next_++, value, 0.0f, nullptr);
    return d;
  }
  DeviceBuffer<float> vector(std::int64_t n, float mean, float spread) {
    std::vector<float> h(static_cast<std::size_t>(n));
    std::uint64_t const key = splitmix64(seed_ ^ splitmix64(next_++));
    for (std::size_t i = 0; i < h.size(); ++i)
      h[i] = mean + spread * (float(splitmix64(key + i) >> 40) / float(1 << 24) - 0.5f);
    return to_device_f32(h);
  }
  DeviceSnake snake(std::int64_t n) { return {vector(n, 0.0f, 0.2f), vector(n, 0.0f, 0.2f)}; }

 private:
  std::uint64_t seed_, next_ = 0;
};

}  // namespace

CodecDeviceWeights codec_random_weights(const CodecWeightManifest& manifest, std::uint64_t seed) {
  auto const& c = manifest.config();
  RandomFill r(seed);
  std::int64_t const latent = c.latent_dim, hidden = c.hidden_size, k = kDecoderKernel;
  CodecDeviceWeights w;
  w.tables = r.matrix(c.num_quantizers * c.codebook_size, c.codebook_dim);
  w.pre_conv = r.matrix(latent, kPreConvKernel * c.codebook_dim);
  w.pre_conv_bias = r.vector(latent, 0.0f, 0.1f);
  w.input_proj = r.matrix(hidden, latent);
  w.input_proj_bias = r.vector(hidden, 0.0f, 0.1f);
  std::int64_t const qkv_rows = c.attention_width() + 2 * c.kv_width();
  for (std::int64_t i = 0; i < c.num_hidden_layers; ++i) {
    DeviceLayer l;
    l.input_norm = r.constant_bf16(hidden, 1.0f);
    l.post_norm = r.constant_bf16(hidden, 1.0f);
    l.qkv = r.matrix(qkv_rows, hidden);
    l.o = r.matrix(hidden, c.attention_width());
    l.gate_up = r.matrix(2 * c.intermediate_size, hidden);
    l.down = r.matrix(hidden, c.intermediate_size);
    w.layers.push_back(std::move(l));
  }
  w.final_norm = r.constant_bf16(hidden, 1.0f);
  w.output_proj = r.matrix(latent, hidden);
  w.output_proj_bias = r.vector(latent, 0.0f, 0.1f);
  for (std::size_t i = 0; i < c.upsampling_ratios.size(); ++i) {
    DeviceUpsampler u;
    u.up = r.matrix(c.upsampling_ratios[i] * latent, latent);
    u.up_bias = r.vector(latent, 0.0f, 0.1f);
    u.dw = r.matrix(latent, kDepthwiseKernel);
    u.dw_bias = r.vector(latent, 0.0f, 0.1f);
    u.norm_w = r.constant_bf16(latent, 1.0f);
    u.norm_b = r.constant_bf16(latent, 0.0f);
    u.pw1 = r.matrix(4 * latent, latent);
    u.pw1_bias = r.vector(4 * latent, 0.0f, 0.1f);
    u.pw2 = r.matrix(latent, 4 * latent);
    u.pw2_bias = r.vector(latent, 0.0f, 0.1f);
    w.upsamplers.push_back(std::move(u));
  }
  w.decoder_in = r.matrix(c.decoder_dim, k * latent);
  w.decoder_in_bias = r.vector(c.decoder_dim, 0.0f, 0.1f);
  for (std::size_t i = 0; i < c.upsample_rates.size(); ++i) {
    std::int64_t const in = c.block_width(i), out = c.block_width(i + 1), rate = c.upsample_rates[i];
    DeviceBlock b;
    b.snake = r.snake(in);
    b.up = r.matrix(rate * out, 2 * in);
    b.up_bias = r.vector(out, 0.0f, 0.1f);
    for (std::size_t u = 0; u < std::size(kResidualDilations); ++u) {
      DeviceResidualUnit d;
      d.act1 = r.snake(out);
      d.conv1 = r.matrix(out, k * out);
      d.conv1_bias = r.vector(out, 0.0f, 0.1f);
      d.act2 = r.snake(out);
      d.conv2 = r.matrix(out, out);
      d.conv2_bias = r.vector(out, 0.0f, 0.1f);
      b.units.push_back(std::move(d));
    }
    w.blocks.push_back(std::move(b));
  }
  std::int64_t const out_dim = c.block_width(c.upsample_rates.size());
  w.final_snake = r.snake(out_dim);
  w.decoder_out = r.matrix(1, k * out_dim);
  w.decoder_out_bias = r.vector(1, 0.0f, 0.1f);
  w.inv_freq = rope_inv_freq(c);
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize(random weights)");
  return w;
}

}  // namespace cute_cpp::models::qwen3_tts
