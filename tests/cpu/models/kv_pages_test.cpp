// SPDX-License-Identifier: Apache-2.0
// KvPages: the paged KV cache's page allocator: pages handed out as sequences grow, the table
// rows the kernels read, pages reused after release, and each [qwen3.kv-cache] refusal.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/kv_pages.hpp"

namespace cm = cute_cpp::models;

namespace {

std::vector<std::int32_t> row_of(const cm::KvPages& p, int slot) {
  auto const r = p.row(slot);
  return {r.begin(), r.end()};
}

std::string rule_of(auto&& f) {
  try {
    f();
  } catch (const cm::LoadError& e) {
    return e.rule();
  }
  return "no error";
}

}  // namespace

TEST(KvPages, SequencesTakePagesAsTheyGrow) {
  cm::KvPages p({.num_pages = 6, .page_size = 16, .max_pages_per_seq = 4, .max_sequences = 3});
  EXPECT_EQ(p.max_tokens(), 64);
  int const a = p.add_sequence(), b = p.add_sequence();
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 1);
  p.grow(a, 17);  // two pages
  p.grow(b, 1);
  p.grow(a, 32);  // still two
  EXPECT_EQ(row_of(p, a), (std::vector<std::int32_t>{0, 1, -1, -1}));
  EXPECT_EQ(row_of(p, b), (std::vector<std::int32_t>{2, -1, -1, -1}));
  p.grow(a, 33);
  EXPECT_EQ(row_of(p, a), (std::vector<std::int32_t>{0, 1, 3, -1}));
  EXPECT_EQ(p.length(a), 33);
  EXPECT_EQ(p.free_pages(), 2);
  p.grow(a, 20);  // never shrinks
  EXPECT_EQ(p.length(a), 33);
}

TEST(KvPages, ReleasedPagesAndSlotsAreReused) {
  cm::KvPages p({.num_pages = 4, .page_size = 16, .max_pages_per_seq = 4, .max_sequences = 2});
  int const a = p.add_sequence();
  p.grow(a, 48);
  int const b = p.add_sequence();
  p.grow(b, 16);
  p.release(a);
  EXPECT_EQ(p.free_pages(), 3);
  int const c = p.add_sequence();
  EXPECT_EQ(c, a);
  EXPECT_EQ(p.length(c), 0);
  p.grow(c, 48);  // every page held once, none twice
  std::set<std::int32_t> pages;
  for (int s : {b, c}) {
    for (std::int32_t page : p.row(s)) {
      if (page >= 0) {
        EXPECT_TRUE(pages.insert(page).second) << "page " << page << " handed out twice";
      }
    }
  }
  EXPECT_EQ(rule_of([&] { p.grow(c, 49); }), "qwen3.kv-cache");
  EXPECT_EQ(pages.size(), 4u);
  EXPECT_EQ(p.free_pages(), 0);
}

TEST(KvPages, RefusalsNameTheRule) {
  EXPECT_EQ(rule_of([] { cm::KvPages({.num_pages = 0, .page_size = 16, .max_pages_per_seq = 1, .max_sequences = 1}); }),
            "qwen3.kv-cache");
  cm::KvPages p({.num_pages = 3, .page_size = 16, .max_pages_per_seq = 2, .max_sequences = 2});
  int const a = p.add_sequence();
  EXPECT_EQ(rule_of([&] { p.grow(a, 33); }), "qwen3.kv-cache");  // past max_pages_per_seq
  p.grow(a, 32);
  int const b = p.add_sequence();
  p.grow(b, 16);
  EXPECT_EQ(rule_of([&] { p.grow(b, 17); }), "qwen3.kv-cache");  // no free page
  EXPECT_EQ(p.length(b), 16);                                    // unchanged by the refusal
  EXPECT_EQ(rule_of([&] { (void)p.add_sequence(); }), "qwen3.kv-cache");
  p.release(b);
  EXPECT_EQ(rule_of([&] { p.release(b); }), "qwen3.kv-cache");
  EXPECT_EQ(rule_of([&] { (void)p.row(7); }), "qwen3.kv-cache");
}
