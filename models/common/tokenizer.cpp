// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer.cpp: the byte-level BPE tokenizer. What each step must reproduce was
// read from huggingface/tokenizers (added_vocabulary.rs, models/bpe, pre_tokenizers/byte_level.rs,
// serialization.rs) and checked against the Python package by tests/cpu/models/tokenizer_reference.py.
#include "models/common/tokenizer.hpp"

#include <algorithm>      // std::find_if, std::max
#include <array>          // std::array
#include <functional>     // std::equal_to
#include <mutex>          // std::mutex
#include <queue>          // std::priority_queue
#include <unordered_map>  // std::unordered_map
#include <unordered_set>  // std::unordered_set
#include <utility>        // std::pair

#include "models/common/error.hpp"          // LoadError, in_quotes
#include "models/common/json.hpp"           // parse_json, read_json_file
#include "models/common/pre_tokenizer.hpp"  // the byte-level alphabet, the pre-tokenizer regex
#include "models/common/unicode_text.hpp"   // UTF-8, white space, NFC

namespace cute_cpp::models {

namespace {
constexpr char kRuleUnsupported[] =
    "cute-cpp [tokenizer.unsupported]: the tokenizer.json may only use the features this reader implements";
constexpr char kRuleVocab[] = "cute-cpp [tokenizer.vocab]: the vocab maps each token to a unique id in [0, 2^24)";
constexpr char kRuleMerges[] =
    "cute-cpp [tokenizer.merges]: each merge names two vocab tokens whose concatenation is in the vocab";
constexpr char kRuleAddedToken[] =
    "cute-cpp [tokenizer.added-token]: added tokens are non-empty, unique, and have the ids tokenizers gives them";
constexpr char kRuleInput[] = "cute-cpp [tokenizer.input]: the text to encode must be valid UTF-8";

// The Split patterns this reader implements, as they appear in the JSON once its escapes are read.
constexpr std::string_view kQwen2Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr std::string_view kLlama3Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+)"
    R"(|\s+(?!\S)|\s+)";
// NOTE: ids index flat tables, so a hostile file must not be able to ask for 2^31 of them; real
// vocabularies stay below 300k.
constexpr std::int64_t kMaxId = std::int64_t{1} << 24;
// NOTE: tokenizers caches words shorter than 256 bytes; longer ones are rare and costly to keep.
constexpr std::size_t kCacheMaxWordBytes = 256;
constexpr std::size_t kCacheMaxEntries = 100'000;

using text::append_utf8;
using text::first_invalid_utf8;
using text::is_nfc_quick;
using text::is_white_space;
using text::next_code_point;
using text::previous_start;

// ---- added tokens ----

/// A byte trie of the added tokens' patterns, for tokenizers' leftmost-longest matching.
class AddedTokenTrie {
 public:
  void add(std::string_view pattern, std::int32_t token) {
    std::int32_t node = 0;
    for (char ch : pattern) {
      auto const b = static_cast<unsigned char>(ch);
      auto& next = nodes_[static_cast<std::size_t>(node)].next;
      auto it = std::find_if(next.begin(), next.end(), [&](auto const& e) { return e.first == b; });
      if (it == next.end()) {
        next.emplace_back(b, static_cast<std::int32_t>(nodes_.size()));
        node = static_cast<std::int32_t>(nodes_.size());
        nodes_.emplace_back();
      } else {
        node = it->second;
      }
    }
    nodes_[static_cast<std::size_t>(node)].token = token;
    first_bytes_[static_cast<unsigned char>(pattern.front())] = true;
    empty_ = false;
  }
  [[nodiscard]] bool empty() const noexcept { return empty_; }
  [[nodiscard]] bool may_start(unsigned char b) const noexcept { return first_bytes_[b]; }

  /// The longest pattern at s[pos]: its token and length, or {-1, 0}.
  [[nodiscard]] std::pair<std::int32_t, std::size_t> longest_at(std::string_view s, std::size_t pos) const {
    std::pair<std::int32_t, std::size_t> best{-1, 0};
    std::int32_t node = 0;
    for (std::size_t k = pos; k < s.size(); ++k) {
      auto const& next = nodes_[static_cast<std::size_t>(node)].next;
      auto const b = static_cast<unsigned char>(s[k]);
      auto it = std::find_if(next.begin(), next.end(), [&](auto const& e) { return e.first == b; });
      if (it == next.end()) break;
      node = it->second;
      if (nodes_[static_cast<std::size_t>(node)].token >= 0)
        best = {nodes_[static_cast<std::size_t>(node)].token, k + 1 - pos};
    }
    return best;
  }

