// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// libFuzzer target: SafetensorsFile::open on arbitrary file contents (written to a scratch file, as
// the reader maps files). A bad header, offsets or sizes must be a LoadError naming the rule; an
// accepted file's tensors must lie inside its data buffer.
#include "models/common/error.hpp"
#include "models/common/safetensors.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

std::filesystem::path scratch_file() {
  static std::filesystem::path const path =
      std::filesystem::temp_directory_path() / ("cute_cpp_safetensors_fuzz_" + std::to_string(getpid()));
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  auto const path = scratch_file();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  }
  try {
    auto const file = cute_cpp::models::SafetensorsFile::open(path);
    for (auto const& t : file.tensors()) {
      if (t.end < t.begin || file.data_offset() + t.end > file.file_size()) std::abort();
      // Touch both ends: a range past the mapping would fault here.
      if (t.bytes() > 0 && (static_cast<int>(t.data[0]) | static_cast<int>(t.data[t.bytes() - 1])) < 0) std::abort();
    }
  } catch (cute_cpp::models::LoadError const&) {
  }
  return 0;
}
