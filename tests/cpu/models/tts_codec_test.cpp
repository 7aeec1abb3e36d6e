// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts: the speech-tokenizer decoder's host side: the published config (every field and
// the derived widths) and each rejection; the weight manifest's counts for the published config
// (counted by hand) and validate() on a tiny checkpoint written here; the padding rules against the
// reference's float formula; the chunk bookkeeping (plan_chunks, ChunkStreamer) against the
// reference's chunked_decode loop, written out here in its own terms; and the chunked and streaming
// decodes (stream.hpp) over a fake whole decode whose samples say which window frame made them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "models/common/checkpoint.hpp"
#include "models/common/error.hpp"
#include "models/qwen3_tts/chunks.hpp"
#include "models/qwen3_tts/config.hpp"
#include "models/qwen3_tts/stream.hpp"
#include "models/qwen3_tts/weights.hpp"
#include "tests/cpu/models/qwen3_8b_config.hpp"  // with_line
#include "tests/cpu/models/st_writer.hpp"
#include "tests/cpu/models/tts_codec_config.hpp"

namespace cm = cute_cpp::models;
namespace tts = cute_cpp::models::qwen3_tts;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::TensorSpec;
using cute_cpp::test::tts_codec_config;
using cute_cpp::test::well_formed;
using cute_cpp::test::with_line;
using cute_cpp::test::write_file;

namespace {

tts::CodecConfig parse(const std::string& text) { return tts::parse_codec_config(cm::parse_json(text, "config.json")); }
std::string published_with(const std::string& key, const std::string& line) {
  return with_line(tts_codec_config(), key, line);
}

/// f() throws a std::exception whose message starts with "cute-cpp <rule>: ".
template <class F>
void expect_rule(F&& f, const std::string& rule) {
  try {
    f();
    ADD_FAILURE() << "expected cute-cpp " << rule;
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cute-cpp " + rule + ": ", 0), 0u) << e.what();
  }
}

}  // namespace

// ---- config ----

