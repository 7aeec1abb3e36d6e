// SPDX-License-Identifier: Apache-2.0
// tests/cpu/models/safetensors_check.cpp: the C++ half of the cross-check with the reference
// implementation. safetensors_reference.py writes files with Python safetensors and an
// expected.json of what the reference reads back from them; this program reads the same files
// with SafetensorsFile and compares names, dtypes, shapes, bytes and metadata, and checks that
// the files the reference rejects are rejected here too. Exit status 0 only if all agree.
//   models_safetensors_check <folder holding expected.json>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "models/common/error.hpp"
#include "models/common/json.hpp"
#include "models/common/safetensors.hpp"

namespace cm = cute_cpp::models;

namespace {
int failures = 0;

void fail(const std::string& what) {
  std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
  ++failures;
}

std::string hex(const std::byte* p, std::uint64_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (std::uint64_t i = 0; i < n; ++i) {
    auto const b = static_cast<unsigned>(p[i]);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

void check_file(const std::filesystem::path& folder, const std::string& name, const cm::Json& expected) {
  auto const f = cm::SafetensorsFile::open(folder / name);
  auto const& tensors = expected.at("tensors").as_object();
  if (f.tensors().size() != tensors.size())
    fail(name + ": " + std::to_string(f.tensors().size()) + " tensors, the reference reads " +
         std::to_string(tensors.size()));
  for (auto const& [tensor, want] : tensors) {
    std::string const who = name + ": " + tensor;
    auto const* t = f.find(tensor);
    if (t == nullptr) {
      fail(who + ": missing");
      continue;
    }
    if (cm::dtype_name(t->dtype) != want.at("dtype").as_string())
      fail(who + ": dtype " + std::string(cm::dtype_name(t->dtype)) + ", reference " + want.at("dtype").as_string());
    std::vector<std::int64_t> shape;
    for (auto const& d : want.at("shape").as_array()) shape.push_back(d.as_int());
    if (t->shape != shape) fail(who + ": shape differs");
    if (hex(t->data, t->bytes()) != want.at("hex").as_string()) fail(who + ": bytes differ");
  }
  std::vector<std::pair<std::string, std::string>> metadata;
  for (auto const& [k, v] : expected.at("metadata").as_object()) metadata.emplace_back(k, v.as_string());
  auto mine = f.metadata();
  std::sort(mine.begin(), mine.end());
  std::sort(metadata.begin(), metadata.end());
  if (mine != metadata) fail(name + ": metadata differs");
  std::printf("%s: %zu tensors agree with the reference\n", name.c_str(), f.tensors().size());
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <folder holding expected.json>\n", argv[0]);
    return 2;
  }
  std::filesystem::path const folder = argv[1];
  try {
    auto const expected = cm::read_json_file(folder / "expected.json");
    for (auto const& [name, file] : expected.at("files").as_object()) check_file(folder, name, file);
    for (auto const& bad : expected.at("rejected").as_array()) {
      try {
        (void)cm::SafetensorsFile::open(folder / bad.as_string());
        fail(bad.as_string() + ": the reference rejects it, SafetensorsFile accepted it");
      } catch (const cm::LoadError& e) {
        std::printf("%s: rejected by both: %s\n", bad.as_string().c_str(), e.what());
      }
    }
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (failures != 0) std::fprintf(stderr, "%d mismatches with the reference implementation\n", failures);
  return failures == 0 ? 0 : 1;
}
