// SPDX-License-Identifier: Apache-2.0
// models/common/checkpoint.hpp: single-file and sharded folders, the index checked against the
// shards, and Qwen3Config from config.json (the Qwen3-8B config of shared/models, then each
// field missing or mistyped; RoPE plain or YaRN, in both spellings).
#include "models/common/checkpoint.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/cpu/models/qwen3_8b_config.hpp"
#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::pattern;
using cute_cpp::test::well_formed;
using cute_cpp::test::write_file;

namespace {
class Checkpoint : public cute_cpp::test::ScratchDir {
 protected:
  void write(const std::string& name, const std::string& bytes) { write_file(dir_ / name, bytes); }
  // Two shards of a small decoder and the index that lists them.
  void write_sharded() {
    write("model-00001-of-00002.safetensors",
          well_formed({{"model.embed_tokens.weight", "BF16", {8, 4}, pattern(64, 1)},
                       {"model.layers.0.input_layernorm.weight", "BF16", {4}, pattern(8, 2)}}));
    write("model-00002-of-00002.safetensors", well_formed({{"model.norm.weight", "BF16", {4}, pattern(8, 3)},
                                                           {"lm_head.weight", "BF16", {8, 4}, pattern(64, 4)}}));
    write("model.safetensors.index.json",
          index({{"model.embed_tokens.weight", "model-00001-of-00002.safetensors"},
                 {"model.layers.0.input_layernorm.weight", "model-00001-of-00002.safetensors"},
                 {"model.norm.weight", "model-00002-of-00002.safetensors"},
                 {"lm_head.weight", "model-00002-of-00002.safetensors"}}));
  }
  static std::string index(const std::vector<std::pair<std::string, std::string>>& map) {
    std::string s = "{\n  \"metadata\": {\"total_size\": 144},\n  \"weight_map\": {";
    for (std::size_t i = 0; i < map.size(); ++i)
      s += (i ? ",\n    \"" : "\n    \"") + map[i].first + "\": \"" + map[i].second + "\"";
    return s + "\n  }\n}\n";
  }
};

std::string bytes_of(const cm::TensorInfo& t) { return std::string(reinterpret_cast<const char*>(t.data), t.bytes()); }

using cute_cpp::test::kQwenYarn;
using cute_cpp::test::qwen3_8b_config;

// The config with `key`'s line replaced by `line` (or removed when empty).
std::string with(const std::string& key, const std::string& line) {
  return cute_cpp::test::qwen3_8b_config_with(key, line);
}
cm::Qwen3Config parse(const std::string& text) { return cm::parse_qwen3_config(cm::parse_json(text, "config.json")); }
}  // namespace

TEST_F(Checkpoint, SingleFile) {
  write("model.safetensors", well_formed({{"a", "F32", {2}, pattern(8)}, {"b", "U8", {3}, "xyz"}}));
  auto const c = cm::Checkpoint::open(dir_);
  ASSERT_EQ(c.shards().size(), 1u);
  ASSERT_EQ(c.tensors().size(), 2u);
  EXPECT_EQ(bytes_of(c.at("b")), "xyz");
  EXPECT_TRUE(c.index_metadata().is_null());
  expect_load_error([&] { (void)c.at("c"); }, "[checkpoint.missing]", ": no tensor \"c\" in 1 file");
}

TEST_F(Checkpoint, ShardedWithIndex) {
  write_sharded();
  auto c = cm::Checkpoint::open(dir_);
  ASSERT_EQ(c.shards().size(), 2u);
  EXPECT_EQ(c.shards()[0].path().filename(), "model-00001-of-00002.safetensors");
  ASSERT_EQ(c.tensors().size(), 4u);
  EXPECT_EQ(c.tensors()[0]->name, "lm_head.weight");  // sorted by name
  auto const& head = c.at("lm_head.weight");
  EXPECT_EQ(head.shape, (std::vector<std::int64_t>{8, 4}));
  EXPECT_EQ(bytes_of(head), pattern(64, 4));
  EXPECT_EQ(bytes_of(c.at("model.embed_tokens.weight")), pattern(64, 1));
  EXPECT_EQ(bytes_of(c.at("model.norm.weight")), pattern(8, 3));
  EXPECT_EQ(c.index_metadata().at("total_size").as_int(), 144);
  EXPECT_EQ(c.find("model.layers.1.input_layernorm.weight"), nullptr);
  expect_load_error([&] { (void)c.at("x"); }, "[checkpoint.missing]", "no tensor \"x\" in 2 shards");
  // The pointers stay valid when the Checkpoint is moved.
  auto const moved = std::move(c);
  EXPECT_EQ(bytes_of(moved.at("model.layers.0.input_layernorm.weight")), pattern(8, 2));
}

