// SPDX-License-Identifier: Apache-2.0
#pragma once
// tests/cpu/models/st_writer.hpp: what the loader tests need to build checkpoints on disk: a
// scratch folder per test, a raw safetensors writer (any header text, any length field, so every
// validation error can be produced) and a well-formed writer on top of it.
#include <gtest/gtest.h>
#include <unistd.h>  // getpid

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/common/error.hpp"

namespace cute_cpp::test {

/// A fresh folder under the temporary directory, removed when the test ends.
class ScratchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    auto const* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("cute_cpp_models_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

/// 8-byte little-endian length (header.size() unless given), the header, then the data.
inline std::string safetensors_bytes(const std::string& header, const std::string& data, std::uint64_t length) {
  std::string out;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((length >> (8 * i)) & 0xff);
  return out + header + data;
}
inline std::string safetensors_bytes(const std::string& header, const std::string& data) {
  return safetensors_bytes(header, data, header.size());
}

/// One tensor for the well-formed writer.
struct TensorSpec {
  std::string name;
  std::string dtype;
  std::vector<std::int64_t> shape;
  std::string bytes;
};

/// A well-formed file: tensors in the given order, back to back, header padded with spaces to a
/// multiple of 8 as the reference writer does (so the data buffer is 8-byte aligned).
inline std::string well_formed(const std::vector<TensorSpec>& tensors, const std::string& metadata_json = "") {
  std::string header = "{";
  if (!metadata_json.empty()) header += "\"__metadata__\":" + metadata_json;
  std::string data;
  for (auto const& t : tensors) {
    if (header.size() > 1) header += ",";
    header += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) header += (i ? "," : "") + std::to_string(t.shape[i]);
    header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + t.bytes.size()) + "]}";
    data += t.bytes;
  }
  header += "}";
  while (header.size() % 8 != 0) header += ' ';
  return safetensors_bytes(header, data);
}

/// n bytes 0, 1, 2, ... (mod 251), offset by `seed`, so every tensor's bytes differ.
inline std::string pattern(std::size_t n, unsigned seed = 0) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i + seed) % 251);
  return s;
}

/// Runs `f`, which must throw LoadError for `rule` (written as in the message: "[json.syntax]")
/// with a message containing `text`.
template <class F>
void expect_load_error(F&& f, const std::string& rule, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "expected cute-cpp " << rule << " containing: " << text;
  } catch (const cute_cpp::models::LoadError& e) {
    EXPECT_EQ("[" + e.rule() + "]", rule) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << text;
    EXPECT_EQ(std::string(e.what()).rfind("cute-cpp " + rule + ": ", 0), 0u) << e.what();
  }
}

}  // namespace cute_cpp::test
