// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Token-id helpers shared by the tokenizer's and the chat prompt's tests: a byte-level BPE with no
// merges gives each byte its own id, so expected encodings are written as bytes and concatenations.
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace cute_cpp::test {

using Ids = std::vector<std::int32_t>;

/// The ids of `s` under a vocabulary whose first 256 ids are the bytes.
inline Ids bytes_of(std::string_view s) {
  Ids ids;
  for (char ch : s) ids.push_back(static_cast<unsigned char>(ch));
  return ids;
}

/// The parts one after another.
inline Ids concat(std::initializer_list<Ids> parts) {
  Ids out;
  for (auto const& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace cute_cpp::test