TEST_F(Checkpoint, SingleFileWinsOverAnIndex) {
  write_sharded();
  write("model.safetensors", well_formed({{"only", "U8", {1}, "q"}}));
  auto const c = cm::Checkpoint::open(dir_);
  EXPECT_EQ(c.tensors().size(), 1u);
  EXPECT_EQ(bytes_of(c.at("only")), "q");
}

TEST_F(Checkpoint, FolderErrors) {
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.folder]",
                    "holds neither model.safetensors nor model.safetensors.index.json");
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_ / "absent"); }, "[checkpoint.folder]",
                    "absent: not a folder");
}

TEST_F(Checkpoint, MissingShard) {
  write_sharded();
  std::filesystem::remove(dir_ / "model-00002-of-00002.safetensors");
  expect_load_error(
      [&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.shard-missing]",
      "model.safetensors.index.json: the shard \"model-00002-of-00002.safetensors\" (2 tensors) is not in ");
}

TEST_F(Checkpoint, TensorListedButAbsent) {
  write_sharded();
  write("model.safetensors.index.json",
        index({{"model.embed_tokens.weight", "model-00001-of-00002.safetensors"},
               {"model.layers.0.input_layernorm.weight", "model-00001-of-00002.safetensors"},
               {"model.layers.1.input_layernorm.weight", "model-00001-of-00002.safetensors"},
               {"model.norm.weight", "model-00002-of-00002.safetensors"},
               {"lm_head.weight", "model-00002-of-00002.safetensors"}}));
  expect_load_error(
      [&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.tensor-missing]",
      "tensor \"model.layers.1.input_layernorm.weight\" is listed in model-00001-of-00002.safetensors, which does not "
      "hold it (nor does any other shard)");
}

TEST_F(Checkpoint, TensorInAnotherShard) {
  write_sharded();
  write("model.safetensors.index.json",
        index({{"model.embed_tokens.weight", "model-00001-of-00002.safetensors"},
               {"model.layers.0.input_layernorm.weight", "model-00001-of-00002.safetensors"},
               {"model.norm.weight", "model-00001-of-00002.safetensors"},
               {"lm_head.weight", "model-00002-of-00002.safetensors"}}));
  expect_load_error(
      [&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.tensor-missing]",
      "tensor \"model.norm.weight\" is listed in model-00001-of-00002.safetensors, which does not hold it; it is in "
      "model-00002-of-00002.safetensors");
}

TEST_F(Checkpoint, TensorNotListed) {
  write_sharded();
  write("model.safetensors.index.json",
        index({{"model.embed_tokens.weight", "model-00001-of-00002.safetensors"},
               {"model.layers.0.input_layernorm.weight", "model-00001-of-00002.safetensors"},
               {"lm_head.weight", "model-00002-of-00002.safetensors"}}));
  expect_load_error(
      [&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.tensor-unlisted]",
      "model-00002-of-00002.safetensors: tensor \"model.norm.weight\" is not listed in model.safetensors.index.json");
}

TEST_F(Checkpoint, DuplicateAcrossShards) {
  write_sharded();
  write("model-00002-of-00002.safetensors",
        well_formed({{"model.norm.weight", "BF16", {4}, pattern(8, 3)},
                     {"lm_head.weight", "BF16", {8, 4}, pattern(64, 4)},
                     {"model.embed_tokens.weight", "BF16", {8, 4}, pattern(64, 1)}}));
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.duplicate-tensor]",
                    "tensor \"model.embed_tokens.weight\" is in both model-00001-of-00002.safetensors and "
                    "model-00002-of-00002.safetensors");
}