TEST(CodecConfig, ParsesThePublishedTokenizer) {
  auto const c = parse(tts_codec_config());
  EXPECT_EQ(c.model_type, "qwen3_tts_tokenizer_12hz");
  EXPECT_EQ(c.output_sample_rate, 24000);
  EXPECT_EQ(c.codebook_size, 2048);
  EXPECT_EQ(c.codebook_dim, 512);
  EXPECT_EQ(c.codebook_entry_dim(), 256);
  EXPECT_EQ(c.num_quantizers, 16);
  EXPECT_EQ(c.num_semantic_quantizers, 1);
  EXPECT_EQ(c.latent_dim, 1024);
  EXPECT_EQ(c.hidden_size, 512);
  EXPECT_EQ(c.num_hidden_layers, 8);
  EXPECT_EQ(c.num_attention_heads, 16);
  EXPECT_EQ(c.num_key_value_heads, 16);
  EXPECT_EQ(c.head_dim, 64);  // given: hidden_size / heads would be 32
  EXPECT_EQ(c.attention_width(), 1024);
  EXPECT_EQ(c.kv_width(), 1024);
  EXPECT_EQ(c.intermediate_size, 1024);
  EXPECT_EQ(c.sliding_window, 72);
  EXPECT_EQ(c.max_position_embeddings, 8000);
  EXPECT_EQ(c.rope_theta, 10000);
  EXPECT_EQ(c.rms_norm_eps, 1e-5);
  EXPECT_EQ(c.upsampling_ratios, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(c.upsample_rates, (std::vector<std::int64_t>{8, 5, 4, 3}));
  EXPECT_EQ(c.decoder_dim, 1536);
  EXPECT_EQ(c.block_width(1), 768);
  EXPECT_EQ(c.block_width(4), 96);
  EXPECT_EQ(c.latent_upsample(), 4);
  EXPECT_EQ(c.total_upsample(), 1920);
}

TEST(CodecConfig, DefaultsOfTheReference) {
  std::string text = published_with("rope_theta", "");
  text = with_line(text, "rms_norm_eps", "");
  text = with_line(text, "hidden_act", "");
  text = with_line(text, "attention_bias", "");
  text = with_line(text, "num_semantic_quantizers", "");
  text = with_line(text, "max_position_embeddings", "");
  auto const c = parse(text);
  EXPECT_EQ(c.rope_theta, 10000);
  EXPECT_EQ(c.rms_norm_eps, 1e-5);
  EXPECT_EQ(c.num_semantic_quantizers, 1);
  EXPECT_EQ(c.max_position_embeddings, 8000);
  // Without head_dim the reference takes hidden_size / heads: 512 / 8 = 64 here.
  std::string const eight_heads = with_line(published_with("head_dim", ""), "num_attention_heads",
                                            R"("num_attention_heads": 8)");
  auto const d = parse(with_line(eight_heads, "num_key_value_heads", R"("num_key_value_heads": 8)"));
  EXPECT_EQ(d.head_dim, 64);
}

TEST(CodecConfig, Rejections) {
  expect_load_error([] { parse(with_line(tts_codec_config(), "model_type", R"("model_type": "mimi")")); },
                    "[config.model-type]", "\"model_type\" is \"mimi\", expected \"qwen3_tts_tokenizer_12hz\"");
  expect_load_error([] { parse(published_with("codebook_dim", "")); }, "[json.missing]", "codebook_dim");
  expect_load_error([] { parse(published_with("latent_dim", R"("latent_dim": 0)")); }, "[config.value]",
                    "\"latent_dim\" is 0, expected a positive integer");
  expect_load_error([] { parse(published_with("codebook_dim", R"("codebook_dim": 511)")); }, "[config.value]",
                    "\"codebook_dim\" is 511, expected an even number");
  expect_load_error([] { parse(published_with("num_quantizers", R"("num_quantizers": 1)")); }, "[config.value]",
                    "\"num_quantizers\" is 1, expected 2 to 1024");
  expect_load_error([] { parse(published_with("num_key_value_heads", R"("num_key_value_heads": 3)")); },
                    "[config.value]", "\"num_attention_heads\" (16) is not a multiple of \"num_key_value_heads\" (3)");
  // The reference's default head_dim, 512 / 16 = 32, is not one of the attention kernels'.
  expect_load_error([] { parse(published_with("head_dim", "")); }, "[config.unsupported]",
                    "the head dimension is 32; the attention kernels take 64, 128 or 256");
  expect_load_error([] { parse(published_with("hidden_act", R"("hidden_act": "gelu")")); }, "[config.unsupported]",
                    "\"hidden_act\" is \"gelu\"");
  expect_load_error([] { parse(published_with("attention_bias", R"("attention_bias": true)")); },
                    "[config.unsupported]", "\"attention_bias\" is true");
  expect_load_error([] { parse(published_with("num_semantic_quantizers", R"("num_semantic_quantizers": 2)")); },
                    "[config.unsupported]", "\"num_semantic_quantizers\" is 2");
  expect_load_error([] { parse(published_with("upsample_rates", R"("upsample_rates": [8, 6, 4, 3])")); },
                    "[config.unsupported]", "\"upsample_rates\" holds 6");
  expect_load_error([] { parse(published_with("upsampling_ratios", R"("upsampling_ratios": [2, 3])")); },
                    "[config.unsupported]", "\"upsampling_ratios\" holds 3");
  expect_load_error([] { parse(published_with("upsample_rates", R"("upsample_rates": [])")); }, "[config.value]",
                    "\"upsample_rates\" is empty");
  expect_load_error([] { parse(published_with("decoder_dim", R"("decoder_dim": 1544)")); }, "[config.value]",
                    "\"decoder_dim\" (1544) must halve 4 times");
  expect_load_error([] { parse(published_with("decoder_dim", R"("decoder_dim": 192)")); }, "[config.unsupported]",
                    "decoder block 4's width is 12");
  expect_load_error([] { parse(published_with("hidden_size", R"("hidden_size": 516)")); }, "[config.unsupported]",
                    "\"hidden_size\" is 516");
  expect_load_error([] { parse(with_line(tts_codec_config(), "decode_upsample_rate", R"("decode_upsample_rate": 960)")); },
                    "[config.value]", "\"decode_upsample_rate\" is 960 but");
  expect_load_error([] { parse(R"({"model_type": "qwen3_tts_tokenizer_12hz"})"); }, "[json.missing]", "decoder_config");
}

// ---- manifest ----

TEST(CodecManifest, PublishedCountsAndBytes) {
  tts::CodecWeightManifest const m(parse(tts_codec_config()));
  // Quantizer: 16 codebooks x 2 + 2 output_proj; pre_conv 2; transformer: input_proj 2, 8 layers x 11,
  // norm 1, output_proj 2; upsamplers 2 x 11; decoder: conv 2, 4 blocks x (snake 2 + up 2 + 3 units x 8),
  // snake 2, conv 2.
  std::size_t const expected = 34 + 2 + (2 + 88 + 1 + 2) + 22 + (2 + 4 * 28 + 2 + 2);
  EXPECT_EQ(m.tensors().size(), expected);
  ASSERT_EQ(m.codebooks().size(), 16u);
  EXPECT_EQ(m.codebooks()[0].embedding_sum, "decoder.quantizer.rvq_first.vq.layers.0._codebook.embedding_sum");
  EXPECT_EQ(m.codebooks()[15].cluster_usage, "decoder.quantizer.rvq_rest.vq.layers.14._codebook.cluster_usage");
  EXPECT_EQ(m.find(m.first_output_proj)->shape, (std::vector<std::int64_t>{512, 256, 1}));
  EXPECT_EQ(m.find(m.pre_conv_weight)->shape, (std::vector<std::int64_t>{1024, 512, 3}));
  EXPECT_EQ(m.find(m.layers()[7].q_proj)->shape, (std::vector<std::int64_t>{1024, 512}));
  EXPECT_EQ(m.layers()[7].o_proj, "decoder.pre_transformer.layers.7.self_attn.o_proj.weight");
  EXPECT_EQ(m.upsamplers()[1].gamma, "decoder.upsample.1.1.gamma");
  EXPECT_EQ(m.find(m.upsamplers()[1].up_weight)->shape, (std::vector<std::int64_t>{1024, 1024, 2}));
  EXPECT_EQ(m.blocks()[0].up_weight, "decoder.decoder.1.block.1.conv.weight");
  EXPECT_EQ(m.find(m.blocks()[0].up_weight)->shape, (std::vector<std::int64_t>{1536, 768, 16}));
  EXPECT_EQ(m.blocks()[3].units[2].conv1_weight, "decoder.decoder.4.block.4.conv1.conv.weight");
  EXPECT_EQ(m.blocks()[3].units[2].act2.beta, "decoder.decoder.4.block.4.act2.beta");
  EXPECT_EQ(m.final_snake.alpha, "decoder.decoder.5.alpha");
  EXPECT_EQ(m.decoder_out_weight, "decoder.decoder.6.conv.weight");
  EXPECT_EQ(m.find(m.decoder_out_weight)->shape, (std::vector<std::int64_t>{1, 96, 7}));
  // Parameters, counted by hand: quantizer 16 x (2048 x 256 + 2048) + 2 x 512 x 256; pre_conv
  // 1024 x 512 x 3 + 1024; transformer 2 x (512 x 1024 + 512 + 1024) - 512 ... summed below per part.
  std::uint64_t params = 16 * (2048 * 256 + 2048) + 2 * 512 * 256 + 1024 * 512 * 3 + 1024;
  params += (512 * 1024 + 512) + (1024 * 512 + 1024) + 512;                       // in/out proj, norm
  params += 8 * (4 * 1024 * 512 + 3 * 512 * 1024 + 4 * 512);                     // 8 layers
  params += 2 * (1024 * 1024 * 2 + 1024 + 1024 * 7 + 1024 + 2 * 1024 + 2 * 4096 * 1024 + 4096 + 1024 + 1024);
  params += 1536 * 1024 * 7 + 1536;
  for (std::uint64_t in = 1536; std::uint64_t const rate : {8u, 5u, 4u, 3u}) {
    std::uint64_t const out = in / 2;
    params += 2 * in + in * out * 2 * rate + out + 3 * (4 * out + out * out * 7 + out + out * out + out);
    in = out;
  }
  params += 2 * 96 + 96 * 7 + 1;
  EXPECT_EQ(m.total_bytes(), 4 * params);
}

namespace {

/// Two ConvNeXt-free blocks at tiny widths: codebooks of 4 x 8 entries, Q 3, latent 16, hidden 16,
/// one head of 64, decoder_dim 32 -> 16 -> 8.
std::string tiny_config() {
  return R"({"model_type": "qwen3_tts_tokenizer_12hz", "decoder_config": {"codebook_size": 4, "codebook_dim": 16,
    "num_quantizers": 3, "latent_dim": 16, "hidden_size": 16, "num_hidden_layers": 1, "num_attention_heads": 1,
    "num_key_value_heads": 1, "head_dim": 64, "intermediate_size": 24, "sliding_window": 4,
    "upsampling_ratios": [2], "upsample_rates": [3, 4], "decoder_dim": 32}})";
}

