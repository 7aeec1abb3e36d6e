// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer_reader.cpp: tokenizer.json into Tokenizer's tables (tokenizer_impl.hpp):
// the BPE model, added tokens, normalizer, pre-tokenizer, post-processor and decoder, each field
// this reader does not implement rejected by name. What each must reproduce was read from
// huggingface/tokenizers (added_vocabulary.rs, models/bpe, serialization.rs).
#include <algorithm>      // std::find, std::max
#include <filesystem>     // std::filesystem::is_directory
#include <unordered_set>  // std::unordered_set

#include "models/common/error.hpp"          // LoadError, in_quotes
#include "models/common/json.hpp"           // parse_json, read_json_file
#include "models/common/pre_tokenizer.hpp"  // the byte-level alphabet, the Split patterns
#include "models/common/tokenizer_impl.hpp"
#include "models/common/unicode_text.hpp"   // next_code_point, append_utf8, nfc

namespace cute_cpp::models {

namespace {
constexpr char kRuleUnsupported[] =
    "cute-cpp [tokenizer.unsupported]: the tokenizer.json may only use the features this reader implements";
constexpr char kRuleVocab[] = "cute-cpp [tokenizer.vocab]: the vocab maps each token to a unique id in [0, 2^24)";
constexpr char kRuleMerges[] =
    "cute-cpp [tokenizer.merges]: each merge names two vocab tokens whose concatenation is in the vocab";
constexpr char kRuleAddedToken[] =
    "cute-cpp [tokenizer.added-token]: added tokens are non-empty, unique, and have the ids tokenizers gives them";
// NOTE: ids index flat tables, so a hostile file must not be able to ask for 2^31 of them; real
// vocabularies stay below 300k.
constexpr std::int64_t kMaxId = std::int64_t{1} << 24;

using text::append_utf8;
using text::next_code_point;

std::string where(const Json& j) { return j.source() + ": " + j.where(); }

[[noreturn]] void unsupported(const Json& j, const std::string& what) {
  throw LoadError(kRuleUnsupported, where(j) + " " + what);
}

/// Rejects keys outside `known`: a field this reader does not know could change the result.
void check_keys(const Json& object, std::initializer_list<std::string_view> known) {
  for (auto const& [key, value] : object.as_object())
    if (std::find(known.begin(), known.end(), key) == known.end())
      unsupported(object, "has the key " + in_quotes(key) + ", which this reader does not implement");
}

bool optional_bool(const Json& object, std::string_view key, bool fallback) {
  auto const* v = object.find(key);
  return v == nullptr || v->is_null() ? fallback : v->as_bool();
}

const std::string& type_of(const Json& object) { return object.at("type").as_string(); }

void require_null(const Json& object, std::string_view key) {
  auto const* v = object.find(key);
  if (v != nullptr && !v->is_null()) unsupported(*v, "is set; only null is supported");
}

}  // namespace

void Tokenizer::Impl::parse_model(const Json& model) {
  if (type_of(model) != "BPE")
    unsupported(model.at("type"), "is " + in_quotes(type_of(model)) + "; only BPE is supported");
  check_keys(model, {"type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix", "fuse_unk",
                     "byte_fallback", "ignore_merges", "vocab", "merges"});
  if (auto const* d = model.find("dropout"); d != nullptr && !d->is_null() && d->as_double() != 0.0)
    unsupported(*d, "is set; BPE dropout is random, only null is supported");
  for (auto const* key : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (auto const* v = model.find(key); v != nullptr && !v->is_null() && !v->as_string().empty())
      unsupported(*v, "is " + in_quotes(v->as_string()) + "; only null or \"\" is supported");
  if (optional_bool(model, "byte_fallback", false))
    unsupported(model.at("byte_fallback"), "is true; only false is supported");
  fuse_unk = optional_bool(model, "fuse_unk", false);
  ignore_merges = optional_bool(model, "ignore_merges", false);

  auto const& vocab_json = model.at("vocab");
  vocab.reserve(vocab_json.size());
  std::unordered_map<std::int32_t, const std::string*> by_id;
  by_id.reserve(vocab_json.size());
  for (auto const& [token, id_json] : vocab_json.as_object()) {
    std::int64_t const id = id_json.as_int();
    if (id < 0 || id >= kMaxId)
      throw LoadError(kRuleVocab, where(id_json) + " is " + std::to_string(id) + ", outside [0, 2^24)");
    auto const [it, fresh] = by_id.emplace(static_cast<std::int32_t>(id), &token);
    if (!fresh)
      throw LoadError(kRuleVocab, where(vocab_json) + ": the tokens " + in_quotes(*it->second) + " and " +
                                      in_quotes(token) + " both have id " + std::to_string(id));
    vocab.emplace(token, static_cast<std::int32_t>(id));
  }
  if (auto const* unk = model.find("unk_token"); unk != nullptr && !unk->is_null()) {
    auto const it = vocab.find(unk->as_string());
    if (it == vocab.end())
      throw LoadError(kRuleVocab, where(*unk) + " " + in_quotes(unk->as_string()) + " is not in the vocab");
    unk_id = it->second;
  }
  for (unsigned b = 0; b < 256; ++b) {
    std::string ch;
    append_utf8(ch, text::byte_to_unicode(static_cast<std::uint8_t>(b)));
    auto const it = vocab.find(ch);
    byte_ids[b] = it == vocab.end() ? -1 : it->second;
  }

  // Merges are ["a b", ...] (the older form, whose lines starting with "#version" are skipped)
  // or [["a", "b"], ...]; a pair listed twice takes the later rank, as tokenizers' map does.
  auto const& list = model.at("merges");
  merges.reserve(list.size());
  std::uint32_t rank = 0;
  bool const pairs = list.size() > 0 && list.at(std::size_t{0}).is_array();
  std::string joined;
  for (auto const& m : list.as_array()) {
    std::string_view a, b;
    if (pairs) {
      if (!m.is_array() || m.size() != 2)
        throw LoadError(kRuleMerges, where(m) + " is not a pair of strings like the merges before it");
      a = m.at(std::size_t{0}).as_string();
      b = m.at(1).as_string();
    } else {
      std::string_view const line = m.as_string();
      if (line.starts_with("#version")) continue;
      auto const space = line.find(' ');
      if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos)
        throw LoadError(kRuleMerges, where(m) + " is " + in_quotes(line) + ", not two tokens split by one space");
      a = line.substr(0, space);
      b = line.substr(space + 1);
    }
    auto const ia = vocab.find(a);
    auto const ib = vocab.find(b);
    joined.assign(a);
    joined += b;
    auto const ij = vocab.find(joined);
    for (auto const& [it, text] : {std::pair{ia, a}, std::pair{ib, b}, std::pair{ij, std::string_view(joined)}})
      if (it == vocab.end()) throw LoadError(kRuleMerges, where(m) + ": " + in_quotes(text) + " is not in the vocab");
    auto const key = (std::uint64_t(std::uint32_t(ia->second)) << 32) | std::uint32_t(ib->second);
    merges[key] = Merge{rank, ij->second};
    ++rank;
  }
}

void Tokenizer::Impl::parse_added_tokens(const Json& list) {
  // Ids as tokenizers' deserializer assigns them, one token at a time: the id of an equal string
  // already known, else one past the largest added id if that is beyond the model's token count,
  // else that count. A file whose ids differ loads there with a warning and other ids; here it is
  // an error, since the ids a model was trained with are the ones in the file.
  auto const model_count = static_cast<std::int64_t>(vocab.size());
  std::int64_t max_added = -1;
  for (auto const& entry : list.as_array()) {
    check_keys(entry, {"id", "content", "single_word", "lstrip", "rstrip", "normalized", "special"});
    AddedToken t;
    t.content = entry.at("content").as_string();
    t.special = entry.at("special").as_bool();
    t.normalized = entry.at("normalized").as_bool();
    t.lstrip = entry.at("lstrip").as_bool();
    t.rstrip = entry.at("rstrip").as_bool();
    if (entry.at("single_word").as_bool())
      unsupported(entry.at("single_word"),
                  "is true (token " + in_quotes(t.content) + "); single_word matching is not implemented");
    if (t.content.empty()) throw LoadError(kRuleAddedToken, where(entry) + " has an empty content");
    if (added_ids.contains(t.content))
      throw LoadError(kRuleAddedToken, where(entry) + ": " + in_quotes(t.content) + " is added twice");
    std::int64_t const id = entry.at("id").as_int();
    std::int64_t expected = 0;
    if (auto const it = vocab.find(t.content); it != vocab.end()) {
      expected = it->second;
    } else if (max_added < 0) {
      expected = model_count;
    } else {
      expected = max_added >= model_count || model_count == 0 ? max_added + 1 : model_count;
    }
    if (id != expected)
      throw LoadError(kRuleAddedToken, where(entry) + ": " + in_quotes(t.content) + " has id " + std::to_string(id) +
                                           "; tokenizers would give it " + std::to_string(expected));
    if (id >= kMaxId)
      throw LoadError(kRuleAddedToken, where(entry) + ": id " + std::to_string(id) + " is not below 2^24");
    t.id = static_cast<std::int32_t>(id);
    max_added = std::max(max_added, id);
    added_ids.emplace(t.content, t.id);
    added.push_back(std::move(t));
  }
}

void Tokenizer::Impl::parse_normalizer(const Json& normalizer) {
  std::string const& type = type_of(normalizer);
  if (type == "NFC") {
    check_keys(normalizer, {"type"});
    nfc = true;
  } else if (type == "Sequence") {
    check_keys(normalizer, {"type", "normalizers"});
    // NFC is idempotent, so a Sequence of NFCs is one NFC.
    for (auto const& n : normalizer.at("normalizers").as_array()) {
      if (n.is_null() || type_of(n) != "NFC") unsupported(n, "is not NFC; only NFC normalizers are supported");
      check_keys(n, {"type"});
      nfc = true;
    }
  } else {
    unsupported(normalizer.at("type"), "is " + in_quotes(type) + "; only null, NFC or a Sequence of NFC is supported");
  }
}

void Tokenizer::Impl::parse_pre_tokenizer(const Json& pre) {
  auto const shape = "; only a Sequence of Split (Qwen2's or Llama 3's regex) and ByteLevel is supported";
  if (type_of(pre) != "Sequence") unsupported(pre.at("type"), "is " + in_quotes(type_of(pre)) + shape);
  check_keys(pre, {"type", "pretokenizers"});
  auto const& list = pre.at("pretokenizers");
  if (list.size() != 2) unsupported(list, "has " + std::to_string(list.size()) + " entries" + shape);

  auto const& split = list.at(std::size_t{0});
  if (type_of(split) != "Split") unsupported(split.at("type"), "is " + in_quotes(type_of(split)) + shape);
  check_keys(split, {"type", "pattern", "behavior", "invert"});
  auto const& pattern = split.at("pattern");
  check_keys(pattern, {"Regex", "String"});
  if (pattern.find("Regex") == nullptr) unsupported(pattern, "is not a Regex" + std::string(shape));
  auto const& regex = pattern.at("Regex").as_string();
  if (regex == text::qwen2_regex) {
    max_digits = 1;
  } else if (regex == text::llama3_regex) {
    max_digits = 3;
  } else {
    unsupported(pattern.at("Regex"), "is " + in_quotes(regex) + shape);
  }
  if (split.at("behavior").as_string() != "Isolated")
    unsupported(split.at("behavior"),
                "is " + in_quotes(split.at("behavior").as_string()) + "; only Isolated is supported");
  if (split.at("invert").as_bool()) unsupported(split.at("invert"), "is true; only false is supported");

  auto const& byte_level = list.at(1);
  if (type_of(byte_level) != "ByteLevel")
    unsupported(byte_level.at("type"), "is " + in_quotes(type_of(byte_level)) + shape);
  check_keys(byte_level, {"type", "add_prefix_space", "trim_offsets", "use_regex"});
  // trim_offsets changes offsets only, never ids.
  if (optional_bool(byte_level, "add_prefix_space", true))
    unsupported(byte_level, "has add_prefix_space true (or absent); only false is supported");
  if (optional_bool(byte_level, "use_regex", true))
    unsupported(byte_level, "has use_regex true (or absent): GPT-2's regex after the Split is not supported");
}

void Tokenizer::Impl::parse_post_processor(const Json& post) {
  std::string const& type = type_of(post);
  if (type == "ByteLevel") {
    // Offsets only: it adds no ids.
    check_keys(post, {"type", "add_prefix_space", "trim_offsets", "use_regex"});
  } else if (type == "Sequence") {
    check_keys(post, {"type", "processors"});
    for (auto const& p : post.at("processors").as_array()) {
      if (p.is_null()) unsupported(p, "is null inside a Sequence");
      parse_post_processor(p);
    }
  } else if (type == "TemplateProcessing") {
    check_keys(post, {"type", "single", "pair", "special_tokens"});
    auto const& specials = post.at("special_tokens");
    std::vector<TemplatePiece> pieces;
    for (auto const& piece : post.at("single").as_array()) {
      check_keys(piece, {"SpecialToken", "Sequence"});
      if (piece.size() != 1) unsupported(piece, "is not one SpecialToken or one Sequence");
      if (auto const* seq = piece.find("Sequence")) {
        check_keys(*seq, {"id", "type_id"});
        if (seq->at("id").as_string() != "A") unsupported(seq->at("id"), "is not \"A\", the single sequence");
        pieces.push_back({true, {}});
      } else {
        auto const& tok = piece.at("SpecialToken");
        check_keys(tok, {"id", "type_id"});
        auto const& entry = specials.at(tok.at("id").as_string());
        check_keys(entry, {"id", "ids", "tokens"});
        TemplatePiece p;
        for (auto const& id : entry.at("ids").as_array()) {
          if (id.as_int() < 0 || id.as_int() >= kMaxId)
            throw LoadError(kRuleVocab, where(id) + " is " + std::to_string(id.as_int()) + ", outside [0, 2^24)");
          p.ids.push_back(static_cast<std::int32_t>(id.as_int()));
        }
        pieces.push_back(std::move(p));
      }
    }
    templates.push_back(std::move(pieces));
  } else {
    unsupported(post.at("type"), "is " + in_quotes(type) +
                                     "; only null, ByteLevel, TemplateProcessing or a Sequence of those is supported");
  }
}

void Tokenizer::Impl::parse_decoder(const Json& decoder) {
  if (type_of(decoder) != "ByteLevel")
    unsupported(decoder.at("type"), "is " + in_quotes(type_of(decoder)) + "; only ByteLevel or null is supported");
  // Its flags concern offsets and pre-tokenization, not decoding.
  check_keys(decoder, {"type", "add_prefix_space", "trim_offsets", "use_regex"});
  byte_level_decoder = true;
}

void Tokenizer::Impl::build_id_tables() {
  std::int32_t max_id = -1;
  for (auto const& [token, id] : vocab) max_id = std::max(max_id, id);
  for (auto const& t : added) max_id = std::max(max_id, t.id);
  size = max_id + 1;
  auto const n = static_cast<std::size_t>(size);
  tokens.assign(n, {});
  has_token.assign(n, 0);
  special.assign(n, 0);
  for (auto const& [token, id] : vocab) {
    tokens[static_cast<std::size_t>(id)] = token;
    has_token[static_cast<std::size_t>(id)] = 1;
  }
  // Added tokens win where an id has both, as tokenizers' id_to_token looks at them first.
  for (auto const& t : added) {
    tokens[static_cast<std::size_t>(t.id)] = t.content;
    has_token[static_cast<std::size_t>(t.id)] = 1;
  }
  // tokenizers (0.23) decodes a normalized added token from its normalized form, and skips that
  // form as special only if it equals a special token's content.
  std::unordered_set<std::string> special_contents;
  for (auto const& t : added) {
    if (t.special) special_contents.insert(t.content);
    if (t.normalized && nfc)
      if (auto form = text::nfc(t.content); form != t.content) normalized_forms.emplace(t.id, std::move(form));
  }
  for (std::size_t id = 0; id < n; ++id) special[id] = has_token[id] && special_contents.contains(decode_string(id));
  if (!byte_level_decoder) return;
  // The ByteLevel decoder maps a token's characters back to bytes, or keeps the token's own UTF-8
  // when any character is outside the alphabet (added tokens such as "<think>" map either way).
  decoded.assign(n, {});
  for (std::size_t id = 0; id < n; ++id) {
    if (!has_token[id]) continue;
    std::string_view const s = decode_string(id);
    std::string bytes;
    bool all = true;
    for (std::size_t i = 0; i < s.size() && all;) {
      auto const b = text::unicode_to_byte(next_code_point(s, i));
      all = b.has_value();
      if (all) bytes += static_cast<char>(*b);
    }
    decoded[id] = all ? std::move(bytes) : std::string(s);
  }
}

// ---- reading ----

Tokenizer Tokenizer::from_file(const std::filesystem::path& path) {
  std::error_code ec;
  auto const file = std::filesystem::is_directory(path, ec) ? path / "tokenizer.json" : path;
  Json const doc = read_json_file(file);
  return from_document(doc);
}

Tokenizer Tokenizer::from_json(std::string_view text, std::string_view source) {
  return from_document(parse_json(text, source));
}

Tokenizer Tokenizer::from_document(const Json& doc) {
  auto impl = std::make_unique<Impl>();
  check_keys(doc, {"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer", "post_processor",
                   "decoder", "model"});
  if (auto const* v = doc.find("version"); v != nullptr && v->as_string() != "1.0")
    unsupported(*v, "is " + in_quotes(v->as_string()) + "; only \"1.0\" is supported");
  require_null(doc, "truncation");
  require_null(doc, "padding");
  // A missing part is null, as in tokenizers.
  auto const part = [&](std::string_view key) {
    auto const* v = doc.find(key);
    return v != nullptr && !v->is_null() ? v : nullptr;
  };
  impl->parse_model(doc.at("model"));
  if (auto const* n = part("normalizer")) impl->parse_normalizer(*n);
  if (auto const* p = part("pre_tokenizer")) {
    impl->parse_pre_tokenizer(*p);
  } else {
    unsupported(doc, "has no pre_tokenizer; only a Sequence of Split and ByteLevel is supported");
  }
  if (auto const* p = part("post_processor")) impl->parse_post_processor(*p);
  if (auto const* d = part("decoder")) impl->parse_decoder(*d);
  if (auto const* list = doc.find("added_tokens"); list != nullptr && !list->is_null()) impl->parse_added_tokens(*list);
  for (std::size_t i = 0; i < impl->added.size(); ++i) {
    auto const& t = impl->added[i];
    if (!t.normalized) {
      impl->raw_trie.add(t.content, static_cast<std::int32_t>(i));
    } else {
      // tokenizers matches a normalized token by its normalized content.
      impl->normalized_trie.add(impl->nfc ? text::nfc(t.content) : t.content, static_cast<std::int32_t>(i));
    }
  }
  impl->build_id_tables();
  return Tokenizer(std::move(impl));
}

}  // namespace cute_cpp::models
