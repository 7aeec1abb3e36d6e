// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3_tts/codec_sm90.cu: the decoder's passes (codec.hpp), activations channels-last
// (batch, time, channels) in bf16 with f32 accumulation, on the kernel families:
//   1. rvq_decode: the frame's codebook entries, already projected (device_weights.hpp), summed;
//   2. pre_conv: kernels/conv causal conv, k 3;
//   3. pre-transformer: GEMMs (kernels/gemm; biases and residual adds in their epilogues, layer
//      scales folded into o_proj and down_proj), RMSNorm (kernels/rows), RoPE, the sliding-window
//      causal attention (kernels/attention's prefill with window_left = sliding_window - 1);
//   4. ConvNeXt upsamplers: transposed conv (k = s = 2), depthwise conv k 7, LayerNorm (eps 1e-6),
//      pwconv1 as a k 1 conv with the erf GELU epilogue, pwconv2 (gamma folded) + input on the GEMM;
//   5. decoder: conv k 7, per block SnakeBeta then the causal transposed conv, residual units as
//      SnakeBeta, conv k 7 with act2's SnakeBeta epilogue, conv k 1 with the residual epilogue;
//      SnakeBeta, conv to one channel, clamp to [-1, 1] as float.
#include "models/qwen3_tts/codec.hpp"

#include "models/qwen3_tts/codec_ops.cuh"      // linear, linear_bias, linear_swiglu, GemmWorkspace (first: its NOTE)
#include "models/qwen3_tts/codec_kernels.cuh"  // rvq_decode, rope, snake_beta, waveform
#include "models/qwen3_tts/device_weights.hpp"

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/kernels/conv/conv.cuh>               // run_causal_conv1d, run_depthwise_conv1d
#include <cute_cpp/kernels/rows/instances.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>

namespace cute_cpp::models::qwen3_tts {

namespace kn = cute_cpp::kernels;
using host::cuda_check;

namespace {
/// ConvNeXt's LayerNorm epsilon (the reference fixes it).
constexpr float kLayerNormEps = 1e-6f;
}  // namespace

struct CodecDecoder::Impl {
  CodecConfig config;
  CodecWeightManifest manifest;
  CodecDeviceWeights w;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  GemmWorkspace workspace;

  // Activations, grown to the largest decode so far (rows = batch x frames).
  std::int64_t capacity_rows = 0;
  DeviceBuffer<std::int32_t> codes;
  DeviceBuffer<bf16> latent_in, latent_out;    // (rows, latent)
  DeviceBuffer<bf16> h, h2, normed;            // (rows, hidden)
  DeviceBuffer<bf16> qkv, attn, mlp;           // (rows, qkv width | heads head_dim | intermediate)
  std::array<DeviceBuffer<bf16>, 3> big;       // the upsampling stages' ping-pong buffers
  DeviceBuffer<float> wave;                    // (rows x samples_per_frame)

