// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/tts_config.cpp: parse_qwen3_tts_config. The defaults for absent fields are those of
// qwen-tts 0.1.1's configuration classes where the published configs may leave a field out
// (head_dim, the text token ids); the sizes are required.
#include "models/qwen3_tts/tts_config.hpp"

#include <string_view>  // std::string_view

#include "models/common/config_reader.hpp"  // kRuleConfig*
#include "models/common/error.hpp"          // LoadError, in_quotes

namespace cute_cpp::models::qwen3_tts {

namespace {

[[noreturn]] void fail(std::string_view rule, const Json& at, const std::string& what) {
  throw LoadError(rule, at.source() + ": " + at.where() + " " + what);
}

std::int64_t int_in(const Json& object, std::string_view key, std::int64_t lo, std::int64_t hi,
                    std::string_view range) {
  Json const& v = object.at(key);
  std::int64_t const x = v.as_int();
  if (x < lo || x > hi) fail(kRuleConfigValue, v, "is " + std::to_string(x) + ", expected " + std::string(range));
  return x;
}
std::int64_t positive(const Json& object, std::string_view key) {
  return int_in(object, key, 1, kConfigIntMax, "a positive integer");
}
double positive_real(const Json& object, std::string_view key) {
  Json const& v = object.at(key);
  double const x = v.as_double();
  if (!(x > 0)) fail(kRuleConfigValue, v, "is " + std::to_string(x) + ", expected a positive number");
  return x;
}
const Json* present(const Json& object, std::string_view key) {
  auto const* v = object.find(key);
  return v == nullptr || v->is_null() ? nullptr : v;
}

/// The fields a Qwen3 decoder needs, from a talker or code-predictor config object (whose RoPE
/// type the caller checks). `dtype` is the checkpoint's, read at the top level. `head_dim`, absent:
/// the given default, or (0) hidden_size / num_attention_heads.
Qwen3Config decoder_fields(const Json& c, const std::string& dtype, std::int64_t head_dim = 0) {
  Qwen3Config d;
  d.model_type = "qwen3";
  d.hidden_size = positive(c, "hidden_size");
  d.intermediate_size = positive(c, "intermediate_size");
  d.num_hidden_layers = positive(c, "num_hidden_layers");
  d.num_attention_heads = positive(c, "num_attention_heads");
  d.num_key_value_heads = positive(c, "num_key_value_heads");
  d.vocab_size = positive(c, "vocab_size");
  d.max_position_embeddings = present(c, "max_position_embeddings") ? positive(c, "max_position_embeddings") : 32768;
  // NOTE: the talker's config class has no head_dim, so the reference takes getattr(config,
  // "head_dim", hidden_size // num_attention_heads); the code predictor's defaults it to 128.
  d.head_dim = present(c, "head_dim")  ? positive(c, "head_dim")
               : head_dim > 0          ? head_dim
                                       : d.hidden_size / d.num_attention_heads;
  if (d.head_dim <= 0 || d.num_attention_heads % d.num_key_value_heads != 0)
    fail(kRuleConfigValue, c, "has num_attention_heads " + std::to_string(d.num_attention_heads) +
                                  ", num_key_value_heads " + std::to_string(d.num_key_value_heads) + " and head_dim " +
                                  std::to_string(d.head_dim) +
                                  "; the heads must be a multiple of the KV heads and head_dim positive");
  d.rms_norm_eps = positive_real(c, "rms_norm_eps");
  // NOTE: transformers 5 writes RoPE's settings under "rope_parameters" (theta included).
  auto const* parameters = present(c, "rope_parameters");
  d.rope_theta = present(c, "rope_theta") != nullptr || parameters == nullptr ? positive_real(c, "rope_theta")
                                                                               : positive_real(*parameters, "rope_theta");
  d.torch_dtype = dtype;
  if (auto const* v = present(c, "attention_bias"); v != nullptr && v->as_bool())
    fail(kRuleConfigUnsupported, *v, "is true; the decoder has no attention projection biases");
  if (auto const* v = present(c, "use_sliding_window"); v != nullptr && v->as_bool())
    fail(kRuleConfigUnsupported, *v, "is true; the decoder attends to the whole sequence");
  if (auto const* v = present(c, "hidden_act"); v != nullptr && v->as_string() != "silu")
    fail(kRuleConfigUnsupported, *v, "is " + in_quotes(v->as_string()) + "; the decoder's MLP is SwiGLU (\"silu\")");
  if (auto const* v = present(c, "tie_word_embeddings"); v != nullptr && v->as_bool())
    fail(kRuleConfigUnsupported, *v, "is true; Qwen3-TTS's heads are their own weights");
  return d;
}

/// The talker's rope_scaling: multimodal RoPE's sections (rope_type "default" or absent).
MropeConfig parse_mrope(const Json& talker, std::int64_t head_dim) {
  Json const& rope = present(talker, "rope_scaling") == nullptr && present(talker, "rope_parameters") != nullptr
                         ? talker.at("rope_parameters")
                         : talker.at("rope_scaling");
  (void)rope.as_object();
  for (char const* key : {"rope_type", "type"})
    if (auto const* t = present(rope, key); t != nullptr && t->as_string() != "default")
      fail(kRuleConfigUnsupported, *t, "is " + in_quotes(t->as_string()) + "; the talker's multimodal RoPE is plain "
                                           "(\"default\") RoPE per section");
  Json const& sections = rope.at("mrope_section");
  if (sections.as_array().size() != 3)
    fail(kRuleConfigValue, sections, "has " + std::to_string(sections.size()) + " entries, expected 3 (temporal, "
                                         "height, width)");
  MropeConfig m;
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    std::int64_t const s = sections.at(i).as_int();
    if (s < 0 || s > head_dim) fail(kRuleConfigValue, sections.at(i), "is " + std::to_string(s) + ", expected 0 to head_dim");
    m.sections[i] = int(s);
    sum += s;
  }
  if (sum != head_dim / 2)
    fail(kRuleConfigValue, sections, "adds up to " + std::to_string(sum) + ", expected head_dim / 2 = " +
                                         std::to_string(head_dim / 2) + " (one entry per frequency pair)");
  if (auto const* v = present(rope, "interleaved")) m.interleaved = v->as_bool();
  return m;
}

std::map<std::string, std::int64_t> id_map(const Json& talker, std::string_view key, std::int64_t vocab) {
  std::map<std::string, std::int64_t> out;
  auto const* v = present(talker, key);
  if (v == nullptr) return out;
  for (auto const& [name, id] : v->as_object()) {
    std::int64_t const x = id.as_int();
    if (x < 0 || x >= vocab)
      fail(kRuleConfigValue, id, "is " + std::to_string(x) + ", expected a codec id in [0, " + std::to_string(vocab) + ")");
    out.emplace(name, x);
  }
  return out;
}

void parse_talker_ids(const Json& t, TalkerConfig& talker) {
  std::int64_t const vocab = talker.decoder.vocab_size;
  std::string const range = "a codec id in [0, " + std::to_string(vocab) + ")";
  auto const codec = [&](std::string_view key) { return int_in(t, key, 0, vocab - 1, range); };
  talker.codec_eos_token_id = codec("codec_eos_token_id");
  talker.codec_think_id = codec("codec_think_id");
  talker.codec_nothink_id = codec("codec_nothink_id");
  talker.codec_think_bos_id = codec("codec_think_bos_id");
  talker.codec_think_eos_id = codec("codec_think_eos_id");
  talker.codec_pad_id = codec("codec_pad_id");
  talker.codec_bos_id = codec("codec_bos_id");
  talker.spk_id = id_map(t, "spk_id", vocab);
  talker.codec_language_id = id_map(t, "codec_language_id", vocab);
  if (auto const* v = present(t, "spk_is_dialect")) {
    for (auto const& [name, dialect] : v->as_object()) {
      if (dialect.kind() == Json::Kind::boolean && !dialect.as_bool()) continue;
      std::string const& d = dialect.as_string();
      if (!talker.codec_language_id.contains(d))
        fail(kRuleConfigValue, dialect, "is " + in_quotes(d) + ", which codec_language_id does not list");
      talker.spk_is_dialect.emplace(name, d);
    }
  }
}

std::string checkpoint_dtype(const Json& config, const Json& talker) {
  for (Json const* c : {&config, &talker})
    if (c->find("torch_dtype") != nullptr || c->find("dtype") != nullptr) return ConfigReader(*c).torch_dtype();
  return ConfigReader(config).torch_dtype();  // the json.missing error, at the top level
}

}  // namespace

