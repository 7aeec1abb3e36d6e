// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// tests/support/layout_vectors.hpp: loads shared/layout-vectors/layout_vectors.jsonl (one JSON
// object a line: id, op, args, expect, src) and compares results by the README's rules.
#include <string>
#include <vector>

namespace cute_cpp::test {

struct LayoutVector {
  std::string id;
  std::string op;
  std::vector<std::string> args;
  std::string expect;
  std::string line;  // the JSON line, for SCOPED_TRACE
};

/// Every case of the file (path from CUTE_CPP_LAYOUT_VECTORS), optionally only those of one op.
/// Empty when the file is absent.
std::vector<LayoutVector> load_layout_vectors(std::string const& op = {});
/// The path the vectors are read from.
std::string layout_vectors_path();

/// Whitespace removed, `_` markers before integers removed.
std::string normalize(std::string const& s);
/// normalize, then every stride of a size-1 mode set to 0 (README rule 2). Empty on a parse error.
std::string size1_strides_zeroed(std::string const& s);

}  // namespace cute_cpp::test
