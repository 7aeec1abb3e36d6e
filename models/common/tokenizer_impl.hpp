// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/tokenizer_impl.hpp: Tokenizer's state, shared by its reader (tokenizer_reader.cpp:
// tokenizer.json into these tables) and its encoder (tokenizer.cpp). Not part of the API.
#include <algorithm>      // std::find_if
#include <array>          // std::array
#include <cstdint>        // std::int32_t, std::uint64_t
#include <functional>     // std::equal_to, std::hash
#include <mutex>          // std::mutex
#include <string>         // std::string
#include <string_view>    // std::string_view
#include <unordered_map>  // std::unordered_map
#include <utility>        // std::pair
#include <vector>         // std::vector

#include "models/common/tokenizer.hpp"

namespace cute_cpp::models::tokenizer_impl {

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

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using StringMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;


}  // namespace cute_cpp::models::tokenizer_impl

namespace cute_cpp::models {

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
  tokenizer_impl::StringMap vocab;
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
  tokenizer_impl::StringMap added_ids;
  tokenizer_impl::AddedTokenTrie raw_trie;         // normalized == false: matched in the input
  tokenizer_impl::AddedTokenTrie normalized_trie;  // normalized == true: matched in the normalized text
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
  mutable std::unordered_map<std::string, std::vector<std::int32_t>, tokenizer_impl::StringHash, std::equal_to<>>
      cache;

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
  void split_added(std::string_view text, const tokenizer_impl::AddedTokenTrie& trie, F&& f) const;
};

}  // namespace cute_cpp::models