Qwen3TtsConfig parse_qwen3_tts_config(const Json& config) {
  std::string const& type = config.at("model_type").as_string();
  if (type != "qwen3_tts")
    throw LoadError(kRuleConfigModelType,
                    config.source() + ": \"model_type\" is " + in_quotes(type) + ", expected \"qwen3_tts\"");
  Json const& t = config.at("talker_config");
  Json const& p = t.at("code_predictor_config");
  (void)t.as_object(), (void)p.as_object();
  std::string const dtype = checkpoint_dtype(config, t);

  Qwen3TtsConfig c;
  TalkerConfig& talker = c.talker;
  talker.decoder = decoder_fields(t, dtype);
  talker.mrope = parse_mrope(t, talker.decoder.head_dim);
  talker.text_vocab_size = positive(t, "text_vocab_size");
  talker.text_hidden_size = positive(t, "text_hidden_size");
  talker.num_code_groups = int_in(t, "num_code_groups", 2, 1024, "2 to 1024");
  parse_talker_ids(t, talker);

  c.code_predictor = decoder_fields(p, dtype, /*head_dim=*/128);
  for (char const* key : {"rope_scaling", "rope_parameters"})
    if (auto const* rope = present(p, key); rope != nullptr)
      for (char const* type : {"rope_type", "type"})
        if (auto const* v = present(*rope, type); v != nullptr && v->as_string() != "default")
          fail(kRuleConfigUnsupported, *v, "is " + in_quotes(v->as_string()) + "; the code predictor's RoPE is plain RoPE");
  if (auto const* g = present(p, "num_code_groups"); g != nullptr && g->as_int() != talker.num_code_groups)
    fail(kRuleConfigValue, *g, "is " + std::to_string(g->as_int()) + " but talker_config.num_code_groups is " +
                                   std::to_string(talker.num_code_groups));

  auto const text = [&](std::string_view key, std::int64_t fallback) {
    return present(config, key) ? int_in(config, key, 0, talker.text_vocab_size - 1,
                                         "a text id in [0, " + std::to_string(talker.text_vocab_size) + ")")
                                : fallback;
  };
  c.im_start_token_id = text("im_start_token_id", c.im_start_token_id);
  c.im_end_token_id = text("im_end_token_id", c.im_end_token_id);
  c.tts_pad_token_id = text("tts_pad_token_id", c.tts_pad_token_id);
  c.tts_bos_token_id = text("tts_bos_token_id", c.tts_bos_token_id);
  c.tts_eos_token_id = text("tts_eos_token_id", c.tts_eos_token_id);
  for (auto [key, field] : {std::pair{"tts_model_type", &c.tts_model_type}, std::pair{"tts_model_size", &c.tts_model_size},
                            std::pair{"tokenizer_type", &c.tokenizer_type}})
    if (auto const* v = present(config, key)) *field = v->as_string();
  return c;
}

