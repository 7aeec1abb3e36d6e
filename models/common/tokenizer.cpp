// SPDX-License-Identifier: Apache-2.0
// models/common/tokenizer.cpp: the byte-level BPE tokenizer's encoding and decoding over the tables
// tokenizer_reader.cpp reads (tokenizer_impl.hpp): added tokens split out, NFC, pre-tokens, BPE by
// merge rank, the post-processor's template. What each step must reproduce was read from
// huggingface/tokenizers (added_vocabulary.rs, models/bpe) and checked against the Python package by
// tests/cpu/models/tokenizer_reference.py.
#include "models/common/tokenizer.hpp"

#include <algorithm>  // std::max
#include <queue>      // std::priority_queue

#include "models/common/error.hpp"          // LoadError
#include "models/common/pre_tokenizer.hpp"  // the byte-level alphabet, the pre-tokenizer regex
#include "models/common/tokenizer_impl.hpp"
#include "models/common/unicode_text.hpp"   // UTF-8, white space, NFC

namespace cute_cpp::models {

namespace {
constexpr char kRuleInput[] = "cute-cpp [tokenizer.input]: the text to encode must be valid UTF-8";

// NOTE: tokenizers caches words shorter than 256 bytes; longer ones are rare and costly to keep.
constexpr std::size_t kCacheMaxWordBytes = 256;
constexpr std::size_t kCacheMaxEntries = 100'000;

using text::append_utf8;
using text::first_invalid_utf8;
using text::is_nfc_quick;
using text::is_white_space;
using text::next_code_point;
using text::previous_start;
using tokenizer_impl::AddedTokenTrie;

}  // namespace

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
