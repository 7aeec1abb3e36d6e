// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/config.cpp: the 12 Hz tokenizer's decoder config. Defaults and relations were read
// from qwen-tts 0.1.1 (Qwen3TTSTokenizerV2DecoderConfig's defaults; the decoder's head_dim fallback
// hidden_size / num_attention_heads; SplitResidualVectorQuantizer's n_q > 1 and one semantic
// codebook; DecoderBlock i's width decoder_dim / 2^i).
#include "models/qwen3_tts/config.hpp"

#include "models/common/config_reader.hpp"  // ConfigReader, the config rules
#include "models/common/error.hpp"          // in_quotes

namespace cute_cpp::models::qwen3_tts {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

void unsupported_if(const ConfigReader& r, bool condition, const std::string& what) {
  if (condition) r.fail(kRuleConfigUnsupported, what);
}

/// A non-empty list of positive integers.
std::vector<std::int64_t> positive_list(const ConfigReader& r, std::string_view key) {
  auto const& list = r.json().at(key).as_array();
  if (list.empty()) r.fail(kRuleConfigValue, in_quotes(key) + " is empty, expected a list of positive integers");
  std::vector<std::int64_t> out;
  for (auto const& v : list) {
    std::int64_t const x = v.as_int();
    if (x < 1) r.fail(kRuleConfigValue, in_quotes(key) + " holds " + num(x) + ", expected positive integers");
    out.push_back(x);
  }
  return out;
}

/// The implicit-GEMM convs and the GEMMs read rows in 16-byte vectors: widths multiples of 8.
void multiple_of_8(const ConfigReader& r, std::string_view what, std::int64_t width) {
  unsupported_if(r, width % 8 != 0,
                 std::string(what) + " is " + num(width) + "; the decoder's kernels take widths that are multiples of 8");
}

void parse_transformer(const ConfigReader& r, CodecConfig& c) {
  c.hidden_size = r.positive_int("hidden_size");
  c.num_hidden_layers = r.positive_int("num_hidden_layers");
  c.num_attention_heads = r.positive_int("num_attention_heads");
  c.num_key_value_heads = r.positive_int("num_key_value_heads");
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    r.fail(kRuleConfigValue, "\"num_attention_heads\" (" + num(c.num_attention_heads) +
                                 ") is not a multiple of \"num_key_value_heads\" (" + num(c.num_key_value_heads) + ")");
  if (r.optional("head_dim") != nullptr) {
    c.head_dim = r.positive_int("head_dim");
  } else {
    if (c.hidden_size % c.num_attention_heads != 0)
      r.fail(kRuleConfigValue, "\"head_dim\" is absent and \"hidden_size\" (" + num(c.hidden_size) +
                                   ") does not divide by \"num_attention_heads\" (" + num(c.num_attention_heads) + ")");
    c.head_dim = c.hidden_size / c.num_attention_heads;
  }
  unsupported_if(r, c.head_dim != 64 && c.head_dim != 128 && c.head_dim != 256,
                 "the head dimension is " + num(c.head_dim) + "; the attention kernels take 64, 128 or 256");
  c.intermediate_size = r.positive_int("intermediate_size");
  c.sliding_window = r.positive_int("sliding_window");
  if (r.optional("max_position_embeddings") != nullptr)
    c.max_position_embeddings = r.positive_int("max_position_embeddings");
  if (r.optional("rope_theta") != nullptr) c.rope_theta = r.positive_real("rope_theta");
  if (r.optional("rms_norm_eps") != nullptr) c.rms_norm_eps = r.positive_real("rms_norm_eps");
  std::string const act = r.optional("hidden_act") != nullptr ? r.string("hidden_act") : "silu";
  unsupported_if(r, act != "silu", "\"hidden_act\" is " + in_quotes(act) + "; the MLP implements \"silu\" (SwiGLU)");
  unsupported_if(r, r.boolean("attention_bias", false),
                 "\"attention_bias\" is true; the attention projections have no biases");
  unsupported_if(r, r.optional("rope_scaling") != nullptr,
                 "\"rope_scaling\" is set; the decoder implements the default RoPE");
  multiple_of_8(r, "\"hidden_size\"", c.hidden_size);
  multiple_of_8(r, "\"intermediate_size\"", c.intermediate_size);
}

void parse_upsampling(const ConfigReader& r, CodecConfig& c) {
  c.upsampling_ratios = positive_list(r, "upsampling_ratios");
  c.upsample_rates = positive_list(r, "upsample_rates");
  c.decoder_dim = r.positive_int("decoder_dim");
  for (auto const f : c.upsampling_ratios)
    unsupported_if(r, f != 2, "\"upsampling_ratios\" holds " + num(f) + "; the ConvNeXt upsamplers implement 2");
  for (auto const s : c.upsample_rates)
    unsupported_if(r, s != 8 && s != 5 && s != 4 && s != 3,
                   "\"upsample_rates\" holds " + num(s) + "; the decoder blocks' transposed convs implement 8, 5, 4 and 3");
  std::size_t const blocks = c.upsample_rates.size();
  if (blocks >= 32 || c.decoder_dim % (std::int64_t(1) << blocks) != 0)
    r.fail(kRuleConfigValue, "\"decoder_dim\" (" + num(c.decoder_dim) + ") must halve " + num(std::int64_t(blocks)) +
                                 " times, once per decoder block");
  for (std::size_t i = 0; i <= blocks; ++i) multiple_of_8(r, "decoder block " + num(std::int64_t(i)) + "'s width", c.block_width(i));
}

}  // namespace

