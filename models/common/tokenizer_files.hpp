// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/tokenizer_files.hpp: a Qwen2 tokenizer from the "slow" tokenizer's files, for
// checkpoints that ship vocab.json and merges.txt without a tokenizer.json (the Qwen3-TTS models do).
// The document is what transformers' Qwen2TokenizerFast builds from them (convert_slow_tokenizer's
// Qwen2Converter): NFC normalizer; Qwen2's Split regex, then ByteLevel without prefix space or regex;
// BPE without unknown token, prefixes or byte fallback; ByteLevel decoder and post-processor; the
// added tokens of tokenizer_config.json's added_tokens_decoder. Host only.
#include <filesystem>   // std::filesystem::path
#include <string>       // std::string
#include <string_view>  // std::string_view

#include "models/common/json.hpp"       // Json
#include "models/common/tokenizer.hpp"  // Tokenizer

namespace cute_cpp::models {

/// The tokenizer.json text of a Qwen2 tokenizer: `vocab_json` (vocab.json's text, an object of token ->
/// id, embedded as it is), `merges_txt` (merges.txt: a first line "#version: ..." and empty lines are
/// skipped, each other line is two tokens separated by white space, as Qwen2Tokenizer reads it), and
/// the added tokens of `tokenizer_config`'s "added_tokens_decoder" (id -> {content, lstrip, rstrip,
/// normalized, special}), in id order; Tokenizer::from_json checks the rest.
/// @pre a merges line with other than two tokens [tokenizer.merges]; added_tokens_decoder, when
///      present, an object of such entries with integer keys [json.type] / [tokenizer.added-token].
[[nodiscard]] std::string qwen2_tokenizer_json(std::string_view vocab_json, std::string_view merges_txt,
                                               const Json& tokenizer_config);

/// `folder`/tokenizer.json, or where the folder has none, its vocab.json, merges.txt and
/// tokenizer_config.json (optional) through qwen2_tokenizer_json.
/// @pre one of the two is there [tokenizer.files]; Tokenizer::from_json's preconditions.
[[nodiscard]] Tokenizer load_tokenizer(const std::filesystem::path& folder);

}  // namespace cute_cpp::models