 private:
  struct Node {
    std::vector<std::pair<unsigned char, std::int32_t>> next;
    std::int32_t token = -1;  // index into the added tokens
  };
  std::vector<Node> nodes_ = std::vector<Node>(1);
  std::array<bool, 256> first_bytes_{};
  bool empty_ = true;
};

// ---- JSON helpers ----

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

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using StringMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

}  // namespace

// ---- Tokenizer::Impl ----

struct Tokenizer::Impl {
  struct Merge {
    std::uint32_t rank;
    std::int32_t new_id;
  };
  /// One piece of a TemplateProcessing's "single": the sequence itself, or fixed ids.
  struct TemplatePiece {
    bool sequence = false;
    std::vector<std::int32_t> ids;
  };

  // model
  StringMap vocab;
  std::unordered_map<std::uint64_t, Merge> merges;  // (left id << 32 | right id) -> rank, merged id
  std::array<std::int32_t, 256> byte_ids{};         // the vocab id of each byte's character, or -1
  std::int32_t unk_id = -1;
  bool fuse_unk = false;
  bool ignore_merges = false;
  // normalizer, pre-tokenizer
  bool nfc = false;
  int max_digits = 1;
  // added tokens
  std::vector<AddedToken> added;
  StringMap added_ids;
  AddedTokenTrie raw_trie;         // normalized == false: matched in the input
  AddedTokenTrie normalized_trie;  // normalized == true: matched in the normalized text
  // post-processor: each TemplateProcessing's "single", applied in order
  std::vector<std::vector<TemplatePiece>> templates;
  // decoder and id tables
  bool byte_level_decoder = false;  // without a decoder, tokenizers joins the token strings with spaces
  std::int32_t size = 0;
  std::vector<std::string> tokens;  // by id; empty where no token has the id
  std::vector<std::uint8_t> has_token;
  std::unordered_map<std::size_t, std::string> normalized_forms;  // by id, where they differ from the token
  std::vector<std::uint8_t> special;                              // by id: skipped by skip_special_tokens
  std::vector<std::string> decoded;                               // by id: the bytes the ByteLevel decoder gives

  mutable std::mutex cache_mutex;
  mutable std::unordered_map<std::string, std::vector<std::int32_t>, StringHash, std::equal_to<>> cache;

  void parse_model(const Json& model);
  void parse_added_tokens(const Json& list);
  void parse_normalizer(const Json& normalizer);
  void parse_pre_tokenizer(const Json& pre_tokenizer);
  void parse_post_processor(const Json& post_processor);
  void parse_decoder(const Json& decoder);
  void build_id_tables();
  /// What decode() starts from for an id that has a token.
  [[nodiscard]] const std::string& decode_string(std::size_t id) const {
    auto const it = normalized_forms.find(id);
    return it == normalized_forms.end() ? tokens[id] : it->second;
  }