  using MakeWeights = std::function<CodecDeviceWeights(const CodecWeightManifest&)>;
  Impl(CodecConfig c, MakeWeights const& make) : config(std::move(c)), manifest(config), w(make(manifest)) {
    cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  Impl(Impl const&) = delete;
  Impl& operator=(Impl const&) = delete;
  ~Impl() {
    (void)cudaStreamSynchronize(stream);
    (void)cudaEventDestroy(start);
    (void)cudaEventDestroy(stop);
    (void)cudaStreamDestroy(stream);
  }

  void ensure(std::int64_t rows);
  std::vector<float> decode(std::span<const std::int32_t> host_codes, int batch, std::int64_t frames);
  void transformer(int batch, std::int64_t frames);
  void attention(int batch, std::int64_t frames);
  bf16* upsample(int batch, std::int64_t frames);
  void decoder(bf16* x, int batch, std::int64_t length);
  void conv(bf16 const* x, bf16 const* weight, float const* bias, bf16* out, bf16 const* residual,
            DeviceSnake const* snake, int batch, std::int64_t length, int c_in, int c_out, int kernel, int dilation);
  /// A big buffer other than a and b.
  bf16* other(bf16 const* a, bf16 const* b) {
    for (auto& buffer : big)
      if (buffer.data() != a && buffer.data() != b) return buffer.data();
    throw std::logic_error("cute-cpp: no free activation buffer");
  }
};

// ---- buffers ----

void CodecDecoder::Impl::ensure(std::int64_t rows) {
  if (rows <= capacity_rows) return;
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(grow)");
  auto const& c = config;
  auto const n = [rows](std::int64_t width) { return std::size_t(rows * width); };
  codes = DeviceBuffer<std::int32_t>(n(c.num_quantizers));
  latent_in = DeviceBuffer<bf16>(n(c.latent_dim));
  latent_out = DeviceBuffer<bf16>(n(c.latent_dim));
  h = DeviceBuffer<bf16>(n(c.hidden_size));
  h2 = DeviceBuffer<bf16>(n(c.hidden_size));
  normed = DeviceBuffer<bf16>(n(c.hidden_size));
  qkv = DeviceBuffer<bf16>(n(c.attention_width() + 2 * c.kv_width()));
  attn = DeviceBuffer<bf16>(n(c.attention_width()));
  mlp = DeviceBuffer<bf16>(n(c.intermediate_size));
  // The largest stage: the quantizer's output, a ConvNeXt's 4 x latent hidden layer, or a decoder
  // stage's (time x width).
  std::int64_t largest = std::max(c.codebook_dim, 4 * c.latent_dim * c.latent_upsample());
  std::int64_t up = c.latent_upsample();
  largest = std::max(largest, up * c.decoder_dim);
  for (std::size_t i = 0; i < c.upsample_rates.size(); ++i) {
    up *= c.upsample_rates[i];
    largest = std::max(largest, up * c.block_width(i + 1));
  }
  for (auto& buffer : big) buffer = DeviceBuffer<bf16>(n(largest));
  wave = DeviceBuffer<float>(n(c.total_upsample()));
  capacity_rows = rows;
}

// ---- one conv ----

void CodecDecoder::Impl::conv(bf16 const* x, bf16 const* weight, float const* bias, bf16* out, bf16 const* residual,
                              DeviceSnake const* snake, int batch, std::int64_t length, int c_in, int c_out, int kernel,
                              int dilation) {
  kn::CausalConv1dArguments<bf16> a;
  a.x = x, a.weight = weight, a.out = out, a.residual = residual;
  a.epilogue.bias = bias;
  if (snake != nullptr) {
    a.epilogue.activation = kn::ConvActivation::snake_beta;
    a.epilogue.alpha_log = snake->alpha_log.data(), a.epilogue.beta_log = snake->beta_log.data();
  }
  a.batch = batch, a.length = int(length), a.c_in = c_in, a.c_out = c_out, a.kernel_size = kernel, a.dilation = dilation;
  // The narrow tile for the last block's 96 channels and the 1-channel output conv.
  kn::run_causal_conv1d_auto(a, stream);
}

// ---- the pre-transformer ----

void CodecDecoder::Impl::attention(int batch, std::int64_t frames) {
  auto const& c = config;
  std::int64_t const width = c.attention_width() + 2 * c.kv_width();
  kn::FmhaArguments<bf16> a;
  a.q = qkv.data();
  a.k = qkv.data() + c.attention_width();
  a.v = qkv.data() + c.attention_width() + c.kv_width();
  a.o = attn.data();
  a.q_stride = a.k_stride = a.v_stride = {frames * width, width, c.head_dim};
  a.o_stride = {frames * c.attention_width(), c.attention_width(), c.head_dim};
  a.batch = batch, a.seq_q = a.seq_k = int(frames);
  a.heads_q = int(c.num_attention_heads), a.heads_kv = int(c.num_key_value_heads);
  a.head_dim = a.head_dim_v = int(c.head_dim);
  // The reference's sliding-window mask keeps key j for query i when i - sliding_window < j <= i.
  a.causal = true;
  a.window_left = int(c.sliding_window - 1);
  a.window_right = 0;
  kn::run_attention(a, stream);
}

void CodecDecoder::Impl::transformer(int batch, std::int64_t frames) {
  auto const& c = config;
  std::int64_t const rows = batch * frames, hidden = c.hidden_size, width = c.attention_width() + 2 * c.kv_width();
  float const eps = float(c.rms_norm_eps);
  linear_bias(latent_in.data(), w.input_proj.data(), w.input_proj_bias.data(), nullptr, h.data(), rows, hidden,
              c.latent_dim, workspace, stream);
  for (DeviceLayer const& l : w.layers) {
    kn::rmsnorm<bf16>(h.data(), nullptr, l.input_norm.data(), normed.data(), nullptr, std::size_t(rows),
                      std::size_t(hidden), eps, stream);
    linear_tn(normed.data(), l.qkv.data(), qkv.data(), rows, width, hidden, workspace, stream);
    rope(qkv.data(), w.inv_freq.data(), rows, int(frames), int(c.num_attention_heads + c.num_key_value_heads),
         int(c.head_dim), width, stream);
    attention(batch, frames);
    linear_bias(attn.data(), l.o.data(), nullptr, h.data(), h2.data(), rows, hidden, c.attention_width(), workspace,
                stream);
    kn::rmsnorm<bf16>(h2.data(), nullptr, l.post_norm.data(), normed.data(), nullptr, std::size_t(rows),
                      std::size_t(hidden), eps, stream);
    linear_swiglu(normed.data(), l.gate_up.data(), mlp.data(), rows, c.intermediate_size, hidden, workspace, stream);
    linear_bias(mlp.data(), l.down.data(), nullptr, h2.data(), h.data(), rows, hidden, c.intermediate_size, workspace,
                stream);
  }
  kn::rmsnorm<bf16>(h.data(), nullptr, w.final_norm.data(), normed.data(), nullptr, std::size_t(rows),
                    std::size_t(hidden), eps, stream);
  linear_bias(normed.data(), w.output_proj.data(), w.output_proj_bias.data(), nullptr, latent_out.data(), rows,
              c.latent_dim, hidden, workspace, stream);
}

// ---- the ConvNeXt upsamplers ----

bf16* CodecDecoder::Impl::upsample(int batch, std::int64_t frames) {
  auto const& c = config;
  int const latent = int(c.latent_dim);
  bf16* x = latent_out.data();
  std::int64_t length = frames;
  for (std::size_t i = 0; i < w.upsamplers.size(); ++i) {
    DeviceUpsampler const& u = w.upsamplers[i];
    std::int64_t const ratio = c.upsampling_ratios[i];
    bf16* const up = big[0].data();
    kn::ConvTranspose1dArguments<bf16> t;
    t.x = x, t.weight = u.up.data(), t.out = up, t.epilogue.bias = u.up_bias.data();
    t.batch = batch, t.length = int(length), t.c_in = latent, t.c_out = latent;
    with_conv_transpose_plan(ratio, ratio, [&]<class Plan>() { kn::run_causal_conv_transpose1d<Plan>(t, stream); });
    length *= ratio;
    std::int64_t const rows = batch * length;
    kn::DepthwiseConv1dArguments<bf16> d;
    d.x = up, d.weight = u.dw.data(), d.bias = u.dw_bias.data(), d.out = big[1].data();
    d.batch = batch, d.length = int(length), d.channels = latent;
    kn::run_depthwise_conv1d<kn::ConvNextDepthwisePlan>(d, stream);
    kn::layernorm<bf16>(big[1].data(), u.norm_w.data(), u.norm_b.data(), big[2].data(), std::size_t(rows),
                        std::size_t(latent), kLayerNormEps, stream);
    kn::CausalConv1dArguments<bf16> p;  // pwconv1: a k 1 conv for its erf GELU epilogue
    p.x = big[2].data(), p.weight = u.pw1.data(), p.out = big[1].data();
    p.epilogue.bias = u.pw1_bias.data(), p.epilogue.activation = kn::ConvActivation::gelu;
    p.batch = batch, p.length = int(length), p.c_in = latent, p.c_out = 4 * latent, p.kernel_size = 1;
    kn::run_causal_conv1d<kn::ConvWidePlan>(p, stream);
    linear_bias(big[1].data(), u.pw2.data(), u.pw2_bias.data(), up, big[2].data(), rows, latent, 4 * latent,
                workspace, stream);
    x = big[2].data();
  }
  return x;
}

// ---- the decoder ----

void CodecDecoder::Impl::decoder(bf16* x, int batch, std::int64_t length) {
  auto const& c = config;
  int const k = int(kDecoderKernel);
  bf16* cur = other(x, nullptr);
  conv(x, w.decoder_in.data(), w.decoder_in_bias.data(), cur, nullptr, nullptr, batch, length, int(c.latent_dim),
       int(c.decoder_dim), k, 1);
  for (std::size_t i = 0; i < w.blocks.size(); ++i) {
    DeviceBlock const& b = w.blocks[i];
    int const in = int(c.block_width(i)), out = int(c.block_width(i + 1));
    std::int64_t const rate = c.upsample_rates[i];
    bf16* const act = other(cur, nullptr);
    snake_beta(cur, act, b.snake.alpha_log.data(), b.snake.beta_log.data(), batch * length, in, stream);
    bf16* const up = other(act, nullptr);
    kn::ConvTranspose1dArguments<bf16> t;
    t.x = act, t.weight = b.up.data(), t.out = up, t.epilogue.bias = b.up_bias.data();
    t.batch = batch, t.length = int(length), t.c_in = in, t.c_out = out;
    with_conv_transpose_plan(rate, 2 * rate, [&]<class Plan>() { kn::run_causal_conv_transpose1d<Plan>(t, stream); });
    length *= rate;
    cur = up;
    for (std::size_t u = 0; u < b.units.size(); ++u) {
      DeviceResidualUnit const& r = b.units[u];
      bf16* const a1 = other(cur, nullptr);
      bf16* const mid = other(cur, a1);
      snake_beta(cur, a1, r.act1.alpha_log.data(), r.act1.beta_log.data(), batch * length, out, stream);
      conv(a1, r.conv1.data(), r.conv1_bias.data(), mid, nullptr, &r.act2, batch, length, out, out, k,
           int(kResidualDilations[u]));
      conv(mid, r.conv2.data(), r.conv2_bias.data(), a1, cur, nullptr, batch, length, out, out, 1, 1);
      cur = a1;
    }
  }
  int const out_dim = int(c.block_width(w.blocks.size()));
  bf16* const act = other(cur, nullptr);
  snake_beta(cur, act, w.final_snake.alpha_log.data(), w.final_snake.beta_log.data(), batch * length, out_dim, stream);
  bf16* const y = other(act, nullptr);
  conv(act, w.decoder_out.data(), w.decoder_out_bias.data(), y, nullptr, nullptr, batch, length, out_dim, 1, k, 1);
  waveform(y, wave.data(), batch * length, stream);
}

// ---- one decode ----

std::vector<float> CodecDecoder::Impl::decode(std::span<const std::int32_t> host_codes, int batch, std::int64_t frames) {
  auto const& c = config;
  check_codes_size(host_codes, batch, c.num_quantizers, frames);
  for (std::size_t i = 0; i < host_codes.size(); ++i)
    if (host_codes[i] < 0 || host_codes[i] >= c.codebook_size)
      throw std::invalid_argument(std::string(kRuleCodes) + " (code " + std::to_string(i) + " is " +
                                  std::to_string(host_codes[i]) + ", codebook_size " + std::to_string(c.codebook_size) +
                                  ")");
  if (frames == 0) return {};
  std::int64_t const rows = batch * frames;
  ensure(rows);
  cuda_check(cudaMemcpyAsync(codes.data(), host_codes.data(), host_codes.size_bytes(), cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync(codes)");
  cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
  rvq_decode(w.tables.data(), codes.data(), big[0].data(), batch, int(frames), int(c.num_quantizers),
             int(c.codebook_size), int(c.codebook_dim), stream);
  conv(big[0].data(), w.pre_conv.data(), w.pre_conv_bias.data(), latent_in.data(), nullptr, nullptr, batch, frames,
       int(c.codebook_dim), int(c.latent_dim), int(kPreConvKernel), 1);
  transformer(batch, frames);
  bf16* const x = upsample(batch, frames);
  decoder(x, batch, frames * c.latent_upsample());
  cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
  std::vector<float> out(std::size_t(rows * c.total_upsample()));
  cuda_check(cudaMemcpyAsync(out.data(), wave.data(), out.size() * sizeof(float), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync(waveform)");
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(decode)");
  return out;
}

// ---- CodecDecoder ----

CodecDecoder::CodecDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CodecDecoder::CodecDecoder(CodecDecoder&&) noexcept = default;
CodecDecoder& CodecDecoder::operator=(CodecDecoder&&) noexcept = default;
CodecDecoder::~CodecDecoder() = default;

CodecDecoder CodecDecoder::load(const std::filesystem::path& folder) {
  auto const make = [&](const CodecWeightManifest& m) { return codec_checkpoint_weights(folder, m); };
  return CodecDecoder(std::make_unique<Impl>(read_codec_config(folder), make));
}

CodecDecoder CodecDecoder::random(const std::filesystem::path& path, std::uint64_t seed) {
  auto const make = [&](const CodecWeightManifest& m) { return codec_random_weights(m, seed); };
  return CodecDecoder(std::make_unique<Impl>(read_codec_config(path), make));
}

const CodecConfig& CodecDecoder::config() const noexcept { return impl_->config; }
std::int64_t CodecDecoder::samples_per_frame() const noexcept { return impl_->config.total_upsample(); }

std::vector<float> CodecDecoder::decode(std::span<const std::int32_t> codes, int batch, std::int64_t frames) {
  return impl_->decode(codes, batch, frames);
}

std::vector<float> CodecDecoder::decode_chunked(std::span<const std::int32_t> codes, int batch, std::int64_t frames,
                                                std::int64_t chunk_size, std::int64_t left_context) {
  auto const decode = [this](std::span<const std::int32_t> c, int b, std::int64_t f) { return impl_->decode(c, b, f); };
  return chunked_decode(decode, {config().num_quantizers, samples_per_frame()}, codes, batch, frames, chunk_size,
                        left_context);
}

CodecStream CodecDecoder::stream(int batch, std::int64_t chunk_size, std::int64_t left_context) {
  Impl* const impl = impl_.get();
  auto const decode = [impl](std::span<const std::int32_t> c, int b, std::int64_t f) { return impl->decode(c, b, f); };
  return CodecStream(decode, {config().num_quantizers, samples_per_frame()}, batch, chunk_size, left_context);
}

float CodecDecoder::last_decode_ms() const noexcept {
  float ms = 0.0f;
  if (cudaEventSynchronize(impl_->stop) != cudaSuccess ||
      cudaEventElapsedTime(&ms, impl_->start, impl_->stop) != cudaSuccess)
    return 0.0f;
  return ms;
}

}  // namespace cute_cpp::models::qwen3_tts
