// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#include "support/layout_vectors.hpp"

#include <fstream>
#include <stdexcept>
#include <cute_cpp/layout/notation.hpp>

namespace cute_cpp::test {
namespace {

// A JSON reader for the file's fixed form: an object of strings and arrays of strings.
struct JsonLine {
  std::string const& s;
  std::size_t p = 0;
  void ws() {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  }
  void expect(char c) {
    ws();
    if (p >= s.size() || s[p] != c) throw std::runtime_error("layout_vectors: bad JSON at " + std::to_string(p));
    ++p;
  }
  std::string str() {
    expect('"');
    std::string out;
    while (p < s.size() && s[p] != '"') {
      if (s[p] == '\\') ++p;
      out += s[p++];
    }
    expect('"');
    return out;
  }
};

}  // namespace

std::string layout_vectors_path() {
#ifdef CUTE_CPP_LAYOUT_VECTORS
  return CUTE_CPP_LAYOUT_VECTORS;
#else
  return "layout_vectors.jsonl";
#endif
}

std::vector<LayoutVector> load_layout_vectors(std::string const& op) {
  std::vector<LayoutVector> out;
  std::ifstream in(layout_vectors_path());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    LayoutVector v;
    v.line = line;
    JsonLine j{line};
    j.expect('{');
    while (true) {
      std::string key = j.str();
      j.expect(':');
      j.ws();
      if (key == "args") {
        j.expect('[');
        j.ws();
        if (line[j.p] != ']') {
          while (true) {
            v.args.push_back(j.str());
            j.ws();
            if (line[j.p] == ',') {
              ++j.p;
              continue;
            }
            break;
          }
        }
        j.expect(']');
      } else {
        std::string val = j.str();
        if (key == "id") v.id = val;
        else if (key == "op") v.op = val;
        else if (key == "expect") v.expect = val;
      }
      j.ws();
      if (line[j.p] == ',') {
        ++j.p;
        continue;
      }
      j.expect('}');
      break;
    }
    if (op.empty() || v.op == op) out.push_back(std::move(v));
  }
  return out;
}

std::string normalize(std::string const& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == '\t') continue;
    if (c == '_' && i + 1 < s.size() && (s[i + 1] == '-' || (s[i + 1] >= '0' && s[i + 1] <= '9'))) continue;
    out += c;
  }
  return out;
}

std::string size1_strides_zeroed(std::string const& s) {
  std::string n = normalize(s);
  try {
    LV l = parse_layout_value(n);
    for (int i = 0; i < l.shape.n; ++i)
      if (l.shape.node[i].kind < 0 && l.shape.node[i].v == 1) l.stride.node[i].v = 0;
    return to_string(l, false);
  } catch (std::invalid_argument const&) {
    return {};
  }
}

}  // namespace cute_cpp::test