std::vector<TensorSpec> tiny_specs(const tts::CodecWeightManifest& m) {
  std::vector<TensorSpec> specs;
  unsigned seed = 0;
  for (auto const& t : m.tensors()) {
    std::int64_t n = 1;
    for (auto const e : t.shape) n *= e;
    specs.push_back({t.name, "F32", t.shape, cute_cpp::test::pattern(std::size_t(n) * 4, seed++)});
  }
  // Tensors the decoder does not read: the encoder's and the quantizer's input_proj.
  specs.push_back({"encoder.conv.weight", "F32", {2, 2}, std::string(16, '\0')});
  specs.push_back({"decoder.quantizer.rvq_first.input_proj.weight", "F32", {8, 16, 1}, std::string(512, '\0')});
  return specs;
}

class CodecWeights : public cute_cpp::test::ScratchDir {
 protected:
  void check(const tts::CodecWeightManifest& m, const std::vector<TensorSpec>& specs) {
    write_file(dir_ / "model.safetensors", well_formed(specs));
    m.validate(cm::Checkpoint::open(dir_));
  }
};

}  // namespace

TEST_F(CodecWeights, ValidatesATinyCheckpoint) {
  tts::CodecWeightManifest const m(parse(tiny_config()));
  EXPECT_EQ(m.tensors().size(), 6u + 2 + 2 + (2 + 11 + 1 + 2) + 11 + (2 + 2 * 28 + 2 + 2));
  auto specs = tiny_specs(m);
  check(m, specs);  // whole, with unread tensors beside
  specs[1].dtype = "BF16";
  specs[1].bytes.resize(specs[1].bytes.size() / 2);
  check(m, specs);  // bfloat16 is read too

  auto missing = specs;
  std::erase_if(missing, [&](const TensorSpec& s) { return s.name == m.blocks()[1].units[0].conv2_bias; });
  expect_load_error([&] { check(m, missing); }, "[tts-codec.tensor-missing]",
                    "tensor \"decoder.decoder.2.block.2.conv2.conv.bias\" [8] F32 is not in");
  auto shaped = specs;
  for (auto& s : shaped)
    if (s.name == m.pre_conv_weight) s.shape = {16, 16, 2}, s.bytes.resize(16 * 16 * 2 * 4);
  expect_load_error([&] { check(m, shaped); }, "[tts-codec.tensor-shape]",
                    "has shape [16, 16, 2], expected [16, 16, 3] = [latent_dim, codebook_dim, 3]");
  auto typed = specs;
  for (auto& s : typed)
    if (s.name == m.final_norm) s.dtype = "F16", s.bytes.resize(s.bytes.size() / 2);
  expect_load_error([&] { check(m, typed); }, "[tts-codec.tensor-dtype]", "is F16, expected F32 or BF16");
}