  void bpe(std::string_view word, std::vector<std::int32_t>& out) const;
  void encode_words(std::string_view text, std::vector<std::int32_t>& out) const;
  void cached_bpe(std::string_view word, std::vector<std::int32_t>& out) const;
  template <class F>
  void split_added(std::string_view text, const AddedTokenTrie& trie, F&& f) const;
};

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
  if (regex == kQwen2Regex) {
    max_digits = 1;
  } else if (regex == kLlama3Regex) {
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

// ---- encoding ----

void Tokenizer::Impl::bpe(std::string_view word, std::vector<std::int32_t>& out) const {
  if (ignore_merges) {
    std::string mapped;
    for (char ch : word) append_utf8(mapped, text::byte_to_unicode(static_cast<std::uint8_t>(ch)));
    if (auto const it = vocab.find(mapped); it != vocab.end()) {
      out.push_back(it->second);
      return;
    }
  }
  // One symbol per byte (its alphabet character); characters outside the vocab become the unk
  // token (fused when fuse_unk) or, without one, are dropped, as tokenizers' merge_word does.
  struct Symbol {
    std::int32_t id;
    std::int32_t prev;
    std::int32_t next;
    bool alive;
  };
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  bool last_unk = false;
  for (char ch : word) {
    std::int32_t const id = byte_ids[static_cast<unsigned char>(ch)];
    if (id < 0) {
      if (unk_id < 0) continue;
      if (last_unk && fuse_unk) continue;
      last_unk = true;
      symbols.push_back({unk_id, 0, 0, true});
      continue;
    }
    last_unk = false;
    symbols.push_back({id, 0, 0, true});
  }
  auto const n = static_cast<std::int32_t>(symbols.size());
  for (std::int32_t i = 0; i < n; ++i) {
    symbols[static_cast<std::size_t>(i)].prev = i - 1;
    symbols[static_cast<std::size_t>(i)].next = i + 1 < n ? i + 1 : -1;
  }

  // tokenizers' merge_all: a min-heap of candidate pairs by (rank, position); an entry whose pair
  // no longer yields the same merged id is stale and dropped when popped.
  struct Candidate {
    std::uint32_t rank;
    std::int32_t pos;
    std::int32_t new_id;
  };
  auto const later = [](const Candidate& x, const Candidate& y) {
    return x.rank != y.rank ? x.rank > y.rank : x.pos > y.pos;
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(later)> queue(later);
  auto const lookup = [&](std::int32_t a, std::int32_t b) -> const Merge* {
    auto const it = merges.find((std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b));
    return it == merges.end() ? nullptr : &it->second;
  };
  auto const sym = [&](std::int32_t i) -> Symbol& { return symbols[static_cast<std::size_t>(i)]; };
  for (std::int32_t i = 0; i + 1 < n; ++i)
    if (auto const* m = lookup(sym(i).id, sym(i + 1).id)) queue.push({m->rank, i, m->new_id});
  while (!queue.empty()) {
    Candidate const top = queue.top();
    queue.pop();
    Symbol& left = sym(top.pos);
    if (!left.alive || left.next < 0) continue;
    Symbol const right = sym(left.next);
    auto const* m = lookup(left.id, right.id);
    if (m == nullptr || m->new_id != top.new_id) continue;
    sym(left.next).alive = false;
    left.id = top.new_id;
    left.next = right.next;
    if (right.next >= 0) sym(right.next).prev = top.pos;
    if (left.prev >= 0)
      if (auto const* p = lookup(sym(left.prev).id, left.id)) queue.push({p->rank, left.prev, p->new_id});
    if (left.next >= 0)
      if (auto const* q = lookup(left.id, sym(left.next).id)) queue.push({q->rank, top.pos, q->new_id});
  }
  for (auto const& s : symbols)
    if (s.alive) out.push_back(s.id);
}

void Tokenizer::Impl::cached_bpe(std::string_view word, std::vector<std::int32_t>& out) const {
  if (word.size() >= kCacheMaxWordBytes) return bpe(word, out);
  {
    std::lock_guard const lock(cache_mutex);
    if (auto const it = cache.find(word); it != cache.end()) {
      out.insert(out.end(), it->second.begin(), it->second.end());
      return;
    }
  }
  std::size_t const begin = out.size();
  bpe(word, out);
  std::lock_guard const lock(cache_mutex);
  if (cache.size() >= kCacheMaxEntries) cache.clear();
  cache.emplace(std::string(word),
                std::vector<std::int32_t>(out.begin() + static_cast<std::ptrdiff_t>(begin), out.end()));
}

void Tokenizer::Impl::encode_words(std::string_view text, std::vector<std::int32_t>& out) const {
  text::for_each_pre_token(text, max_digits, [&](std::string_view word) { cached_bpe(word, out); });
}

/// Calls f(piece, id) over the text split at the trie's matches: id -1 for text between them.
/// This is tokenizers' AddedVocabulary::find_matches: leftmost-longest matches, each widened by
/// lstrip/rstrip over white space (lstrip never into the previous match).
template <class F>
void Tokenizer::Impl::split_added(std::string_view text, const AddedTokenTrie& trie, F&& f) const {
  if (trie.empty()) {
    f(text, -1);
    return;
  }
  std::size_t start_offset = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    if (!trie.may_start(static_cast<unsigned char>(text[pos]))) {
      ++pos;
      continue;
    }
    auto const [index, length] = trie.longest_at(text, pos);
    if (index < 0) {
      ++pos;
      continue;
    }
    std::size_t start = pos;
    std::size_t stop = pos + length;
    pos = stop;
    auto const& token = added[static_cast<std::size_t>(index)];
    if (token.lstrip) {
      std::size_t s = start;
      while (s > 0) {
        std::size_t const p = previous_start(text, s);
        std::size_t i = p;
        if (!is_white_space(next_code_point(text, i))) break;
        s = p;
      }
      start = std::max(s, start_offset);
    }
    if (token.rstrip) {
      for (std::size_t i = stop; i < text.size();) {
        std::size_t j = i;
        if (!is_white_space(next_code_point(text, j))) break;
        stop = i = j;
      }
    }
    if (start_offset < start) f(text.substr(start_offset, start - start_offset), -1);
    f(text.substr(start, stop - start), token.id);
    start_offset = stop;
  }
  if (start_offset < text.size()) f(text.substr(start_offset), -1);
}

// ---- Tokenizer ----

Tokenizer::Tokenizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Tokenizer::Tokenizer(Tokenizer&& other) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&& other) noexcept = default;
Tokenizer::~Tokenizer() = default;

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