TEST_F(Checkpoint, IndexErrors) {
  write_sharded();
  write("model.safetensors.index.json", index({{"a", "../model-00001-of-00002.safetensors"}}));
  expect_load_error(
      [&] { (void)cm::Checkpoint::open(dir_); }, "[checkpoint.index]",
      "tensor \"a\" names the shard \"../model-00001-of-00002.safetensors\", not a file name in the checkpoint folder");
  write("model.safetensors.index.json", R"({"metadata": {}})");
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[json.missing]",
                    "model.safetensors.index.json: \"weight_map\" is missing");
  write("model.safetensors.index.json", R"({"weight_map": {"a": 3}})");
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[json.type]",
                    "model.safetensors.index.json: \"weight_map\".\"a\" is an integer, expected a string");
  write("model.safetensors.index.json", R"({"weight_map": {"a": "x", "a": "y"}})");
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[json.duplicate-key]",
                    "duplicate key \"a\" in \"weight_map\"");
}

TEST_F(Checkpoint, ABadShardIsReportedByItsName) {
  write_sharded();
  write("model-00002-of-00002.safetensors", "short");
  expect_load_error([&] { (void)cm::Checkpoint::open(dir_); }, "[safetensors.header-length]",
                    "model-00002-of-00002.safetensors: the file is 5 bytes");
}

TEST(Qwen3Config, ParsesTheQwen3_8bConfig) {
  auto const c = parse(qwen3_8b_config());
  EXPECT_EQ(c.model_type, "qwen3");
  EXPECT_EQ(c.hidden_size, 4096);
  EXPECT_EQ(c.intermediate_size, 12288);
  EXPECT_EQ(c.num_hidden_layers, 36);
  EXPECT_EQ(c.num_attention_heads, 32);
  EXPECT_EQ(c.num_key_value_heads, 8);
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.vocab_size, 151936);
  EXPECT_EQ(c.max_position_embeddings, 40960);
  EXPECT_EQ(c.rope_theta, 1e6);
  EXPECT_EQ(c.rms_norm_eps, 1e-6);
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_FALSE(c.attention_bias);
  EXPECT_EQ(c.torch_dtype, "bfloat16");
}

TEST_F(Checkpoint, ReadsConfigFromTheFolderOrTheFile) {
  write("config.json", with("tie_word_embeddings", "  \"tie_word_embeddings\": true"));
  EXPECT_TRUE(cm::read_qwen3_config(dir_).tie_word_embeddings);
  EXPECT_EQ(cm::read_qwen3_config(dir_ / "config.json").head_dim, 128);
  std::filesystem::remove(dir_ / "config.json");
  expect_load_error([&] { (void)cm::read_qwen3_config(dir_); }, "[json.file]", "config.json: cannot read");
}

TEST(Qwen3Config, UntiedWhenTieWordEmbeddingsIsAbsent) {
  // transformers' save_pretrained leaves out fields equal to PretrainedConfig's defaults (false here).
  EXPECT_FALSE(parse(with("tie_word_embeddings", "")).tie_word_embeddings);
}

TEST(Qwen3Config, NewerDtypeSpelling) {
  EXPECT_EQ(parse(with("torch_dtype", "  \"dtype\": \"float16\"")).torch_dtype, "float16");
  expect_load_error([] { (void)parse(with("torch_dtype", "  \"torch_dtype\": \"bfloat16\", \"dtype\": \"float32\"")); },
                    "[config.value]", "config.json: \"torch_dtype\" is \"bfloat16\" but \"dtype\" is \"float32\"");
}