// ---- padding arithmetic ----

namespace {
/// The reference's extra right padding, in its own float arithmetic (math.ceil of a float).
std::int64_t reference_extra_padding(std::int64_t length, std::int64_t kernel, std::int64_t dilation,
                                     std::int64_t stride) {
  std::int64_t const k = (kernel - 1) * dilation + 1, padding = k - stride;
  double const n_frames = double(length - k + padding) / double(stride) + 1;
  std::int64_t const ideal = (std::int64_t(std::ceil(n_frames)) - 1) * stride + (k - padding);
  return ideal - length;
}
}  // namespace

TEST(CodecPadding, MatchesTheReferenceFormula) {
  EXPECT_EQ(tts::causal_conv_padding(10, 7, 3, 1), (tts::ConvPadding{18, 0}));
  EXPECT_EQ(tts::causal_conv_padding(10, 4, 1, 2), (tts::ConvPadding{2, 0}));
  EXPECT_EQ(tts::causal_conv_padding(9, 4, 1, 2), (tts::ConvPadding{2, 1}));
  for (std::int64_t length = 0; length < 40; ++length)
    for (std::int64_t kernel : {1, 2, 3, 7})
      for (std::int64_t dilation : {1, 3, 9})
        for (std::int64_t stride = 1; stride <= (kernel - 1) * dilation + 1 && stride <= 5; ++stride) {
          SCOPED_TRACE(testing::Message() << "length " << length << " kernel " << kernel << " dilation " << dilation
                                          << " stride " << stride);
          auto const p = tts::causal_conv_padding(length, kernel, dilation, stride);
          EXPECT_EQ(p.left, (kernel - 1) * dilation + 1 - stride);
          EXPECT_EQ(p.right, reference_extra_padding(length, kernel, dilation, stride));
          if (stride == 1) {  // every conv of the decoder: no right padding, one output per input
            EXPECT_EQ(p.right, 0);
            EXPECT_EQ(tts::causal_conv_output_length(length, kernel, dilation, 1), length);
          }
        }
}

