// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/tokenizer.hpp: a byte-level BPE tokenizer read from a Hugging Face tokenizer.json
// in Qwen2/Qwen3's format, giving the ids the Python `tokenizers` package gives: added tokens are
// split out first (longest match), the rest is NFC-normalized, split by Qwen2's pre-tokenizer
// regex (a hand-written matcher over generated Unicode tables), mapped byte by byte to GPT-2's
// printable characters and merged by rank. Whatever else a tokenizer.json may ask for is rejected
// with the field's name ([tokenizer.unsupported]), never ignored.
#include <cstdint>      // std::int32_t
#include <filesystem>   // std::filesystem::path
#include <memory>       // std::unique_ptr
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace cute_cpp::models {

class Json;

// ---- Tokenizer ----

/// One entry of tokenizer.json's "added_tokens".
struct AddedToken {
  std::int32_t id = 0;
  std::string content;
  bool special = false;     // skipped by decode(ids, /*skip_special_tokens=*/true)
  bool normalized = false;  // matched in the NFC-normalized text instead of the input
  bool lstrip = false;      // the match takes the white space before it
  bool rstrip = false;      // the match takes the white space after it
};

/// A byte-level BPE tokenizer. Immutable after loading; encode and decode may run concurrently.
/// Move-only.
///   auto tok = Tokenizer::from_file("Qwen3-8B/tokenizer.json");
///   auto ids = tok.encode("<|im_start|>user");  // the added token's id, then the BPE ids of "user"
///   tok.decode(ids)                              // "<|im_start|>user"
class Tokenizer {
 public:
  /// Reads `path` (tokenizer.json, or the folder holding it); errors name the file.
  /// @pre the file is readable JSON [json.file] [json.syntax], and from_json's preconditions.
  [[nodiscard]] static Tokenizer from_file(const std::filesystem::path& path);
  /// Parses a tokenizer.json document; `source` names it in errors.
  /// @pre version "1.0"; truncation and padding null; model.type "BPE" with no dropout, no
  ///      continuing_subword_prefix or end_of_word_suffix and byte_fallback false; normalizer null,
  ///      NFC, or a Sequence of NFC; pre_tokenizer a Sequence of Split (Qwen2's regex, or Llama 3's
  ///      with \p{N}{1,3}; behavior Isolated, not inverted) then ByteLevel (add_prefix_space and
  ///      use_regex false); decoder ByteLevel or null; post_processor null, ByteLevel,
  ///      TemplateProcessing, or a Sequence of those; no added token has single_word set; no key the
  ///      reader does not know [tokenizer.unsupported]; vocab ids unique and in [0, 2^24), unk_token
  ///      null or in the vocab [tokenizer.vocab]; each merge is "a b" or ["a", "b"] of vocab tokens
  ///      whose concatenation is in the vocab [tokenizer.merges]; added tokens non-empty, unique, each
  ///      with the id `tokenizers` would give it [tokenizer.added-token].
  [[nodiscard]] static Tokenizer from_json(std::string_view text, std::string_view source = "tokenizer.json");

  Tokenizer(Tokenizer&& other) noexcept;
  Tokenizer& operator=(Tokenizer&& other) noexcept;
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;
  ~Tokenizer();

  /// The ids of `text`, as tokenizers' Tokenizer.encode(text, add_special_tokens).ids gives them.
  /// add_special_tokens applies the post_processor's TemplateProcessing (Qwen's ByteLevel adds none).
  /// @pre text is valid UTF-8 [tokenizer.input].
  [[nodiscard]] std::vector<std::int32_t> encode(std::string_view text, bool add_special_tokens = false) const;
  /// The text of `ids`, as tokenizers' Tokenizer.decode gives it: bytes that are not UTF-8 become
  /// U+FFFD (one per maximal ill-formed subpart) and ids without a token are dropped, as there.
  [[nodiscard]] std::string decode(std::span<const std::int32_t> ids, bool skip_special_tokens = false) const;

  /// One more than the largest id of the vocabulary and the added tokens.
  [[nodiscard]] std::int32_t vocab_size() const noexcept;
  /// The id of a token string (added tokens first, then the vocabulary), e.g. "Ġthe" or "<|im_end|>".
  [[nodiscard]] std::optional<std::int32_t> token_to_id(std::string_view token) const;
  /// The token string of an id; the view lives as long as the Tokenizer.
  [[nodiscard]] std::optional<std::string_view> id_to_token(std::int32_t id) const;
  /// The added tokens, in file order.
  [[nodiscard]] const std::vector<AddedToken>& added_tokens() const noexcept;

 private:
  struct Impl;
  explicit Tokenizer(std::unique_ptr<Impl> impl);
  static Tokenizer from_document(const Json& doc);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cute_cpp::models
