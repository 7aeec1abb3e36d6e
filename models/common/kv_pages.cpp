// SPDX-License-Identifier: Apache-2.0
#include "models/common/kv_pages.hpp"

#include <string>  // std::to_string

#include "models/common/error.hpp"  // LoadError

namespace cute_cpp::models {

namespace {
constexpr const char* kRuleKvCache =
    "cute-cpp [qwen3.kv-cache]: the KV cache has positive sizes, a free slot for each new sequence and a free page "
    "for each page a sequence grows into";
}  // namespace

KvPages::KvPages(Shape shape) : shape_(shape) {
  if (shape.num_pages <= 0 || shape.page_size <= 0 || shape.max_pages_per_seq <= 0 || shape.max_sequences <= 0)
    throw LoadError(kRuleKvCache, "pages " + std::to_string(shape.num_pages) + ", page size " +
                                      std::to_string(shape.page_size) + ", pages per sequence " +
                                      std::to_string(shape.max_pages_per_seq) + ", sequences " +
                                      std::to_string(shape.max_sequences) + ": each must be positive");
  table_.assign(std::size_t(shape.max_sequences) * std::size_t(shape.max_pages_per_seq), -1);
  lengths_.assign(std::size_t(shape.max_sequences), -1);
  free_.reserve(std::size_t(shape.num_pages));
  for (int p = shape.num_pages - 1; p >= 0; --p) free_.push_back(p);
}

void KvPages::check_slot(int slot) const {
  if (slot < 0 || slot >= shape_.max_sequences || lengths_[std::size_t(slot)] < 0)
    throw LoadError(kRuleKvCache, "sequence slot " + std::to_string(slot) + " is not in use");
}

int KvPages::add_sequence() {
  for (int s = 0; s < shape_.max_sequences; ++s) {
    if (lengths_[std::size_t(s)] < 0) {
      lengths_[std::size_t(s)] = 0;
      return s;
    }
  }
  throw LoadError(kRuleKvCache, "all " + std::to_string(shape_.max_sequences) + " sequence slots are in use");
}

void KvPages::grow(int slot, int length) {
  check_slot(slot);
  if (length > max_tokens())
    throw LoadError(kRuleKvCache, "sequence slot " + std::to_string(slot) + ": " + std::to_string(length) +
                                      " tokens exceed the cache's " + std::to_string(max_tokens()) + " per sequence");
  int& held = lengths_[std::size_t(slot)];
  int const have = (held + shape_.page_size - 1) / shape_.page_size;
  int const need = (length + shape_.page_size - 1) / shape_.page_size;
  if (need - have > int(free_.size()))
    throw LoadError(kRuleKvCache, "sequence slot " + std::to_string(slot) + " needs " + std::to_string(need - have) +
                                      " more pages for " + std::to_string(length) + " tokens; " +
                                      std::to_string(free_.size()) + " of " + std::to_string(shape_.num_pages) +
                                      " are free");
  std::int32_t* const pages = table_.data() + std::size_t(slot) * std::size_t(shape_.max_pages_per_seq);
  for (int p = have; p < need; ++p) {
    pages[p] = free_.back();
    free_.pop_back();
  }
  if (length > held) held = length;
}

void KvPages::release(int slot) {
  check_slot(slot);
  std::int32_t* const pages = table_.data() + std::size_t(slot) * std::size_t(shape_.max_pages_per_seq);
  // Pushed back from the last page, so that the next grow takes this sequence's first page first.
  for (int p = shape_.max_pages_per_seq - 1; p >= 0; --p) {
    if (pages[p] >= 0) free_.push_back(pages[p]);
    pages[p] = -1;
  }
  lengths_[std::size_t(slot)] = -1;
}

int KvPages::length(int slot) const {
  check_slot(slot);
  return lengths_[std::size_t(slot)];
}

std::span<const std::int32_t> KvPages::row(int slot) const {
  check_slot(slot);
  return {table_.data() + std::size_t(slot) * std::size_t(shape_.max_pages_per_seq),
          std::size_t(shape_.max_pages_per_seq)};
}

}  // namespace cute_cpp::models