TEST(Qwen3Config, RopeParametersAsTransformers5WritesThem) {
  EXPECT_EQ(parse(with("rope_theta", "  \"rope_parameters\": {\"rope_theta\": 5000.0, \"rope_type\": \"default\"}"))
                .rope_theta,
            5000.0);
  EXPECT_EQ(parse(with("hidden_act", "  \"rope_parameters\": {\"rope_theta\": 1000000, \"rope_type\": \"default\"}"))
                .rope_theta,
            1e6);
  expect_load_error(
      [] { (void)parse(with("hidden_act", "  \"rope_parameters\": {\"rope_theta\": 10000, \"rope_type\": \"default\"}")); },
      "[config.value]", "\"rope_theta\" is 1000000.000000 but \"rope_parameters\" has 10000.000000");
  expect_load_error(
      [] { (void)parse(with("hidden_act", "  \"rope_parameters\": {\"rope_theta\": 1000000, \"rope_type\": \"linear\"}")); },
      "[config.unsupported]", "\"rope_parameters\" has \"rope_type\" \"linear\"");
  expect_load_error([] { (void)parse(with("rope_theta", "  \"rope_parameters\": {\"rope_type\": \"default\"}")); },
                    "[json.missing]", "rope_theta");
}

TEST(Qwen3Config, EachRequiredFieldMissingIsNamed) {
  for (std::string const key : {"model_type", "hidden_size", "intermediate_size", "num_hidden_layers",
                                "num_attention_heads", "num_key_value_heads", "head_dim", "rms_norm_eps", "rope_theta",
                                "vocab_size", "max_position_embeddings", "torch_dtype"}) {
    SCOPED_TRACE(key);
    expect_load_error([&] { (void)parse(with(key, "")); }, "[json.missing]", "config.json: \"" + key + "\" is missing");
  }
}

TEST(Qwen3Config, EachWronglyTypedFieldIsNamed) {
  struct Case {
    const char* key;
    const char* value;
    const char* message;
  };
  for (auto const& c :
       {Case{"num_attention_heads", "\"32\"", "\"num_attention_heads\" is a string, expected an integer"},
        Case{"hidden_size", "4096.0", "\"hidden_size\" is a number with a fraction or exponent, expected an integer"},
        Case{"head_dim", "null", "\"head_dim\" is null, expected an integer"},
        Case{"rms_norm_eps", "\"1e-6\"", "\"rms_norm_eps\" is a string, expected a number"},
        Case{"rope_theta", "[1000000]", "\"rope_theta\" is an array, expected a number"},
        Case{"tie_word_embeddings", "0", "\"tie_word_embeddings\" is an integer, expected a boolean"},
        Case{"torch_dtype", "16", "\"torch_dtype\" is an integer, expected a string"},
        Case{"model_type", "{}", "\"model_type\" is an object, expected a string"},
        Case{"attention_bias", "\"no\"", "\"attention_bias\" is a string, expected a boolean"}}) {
    SCOPED_TRACE(c.key);
    expect_load_error([&] { (void)parse(with(c.key, std::string("  \"") + c.key + "\": " + c.value)); }, "[json.type]",
                      std::string("config.json: ") + c.message);
  }
}