TEST(CodecPadding, TransposedConvGivesLengthTimesStride) {
  for (std::int64_t length = 0; length < 20; ++length)
    for (std::int64_t stride : {2, 3, 4, 5, 8})
      for (std::int64_t kernel : {stride, 2 * stride})
        EXPECT_EQ(tts::causal_conv_transpose_output_length(length, kernel, stride), length * stride);
  // Through the published decoder: 1920 samples a frame.
  auto const c = parse(tts_codec_config());
  std::int64_t length = 7;
  for (auto const f : c.upsampling_ratios) length = tts::causal_conv_transpose_output_length(length, f, f);
  for (auto const s : c.upsample_rates) length = tts::causal_conv_transpose_output_length(length, 2 * s, s);
  EXPECT_EQ(length, 7 * c.total_upsample());
  expect_rule([] { (void)tts::causal_conv_transpose_output_length(3, 1, 2); }, "[tts-codec.conv-shape]");
  expect_rule([] { (void)tts::causal_conv_padding(3, 1, 1, 2); }, "[tts-codec.conv-shape]");
}

// ---- chunk bookkeeping ----

namespace {
/// The reference's chunked_decode loop, written out: the windows it decodes.
std::vector<tts::ChunkWindow> reference_chunks(std::int64_t frames, std::int64_t chunk, std::int64_t left) {
  std::vector<tts::ChunkWindow> out;
  std::int64_t start = 0;
  while (start < frames) {
    std::int64_t const end = std::min(start + chunk, frames);
    std::int64_t const context = start - left > 0 ? left : start;
    out.push_back({start, end, context});
    start = end;
  }
  return out;
}
}  // namespace

TEST(CodecChunks, PlanMatchesTheReferenceLoop) {
  EXPECT_EQ(tts::plan_chunks(700, 300, 25),
            (std::vector<tts::ChunkWindow>{{0, 300, 0}, {300, 600, 25}, {600, 700, 25}}));
  EXPECT_TRUE(tts::plan_chunks(0, 300, 25).empty());
  for (std::int64_t frames = 0; frames < 60; ++frames)
    for (std::int64_t chunk : {1, 2, 5, 12, 300})
      for (std::int64_t left : {0, 1, 3, 25}) {
        auto const plan = tts::plan_chunks(frames, chunk, left);
        EXPECT_EQ(plan, reference_chunks(frames, chunk, left)) << frames << " " << chunk << " " << left;
        std::int64_t kept = 0;
        for (auto const& w : plan) kept += w.new_frames();
        EXPECT_EQ(kept, frames);
      }
  auto const w = tts::plan_chunks(700, 300, 25)[1];
  EXPECT_EQ(w.window_first(), 275);
  EXPECT_EQ(w.window_frames(), 325);
  EXPECT_EQ(w.skip_samples(1920), 25 * 1920);
  expect_rule([] { (void)tts::plan_chunks(10, 0, 25); }, "[tts-codec.chunk]");
  expect_rule([] { (void)tts::plan_chunks(10, 4, -1); }, "[tts-codec.chunk]");
}