std::vector<std::int32_t> Tokenizer::encode(std::string_view text, bool add_special_tokens) const {
  Impl const& m = *impl_;
  if (auto const bad = first_invalid_utf8(text); bad != std::string_view::npos)
    throw LoadError(kRuleInput, "the text is not valid UTF-8 at byte " + std::to_string(bad));
  std::vector<std::int32_t> ids;
  ids.reserve(text.size() / 3 + 1);
  std::string normalized;
  m.split_added(text, m.raw_trie, [&](std::string_view piece, std::int32_t id) {
    if (id >= 0) {
      ids.push_back(id);
      return;
    }
    std::string_view rest = piece;
    if (m.nfc && !is_nfc_quick(piece)) {
      normalized = text::nfc(piece);
      rest = normalized;
    }
    m.split_added(rest, m.normalized_trie, [&](std::string_view words, std::int32_t id2) {
      if (id2 >= 0) {
        ids.push_back(id2);
      } else {
        m.encode_words(words, ids);
      }
    });
  });
  for (auto const& pieces : m.templates) {
    std::vector<std::int32_t> out;
    for (auto const& p : pieces) {
      if (p.sequence) {
        out.insert(out.end(), ids.begin(), ids.end());
      } else if (add_special_tokens) {
        out.insert(out.end(), p.ids.begin(), p.ids.end());
      }
    }
    ids = std::move(out);
  }
  return ids;
}

std::string Tokenizer::decode(std::span<const std::int32_t> ids, bool skip_special_tokens) const {
  Impl const& m = *impl_;
  auto const kept = [&](std::int32_t id) {
    return id >= 0 && id < m.size && m.has_token[static_cast<std::size_t>(id)] &&
           !(skip_special_tokens && m.special[static_cast<std::size_t>(id)]);
  };
  std::string out;
  if (m.byte_level_decoder) {
    for (auto const id : ids)
      if (kept(id)) out += m.decoded[static_cast<std::size_t>(id)];
    return first_invalid_utf8(out) == std::string_view::npos ? out : text::utf8_lossy(out);
  }
  bool first = true;
  for (auto const id : ids) {
    if (!kept(id)) continue;
    if (!first) out += ' ';
    out += m.decode_string(static_cast<std::size_t>(id));
    first = false;
  }
  return out;
}

std::int32_t Tokenizer::vocab_size() const noexcept { return impl_->size; }

std::optional<std::int32_t> Tokenizer::token_to_id(std::string_view token) const {
  if (auto const it = impl_->added_ids.find(token); it != impl_->added_ids.end()) return it->second;
  if (auto const it = impl_->vocab.find(token); it != impl_->vocab.end()) return it->second;
  return std::nullopt;
}

std::optional<std::string_view> Tokenizer::id_to_token(std::int32_t id) const {
  if (id < 0 || id >= impl_->size || !impl_->has_token[static_cast<std::size_t>(id)]) return std::nullopt;
  return std::string_view(impl_->tokens[static_cast<std::size_t>(id)]);
}

const std::vector<AddedToken>& Tokenizer::added_tokens() const noexcept { return impl_->added; }

}  // namespace cute_cpp::models