TEST(Qwen3Config, ValuesAreChecked) {
  expect_load_error([] { (void)parse(with("model_type", "  \"model_type\": \"mixtral\"")); }, "[config.model-type]",
                    "config.json: \"model_type\" is \"mixtral\", expected \"qwen3\" or \"qwen3_moe\"");
  // A qwen3_moe config without its expert fields.
  expect_load_error([] { (void)parse(with("model_type", "  \"model_type\": \"qwen3_moe\"")); }, "[json.missing]",
                    "\"num_experts\"");
  expect_load_error([] { (void)parse(with("num_hidden_layers", "  \"num_hidden_layers\": 0")); }, "[config.value]",
                    "\"num_hidden_layers\" is 0, expected a positive integer");
  expect_load_error([] { (void)parse(with("num_key_value_heads", "  \"num_key_value_heads\": 5")); }, "[config.value]",
                    "\"num_attention_heads\" (32) is not a multiple of \"num_key_value_heads\" (5)");
  expect_load_error([] { (void)parse(with("rms_norm_eps", "  \"rms_norm_eps\": -1e-6")); }, "[config.value]",
                    "\"rms_norm_eps\" is -0.000001, expected a positive number");
  expect_load_error([] { (void)parse(with("torch_dtype", "  \"torch_dtype\": \"float8\"")); }, "[config.value]",
                    "\"torch_dtype\" is \"float8\", expected \"bfloat16\", \"float16\" or \"float32\"");
  expect_load_error(
      [] { (void)parse(with("hidden_act", "  \"rope_scaling\": {\"type\": \"dynamic\", \"factor\": 4.0}")); },
      "[config.unsupported]", "\"rope_scaling\" has \"rope_type\" \"dynamic\"");
  EXPECT_FALSE(parse(with("hidden_act", "  \"rope_scaling\": null")).yarn);
  EXPECT_FALSE(parse(with("hidden_act", "  \"rope_scaling\": {}")).yarn);
  EXPECT_FALSE(
      parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"default\", \"rope_theta\": 1000000}")).yarn);
  expect_load_error([] { (void)parse(with("hidden_act", "  \"rope_scaling\": {\"factor\": 2.0}")); },
                    "[config.unsupported]", "\"rope_scaling\" has no \"rope_type\"");
  expect_load_error([] { (void)parse(with("hidden_act", "  \"rope_scaling\": \"yarn\"")); }, "[json.type]",
                    "\"rope_scaling\" is a string, expected an object");
  expect_load_error([] { (void)cm::parse_qwen3_config(cm::parse_json("[]", "config.json")); }, "[json.type]",
                    "config.json: the document is an array, expected an object");
}

// ---- RoPE scaling: YaRN ----

TEST(Qwen3Config, PlainRopeByDefault) {
  auto const c = parse(qwen3_8b_config());
  EXPECT_FALSE(c.yarn);
  EXPECT_EQ(c.max_positions(), 40960);
}

// Qwen's 131072-token setting added to the published Qwen3-8B config (max_position_embeddings
// 40960 left as it is): transformers 5 uses the factor as written (4, not 40960 / 32768 = 1.25),
// and the decoder's position limit becomes 4 x 32768.
TEST(Qwen3Config, YarnAsQwenDocumentsIt) {
  auto const c = parse(with("hidden_act", std::string("  \"rope_scaling\": ") + kQwenYarn));
  ASSERT_TRUE(c.yarn);
  EXPECT_EQ(c.yarn->factor, 4.0);
  EXPECT_EQ(c.yarn->original_max_position_embeddings, 32768);
  EXPECT_FALSE(c.yarn->attention_factor);
  EXPECT_EQ(c.yarn->mscale, 0.0);
  EXPECT_EQ(c.yarn->mscale_all_dim, 0.0);
  EXPECT_EQ(c.yarn->beta_fast, 32.0);
  EXPECT_EQ(c.yarn->beta_slow, 1.0);
  EXPECT_TRUE(c.yarn->truncate);
  EXPECT_EQ(c.max_position_embeddings, 40960);
  EXPECT_EQ(c.max_positions(), 131072);
  EXPECT_EQ(c.rope_theta, 1e6);
}

TEST(Qwen3Config, YarnInEverySpelling) {
  auto const qwen = *parse(with("hidden_act", std::string("  \"rope_scaling\": ") + kQwenYarn)).yarn;
  // The older key "type", as the Qwen2.5 model cards spell it.
  auto const older = parse(with("hidden_act", "  \"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4.0, "
                                              "\"original_max_position_embeddings\": 32768}"));
  ASSERT_TRUE(older.yarn);
  EXPECT_EQ(*older.yarn, qwen);
  // transformers 5's rope_parameters, with theta inside and none at the top level.
  auto const v5 = parse(with("rope_theta", "  \"rope_parameters\": {\"rope_type\": \"yarn\", \"factor\": 4.0, "
                                           "\"original_max_position_embeddings\": 32768, \"rope_theta\": 1000000.0}"));
  ASSERT_TRUE(v5.yarn);
  EXPECT_EQ(*v5.yarn, qwen);
  EXPECT_EQ(v5.rope_theta, 1e6);
  // Both, saying the same (a config saved by transformers 5 after Qwen's edit).
  auto const both = parse(with("hidden_act", std::string("  \"rope_scaling\": ") + kQwenYarn +
                                                 ",\n  \"rope_parameters\": {\"rope_type\": \"yarn\", \"factor\": 4.0, "
                                                 "\"original_max_position_embeddings\": 32768, \"rope_theta\": 1000000}"));
  ASSERT_TRUE(both.yarn);
  EXPECT_EQ(*both.yarn, qwen);
}

