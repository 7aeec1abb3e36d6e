// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts (host side): the config of a Qwen3-TTS 1.7B-shaped checkpoint field by field and
// its rejections; the weight manifest's counts and bytes at the published widths (summed by hand
// below); the talker's multimodal RoPE (pair-to-id rule, text positions, cos/sin against float64);
// the prompt rows of the reference's generate for CustomVoice; the 16-bit PCM WAV writer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/json.hpp"
#include "models/common/rope.hpp"
#include "models/common/wav.hpp"
#include "models/qwen3_tts/tts_config.hpp"
#include "models/qwen3_tts/mrope.hpp"
#include "models/qwen3_tts/prompt.hpp"
#include "models/qwen3_tts/tts_weights.hpp"
#include "tests/cpu/models/qwen3_tts_config.hpp"
#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
namespace tts = cute_cpp::models::qwen3_tts;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::qwen3_tts_config_json;

namespace {

tts::Qwen3TtsConfig parse(const std::string& text) { return tts::parse_qwen3_tts_config(cm::parse_json(text, "config.json")); }
tts::Qwen3TtsConfig published() { return parse(qwen3_tts_config_json()); }

/// The config text with `from` replaced by `to` (once; the test fails when `from` is absent).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = qwen3_tts_config_json();
  auto const at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// ---- config ----

TEST(Qwen3TtsConfig, ReadsThePublishedShape) {
  tts::Qwen3TtsConfig const c = published();
  cm::Qwen3Config const& t = c.talker.decoder;
  EXPECT_EQ(t.hidden_size, 2048);
  EXPECT_EQ(t.intermediate_size, 6144);
  EXPECT_EQ(t.num_hidden_layers, 28);
  EXPECT_EQ(t.num_attention_heads, 16);
  EXPECT_EQ(t.num_key_value_heads, 8);
  EXPECT_EQ(t.head_dim, 128);
  EXPECT_EQ(t.vocab_size, 3072);
  EXPECT_EQ(t.rope_theta, 1e6);
  EXPECT_FALSE(t.yarn.has_value());
  EXPECT_EQ(t.torch_dtype, "bfloat16");
  EXPECT_EQ(c.talker.mrope.sections, (std::array<int, 3>{24, 20, 20}));
  EXPECT_TRUE(c.talker.mrope.interleaved);
  EXPECT_EQ(c.talker.text_vocab_size, 151936);
  EXPECT_EQ(c.talker.text_hidden_size, 2048);
  EXPECT_EQ(c.talker.num_code_groups, 16);
  EXPECT_EQ(c.talker.codec_eos_token_id, 2150);
  EXPECT_EQ(c.talker.codec_pad_id, 2148);
  EXPECT_EQ(c.talker.codec_bos_id, 2149);
  EXPECT_EQ(c.talker.spk_id.at("serena"), 3066);
  EXPECT_EQ(c.talker.spk_is_dialect.size(), 1u);  // false entries mean no dialect
  EXPECT_EQ(c.talker.spk_is_dialect.at("eric"), "sichuan_dialect");
  cm::Qwen3Config const& p = c.code_predictor;
  EXPECT_EQ(p.hidden_size, 1024);
  EXPECT_EQ(p.intermediate_size, 3072);
  EXPECT_EQ(p.num_hidden_layers, 5);
  EXPECT_EQ(p.vocab_size, 2048);
  EXPECT_EQ(p.head_dim, 128);
  EXPECT_TRUE(c.projects_to_predictor());
  EXPECT_EQ(c.tts_model_type, "custom_voice");
  EXPECT_EQ(c.tts_pad_token_id, 151671);
  EXPECT_EQ(c.tts_bos_token_id, 151672);
  EXPECT_EQ(c.tts_eos_token_id, 151673);
}

TEST(Qwen3TtsConfig, HeadDimDefaultsAndRopeParameters) {
  // head_dim absent: hidden_size / num_attention_heads, as the reference's getattr.
  auto const c = parse(edited(R"("num_key_value_heads": 8, "head_dim": 128,
    "max_position_embeddings": 32768)", R"("num_key_value_heads": 8,
    "max_position_embeddings": 32768)"));
  EXPECT_EQ(c.talker.decoder.head_dim, 128);
  // transformers 5's spelling: rope_parameters with the theta inside.
  auto const d = parse(edited(R"("rope_theta": 1000000,
    "rope_scaling": {"interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default", "type": "default"},)",
                              R"("rope_parameters": {"rope_theta": 500000, "mrope_section": [24, 20, 20], "rope_type": "default"},)"));
  EXPECT_EQ(d.talker.decoder.rope_theta, 5e5);
  EXPECT_FALSE(d.talker.mrope.interleaved);
}

TEST(Qwen3TtsConfig, Rejections) {
  expect_load_error([] { (void)parse(edited(R"("model_type": "qwen3_tts")", R"("model_type": "qwen3")")); },
                    "[config.model-type]", "config.json: \"model_type\" is \"qwen3\", expected \"qwen3_tts\"");
  expect_load_error([] { (void)parse(edited(R"("mrope_section": [24, 20, 20])", R"("mrope_section": [24, 20, 16])")); },
                    "[config.value]", "adds up to 60, expected head_dim / 2 = 64");
  expect_load_error([] { (void)parse(edited(R"("mrope_section": [24, 20, 20])", R"("mrope_section": [32, 32])")); },
                    "[config.value]", "has 2 entries, expected 3");
  expect_load_error([] { (void)parse(edited(R"("rope_type": "default", "type": "default")", R"("rope_type": "yarn")")); },
                    "[config.unsupported]", "is \"yarn\"");
  expect_load_error([] { (void)parse(edited(R"("hidden_size": 1024,)", R"("hidden_size": 0,)")); }, "[config.value]",
                    "\"talker_config\".\"code_predictor_config\".\"hidden_size\" is 0, expected a positive integer");
  expect_load_error([] { (void)parse(edited(R"("codec_eos_token_id": 2150)", R"("codec_eos_token_id": 3072)")); },
                    "[config.value]", "is 3072, expected a codec id in [0, 3072)");
  expect_load_error([] { (void)parse(edited(R"("serena": 3066,)", R"("serena": -1,)")); }, "[config.value]",
                    "is -1, expected a codec id in [0, 3072)");
  expect_load_error([] { (void)parse(edited(R"("eric": "sichuan_dialect")", R"("eric": "beijing_dialect")")); },
                    "[config.value]", "is \"beijing_dialect\", which codec_language_id does not list");
  expect_load_error([] { (void)parse(edited(R"("vocab_size": 2048, "num_code_groups": 16)",
                                            R"("vocab_size": 2048, "num_code_groups": 32)")); },
                    "[config.value]", "is 32 but talker_config.num_code_groups is 16");
  expect_load_error([] { (void)parse(edited(R"("attention_bias": false, "hidden_act": "silu", "hidden_size": 2048)",
                                            R"("attention_bias": true, "hidden_act": "silu", "hidden_size": 2048)")); },
                    "[config.unsupported]", "is true; the decoder has no attention projection biases");
  expect_load_error([] { (void)parse(edited(R"("hidden_act": "silu", "hidden_size": 1024)",
                                            R"("hidden_act": "gelu", "hidden_size": 1024)")); },
                    "[config.unsupported]", "is \"gelu\"");
  expect_load_error([] { (void)parse(edited(R"("num_key_value_heads": 8, "head_dim": 128,
    "max_position_embeddings": 32768)", R"("num_key_value_heads": 6, "head_dim": 128,
    "max_position_embeddings": 32768)")); },
                    "[config.value]", "the heads must be a multiple of the KV heads");
  expect_load_error([] { (void)parse(edited(R"("torch_dtype": "bfloat16")", R"("torch_dtype": "int8")")); },
                    "[config.value]", "\"torch_dtype\" is \"int8\"");
  expect_load_error([] { (void)parse(edited(R"("text_vocab_size": 151936, )", "")); }, "[json.missing]",
                    "text_vocab_size");
}

// ---- weight manifest ----

TEST(Qwen3TtsWeights, CountsAndBytesAtThePublishedWidths) {
  tts::TtsWeightManifest const m(published());
  // By hand. Talker layer: q 2048x2048, k and v 1024x2048, o 2048x2048, gate/up/down 6144x2048,
  // norms 2 x 2048 + 2 x 128. Code predictor layer: q 2048x1024, k and v 1024x1024, o 1024x2048,
  // gate/up/down 3072x1024, norms 2 x 1024 + 2 x 128.
  std::uint64_t const talker_layer = 4194304 + 2 * 2097152 + 4194304 + 3 * 12582912 + 2 * 2048 + 2 * 128;
  std::uint64_t const predictor_layer = 2097152 + 2 * 1048576 + 2097152 + 3 * 3145728 + 2 * 1024 + 2 * 128;
  std::uint64_t const talker = 28 * talker_layer + 3072 * 2048 /*codec embedding*/ + 151936ull * 2048 /*text*/ +
                               2048 /*norm*/ + (2048 * 2048 + 2048) + (2048 * 2048 + 2048) /*projection*/ +
                               3072 * 2048 /*codec head*/;
  std::uint64_t const predictor = 5 * predictor_layer + 1024 /*norm*/ + 15 * 2048 * 2048 /*embeddings*/ +
                                  15 * 2048 * 1024 /*heads*/ + 2048 * 1024 + 1024 /*small_to_mtp_projection*/;
  EXPECT_EQ(talker_layer, 50336000u);
  EXPECT_EQ(predictor_layer, 15730944u);
  EXPECT_EQ(m.total_bytes(), 2 * (talker + predictor));
  EXPECT_EQ(m.total_bytes(), 3833352704u);  // 1,916,676,352 parameters in bf16
  EXPECT_EQ(m.tensors().size(), 28u * 11 + 8 + 5 * 11 + 1 + 15 + 15 + 2);
  EXPECT_EQ(m.talker_layers().size(), 28u);
  EXPECT_EQ(m.predictor_layers().size(), 5u);
  EXPECT_EQ(m.talker_layers()[3].q_proj, "talker.model.layers.3.self_attn.q_proj.weight");
  EXPECT_EQ(m.predictor_layers()[4].down_proj, "talker.code_predictor.model.layers.4.mlp.down_proj.weight");
  EXPECT_EQ(m.names().predictor_embeddings[14], "talker.code_predictor.model.codec_embedding.14.weight");
  EXPECT_EQ(m.names().predictor_heads[0], "talker.code_predictor.lm_head.0.weight");
  auto const* proj = m.find("talker.code_predictor.small_to_mtp_projection.weight");
  ASSERT_NE(proj, nullptr);
  EXPECT_EQ(proj->shape, (std::vector<std::int64_t>{1024, 2048}));
  EXPECT_EQ(m.find("talker.text_projection.linear_fc2.bias")->shape, (std::vector<std::int64_t>{2048}));
  EXPECT_EQ(m.find("talker.model.text_embedding.weight")->shape, (std::vector<std::int64_t>{151936, 2048}));
}

TEST(Qwen3TtsWeights, NoProjectionWhenTheWidthsAgree) {
  // The 0.6B layout: talker hidden 1024 = the code predictor's, so no small_to_mtp_projection.
  auto const c = parse(edited(R"("hidden_size": 2048, "intermediate_size": 6144)",
                              R"("hidden_size": 1024, "intermediate_size": 3072)"));
  EXPECT_FALSE(c.projects_to_predictor());
  tts::TtsWeightManifest const m(c);
  EXPECT_EQ(m.find("talker.code_predictor.small_to_mtp_projection.weight"), nullptr);
  EXPECT_EQ(m.find("talker.text_projection.linear_fc2.weight")->shape, (std::vector<std::int64_t>{1024, 2048}));
}

// ---- validate against tiny checkpoints ----

// A tiny config: talker 1 layer of hidden 64 (4 heads / 2 KV heads of 16), codec vocabulary 160, text
// vocabulary 200 of width 32, 3 code groups; code predictor 1 layer of hidden 32, 40 entries.
const char* const kTinyConfig = R"({"model_type": "qwen3_tts", "torch_dtype": "bfloat16",
  "talker_config": {"hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 1, "num_attention_heads": 4,
    "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 160, "rms_norm_eps": 1e-6, "rope_theta": 10000,
    "rope_scaling": {"mrope_section": [4, 2, 2], "interleaved": true}, "text_vocab_size": 200,
    "text_hidden_size": 32, "num_code_groups": 3, "codec_pad_id": 150, "codec_bos_id": 151,
    "codec_eos_token_id": 152, "codec_think_id": 153, "codec_nothink_id": 154, "codec_think_bos_id": 155,
    "codec_think_eos_id": 156,
    "code_predictor_config": {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1,
      "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 16, "vocab_size": 40, "rms_norm_eps": 1e-6,
      "rope_theta": 10000}}})";

std::vector<cute_cpp::test::TensorSpec> tiny_specs(const tts::TtsWeightManifest& m) {
  std::vector<cute_cpp::test::TensorSpec> specs;
  unsigned seed = 7;
  for (auto const& e : m.tensors()) {
    std::size_t n = 2;
    for (auto const x : e.shape) n *= std::size_t(x);
    specs.push_back({e.name, "BF16", e.shape, cute_cpp::test::pattern(n, ++seed)});
  }
  return specs;
}

class Qwen3TtsValidate : public cute_cpp::test::ScratchDir {
 protected:
  void write(const std::vector<cute_cpp::test::TensorSpec>& specs) {
    cute_cpp::test::write_file(dir_ / "model.safetensors", cute_cpp::test::well_formed(specs));
  }
  void validate() { manifest_.validate(cm::Checkpoint::open(dir_)); }
  tts::TtsWeightManifest manifest_{parse(kTinyConfig)};
};

TEST_F(Qwen3TtsValidate, AcceptsTheWholeCheckpointAndTheSpeakerEncoder) {
  auto specs = tiny_specs(manifest_);
  EXPECT_EQ(manifest_.tensors().size(), 11u + 8 + 11 + 1 + 2 + 2 + 2);
  specs.push_back({"speaker_encoder.fc.weight", "BF16", {4, 4}, cute_cpp::test::pattern(32)});
  write(specs);
  EXPECT_NO_THROW(validate());
}

TEST_F(Qwen3TtsValidate, Rejections) {
  auto const base = tiny_specs(manifest_);
  auto specs = base;
  std::erase_if(specs, [](auto const& t) { return t.name == "talker.code_predictor.lm_head.1.weight"; });
  write(specs);
  expect_load_error([&] { validate(); }, "[tts.tensor-missing]",
                    "tensor \"talker.code_predictor.lm_head.1.weight\" [40, 32] BF16 is not in model.safetensors");
  specs = base;
  for (auto& t : specs)
    if (t.name == "talker.text_projection.linear_fc1.bias") t.shape = {64}, t.bytes = cute_cpp::test::pattern(128);
  write(specs);
  expect_load_error([&] { validate(); }, "[tts.tensor-shape]",
                    "\"talker.text_projection.linear_fc1.bias\" has shape [64], expected [32] = [text_hidden_size]");
  specs = base;
  for (auto& t : specs)
    if (t.name == "talker.model.norm.weight") t.dtype = "F16";
  write(specs);
  expect_load_error([&] { validate(); }, "[tts.tensor-dtype]", "\"talker.model.norm.weight\" is F16, expected BF16");
  specs = base;
  specs.push_back({"talker.model.layers.1.mlp.up_proj.weight", "BF16", {2, 2}, cute_cpp::test::pattern(8)});
  write(specs);
  expect_load_error([&] { validate(); }, "[tts.tensor-unexpected]",
                    "\"talker.model.layers.1.mlp.up_proj.weight\" [2, 2] BF16 is not a Qwen3-TTS talker or code "
                    "predictor weight for this config (1 talker layers, 1 code predictor layers, 3 code groups)");
}

// ---- multimodal RoPE ----

TEST(Qwen3TtsMrope, InterleavedSectionsAsTheReferenceLaysThemOut) {
  tts::MropeConfig const m{{24, 20, 20}, true};
  std::vector<std::int8_t> const c = tts::mrope_components(m);
  ASSERT_EQ(c.size(), 64u);
  int count[3] = {0, 0, 0};
  for (int i = 0; i < 64; ++i) {
    ++count[c[std::size_t(i)]];
    int const expected = i < 60 ? i % 3 : 0;  // 0 1 2 0 1 2 ... to pair 59, then temporal
    EXPECT_EQ(c[std::size_t(i)], expected) << "pair " << i;
  }
  EXPECT_EQ(count[0], 24);
  EXPECT_EQ(count[1], 20);
  EXPECT_EQ(count[2], 20);
  tts::MropeConfig const blocks{{24, 20, 20}, false};
  EXPECT_EQ(tts::mrope_component(23, blocks), 0);
  EXPECT_EQ(tts::mrope_component(24, blocks), 1);
  EXPECT_EQ(tts::mrope_component(43, blocks), 1);
  EXPECT_EQ(tts::mrope_component(44, blocks), 2);
  EXPECT_EQ(tts::mrope_component(63, blocks), 2);
  // Unequal sections: height [1, 3*8), width [2, 3*4): pairs 14, 17, 20 go back to the temporal table.
  tts::MropeConfig const uneven{{20, 8, 4}, true};
  EXPECT_EQ(tts::mrope_component(11, uneven), 2);
  EXPECT_EQ(tts::mrope_component(14, uneven), 0);
  EXPECT_EQ(tts::mrope_component(13, uneven), 1);
  EXPECT_EQ(tts::mrope_component(25, uneven), 0);
}

TEST(Qwen3TtsMrope, TextPositions) {
  tts::MropePositions const p = tts::text_positions(5, 3);
  ASSERT_EQ(p.planes.size(), 12u);
  for (int plane = 0; plane < 4; ++plane)
    for (int t = 0; t < 3; ++t) EXPECT_EQ(p.at(plane, t), 5 + t);
}

TEST(Qwen3TtsMrope, CosSinAgainstFloat64) {
  tts::Qwen3TtsConfig const c = published();
  cm::RopeFrequencies const f = cm::rope_frequencies(c.talker.decoder);
  ASSERT_EQ(f.inv_freq.size(), 64u);
  EXPECT_EQ(f.cos_sin_scale, 1.0f);
  // Three different ids per token, so that each pair's id is visible in its angle.
  for (std::array<std::int32_t, 3> const ids : {std::array<std::int32_t, 3>{0, 0, 0}, {7, 7, 7}, {100, 3, 2000},
                                                 {4095, 17, 1}, {1, 900, 30000}}) {
    tts::CosSin const r = tts::mrope_cos_sin(f.inv_freq, ids, c.talker.mrope);
    for (int i = 0; i < 64; ++i) {
      int const id = i < 60 ? ids[std::size_t(i % 3)] : ids[0];
      double const inv = std::pow(1e6, -2.0 * i / 128.0);
      double const angle = double(id) * inv;
      // float32: inv_freq within 2 ulps, the product rounded once, cosf/sinf within an ulp; the
      // angle's absolute error is about |angle| 2^-22, and so is cos's and sin's.
      double const tol = std::max(1e-6, std::abs(angle) * std::ldexp(1.0, -21));
      EXPECT_NEAR(r.cos[std::size_t(i)], std::cos(angle), tol) << "pair " << i << " id " << id;
      EXPECT_NEAR(r.sin[std::size_t(i)], std::sin(angle), tol) << "pair " << i << " id " << id;
    }
  }
  // Equal ids give plain RoPE's cos/sin whatever the sections.
  tts::CosSin const a = tts::mrope_cos_sin(f.inv_freq, {321, 321, 321}, c.talker.mrope);
  tts::CosSin const b = tts::mrope_cos_sin(f.inv_freq, {321, 321, 321}, tts::MropeConfig{{64, 0, 0}, false});
  EXPECT_EQ(a.cos, b.cos);
  EXPECT_EQ(a.sin, b.sin);
}

// ---- prompt ----

using Rows = std::vector<tts::PromptRow>;

// The assistant text's ids: <|im_start|> assistant \n, then the text's ids, then <|im_end|> \n
// <|im_start|> assistant \n (the ids are the Qwen tokenizer's; the builder only slices them).
std::vector<std::int32_t> assistant_ids(std::vector<std::int32_t> text) {
  std::vector<std::int32_t> ids{151644, 77091, 198};
  ids.insert(ids.end(), text.begin(), text.end());
  for (std::int32_t x : {151645, 198, 151644, 77091, 198}) ids.push_back(x);
  return ids;
}

TEST(Qwen3TtsPrompt, CustomVoiceNonStreaming) {
  tts::Qwen3TtsConfig const c = published();
  tts::PromptRequest r;
  r.text_ids = assistant_ids({9707, 11, 1879});
  r.speaker = "Serena";
  tts::TtsPrompt const p = tts::build_prompt(c, r);
  std::int32_t const pad = 151671, bos = 151672, eos = 151673;
  Rows const expected = {{151644, -1}, {77091, -1}, {198, -1},
                         {pad, 2155}, {pad, 2156}, {pad, 2157}, {pad, 3066}, {bos, 2148},
                         {9707, 2148}, {11, 2148}, {1879, 2148}, {eos, 2148}, {pad, 2149}};
  EXPECT_EQ(p.rows, expected);
  EXPECT_TRUE(p.trailing.empty());
  EXPECT_EQ(p.pad_text, pad);
}

TEST(Qwen3TtsPrompt, StreamingLanguageDialectAndInstruct) {
  tts::Qwen3TtsConfig const c = published();
  tts::PromptRequest r;
  r.text_ids = assistant_ids({9707, 11, 1879});
  r.instruct_ids = {151644, 872, 198, 5, 151645, 198};
  r.speaker = "eric";  // a dialect speaker: "auto" becomes his dialect's language id
  r.non_streaming = false;
  tts::TtsPrompt const p = tts::build_prompt(c, r);
  std::int32_t const pad = 151671, bos = 151672, eos = 151673;
  Rows const expected = {{151644, -1}, {872, -1}, {198, -1}, {5, -1}, {151645, -1}, {198, -1},
                         {151644, -1}, {77091, -1}, {198, -1},
                         {pad, 2154}, {pad, 2156}, {pad, 2062}, {pad, 2157}, {pad, 3070}, {bos, 2148},
                         {9707, 2149}};
  EXPECT_EQ(p.rows, expected);
  EXPECT_EQ(p.trailing, (std::vector<std::int32_t>{11, 1879, eos}));
  // English for the dialect speaker stays English; no speaker: no speaker row.
  EXPECT_EQ(tts::language_codec_id(c, "eric", "English"), 2050);
  EXPECT_EQ(tts::language_codec_id(c, "", "auto"), -1);
  r.speaker.clear();
  r.instruct_ids.clear();
  r.language = "chinese";
  EXPECT_EQ(tts::build_prompt(c, r).rows.size(), 3u + 4 + 1 + 1);
}

TEST(Qwen3TtsPrompt, Rejections) {
  tts::Qwen3TtsConfig const c = published();
  tts::PromptRequest r;
  r.text_ids = assistant_ids({9707});
  r.speaker = "nobody";
  expect_load_error([&] { (void)tts::build_prompt(c, r); }, "[tts.speaker]",
                    "speaker \"nobody\" is not in spk_id (eric, ryan, serena)");
  r.speaker = "ryan";
  r.language = "klingon";
  expect_load_error([&] { (void)tts::build_prompt(c, r); }, "[tts.language]", "language \"klingon\"");
  r.language = "auto";
  r.text_ids = assistant_ids({});
  expect_load_error([&] { (void)tts::build_prompt(c, r); }, "[tts.prompt]", "the assistant text has 8 ids");
  r.text_ids = assistant_ids({151936});
  expect_load_error([&] { (void)tts::build_prompt(c, r); }, "[tts.prompt]", "text id 151936 is outside");
  EXPECT_EQ(tts::assistant_text("Hi"), "<|im_start|>assistant\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(tts::instruct_text("calm"), "<|im_start|>user\ncalm<|im_end|>\n");
}

// ---- WAV ----

TEST(Wav, Pcm16HeaderAndSamples) {
  EXPECT_EQ(cm::pcm16(1.0f), 32767);
  EXPECT_EQ(cm::pcm16(-2.0f), -32767);
  EXPECT_EQ(cm::pcm16(0.5f), 16384);  // 16383.5 rounds away from zero
  EXPECT_EQ(cm::pcm16(-0.5f), -16384);
  EXPECT_EQ(cm::pcm16(std::nanf("")), 0);
  std::vector<float> const samples{0.0f, 1.0f, -1.0f};
  std::vector<std::byte> const w = cm::wav_pcm16(samples, 24000);
  ASSERT_EQ(w.size(), 44u + 6);
  auto const u32 = [&](std::size_t at) {
    return std::uint32_t(w[at]) | std::uint32_t(w[at + 1]) << 8 | std::uint32_t(w[at + 2]) << 16 |
           std::uint32_t(w[at + 3]) << 24;
  };
  auto const u16 = [&](std::size_t at) { return std::uint16_t(std::uint32_t(w[at]) | std::uint32_t(w[at + 1]) << 8); };
  EXPECT_EQ(std::memcmp(w.data(), "RIFF", 4), 0);
  EXPECT_EQ(u32(4), 36u + 6);
  EXPECT_EQ(std::memcmp(w.data() + 8, "WAVEfmt ", 8), 0);
  EXPECT_EQ(u32(16), 16u);
  EXPECT_EQ(u16(20), 1);  // PCM
  EXPECT_EQ(u16(22), 1);  // mono
  EXPECT_EQ(u32(24), 24000u);
  EXPECT_EQ(u32(28), 48000u);  // bytes per second
  EXPECT_EQ(u16(32), 2);       // block align
  EXPECT_EQ(u16(34), 16);      // bits per sample
  EXPECT_EQ(std::memcmp(w.data() + 36, "data", 4), 0);
  EXPECT_EQ(u32(40), 6u);
  EXPECT_EQ(u16(44), 0);
  EXPECT_EQ(u16(46), 32767);
  EXPECT_EQ(u16(48), std::uint16_t(-32767));
  try {
    (void)cm::wav_pcm16(samples, 0);
    ADD_FAILURE() << "a sample rate of 0 must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cute-cpp [wav.size]: ", 0), 0u) << e.what();
  }
}

}  // namespace