std::int64_t CodecConfig::total_upsample() const noexcept {
  std::int64_t p = latent_upsample();
  for (auto const s : upsample_rates) p *= s;
  return p;
}

std::int64_t CodecConfig::latent_upsample() const noexcept {
  std::int64_t p = 1;
  for (auto const f : upsampling_ratios) p *= f;
  return p;
}

CodecConfig parse_codec_config(const Json& config) {
  ConfigReader const top(config);
  CodecConfig c;
  c.model_type = top.string("model_type");
  if (c.model_type != "qwen3_tts_tokenizer_12hz")
    top.fail(kRuleConfigModelType,
             "\"model_type\" is " + in_quotes(c.model_type) + ", expected \"qwen3_tts_tokenizer_12hz\"");
  if (top.optional("output_sample_rate") != nullptr) c.output_sample_rate = top.positive_int("output_sample_rate");

  ConfigReader const r(config.at("decoder_config"));
  (void)r.json().as_object();  // json.type when decoder_config is not an object
  c.codebook_size = r.int_in("codebook_size", 1, (std::int64_t(1) << 31) - 1,
                             "a positive integer below 2^31 (codes are int32)");
  c.codebook_dim = r.positive_int("codebook_dim");
  if (c.codebook_dim % 2 != 0)
    r.fail(kRuleConfigValue, "\"codebook_dim\" is " + num(c.codebook_dim) + ", expected an even number (codebooks hold half)");
  multiple_of_8(r, "\"codebook_dim\" / 2", c.codebook_entry_dim());
  c.num_quantizers = r.int_in("num_quantizers", 2, 1024, "2 to 1024 (one codebook in rvq_first, the rest in rvq_rest)");
  if (r.optional("num_semantic_quantizers") != nullptr) c.num_semantic_quantizers = r.positive_int("num_semantic_quantizers");
  unsupported_if(r, c.num_semantic_quantizers != 1,
                 "\"num_semantic_quantizers\" is " + num(c.num_semantic_quantizers) +
                     "; the decoder's split quantizer has one codebook in rvq_first");
  c.latent_dim = r.positive_int("latent_dim");
  multiple_of_8(r, "\"latent_dim\"", c.latent_dim);
  parse_transformer(r, c);
  parse_upsampling(r, c);

  if (auto const* rate = top.optional("decode_upsample_rate"); rate != nullptr && rate->as_int() != c.total_upsample())
    top.fail(kRuleConfigValue, "\"decode_upsample_rate\" is " + num(rate->as_int()) +
                                   " but the decoder's upsampling_ratios and upsample_rates multiply to " +
                                   num(c.total_upsample()));
  return c;
}

CodecConfig read_codec_config(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "config.json" : path;
  return parse_codec_config(read_json_file(file));
}

}  // namespace cute_cpp::models::qwen3_tts