TEST(Qwen3Config, YarnOptionalFields) {
  auto const c = parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 8, "
                                          "\"attention_factor\": 1.25, \"mscale\": 0.707, \"mscale_all_dim\": 1.0, "
                                          "\"beta_fast\": 16, \"beta_slow\": 2.0, \"truncate\": false}"));
  ASSERT_TRUE(c.yarn);
  EXPECT_EQ(c.yarn->factor, 8.0);
  EXPECT_EQ(c.yarn->original_max_position_embeddings, 40960);  // absent: max_position_embeddings
  EXPECT_EQ(c.yarn->attention_factor, 1.25);
  EXPECT_EQ(c.yarn->mscale, 0.707);
  EXPECT_EQ(c.yarn->mscale_all_dim, 1.0);
  EXPECT_EQ(c.yarn->beta_fast, 16.0);
  EXPECT_EQ(c.yarn->beta_slow, 2.0);
  EXPECT_FALSE(c.yarn->truncate);
  EXPECT_EQ(c.max_positions(), 8 * 40960);
  // transformers' `x or default`: a null or 0 beta is the default, a null attention_factor or mscale
  // unset; a null truncate is false (`if truncate:`); a null factor is max_position_embeddings over
  // the original length.
  auto const d = parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": null, "
                                          "\"original_max_position_embeddings\": 32768, \"attention_factor\": null, "
                                          "\"mscale\": null, \"beta_fast\": 0, \"beta_slow\": null, \"truncate\": null}"));
  ASSERT_TRUE(d.yarn);
  EXPECT_EQ(d.yarn->factor, 1.25);
  EXPECT_FALSE(d.yarn->attention_factor);
  EXPECT_EQ(d.yarn->mscale, 0.0);
  EXPECT_EQ(d.yarn->beta_fast, 32.0);
  EXPECT_EQ(d.yarn->beta_slow, 1.0);
  EXPECT_FALSE(d.yarn->truncate);
  EXPECT_EQ(d.max_positions(), 40960);
}

TEST(Qwen3Config, YarnErrorsNameTheField) {
  auto const scaling = [](const std::string& fields) {
    return [=] { (void)parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"yarn\"" + fields + "}")); };
  };
  expect_load_error(scaling(", \"original_max_position_embeddings\": 32768"), "[config.value]",
                    "config.json: \"rope_scaling\" is of type \"yarn\" and has no \"factor\"");
  expect_load_error(scaling(", \"factor\": 0"), "[config.value]",
                    "\"rope_scaling\" \"factor\" is 0.000000, expected a positive number");
  expect_load_error(scaling(", \"factor\": -4.0"), "[config.value]", "\"factor\" is -4.000000");
  expect_load_error(scaling(", \"factor\": 4.0, \"original_max_position_embeddings\": 0"), "[config.value]",
                    "\"rope_scaling\" \"original_max_position_embeddings\" is 0, expected a positive integer");
  expect_load_error(scaling(", \"factor\": 4.0, \"original_max_position_embeddings\": -32768"), "[config.value]",
                    "\"original_max_position_embeddings\" is -32768");
  expect_load_error(scaling(", \"factor\": 4.0, \"attention_factor\": 0"), "[config.value]",
                    "\"attention_factor\" is 0.000000, expected a positive number");
  expect_load_error(scaling(", \"factor\": \"4\""), "[json.type]", "is a string, expected a number");
  expect_load_error(scaling(", \"factor\": 4.0, \"truncate\": 1"), "[json.type]", "expected a boolean");
  expect_load_error(
      [] { (void)parse(with("rope_theta", "  \"rope_parameters\": {\"rope_type\": \"yarn\", \"rope_theta\": 1000000}")); },
      "[config.value]", "config.json: \"rope_parameters\" is of type \"yarn\" and has no \"factor\"");
  expect_load_error(scaling(", \"factor\": 4.0, \"partial_rotary_factor\": 0.5"), "[config.unsupported]",
                    "\"rope_scaling\" has \"partial_rotary_factor\" 0.500000");
  expect_load_error([] { (void)parse(with("hidden_act", "  \"partial_rotary_factor\": 0.5")); }, "[config.unsupported]",
                    "\"partial_rotary_factor\" is 0.500000");
}

