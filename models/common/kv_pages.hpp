// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/kv_pages.hpp: the page allocator of the decoder's paged KV cache (host only). The
// cache is a pool of pages of `page_size` token slots; a sequence holds a slot of the batch and a
// row of the block table listing its pages in order, and takes a page from the free list each
// time it grows past its last one, so memory follows the tokens actually held rather than every
// sequence's maximum. The kernels read the table rows (decode attention, the K/V append).
#include <cstdint>  // std::int32_t
#include <span>     // std::span
#include <vector>   // std::vector

namespace cute_cpp::models {

/// Pages of a paged KV cache handed to sequences as they grow, and their block table.
///   KvPages pages({.num_pages = 8, .page_size = 64, .max_pages_per_seq = 4, .max_sequences = 2});
///   int s = pages.add_sequence();   // 0
///   pages.grow(s, 100);             // two pages; pages.row(s) = {0, 1, -1, -1}
///   pages.release(s);               // its pages go back to the free list
class KvPages {
 public:
  struct Shape {
    int num_pages = 0;
    int page_size = 0;
    int max_pages_per_seq = 0;
    int max_sequences = 0;
  };
  /// @pre every field positive [qwen3.kv-cache].
  explicit KvPages(Shape shape);

  [[nodiscard]] const Shape& shape() const noexcept { return shape_; }
  /// The longest sequence the table can hold: max_pages_per_seq x page_size tokens.
  [[nodiscard]] int max_tokens() const noexcept { return shape_.max_pages_per_seq * shape_.page_size; }
  /// A free sequence slot, length 0 and no pages.
  /// @pre a slot is free [qwen3.kv-cache].
  [[nodiscard]] int add_sequence();
  /// Gives sequence `slot` pages for `length` tokens (it never shrinks).
  /// @pre slot is in use; length <= max_tokens() and enough pages are free [qwen3.kv-cache].
  void grow(int slot, int length);
  /// Returns the slot and its pages.
  void release(int slot);
  [[nodiscard]] int length(int slot) const;
  [[nodiscard]] int free_pages() const noexcept { return int(free_.size()); }
  /// Sequence `slot`'s block-table row: max_pages_per_seq page indices, -1 past its pages.
  [[nodiscard]] std::span<const std::int32_t> row(int slot) const;

 private:
  void check_slot(int slot) const;
  Shape shape_;
  std::vector<std::int32_t> table_;  // [max_sequences, max_pages_per_seq]
  std::vector<int> lengths_;         // -1: slot free
  std::vector<std::int32_t> free_;   // a stack; the lowest page on top
};

}  // namespace cute_cpp::models