TEST(CodecChunks, StreamerGivesThePlanFromAnyPushes) {
  tts::ChunkStreamer s(300, 25);
  EXPECT_TRUE(s.push(299).empty());
  EXPECT_EQ(s.oldest_needed(), 0);
  EXPECT_EQ(s.push(2), (std::vector<tts::ChunkWindow>{{0, 300, 0}}));
  EXPECT_EQ(s.oldest_needed(), 275);
  EXPECT_EQ(s.finish(), (std::vector<tts::ChunkWindow>{{300, 301, 25}}));
  EXPECT_TRUE(s.finished());
  expect_rule([&] { (void)s.push(1); }, "[tts-codec.stream-finished]");
  tts::ChunkStreamer negative(4, 2);
  expect_rule([&] { (void)negative.push(-1); }, "[tts-codec.chunk]");

  std::mt19937 rng(20261205);
  for (int trial = 0; trial < 200; ++trial) {
    std::int64_t const chunk = 1 + std::int64_t(rng() % 20), left = std::int64_t(rng() % 8);
    tts::ChunkStreamer st(chunk, left);
    std::vector<tts::ChunkWindow> got;
    for (int p = 0, pushes = int(rng() % 12); p < pushes; ++p) {
      for (auto const& w : st.push(std::int64_t(rng() % 9))) {
        EXPECT_GE(w.window_first(), 0);
        got.push_back(w);
      }
      // Every later window starts at or after oldest_needed().
      EXPECT_LE(st.oldest_needed(), st.received());
    }
    std::int64_t const oldest = st.oldest_needed();
    for (auto const& w : st.finish()) {
      EXPECT_GE(w.window_first(), oldest);
      got.push_back(w);
    }
    EXPECT_EQ(got, tts::plan_chunks(st.received(), chunk, left)) << "chunk " << chunk << " left " << left;
  }
}

// ---- chunked and streaming decodes over a fake decoder ----

namespace {

constexpr std::int64_t kQuantizers = 2, kSamplesPerFrame = 3;

/// A whole decode whose sample k of window frame j of sequence b is codes[b, 0, j] * 65536 + j * 1024 + k
/// (exact in float): a sample says which code and which place in its window made it.
std::vector<float> fake_decode(std::span<const std::int32_t> codes, int batch, std::int64_t frames, int* calls) {
  ++*calls;
  std::vector<float> out(std::size_t(batch * frames * kSamplesPerFrame));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < frames; ++j)
      for (std::int64_t k = 0; k < kSamplesPerFrame; ++k)
        out[std::size_t((b * frames + j) * kSamplesPerFrame + k)] =
            float(codes[std::size_t(b * kQuantizers * frames + j)] * 65536 + j * 1024 + k);
  return out;
}

}  // namespace