TEST(Qwen3Config, OtherRopeTypesAreRefusedByName) {
  for (std::string const type : {"linear", "dynamic", "longrope", "llama3", "su", "mrope"}) {
    SCOPED_TRACE(type);
    expect_load_error(
        [&] { (void)parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"" + type + "\", \"factor\": 4.0}")); },
        "[config.unsupported]",
        "\"rope_scaling\" has \"rope_type\" \"" + type + "\"; the decoder implements plain RoPE (\"default\") and "
        "YaRN (\"yarn\")");
    expect_load_error(
        [&] { (void)parse(with("hidden_act", "  \"rope_scaling\": {\"type\": \"" + type + "\", \"factor\": 4.0}")); },
        "[config.unsupported]", "\"rope_type\" \"" + type + "\"");
    expect_load_error(
        [&] {
          (void)parse(with("rope_theta", "  \"rope_parameters\": {\"rope_type\": \"" + type +
                                             "\", \"factor\": 4.0, \"rope_theta\": 1000000}"));
        },
        "[config.unsupported]", "\"rope_parameters\" has \"rope_type\" \"" + type + "\"");
  }
}

TEST(Qwen3Config, RopeScalingAndRopeParametersMustAgree) {
  expect_load_error(
      [] {
        (void)parse(with("hidden_act", std::string("  \"rope_scaling\": ") + kQwenYarn +
                                           ",\n  \"rope_parameters\": {\"rope_type\": \"default\", \"rope_theta\": 1000000}"));
      },
      "[config.value]", "\"rope_scaling\" and \"rope_parameters\" describe different RoPE settings");
  expect_load_error(
      [] {
        (void)parse(with("hidden_act", std::string("  \"rope_scaling\": ") + kQwenYarn +
                                           ",\n  \"rope_parameters\": {\"rope_type\": \"yarn\", \"factor\": 2.0, "
                                           "\"original_max_position_embeddings\": 32768}"));
      },
      "[config.value]", "describe different RoPE settings");
  expect_load_error(
      [] {
        (void)parse(with("hidden_act", "  \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4.0, "
                                       "\"rope_theta\": 10000}"));
      },
      "[config.value]", "\"rope_theta\" is 1000000.000000 but \"rope_scaling\" has 10000.000000");
}

namespace {
// Qwen3-30B-A3B's published config.json, with `extra` lines added before its last field.
std::string qwen3_30b_a3b_config(const std::string& extra = "") {
  return R"({"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
    "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 48,
    "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128,
    "num_experts_per_tok": 8, "norm_topk_prob": true, "decoder_sparse_step": 1, "mlp_only_layers": [],
    "vocab_size": 151936, "max_position_embeddings": 40960, "rope_theta": 1000000, "rms_norm_eps": 1e-06,
    "hidden_act": "silu", "attention_bias": false, "tie_word_embeddings": false, )" +
         extra + R"("torch_dtype": "bfloat16"})";
}
// The same config with `key`'s value replaced by `value` (the key must be present once).
std::string moe_with(const std::string& key, const std::string& value) {
  std::string text = qwen3_30b_a3b_config();
  std::size_t const at = text.find("\"" + key + "\": ");
  if (at == std::string::npos) throw std::logic_error("no key " + key);
  std::size_t const from = at + key.size() + 4, to = text.find_first_of(",}", text[from] == '[' ? text.find(']', from) : from);
  return text.replace(from, to - from, value);
}
}  // namespace