TtsSampling read_generation_defaults(const std::filesystem::path& folder) {
  TtsSampling s;
  std::error_code ec;
  auto const file = folder / "generation_config.json";
  if (!std::filesystem::exists(file, ec)) return s;
  Json const g = read_json_file(file);
  auto const flag = [&](char const* key, bool& v) { if (auto const* x = present(g, key)) v = x->as_bool(); };
  auto const integer = [&](char const* key, int& v) { if (auto const* x = present(g, key)) v = int(x->as_int()); };
  auto const real = [&](char const* key, float& v) { if (auto const* x = present(g, key)) v = float(x->as_double()); };
  flag("do_sample", s.do_sample);
  integer("top_k", s.top_k);
  real("top_p", s.top_p);
  real("temperature", s.temperature);
  real("repetition_penalty", s.repetition_penalty);
  flag("subtalker_dosample", s.subtalker_do_sample);
  integer("subtalker_top_k", s.subtalker_top_k);
  real("subtalker_top_p", s.subtalker_top_p);
  real("subtalker_temperature", s.subtalker_temperature);
  integer("max_new_tokens", s.max_new_tokens);
  return s;
}

Qwen3TtsConfig read_qwen3_tts_config(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "config.json" : path;
  return parse_qwen3_tts_config(read_json_file(file));
}

}  // namespace cute_cpp::models::qwen3_tts