TEST(CodecStream, ChunkedDecodeKeepsEachWindowsNewFrames) {
  int calls = 0;
  tts::DecodeFn const decode = [&](std::span<const std::int32_t> c, int b, std::int64_t f) {
    return fake_decode(c, b, f, &calls);
  };
  std::mt19937 rng(5);
  for (std::int64_t frames : {0, 1, 11, 12, 13, 40}) {
    for (auto const& [chunk, left] : {std::pair<std::int64_t, std::int64_t>{12, 25}, {5, 3}, {300, 25}, {4, 0}}) {
      int const batch = 2;
      std::vector<std::int32_t> codes(std::size_t(batch * kQuantizers * frames));
      for (auto& c : codes) c = std::int32_t(rng() % 16);
      calls = 0;
      auto const wav = tts::chunked_decode(decode, {kQuantizers, kSamplesPerFrame}, codes, batch, frames, chunk, left);
      auto const windows = reference_chunks(frames, chunk, left);
      EXPECT_EQ(calls, int(windows.size()));
      ASSERT_EQ(wav.size(), std::size_t(batch * frames * kSamplesPerFrame));
      for (auto const& w : windows)
        for (std::int64_t b = 0; b < batch; ++b)
          for (std::int64_t t = w.first; t < w.last; ++t)
            for (std::int64_t k = 0; k < kSamplesPerFrame; ++k) {
              std::int64_t const j = t - w.window_first();  // its place in the window that decoded it
              float const want = float(codes[std::size_t(b * kQuantizers * frames + t)] * 65536 + j * 1024 + k);
              ASSERT_EQ(wav[std::size_t((b * frames + t) * kSamplesPerFrame + k)], want)
                  << "frames " << frames << " chunk " << chunk << " left " << left << " b " << b << " t " << t;
            }
    }
  }
}

TEST(CodecStream, StreamEqualsChunkedDecode) {
  int calls = 0;
  tts::DecodeFn const decode = [&](std::span<const std::int32_t> c, int b, std::int64_t f) {
    return fake_decode(c, b, f, &calls);
  };
  std::mt19937 rng(9);
  for (int trial = 0; trial < 100; ++trial) {
    int const batch = 1 + int(rng() % 3);
    std::int64_t const frames = std::int64_t(rng() % 60), chunk = 1 + std::int64_t(rng() % 14);
    std::int64_t const left = std::int64_t(rng() % 30);
    std::vector<std::int32_t> codes(std::size_t(batch * kQuantizers * frames));
    for (auto& c : codes) c = std::int32_t(rng() % 16);
    auto const whole = tts::chunked_decode(decode, {kQuantizers, kSamplesPerFrame}, codes, batch, frames, chunk, left);
    tts::CodecStream stream(decode, {kQuantizers, kSamplesPerFrame}, batch, chunk, left);
    std::vector<std::vector<float>> per_sequence{static_cast<std::size_t>(batch)};
    auto const take = [&](std::vector<float> const& piece) {
      std::size_t const n = piece.size() / std::size_t(batch);
      for (std::size_t b = 0; b < std::size_t(batch); ++b)
        per_sequence[b].insert(per_sequence[b].end(), piece.begin() + std::ptrdiff_t(b * n),
                               piece.begin() + std::ptrdiff_t((b + 1) * n));
    };
    for (std::int64_t first = 0; first < frames;) {
      std::int64_t const n = std::min<std::int64_t>(frames - first, std::int64_t(rng() % 7));
      std::vector<std::int32_t> part(std::size_t(batch * kQuantizers * n));
      for (std::int64_t row = 0; row < batch * kQuantizers; ++row)
        std::copy(codes.begin() + row * frames + first, codes.begin() + row * frames + first + n,
                  part.begin() + row * n);
      take(stream.push(part, n));
      first += n;
    }
    take(stream.finish());
    EXPECT_EQ(stream.frames_pushed(), frames);
    for (std::size_t b = 0; b < std::size_t(batch); ++b) {
      std::vector<float> const want(whole.begin() + std::ptrdiff_t(b * frames * kSamplesPerFrame),
                                    whole.begin() + std::ptrdiff_t((b + 1) * frames * kSamplesPerFrame));
      EXPECT_EQ(per_sequence[b], want) << "trial " << trial << " batch " << batch << " frames " << frames << " chunk "
                                       << chunk << " left " << left;
    }
  }
  expect_rule([&] { tts::CodecStream bad(decode, {kQuantizers, kSamplesPerFrame}, 0, 4, 2); }, "[tts-codec.codes]");
  tts::CodecStream s(decode, {kQuantizers, kSamplesPerFrame}, 1, 4, 2);
  expect_rule([&] { (void)s.push(std::vector<std::int32_t>(3), 2); }, "[tts-codec.codes]");
}