TEST(Qwen3MoeConfig, PublishedQwen3_30B_A3B) {
  auto const c = parse(qwen3_30b_a3b_config());
  EXPECT_EQ(c.model_type, "qwen3_moe");
  ASSERT_TRUE(c.moe.has_value());
  EXPECT_EQ(c.moe->num_experts, 128);
  EXPECT_EQ(c.moe->num_experts_per_tok, 8);
  EXPECT_EQ(c.moe->moe_intermediate_size, 768);
  EXPECT_TRUE(c.moe->norm_topk_prob);
  EXPECT_EQ(c.moe->decoder_sparse_step, 1);
  EXPECT_TRUE(c.moe->mlp_only_layers.empty());
  EXPECT_EQ(c.intermediate_size, 6144);  // the dense MLP's, for mlp_only_layers
  for (std::int64_t layer : {0, 1, 47}) EXPECT_TRUE(c.moe->sparse_layer(layer));
  EXPECT_FALSE(parse(qwen3_8b_config()).moe.has_value());
}

TEST(Qwen3MoeConfig, WhichLayersAreSparse) {
  // transformers' rule: not in mlp_only_layers and (layer + 1) % decoder_sparse_step == 0.
  auto const c = parse(moe_with("decoder_sparse_step", "2"));
  auto const m = *parse(moe_with("mlp_only_layers", "[3, 0]")).moe;
  EXPECT_FALSE(c.moe->sparse_layer(0));
  EXPECT_TRUE(c.moe->sparse_layer(1));
  EXPECT_FALSE(c.moe->sparse_layer(2));
  EXPECT_TRUE(c.moe->sparse_layer(3));
  EXPECT_EQ(m.mlp_only_layers, (std::vector<std::int64_t>{3, 0}));
  EXPECT_FALSE(m.sparse_layer(0));
  EXPECT_TRUE(m.sparse_layer(1));
  EXPECT_FALSE(m.sparse_layer(3));
  // Absent optional fields: decoder_sparse_step 1, no dense layers, norm_topk_prob false.
  std::string text = qwen3_30b_a3b_config();
  for (std::string const key : {"\"norm_topk_prob\": true,", "\"decoder_sparse_step\": 1,", "\"mlp_only_layers\": [],"})
    text.erase(text.find(key), key.size());
  auto const d = *parse(text).moe;
  EXPECT_FALSE(d.norm_topk_prob);
  EXPECT_EQ(d.decoder_sparse_step, 1);
  EXPECT_TRUE(d.sparse_layer(0) && d.sparse_layer(47));
}

TEST(Qwen3MoeConfig, ValuesAreChecked) {
  expect_load_error([] { (void)parse(moe_with("num_experts_per_tok", "129")); }, "[config.value]",
                    "\"num_experts_per_tok\" is 129, expected 1 to \"num_experts\" (128)");
  expect_load_error([] { (void)parse(moe_with("num_experts", "0")); }, "[config.value]",
                    "\"num_experts\" is 0, expected a positive integer");
  expect_load_error([] { (void)parse(moe_with("moe_intermediate_size", "-768")); }, "[config.value]",
                    "\"moe_intermediate_size\" is -768, expected a positive integer");
  expect_load_error([] { (void)parse(moe_with("decoder_sparse_step", "0")); }, "[config.value]",
                    "\"decoder_sparse_step\" is 0, expected a positive integer");
  expect_load_error([] { (void)parse(moe_with("mlp_only_layers", "[48]")); }, "[config.value]",
                    "\"mlp_only_layers\" holds 48, expected layer indices 0 to 47");
  expect_load_error([] { (void)parse(moe_with("norm_topk_prob", "1")); }, "[json.type]",
                    "\"norm_topk_prob\" is an integer, expected a boolean");
}
